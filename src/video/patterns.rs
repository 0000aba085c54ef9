//! Pattern VRAM: 2048 tiles of 8x8 pixels at 4 bits per pixel, shared by layers and sprites.
//!
//! The hardware stores 4 bpp (64 KiB). The emulator keeps each tile row decoded as a `u64`,
//! one byte per pixel (byte 0 = leftmost pixel), so the compositor can blend eight pixels in
//! one step; reads and writes through this module behave exactly like the 4 bpp memory.

use crate::spec::{PATTERN_SHEET_TILES_W, PATTERN_TILES, TILE_SIZE};

/// One decoded tile row: eight 4-bit pixels, one per byte, byte 0 leftmost.
pub type TileRow = u64;

/// The pattern memory.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PatternVram {
    #[serde(with = "crate::serde_array::boxed")]
    rows: Box<[TileRow; PATTERN_TILES * TILE_SIZE]>,
}

impl Default for PatternVram {
    fn default() -> Self {
        PatternVram {
            rows: Box::new([0; PATTERN_TILES * TILE_SIZE]),
        }
    }
}

impl PatternVram {
    /// Row `row` (0-7) of tile `tile`; the tile index wraps at 2048, the row at 8.
    #[inline(always)]
    pub fn row(&self, tile: usize, row: usize) -> TileRow {
        self.rows[(tile % PATTERN_TILES) * TILE_SIZE + row % TILE_SIZE]
    }

    /// The colour (0-15) of pixel (x, y) of tile `tile`.
    pub fn pixel(&self, tile: usize, x: usize, y: usize) -> u8 {
        (self.row(tile, y) >> (x * 8)) as u8
    }

    /// Sets pixel (x, y) of tile `tile` to `color` (its low 4 bits).
    pub fn set_pixel(&mut self, tile: usize, x: usize, y: usize, color: u8) {
        let row = &mut self.rows[(tile % PATTERN_TILES) * TILE_SIZE + y];
        let shift = x * 8;
        *row = (*row & !(0xFF << shift)) | (u64::from(color & 0xF) << shift);
    }

    /// The colour at sheet coordinates (px, py): the pattern memory seen as a picture 128 px
    /// wide (16 tiles) and 1024 px tall.
    pub fn sheet_pixel(&self, px: usize, py: usize) -> u8 {
        let tile = (py / TILE_SIZE) * PATTERN_SHEET_TILES_W + px / TILE_SIZE;
        self.pixel(tile, px % TILE_SIZE, py % TILE_SIZE)
    }

    /// Sets the colour at sheet coordinates (px, py).
    pub fn set_sheet_pixel(&mut self, px: usize, py: usize, color: u8) {
        let tile = (py / TILE_SIZE) * PATTERN_SHEET_TILES_W + px / TILE_SIZE;
        self.set_pixel(tile, px % TILE_SIZE, py % TILE_SIZE, color);
    }

    /// The 32 bytes of tile `tile` as the hardware stores them (4 bpp, two pixels per byte,
    /// left pixel in the low nibble).
    pub fn packed_tile(&self, tile: usize) -> [u8; 32] {
        let mut out = [0; 32];
        for y in 0..TILE_SIZE {
            let row = self.row(tile, y);
            for x in 0..TILE_SIZE / 2 {
                let left = (row >> (x * 16)) as u8 & 0xF;
                let right = (row >> (x * 16 + 8)) as u8 & 0xF;
                out[y * 4 + x] = left | right << 4;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_round_trip_and_pack_as_4bpp() {
        let mut vram = PatternVram::default();
        vram.set_pixel(5, 0, 0, 3);
        vram.set_pixel(5, 1, 0, 0x1F);
        vram.set_pixel(5, 7, 7, 9);
        assert_eq!(vram.pixel(5, 0, 0), 3);
        assert_eq!(vram.pixel(5, 1, 0), 0xF);
        assert_eq!(vram.pixel(5, 7, 7), 9);
        let packed = vram.packed_tile(5);
        assert_eq!(packed[0], 0xF3);
        assert_eq!(packed[31], 0x90);
    }

    #[test]
    fn sheet_coordinates_follow_the_16_tile_wide_layout() {
        let mut vram = PatternVram::default();
        vram.set_sheet_pixel(8 * 3 + 2, 8 * 2 + 5, 7);
        assert_eq!(vram.pixel(2 * 16 + 3, 2, 5), 7);
        assert_eq!(vram.sheet_pixel(26, 21), 7);
    }
}
