//! The audio unit: 8 channels of [`voice::Voice`], music and sound effects written in MML
//! ([`mml`]) played by [`sequencer::TrackPlayer`]s, mixed once per vblank into 800 stereo
//! f32 samples at 48 kHz. The unit advances every vblank, busy ones included, so music keeps
//! its tempo while the game slows down. See `docs/audio.md`.

pub mod busy;
pub mod mml;
pub(crate) mod sequencer;
pub(crate) mod voice;

use std::collections::BTreeMap;
use std::sync::Arc;

use mml::Cmd;
use sequencer::TrackPlayer;
use voice::Voice;

use crate::spec::cost;

pub use crate::spec::{AUDIO_CHANNELS as CHANNELS, FRAMES_PER_VBLANK, SAMPLES_PER_VBLANK};
/// Gain of one channel in the mix, so that eight loud channels stay near full scale.
const CHANNEL_GAIN: f64 = 0.25;

/// A song: one compiled track per channel it uses.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Song {
    pub tracks: Vec<(usize, Arc<Vec<Cmd>>)>,
}

impl Song {
    /// Compiles a music file: lines of tracks by letter (see [`mml::split_tracks`]). Every
    /// track's first mistake, in track order.
    pub fn from_music_file(text: &str) -> Result<Song, Vec<mml::MmlError>> {
        let mut tracks = Vec::new();
        let mut errors = Vec::new();
        for (channel, body, pos) in mml::split_tracks(text).map_err(|e| vec![e])? {
            match mml::compile(&body, pos) {
                Ok(cmds) => tracks.push((channel, Arc::new(cmds))),
                Err(e) => errors.push(e),
            }
        }
        match errors.is_empty() {
            true => Ok(Song { tracks }),
            false => Err(errors),
        }
    }

    /// Whether a track has a loop point (`L`): the song then plays until it is stopped.
    pub fn loops(&self) -> bool {
        self.tracks
            .iter()
            .any(|(_, cmds)| cmds.contains(&Cmd::LoopPoint))
    }

    /// Samples the longest track lasts played once through (up to its end, a looping track
    /// once through its loop), or `None` when that is longer than `cap` samples.
    pub fn pass_samples(&self, cap: f64) -> Option<f64> {
        self.tracks
            .iter()
            .map(|(_, cmds)| sequencer::pass_samples(cmds, cap))
            .try_fold(0.0, |longest: f64, pass| Some(longest.max(pass?)))
    }
}

/// The cart's music and sound effects.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AudioLibrary {
    pub songs: BTreeMap<String, Song>,
    /// Sound effects in manifest order (their index is their number).
    pub sounds: Vec<(String, Arc<Vec<Cmd>>)>,
}

impl AudioLibrary {
    /// The index of sound effect `name`.
    pub fn sound_index(&self, name: &str) -> Option<usize> {
        self.sounds.iter().position(|(n, _)| n == name)
    }
}

/// A sound effect playing on a channel: its number in the library, and its player.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Effect {
    name: String,
    index: usize,
    track: TrackPlayer,
}

/// All state of the audio unit. The music and sound effects stay in the cart's
/// [`AudioLibrary`], named by the song's name and the effect's number, and are handed in for
/// each call that needs them.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct AudioUnit {
    music_voices: [Voice; CHANNELS],
    effect_voices: [Voice; CHANNELS],
    music: Option<(String, Vec<(usize, TrackPlayer)>)>,
    effects: [Option<Effect>; CHANNELS],
}

/// Why a sound request failed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
pub enum SoundError {
    #[error("the cart has no music named \"{0}\"")]
    NoSuchMusic(String),
    #[error("the cart has no sound effect \"{0}\"")]
    NoSuchSound(String),
}

impl AudioUnit {
    /// Starts song `name` of `library` from its beginning (replacing any song playing).
    pub fn play_music(&mut self, library: &AudioLibrary, name: &str) -> Result<(), SoundError> {
        let song = library
            .songs
            .get(name)
            .ok_or_else(|| SoundError::NoSuchMusic(name.into()))?;
        let tracks = song
            .tracks
            .iter()
            .map(|(c, cmds)| (*c, TrackPlayer::new(cmds, true)))
            .collect();
        self.stop_music();
        self.music = Some((name.to_string(), tracks));
        for voice in &mut self.music_voices {
            *voice = Voice::default();
        }
        Ok(())
    }

    /// Stops the music (notes fade out over their release).
    pub(crate) fn stop_music(&mut self) {
        self.music = None;
        for voice in &mut self.music_voices {
            voice.cut();
        }
    }

    /// Plays sound effect `index` of `library` on `channel` (or the best free one); returns
    /// the channel.
    pub fn play_sound(
        &mut self,
        library: &AudioLibrary,
        index: usize,
        channel: Option<usize>,
    ) -> Result<usize, SoundError> {
        let (name, cmds) = library
            .sounds
            .get(index)
            .ok_or_else(|| SoundError::NoSuchSound(index.to_string()))?;
        let channel = channel.unwrap_or_else(|| self.free_channel());
        // The music on this channel is silenced (fading over 2 ms) while the effect plays.
        self.music_voices[channel].cut();
        self.effect_voices[channel] = Voice::default();
        self.effects[channel] = Some(Effect {
            name: name.clone(),
            index,
            track: TrackPlayer::new(cmds, false),
        });
        Ok(channel)
    }

