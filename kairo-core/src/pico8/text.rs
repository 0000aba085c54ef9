//! PICO-8's `print`: its font (3 x 5 glyphs in 4 x 6 cells for codes 16-127, 7 x 5 in 8 x 6
//! for 128-255, in `font.txt`: zep's PICO-8 font, released CC0 by its author, laid out as
//! PICO-8 keeps it — code `c` in cell `c`, a wide code in cell `2c - 128`, 32 cells of 4 x 6
//! a row), the cursor that moves down a line after each print, the scroll that keeps it on
//! the screen, and the P8SCII control codes of PICO-8's manual (appendix A): colours,
//! repeats, cursor moves, tabs, decorations, the `\^` commands and rendering modes (wide,
//! tall, stripey, inverted, solid), pokes, one-off characters and the custom font at 0x5600.

use std::sync::OnceLock;

use super::{CURSOR, Pico8, SIDE};

/// `print`'s default attributes (0x5f58-0x5f5b) and the custom font (0x5600).
const ATTRIBUTES: usize = 0x5F58;
const CUSTOM_FONT: usize = 0x5600;

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

const NOTE_PAUSE: u16 = 1;
const NOTE_AUDIO: u16 = 2;
const NOTE_BORDER: u16 = 4;

/// A character's pixels: one of the font's, or 8 rows of 8 bits (bit 0 left) from a custom
/// font or a one-off `\^:` glyph.
enum Glyph {
    Font(u8),
    Rows([u8; 8]),
}

/// `print`'s state while it runs: where it writes, the colours and the rendering modes.
struct Printer {
    x0: i32,
    x: i32,
    y: i32,
    home: (i32, i32),
    /// Where the last character was drawn (for `\v`).
    last: (i32, i32),
    pen: u8,
    background: u8,
    solid: bool,
    wide: bool,
    tall: bool,
    stripey: bool,
    invert: bool,
    custom_font: bool,
    /// Character advance and line height; 0 for the font's own.
    char_w: i32,
    char_h: i32,
    tab: i32,
    wrap: Option<i32>,
    right: i32,
    examined: u64,
    /// Printing at the cursor: a character below the last line scrolls the screen first.
    scrolls: bool,
}

impl Printer {
    /// A printer at (x, y) in `pen`, with the default attributes at 0x5f58-0x5f5b.
    fn new(p8: &Pico8, x: i32, y: i32, pen: u8) -> Printer {
        let flags = p8.ram[ATTRIBUTES];
        let on = |bit: u8| flags & 1 != 0 && flags & bit != 0;
        let sizes = p8.ram[ATTRIBUTES + 1];
        let tab = i32::from(p8.ram[ATTRIBUTES + 2] >> 4);
        Printer {
            x0: x,
            x,
            y,
            home: (x, y),
            last: (x, y),
            pen,
            background: 0,
            solid: on(0x10),
            wide: on(0x4),
            tall: on(0x8),
            stripey: on(0x40),
            invert: on(0x20),
            custom_font: on(0x80),
            char_w: i32::from(sizes & 15),
            char_h: i32::from(sizes >> 4),
            tab: if tab == 0 { 16 } else { tab * 4 },
            wrap: None,
            right: x,
            examined: 0,
            scrolls: false,
        }
    }

    /// Turns a rendering mode of `\^` on or off.
    fn mode(&mut self, p8: &mut Pico8, mode: u8, on: bool) {
        match mode {
            b'w' => self.wide = on,
            b't' => self.tall = on,
            b'=' => self.stripey = on,
            b'p' => (self.wide, self.tall, self.stripey) = (on, on, on),
            b'i' => self.invert = on,
            b'#' => self.solid = on,
            b'b' => p8.print_note(NOTE_BORDER),
            _ => {}
        }
    }

    fn scale(&self) -> (i32, i32) {
        (1 + i32::from(self.wide), 1 + i32::from(self.tall))
    }

    /// How far the cursor moves after character `c`.
    fn advance(&self, c: u8) -> i32 {
        let width = if self.char_w > 0 {
            self.char_w
        } else if c >= 128 {
            8
        } else {
            4
        };
        width * self.scale().0
    }

    fn line_height(&self) -> i32 {
        (if self.char_h > 0 { self.char_h } else { 6 }) * self.scale().1
    }

    fn newline(&mut self) {
        self.x = self.x0;
        self.y += self.line_height();
    }

