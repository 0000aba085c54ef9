//! One channel's sound generator: a band-limited oscillator (pulse in 4 duties, triangle, saw,
//! LFSR noise in long and short mode, a 32-step 4-bit wavetable), an ADSR envelope, volume,
//! pan, pitch slide, vibrato and arpeggio. Pure arithmetic on f64 (deterministic bits).
//!
//! The oscillator's phase is a 32-bit fixed-point fraction of a cycle (a numerically
//! controlled oscillator, as sound chips have): stepping it is an integer add, so a replay
//! nobody hears can move it on by any number of samples in one step and land on exactly the
//! bits that sample-by-sample rendering reaches.

use crate::math::{exp2, sine};

/// Output samples per second.
pub const SAMPLE_RATE: f64 = crate::spec::SAMPLE_RATE as f64;
/// Shortest attack or release, in samples (2 ms): notes start and stop without clicks.
pub(crate) const MIN_RAMP: f64 = 96.0;
/// Samples between updates of pitch effects (vibrato, slide, arpeggio).
pub(crate) const EFFECT_STEP: usize = 32;
/// One cycle of the oscillator's phase: the phase counts cycles in units of 2^-32.
const CYCLE: f64 = 4_294_967_296.0;
/// The noise register steps 8 times per cycle: whenever the phase's top 3 bits change.
const NOISE_SHIFT: u32 = 29;

/// A waveform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Wave {
    /// Pulse with duty 1/8, 1/4, 1/2 or 3/4 (0-3).
    Pulse(u8),
    Triangle,
    Saw,
    /// LFSR noise; short mode repeats every 93 steps (metallic), long mode is white-ish.
    Noise {
        short: bool,
    },
    /// The voice's 32-step wavetable.
    Table,
}

/// Envelope times in samples and the sustain level.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Envelope {
    pub(crate) attack: f64,
    pub(crate) decay: f64,
    pub(crate) sustain: f64,
    pub release: f64,
}

