//! `move_body`: one rectangle moved through the collision layer for one frame.
//!
//! The core is seed 000's routine (`Move2` / `HeightLine2`), kept exact for its tile set:
//! horizontal move first, then vertical; the bottom-centre point rides slopes; the lowest row
//! is left out of the sideways test when the bottom-centre stands in a slope (or solid) cell;
//! only a slope's full-height edge blocks sideways; the ceiling is tested before the floor;
//! the floor is looked for in the feet's row from before the move (an empty row -> the row
//! below, a full one -> the row above); ground mode snaps down within a margin; ladder tops
//! are floors in ground mode only. Positions are 16.16 here where the article used 24.8:
//! for inputs the article can express, results are the article's shifted left by 8.
//!
//! Beyond the article: the move is split into steps of at most one cell on each axis, so
//! nothing tunnels at any speed; one-way floors; hazards; any slope given by its edge
//! heights (45 deg, 1:2, 1:4, custom); constant speed along slopes on request; and gravity
//! pointing up, handled by running the same routine on the map seen upside down.

use super::map::{CollisionMap, View};
use super::tile::{CELL, Tile};
use crate::fixed::{FX_SHIFT, Fx, fx};

/// Fx to cell index: 16 fraction bits and 4 bits of pixels per 16 px cell.
const SHIFT: u32 = FX_SHIFT + 4;
/// One cell, in Fx; also the "no floor in this row" height.
const CELL_FX: Fx = 1 << SHIFT;
pub use crate::spec::BODY_MAX_SPEED as MAX_SPEED_PX;

/// Result flags. Bits 0-5 are seed 000's return value, in its order.
pub mod flag {
    pub const WALL_LEFT: u32 = 1 << 0;
    pub const WALL_RIGHT: u32 = 1 << 1;
    pub const GROUND: u32 = 1 << 2;
    pub const CEILING: u32 = 1 << 3;
    /// Standing on the top of a ladder.
    pub const LADDER_TOP: u32 = 1 << 4;
    /// The floor under the body is ice.
    pub const ON_ICE: u32 = 1 << 5;
    /// Standing on a slope (which one is in [`super::Moved::slope`]).
    pub const ON_SLOPE: u32 = 1 << 6;
    /// Standing on a one-way floor.
    pub const ON_ONEWAY: u32 = 1 << 7;
    /// The body touched a hazard cell during the move.
    pub const HAZARD: u32 = 1 << 8;
    /// The body's centre column overlaps a ladder cell (it may start climbing).
    pub const ON_LADDER: u32 = 1 << 9;
    /// Standing on a moving platform (which one is the body's `platform`).
    pub const ON_PLATFORM: u32 = 1 << 10;

    /// Every flag with its name, in bit order.
    pub const ALL: [(&str, u32); 11] = [
        ("WALL_LEFT", WALL_LEFT),
        ("WALL_RIGHT", WALL_RIGHT),
        ("GROUND", GROUND),
        ("CEILING", CEILING),
        ("LADDER_TOP", LADDER_TOP),
        ("ON_ICE", ON_ICE),
        ("ON_SLOPE", ON_SLOPE),
        ("ON_ONEWAY", ON_ONEWAY),
        ("HAZARD", HAZARD),
        ("ON_LADDER", ON_LADDER),
        ("ON_PLATFORM", ON_PLATFORM),
    ];
}

/// A body: its rectangle (top-left in 16.16, size in whole pixels) and velocity in 16.16.
/// It occupies x..x+w, y..y+h (the article's (x, y)..(x+w-1, y+h-1) at its precision).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Body {
    pub x: Fx,
    pub y: Fx,
    pub w: i32,
    pub h: i32,
    pub vx: Fx,
    pub vy: Fx,
}

/// How the body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    /// Standing or walking: follows slopes down within the margin; ladder tops are floors.
    #[default]
    Ground,
    /// Jumping or falling: lands only on floors it reaches.
    Air,
    /// On a ladder: passes through ladder cells, lands on other floors.
    Ladder,
}

