//! The machine's hardware state: everything a cart's API calls read and write. The console
//! owns it and lends it to the script for the duration of a call.

use std::collections::BTreeMap;
use std::sync::Arc;

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
    pub input: InputLatch,
    pub rng: Rng,
    pub meter: CycleMeter,
    /// Machine frames run since power-on.
    pub frame: u64,
    /// Cycles the current call may reach before it is stopped as a runaway.
    pub cap: u64,
    /// The cart's maps (read-only cart data).
    pub maps: Arc<BTreeMap<String, MapAsset>>,
    /// Lines the cart logged and the host has not printed yet.
    pub log: Vec<String>,
    /// Set when the script passed its cap; every later Lua error stays uncatchable.
    pub stopped: Option<RunawayStop>,
}

impl Machine {
    /// A machine at power-on with `video` contents, RNG `seed` and the cart's `maps`.
    pub fn new(video: Video, seed: u64, maps: Arc<BTreeMap<String, MapAsset>>) -> Machine {
        Machine {
            video,
            collide: CollisionUnit::default(),
            input: InputLatch::default(),
            rng: Rng::new(seed),
            meter: CycleMeter::default(),
            frame: 0,
            cap: crate::spec::RUNAWAY_CAP,
            maps,
            log: Vec::new(),
            stopped: None,
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
