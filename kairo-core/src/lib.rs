//! Kairo's machine: everything that makes a run of a cart, and nothing of windows, sound
//! cards or pads. The hardware units (video, collide, bullets, audio, save RAM), the cart's
//! Lua script and its API, carts and their files, the console that runs them frame by frame,
//! movies, rewind, save states, the [`session::Session`] every front end drives, and
//! netplay's rollback logic over it (feature `netplay`).
//!
//! A front end needs only the face below: power a [`Cart`] on into a [`Session`] with its
//! [`SaveRam`], feed it an [`InputFrame`] each vblank, and read the [`Vblank`] it answers
//! (the [`FrameReport`], sound, log, whether save RAM was written, the [`Fault`]); states
//! and movies go through the session too. The modules behind it are public for the tools
//! and the tests that look at the hardware (read-only views of the [`Console`]).

pub use cart::{Cart, CartErrors};
pub use console::{Console, FrameReport};
pub use input::{Button, ButtonWord, InputFrame};
pub use movie::Movie;
pub use saveram::SaveRam;
pub use savestate::StateError;
pub use script::ScriptError;
pub use session::{Fault, Route, Session, Vblank};

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
pub mod pico8;
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
