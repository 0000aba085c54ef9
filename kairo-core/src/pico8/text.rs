//! PICO-8's `print`: its font (3 x 5 glyphs in 4 x 6 cells for codes 16-127, 7 x 5 in 8 x 6
//! for 128-255, in `font.txt`: zep's PICO-8 font, released CC0 by its author, laid out as
//! PICO-8 keeps it — code `c` in cell `c`, a wide code in cell `2c - 128`, 32 cells of 4 x 6
//! a row), the cursor that moves down a line after each print, the scroll that keeps it on
//! the screen, and the control codes carts use most: `\n`, `\r`, `\f` (pen colour) and `\#`
//! (background colour), each colour one hex digit.

use std::sync::OnceLock;

use super::{CURSOR, Pico8, SIDE};

/// The font bitmap: 128 x 72 pixels, `#` ink.
const FONT: &str = include_str!("font.txt");
/// Lowest line the cursor may stand on before printing scrolls the screen.
const LAST_LINE: i32 = 122;

fn font() -> &'static [[bool; 128]; 72] {
    static BITS: OnceLock<Box<[[bool; 128]; 72]>> = OnceLock::new();
    BITS.get_or_init(|| {
        let mut bits = Box::new([[false; 128]; 72]);
        for (row, line) in bits.iter_mut().zip(FONT.lines()) {
            for (bit, c) in row.iter_mut().zip(line.bytes()) {
                *bit = c == b'#';
            }
        }
        bits
    })
}

/// The value of a parameter character: `0`-`9`, then `a`... for 10...
fn parameter(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'z' => c - b'a' + 10,
        _ => 0,
    }
}

impl Pico8 {
    /// The cursor.
    pub fn cursor(&self) -> (i32, i32) {
        (i32::from(self.ram[CURSOR]), i32::from(self.ram[CURSOR + 1]))
    }

    /// Sets the cursor (`cursor(x, y)`); returns the old one.
    pub fn set_cursor(&mut self, x: i32, y: i32) -> (i32, i32) {
        let old = self.cursor();
        self.ram[CURSOR] = x as u8;
        self.ram[CURSOR + 1] = y as u8;
        old
    }

    /// Scrolls the screen up by `lines` pixels, the bottom cleared to colour 0.
    fn scroll(&mut self, lines: usize) {
        let lines = lines.min(SIDE);
        let screen = super::SCREEN;
        self.ram
            .copy_within(screen + lines * 64..screen + 0x2000, screen);
        self.ram[screen + 0x2000 - lines * 64..screen + 0x2000].fill(0);
    }

    /// `print(text, x, y, color)`: P8SCII `text` at (x, y) through the camera, or at the
    /// cursor (which then goes a line down, scrolling the screen at the bottom). Returns
    /// the right-most x reached and the pixels examined.
    pub fn print(&mut self, text: &[u8], at: Option<(i32, i32)>, color: u8) -> (i32, u64) {
        let at_cursor = at.is_none();
        // Text is drawn without the fill pattern (PICO-8's own screenshots show it solid
        // while a pattern is set): the pattern is put aside until the text is drawn.
        let pattern = super::FILL_PATTERN..super::FILL_PATTERN + 3;
        let mut kept = [0; 3];
        kept.copy_from_slice(&self.ram[pattern.clone()]);
        self.ram[pattern.clone()].fill(0);
        let (x0, mut y) = at.unwrap_or_else(|| self.cursor());
        if at_cursor && y > LAST_LINE {
            self.scroll((y - LAST_LINE) as usize);
            y = LAST_LINE;
        }
        let mut pen = color;
        let mut background: Option<u8> = None;
        let mut x = x0;
        let mut right = x0;
        let mut examined = 0;
        let mut i = 0;
        while i < text.len() {
            let c = text[i];
            i += 1;
            match c {
                0 => break,
                b'\n' => {
                    x = x0;
                    y += 6;
                }
                b'\r' => x = x0,
                // `\f` and `\#`: a colour, one parameter character.
                12 | 2 => {
                    let value = text.get(i).map_or(0, |&p| parameter(p)) & 15;
                    i += 1;
                    if c == 12 {
                        pen = value;
                    } else {
                        background = Some(value);
                    }
                }
                1..=15 => {}
                _ => {
                    if at_cursor && y > LAST_LINE {
                        self.scroll((y - LAST_LINE) as usize);
                        y = LAST_LINE;
                    }
                    let wide = c >= 128;
                    let width = if wide { 8 } else { 4 };
                    let cell = if wide {
                        2 * usize::from(c) - 128
                    } else {
                        usize::from(c)
                    };
                    let (fx, fy) = ((cell % 32) * 4, (cell / 32) * 6);
                    let bits = font();
                    for row in 0..6 {
                        for column in 0..width {
                            let ink = bits
                                .get(fy + row)
                                .is_some_and(|r| r.get(fx + column).copied().unwrap_or(false));
                            let (px, py) = (x + column as i32, y + row as i32);
                            if ink {
                                self.pset(px, py, pen);
                            } else if let Some(b) = background {
                                self.pset(px, py, b);
                            }
                            examined += 1;
                        }
                    }
                    x += width as i32;
                    right = right.max(x);
                }
            }
        }
        if at_cursor {
            // The cursor is kept on the screen: a line printed below 116 moves everything up
            // a line (PICO-8's screenshot of a print at y 131: drawn at 116, cursor at 122).
            if y > LAST_LINE - 6 {
                self.scroll(6);
                y -= 6;
            }
            self.set_cursor(x0, y + 6);
        } else if let Some((ax, ay)) = at {
            // PICO-8 leaves the cursor under the text printed at a place too.
            self.set_cursor(ax, ay + 6);
        }
        self.ram[super::PEN] = color;
        self.ram[pattern].copy_from_slice(&kept);
        (right, examined)
    }

