//! The collision layer: a grid of square [`Tile`]s of 8, 16 or 32 px ([`CellSize`]), what
//! lies beyond its edges, and the view the mover reads it through (upside down for bodies
//! whose gravity points up).

use super::tile::Tile;
use crate::fixed::FX_SHIFT;

/// The side of one collision cell. A tile's shape is given in sixteenths of its cell, so the
/// same tile is the same shape at every size, scaled.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CellSize {
    /// 8 px, one pattern tile (the PICO-8 and TIC-80 grid).
    Px8,
    /// 16 px, seed 000's blocks.
    #[default]
    Px16,
    /// 32 px.
    Px32,
}

impl CellSize {
    /// Every size, smallest first.
    pub const ALL: [CellSize; 3] = [CellSize::Px8, CellSize::Px16, CellSize::Px32];

    /// The size of `px` pixels, if cells come in it.
    pub(crate) fn from_px(px: i64) -> Option<CellSize> {
        CellSize::ALL.into_iter().find(|s| i64::from(s.px()) == px)
    }

    /// The side in pixels.
    pub fn px(self) -> i32 {
        1 << self.log2()
    }

    /// log2 of the side in pixels.
    pub(crate) fn log2(self) -> u32 {
        match self {
            CellSize::Px8 => 3,
            CellSize::Px16 => 4,
            CellSize::Px32 => 5,
        }
    }

    /// The shift from a 16.16 coordinate to a cell index.
    pub(crate) fn fx_shift(self) -> u32 {
        FX_SHIFT + self.log2()
    }
}

/// Whether the space beyond each edge of the map is solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Edges {
    pub left: bool,
    pub right: bool,
    pub top: bool,
    pub bottom: bool,
}

impl Default for Edges {
    /// Walls at the left and right edges; open above (jumps may leave the top) and below
    /// (pits fall out of the map).
    fn default() -> Self {
        Edges {
            left: true,
            right: true,
            top: false,
            bottom: false,
        }
    }
}

/// The collision layer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CollisionMap {
    cols: i32,
    rows: i32,
    /// The cell size (16 px in states written before there was a choice).
    #[serde(default)]
    cell: CellSize,
    cells: Vec<Tile>,
    pub edges: Edges,
}

impl Default for CollisionMap {
    fn default() -> Self {
        CollisionMap::new(16, 16)
    }
}

impl CollisionMap {
    /// An empty map of `cols` x `rows` 16 px cells (each clamped to 1..=[`crate::spec::COLLISION_MAX_CELLS`]).
    pub fn new(cols: usize, rows: usize) -> CollisionMap {
        CollisionMap::sized(cols, rows, CellSize::default())
    }

    /// An empty map of `cols` x `rows` cells of `cell` (each clamped to
    /// 1..=[`crate::spec::COLLISION_MAX_CELLS`]).
    pub fn sized(cols: usize, rows: usize, cell: CellSize) -> CollisionMap {
        let most = crate::spec::COLLISION_MAX_CELLS;
        let (cols, rows) = (cols.clamp(1, most) as i32, rows.clamp(1, most) as i32);
        CollisionMap {
            cols,
            rows,
            cell,
            cells: vec![Tile::Empty; (cols * rows) as usize],
            edges: Edges::default(),
        }
    }

    /// The same cells at another cell size.
    pub fn with_cell_size(mut self, cell: CellSize) -> CollisionMap {
        self.cell = cell;
        self
    }

    /// A map from rows of text, one character per cell (for tests and docs): `.` empty,
    /// `#` solid, `I` ice, `H` ladder, `^` hazard, `=` one-way; slopes by `key`.
    pub fn from_ascii(rows: &[&str], key: &[(char, Tile)]) -> CollisionMap {
        let cols = rows.iter().map(|r| r.chars().count()).max().unwrap_or(1);
        let mut map = CollisionMap::new(cols, rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let tile = match ch {
                    '#' => Tile::Solid,
                    'I' => Tile::Ice,
                    'H' => Tile::Ladder,
                    '^' => Tile::Hazard,
                    '=' => Tile::OneWay,
                    other => key
                        .iter()
                        .find(|(c, _)| *c == other)
                        .map(|(_, t)| *t)
                        .unwrap_or_default(),
                };
                map.set(x as i32, y as i32, tile);
            }
        }
        map
    }

    pub fn cols(&self) -> i32 {
        self.cols
    }

    pub fn rows(&self) -> i32 {
        self.rows
    }

    pub fn cell_size(&self) -> CellSize {
        self.cell
    }

    /// The side of a cell in pixels.
    pub fn cell_px(&self) -> i32 {
        self.cell.px()
    }

    /// The tile at cell (x, y); beyond the edges, solid or empty as [`Edges`] says.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> Tile {
        if x < 0 {
            return if self.edges.left {
                Tile::Solid
            } else {
                Tile::Empty
            };
        }
        if x >= self.cols {
            return if self.edges.right {
                Tile::Solid
            } else {
                Tile::Empty
            };
        }
        if y < 0 {
            return if self.edges.top {
                Tile::Solid
            } else {
                Tile::Empty
            };
        }
        if y >= self.rows {
            return if self.edges.bottom {
                Tile::Solid
            } else {
                Tile::Empty
            };
        }
        self.cells[(y * self.cols + x) as usize]
    }

    /// Sets cell (x, y); cells outside the map are ignored. Returns whether it was inside.
    pub fn set(&mut self, x: i32, y: i32, tile: Tile) -> bool {
        if (0..self.cols).contains(&x) && (0..self.rows).contains(&y) {
            self.cells[(y * self.cols + x) as usize] = tile;
            true
        } else {
            false
        }
    }

    /// Every tile, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.cells
    }
}

/// The map as one body sees it: upside down when its gravity points up. Counts the cells
/// it reads, for the collision unit's cycle cost.
pub struct View<'a> {
    map: &'a CollisionMap,
    flipped: bool,
    /// From a 16.16 coordinate to a cell index: 16 + log2 of the cell size.
    pub(crate) shift: u32,
    pub probes: u32,
}

impl<'a> View<'a> {
    pub fn new(map: &'a CollisionMap, flipped: bool) -> View<'a> {
        View {
            map,
            flipped,
            shift: map.cell.fx_shift(),
            probes: 0,
        }
    }

    /// The tile at cell (x, y) of the view.
    #[inline]
    pub fn get(&mut self, x: i32, y: i32) -> Tile {
        self.probes += 1;
        if self.flipped {
            self.map.get(x, self.map.rows - 1 - y).mirrored()
        } else {
            self.map.get(x, y)
        }
    }

    /// Height of the map in cells.
    pub fn rows(&self) -> i32 {
        self.map.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{COLLISION_CELL, COLLISION_CELL_SIZES};

    #[test]
    fn cell_sizes_are_the_specs() {
        assert_eq!(CellSize::default().px(), COLLISION_CELL);
        assert_eq!(CellSize::ALL.map(CellSize::px), COLLISION_CELL_SIZES);
        for size in CellSize::ALL {
            assert_eq!(CellSize::from_px(i64::from(size.px())), Some(size));
        }
        assert_eq!(CellSize::from_px(12), None);
        assert_eq!(CellSize::from_px(-16), None);
    }
}
