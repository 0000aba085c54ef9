//! The collision layer: a grid of 16x16 [`Tile`]s, what lies beyond its edges, and the view
//! the mover reads it through (upside down for bodies whose gravity points up).

use super::tile::Tile;

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
    cells: Vec<Tile>,
    pub edges: Edges,
}

impl Default for CollisionMap {
    fn default() -> Self {
        CollisionMap::new(16, 16)
    }
}

impl CollisionMap {
    /// An empty map of `cols` x `rows` cells (each clamped to 1..=256).
    pub fn new(cols: usize, rows: usize) -> CollisionMap {
        let (cols, rows) = (cols.clamp(1, 256) as i32, rows.clamp(1, 256) as i32);
        CollisionMap {
            cols,
            rows,
            cells: vec![Tile::Empty; (cols * rows) as usize],
            edges: Edges::default(),
        }
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
    pub probes: u32,
}

impl<'a> View<'a> {
    pub fn new(map: &'a CollisionMap, flipped: bool) -> View<'a> {
        View {
            map,
            flipped,
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