    /// `fillp(pattern)`: the 16 pattern bits, and its fraction's `.5` bit for transparent.
    pub fn fillp(&mut self, pattern: f64) {
        let fixed = (pattern * 65536.0).floor() as i64;
        let bits = ((fixed >> 16) & 0xFFFF) as u16;
        self.ram[super::FILL_PATTERN..super::FILL_PATTERN + 2].copy_from_slice(&bits.to_le_bytes());
        self.ram[super::FILL_PATTERN + 2] = u8::from(fixed & 0x8000 != 0);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ROM_BYTES, Rom};
    use super::*;

    fn pico8() -> Pico8 {
        Pico8::new(&Rom {
            bytes: Box::new([0; ROM_BYTES]),
        })
    }

    fn row(p: &Pico8, y: usize, x0: usize, n: usize) -> String {
        (x0..x0 + n)
            .map(|x| if p.screen_pixel(x, y) == 0 { '.' } else { '#' })
            .collect()
    }

    #[test]
    fn glyphs_come_from_the_font_at_4_px_each() {
        let mut p = pico8();
        // Lower-case letters show PICO-8's capitals: `a` is the A shape.
        let (right, _) = p.print(b"ab", Some((0, 0)), 7);
        assert_eq!(right, 8);
        assert_eq!(row(&p, 0, 0, 8), "###.###.");
        assert_eq!(row(&p, 1, 0, 8), "#.#.#.#.");
        assert_eq!(row(&p, 2, 0, 8), "###.##..");
        assert_eq!(row(&p, 4, 0, 8), "#.#.###.");
        assert_eq!(p.cursor(), (0, 6), "the cursor goes under the text");
    }

    #[test]
    fn printing_at_the_cursor_scrolls_at_the_bottom() {
        let mut p = pico8();
        p.set_cursor(0, 131);
        p.print(b"a", None, 7);
        // Below the last line: up 9 to draw at 122, then up 6 to keep the cursor on 122.
        assert_eq!(p.cursor(), (0, 122));
        assert_eq!(row(&p, 116, 0, 3), "###", "the A at line 116");
        assert_eq!(row(&p, 122, 0, 3), "...", "the bottom cleared");
        p.print(b"a", None, 7);
        assert_eq!(p.cursor(), (0, 122));
        assert_eq!(row(&p, 110, 0, 3), "###", "the first, moved up a line");
        assert_eq!(row(&p, 116, 0, 3), "###", "the second");
    }

    #[test]
    fn text_ignores_the_fill_pattern_which_stays_set() {
        let mut p = pico8();
        // Every bit set, with the transparency bit: shapes draw nothing.
        p.fillp(65535.5);
        p.print(b"a", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 0, 4), "###.", "the A drawn solid");
        p.pset(10, 10, 7);
        assert_eq!(
            p.screen_pixel(10, 10),
            0,
            "the pattern still holds after print"
        );
    }

    #[test]
    fn colour_codes_change_the_pen_and_the_background() {
        let mut p = pico8();
        p.print(b"\x0c8a\x021b", Some((0, 0)), 7);
        assert_eq!(p.screen_pixel(0, 0), 8, "\\f8");
        assert_eq!(p.screen_pixel(7, 0), 1, "\\#1: the B cell's blank column");
    }
}
