//! BulletML: bullet patterns as XML (`bulletml`, `action`, `fire`, `bullet` and their
//! references). [`xml`] reads the document with `roxmltree`, [`pattern`] builds a checked
//! [`pattern::Pattern`] from it ([`check`] vets its references) and [`run::Runner`]s run it
//! with libbulletml's timing and evaluation order. See `docs/bullets.md`.

pub mod build;
pub mod check;
pub mod expr;
pub mod library;
pub mod pattern;
pub mod run;
pub mod xml;

pub use build::parse;
pub(crate) use library::PatternLibrary;
pub use pattern::{Pattern, PatternError};
pub(crate) use xml::is_pattern_document;

#[cfg(test)]
mod hostile;
#[cfg(test)]
mod tests;
