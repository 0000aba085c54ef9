//! GIF clips of the last seconds of play. A [`FrameHistory`] keeps the pictures a console
//! showed at the clip's frame rate (30 or 50 fps: GIF delays are in hundredths of a second)
//! as packed palette indices (see `pack`) plus the palette RAM they were shown with; a
//! [`Clip`] taken from it (cheaply: the pictures are shared) encodes as an animated GIF,
//! exactly: a picture never has more than the 256 colours of palette RAM, so every frame is
//! indexed with no dithering, and a palette change shows from the frame it happened.
//! `kairo headless --gif` and the window's F9 use it (the window encodes on a thread).

mod encode;
mod pack;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use crate::console::Console;
use crate::spec::{PALETTE_ENTRIES, SCREEN_H, SCREEN_W};

/// The longest clip a history keeps, in seconds.
pub const MAX_SECONDS: f64 = 60.0;
/// The frame rates a clip can have: GIF delays are whole hundredths of a second, so only
/// these divide 60 Hz into even steps (30 fps: delays 3, 3, 4; 50 fps: delay 2).
pub const RATES: [u32; 2] = [30, 50];
/// The largest scale a clip is written at.
pub const MAX_SCALE: u16 = 4;

/// Why a clip could not be recorded or written.
#[derive(Debug, Error)]
pub enum ClipError {
    #[error("--gif-seconds must be more than 0 and at most {MAX_SECONDS}, got {0}")]
    Seconds(f64),
    #[error("a GIF runs at 30 or 50 frames per second, not {0}")]
    Rate(u32),
    #[error("--gif-scale must be 1 to {MAX_SCALE}, got {0}")]
    Scale(u16),
    #[error("no game pictures recorded yet")]
    Empty,
    #[error("cannot encode the GIF: {0}")]
    Encode(#[from] gif::EncodingError),
    #[error("a recorded picture is damaged: {0}")]
    Damaged(std::io::Error),
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// How a clip is recorded and written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipOptions {
    /// How far back the history reaches.
    pub seconds: f64,
    /// GIF frames per second, one of [`RATES`].
    pub fps: u32,
    /// Each console pixel becomes `scale` x `scale` pixels in the GIF.
    pub scale: u16,
}

impl Default for ClipOptions {
    /// The last 10 seconds at 30 fps and twice the console's size.
    fn default() -> Self {
        ClipOptions {
            seconds: 10.0,
            fps: 30,
            scale: 2,
        }
    }
}

impl ClipOptions {
    /// The options, if they are in range.
    pub fn checked(self) -> Result<ClipOptions, ClipError> {
        if !(self.seconds > 0.0 && self.seconds <= MAX_SECONDS) {
            return Err(ClipError::Seconds(self.seconds));
        }
        if !RATES.contains(&self.fps) {
            return Err(ClipError::Rate(self.fps));
        }
        if !(1..=MAX_SCALE).contains(&self.scale) {
            return Err(ClipError::Scale(self.scale));
        }
        Ok(self)
    }

    /// GIF frames the history keeps.
    pub fn frames(&self) -> usize {
        ((self.seconds * f64::from(self.fps)).ceil() as usize).max(1)
    }

    /// When GIF frame `k` starts, in hundredths of a second.
    fn start(&self, k: u64) -> u64 {
        k * 100 / u64::from(self.fps)
    }
}

/// One recorded picture. Consecutive shots share their pixels or palette when unchanged.
#[derive(Clone, Debug)]
struct Shot {
    /// The GIF frame number since the history started (consecutive shots differ by 1).
    k: u64,
    /// The framebuffer's palette indices, row by row, packed by [`pack::pack`].
    pixels: Arc<[u8]>,
    /// Palette RAM as shown with them, as RGBA words (see [`Console::shown_palette`]).
    palette: Arc<[u32; PALETTE_ENTRIES]>,
}

/// The pictures of the last seconds of play, kept at the clip's frame rate.
#[derive(Debug)]
pub struct FrameHistory {
    options: ClipOptions,
    shots: VecDeque<Shot>,
    /// Vblanks seen since the history started.
    vblanks: u64,
    /// The picture being packed (reused between vblanks).
    scratch: Vec<u8>,
}

impl Default for FrameHistory {
    fn default() -> Self {
        FrameHistory::with_options(ClipOptions::default())
    }
}

impl FrameHistory {
    /// An empty history for clips made with `options`, if they are in range.
    pub fn new(options: ClipOptions) -> Result<FrameHistory, ClipError> {
        Ok(FrameHistory::with_options(options.checked()?))
    }

