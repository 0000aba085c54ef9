//! Sprites: 256 entries of object attribute memory (OAM). Each shows a w x h block of tiles
//! (1-8 each) from pattern VRAM at a signed screen position, with flips, a palette, a
//! priority against the background layers and a clip window. No per-line limit: pixels cost
//! cycles instead. Entries set with `spr` stay until changed; entries lent to `sprite` (see
//! [`crate::video::Video::lend_sprite`]) last one frame.

use crate::spec::{
    PATTERN_SHEET_TILES_W, PRIORITY_LEVELS, SCREEN_H, SPRITE_MAX_TILES, SPRITE_SIZES, TILE_SIZE,
};
use crate::video::framebuffer::{Framebuffer, blend8};
use crate::video::patterns::PatternVram;
use crate::video::raster::Clip;

/// One OAM entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sprite {
    pub visible: bool,
    pub x: i32,
    pub y: i32,
    /// Top-left tile of the block.
    pub tile: u16,
    /// Tiles across and down: 1-8 each.
    pub w: u8,
    pub h: u8,
    pub palette: u8,
    pub flip_x: bool,
    pub flip_y: bool,
    /// 0 (back) to 3 (front); drawn in front of layers of the same priority.
    pub priority: u8,
    /// The screen rectangle the sprite shows in (the whole screen unless `sprite` was
    /// called under a `clip`).
    pub clip: Clip,
    /// Lent to `sprite` for this frame only.
    pub lent: bool,
}

impl Default for Sprite {
    fn default() -> Self {
        Sprite {
            visible: false,
            x: 0,
            y: 0,
            tile: 0,
            w: 1,
            h: 1,
            palette: 0,
            flip_x: false,
            flip_y: false,
            priority: 0,
            clip: Clip::SCREEN,
            lent: false,
        }
    }
}

impl Sprite {
    /// A visible square sprite: `size` must be 1, 2, 4 or 8 tiles (`spr`'s sizes).
    pub fn new(x: i32, y: i32, tile: u32, size: u8) -> Option<Sprite> {
        SPRITE_SIZES
            .contains(&usize::from(size))
            .then(|| Sprite::block(x, y, tile, size, size))?
    }

