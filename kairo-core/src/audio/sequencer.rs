//! Playing compiled MML on a voice: a command pointer, repeat counters, the tempo, and how
//! many samples remain until the next command. Time is counted in samples (f64), so tempo
//! stays exact over any length and the same bits come out everywhere.

use super::mml::{Cmd, TICKS_PER_QUARTER};
use super::voice::{SAMPLE_RATE, Voice};

/// Commands one track may run without time passing in one call (a guard; compiled tracks
/// cannot loop without time anyway).
const COMMANDS_PER_CALL: usize = 10_000;

/// One track being played. Its commands stay in the cart's audio library and are handed in
/// for each call, so the player is plain state.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TrackPlayer {
    pc: usize,
    /// (pc of the first command inside the repeat, runs left; None until the `]` is reached)
    repeats: Vec<(usize, Option<u32>)>,
    tempo: f64,
    /// Samples until the next command runs.
    pub wait: f64,
    /// Whether the command that ran last was a note (released when the next one runs,
    /// unless that one is tied).
    holding: bool,
    /// Music loops back here when the track ends.
    loop_point: Option<usize>,
    pub ended: bool,
    /// Commands run since the counter was last read (the audio unit's cycle cost).
    pub commands: u64,
}

impl TrackPlayer {
    /// A player at the start of `cmds`; a `looping` one goes back to its loop point.
    pub fn new(cmds: &[Cmd], looping: bool) -> TrackPlayer {
        let loop_point = looping
            .then(|| cmds.iter().position(|c| *c == Cmd::LoopPoint))
            .flatten();
        TrackPlayer {
            pc: 0,
            repeats: Vec::new(),
            tempo: 120.0,
            wait: 0.0,
            holding: false,
            loop_point,
            ended: false,
            commands: 0,
        }
    }

    fn samples(&self, ticks: u32) -> f64 {
        f64::from(ticks) * SAMPLE_RATE * 60.0 / (self.tempo * f64::from(TICKS_PER_QUARTER))
    }

    /// Runs the commands of `cmds` (the track it was made for) due now on `voice`; `muted`
    /// plays notes silently (the channel is lent to a sound effect). Stops at the next note
    /// or rest.
    pub(crate) fn run_due(&mut self, cmds: &[Cmd], voice: &mut Voice, muted: bool) {
        let mut budget = COMMANDS_PER_CALL;
        while !self.ended && self.wait <= 0.0 && budget > 0 {
            budget -= 1;
            let Some(cmd) = cmds.get(self.pc).cloned() else {
                if self.holding {
                    voice.note_off();
                    self.holding = false;
                }
                match self.loop_point {
                    Some(point) => {
                        self.pc = point + 1;
                        self.repeats.clear();
                    }
                    None => self.ended = true,
                }
                continue;
            };
            self.pc += 1;
            self.commands += 1;
            if self.holding && !matches!(cmd, Cmd::Note { tied: true, .. }) && cmd.takes_time() {
                voice.note_off();
                self.holding = false;
            }
            match cmd {
                Cmd::Note { pitch, ticks, tied } => {
                    if !muted {
                        voice.note_on(f64::from(pitch), tied && self.holding);
                    }
                    self.holding = true;
                    self.wait += self.samples(ticks);
                }
                Cmd::Rest { ticks } => self.wait += self.samples(ticks),
                Cmd::Tempo(t) => self.tempo = t,
                Cmd::Volume(v) => voice.volume = v,
                Cmd::Tone(w) => voice.wave = w,
                Cmd::Envelope(e) => voice.envelope = e,
                Cmd::Pan(p) => voice.pan = p,
                Cmd::Slide(s) => voice.slide = s,
                Cmd::Vibrato(depth, rate) => voice.vibrato = (depth, rate),
                Cmd::Arpeggio(offsets) => voice.arpeggio = offsets,
                Cmd::Table(t) => voice.table = t,
                Cmd::LoopPoint => {}
                Cmd::LoopStart => self.repeats.push((self.pc, None)),
                Cmd::LoopEnd { count } => {
                    if let Some((start, left)) = self.repeats.last_mut() {
                        let remaining = left.get_or_insert(count - 1);
                        if *remaining > 0 {
                            *remaining -= 1;
                            self.pc = *start;
                        } else {
                            self.repeats.pop();
                        }
                    }
                }
            }
        }
    }
}

/// Samples one pass of `cmds` lasts, played without looping (repeats included), or `None` when
/// it lasts longer than `cap` samples.
pub fn pass_samples(cmds: &[Cmd], cap: f64) -> Option<f64> {
    let mut player = TrackPlayer::new(cmds, false);
    let mut voice = Voice::default();
    let mut total = 0.0;
    loop {
        player.run_due(cmds, &mut voice, true);
        if player.ended {
            return Some(total);
        }
        total += player.wait.max(0.0);
        player.wait = 0.0;
        if total > cap {
            return None;
        }
    }
}
