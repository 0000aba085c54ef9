//! The fonts `print` draws with: the system font (8x8 cells), the small font (3x5 glyphs in
//! 4x6 cells) and fonts a cart brings as images (`[[font]]` in `cart.toml`, loaded by
//! `cart::fonts`). A font is a fixed-width grid of glyph cells for a run of character codes;
//! codes it lacks draw its `?`, or nothing when it has none.

use std::sync::OnceLock;

use crate::spec::{FONT_FIRST_CHAR, FONT_SIZE, cost};
use crate::video::font;
use crate::video::framebuffer::Pixels;

/// The largest glyph cell side, in pixels.
pub(crate) const MAX_GLYPH_SIDE: usize = 16;
/// Names of the built-in fonts, by font number.
pub(crate) const BUILT_IN: [&str; 2] = ["system", "small"];

/// A fixed-width bitmap font.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Font {
    pub name: String,
    /// Horizontal advance per character, in pixels (1-16).
    pub width: usize,
    /// Line height, in pixels (1-16).
    pub height: usize,
    /// Code of the first glyph.
    first: u8,
    /// `height` rows per glyph, bit 15 = the leftmost pixel.
    rows: Vec<u16>,
}

impl Font {
    /// A font of `rows.len() / height` glyphs from code `first`; `None` if a side is outside
    /// 1-16, a glyph is cut short or the glyphs run past code 255.
    pub fn new(name: &str, width: usize, height: usize, first: u8, rows: Vec<u16>) -> Option<Font> {
        let sides = 1..=MAX_GLYPH_SIDE;
        let glyphs = rows.len() / height.max(1);
        let fits = sides.contains(&width)
            && sides.contains(&height)
            && rows.len().is_multiple_of(height)
            && usize::from(first) + glyphs <= 256;
        fits.then(|| Font {
            name: name.to_string(),
            width,
            height,
            first,
            rows,
        })
    }

    /// Glyphs in the font.
    pub(crate) fn glyph_count(&self) -> usize {
        self.rows.len() / self.height
    }

    /// The rows of the glyph drawn for `code`: its own, else `?`'s, else none.
    pub fn glyph(&self, code: u8) -> Option<&[u16]> {
        let own = |code: u8| {
            let index = usize::from(code.checked_sub(self.first)?);
            (index < self.glyph_count()).then(|| &self.rows[index * self.height..][..self.height])
        };
        own(code).or_else(|| own(b'?'))
    }

    /// Cycles one glyph costs: [`cost::GLYPH`] per 8x8 block of its cell.
    pub(crate) fn glyph_cost(&self) -> u64 {
        cost::GLYPH * self.width.div_ceil(8) as u64 * self.height.div_ceil(8) as u64
    }

    /// The width in pixels of the widest line of `text`.
    pub fn text_width(&self, text: &[u8]) -> u64 {
        let widest = text.split(|&b| b == b'\n').map(<[u8]>::len).max();
        widest.unwrap_or(0) as u64 * self.width as u64
    }

    /// Draws `text` at (x, y) in `color`, only inside `clip` (x0, y0, x1, y1; ends
    /// excluded); `\n` starts a new line one line height lower.
    pub(crate) fn draw(
        &self,
        fb: &mut impl Pixels,
        text: &[u8],
        (x, y): (i32, i32),
        color: u8,
        clip: [i32; 4],
    ) {
        let [cx0, cy0, cx1, cy1] = clip;
        let (w, h) = (self.width as i32, self.height as i32);
        let (mut gx, mut gy) = (x, y);
        for &byte in text {
            if byte == b'\n' {
                gx = x;
                gy = gy.saturating_add(h);
                continue;
            }
            if gy >= cy1 {
                break;
            }
            let visible = gx < cx1 && gx + w > cx0 && gy + h > cy0;
            if let Some(rows) = self.glyph(byte).filter(|_| visible) {
                for (row, bits) in rows.iter().enumerate() {
                    let py = gy + row as i32;
                    if !(cy0..cy1).contains(&py) || *bits == 0 {
                        continue;
                    }
                    for column in 0..w {
                        let px = gx + column;
                        if bits & (0x8000 >> column) != 0 && (cx0..cx1).contains(&px) {
                            fb.set(px as usize, py as usize, color);
                        }
                    }
                }
            }
            gx = gx.saturating_add(w);
        }
    }
}