/// Options of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveOptions {
    pub mode: Mode,
    /// Gravity points up: floors are above, everything is mirrored.
    pub gravity_up: bool,
    /// Fall through one-way floors this move.
    pub drop_through: bool,
    /// Keep the speed along a slope equal to the speed on flat ground.
    pub slope_speed: bool,
    /// Ground mode snaps down to a floor this close below the feet.
    pub margin: Fx,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            mode: Mode::Ground,
            gravity_up: false,
            drop_through: false,
            slope_speed: false,
            margin: fx(4),
        }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moved {
    /// [`flag`] bits.
    pub flags: u32,
    /// The slope under the bottom-centre when standing on one.
    pub slope: Option<Tile>,
    /// Cells read.
    pub probes: u32,
    /// Steps of at most one cell the move was split into.
    pub steps: u32,
}

/// Moves `body` by its velocity through `map`; afterwards `body.vx`/`body.vy` hold the
/// distance actually moved.
pub fn move_body(map: &CollisionMap, body: &mut Body, options: &MoveOptions) -> Moved {
    let mut view = View::new(map, options.gravity_up);
    let height = fx(map.rows() * CELL);
    let (org_x, org_y) = (body.x, body.y);
    let limit = fx(MAX_SPEED_PX);
    let mut b = *body;
    b.w = b.w.clamp(1, 4096);
    b.h = b.h.clamp(1, 4096);
    b.vx = b.vx.clamp(-limit, limit);
    b.vy = b.vy.clamp(-limit, limit);
    if options.gravity_up {
        b.y = height - b.y - fx(b.h);
        b.vy = -b.vy;
    }
    if options.slope_speed && options.mode == Mode::Ground {
        let feet = (b.y + fx(b.h) - 1) >> SHIFT;
        if let Tile::Slope { left, right } = view.get((b.x + fx(b.w) / 2) >> SHIFT, feet) {
            b.vx = ((i128::from(b.vx) * i128::from(slope_speed_factor(left.abs_diff(right)))) >> 32)
                as Fx;
        }
    }

    let span = b.vx.unsigned_abs().max(b.vy.unsigned_abs());
    let steps = span.div_ceil(CELL_FX as u32).max(1);
    let mut moved = Moved {
        steps,
        ..Moved::default()
    };
    let (total_x, total_y) = (i64::from(b.vx), i64::from(b.vy));
    let mut blocked_x = false;
    for i in 0..i64::from(steps) {
        let n = i64::from(steps);
        let step_x = if blocked_x {
            0
        } else {
            (total_x * (i + 1) / n - total_x * i / n) as Fx
        };
        let step_y = (total_y * (i + 1) / n - total_y * i / n) as Fx;
        let result = step(&mut view, &mut b, step_x, step_y, options);
        blocked_x |= result.flags & (flag::WALL_LEFT | flag::WALL_RIGHT) != 0;
        let sticky =
            moved.flags & (flag::WALL_LEFT | flag::WALL_RIGHT | flag::CEILING | flag::HAZARD);
        moved.flags = result.flags | sticky;
        moved.slope = result.slope;
    }

    if options.gravity_up {
        b.y = height - b.y - fx(b.h);
    }
    body.x = b.x;
    body.y = b.y;
    body.vx = b.x - org_x;
    body.vy = b.y - org_y;
    moved.probes = view.probes;
    moved
}

/// Speed along a slope rising `rise` px per 16 px, as a factor of the flat speed with 32
/// fraction bits: 16 / sqrt(16^2 + rise^2), from integer square roots (the same everywhere).
fn slope_speed_factor(rise: u8) -> i64 {
    let squared = (256 + u128::from(rise) * u128::from(rise)) << 64;
    ((16u128 << 64) / squared.isqrt()) as i64
}

