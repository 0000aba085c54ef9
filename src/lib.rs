//! Kairo: a retro fantasy console. The machine is the `kairo-core` crate (re-exported here
//! under its modules' names); this crate is the `kairo` command's library, by who uses it:
//! the user commands (`commands/`), what the window and headless runs show of the hardware
//! (`views/`), the profiler's reports, charts and live overlay (`profiling/`), the files kept
//! for players — save RAM and save-state slots (`saving/`), the developer harness
//! (`harness/`), and the window, pads and sound (`host/`, feature `host`).

#[cfg(feature = "netplay")]
pub use kairo_core::netplay;
pub use kairo_core::{
    audio, bullets, cart, collide, console, fixed, fsutil, hash, input, machine, meter, movie, out,
    profile, rewind, rng, savefile, saveram, savestate, script, session, spec, video, web,
};

pub mod clip;
pub mod commands;
pub mod error;
pub mod harness;
#[cfg(feature = "host")]
pub mod host;
pub mod import;
pub mod profiling;
#[cfg(feature = "netplay")]
pub mod rooms;
pub mod saving;
pub mod views;
