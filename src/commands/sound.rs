//! `kairo sound`: a tune mixed by the audio unit without a cart running — a music file
//! (`.mml`, tracks by letter as in a cart's music files) or a cart's `[[music]]` or `[[sfx]]`
//! by name — vblank by vblank, for a WAV file or for the host to play.
//!
//! How long: a tune without a loop point plays to its end (its last notes' release
//! included); a looping one plays once through its longest track, then goes on into the
//! repeat for [`FADE_SECONDS`], fading out. Nothing plays longer than [`MAX_SECONDS`].

use std::path::Path;

use crate::audio::{AudioLibrary, AudioUnit, SAMPLES_PER_VBLANK, Song};
use crate::cart::Cart;
use crate::spec::{FRAME_RATE, FRAMES_PER_VBLANK};

use crate::error::{Result, ToolError};

/// The longest a tune is played or written, in seconds.
pub const MAX_SECONDS: u64 = 600;
/// How long a looping tune goes on into its repeat, fading out, in seconds.
pub const FADE_SECONDS: u64 = 1;
/// Largest music file read.
const MAX_MML_BYTES: u64 = 1024 * 1024;

const MAX_VBLANKS: u64 = MAX_SECONDS * FRAME_RATE as u64;
const FADE_VBLANKS: u64 = FADE_SECONDS * FRAME_RATE as u64;

/// What a tune plays from its library.
#[derive(Clone, Debug)]
enum Piece {
    Music(String),
    Sound(usize),
}

/// A tune ready to play: its library, what to play from it, and a name for messages.
#[derive(Clone, Debug)]
pub struct Tune {
    /// `theme.mml`, or `music "stage1" of Platformer`.
    pub title: String,
    library: AudioLibrary,
    piece: Piece,
}

