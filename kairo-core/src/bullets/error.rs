//! The bullet unit's errors: requests it refuses, each with what is wrong.

use thiserror::Error;

/// Why the bullet unit refused a request.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BulletError {
    #[error("hit sizes must be 0..64 px")]
    HitSize,
    #[error("bullet type {0} does not exist")]
    NoSuchType(usize),
    #[error("hit must be 0..64 px and graze 0..128 px")]
    PlayerBoxes,
}

/// Results of the bullet unit.
pub type Result<T> = std::result::Result<T, BulletError>;
