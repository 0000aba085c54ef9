//! The collision unit: platformer terrain and hitbox lists, in hardware (seeds 000-003).
//!
//! - A collision layer of 16x16 cells ([`tile::Tile`]: solid, ice, ladder, one-way, hazard,
//!   slopes by their edge heights) filled from Tiled tile properties or from Lua.
//! - [`mover::move_body`]: one body moved through the layer per call, seed 000's routine
//!   extended (see `mover.rs`), charged per call and per cell read.
//!
//! See `docs/collision.md`.

pub mod map;
pub mod mover;
pub mod tile;
