//! The bullet unit: shmup bullets in hardware (seed 004). A table of up to 4096 bullets in
//! 16.16 fixed point, moved, culled and drawn by the unit; 256-step angles with sin/cos and
//! atan tables; emitters (single, aimed, n-way, ring, spiral, bursts spread over frames);
//! BulletML programs; hit and graze tests against the player and swept tests of player
//! shots against enemy boxes. Everything is charged to the `bullets` unit.
//!
//! See `docs/bullets.md`.

pub(crate) mod angle;
pub mod bulletml;
pub mod error;
pub mod table;
pub mod unit;

pub use unit::BulletUnit;

#[cfg(test)]
mod tests;
