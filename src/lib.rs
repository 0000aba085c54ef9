//! Kairo: a retro fantasy console. The machine core (this library) knows nothing of windows,
//! sound cards or pads; the host in `host/` (feature `host`) is a thin shell around it.

pub(crate) mod audio;
pub mod bullets;
pub mod cart;
pub mod collide;
pub mod console;
pub mod fixed;
pub mod fsutil;
pub mod hash;
#[cfg(feature = "host")]
pub mod host;
pub mod input;
pub mod machine;
pub(crate) mod math;
pub mod meter;
pub mod movie;
#[cfg(feature = "netplay")]
pub mod netplay;
pub mod out;
pub mod profile;
pub mod rewind;
pub mod rng;
pub mod savefile;
pub mod saveram;
pub mod savestate;
pub mod script;
pub(crate) mod serde_array;
pub mod session;
pub mod spec;
pub mod tools;
pub mod video;
pub mod web;