/// One step of at most one cell per axis: seed 000's `Move2`, generalised.
fn step(view: &mut View, b: &mut Body, vx: Fx, vy: Fx, options: &MoveOptions) -> Moved {
    let (w, h) = (fx(b.w), fx(b.h));
    let org_bottom = b.y + h;
    let mut flags = 0;

    // Horizontal.
    let maptop = b.y >> SHIFT;
    let mapbtm = (b.y + h - 1) >> SHIFT;
    let center = (b.x + w / 2) >> SHIFT;
    if vx != 0 {
        // Standing sunk into a slope (or a block): leave the lowest row out of the test.
        let under = view.get(center, mapbtm);
        let lowest = if under.is_slope() || under == Tile::Solid {
            mapbtm - 1
        } else {
            mapbtm
        };
        b.x += vx;
        if vx > 0 {
            let column = (b.x + w - 1) >> SHIFT;
            if (maptop..=lowest).any(|row| blocks_sideways(view.get(column, row), Side::Left)) {
                b.x = (column << SHIFT) - w;
                flags = flag::WALL_RIGHT;
            }
        } else {
            let column = b.x >> SHIFT;
            if (maptop..=lowest).any(|row| blocks_sideways(view.get(column, row), Side::Right)) {
                b.x = (column + 1) << SHIFT;
                flags = flag::WALL_LEFT;
            }
        }
    }

    // Vertical: the ceiling first.
    let left = b.x >> SHIFT;
    let right = (b.x + w - 1) >> SHIFT;
    let center = (b.x + w / 2) >> SHIFT;
    b.y += vy;
    let top = b.y >> SHIFT;
    if (left..=right).any(|column| is_ceiling(view.get(column, top))) {
        b.y = (top + 1) << SHIFT;
        flags |= flag::CEILING;
    }

    // Then the floor, from the row of the feet before the move.
    let line = Line {
        left,
        center,
        right,
        low_center: (b.x + w / 2) & (CELL_FX - 1),
        org_bottom,
        drop_through: options.drop_through,
    };
    let (mut floor, mut ride) = line.height(view, mapbtm, options.mode == Mode::Ground);
    if floor == CELL_FX {
        (floor, ride) = line.height(view, mapbtm + 1, true);
        floor += ((mapbtm + 1) << SHIFT) - h;
    } else if floor == 0 {
        (floor, ride) = line.height(view, mapbtm - 1, false);
        floor += ((mapbtm - 1) << SHIFT) - h;
    } else {
        floor += (mapbtm << SHIFT) - h;
    }
    let lands = match options.mode {
        Mode::Ground => b.y > floor - options.margin,
        Mode::Ladder => b.y >= floor && ride != Some(Tile::Ladder),
        Mode::Air => b.y >= floor,
    };
    let mut slope = None;
    if lands {
        b.y = floor;
        flags |= flag::GROUND;
        match ride {
            Some(Tile::Ladder) if options.mode != Mode::Ladder => flags |= flag::LADDER_TOP,
            Some(Tile::OneWay) => flags |= flag::ON_ONEWAY,
            Some(tile @ Tile::Slope { .. }) => {
                flags |= flag::ON_SLOPE;
                slope = Some(tile);
            }
            _ => {}
        }
    }
    if ride == Some(Tile::Ice) {
        flags |= flag::ON_ICE;
    }
    flags |= touching(view, b, w, h);
    Moved {
        flags,
        slope,
        ..Moved::default()
    }
}

/// The HAZARD and ON_LADDER flags: cells the body overlaps after the step.
fn touching(view: &mut View, b: &Body, w: Fx, h: Fx) -> u32 {
    let (top, bottom) = (b.y >> SHIFT, (b.y + h - 1) >> SHIFT);
    let (left, right) = (b.x >> SHIFT, (b.x + w - 1) >> SHIFT);
    let center = (b.x + w / 2) >> SHIFT;
    let mut flags = 0;
    for row in top..=bottom {
        for column in left..=right {
            match view.get(column, row) {
                Tile::Hazard => flags |= flag::HAZARD,
                Tile::Ladder if column == center => flags |= flag::ON_LADDER,
                _ => {}
            }
        }
    }
    flags
}

/// Which side of a cell a body runs into.
#[derive(Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Side {
    Left,
    Right,
}