    /// A visible block of `w` x `h` tiles (1-8 each).
    pub fn block(x: i32, y: i32, tile: u32, w: u8, h: u8) -> Option<Sprite> {
        let sides = 1..=SPRITE_MAX_TILES as u8;
        (sides.contains(&w) && sides.contains(&h)).then(|| Sprite {
            visible: true,
            x,
            y,
            tile: (tile % crate::spec::PATTERN_TILES as u32) as u16,
            w,
            h,
            priority: 2,
            ..Sprite::default()
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

    /// Width and height in pixels.
    pub fn pixels(&self) -> (i32, i32) {
        let tile = TILE_SIZE as i32;
        (i32::from(self.w) * tile, i32::from(self.h) * tile)
    }

    /// Whether any pixel of the sprite lies inside its clip window.
    pub fn on_screen(&self) -> bool {
        let (w, h) = self.pixels();
        let c = &self.clip;
        self.visible
            && c.x0 < c.x1
            && c.y0 < c.y1
            && self.x < c.x1
            && self.x.saturating_add(w) > c.x0
            && self.y < c.y1
            && self.y.saturating_add(h) > c.y0
    }

    /// The tile columns (first, last) and screen rows (top..bottom) the sprite draws, or
    /// `None` when it shows nothing.
    fn extent(&self) -> Option<(usize, usize, i32, i32)> {
        if !self.on_screen() {
            return None;
        }
        let (_, height) = self.pixels();
        let clip = &self.clip;
        let tile_px = TILE_SIZE as i32;
        // Tile columns with at least one pixel inside the clip.
        let first_column = ((clip.x0 - self.x).max(0) / tile_px) as usize;
        let last_column =
            (((clip.x1 - 1 - self.x) / tile_px) as usize).min(usize::from(self.w) - 1);
        let top = self.y.max(clip.y0);
        let bottom = (self.y + height).min(clip.y1).min(SCREEN_H as i32);
        Some((first_column, last_column, top, bottom))
    }

    /// The tile rows (8 pixels each) [`Sprite::render`] draws, without drawing.
    pub(crate) fn tile_rows(&self) -> u64 {
        self.extent().map_or(0, |(first, last, top, bottom)| {
            ((bottom - top).max(0) as u64) * (last + 1 - first) as u64
        })
    }

    /// Draws the sprite over `fb`; returns the number of tile rows (8 pixels each) drawn.
    pub fn render(&self, vram: &PatternVram, fb: &mut Framebuffer) -> u64 {
        let Some((first_column, last_column, top, bottom)) = self.extent() else {
            return 0;
        };
        let (_, height) = self.pixels();
        let (w, tile) = (usize::from(self.w), usize::from(self.tile));
        let clip = &self.clip;
        let tile_px = TILE_SIZE as i32;
        // What each tile column does on every line, worked out once: the tile it reads
        // (counted from the row's first tile), the clip's mask, where it lands and the shift
        // of a column cut by the left edge.
        let mut columns = [(0usize, 0u64, 0usize, 0u32); SPRITE_MAX_TILES];
        let count = last_column + 1 - first_column;
        for (slot, column) in columns.iter_mut().zip(first_column..=last_column) {
            let src_column = if self.flip_x { w - 1 - column } else { column };
            let x = self.x + column as i32 * tile_px;
            // Pixels outside the clip's columns become transparent.
            let keep_from = (clip.x0 - x).clamp(0, 8);
            let keep_to = (clip.x1 - x).clamp(0, 8);
            let mask = byte_mask(keep_from as u32, keep_to as u32);
            let (at, shift) = if x < 0 {
                (0, (-x * 8) as u32)
            } else {
                (x as usize, 0)
            };
            *slot = (src_column, mask, at, shift);
        }
        // Column by column, so that the rows of one tile (one cache line of pattern VRAM)
        // are read one after another.
        for &(src_column, mask, at, shift) in &columns[..count] {
            for screen_y in top..bottom {
                let mut sy = (screen_y - self.y) as usize;
                if self.flip_y {
                    sy = height as usize - 1 - sy;
                }
                let row_tile = tile + (sy / TILE_SIZE) * PATTERN_SHEET_TILES_W;
                let row = vram.row(row_tile + src_column, sy % TILE_SIZE);
                let row = if self.flip_x { row.swap_bytes() } else { row };
                let row = (row & mask) >> shift;
                let line = fb.row_with_slack(screen_y as usize);
                let dst: &mut [u8; 8] = (&mut line[at..at + 8]).try_into().expect("8 bytes");
                blend8(dst, row, self.palette);
            }
        }
        self.tile_rows()
    }
}

/// A mask keeping bytes `from..to` of a tile row (byte 0 = the leftmost pixel).
fn byte_mask(from: u32, to: u32) -> u64 {
    let upto = |n: u32| {
        if n >= 8 {
            u64::MAX
        } else {
            (1u64 << (n * 8)) - 1
        }
    };
    upto(to) & !upto(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_keep_the_pixels_inside() {
        assert_eq!(byte_mask(0, 8), u64::MAX);
        assert_eq!(byte_mask(0, 1), 0xFF);
        assert_eq!(byte_mask(7, 8), 0xFF << 56);
        assert_eq!(byte_mask(3, 3), 0);
    }

    #[test]
    fn blocks_have_sides_of_one_to_eight_tiles() {
        assert!(Sprite::block(0, 0, 0, 3, 1).is_some());
        assert!(Sprite::block(0, 0, 0, 0, 1).is_none());
        assert!(Sprite::block(0, 0, 0, 9, 1).is_none());
        assert!(Sprite::new(0, 0, 0, 3).is_none());
        assert_eq!(Sprite::block(0, 0, 0, 3, 2).unwrap().pixels(), (24, 16));
    }
}
