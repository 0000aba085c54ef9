//! The machine's hardware state and nothing else: the units, the input latch, the RNG and
//! the frame counter — the whole of what a save state, a rewind frame and a run-ahead
//! snapshot contain. Cart data (maps, patterns, music) stays in the cart; the bookkeeping of
//! a script call (meter, cap, log, profiler) stays in the call context. The console owns the
//! machine and lends it to the script for the duration of a call.

use crate::audio::AudioUnit;
use crate::bullets::BulletUnit;
use crate::bullets::bulletml::Pattern;
use crate::collide::CollisionUnit;
use crate::input::{InputFrame, InputLatch};
use crate::rng::Rng;
use crate::saveram::SaveRam;
use crate::video::Video;

/// All hardware state reachable from a cart.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Machine {
    pub(crate) video: Video,
    pub(crate) collide: CollisionUnit,
    pub(crate) bullets: Box<BulletUnit>,
    pub(crate) audio: Box<AudioUnit>,
    pub(crate) input: InputLatch,
    pub(crate) rng: Rng,
    /// Battery-backed save RAM (kept across power cycles; the host stores it).
    pub(crate) save: SaveRam,
    /// Machine frames run since power-on.
    pub(crate) frame: u64,
    /// Vblanks since power-on.
    pub(crate) vblanks: u64,
    /// Vblanks the frame being shown still occupies (slowdown).
    pub(crate) busy_vblanks: u32,
    /// Cycles of the audio mixed in the vblanks since the last machine frame, paid by the
    /// next one.
    pub(crate) audio_owed: u64,
    /// PICO-8's memory, on a cart that runs on the PICO-8 layer.
    pub(crate) pico8: Option<Box<crate::pico8::Pico8>>,
}

impl Machine {
    /// The video unit: VRAM, palette RAM, layers, OAM, the drawing plane.
    pub fn video(&self) -> &Video {
        &self.video
    }

    /// The video unit, for tools and tests that set the hardware up directly (carts go
    /// through the Lua API).
    pub fn video_mut(&mut self) -> &mut Video {
        &mut self.video
    }

    /// The collision unit, for tools and tests that set the hardware up directly.
    pub fn collide_mut(&mut self) -> &mut CollisionUnit {
        &mut self.collide
    }

    /// The bullet unit, for tools and tests that set the hardware up directly.
    pub fn bullets_mut(&mut self) -> &mut BulletUnit {
        &mut self.bullets
    }

    /// The collision unit.
    pub fn collide(&self) -> &CollisionUnit {
        &self.collide
    }

    /// The bullet unit.
    pub fn bullets(&self) -> &BulletUnit {
        &self.bullets
    }

    /// The sound unit.
    pub fn audio(&self) -> &AudioUnit {
        &self.audio
    }

    /// The pads as latched for the frame.
    pub fn input(&self) -> &InputLatch {
        &self.input
    }

    /// Battery-backed save RAM.
    pub fn save(&self) -> &SaveRam {
        &self.save
    }

    /// Replaces save RAM (a host handing in the player's stored data before a power-on).
    pub fn set_save(&mut self, save: SaveRam) {
        self.save = save;
    }

    /// Shows a PICO-8 cart's screen on its canvas.
    pub(crate) fn present_pico8(&mut self) {
        if let (Some(pico8), Some(canvas)) = (&self.pico8, self.video.canvas.as_deref_mut()) {
            pico8.present(canvas);
        }
    }

    /// PICO-8's memory, on a cart that runs on the PICO-8 layer.
    pub fn pico8(&self) -> Option<&crate::pico8::Pico8> {
        self.pico8.as_deref()
    }

    /// Machine frames run since power-on.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Vblanks since power-on.
    pub fn vblanks(&self) -> u64 {
        self.vblanks
    }

    /// Starts a machine frame: latches `input` and lets every unit start its frame (the
    /// overlay, hitbox and platform lists and the bullet counters are per frame).
    pub fn begin_frame(&mut self, input: InputFrame) {
        self.input.latch(input);
        self.video.begin_frame();
        self.collide.begin_frame();
        self.bullets.begin_frame();
    }

    /// The bullet unit's frame: spread bursts due now, programs (of the cart's `patterns`),
    /// then moving, culling and hit tests. Returns the bullet unit's cycles.
    pub(crate) fn step_bullets(&mut self, patterns: &[Pattern]) -> u64 {
        self.bullets.step(&mut self.rng, patterns)
    }

    /// Gives the video unit this frame's bullet layer: one sprite per live bullet, centred.
    pub(crate) fn hand_bullets_to_video(&mut self) {
        let (bullets, video) = (&self.bullets, &mut self.video);
        video.bullet_priority = bullets.priority;
        video.bullets.clear();
        let table = &bullets.table;
        let positions = (0..table.len())
            .map(|i| (table.kind[i], table.x[i], table.y[i]))
            .chain(bullets.shots.iter().map(|s| (s.kind, s.x, s.y)));
        for (kind, x, y) in positions {
            let kind = bullets.types[usize::from(kind)];
            let half = i32::from(kind.size) * 4;
            let x = crate::fixed::fx_floor(x) - half;
            let y = crate::fixed::fx_floor(y) - half;
            if let Some(sprite) =
                crate::video::sprite::Sprite::new(x, y, u32::from(kind.tile), kind.size)
            {
                video.bullets.push(sprite.with_style(
                    kind.palette,
                    i64::from(bullets.priority),
                    false,
                    false,
                ));
            }
        }
    }

    /// A machine at power-on with `video` contents and RNG `seed`.
    pub fn new(video: Video, seed: u64) -> Machine {
        Machine {
            video,
            collide: CollisionUnit::default(),
            bullets: Box::default(),
            audio: Box::default(),
            input: InputLatch::default(),
            rng: Rng::new(seed),
            save: SaveRam::default(),
            frame: 0,
            vblanks: 0,
            busy_vblanks: 0,
            audio_owed: 0,
            pico8: None,
        }
    }
}