    /// The channel a new effect takes: one free of effects and of music, from the top; else
    /// one free of effects; else the last.
    fn free_channel(&self) -> usize {
        let music_uses = |c: usize| {
            self.music
                .as_ref()
                .is_some_and(|(_, t)| t.iter().any(|(ch, _)| *ch == c))
        };
        (0..CHANNELS)
            .rev()
            .find(|&c| self.effects[c].is_none() && !music_uses(c))
            .or_else(|| (0..CHANNELS).rev().find(|&c| self.effects[c].is_none()))
            .unwrap_or(CHANNELS - 1)
    }

    /// Stops the sound effect on `channel`.
    pub(crate) fn stop_sound(&mut self, channel: usize) {
        if self.effects[channel].take().is_some() {
            self.effect_voices[channel].cut();
        }
    }

    /// Stops everything.
    pub(crate) fn stop_all(&mut self) {
        self.stop_music();
        for channel in 0..CHANNELS {
            self.stop_sound(channel);
        }
    }

    /// The song playing, if any.
    pub fn music_playing(&self) -> Option<&str> {
        self.music.as_ref().map(|(n, _)| n.as_str())
    }

    /// The sound effect playing on `channel`, if any.
    pub fn sound_playing(&self, channel: usize) -> Option<&str> {
        self.effects.get(channel)?.as_ref().map(|e| e.name.as_str())
    }

    /// Mixes one vblank: 800 stereo frames, interleaved, into `out` (1600 samples). Returns
    /// the cycles it took (the voices that sounded and the commands run).
    /// The music and effects playing are looked up in `library`; a track it lacks is silent.
    pub fn render_vblank(&mut self, library: &AudioLibrary, out: &mut [f32]) -> u64 {
        assert_eq!(
            out.len(),
            SAMPLES_PER_VBLANK,
            "one vblank of stereo samples"
        );
        out.fill(0.0);
        let cycles = self.vblank(library, Some(&mut *out));
        for sample in out.iter_mut() {
            *sample = sample.clamp(-1.0, 1.0);
        }
        cycles
    }

    /// Moves the sound on by one vblank exactly as [`AudioUnit::render_vblank`] does,
    /// without mixing a sample: for replays nobody hears. Returns the same cycles.
    pub(crate) fn skip_vblank(&mut self, library: &AudioLibrary) -> u64 {
        self.vblank(library, None)
    }

    fn vblank(&mut self, library: &AudioLibrary, mut out: Option<&mut [f32]>) -> u64 {
        let mut commands = 0;
        let mut sounding = 0;
        for channel in 0..CHANNELS {
            let effect_active = self.effects[channel].is_some();
            // Music on this channel: always advances; heard only while no effect plays.
            if let Some((name, tracks)) = &mut self.music {
                if let Some(i) = tracks.iter().position(|(c, _)| *c == channel) {
                    let cmds = library
                        .songs
                        .get(name.as_str())
                        .and_then(|song| song.tracks.get(i))
                        .map_or(&[][..], |(_, cmds)| cmds.as_slice());
                    let track = &mut tracks[i].1;
                    let voice = &mut self.music_voices[channel];
                    play(track, cmds, voice, out.as_deref_mut(), effect_active);
                    commands += std::mem::take(&mut track.commands);
                } else {
                    sound(&mut self.music_voices[channel], out.as_deref_mut());
                }
            } else {
                sound(&mut self.music_voices[channel], out.as_deref_mut());
            }
            if let Some(effect) = &mut self.effects[channel] {
                let cmds = library
                    .sounds
                    .get(effect.index)
                    .map_or(&[][..], |(_, cmds)| cmds.as_slice());
                let voice = &mut self.effect_voices[channel];
                play(&mut effect.track, cmds, voice, out.as_deref_mut(), false);
                commands += std::mem::take(&mut effect.track.commands);
                if effect.track.ended && !voice.sounding() {
                    self.effects[channel] = None;
                }
            } else {
                sound(&mut self.effect_voices[channel], out.as_deref_mut());
            }
            sounding += usize::from(self.music_voices[channel].sounding())
                + usize::from(self.effect_voices[channel].sounding());
        }
        if let Some((_, tracks)) = &self.music
            && tracks.iter().all(|(_, t)| t.ended)
            && self.music_voices.iter().all(|v| !v.sounding())
        {
            self.music = None;
        }
        commands * cost::AUDIO_COMMAND + sounding as u64 * cost::AUDIO_VOICE
    }
}

/// Renders `voice` into `out`, or (with no `out`) moves it on by `frames` without a sample.
fn sound_frames(voice: &mut Voice, out: Option<&mut [f32]>, frames: usize) {
    match out {
        Some(out) => voice.render(out, CHANNEL_GAIN),
        None => voice.skip(frames),
    }
}

/// One vblank of `voice` into `out` (or moved on without samples).
fn sound(voice: &mut Voice, out: Option<&mut [f32]>) {
    sound_frames(voice, out, FRAMES_PER_VBLANK);
}

/// Plays one vblank of `track` on `voice` into `out` (or moves it on without samples):
/// commands run at their sample, the voice renders between them. A `muted` track advances
/// without sounding.
fn play(
    track: &mut TrackPlayer,
    cmds: &[Cmd],
    voice: &mut Voice,
    mut out: Option<&mut [f32]>,
    muted: bool,
) {
    let mut frame = 0;
    while frame < FRAMES_PER_VBLANK {
        track.run_due(cmds, voice, muted);
        let left = FRAMES_PER_VBLANK - frame;
        let n = if track.ended {
            left
        } else {
            (track.wait.ceil().max(1.0) as usize).min(left)
        };
        let span = out
            .as_deref_mut()
            .map(|o| &mut o[frame * 2..(frame + n) * 2]);
        sound_frames(voice, span, n);
        track.wait -= n as f64;
        frame += n;
    }
}

#[cfg(test)]
mod tests;
