//! The canvas: the drawing plane of a cart that chose `plane = "canvas"` in `cart.toml`. A
//! 256x256 picture of full palette indices that keeps what was drawn until `cls`, and where
//! every drawing — shapes, text, blits and `sprite` blocks — lands in the order it was called
//! (the drawing plane's commands of a frame are painted into it, in order, as the frame
//! ends). Each pixel is drawn or not: where nothing was drawn since the last `cls()`, what
//! lies behind the canvas (layers, sprites, the backdrop) shows. The canvas is composited as
//! one picture at the drawing priority (`draw_prio`) in force when the frame ends.

use crate::spec::{SCREEN_PIXELS, SCREEN_W};
use crate::video::framebuffer::{Framebuffer, Pixels};

/// Words of the drawn-pixel bit map (one bit per pixel).
const DRAWN_WORDS: usize = SCREEN_PIXELS / 64;
/// Words of one row of the bit map.
const ROW_WORDS: usize = SCREEN_W / 64;

/// The canvas's pixels and which of them are drawn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Canvas {
    #[serde(with = "crate::serde_array::boxed")]
    pixels: Box<[u8; SCREEN_PIXELS]>,
    /// Bit `x % 64` of word `y * 4 + x / 64`: pixel (x, y) was drawn since the last `cls()`.
    #[serde(with = "crate::serde_array::boxed")]
    drawn: Box<[u64; DRAWN_WORDS]>,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            pixels: Box::new([0; SCREEN_PIXELS]),
            drawn: Box::new([0; DRAWN_WORDS]),
        }
    }
}

impl Canvas {
    /// The colour at (x, y), or `None` where nothing is drawn (or off the screen).
    pub fn get(&self, x: i64, y: i64) -> Option<u8> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        if x >= SCREEN_W || y >= SCREEN_PIXELS / SCREEN_W {
            return None;
        }
        let at = y * SCREEN_W + x;
        (self.drawn[at / 64] & (1 << (at % 64)) != 0).then_some(self.pixels[at])
    }

    /// `cls`: with a colour, every pixel drawn in it; without, nothing drawn.
    pub fn clear(&mut self, color: Option<u8>) {
        match color {
            Some(color) => {
                self.pixels.fill(color);
                self.drawn.fill(u64::MAX);
            }
            None => self.drawn.fill(0),
        }
    }

    /// Paints the drawn pixels over `fb`.
    pub(crate) fn compose(&self, fb: &mut Framebuffer) {
        for (y, words) in self.drawn.chunks_exact(ROW_WORDS).enumerate() {
            let pixels = &self.pixels[y * SCREEN_W..(y + 1) * SCREEN_W];
            if words.iter().all(|&w| w == u64::MAX) {
                fb.row_mut(y).copy_from_slice(pixels);
                continue;
            }
            for (part, &word) in words.iter().enumerate() {
                if word == 0 {
                    continue;
                }
                let row = &mut fb.row_mut(y)[part * 64..(part + 1) * 64];
                let source = &pixels[part * 64..(part + 1) * 64];
                for (bit, (out, &color)) in row.iter_mut().zip(source).enumerate() {
                    if word & (1 << bit) != 0 {
                        *out = color;
                    }
                }
            }
        }
    }
}

impl Pixels for Canvas {
    #[inline]
    fn set(&mut self, x: usize, y: usize, index: u8) {
        let at = y * SCREEN_W + x;
        self.pixels[at] = index;
        self.drawn[at / 64] |= 1 << (at % 64);
    }

    fn fill_span(&mut self, y: usize, x0: usize, x1: usize, index: u8) {
        let row = y * SCREEN_W;
        self.pixels[row + x0..=row + x1].fill(index);
        for x in x0..=x1 {
            let at = row + x;
            self.drawn[at / 64] |= 1 << (at % 64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_drawn_pixels_cover_what_is_behind() {
        let mut canvas = Canvas::default();
        canvas.set(3, 0, 7);
        canvas.fill_span(1, 60, 70, 9);
        let mut fb = Framebuffer::default();
        fb.fill(0x21);
        canvas.compose(&mut fb);
        assert_eq!(fb.get(3, 0), 7);
        assert_eq!(fb.get(4, 0), 0x21, "not drawn: the picture behind shows");
        assert_eq!((fb.get(59, 1), fb.get(60, 1), fb.get(70, 1)), (0x21, 9, 9));
        assert_eq!(fb.get(71, 1), 0x21);
        assert_eq!(canvas.get(3, 0), Some(7));
        assert_eq!(canvas.get(4, 0), None);
        assert_eq!(canvas.get(-1, 0), None);
        assert_eq!(canvas.get(0, 256), None);
    }

    #[test]
    fn cls_with_a_colour_covers_everything_and_without_uncovers() {
        let mut canvas = Canvas::default();
        canvas.clear(Some(5));
        let mut fb = Framebuffer::default();
        fb.fill(1);
        canvas.compose(&mut fb);
        assert!((0..256).all(|y| fb.row(y).iter().all(|&p| p == 5)));
        canvas.clear(None);
        fb.fill(1);
        canvas.compose(&mut fb);
        assert!((0..256).all(|y| fb.row(y).iter().all(|&p| p == 1)));
    }
}
