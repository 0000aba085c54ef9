//! The bullet unit's errors: requests it refuses, each with what is wrong.

use thiserror::Error;

use crate::spec::{BULLET_HIT_MAX, GRAZE_MAX};

/// Why the bullet unit refused a request.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BulletError {
    #[error("hit sizes must be 0..{BULLET_HIT_MAX} px")]
    HitSize,
    #[error("bullet type {0} does not exist")]
    NoSuchType(usize),
    #[error("hit must be 0..{BULLET_HIT_MAX} px and graze 0..{GRAZE_MAX} px")]
    PlayerBoxes,
}

/// Results of the bullet unit.
pub type Result<T> = std::result::Result<T, BulletError>;