impl Default for Envelope {
    fn default() -> Self {
        Envelope {
            attack: MIN_RAMP,
            decay: 0.0,
            sustain: 1.0,
            release: 960.0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Stage {
    Off,
    Attack,
    Decay,
    Sustain,
    Release,
}

/// One voice.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Voice {
    pub(crate) wave: Wave,
    pub table: [u8; 32],
    pub(crate) volume: f64,
    /// -1 left .. 1 right.
    pub pan: f64,
    pub(crate) envelope: Envelope,
    /// Semitones per second added to the pitch while a note sounds.
    pub(crate) slide: f64,
    /// Vibrato depth in semitones and rate in Hz.
    pub(crate) vibrato: (f64, f64),
    /// Arpeggio offsets (semitones) cycled every `arp_step` samples; empty = off.
    pub(crate) arpeggio: Vec<i8>,
    pitch: f64,
    /// Where in its cycle the oscillator is, in units of 2^-32 of a cycle.
    phase: u32,
    /// How far the phase moves per sample, in the same units.
    step: u32,
    stage: Stage,
    level: f64,
    elapsed: f64,
    release_from: f64,
    lfsr: u16,
    arp_index: usize,
    effect_clock: usize,
    /// Samples since the note started (vibrato and arpeggio run on it).
    note_time: f64,
}

impl Default for Voice {
    fn default() -> Self {
        Voice {
            wave: Wave::Pulse(2),
            table: [8; 32],
            volume: 0.75,
            pan: 0.0,
            envelope: Envelope::default(),
            slide: 0.0,
            vibrato: (0.0, 0.0),
            arpeggio: Vec::new(),
            pitch: 60.0,
            phase: 0,
            step: 0,
            stage: Stage::Off,
            level: 0.0,
            elapsed: 0.0,
            release_from: 0.0,
            lfsr: 1,
            arp_index: 0,
            effect_clock: 0,
            note_time: 0.0,
        }
    }
}

/// Frequency in Hz of MIDI note `pitch` (69 = A4 = 440 Hz, clamped to 0-127), from
/// deterministic math: a table of the 128 notes and a short series for the fraction.
pub(crate) fn frequency(pitch: f64) -> f64 {
    static NOTES: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let notes = NOTES.get_or_init(|| {
        (0..=128)
            .map(|n| 440.0 * exp2((f64::from(n) - 69.0) / 12.0))
            .collect()
    });
    let pitch = if pitch.is_finite() {
        pitch.clamp(0.0, 127.0)
    } else {
        69.0
    };
    let note = pitch.floor();
    // 2^(f/12) for f in [0, 1): e^y with y < 0.058; seven terms reach 1e-16.
    let y = (pitch - note) / 12.0 * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for n in 1..8 {
        term *= y / f64::from(n);
        sum += term;
    }
    notes[note as usize] * sum
}

/// The PolyBLEP correction around a step at phase 0 for a phase increment `dt`.
fn poly_blep(t: f64, dt: f64) -> f64 {
    if t < dt {
        let t = t / dt;
        t + t - t * t - 1.0
    } else if t > 1.0 - dt {
        let t = (t - 1.0) / dt;
        t * t + t + t + 1.0
    } else {
        0.0
    }
}

/// Below this, whole numbers in an `f64` are exact and adding 1.0 to one is exact.
const WHOLE_LIMIT: f64 = 4_503_599_627_370_496.0; // 2^52

/// How many of the ticks from elapsed time `start` (a whole number) on come before `end`:
/// the `i` with `start + i < end`, compared exactly.
fn ticks_below(start: f64, end: f64) -> usize {
    if start >= end || end.is_nan() {
        return 0;
    }
    if end == f64::INFINITY {
        return usize::MAX;
    }
    let mut k = (end - start).ceil() as usize;
    while k > 0 && start + (k - 1) as f64 >= end {
        k -= 1;
    }
    while start + (k as f64) < end {
        k += 1;
    }
    k
}

impl Voice {
    /// Starts note `pitch` (MIDI number); `legato` keeps the envelope going (a tie).
    pub(crate) fn note_on(&mut self, pitch: f64, legato: bool) {
        self.pitch = pitch;
        self.arp_index = 0;
        if !legato || self.stage == Stage::Off || self.stage == Stage::Release {
            self.stage = Stage::Attack;
            self.elapsed = self.level * self.envelope.attack.max(MIN_RAMP);
            self.note_time = 0.0;
        }
        self.update_step();
    }

    /// Releases the note: the envelope fades out over its release time.
    pub(crate) fn note_off(&mut self) {
        if self.stage != Stage::Off && self.stage != Stage::Release {
            self.stage = Stage::Release;
            self.release_from = self.level;
            self.elapsed = 0.0;
        }
    }

    /// Silences at once (still ramping down over the minimum release, so no click).
    pub fn cut(&mut self) {
        self.note_off();
        self.envelope.release = self.envelope.release.min(MIN_RAMP);
    }

    /// Whether the voice makes any sound.
    pub(crate) fn sounding(&self) -> bool {
        self.stage != Stage::Off
    }

    /// Current pitch after slide, vibrato and arpeggio, in semitones.
    fn current_pitch(&self) -> f64 {
        let arp = if self.arpeggio.is_empty() {
            0.0
        } else {
            f64::from(self.arpeggio[self.arp_index % self.arpeggio.len()])
        };
        let vibrato = if self.vibrato.0 != 0.0 {
            let t = self.note_time / SAMPLE_RATE;
            self.vibrato.0 * sine(2.0 * std::f64::consts::PI * self.vibrato.1 * t)
        } else {
            0.0
        };
        self.pitch + arp + vibrato
    }

    fn update_step(&mut self) {
        let f = frequency(self.current_pitch()).clamp(1.0, SAMPLE_RATE / 2.0 - 1.0);
        // Below half a cycle per sample, so it fits in 31 bits.
        self.step = (f / SAMPLE_RATE * CYCLE).round() as u32;
    }

    /// The envelope's level now, advancing it by one sample.
    fn envelope_tick(&mut self) -> f64 {
        let e = self.envelope;
        match self.stage {
            Stage::Off => self.level = 0.0,
            Stage::Attack => {
                let attack = e.attack.max(MIN_RAMP);
                self.level = (self.elapsed / attack).min(1.0);
                if self.elapsed >= attack {
                    self.stage = Stage::Decay;
                    self.elapsed = 0.0;
                }
            }
            Stage::Decay => {
                if e.decay <= 0.0 || self.elapsed >= e.decay {
                    self.level = e.sustain;
                    self.stage = Stage::Sustain;
                } else {
                    self.level = 1.0 - (1.0 - e.sustain) * (self.elapsed / e.decay);
                }
            }
            Stage::Sustain => self.level = e.sustain,
            Stage::Release => {
                let release = e.release.max(MIN_RAMP);
                self.level = self.release_from * (1.0 - self.elapsed / release).max(0.0);
                if self.elapsed >= release {
                    self.stage = Stage::Off;
                    self.level = 0.0;
                }
            }
        }
        self.elapsed += 1.0;
        self.level
    }

    /// Moves the envelope on by `n` ticks, leaving it bit for bit as `n` calls of
    /// [`Voice::envelope_tick`] would (an unheard replay must come out as the heard run):
    /// each stage's ticks that do not end it in one step, when the elapsed time is a whole
    /// number (adding 1.0 to it `k` times is then adding `k`), else one tick at a time.
    fn skip_envelope(&mut self, mut n: usize) {
        while n > 0 {
            let e = self.envelope;
            let whole = self.elapsed.fract() == 0.0 && self.elapsed.abs() < WHOLE_LIMIT;
            let end = match self.stage {
                _ if !whole => None,
                Stage::Attack => Some(e.attack.max(MIN_RAMP)),
                Stage::Decay if e.decay > 0.0 => Some(e.decay),
                // A decay of zero ends at its first tick.
                Stage::Decay => None,
                Stage::Sustain | Stage::Off => Some(f64::INFINITY),
                Stage::Release => Some(e.release.max(MIN_RAMP)),
            };
            let Some(end) = end else {
                self.envelope_tick();
                n -= 1;
                continue;
            };
            // The ticks before the one that ends the stage: only the last sets the level.
            let steady = ticks_below(self.elapsed, end).min(n);
            if steady > 0 {
                self.elapsed += (steady - 1) as f64;
                self.envelope_tick();
                n -= steady;
            }
            if n > 0 {
                self.envelope_tick();
                n -= 1;
            }
        }
    }

    /// Steps the noise register once per eighth of a cycle the phase passes in moving on
    /// by `samples` samples from `phase` (taps for long or short mode).
    fn step_noise(&mut self, phase: u32, samples: u64, tap: u16) {
        let end = u64::from(phase) + u64::from(self.step) * samples;
        let steps = (end >> NOISE_SHIFT) - (u64::from(phase) >> NOISE_SHIFT);
        for _ in 0..steps {
            let bit = (self.lfsr ^ (self.lfsr >> tap)) & 1;
            self.lfsr = (self.lfsr >> 1) | (bit << 14);
        }
    }

    /// The noise register's feedback tap for this voice's wave, if it is noise.
    fn noise_tap(&self) -> Option<u16> {
        match self.wave {
            Wave::Noise { short } => Some(if short { 6 } else { 1 }),
            _ => None,
        }
    }

    /// What [`Voice::generate`] does to the oscillator over `n` samples (its phase, the
    /// noise register), without the samples: one add, as the phase is fixed point.
    fn generate_nothing(&mut self, n: usize) {
        if let Some(tap) = self.noise_tap() {
            self.step_noise(self.phase, n as u64, tap);
        }
        self.phase = self.phase.wrapping_add(self.step.wrapping_mul(n as u32));
    }

    /// Fills `out` with the oscillator's next samples, -1..1: one tight loop per waveform.
    fn generate(&mut self, out: &mut [f64]) {
        let step = self.step;
        let dt = f64::from(step) / CYCLE;
        let mut phase = self.phase;
        let at = |phase: u32| f64::from(phase) / CYCLE;
        match self.wave {
            Wave::Pulse(duty) => {
                let width: f64 = [0.125, 0.25, 0.5, 0.75][usize::from(duty.min(3))];
                // Remove the DC offset of narrow pulses so every duty centres on zero, and
                // scale back to a peak of 1.
                let offset = 2.0 * width - 1.0;
                let scale = 1.0 / (1.0 + offset.abs());
                for sample in out.iter_mut() {
                    let t = at(phase);
                    let naive = if t < width { 1.0 } else { -1.0 };
                    let falling = if t >= width {
                        t - width
                    } else {
                        t - width + 1.0
                    };
                    *sample = (naive + poly_blep(t, dt) - poly_blep(falling, dt) - offset) * scale;
                    phase = phase.wrapping_add(step);
                }
            }
            Wave::Saw => {
                for sample in out.iter_mut() {
                    let t = at(phase);
                    *sample = 2.0 * t - 1.0 - poly_blep(t, dt);
                    phase = phase.wrapping_add(step);
                }
            }
            Wave::Triangle => {
                for sample in out.iter_mut() {
                    *sample = 1.0 - 4.0 * (at(phase) - 0.5).abs();
                    phase = phase.wrapping_add(step);
                }
            }
            Wave::Table => {
                for sample in out.iter_mut() {
                    *sample = f64::from(self.table[(phase >> 27) as usize] & 0xF) / 7.5 - 1.0;
                    phase = phase.wrapping_add(step);
                }
            }
            Wave::Noise { short } => {
                let tap = if short { 6 } else { 1 };
                for sample in out.iter_mut() {
                    self.step_noise(phase, 1, tap);
                    *sample = if self.lfsr & 1 == 1 { 1.0 } else { -1.0 };
                    phase = phase.wrapping_add(step);
                }
            }
        }
        self.phase = phase;
    }

    /// Adds `n` stereo samples (interleaved) of this voice to `out`, scaled by `gain`.
    pub fn render(&mut self, out: &mut [f32], gain: f64) {
        let frames = out.len() / 2;
        self.run(frames, Some((out, gain)));
    }

    /// Moves the voice on by `frames` samples as [`Voice::render`] would, without working
    /// out a single sample: for replays nobody hears, which must leave the voice exactly as
    /// rendering would.
    pub fn skip(&mut self, frames: usize) {
        self.run(frames, None);
    }

    fn run(&mut self, frames: usize, out: Option<(&mut [f32], f64)>) {
        if out.is_some() || self.moving() || frames == 0 {
            self.run_chunks(frames, out);
            return;
        }
        // Unheard, and no effect moves the pitch: the ticks before the one that changes the
        // envelope's stage run in one step (any split of them comes out the same), and the
        // rest of the chunk that holds that tick as `run_chunks` runs it, since a chunk's
        // end decides how long a decay ticks on in sustain and where a release stops.
        let mut done = 0;
        while done < frames {
            match self.stage {
                Stage::Off => return,
                Stage::Sustain => return self.hold_unheard(frames - done),
                Stage::Attack | Stage::Decay | Stage::Release => {}
            }
            let chunk = match self.effect_clock {
                0 => EFFECT_STEP,
                n => n,
            };
            let steady = self.ticks_in_stage().unwrap_or(0);
            let n = match steady.min(frames - done) {
                0 => {
                    let n = chunk.min(frames - done);
                    self.run_chunks(n, None);
                    n
                }
                n => {
                    self.generate_nothing(n);
                    self.note_time += n as f64;
                    self.turn_effect_clock(n);
                    self.skip_envelope(n);
                    n
                }
            };
            done += n;
        }
    }

    /// The envelope ticks before the one that changes its stage (attack, decay or
    /// release), when the elapsed time is a whole number (see [`Voice::skip_envelope`]).
    fn ticks_in_stage(&self) -> Option<usize> {
        let e = self.envelope;
        if self.elapsed.fract() != 0.0 || self.elapsed.abs() >= WHOLE_LIMIT {
            return None;
        }
        match self.stage {
            Stage::Attack => Some(ticks_below(self.elapsed, e.attack.max(MIN_RAMP))),
            Stage::Decay if e.decay > 0.0 => Some(ticks_below(self.elapsed, e.decay)),
            Stage::Decay => Some(0),
            Stage::Release => Some(ticks_below(self.elapsed, e.release.max(MIN_RAMP))),
            Stage::Sustain | Stage::Off => None,
        }
    }

    /// Whether an effect moves the pitch (slide, vibrato, arpeggio): the oscillator's step
    /// is then worked out again every [`EFFECT_STEP`] samples.
    fn moving(&self) -> bool {
        self.slide != 0.0 || self.vibrato.0 != 0.0 || !self.arpeggio.is_empty()
    }

    /// What [`Voice::run_chunks`] does, unheard, to a held note no effect moves, in one step:
    /// the level stays, the phase and the noise register move on (fixed point, so one add is
    /// many), and the effect clock goes round as its chunks would leave it.
    fn hold_unheard(&mut self, frames: usize) {
        self.generate_nothing(frames);
        // Whole numbers of samples: the sum of the chunks' adds, exactly.
        self.note_time += frames as f64;
        self.turn_effect_clock(frames);
    }

    /// The effect clock as `frames` samples of chunks leave it.
    fn turn_effect_clock(&mut self, frames: usize) {
        let clock = match self.effect_clock {
            0 => EFFECT_STEP,
            n => n,
        };
        self.effect_clock = if frames < clock {
            clock - frames
        } else {
            // A chunk that ends the span on a boundary is followed by the clock's reset.
            match (frames - clock) % EFFECT_STEP {
                0 => EFFECT_STEP,
                r => EFFECT_STEP - r,
            }
        };
    }

    /// Runs the voice [`EFFECT_STEP`] samples at a time (the effects move the pitch between
    /// chunks), mixing into `out` when given.
    fn run_chunks(&mut self, frames: usize, mut out: Option<(&mut [f32], f64)>) {
        if self.stage == Stage::Off {
            return;
        }
        let gain = out.as_ref().map_or(0.0, |(_, gain)| *gain);
        let left = gain * self.volume * (1.0 - self.pan).min(1.0);
        let right = gain * self.volume * (1.0 + self.pan).min(1.0);
        let mut wave = [0.0f64; EFFECT_STEP];
        let mut done = 0;
        loop {
            if self.effect_clock == 0 {
                let moving = self.moving();
                if self.slide != 0.0 && self.stage != Stage::Release {
                    self.pitch += self.slide * EFFECT_STEP as f64 / SAMPLE_RATE;
                }
                if !self.arpeggio.is_empty() {
                    self.arp_index = (self.note_time as usize / 800) % self.arpeggio.len();
                }
                if moving {
                    self.update_step();
                }
                self.effect_clock = EFFECT_STEP;
            }
            let n = (frames - done).min(self.effect_clock);
            if n == 0 {
                break;
            }
            match &mut out {
                Some((buffer, _)) => {
                    self.generate(&mut wave[..n]);
                    self.effect_clock -= n;
                    self.note_time += n as f64;
                    let span = buffer[done * 2..(done + n) * 2].chunks_exact_mut(2);
                    if self.stage == Stage::Sustain {
                        // A held note: the level is constant, so the envelope need not step.
                        let (l, r) = (left * self.envelope.sustain, right * self.envelope.sustain);
                        for (frame, value) in span.zip(&wave[..n]) {
                            frame[0] += (value * l) as f32;
                            frame[1] += (value * r) as f32;
                        }
                    } else {
                        for (frame, value) in span.zip(&wave[..n]) {
                            let sample = value * self.envelope_tick();
                            frame[0] += (sample * left) as f32;
                            frame[1] += (sample * right) as f32;
                        }
                    }
                }
                None => {
                    self.generate_nothing(n);
                    self.effect_clock -= n;
                    self.note_time += n as f64;
                    if self.stage != Stage::Sustain {
                        self.skip_envelope(n);
                    }
                }
            }
            done += n;
            if self.stage == Stage::Off {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for the cases below.
    struct Cases(u64);

    impl Cases {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn float(&mut self, max: f64) -> f64 {
            // Whole numbers half the time: those take the one-step path.
            let x = (self.next() % 1_000_000) as f64 / 1_000_000.0 * max;
            if self.next().is_multiple_of(2) {
                x.floor()
            } else {
                x
            }
        }

        /// An envelope with times up to `max` samples (a quarter of the decays zero).
        fn envelope(&mut self, max: f64) -> Envelope {
            Envelope {
                attack: self.float(max),
                decay: if self.next().is_multiple_of(4) {
                    0.0
                } else {
                    self.float(max)
                },
                sustain: self.float(1.0),
                release: self.float(max),
            }
        }

        /// Any stage.
        fn stage(&mut self) -> Stage {
            const STAGES: [Stage; 5] = [
                Stage::Off,
                Stage::Attack,
                Stage::Decay,
                Stage::Sustain,
                Stage::Release,
            ];
            STAGES[(self.next() % 5) as usize]
        }

        /// `voice` with a random oscillator: phase, step, noise register, effect clock and
        /// note time.
        fn oscillator(&mut self, voice: Voice) -> Voice {
            Voice {
                phase: self.next() as u32,
                step: (self.next() as u32) >> (1 + self.next() % 20),
                lfsr: (self.next() as u16) | 1,
                effect_clock: (self.next() % (EFFECT_STEP as u64 + 1)) as usize,
                note_time: (self.next() % 1_000_000) as f64,
                ..voice
            }
        }
    }

    #[test]
    fn skipping_the_envelope_leaves_it_as_ticking_it_does() {
        let mut cases = Cases(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut voice = Voice {
                envelope: cases.envelope(400.0),
                stage: cases.stage(),
                level: cases.float(1.0),
                elapsed: cases.float(500.0),
                release_from: cases.float(1.0),
                ..Voice::default()
            };
            let n = (cases.next() % 70) as usize;
            let mut ticked = voice.clone();
            for _ in 0..n {
                ticked.envelope_tick();
            }
            let before = format!("{voice:?} n {n}");
            voice.skip_envelope(n);
            assert_eq!(voice.stage, ticked.stage, "{before}");
            assert_eq!(voice.level.to_bits(), ticked.level.to_bits(), "{before}");
            assert_eq!(
                voice.elapsed.to_bits(),
                ticked.elapsed.to_bits(),
                "{before}"
            );
        }
    }

    #[test]
    fn an_unheard_held_note_moves_on_in_one_step_as_in_chunks() {
        let waves = [
            Wave::Pulse(1),
            Wave::Saw,
            Wave::Noise { short: false },
            Wave::Noise { short: true },
        ];
        let mut cases = Cases(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let voice = Voice {
                wave: waves[(cases.next() % 4) as usize],
                stage: Stage::Sustain,
                level: 0.5,
                ..Voice::default()
            };
            let voice = cases.oscillator(voice);
            let frames = (cases.next() % 2000) as usize;
            let mut chunked = voice.clone();
            chunked.run_chunks(frames, None);
            let mut held = voice.clone();
            held.hold_unheard(frames);
            assert_eq!(held, chunked, "{voice:?} over {frames} samples");
        }
        // Any stage, unheard: in one step up to the chunk in which the stage changes, that
        // chunk as chunks run it, and so on; an elapsed time that is not whole ticks by chunk.
        for _ in 0..40_000 {
            let voice = Voice {
                wave: waves[(cases.next() % 4) as usize],
                envelope: cases.envelope(600.0),
                stage: cases.stage(),
                level: cases.float(1.0),
                release_from: cases.float(1.0),
                elapsed: cases.float(700.0),
                ..Voice::default()
            };
            let voice = cases.oscillator(voice);
            let frames = (cases.next() % 3000) as usize;
            let mut chunked = voice.clone();
            chunked.run_chunks(frames, None);
            let mut run = voice.clone();
            run.run(frames, None);
            assert_eq!(run, chunked, "{voice:?} over {frames} samples");
        }
        // And `run` takes that way only for such a note.
        let mut sliding = Voice {
            stage: Stage::Sustain,
            slide: 12.0,
            step: 1 << 24,
            ..Voice::default()
        };
        let mut chunked = sliding.clone();
        chunked.run_chunks(800, None);
        sliding.run(800, None);
        assert_eq!(sliding, chunked);
        assert_ne!(sliding.step, 1 << 24, "the slide moved the pitch");
    }

    #[test]
    fn ticks_below_counts_exactly() {
        assert_eq!(ticks_below(0.0, 96.0), 96);
        assert_eq!(ticks_below(95.0, 96.0), 1);
        assert_eq!(ticks_below(96.0, 96.0), 0);
        assert_eq!(ticks_below(3.0, 3.5), 1);
        assert_eq!(ticks_below(0.0, f64::INFINITY), usize::MAX);
        assert_eq!(ticks_below(0.0, f64::NAN), 0);
    }
}
