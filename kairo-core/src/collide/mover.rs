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
//! heights (45 deg, 1:2, 1:4, custom); constant speed along slopes on request; gravity
//! pointing up, handled by running the same routine on the map seen upside down; and cells
//! of 8 or 32 px as well as 16. The cell size is only ever the shift from a 16.16 coordinate
//! to a cell index (`view.shift`, 20 for the article's 16 px): slope heights are sixteenths
//! of a cell and the margin is capped at one cell, so a map, a body and its velocity scaled
//! by 1/2 or 2 together move exactly scaled (the tests check it at each size).

use super::map::{CollisionMap, View};
use super::tile::{FULL, Tile};
use crate::fixed::{Fx, fx};

pub use crate::spec::BODY_MAX_COORD as MAX_COORD_PX;
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
    /// Ground mode snaps down to a floor this close below the feet (at most one cell: a
    /// larger margin acts as one cell).
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
    /// Steps of at most one cell (of the map's size) the move was split into.
    pub steps: u32,
}

/// Moves `body` by its velocity through `map`; afterwards `body.vx`/`body.vy` hold the
/// distance actually moved. Its position is first clamped to +-[`MAX_COORD_PX`], its size
/// to 1-4096 px and its velocity to +-[`MAX_SPEED_PX`] on each axis.
pub fn move_body(map: &CollisionMap, body: &mut Body, options: &MoveOptions) -> Moved {
    let mut view = View::new(map, options.gravity_up);
    let shift = view.shift;
    let cell: Fx = 1 << shift;
    let options = &MoveOptions {
        margin: options.margin.clamp(0, cell),
        ..*options
    };
    let height = fx(map.rows() * map.cell_px());
    let (org_x, org_y) = (body.x, body.y);
    let limit = fx(MAX_SPEED_PX);
    let mut b = *body;
    // Far enough from the edges of 16.16 that no sum below overflows.
    b.x = b.x.clamp(-fx(MAX_COORD_PX), fx(MAX_COORD_PX));
    b.y = b.y.clamp(-fx(MAX_COORD_PX), fx(MAX_COORD_PX));
    // The API refuses other sizes; a Rust caller's are kept in range.
    b.w = b.w.clamp(1, crate::spec::BODY_MAX_SIZE);
    b.h = b.h.clamp(1, crate::spec::BODY_MAX_SIZE);
    b.vx = b.vx.clamp(-limit, limit);
    b.vy = b.vy.clamp(-limit, limit);
    if options.gravity_up {
        b.y = height - b.y - fx(b.h);
        b.vy = -b.vy;
    }
    if options.slope_speed && options.mode == Mode::Ground {
        let feet = (b.y + fx(b.h) - 1) >> shift;
        if let Tile::Slope { left, right } = view.get((b.x + fx(b.w) / 2) >> shift, feet) {
            b.vx = ((i128::from(b.vx) * i128::from(slope_speed_factor(left.abs_diff(right)))) >> 32)
                as Fx;
        }
    }

    let span = b.vx.unsigned_abs().max(b.vy.unsigned_abs());
    let steps = span.div_ceil(cell as u32).max(1);
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
    body.vx = b.x.saturating_sub(org_x);
    body.vy = b.y.saturating_sub(org_y);
    moved.probes = view.probes;
    moved
}

/// Speed along a slope rising `rise` sixteenths of a cell per cell, as a factor of the flat
/// speed with 32 fraction bits: 16 / sqrt(16^2 + rise^2), from integer square roots (the same
/// everywhere, and at every cell size).
fn slope_speed_factor(rise: u8) -> i64 {
    let squared = (256 + u128::from(rise) * u128::from(rise)) << 64;
    ((16u128 << 64) / squared.isqrt()) as i64
}

