//! Background layers: a cell map (tile, palette, flips per cell, or empty) of up to 256x256
//! cells of 8, 16 or 32 px, scrolled with wrap-around, at a priority, with an optional
//! per-line scroll table for raster effects. A 16 px cell shows the 2x2 tile block starting at
//! its tile, a 32 px cell the 4x4 block; an empty cell shows nothing (the layers behind show
//! through). Animated tiles are resolved through the tile animation table while drawing.

use thiserror::Error;

use crate::spec::{
    BG_CELL_SIZES, BG_MAX_CELLS, PATTERN_SHEET_TILES_W, PRIORITY_LEVELS, SCREEN_H, SCREEN_W,
};
use crate::video::anim::TileAnimations;
use crate::video::cell::Cell;
use crate::video::framebuffer::{Framebuffer, blend8};
use crate::video::patterns::PatternVram;

/// Errors from layer set-up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LayerError {
    #[error("layer size {cols}x{rows} cells is outside 1..={max} per side", max = BG_MAX_CELLS)]
    BadSize { cols: usize, rows: usize },
    #[error("cell size {0} px is not 8, 16 or 32")]
    BadCellSize(usize),
    #[error("cell ({x}, {y}) is outside the layer's {cols}x{rows} cells")]
    CellOutside {
        x: i64,
        y: i64,
        cols: usize,
        rows: usize,
    },
}

/// The pattern tile shown at tile (`sub_x`, `sub_y`) of a cell `TILES` tiles a side: flips
/// mirror the whole block.
#[inline]
fn cell_tile<const TILES: usize>(cell: Cell, sub_x: usize, sub_y: usize) -> usize {
    let sx = if cell.flip_x() {
        TILES - 1 - sub_x
    } else {
        sub_x
    };
    let sy = if cell.flip_y() {
        TILES - 1 - sub_y
    } else {
        sub_y
    };
    cell.tile() + sx + sy * PATTERN_SHEET_TILES_W
}

/// Extra scroll per screen line (raster effects).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineScroll {
    #[serde(with = "crate::serde_array")]
    pub dx: [i16; SCREEN_H],
    #[serde(with = "crate::serde_array")]
    pub dy: [i16; SCREEN_H],
}

/// One background layer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BgLayer {
    pub enabled: bool,
    pub priority: u8,
    pub scroll_x: i32,
    pub scroll_y: i32,
    cell_size: usize,
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
    line_scroll: Option<Box<LineScroll>>,
}

impl Default for BgLayer {
    /// Power-on state: disabled, 32x32 cells of 8 px (one screen), all cells tile 0.
    fn default() -> Self {
        BgLayer {
            enabled: false,
            priority: 0,
            scroll_x: 0,
            scroll_y: 0,
            cell_size: 8,
            cols: 32,
            rows: 32,
            cells: vec![Cell::default(); 32 * 32],
            line_scroll: None,
        }
    }
}

impl BgLayer {
    /// Resizes the cell map (clearing it) to `cols` x `rows` cells of `cell_size` px.
    pub fn configure(
        &mut self,
        cols: usize,
        rows: usize,
        cell_size: usize,
    ) -> Result<(), LayerError> {
        if !(1..=BG_MAX_CELLS).contains(&cols) || !(1..=BG_MAX_CELLS).contains(&rows) {
            return Err(LayerError::BadSize { cols, rows });
        }
        if !BG_CELL_SIZES.contains(&cell_size) {
            return Err(LayerError::BadCellSize(cell_size));
        }
        self.cols = cols;
        self.rows = rows;
        self.cell_size = cell_size;
        self.cells = vec![Cell::default(); cols * rows];
        Ok(())
    }