impl Tune {
    /// The tune `path` names: the cart's music or sound effect named `music` or `sfx`
    /// (`path` is then a cart), else the music file `path`.
    pub fn open(path: &Path, music: Option<&str>, sfx: Option<&str>) -> Result<Tune> {
        if music.is_some() || sfx.is_some() {
            return Tune::from_cart(path, music, sfx);
        }
        let is_cart = path.is_dir()
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("kcart"));
        if is_cart {
            return Tune::from_cart(path, None, None);
        }
        Tune::from_music_file(path)
    }

    /// The music file at `path`.
    pub(crate) fn from_music_file(path: &Path) -> Result<Tune> {
        let bytes =
            crate::fsutil::read_capped(path, MAX_MML_BYTES).map_err(|source| ToolError::Read {
                path: path.into(),
                source,
            })?;
        let text = String::from_utf8(bytes).map_err(|_| ToolError::NotText(path.into()))?;
        let song = Song::from_music_file(&text).map_err(|errors| ToolError::Mml {
            path: path.into(),
            errors,
        })?;
        if song.tracks.is_empty() {
            return Err(ToolError::NoTracks(path.into()));
        }
        let title = path.display().to_string();
        let mut library = AudioLibrary::default();
        library.songs.insert(title.clone(), song);
        Ok(Tune {
            piece: Piece::Music(title.clone()),
            title,
            library,
        })
    }

    /// The music `music` or sound effect `sfx` of the cart at `path`; with neither, an error
    /// that lists what the cart has.
    pub(crate) fn from_cart(path: &Path, music: Option<&str>, sfx: Option<&str>) -> Result<Tune> {
        let cart = Cart::open(path)?;
        let library = AudioLibrary::clone(&cart.audio);
        let name = cart.name().to_string();
        let listed = |names: Vec<&str>| match names.is_empty() {
            true => "none".to_string(),
            false => names.join(", "),
        };
        let songs = listed(library.songs.keys().map(String::as_str).collect());
        let sounds = listed(library.sounds.iter().map(|(n, _)| n.as_str()).collect());
        let (piece, title) = match (music, sfx) {
            (Some(music), _) => {
                if !library.songs.contains_key(music) {
                    return Err(ToolError::NoSuchTune {
                        cart: name,
                        kind: "music",
                        kinds: "music",
                        name: music.into(),
                        known: songs,
                    });
                }
                (
                    Piece::Music(music.into()),
                    format!("music \"{music}\" of {name}"),
                )
            }
            (None, Some(sfx)) => {
                let Some(index) = library.sound_index(sfx) else {
                    return Err(ToolError::NoSuchTune {
                        cart: name,
                        kind: "sound effect",
                        kinds: "sound effects",
                        name: sfx.into(),
                        known: sounds,
                    });
                };
                (
                    Piece::Sound(index),
                    format!("sound effect \"{sfx}\" of {name}"),
                )
            }
            (None, None) => {
                return Err(ToolError::NoTuneNamed {
                    cart: path.into(),
                    songs,
                    sounds,
                });
            }
        };
        Ok(Tune {
            title,
            library,
            piece,
        })
    }

    /// A player at the start of the tune.
    pub fn player(&self) -> TunePlayer<'_> {
        self.player_within(MAX_VBLANKS)
    }

    /// A player that stops after `max_vblanks` at the most.
    fn player_within(&self, max_vblanks: u64) -> TunePlayer<'_> {
        let mut unit = AudioUnit::default();
        let mut plan = Plan::ToTheEnd;
        match &self.piece {
            Piece::Music(name) => {
                unit.play_music(&self.library, name)
                    .expect("the tune's library holds its music");
                let song = &self.library.songs[name];
                if song.loops() {
                    let cap = (max_vblanks * FRAMES_PER_VBLANK as u64) as f64;
                    plan = match song.pass_samples(cap) {
                        Some(samples) => Plan::Pass {
                            vblanks: (samples / FRAMES_PER_VBLANK as f64).ceil() as u64,
                        },
                        None => Plan::ToTheEnd,
                    };
                }
            }
            Piece::Sound(index) => {
                unit.play_sound(&self.library, *index, Some(0))
                    .expect("the tune's library holds its sound effect");
            }
        }
        TunePlayer {
            tune: self,
            unit,
            plan,
            vblanks: 0,
            max_vblanks,
            capped: false,
        }
    }

    /// The whole tune: interleaved stereo f32 at 48 kHz, and how it ended.
    pub fn render(&self) -> (Vec<f32>, Ending) {
        let mut player = self.player();
        let mut samples = Vec::new();
        let mut vblank = vec![0.0; SAMPLES_PER_VBLANK];
        while player.next_vblank(&mut vblank) {
            samples.extend_from_slice(&vblank);
        }
        (samples, player.ending())
    }
}

/// How long a tune plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Until it ends by itself (or [`MAX_SECONDS`]).
    ToTheEnd,
    /// A looping tune: one pass of `vblanks`, then [`FADE_VBLANKS`] fading out.
    Pass { vblanks: u64 },
}

/// How a played tune ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It ended by itself.
    Ended { vblanks: u64 },
    /// It loops: it played once through and faded out into its repeat.
    Looped { vblanks: u64 },
    /// It was cut at [`MAX_SECONDS`].
    Capped { vblanks: u64 },
}

impl Ending {
    /// What was played, for a line of output: `"12.50 s"`, `"8.00 s (it loops: ...)"`.
    pub fn describe(&self) -> String {
        let seconds = |vblanks: u64| vblanks as f64 / f64::from(FRAME_RATE);
        match *self {
            Ending::Ended { vblanks } => format!("{:.2} s", seconds(vblanks)),
            Ending::Looped { vblanks } => format!(
                "{:.2} s (it loops: once through, then {FADE_SECONDS} s fading out into the repeat)",
                seconds(vblanks)
            ),
            Ending::Capped { vblanks } => format!(
                "{:.2} s (cut there: longer than {MAX_SECONDS} s, the most `kairo sound` plays)",
                seconds(vblanks)
            ),
        }
    }
}

/// A tune being played, one vblank at a time.
pub struct TunePlayer<'a> {
    tune: &'a Tune,
    unit: AudioUnit,
    plan: Plan,
    vblanks: u64,
    max_vblanks: u64,
    capped: bool,
}