/// Whether `tile` stops a body entering it from `side`: blocks, and a slope only at a
/// full-height edge.
fn blocks_sideways(tile: Tile, side: Side) -> bool {
    match tile {
        Tile::Solid => true,
        Tile::Slope { left, right } | Tile::CeilingSlope { left, right } => {
            (if side == Side::Left { left } else { right }) == CELL as u8
        }
        _ => false,
    }
}

/// Whether `tile` stops a body's head from below: blocks and every slope.
fn is_ceiling(tile: Tile) -> bool {
    matches!(
        tile,
        Tile::Solid | Tile::Slope { .. } | Tile::CeilingSlope { .. }
    )
}

/// One row of cells under a body, for seed 000's `HeightLine2`.
struct Line {
    left: i32,
    center: i32,
    right: i32,
    /// The bottom-centre's x within its cell.
    low_center: Fx,
    /// The body's bottom edge before this step (one-way floors need it).
    org_bottom: Fx,
    drop_through: bool,
}

impl Line {
    /// The floor in row `row`: its depth below the row's top (0 = the top, [`CELL_FX`] = no
    /// floor) and the tile that makes it. `ladders`: ladder tops count as floors.
    fn height(&self, view: &mut View, row: i32, ladders: bool) -> (Fx, Option<Tile>) {
        let tile = view.get(self.center, row);
        match tile {
            Tile::Slope { left, right } => {
                return (slope_depth(left, right, self.low_center), Some(tile));
            }
            Tile::Ladder if ladders && view.get(self.center, row - 1) != Tile::Ladder => {
                return (0, Some(tile));
            }
            Tile::OneWay if self.one_way_holds(row) => return (0, Some(tile)),
            Tile::Solid | Tile::Ice | Tile::CeilingSlope { .. } => return (0, Some(tile)),
            _ => {}
        }
        // Nothing under the bottom-centre: a body standing half on a ledge.
        for column in (self.left..self.center).rev() {
            if let Some(floor) = self.side_floor(view, column, row, ladders, Side::Right) {
                return floor;
            }
        }
        for column in self.center + 1..=self.right {
            if let Some(floor) = self.side_floor(view, column, row, ladders, Side::Left) {
                return floor;
            }
        }
        (CELL_FX, None)
    }

    /// A floor at the top of a cell beside the bottom-centre. `facing` is the side of the
    /// cell that faces the bottom-centre: a slope counts only if that edge is full height.
    fn side_floor(
        &self,
        view: &mut View,
        column: i32,
        row: i32,
        ladders: bool,
        facing: Side,
    ) -> Option<(Fx, Option<Tile>)> {
        let tile = view.get(column, row);
        let floor = match tile {
            Tile::Slope { left, right } => {
                (if facing == Side::Right { right } else { left }) == CELL as u8
            }
            Tile::Ladder => ladders && view.get(column, row - 1) != Tile::Ladder,
            Tile::OneWay => self.one_way_holds(row),
            Tile::Solid | Tile::Ice | Tile::CeilingSlope { .. } => true,
            _ => false,
        };
        floor.then_some((0, Some(tile)))
    }

    /// A one-way floor in `row` holds a body whose feet were on or above its top.
    fn one_way_holds(&self, row: i32) -> bool {
        !self.drop_through && self.org_bottom <= row << SHIFT
    }
}

/// Depth of a floor slope's surface below the cell's top at `low_center`, computed at
/// 1/256 px like seed 000 (so its 1:4 slopes give the article's heights exactly): the
/// rising part is floored for rising slopes, the falling part for falling ones.
fn slope_depth(left: u8, right: u8, low_center: Fx) -> Fx {
    let x = low_center >> 8; // 1/256 px, 0..4095
    let (left, right) = (i32::from(left), i32::from(right));
    let depth = if right >= left {
        4096 - (left * 256 + (right - left) * x / 16)
    } else {
        (16 - left) * 256 + (left - right) * x / 16
    };
    depth << 8
}

#[cfg(test)]
mod tests;
