//! Drawing on a 256x256 RGBA picture for the debug overlays: blended fills, outlines, lines
//! and the system font, all clipped to the screen.

use crate::spec::{SCREEN_H, SCREEN_W};
use crate::video::font::glyph;

/// An overlay colour: red, green, blue and opacity (0-255).
pub type Rgba = [u8; 4];

/// A picture being drawn on.
pub struct Canvas<'a> {
    rgba: &'a mut [u8],
}

impl<'a> Canvas<'a> {
    /// Draws on `rgba`, a 256x256 RGBA picture.
    pub fn new(rgba: &'a mut [u8]) -> Canvas<'a> {
        debug_assert_eq!(rgba.len(), SCREEN_W * SCREEN_H * 4);
        Canvas { rgba }
    }

    /// Blends `colour` over one pixel (nothing off screen).
    pub fn pixel(&mut self, x: i32, y: i32, colour: Rgba) {
        if x < 0 || y < 0 || x >= SCREEN_W as i32 || y >= SCREEN_H as i32 {
            return;
        }
        let at = (y as usize * SCREEN_W + x as usize) * 4;
        let alpha = u32::from(colour[3]);
        for (c, &value) in self.rgba[at..at + 3].iter_mut().zip(&colour[..3]) {
            *c = ((u32::from(*c) * (255 - alpha) + u32::from(value) * alpha) / 255) as u8;
        }
        self.rgba[at + 3] = 255;
    }

    /// Fills the rectangle `x..x+w`, `y..y+h`.
    pub fn fill(&mut self, x: i32, y: i32, w: i32, h: i32, colour: Rgba) {
        let (x0, y0) = (x.max(0), y.max(0));
        let x1 = x.saturating_add(w).min(SCREEN_W as i32);
        let y1 = y.saturating_add(h).min(SCREEN_H as i32);
        for py in y0..y1 {
            for px in x0..x1 {
                self.pixel(px, py, colour);
            }
        }
    }

    /// The outline of the rectangle `x..x+w`, `y..y+h` (1 px, inside it).
    pub fn outline(&mut self, x: i32, y: i32, w: i32, h: i32, colour: Rgba) {
        let (w, h) = (w.max(1), h.max(1));
        self.fill(x, y, w, 1, colour);
        if h > 1 {
            self.fill(x, y.saturating_add(h - 1), w, 1, colour);
        }
        self.fill(x, y.saturating_add(1), 1, h - 2, colour);
        if w > 1 {
            self.fill(
                x.saturating_add(w - 1),
                y.saturating_add(1),
                1,
                h - 2,
                colour,
            );
        }
    }

    /// A line from (x0, y0) to (x1, y1), both ends drawn (clipped to a margin around the
    /// screen first, so far-away ends cost nothing).
    pub fn line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, colour: Rgba) {
        const FAR: i32 = 4096;
        let clamp = |v: i32| v.clamp(-FAR, FAR);
        let (mut x, mut y, x1, y1) = (clamp(x0), clamp(y0), clamp(x1), clamp(y1));
        let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
        let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
        let mut error = dx + dy;
        loop {
            self.pixel(x, y, colour);
            if x == x1 && y == y1 {
                return;
            }
            let twice = 2 * error;
            if twice >= dy {
                error += dy;
                x += sx;
            }
            if twice <= dx {
                error += dx;
                y += sy;
            }
        }
    }

    /// `text` in the system font with its top-left at (x, y), on a dark box.
    pub fn text(&mut self, x: i32, y: i32, text: &str, colour: Rgba) {
        let width = text.len() as i32 * 8;
        self.fill(x - 1, y - 1, width + 2, 10, [0, 0, 0, 160]);
        for (i, ch) in text.bytes().enumerate() {
            for (row, bits) in glyph(ch).iter().enumerate() {
                for column in 0..8 {
                    if bits & (0x80 >> column) != 0 {
                        self.pixel(x + i as i32 * 8 + column, y + row as i32, colour);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank() -> Vec<u8> {
        vec![0; SCREEN_W * SCREEN_H * 4]
    }

    fn at(rgba: &[u8], x: usize, y: usize) -> [u8; 3] {
        let i = (y * SCREEN_W + x) * 4;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    }

    #[test]
    fn outlines_lines_and_fills_clip_and_blend() {
        let mut rgba = blank();
        let mut canvas = Canvas::new(&mut rgba);
        canvas.outline(-4, 10, 10, 5, [255, 0, 0, 255]);
        canvas.line(250, 0, 300, 50, [0, 255, 0, 255]);
        canvas.line(i32::MIN, 0, i32::MAX, 0, [0, 0, 255, 255]);
        canvas.fill(100, 100, 2, 2, [200, 100, 50, 128]);
        assert_eq!(at(&rgba, 5, 10), [255, 0, 0]);
        assert_eq!(at(&rgba, 5, 14), [255, 0, 0]);
        assert_eq!(at(&rgba, 5, 12), [255, 0, 0], "right edge");
        assert_eq!(at(&rgba, 3, 12), [0, 0, 0], "inside stays");
        assert_eq!(at(&rgba, 255, 5), [0, 255, 0]);
        assert_eq!(at(&rgba, 128, 0), [0, 0, 255]);
        assert_eq!(at(&rgba, 101, 101), [100, 50, 25]);
    }
}
