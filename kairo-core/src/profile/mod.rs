//! The frame-budget profiler's machine side: what each frame spent, split finer than the
//! cycle meter's units — script cycles by Lua function (sampled from the instruction hook)
//! and by the cart's own `prof_begin`/`prof_end` sections, video by layer and sprites — plus
//! the host's real time, kept apart from the virtual cycles. [`collector`] gathers a frame
//! while it runs; the console hands out a [`FrameProfile`] per frame. Keeping, reporting and
//! drawing them is `tools::profile`'s. See `docs/profiling.md`.

pub mod collector;

use std::sync::Arc;

use serde::Serialize;

use crate::meter::{Unit, UnitCycles};
use crate::spec::BG_LAYERS;

/// Name of the script bucket for cycles charged outside every Lua function.
pub(crate) const OUTSIDE_LUA: &str = "(outside Lua)";

/// Video cycles split by what caused them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VideoSplit {
    /// Each BG layer's composition (layer cost plus its line-scroll cost).
    pub layers: [u64; BG_LAYERS],
    /// Sprites and the rows they drew.
    pub sprites: u64,
    /// VRAM writes and drawings made by API calls (cells, pixels, patterns, text, shapes).
    pub writes: u64,
}

impl VideoSplit {
    /// Sum of all parts (equal to the video unit's cycles).
    pub fn total(&self) -> u64 {
        self.layers.iter().sum::<u64>() + self.sprites + self.writes
    }

    /// `(name, cycles)` of every part, in report order.
    pub fn parts(&self) -> Vec<(String, u64)> {
        let mut parts: Vec<(String, u64)> = self
            .layers
            .iter()
            .enumerate()
            .map(|(i, &c)| (format!("layer {i}"), c))
            .collect();
        parts.push(("sprites".into(), self.sprites));
        parts.push(("writes".into(), self.writes));
        parts
    }
}

/// A `prof_begin`/`prof_end` section's cycles in one frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SectionCycles {
    pub name: Arc<str>,
    /// Times the section was closed this frame.
    pub calls: u32,
    /// Cycles spent inside it (inclusive of nested sections), per unit.
    pub cycles: UnitCycles,
}

/// Real time the host spent on one frame, in microseconds. Never part of the budget: it
/// depends on the machine the console runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HostTimes {
    /// Lua `update` and `draw`, API calls included.
    pub script_us: f32,
    /// The bullet unit's step.
    pub bullets_us: f32,
    /// Composition into the framebuffer.
    pub video_us: f32,
    /// Mixing the vblanks since the previous frame.
    pub audio_us: f32,
}

impl HostTimes {
    /// All parts together.
    pub fn total_us(&self) -> f32 {
        self.script_us + self.bullets_us + self.video_us + self.audio_us
    }
}

/// Everything the profiler knows about one machine frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FrameProfile {
    pub frame: u64,
    pub vblanks: u32,
    /// Cycles per unit (the frame report's numbers).
    pub units: UnitCycles,
    pub video: VideoSplit,
    /// Sprites `sprite` could not draw because all 256 OAM entries were showing.
    pub sprites_dropped: u32,
    /// Script cycles by Lua function, most expensive first; sums to the script unit's
    /// cycles (the rest, if any, is under [`OUTSIDE_LUA`]). Empty unless sampling was on.
    pub functions: Vec<(Arc<str>, u64)>,
    pub sections: Vec<SectionCycles>,
    pub host: HostTimes,
}

impl FrameProfile {
    /// Cycles of all units.
    pub fn total(&self) -> u64 {
        self.units.total()
    }

    /// Load in percent of one frame's budget.
    pub fn load(&self) -> f64 {
        crate::meter::load_percent(self.total())
    }

    /// Whether the frame took more than one vblank.
    pub fn slowed_down(&self) -> bool {
        self.vblanks > 1
    }

    /// Cycles of `unit`.
    pub fn unit(&self, unit: Unit) -> u64 {
        self.units.get(unit)
    }
}
