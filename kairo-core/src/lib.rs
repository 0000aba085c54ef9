//! Kairo's machine: everything that makes a run of a cart, and nothing of windows, sound
//! cards or pads. The hardware units (video, collide, bullets, audio, save RAM), the cart's
//! Lua script and its API, carts and their files, the console that runs them frame by frame,
//! movies, rewind, save states, the [`session::Session`] every front end drives, and
//! netplay's rollback logic over it (feature `netplay`).

pub mod audio;
pub mod bullets;
pub mod cart;
pub mod collide;
pub mod console;
pub mod fixed;
pub mod fsutil;
pub mod hash;
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
pub mod video;
pub mod web;