impl TunePlayer<'_> {
    /// Mixes the next vblank into `out` (1600 samples: 800 stereo frames at 48 kHz); false,
    /// with `out` untouched, when the tune is over.
    pub fn next_vblank(&mut self, out: &mut [f32]) -> bool {
        if self.vblanks >= self.max_vblanks {
            self.capped = true;
            return false;
        }
        let fade_from = match self.plan {
            Plan::Pass { vblanks } if self.vblanks >= vblanks + FADE_VBLANKS => return false,
            Plan::Pass { vblanks } => vblanks,
            Plan::ToTheEnd => {
                let playing = match self.tune.piece {
                    Piece::Music(_) => self.unit.music_playing().is_some(),
                    Piece::Sound(_) => self.unit.sound_playing(0).is_some(),
                };
                if self.vblanks > 0 && !playing {
                    return false;
                }
                u64::MAX
            }
        };
        self.unit.render_vblank(&self.tune.library, out);
        if self.vblanks >= fade_from {
            let fade = (FADE_VBLANKS * FRAMES_PER_VBLANK as u64) as f32;
            let done = ((self.vblanks - fade_from) * FRAMES_PER_VBLANK as u64) as f32;
            for (i, frame) in out.chunks_mut(2).enumerate() {
                let gain = (1.0 - (done + i as f32) / fade).max(0.0);
                frame[0] *= gain;
                frame[1] *= gain;
            }
        }
        self.vblanks += 1;
        true
    }

    /// How the tune ended (or how far it got).
    pub fn ending(&self) -> Ending {
        let vblanks = self.vblanks;
        match (self.capped, self.plan) {
            (true, _) => Ending::Capped { vblanks },
            (false, Plan::Pass { .. }) => Ending::Looped { vblanks },
            (false, Plan::ToTheEnd) => Ending::Ended { vblanks },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tune(text: &str) -> Tune {
        let mut library = AudioLibrary::default();
        library
            .songs
            .insert("t".into(), Song::from_music_file(text).unwrap());
        Tune {
            title: "t".into(),
            library,
            piece: Piece::Music("t".into()),
        }
    }

    #[test]
    fn a_tune_plays_to_its_end_and_a_looping_one_once_then_fades() {
        // Two seconds of notes at t120, then the release (E: 6 frames).
        let (samples, ending) = tune("A t120 @2 v12 E0,0,15,6 c2 e2 g2 > c2\n").render();
        let Ending::Ended { vblanks } = ending else {
            panic!("{ending:?}")
        };
        assert!((240..250).contains(&vblanks), "{vblanks}");
        assert_eq!(samples.len() as u64, vblanks * SAMPLES_PER_VBLANK as u64);
        assert!(samples.iter().any(|s| s.abs() > 0.1));

        let (samples, ending) = tune("A t120 @2 v12 c2 L e2 g2\nB t120 @4 L c4\n").render();
        assert_eq!(ending, Ending::Looped { vblanks: 180 + 60 });
        let loudest = |range: std::ops::Range<usize>| {
            samples[range.start * 1600..range.end * 1600]
                .iter()
                .fold(0.0f32, |m, s| m.max(s.abs()))
        };
        assert!(loudest(170..180) > 0.1, "the pass sounds to its end");
        assert!(loudest(200..210) < loudest(180..190), "then it fades");
        assert!(loudest(239..240) < 0.01, "to silence");
    }

    #[test]
    fn a_tune_longer_than_the_limit_is_cut() {
        // 255 x 255 whole notes at t60 (4 s each), with or without a loop; cut at 10 s.
        for text in ["A t60 [[c1]255]255\n", "A t60 L [[c1]255]255\n"] {
            let tune = tune(text);
            let mut player = tune.player_within(600);
            let mut out = vec![0.0; SAMPLES_PER_VBLANK];
            let mut n = 0;
            while player.next_vblank(&mut out) {
                n += 1;
            }
            assert_eq!(n, 600);
            assert_eq!(player.ending(), Ending::Capped { vblanks: 600 });
        }
    }
}