    /// Draws character `c` (16-255) at the cursor and moves on.
    fn character(&mut self, p8: &mut Pico8, c: u8) {
        if c < 16 {
            return;
        }
        if let Some(wrap) = self.wrap
            && self.x + self.advance(c) > wrap
        {
            self.newline();
        }
        if self.scrolls && self.y > LAST_LINE {
            p8.scroll((self.y - LAST_LINE) as usize);
            self.y = LAST_LINE;
        }
        let glyph = if self.custom_font {
            let at = CUSTOM_FONT + usize::from(c) * 8;
            Glyph::Rows(std::array::from_fn(|r| p8.ram[at + r]))
        } else {
            Glyph::Font(c)
        };
        self.glyph(p8, glyph);
        let advance = if self.custom_font {
            let width = p8.ram[CUSTOM_FONT + usize::from(c >= 128)];
            i32::from(width) * self.scale().0
        } else {
            self.advance(c)
        };
        self.x += advance;
        self.right = self.right.max(self.x);
    }

    /// Draws `glyph` at the cursor (the cursor stays).
    fn glyph(&mut self, p8: &mut Pico8, glyph: Glyph) {
        let (width, height) = match glyph {
            Glyph::Font(c) if c >= 128 => (8, 6),
            Glyph::Font(_) => (4, 6),
            Glyph::Rows(_) => (8, 8),
        };
        let ink = |row: usize, column: usize| match glyph {
            Glyph::Font(c) => {
                let cell = if c >= 128 {
                    2 * usize::from(c) - 128
                } else {
                    usize::from(c)
                };
                let (fx, fy) = ((cell % 32) * 4, (cell / 32) * 6);
                font()
                    .get(fy + row)
                    .is_some_and(|r| r.get(fx + column).copied().unwrap_or(false))
            }
            Glyph::Rows(rows) => rows[row] >> column & 1 != 0,
        };
        let (sx, sy) = self.scale();
        for row in 0..height {
            for column in 0..width {
                let lit = ink(row, column) != self.invert;
                let colour = if lit {
                    Some(self.pen)
                } else if self.solid || self.invert {
                    Some(self.background)
                } else {
                    None
                };
                self.examined += 1;
                let Some(colour) = colour else { continue };
                for dy in 0..sy {
                    for dx in 0..sx {
                        if self.stripey && (dx % 2 == 1 || dy % 2 == 1) {
                            continue;
                        }
                        let px = self.x + column as i32 * sx + dx;
                        let py = self.y + row as i32 * sy + dy;
                        p8.pset(px, py, colour);
                    }
                }
            }
        }
        self.last = (self.x, self.y);
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
    /// cursor (which then goes a line down, scrolling the screen at the bottom), with the
    /// control codes of PICO-8's manual (appendix A). Returns the right-most x reached and
    /// the pixels examined. What it cannot do (frame skips and delays, `\a` audio, `\^b`)
    /// is left out and named in [`Pico8::take_print_notes`].
    pub fn print(&mut self, text: &[u8], at: Option<(i32, i32)>, color: u8) -> (i32, u64) {
        let at_cursor = at.is_none();
        // Text is drawn without the fill pattern (PICO-8's own screenshots show it solid
        // while a pattern is set): the pattern is put aside until the text is drawn.
        let pattern = super::FILL_PATTERN..super::FILL_PATTERN + 3;
        let mut kept = [0; 3];
        kept.copy_from_slice(&self.ram[pattern.clone()]);
        self.ram[pattern.clone()].fill(0);
        let (x0, mut y0) = at.unwrap_or_else(|| self.cursor());
        if at_cursor && y0 > LAST_LINE {
            self.scroll((y0 - LAST_LINE) as usize);
            y0 = LAST_LINE;
        }
        let mut p = Printer::new(self, x0, y0, color);
        p.scrolls = at_cursor;
        let mut i = 0;
        let param = |i: &mut usize| {
            let v = text.get(*i).map_or(0, |&c| parameter(c));
            *i += 1;
            v
        };
        let hex4 = |i: &mut usize| {
            let v = text
                .get(*i..*i + 4)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u16::from_str_radix(h, 16).ok())
                .unwrap_or(0);
            *i += 4;
            usize::from(v)
        };
        while i < text.len() {
            let c = text[i];
            i += 1;
            match c {
                0 => break,
                // \* repeat the next character P0 times.
                1 => {
                    let times = param(&mut i);
                    if let Some(&next) = text.get(i) {
                        i += 1;
                        for _ in 0..times {
                            p.character(self, next);
                        }
                    }
                }
                2 => {
                    p.background = param(&mut i) & 15;
                    p.solid = true;
                }
                3 => p.x += i32::from(param(&mut i)) - 16,
                4 => p.y += i32::from(param(&mut i)) - 16,
                5 => {
                    p.x += i32::from(param(&mut i)) - 16;
                    p.y += i32::from(param(&mut i)) - 16;
                }
                6 => {
                    let command = text.get(i).copied().unwrap_or(0);
                    i += 1;
                    match command {
                        b'1'..=b'9' => self.print_note(NOTE_PAUSE),
                        b'c' => {
                            self.cls(param(&mut i) & 15);
                            (p.x, p.y, p.home) = (0, 0, (0, 0));
                        }
                        b'd' => {
                            param(&mut i);
                            self.print_note(NOTE_PAUSE);
                        }
                        b'g' => (p.x, p.y) = p.home,
                        b'h' => p.home = (p.x, p.y),
                        b'j' => {
                            p.x = i32::from(param(&mut i)) * 4;
                            p.y = i32::from(param(&mut i)) * 4;
                        }
                        b'r' => p.wrap = Some(i32::from(param(&mut i)) * 4),
                        b's' => p.tab = i32::from(param(&mut i)).max(1),
                        b'x' => p.char_w = i32::from(param(&mut i)),
                        b'y' => p.char_h = i32::from(param(&mut i)),
                        b'-' => {
                            let mode = text.get(i).copied().unwrap_or(0);
                            i += 1;
                            p.mode(self, mode, false);
                        }
                        b'@' => {
                            let (address, length) = (hex4(&mut i), hex4(&mut i));
                            for (k, &b) in text.iter().skip(i).take(length).enumerate() {
                                self.poke(address + k, b);
                            }
                            i += length;
                        }
                        b'!' => {
                            let address = hex4(&mut i);
                            for (k, &b) in text.iter().skip(i).enumerate() {
                                self.poke(address + k, b);
                            }
                            i = text.len();
                        }
                        b'.' | b':' => {
                            let mut rows = [0u8; 8];
                            for row in &mut rows {
                                *row = if command == b'.' {
                                    let b = text.get(i).copied().unwrap_or(0);
                                    i += 1;
                                    b
                                } else {
                                    let hex = text.get(i..i + 2).unwrap_or(b"00");
                                    i += 2;
                                    parameter(hex[0]) << 4 | parameter(hex[1])
                                };
                            }
                            p.glyph(self, Glyph::Rows(rows));
                        }
                        mode => p.mode(self, mode, true),
                    }
                }
                // \a: PICO-8 plays the notes that follow; Kairo skips them.
                7 => {
                    while i < text.len() && !matches!(text[i], b' ' | b'\n' | 0..=15) {
                        i += 1;
                    }
                    self.print_note(NOTE_AUDIO);
                }
                8 => p.x -= p.advance(b'a'),
                9 => p.x = p.x0 + ((p.x - p.x0) / p.tab + 1) * p.tab,
                b'\n' => p.newline(),
                // \v: another character over the last one, at an offset.
                11 => {
                    let offset = i32::from(param(&mut i));
                    if let Some(&decoration) = text.get(i) {
                        i += 1;
                        let (x, y) = (p.x, p.y);
                        let (lx, ly) = p.last;
                        (p.x, p.y) = (lx + offset % 4 - 2, ly + offset / 4 - 8);
                        p.character(self, decoration);
                        (p.x, p.y) = (x, y);
                    }
                }
                12 => p.pen = param(&mut i) & 15,
                b'\r' => p.x = p.x0,
                14 => p.custom_font = true,
                15 => p.custom_font = false,
                _ => p.character(self, c),
            }
        }
        let (right, examined, mut y, line) = (p.right, p.examined, p.y, p.line_height());
        if at_cursor {
            // The cursor is kept on the screen: a line printed below 116 moves everything up
            // a line (PICO-8's screenshot of a print at y 131: drawn at 116, cursor at 122).
            if y + line > LAST_LINE {
                self.scroll(line as usize);
                y -= line;
            }
            self.set_cursor(x0, y + line);
        } else if let Some((ax, _)) = at {
            // PICO-8 leaves the cursor under the text printed at a place too.
            self.set_cursor(ax, y + line);
        }
        self.ram[super::PEN] = color;
        self.ram[pattern].copy_from_slice(&kept);
        (right, examined)
    }

