//! Kairo: a retro fantasy console. The machine core (this library) knows nothing of windows,
//! sound cards or pads; the host in `host/` (feature `host`) is a thin shell around it.

pub mod input;
pub mod meter;
pub mod spec;
pub mod video;