    fn with_options(options: ClipOptions) -> FrameHistory {
        FrameHistory {
            options,
            shots: VecDeque::with_capacity(options.frames()),
            vblanks: 0,
            scratch: Vec::with_capacity(SCREEN_W * SCREEN_H),
        }
    }

    /// The options clips are made with.
    pub fn options(&self) -> ClipOptions {
        self.options
    }

    /// Notes one vblank of the console's picture: kept when it starts a GIF frame (every
    /// vblank at 60 fps, every other at 30), the oldest frame dropped when the history is
    /// full. Call it once per vblank, including those where the picture holds.
    pub fn capture(&mut self, console: &Console) {
        let n = self.vblanks;
        self.vblanks += 1;
        let fps = u64::from(self.options.fps);
        let k = n * fps / 60;
        if n > 0 && (n - 1) * fps / 60 == k {
            return;
        }
        let framebuffer = console.framebuffer();
        self.scratch.clear();
        for y in 0..SCREEN_H {
            self.scratch.extend_from_slice(framebuffer.row(y));
        }
        let packed = pack::pack(&self.scratch);
        let last = self.shots.back();
        let pixels = match last {
            Some(shot) if *shot.pixels == packed[..] => shot.pixels.clone(),
            _ => packed.into(),
        };
        let palette = match last {
            Some(shot) if *shot.palette == *console.shown_palette() => shot.palette.clone(),
            _ => Arc::new(*console.shown_palette()),
        };
        if self.shots.len() == self.options.frames() {
            self.shots.pop_front();
        }
        self.shots.push_back(Shot { k, pixels, palette });
    }

    /// Forgets every picture (a new game started).
    pub fn clear(&mut self) {
        self.shots.clear();
        self.vblanks = 0;
    }

    /// GIF frames held.
    pub fn frames(&self) -> usize {
        self.shots.len()
    }

    /// Seconds of play held.
    pub fn seconds(&self) -> f64 {
        self.shots.len() as f64 / f64::from(self.options.fps)
    }

    /// Bytes the pictures take (pixels and palettes shared between frames counted once).
    pub fn bytes(&self) -> usize {
        let mut total = 0;
        let mut previous: Option<&Shot> = None;
        for shot in &self.shots {
            if previous.is_none_or(|p| !Arc::ptr_eq(&p.pixels, &shot.pixels)) {
                total += shot.pixels.len();
            }
            if previous.is_none_or(|p| !Arc::ptr_eq(&p.palette, &shot.palette)) {
                total += std::mem::size_of::<[u32; PALETTE_ENTRIES]>();
            }
            previous = Some(shot);
        }
        total + self.shots.len() * std::mem::size_of::<Shot>()
    }

    /// The pictures held, as a clip to encode (sharing them: cheap to take each vblank).
    pub fn clip(&self) -> Clip {
        Clip {
            options: self.options,
            shots: self.shots.iter().cloned().collect(),
        }
    }
}

/// Pictures taken from a [`FrameHistory`], ready to encode (on any thread).
#[derive(Clone, Debug)]
pub struct Clip {
    options: ClipOptions,
    shots: Vec<Shot>,
}

impl Clip {
    /// GIF frames before identical pictures are merged.
    pub fn frames(&self) -> usize {
        self.shots.len()
    }

    /// Whether there is nothing to encode.
    pub fn is_empty(&self) -> bool {
        self.shots.is_empty()
    }

    /// The clip as an animated GIF file's bytes: looping, `scale` times the console's size,
    /// each frame the part of the picture that changed, shown for as long as it was.
    pub fn encode(&self) -> Result<Vec<u8>, ClipError> {
        encode::encode(self)
    }

    /// Encodes the clip and writes it to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), ClipError> {
        let bytes = self.encode()?;
        crate::fsutil::write_atomic(path, &bytes).map_err(|source| ClipError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}
