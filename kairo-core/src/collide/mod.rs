//! The collision unit: platformer terrain and hitbox lists, in hardware (seeds 000-003).
//!
//! - A collision layer of 8, 16 or 32 px cells ([`tile::Tile`]: solid, ice, ladder, one-way,
//!   hazard, slopes by their edge heights) filled from Tiled tile properties or from Lua.
//! - [`mover::move_body`]: one body moved through the layer per call, seed 000's routine
//!   extended (see `mover.rs`).
//! - [`platform::Platforms`]: moving platforms registered each frame, which bodies land on
//!   and ride.
//! - [`hitbox::Hitboxes`]: boxes registered each frame; overlapping pairs by group masks.
//!
//! Every request is charged to the collision unit: a base cost, plus each cell read, each
//! step and each candidate pair (see `spec::cost`). See `docs/collision.md`.

pub mod error;
#[cfg(test)]
mod figure;
pub mod hitbox;
pub mod map;
pub mod mover;
pub mod platform;
pub mod tile;
pub mod trace;

pub use error::{CollideError, Result};

use crate::fixed::{Fx, fx};
use hitbox::Hitboxes;
use map::{CollisionMap, Edges};
use platform::Platforms;
use tile::{FULL, Tile};

/// All state of the collision unit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CollisionUnit {
    pub(crate) map: CollisionMap,
    pub(crate) hitboxes: Hitboxes,
    /// This frame's moving platforms.
    pub(crate) platforms: Platforms,
    /// Ground-mode snap margin.
    pub(crate) margin: Fx,
    /// This frame's moves, for the debug overlays (not state: see [`trace`]).
    #[serde(skip)]
    pub(crate) trace: trace::MoveTrace,
}

impl Default for CollisionUnit {
    fn default() -> Self {
        CollisionUnit {
            map: CollisionMap::default(),
            hitboxes: Hitboxes::default(),
            platforms: Platforms::default(),
            margin: fx(4),
            trace: trace::MoveTrace::default(),
        }
    }
}

impl CollisionUnit {
    /// The collision layer.
    pub fn map(&self) -> &CollisionMap {
        &self.map
    }

    /// The hitbox lists.
    pub fn hitboxes(&self) -> &Hitboxes {
        &self.hitboxes
    }

    /// The moving platforms.
    pub fn platforms(&self) -> &Platforms {
        &self.platforms
    }

    /// This frame's moves, for the debug overlays.
    pub fn trace(&self) -> &trace::MoveTrace {
        &self.trace
    }

    /// Starts a machine frame: hitboxes and moving platforms are registered anew each frame.
    pub fn begin_frame(&mut self) {
        self.hitboxes.clear();
        self.platforms.clear();
        self.trace.clear();
    }

    /// Replaces the collision layer with `map` (its cells and their size), keeping the edges
    /// set before.
    pub fn load_map(&mut self, mut map: CollisionMap) {
        map.edges = self.map.edges;
        self.map = map;
    }

    /// Sets what lies beyond the layer's edges.
    pub(crate) fn set_edges(&mut self, edges: Edges) {
        self.map.edges = edges;
    }

    /// Sets the ground-mode snap margin; refuses anything outside 0-16 px.
    pub(crate) fn set_margin(&mut self, margin: Fx) -> Result<()> {
        if !(0..=fx(crate::spec::COLLISION_MARGIN_MAX)).contains(&margin) {
            return Err(CollideError::MarginRange);
        }
        self.margin = margin;
        Ok(())
    }
}

/// Checks a ground-mode margin against the map and a top speed, as seed 000 derives: the
/// margin must cover the steepest slope's drop at top speed (or runners leave the ground
/// going downhill), and stay below the smallest drop the map has (or walkers glide over
/// gaps they should fall into): a slope's edge beside a gap, else one cell.
pub(crate) fn check_margin(map: &CollisionMap, margin: Fx, top_speed: Fx) -> Result<()> {
    // Rises and drops in sixteenths of a cell, as tiles give them.
    let mut steepest = 0u8;
    let mut smallest_drop = FULL;
    for y in 0..map.rows() {
        for x in 0..map.cols() {
            if let Tile::Slope { left, right } = map.get(x, y) {
                steepest = steepest.max(left.abs_diff(right));
                // A slope edge that is neither flush with the floor nor full height, beside
                // an empty cell, is a drop of that height.
                for (edge, beside) in [(left, x - 1), (right, x + 1)] {
                    if edge > 0
                        && edge < FULL
                        && map.get(beside, y) == Tile::Empty
                        && map.get(beside, y + 1) != Tile::Empty
                    {
                        smallest_drop = smallest_drop.min(edge);
                    }
                }
            }
        }
    }
    // A slope drops `steepest` sixteenths of a cell per cell run, whatever the cell size.
    let needed = (i64::from(top_speed) * i64::from(steepest) / i64::from(FULL)) as Fx;
    if margin < needed {
        return Err(CollideError::MarginTooSmall {
            margin: crate::fixed::fx_to_f64(margin),
            needed: crate::fixed::fx_to_f64(needed),
        });
    }
    let drop = fx(map.cell_px()) / i32::from(FULL) * i32::from(smallest_drop);
    if margin >= drop {
        return Err(CollideError::MarginTooLarge {
            margin: crate::fixed::fx_to_f64(margin),
            drop: crate::fixed::fx_to_f64(drop),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_checked_against_slopes_and_drops() {
        let slopes =
            CollisionMap::from_ascii(&["..", "/#"], &[('/', Tile::Slope { left: 0, right: 16 })]);
        assert!(check_margin(&slopes, fx(4), fx(4)).is_ok());
        assert_eq!(
            check_margin(&slopes, fx(3), fx(4)),
            Err(CollideError::MarginTooSmall {
                margin: 3.0,
                needed: 4.0
            })
        );
        assert_eq!(
            check_margin(&slopes, fx(16), fx(4)),
            Err(CollideError::MarginTooLarge {
                margin: 16.0,
                drop: 16.0
            })
        );
        // A 1:2 slope ending half-way up beside a gap is an 8 px drop.
        let half = CollisionMap::from_ascii(
            &["....", "#c..", "####"],
            &[('c', Tile::Slope { left: 16, right: 8 })],
        );
        assert!(check_margin(&half, fx(7), fx(4)).is_ok());
        assert!(check_margin(&half, fx(8), fx(4)).is_err());
    }
}