/// The system font (font 0, `"system"`): 8x8 cells.
pub fn system() -> &'static Font {
    static FONT: OnceLock<Font> = OnceLock::new();
    FONT.get_or_init(|| {
        let rows = (FONT_FIRST_CHAR..=crate::spec::FONT_LAST_CHAR)
            .flat_map(|code| font::glyph(code).map(|row| u16::from(row) << 8))
            .collect();
        Font::new(BUILT_IN[0], FONT_SIZE, FONT_SIZE, FONT_FIRST_CHAR, rows).expect("system font")
    })
}

/// The small font (font 1, `"small"`): 3x5 glyphs in 4x6 cells.
pub fn small() -> &'static Font {
    static FONT: OnceLock<Font> = OnceLock::new();
    FONT.get_or_init(|| {
        let rows = font::parse(include_str!("font_small.txt"), 3, 5)
            .unwrap_or_else(|e| panic!("small font ROM: {e}"));
        let cells = rows
            .chunks_exact(5)
            .flat_map(|glyph| glyph.iter().copied().chain([0]))
            .collect();
        Font::new(BUILT_IN[1], 4, 6, FONT_FIRST_CHAR, cells).expect("small font")
    })
}

/// Font number `index`: 0 system, 1 small, then the cart's fonts in `cart.toml` order; an
/// unknown number is the system font.
pub(crate) fn by_number(cart_fonts: &[Font], index: u8) -> &Font {
    match index {
        0 => system(),
        1 => small(),
        n => cart_fonts.get(usize::from(n) - 2).unwrap_or(system()),
    }
}

/// The number of the font called `name`, built-in or the cart's.
pub(crate) fn number_of(cart_fonts: &[Font], name: &str) -> Option<u8> {
    let built_in = BUILT_IN.iter().position(|n| *n == name);
    let cart = || {
        cart_fonts
            .iter()
            .position(|f| f.name == name)
            .map(|i| i + 2)
    };
    built_in.or_else(cart).and_then(|n| u8::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_fonts_have_every_printable_character() {
        for font in [system(), small()] {
            assert_eq!(font.glyph_count(), 95);
            assert!(font.glyph(b'A').unwrap().iter().any(|r| *r != 0));
            assert_eq!(font.glyph(0x80), font.glyph(b'?'));
            assert_eq!(font.glyph_cost(), cost::GLYPH);
        }
        // Small glyphs keep a blank column and row, so neighbours never touch.
        for code in 32..=126 {
            let rows = small().glyph(code).unwrap();
            assert_eq!(rows[5], 0);
            assert!(rows.iter().all(|r| r & 0x1FFF == 0), "char {code}");
        }
    }

    #[test]
    fn widths_and_names() {
        assert_eq!(small().text_width(b"abc\nde"), 12);
        assert_eq!(system().text_width(b""), 0);
        let big = Font::new("big", 16, 16, 65, vec![0xFFFF; 16]).unwrap();
        assert_eq!(big.glyph_cost(), 4 * cost::GLYPH);
        assert_eq!(big.glyph(b'B'), None);
        let fonts = [big];
        assert_eq!(number_of(&fonts, "small"), Some(1));
        assert_eq!(number_of(&fonts, "big"), Some(2));
        assert_eq!(by_number(&fonts, 2).name, "big");
        assert_eq!(by_number(&fonts, 9).name, "system");
        assert!(Font::new("x", 17, 8, 32, vec![0; 8]).is_none());
        assert!(Font::new("x", 8, 8, 250, vec![0; 80]).is_none());
    }
}
