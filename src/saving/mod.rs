//! The files `kairo` keeps for a player, in one place: a cart's save RAM ([`ram`]: what a
//! headless run starts with and stores, and the window's keeper that stores it as the game
//! writes it) and the window's save-state slots ([`slots`]). The file formats are the core's
//! ([`crate::savefile`], [`crate::savestate`]); the libretro core keeps its own files in the
//! frontend's save folder (`libretro/src/saves.rs`), in the same format.

pub mod ram;
pub mod slots;