/// One step of at most one cell per axis: seed 000's `Move2`, generalised.
fn step(view: &mut View, b: &mut Body, vx: Fx, vy: Fx, options: &MoveOptions) -> Moved {
    let shift = view.shift;
    let (w, h) = (fx(b.w), fx(b.h));
    let org_bottom = b.y + h;
    let mut flags = 0;

    // Horizontal.
    let maptop = b.y >> shift;
    let mapbtm = (b.y + h - 1) >> shift;
    let center = (b.x + w / 2) >> shift;
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
            let column = (b.x + w - 1) >> shift;
            if (maptop..=lowest).any(|row| blocks_sideways(view.get(column, row), Side::Left)) {
                b.x = (column << shift) - w;
                flags = flag::WALL_RIGHT;
            }
        } else {
            let column = b.x >> shift;
            if (maptop..=lowest).any(|row| blocks_sideways(view.get(column, row), Side::Right)) {
                b.x = (column + 1) << shift;
                flags = flag::WALL_LEFT;
            }
        }
    }

    // Vertical: the ceiling first.
    let left = b.x >> shift;
    let right = (b.x + w - 1) >> shift;
    let center = (b.x + w / 2) >> shift;
    b.y += vy;
    let top = b.y >> shift;
    if (left..=right).any(|column| is_ceiling(view.get(column, top))) {
        b.y = (top + 1) << shift;
        flags |= flag::CEILING;
    }

    // Then the floor, from the row of the feet before the move.
    let line = Line {
        left,
        center,
        right,
        low_center: (b.x + w / 2) & ((1 << shift) - 1),
        org_bottom,
        shift,
        drop_through: options.drop_through,
    };
    let (mut floor, mut ride) = line.height(view, mapbtm, options.mode == Mode::Ground);
    if floor == 1 << shift {
        (floor, ride) = line.height(view, mapbtm + 1, true);
        floor += ((mapbtm + 1) << shift) - h;
    } else if floor == 0 {
        (floor, ride) = line.height(view, mapbtm - 1, false);
        floor += ((mapbtm - 1) << shift) - h;
    } else {
        floor += (mapbtm << shift) - h;
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
    let shift = view.shift;
    let (top, bottom) = (b.y >> shift, (b.y + h - 1) >> shift);
    let (left, right) = (b.x >> shift, (b.x + w - 1) >> shift);
    let center = (b.x + w / 2) >> shift;
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
            (if side == Side::Left { left } else { right }) == FULL
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
    /// The map's shift from 16.16 to cells.
    shift: u32,
    drop_through: bool,
}

impl Line {
    /// The floor in row `row`: its depth below the row's top (0 = the top, one cell = no
    /// floor) and the tile that makes it. `ladders`: ladder tops count as floors.
    fn height(&self, view: &mut View, row: i32, ladders: bool) -> (Fx, Option<Tile>) {
        let tile = view.get(self.center, row);
        match tile {
            Tile::Slope { left, right } => {
                return (
                    slope_depth(left, right, self.low_center, self.shift),
                    Some(tile),
                );
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
        (1 << self.shift, None)
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
                (if facing == Side::Right { right } else { left }) == FULL
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
        !self.drop_through && self.org_bottom <= row << self.shift
    }
}

/// Depth of a floor slope's surface below the cell's top at `low_center` (its x within the
/// cell), computed at 1/4096 of the cell — 1/256 px in a 16 px cell, like seed 000, so its 1:4
/// slopes give the article's heights exactly: the rising part is floored for rising slopes,
/// the falling part for falling ones. `shift` is the map's, 16 + log2 of the cell size.
fn slope_depth(left: u8, right: u8, low_center: Fx, shift: u32) -> Fx {
    let unit = shift - 12; // 1/4096 of a cell, in Fx bits: 8 for 16 px cells
    let x = low_center >> unit; // 0..4095
    let (left, right) = (i32::from(left), i32::from(right));
    let depth = if right >= left {
        4096 - (left * 256 + (right - left) * x / 16)
    } else {
        (16 - left) * 256 + (left - right) * x / 16
    };
    depth << unit
}

#[cfg(test)]
mod tests;
