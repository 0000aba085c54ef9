//! The machine's hardware state: everything a cart's API calls read and write. The console
//! owns it and lends it to the script for the duration of a call.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::audio::AudioUnit;
use crate::bullets::BulletUnit;
use crate::cart::map::MapAsset;
use crate::collide::CollisionUnit;
use crate::input::InputLatch;
use crate::meter::CycleMeter;
use crate::rng::Rng;
use crate::video::Video;

/// All hardware state reachable from a cart.
#[derive(Clone, Debug)]
pub struct Machine {
    pub video: Video,
    pub collide: CollisionUnit,
    pub bullets: Box<BulletUnit>,
    pub audio: Box<AudioUnit>,
    pub input: InputLatch,
    pub rng: Rng,
    pub meter: CycleMeter,
    /// Machine frames run since power-on.
    pub frame: u64,
    /// Cycles the current call may reach before it is stopped as a runaway.
    pub cap: u64,
    /// The cart's maps (read-only cart data).
    pub maps: Arc<BTreeMap<String, MapAsset>>,
    /// The palette the cart loader gave each pattern tile it filled (read-only cart data).
    pub tile_palettes: Arc<Vec<Option<u8>>>,
    /// The cart's BulletML patterns (read-only cart data).
    pub bullet_patterns: Arc<BTreeMap<String, Arc<crate::bullets::bulletml::Pattern>>>,
    /// Lines the cart logged and the host has not printed yet.
    pub log: Vec<String>,
    /// Set when the script passed its cap; every later Lua error stays uncatchable.
    pub stopped: Option<RunawayStop>,
    /// The profiler's view of the frame being run.
    pub profile: crate::profile::collector::ProfileCollector,
}

impl Machine {
    /// The bullet unit's frame: spread bursts due now, programs, then moving, culling and
    /// hit tests. Charged to the bullet unit.
    pub fn step_bullets(&mut self) {
        let bullets = &mut self.bullets;
        bullets.release_pending();
        bullets.run_programs(&mut self.rng);
        let cycles = bullets.advance();
        self.meter.charge(crate::meter::Unit::Bullets, cycles);
    }

    /// Gives the video unit this frame's bullet layer: one sprite per live bullet, centred.
    pub fn hand_bullets_to_video(&mut self) {
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

    /// A machine at power-on with `video` contents, RNG `seed` and the cart's `maps`.
    pub fn new(video: Video, seed: u64, maps: Arc<BTreeMap<String, MapAsset>>) -> Machine {
        Machine {
            video,
            collide: CollisionUnit::default(),
            bullets: Box::default(),
            audio: Box::default(),
            input: InputLatch::default(),
            rng: Rng::new(seed),
            meter: CycleMeter::default(),
            frame: 0,
            cap: crate::spec::RUNAWAY_CAP,
            maps,
            tile_palettes: Arc::default(),
            bullet_patterns: Arc::default(),
            log: Vec::new(),
            stopped: None,
            profile: Default::default(),
        }
    }
}

/// Where and how a runaway script was stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunawayStop {
    /// `file:line` the script was at.
    pub at: String,
    /// The cap it passed.
    pub cap: u64,
    pub traceback: String,
}
