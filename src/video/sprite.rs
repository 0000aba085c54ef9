//! Sprites: 256 entries of object attribute memory (OAM). Each shows an n x n block of tiles
//! (n = 1, 2, 4 or 8) from pattern VRAM at a signed screen position, with flips, a palette and
//! a priority against the background layers. No per-line limit: pixels cost cycles instead.

use crate::spec::{
    PATTERN_SHEET_TILES_W, PRIORITY_LEVELS, SCREEN_H, SCREEN_W, SPRITE_SIZES, TILE_SIZE,
};
use crate::video::framebuffer::{Framebuffer, blend8};
use crate::video::patterns::PatternVram;

/// One OAM entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sprite {
    pub visible: bool,
    pub x: i32,
    pub y: i32,
    /// Top-left tile of the block.
    pub tile: u16,
    /// Tiles per side: 1, 2, 4 or 8.
    pub size: u8,
    pub palette: u8,
    pub flip_x: bool,
    pub flip_y: bool,
    /// 0 (back) to 3 (front); drawn in front of layers of the same priority.
    pub priority: u8,
}

impl Sprite {
    /// A visible sprite with validated fields: `size` must be 1, 2, 4 or 8 tiles.
    pub fn new(x: i32, y: i32, tile: u32, size: u8) -> Option<Sprite> {
        SPRITE_SIZES.contains(&usize::from(size)).then_some(Sprite {
            visible: true,
            x,
            y,
            tile: (tile % crate::spec::PATTERN_TILES as u32) as u16,
            size,
            palette: 0,
            flip_x: false,
            flip_y: false,
            priority: 2,
        })
    }

    /// Sets the palette (low 4 bits) and priority (clamped).
    pub fn with_style(mut self, palette: u8, priority: i64, flip_x: bool, flip_y: bool) -> Self {
        self.palette = palette & 0xF;
        self.priority = priority.clamp(0, PRIORITY_LEVELS as i64 - 1) as u8;
        self.flip_x = flip_x;
        self.flip_y = flip_y;
        self
    }

    /// Side length in pixels.
    pub fn pixels(&self) -> i32 {
        i32::from(self.size) * TILE_SIZE as i32
    }

    /// Whether any pixel of the sprite lies on screen.
    pub fn on_screen(&self) -> bool {
        let side = self.pixels();
        self.visible
            && self.x > -side
            && self.x < crate::spec::SCREEN_W as i32
            && self.y > -side
            && self.y < SCREEN_H as i32
    }

    /// Draws the sprite over `fb`; returns the number of tile rows (8 pixels each) drawn.
    pub fn render(&self, vram: &PatternVram, fb: &mut Framebuffer) -> u64 {
        if !self.on_screen() {
            return 0;
        }
        let side = self.pixels();
        let size = usize::from(self.size);
        let tile = usize::from(self.tile);
        // Tile columns with at least one pixel on screen.
        let first_column = if self.x < 0 {
            ((-self.x) / 8) as usize
        } else {
            0
        };
        let last_column = (((SCREEN_W as i32 - 1 - self.x) / 8) as usize).min(size - 1);
        let top = self.y.max(0);
        let bottom = (self.y + side).min(SCREEN_H as i32);
        for screen_y in top..bottom {
            let mut sy = (screen_y - self.y) as usize;
            if self.flip_y {
                sy = side as usize - 1 - sy;
            }
            let row_tile = tile + (sy / TILE_SIZE) * PATTERN_SHEET_TILES_W;
            let line = fb.row_with_slack(screen_y as usize);
            for column in first_column..=last_column {
                let src_column = if self.flip_x {
                    size - 1 - column
                } else {
                    column
                };
                let row = vram.row(row_tile + src_column, sy % TILE_SIZE);
                let row = if self.flip_x { row.swap_bytes() } else { row };
                let x = self.x + (column * TILE_SIZE) as i32;
                let (at, row) = if x < 0 {
                    (0, row >> (-x * 8))
                } else {
                    (x as usize, row)
                };
                let dst: &mut [u8; 8] = (&mut line[at..at + 8]).try_into().expect("8 bytes");
                blend8(dst, row, self.palette);
            }
        }
        ((bottom - top) as u64) * (last_column + 1 - first_column) as u64
    }
}
