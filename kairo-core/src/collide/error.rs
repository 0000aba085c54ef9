//! The collision unit's errors: requests it refuses, each with what is wrong.

use thiserror::Error;

use crate::spec::COLLISION_MARGIN_MAX;

/// Why the collision unit refused a request.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum CollideError {
    #[error("the margin must be 0..{COLLISION_MARGIN_MAX} px")]
    MarginRange,
    #[error(
        "a margin of {margin} px is less than the steepest slope's drop at top speed ({needed} px): runners would leave slopes going down"
    )]
    MarginTooSmall { margin: f64, needed: f64 },
    #[error(
        "a margin of {margin} px is not below the smallest drop in the map ({drop} px): walkers would glide over it"
    )]
    MarginTooLarge { margin: f64, drop: f64 },
    #[error("at most {0} platforms a frame")]
    PlatformsFull(usize),
    #[error("size {w}x{h} must be at least 1x1")]
    PlatformSize { w: i32, h: i32 },
}

/// Results of the collision unit.
pub type Result<T> = std::result::Result<T, CollideError>;