    /// Says that `print` met something it leaves out (each kind once a power-on).
    fn print_note(&mut self, note: u16) {
        if self.print_notes >> 8 & note == 0 {
            self.print_notes |= note;
        }
    }

    /// What `print` left out and has not told yet, one line each.
    pub fn take_print_notes(&mut self) -> Vec<&'static str> {
        let notes = self.print_notes & 0xFF;
        self.print_notes = (self.print_notes | notes << 8) & 0xFF00;
        [
            (
                NOTE_PAUSE,
                "print: \\^1-9 and \\^d (waiting frames while printing) are skipped",
            ),
            (NOTE_AUDIO, "print: \\a (audio) is not played"),
            (NOTE_BORDER, "print: \\^b (the padding toggle) is not drawn"),
        ]
        .into_iter()
        .filter(|(bit, _)| notes & bit != 0)
        .map(|(_, text)| text)
        .collect()
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
    fn repeat_and_cursor_shifts_move_as_the_manual_says() {
        let mut p = pico8();
        // \*3a is aaa; \- k (20) moves 4 right; \| and \+ move down and both ways.
        let (right, _) = p.print(b"\x013a", Some((0, 0)), 7);
        assert_eq!(right, 12);
        assert_eq!(row(&p, 0, 0, 12), "###.###.###.");
        let mut p = pico8();
        p.print(b"\x03ka\x04ka\x05gga", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 4, 3), "###", "\\-k: 4 px right");
        assert_eq!(
            row(&p, 4, 8, 3),
            "###",
            "\\|k: 4 px down, after the first A"
        );
        assert_eq!(row(&p, 4, 12, 3), "###", "\\+gg: 0, 0");
        // \t goes to the next 16 px stop, \b back one character.
        let mut p = pico8();
        p.print(b"a\tb\x08\x08c", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 16, 3), "###", "B at the tab stop");
        assert_eq!(row(&p, 2, 12, 4), "#...", "C two characters back");
    }

    #[test]
    fn wide_tall_stripey_and_invert_scale_and_flip_the_glyph() {
        let mut p = pico8();
        p.print(b"\x06wa", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 0, 8), "######..");
        assert_eq!(row(&p, 1, 0, 8), "##..##..");
        let mut p = pico8();
        p.print(b"\x06ta", Some((0, 0)), 7);
        assert_eq!(
            (row(&p, 2, 0, 4), row(&p, 3, 0, 4)),
            ("#.#.".into(), "#.#.".into())
        );
        let mut p = pico8();
        p.print(b"\x06pa", Some((0, 0)), 7);
        assert_eq!(
            row(&p, 0, 0, 8),
            "#.#.#...",
            "pinball: wide, tall, only even pixels"
        );
        assert_eq!(row(&p, 1, 0, 8), "........");
        let mut p = pico8();
        p.print(b"\x06ia\x06-ia", Some((0, 0)), 7);
        assert_eq!(row(&p, 1, 0, 8), ".#.##.#.", "inverted, then not");
        assert_eq!(p.cursor(), (0, 6));
    }

    #[test]
    fn special_commands_clear_jump_poke_and_draw_one_off_glyphs() {
        let mut p = pico8();
        p.print(b"\x06c1", Some((0, 0)), 7);
        assert_eq!((p.screen_pixel(0, 0), p.screen_pixel(127, 127)), (1, 1));
        let mut p = pico8();
        p.print(b"\x06j24a", Some((0, 0)), 7);
        assert_eq!(row(&p, 16, 8, 3), "###", "jump to (2*4, 4*4)");
        let mut p = pico8();
        p.print(b"\x06@60000002xy", Some((50, 50)), 7);
        assert_eq!(p.peek(0x6000), b'x');
        assert_eq!(p.peek(0x6001), b'y');
        // The manual's cat: rows of bits, bit 0 on the left.
        let mut p = pico8();
        p.print(b"\x06:447cb67c3e7f0106", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 0, 8), "..#...#.");
        assert_eq!(row(&p, 7, 0, 8), ".##.....");
        // A custom font at 0x5600, chosen with \014: width 5.
        let mut p = pico8();
        p.poke(0x5600, 5);
        p.poke(0x5600 + 8 * usize::from(b'a'), 0b1001);
        p.print(b"\x0eaa", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 0, 10), "#..#.#..#.");
    }

    #[test]
    fn defaults_in_memory_apply_and_what_is_left_out_is_told_once() {
        let mut p = pico8();
        p.poke(0x5F58, 0x1 | 0x4);
        p.print(b"a", Some((0, 0)), 7);
        assert_eq!(row(&p, 0, 0, 8), "######..", "wide everywhere");
        let mut p = pico8();
        let (right, _) = p.print(b"\x07c1e \x061a", Some((0, 0)), 7);
        assert_eq!(right, 8, "the notes are skipped, the space and A drawn");
        assert_eq!(p.take_print_notes().len(), 2);
        p.print(b"\x07c", Some((0, 0)), 7);
        assert!(p.take_print_notes().is_empty(), "told once");
    }

    #[test]
    fn colour_codes_change_the_pen_and_the_background() {
        let mut p = pico8();
        p.print(b"\x0c8a\x021b", Some((0, 0)), 7);
        assert_eq!(p.screen_pixel(0, 0), 8, "\\f8");
        assert_eq!(p.screen_pixel(7, 0), 1, "\\#1: the B cell's blank column");
    }
}
