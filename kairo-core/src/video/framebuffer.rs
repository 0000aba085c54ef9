//! The composited picture: 256x256 full palette indices (palette * 16 + colour; 0 is the
//! backdrop), and its conversion to RGBA for the host.
//!
//! Rows are stored with 8 bytes of slack on the right so the compositor can write eight
//! pixels at once at any x; the slack is never shown.

use crate::spec::{SCREEN_H, SCREEN_W};
use crate::video::palette::PaletteRam;
use crate::video::patterns::TileRow;

/// Bytes between the starts of two rows.
pub(crate) const STRIDE: usize = SCREEN_W + 8;

/// Where drawings are painted: the framebuffer (the frame plane's drawings, composited each
/// frame) or the canvas (drawings kept until `cls`). Callers clip.
pub(crate) trait Pixels {
    /// Sets pixel (x, y).
    fn set(&mut self, x: usize, y: usize, index: u8);
    /// Sets pixels `x0..=x1` of row `y`.
    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, index: u8);
}

impl Pixels for Framebuffer {
    #[inline]
    fn set(&mut self, x: usize, y: usize, index: u8) {
        Framebuffer::set(self, x, y, index);
    }

    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, index: u8) {
        self.row_mut(y)[x0..=x1].fill(index);
    }
}

/// The indexed framebuffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    pixels: Vec<u8>,
}

impl Default for Framebuffer {
    fn default() -> Self {
        Framebuffer {
            pixels: vec![0; STRIDE * SCREEN_H],
        }
    }
}

/// A byte with the high bit set for every non-zero byte of a tile row (pixels are 0-15).
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
const LOW_7_BITS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const ONES: u64 = 0x0101_0101_0101_0101;

/// Blends the eight pixels of tile row `row` with palette `palette` over `dst`: transparent
/// (0) pixels keep what is there. Branch-free: a byte's high bit is set exactly when the pixel
/// is opaque, because pixels are 0-15.
#[inline(always)]
pub(crate) fn blend8(dst: &mut [u8; 8], row: TileRow, palette: u8) {
    let opaque = (((row + LOW_7_BITS) & HIGH_BITS) >> 7) * 0xFF;
    let colored = row | ((u64::from(palette) << 4) * ONES);
    let old = u64::from_le_bytes(*dst);
    *dst = ((old & !opaque) | (colored & opaque)).to_le_bytes();
}

impl Framebuffer {
    /// The palette index of pixel (x, y).
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.pixels[y * STRIDE + x]
    }

    /// Sets pixel (x, y); callers clip.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, index: u8) {
        self.pixels[y * STRIDE + x] = index;
    }

    /// The 256 visible pixels of row `y`.
    pub fn row(&self, y: usize) -> &[u8] {
        &self.pixels[y * STRIDE..y * STRIDE + SCREEN_W]
    }

    /// The 256 visible pixels of row `y`, to write.
    #[inline]
    pub(crate) fn row_mut(&mut self, y: usize) -> &mut [u8] {
        &mut self.pixels[y * STRIDE..y * STRIDE + SCREEN_W]
    }

    /// Fills the picture with the backdrop (index 0).
    pub fn clear(&mut self) {
        self.pixels.fill(0);
    }

    /// Fills the picture with palette index `index`.
    pub fn fill(&mut self, index: u8) {
        self.pixels.fill(index);
    }

    /// Row `y` with its slack: 264 bytes, where tile rows can be blended 8 at a time.
    #[inline(always)]
    pub(crate) fn row_with_slack(&mut self, y: usize) -> &mut [u8; STRIDE] {
        let at = y * STRIDE;
        (&mut self.pixels[at..at + STRIDE])
            .try_into()
            .expect("a whole row")
    }

    /// Blends a tile row at (x, y), 0 <= x < 256 (pixels past the right edge land in slack).
    #[inline(always)]
    pub(crate) fn blend_at(&mut self, y: usize, x: usize, row: TileRow, palette: u8) {
        let at = y * STRIDE + x;
        let dst: &mut [u8; 8] = (&mut self.pixels[at..at + 8]).try_into().expect("8 bytes");
        blend8(dst, row, palette);
    }

    /// Converts to RGBA (4 bytes per pixel, 256x256, row-major) through palette RAM.
    pub(crate) fn to_rgba(&self, palette: &PaletteRam, out: &mut [u8]) {
        assert_eq!(out.len(), SCREEN_W * SCREEN_H * 4, "RGBA buffer size");
        let words = palette.rgba_words();
        for (y, out_row) in out.chunks_exact_mut(SCREEN_W * 4).enumerate() {
            for (px, &index) in out_row.chunks_exact_mut(4).zip(self.row(y)) {
                px.copy_from_slice(&words[index as usize].to_ne_bytes());
            }
        }
    }

    /// The RGBA picture as a new vector.
    pub fn rgba(&self, palette: &PaletteRam) -> Vec<u8> {
        let mut out = vec![0; SCREEN_W * SCREEN_H * 4];
        self.to_rgba(palette, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_keeps_transparent_pixels_and_applies_palette() {
        let mut fb = Framebuffer::default();
        fb.set(1, 0, 0x77);
        fb.set(2, 0, 0x77);
        let row = u64::from_le_bytes([1, 0, 15, 0, 0, 0, 0, 2]);
        fb.blend_at(0, 0, row, 3);
        assert_eq!(&fb.row(0)[..8], &[0x31, 0x77, 0x3F, 0, 0, 0, 0, 0x32]);
    }

    #[test]
    fn blends_at_the_right_edge_land_in_slack_not_the_next_row() {
        let mut fb = Framebuffer::default();
        let row = u64::from_le_bytes([1, 2, 3, 4, 5, 6, 7, 8]);
        fb.blend_at(1, 252, row, 0);
        assert_eq!(&fb.row(1)[252..], &[1, 2, 3, 4]);
        fb.blend_at(255, 255, row, 0);
        assert!(fb.row(2).iter().all(|&p| p == 0));
        assert_eq!(fb.get(255, 255), 1);
    }
}
