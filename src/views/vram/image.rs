//! The picture the hardware views draw into: an RGBA image of any size with the few drawing
//! operations they need (fills, outlines, text in the console's system font, a checkerboard
//! for transparent pixels), and nearest-neighbour scaling for files meant to be read.

use crate::spec::FONT_SIZE;
use crate::video::font::glyph;

/// Horizontal advance of text: the font's glyphs are 5 pixels wide.
pub const CHAR_W: usize = 6;
/// Height of a text line.
pub const LINE_H: usize = 9;

/// Colours of the views' own marks, `0xRRGGBB`.
pub mod colors {
    pub const BACKGROUND: u32 = 0x10_1018;
    pub const TEXT: u32 = 0xF0_F4FC;
    pub const DIM: u32 = 0x80_8898;
    pub const GREY: u32 = 0x50_5868;
    pub const GRID: u32 = 0x0A_0A10;
    pub const MARK: u32 = 0xFF_E040;
    pub const SHADOW: u32 = 0x00_0000;
    pub const CHECK_A: u32 = 0x24_2430;
    pub const CHECK_B: u32 = 0x2E_2E3C;
}

/// An RGBA picture, row-major, 4 bytes per pixel, alpha always 255.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<u8>,
}

impl Image {
    /// A `width` x `height` picture filled with `rgb`.
    pub fn new(width: usize, height: usize, rgb: u32) -> Image {
        let [_, r, g, b] = rgb.to_be_bytes();
        Image {
            width,
            height,
            rgba: [r, g, b, 0xFF].repeat(width * height),
        }
    }

    /// A `width` x `height` picture from RGBA bytes (such as the console's picture); bytes
    /// missing at the end leave black.
    pub(crate) fn from_rgba(width: usize, height: usize, rgba: &[u8]) -> Image {
        let mut image = Image::new(width, height, 0);
        let n = image.rgba.len().min(rgba.len());
        image.rgba[..n].copy_from_slice(&rgba[..n]);
        image
    }

    /// The colour at (x, y), `0xRRGGBB`; black outside.
    pub fn get(&self, x: usize, y: usize) -> u32 {
        if x >= self.width || y >= self.height {
            return 0;
        }
        let px = &self.rgba[(y * self.width + x) * 4..][..3];
        u32::from_be_bytes([0, px[0], px[1], px[2]])
    }

    /// Sets (x, y) to `rgb`; nothing outside the picture.
    pub fn put(&mut self, x: usize, y: usize, rgb: u32) {
        if x < self.width && y < self.height {
            let [_, r, g, b] = rgb.to_be_bytes();
            self.rgba[(y * self.width + x) * 4..][..4].copy_from_slice(&[r, g, b, 0xFF]);
        }
    }

    /// Sets (x, y) to `rgb` with signed coordinates.
    pub(crate) fn put_i(&mut self, x: i64, y: i64, rgb: u32) {
        if x >= 0 && y >= 0 {
            self.put(x as usize, y as usize, rgb);
        }
    }

    /// Fills the rectangle at (x, y) of `w` x `h`, clipped.
    pub fn fill(&mut self, x: usize, y: usize, w: usize, h: usize, rgb: u32) {
        for yy in y..(y.saturating_add(h)).min(self.height) {
            for xx in x..(x.saturating_add(w)).min(self.width) {
                self.put(xx, yy, rgb);
            }
        }
    }

    /// Outlines the rectangle at (x, y) of `w` x `h` (signed, clipped).
    pub fn outline(&mut self, x: i64, y: i64, w: i64, h: i64, rgb: u32) {
        if w <= 0 || h <= 0 {
            return;
        }
        for i in 0..w {
            self.put_i(x + i, y, rgb);
            self.put_i(x + i, y + h - 1, rgb);
        }
        for i in 0..h {
            self.put_i(x, y + i, rgb);
            self.put_i(x + w - 1, y + i, rgb);
        }
    }

    /// The transparent-pixel checkerboard's colour at (x, y), in 4-pixel squares.
    pub fn checker(x: usize, y: usize) -> u32 {
        if (x / 4 + y / 4).is_multiple_of(2) {
            colors::CHECK_A
        } else {
            colors::CHECK_B
        }
    }

    /// Draws `text` from (x, y) in the system font, one line; characters past the right
    /// edge are left out. Returns the x after the last character.
    pub fn text(&mut self, x: usize, y: usize, text: &str, rgb: u32) -> usize {
        let mut left = x;
        for ch in text.bytes() {
            if left + CHAR_W > self.width {
                break;
            }
            for (row, bits) in glyph(ch).iter().enumerate() {
                for col in 0..FONT_SIZE {
                    if bits & (0x80 >> col) != 0 {
                        self.put(left + col, y + row, rgb);
                    }
                }
            }
            left += CHAR_W;
        }
        left
    }

    /// The picture enlarged `factor` times (each pixel a square), for files read by people.
    pub fn scaled(&self, factor: usize) -> Image {
        let factor = factor.max(1);
        let mut out = Image::new(self.width * factor, self.height * factor, 0);
        for y in 0..out.height {
            for x in 0..out.width {
                out.put(x, y, self.get(x / factor, y / factor));
            }
        }
        out
    }
}

/// Width in pixels of `chars` characters of text.
pub fn text_width(chars: usize) -> usize {
    chars * CHAR_W
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_is_clipped_and_text_stops_at_the_edge() {
        let mut image = Image::new(20, 10, colors::BACKGROUND);
        image.fill(15, 5, 100, 100, 0xFF0000);
        assert_eq!(image.get(19, 9), 0xFF0000);
        assert_eq!(image.get(14, 9), colors::BACKGROUND);
        image.outline(-5, -5, 10, 10, 0x00FF00);
        assert_eq!(image.get(4, 0), 0x00FF00);
        assert_eq!(image.get(0, 3), colors::BACKGROUND);
        // Three characters of 6 px fit in 20 px.
        assert_eq!(image.text(0, 0, "ABCDEF", colors::TEXT), 18);
    }

    #[test]
    fn scaling_repeats_each_pixel() {
        let mut image = Image::new(2, 1, 0);
        image.put(1, 0, 0x123456);
        let big = image.scaled(3);
        assert_eq!((big.width, big.height), (6, 3));
        assert_eq!(big.get(3, 2), 0x123456);
        assert_eq!(big.get(2, 2), 0);
    }
}
