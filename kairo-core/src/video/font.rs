//! The system font in system ROM: 8x8 glyphs for ASCII 32-126, used by `print`, the console's
//! menus and the profiler overlay. The glyphs live in `font.txt` (original to Kairo); the
//! small font's (`font_small.txt`) are read by the same parser, see [`crate::video::fonts`].

use std::sync::OnceLock;

use crate::spec::{FONT_FIRST_CHAR, FONT_LAST_CHAR, FONT_SIZE};

/// One glyph: a bit mask per row, bit 7 = leftmost pixel.
pub(crate) type Glyph = [u8; FONT_SIZE];

/// Glyphs in a ROM font: ASCII 32-126.
pub(crate) const GLYPH_COUNT: usize = (FONT_LAST_CHAR - FONT_FIRST_CHAR + 1) as usize;
const SOURCE: &str = include_str!("font.txt");

/// The glyph drawn for byte `ch`; characters outside the font draw as `?`.
pub fn glyph(ch: u8) -> &'static Glyph {
    let glyphs = glyphs();
    let index = if (FONT_FIRST_CHAR..=FONT_LAST_CHAR).contains(&ch) {
        ch - FONT_FIRST_CHAR
    } else {
        b'?' - FONT_FIRST_CHAR
    };
    &glyphs[index as usize]
}

fn glyphs() -> &'static [Glyph; GLYPH_COUNT] {
    static GLYPHS: OnceLock<[Glyph; GLYPH_COUNT]> = OnceLock::new();
    GLYPHS.get_or_init(|| {
        let rows =
            parse(SOURCE, FONT_SIZE, FONT_SIZE).unwrap_or_else(|e| panic!("system font ROM: {e}"));
        let mut glyphs = [[0u8; FONT_SIZE]; GLYPH_COUNT];
        for (glyph, rows) in glyphs.iter_mut().zip(rows.chunks_exact(FONT_SIZE)) {
            for (out, row) in glyph.iter_mut().zip(rows) {
                *out = (row >> 8) as u8;
            }
        }
        glyphs
    })
}

/// Parses a ROM font source: `= CODE` headers (32-126) each followed by `height` lines of
/// `width` `#`/`.` characters. Returns `height` rows per glyph, ASCII order, bit 15 = the
/// leftmost pixel.
pub fn parse(source: &str, width: usize, height: usize) -> Result<Vec<u16>, String> {
    let mut rows = vec![0u16; GLYPH_COUNT * height];
    let mut seen = [false; GLYPH_COUNT];
    let mut lines = source
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with(';'));
    while let Some((n, header)) = lines.next() {
        let code: u8 = header
            .strip_prefix("= ")
            .and_then(|c| c.trim().parse().ok())
            .ok_or(format!("line {}: expected `= CODE`", n + 1))?;
        if !(FONT_FIRST_CHAR..=FONT_LAST_CHAR).contains(&code) {
            return Err(format!("line {}: code {code} outside the font", n + 1));
        }
        let index = usize::from(code - FONT_FIRST_CHAR);
        for row in rows[index * height..][..height].iter_mut() {
            let (n, line) = lines.next().ok_or("file ends inside a glyph")?;
            if line.len() != width {
                return Err(format!(
                    "line {}: a glyph row has {width} characters",
                    n + 1
                ));
            }
            for (x, c) in line.bytes().enumerate() {
                match c {
                    b'#' => *row |= 0x8000 >> x,
                    b'.' => {}
                    _ => return Err(format!("line {}: only `#` and `.` in glyphs", n + 1)),
                }
            }
        }
        seen[index] = true;
    }
    match seen.iter().position(|s| !s) {
        Some(missing) => Err(format!("no glyph for code {}", missing + 32)),
        None => Ok(rows),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rom_font_parses_with_every_glyph() {
        assert!(parse(SOURCE, 8, 8).is_ok());
        assert_eq!(glyph(b' '), &[0; 8]);
        assert_ne!(glyph(b'A'), &[0; 8]);
        assert_eq!(glyph(0x80), glyph(b'?'));
        // Glyphs stay inside a 7x8 cell so that neighbours never touch.
        for ch in FONT_FIRST_CHAR..=FONT_LAST_CHAR {
            assert!(glyph(ch).iter().all(|row| row & 1 == 0), "char {ch}");
        }
    }

    #[test]
    fn malformed_font_sources_are_rejected() {
        assert!(parse("= 65\n########\n", 8, 8).is_err());
        assert!(parse("= 200\n", 8, 8).is_err());
        assert!(parse("", 8, 8).is_err());
        assert!(parse("= 65\n####\n", 3, 1).is_err());
    }
}
