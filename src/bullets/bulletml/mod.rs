//! BulletML: bullet patterns as XML (`bulletml`, `action`, `fire`, `bullet` and their
//! references), parsed with `roxmltree` into a checked [`pattern::Pattern`] and run by
//! [`run::Runner`]s with the reference implementation's timing. See `docs/bullets.md`.

pub mod expr;
pub mod pattern;
pub mod run;

pub use pattern::{Pattern, PatternError, parse};

#[cfg(test)]
mod tests;
