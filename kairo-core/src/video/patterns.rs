//! Pattern VRAM: 2048 tiles of 8x8 pixels at 4 bits per pixel, shared by layers and sprites.
//!
//! The hardware stores 4 bpp (64 KiB). The emulator keeps each tile row decoded as a `u64`,
//! one byte per pixel (byte 0 = leftmost pixel), so the compositor can blend eight pixels in
//! one step; reads and writes through this module behave exactly like the 4 bpp memory.

use crate::spec::{PATTERN_TILES, TILE_SIZE};

/// One decoded tile row: eight 4-bit pixels, one per byte, byte 0 leftmost.
pub(crate) type TileRow = u64;

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_round_trip_and_keep_4_bits() {
        let mut vram = PatternVram::default();
        vram.set_pixel(5, 0, 0, 3);
        vram.set_pixel(5, 1, 0, 0x1F);
        vram.set_pixel(5, 7, 7, 9);
        assert_eq!(vram.pixel(5, 0, 0), 3);
        assert_eq!(vram.pixel(5, 1, 0), 0xF);
        assert_eq!(vram.pixel(5, 7, 7), 9);
    }
}
