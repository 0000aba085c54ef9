//! The profiler's one home above the core's collector ([`crate::profile`]): [`history`]
//! keeps the frames and their statistics; [`report`], [`svg`], [`trace`] and [`json`] write
//! them out for `kairo profile` ([`command`]); [`overlay`] draws the live graph the window
//! shows, and [`live`] is the window's profiler (F3) that feeds it. See `docs/profiling.md`.

pub mod command;
pub mod history;
pub mod json;
pub mod live;
pub mod overlay;
pub mod report;
pub mod svg;
pub mod trace;

use crate::meter::Unit;

/// The colour each unit has in every chart (RGB), in [`Unit::ALL`] order.
pub const UNIT_COLORS: [u32; 6] = [
    0x4C_A8F0, // script: blue
    0x5C_D070, // video: green
    0xF0_C040, // collision: yellow
    0xF0_5C8C, // bullets: pink
    0xB0_78F0, // audio: violet
    0x90_98A8, // system: grey
];

/// The chart colour of `unit`.
pub(crate) fn unit_color(unit: Unit) -> u32 {
    UNIT_COLORS[unit as usize]
}
