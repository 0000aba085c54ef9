//! Kairo: a retro fantasy console. The machine is the `kairo-core` crate (re-exported here
//! under its modules' names); this crate is the `kairo` command's library: the user
//! commands and the developer harness in `tools/`, and the window, pads and sound in
//! `host/` (feature `host`).

#[cfg(feature = "netplay")]
pub use kairo_core::netplay;
pub use kairo_core::{
    audio, bullets, cart, collide, console, fixed, fsutil, hash, input, machine, meter, movie, out,
    profile, rewind, rng, savefile, saveram, savestate, script, session, spec, video, web,
};

#[cfg(feature = "host")]
pub mod host;
pub mod tools;