    /// Resizes the layer and copies `cells` (row-major, `cols * rows` of them) into it.
    pub fn load(
        &mut self,
        cols: usize,
        rows: usize,
        cell_size: usize,
        cells: &[Cell],
    ) -> Result<(), LayerError> {
        if cells.len() != cols * rows {
            return Err(LayerError::BadSize { cols, rows });
        }
        self.configure(cols, rows, cell_size)?;
        self.cells.copy_from_slice(cells);
        Ok(())
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cell_size(&self) -> usize {
        self.cell_size
    }

    /// Shows or hides the layer.
    pub(crate) fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// Sets the scroll: the layer pixel shown at the screen's top-left corner.
    pub fn set_scroll(&mut self, x: i32, y: i32) {
        self.scroll_x = x;
        self.scroll_y = y;
    }

    /// Sets the priority, clamped to the levels there are.
    pub(crate) fn set_priority(&mut self, priority: i64) {
        self.priority = priority.clamp(0, PRIORITY_LEVELS as i64 - 1) as u8;
    }

    fn index(&self, x: i64, y: i64) -> Result<usize, LayerError> {
        if (0..self.cols as i64).contains(&x) && (0..self.rows as i64).contains(&y) {
            Ok(y as usize * self.cols + x as usize)
        } else {
            Err(LayerError::CellOutside {
                x,
                y,
                cols: self.cols,
                rows: self.rows,
            })
        }
    }

    /// The cell at (x, y).
    pub fn cell(&self, x: i64, y: i64) -> Result<Cell, LayerError> {
        Ok(self.cells[self.index(x, y)?])
    }

    /// Sets the cell at (x, y).
    pub fn set_cell(&mut self, x: i64, y: i64, cell: Cell) -> Result<(), LayerError> {
        let i = self.index(x, y)?;
        self.cells[i] = cell;
        Ok(())
    }

    /// Sets every cell.
    pub fn fill(&mut self, cell: Cell) {
        self.cells.fill(cell);
    }

    /// Sets the extra scroll of screen line `line`; the table is created on first use.
    pub fn set_line_scroll(&mut self, line: usize, dx: i16, dy: i16) {
        if line >= SCREEN_H {
            return;
        }
        let table = self.line_scroll.get_or_insert_with(|| {
            Box::new(LineScroll {
                dx: [0; SCREEN_H],
                dy: [0; SCREEN_H],
            })
        });
        table.dx[line] = dx;
        table.dy[line] = dy;
    }

    /// Removes the per-line scroll table.
    pub(crate) fn clear_line_scroll(&mut self) {
        self.line_scroll = None;
    }

    pub fn has_line_scroll(&self) -> bool {
        self.line_scroll.is_some()
    }

    /// The per-line scroll table, if the layer has one (read by the debugging views).
    pub fn line_scroll(&self) -> Option<&LineScroll> {
        self.line_scroll.as_deref()
    }

    /// Draws the layer over `fb`, animated tiles as `anims` shows them now.
    pub fn render(&self, vram: &PatternVram, anims: &TileAnimations, fb: &mut Framebuffer) {
        match (self.cell_size, self.line_scroll.is_some()) {
            (32, false) => self.render_bands::<4>(vram, anims, fb),
            (32, true) => self.render_cells::<4>(vram, anims, fb),
            (16, false) => self.render_bands::<2>(vram, anims, fb),
            (16, true) => self.render_cells::<2>(vram, anims, fb),
            (_, false) => self.render_bands::<1>(vram, anims, fb),
            (_, true) => self.render_cells::<1>(vram, anims, fb),
        }
    }

    /// Draws the layer without a line table, one band of screen lines at a time: the lines
    /// that show the same row of tiles. Each cell is looked up once per band and the rows of
    /// its tile are read together (one cache line), which is most of the compositor's speed.
    fn render_bands<const TILES: usize>(
        &self,
        vram: &PatternVram,
        anims: &TileAnimations,
        fb: &mut Framebuffer,
    ) {
        let width_tiles = self.cols * TILES;
        let width = (width_tiles * 8) as i32;
        let height = (self.rows * TILES * 8) as i32;
        let src_x = self.scroll_x.rem_euclid(width) as usize;
        let offset = src_x % 8;
        let mut y = 0;
        while y < SCREEN_H {
            let src_y = (self.scroll_y + y as i32).rem_euclid(height) as usize;
            let tile_y = src_y % 8;
            let band = (8 - tile_y).min(SCREEN_H - y);
            let cell_row = &self.cells[(src_y / (TILES * 8)) * self.cols..][..self.cols];
            let sub_y = (src_y / 8) % TILES;
            let mut column = src_x / 8;
            let mut x = 0;
            while x < SCREEN_W {
                let cell = anims.apply(cell_row[column / TILES]);
                let tile = cell_tile::<TILES>(cell, column % TILES, sub_y);
                let palette = cell.palette();
                // The first column may be cut by the scroll: its pixels shift left.
                let shift = if x == 0 { offset * 8 } else { 0 };
                let rows = if cell.is_empty() { 0 } else { band };
                for r in 0..rows {
                    let row_in_tile = tile_y + r;
                    let row = vram.row(
                        tile,
                        if cell.flip_y() {
                            7 - row_in_tile
                        } else {
                            row_in_tile
                        },
                    );
                    let row = if cell.flip_x() { row.swap_bytes() } else { row };
                    fb.blend_at(y + r, x, row >> shift, palette);
                }
                x += 8 - shift / 8;
                column += 1;
                if column == width_tiles {
                    column = 0;
                }
            }
            y += band;
        }
    }

    /// Draws the layer with cells of `TILES` x `TILES` tiles, one screen line at a time:
    /// a first tile cut by the scroll, then whole tiles eight pixels at a time.
    fn render_cells<const TILES: usize>(
        &self,
        vram: &PatternVram,
        anims: &TileAnimations,
        fb: &mut Framebuffer,
    ) {
        let width_tiles = self.cols * TILES;
        let width = (width_tiles * 8) as i32;
        let height = (self.rows * TILES * 8) as i32;
        for y in 0..SCREEN_H {
            let (dx, dy) = match &self.line_scroll {
                Some(t) => (i32::from(t.dx[y]), i32::from(t.dy[y])),
                None => (0, 0),
            };
            let src_y = (self.scroll_y + dy + y as i32).rem_euclid(height) as usize;
            let src_x = (self.scroll_x + dx).rem_euclid(width) as usize;
            let cell_row = &self.cells[(src_y / (TILES * 8)) * self.cols..][..self.cols];
            let sub_y = (src_y / 8) % TILES;
            let tile_y = src_y % 8;
            // The tile row shown at tile column `column` of the layer, and its palette.
            let fetch = |column: usize| {
                let cell = anims.apply(cell_row[column / TILES]);
                if cell.is_empty() {
                    return (0, 0);
                }
                let tile = cell_tile::<TILES>(cell, column % TILES, sub_y);
                let row = vram.row(tile, if cell.flip_y() { 7 - tile_y } else { tile_y });
                let row = if cell.flip_x() { row.swap_bytes() } else { row };
                (row, cell.palette())
            };
            let line = fb.row_with_slack(y);
            let mut column = src_x / 8;
            let offset = src_x % 8;
            let mut x = 0;
            if offset != 0 {
                let (row, palette) = fetch(column);
                let first: &mut [u8; 8] = (&mut line[..8]).try_into().expect("8 bytes");
                blend8(first, row >> (offset * 8), palette);
                x = 8 - offset;
                column = (column + 1) % width_tiles;
            }
            let whole = (SCREEN_W - x).div_ceil(8);
            for chunk in line[x..x + whole * 8].chunks_exact_mut(8) {
                let (row, palette) = fetch(column);
                blend8(chunk.try_into().expect("8 bytes"), row, palette);
                column += 1;
                if column == width_tiles {
                    column = 0;
                }
            }
        }
    }
}
