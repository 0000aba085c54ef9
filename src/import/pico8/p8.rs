//! Reading a `.p8` cart: the text format PICO-8 saves, a header (`pico-8 cartridge // ...`,
//! `version N`) and sections `__lua__`, `__gfx__`, `__gff__`, `__label__`, `__map__`,
//! `__sfx__`, `__music__`. Every section is checked as it is read: a wrong digit, an
//! overlong line or too many lines is an error naming the file's line, never skipped.

use std::fmt;

/// Sprite sheet side, in pixels (128 x 128, 4 bits each).
pub const GFX_SIDE: usize = 128;
/// Map width in cells; the map is 64 rows, rows 32-63 shared with sprites 128-255.
pub const MAP_W: usize = 128;
/// Map rows kept in the `__map__` section (the rest live in the sprite sheet's lower half).
pub const MAP_OWN_ROWS: usize = 32;
/// Map rows in all.
pub const MAP_H: usize = 64;
/// Sprites (and flag bytes).
pub const SPRITES: usize = 256;
/// Sound effects and music patterns.
pub const SFX_COUNT: usize = 64;
pub const MUSIC_COUNT: usize = 64;
/// Notes of one sound effect.
pub const SFX_NOTES: usize = 32;
/// The sound's memory, 0x3100-0x42ff.
pub const SOUND_BYTES: usize = kairo_core::pico8::sound::file::BYTES;

/// What is wrong with a `.p8` file, and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct P8Error {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for P8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for P8Error {}

/// One note of a sound effect, as PICO-8 stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// 0-63: C-0 upwards (33 is A-2, 440 Hz).
    pub pitch: u8,
    /// 0-7, the waveform (or, with `custom`, the sfx 0-7 played as an instrument).
    pub waveform: u8,
    pub custom: bool,
    /// 0-7 (0 is silent).
    pub volume: u8,
    /// 0-7: none, slide, vibrato, drop, fade in, fade out, fast arpeggio, slow arpeggio.
    pub effect: u8,
}

/// One sound effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sfx {
    /// The editor's mode byte (kept as read).
    pub editor: u8,
    /// Ticks of 183 samples at 22,050 Hz per note (1-255).
    pub speed: u8,
    pub loop_start: u8,
    pub loop_end: u8,
    pub notes: [Note; SFX_NOTES],
}

/// One music pattern: flags (bit 0 loop start, bit 1 loop back, bit 2 stop) and four channel
/// bytes, each an sfx number, 0x40 added when the channel is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub flags: u8,
    pub channels: [u8; 4],
}

impl Default for Pattern {
    /// Every channel off, as PICO-8 leaves an empty pattern.
    fn default() -> Self {
        Pattern {
            flags: 0,
            channels: [0x41, 0x42, 0x43, 0x44],
        }
    }
}

impl Pattern {
    /// The sfx channel `c` plays, `None` when it is off.
    pub fn sfx(&self, c: usize) -> Option<u8> {
        (self.channels[c] & 0x40 == 0).then_some(self.channels[c] & 0x3F)
    }
}

/// A `.p8` cart as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct P8Cart {
    /// The `version` line's number.
    pub version: u32,
    /// The Lua code, as written.
    pub lua: String,
    /// The file's line of the code's first line (1-based), for errors at the `.p8` line.
    pub lua_line: usize,
    /// The sprite sheet, one colour (0-15) per pixel, row by row (128 x 128). The lower half
    /// (sprites 128-255) is also map rows 32-63.
    pub gfx: Vec<u8>,
    /// Sprite flags, one byte per sprite.
    pub flags: [u8; SPRITES],
    /// Map rows 0-31 as the `__map__` section holds them (128 cells of one byte each).
    pub map_top: Vec<u8>,
    pub label: Option<Vec<u8>>,
    pub sfx: Vec<Sfx>,
    pub music: Vec<Pattern>,
    /// Which sections were present (in file order), for reporting.
    pub sections: Vec<String>,
}

impl Default for P8Cart {
    fn default() -> Self {
        P8Cart {
            version: 0,
            lua: String::new(),
            lua_line: 1,
            gfx: vec![0; GFX_SIDE * GFX_SIDE],
            flags: [0; SPRITES],
            map_top: vec![0; MAP_W * MAP_OWN_ROWS],
            label: None,
            // A `.p8` writes sfx up to the last one used; the others are empty, at speed 16.
            sfx: vec![
                Sfx {
                    speed: 16,
                    ..Sfx::default()
                };
                SFX_COUNT
            ],
            music: vec![Pattern::default(); MUSIC_COUNT],
            sections: Vec::new(),
        }
    }
}

impl P8Cart {
    /// Map cell (x, y), 0 <= x < 128, 0 <= y < 64: rows 32-63 are read from the sprite sheet's
    /// lower half as PICO-8's shared memory holds them (each byte two pixels, left in the low
    /// nibble).
    pub fn map_cell(&self, x: usize, y: usize) -> u8 {
        if y < MAP_OWN_ROWS {
            return self.map_top[y * MAP_W + x];
        }
        // Byte `at` of memory 0x1000..0x2000 is pixels 2 * at and 2 * at + 1 of the sheet's
        // lower half.
        let at = (y - MAP_OWN_ROWS) * MAP_W + x;
        let pixel = GFX_SIDE * GFX_SIDE / 2 + at * 2;
        self.gfx[pixel] | (self.gfx[pixel + 1] << 4)
    }

    /// Whether the map's lower half is in use by the code's map (any non-zero cell there).
    pub fn lower_map_used(&self) -> bool {
        (MAP_OWN_ROWS..MAP_H).any(|y| (0..MAP_W).any(|x| self.map_cell(x, y) != 0))
    }

    /// PICO-8's memory 0x3100-0x42ff: the music patterns, then the sound effects.
    pub fn sound_memory(&self) -> Box<[u8; SOUND_BYTES]> {
        let mut bytes = Box::new([0u8; SOUND_BYTES]);
        for (n, pattern) in self.music.iter().enumerate() {
            for c in 0..4 {
                bytes[n * 4 + c] = pattern.channels[c] & 0x7F | (pattern.flags >> c & 1) << 7;
            }
        }
        for (n, sfx) in self.sfx.iter().enumerate() {
            let at = MUSIC_COUNT * 4 + n * 68;
            for (i, note) in sfx.notes.iter().enumerate() {
                let word = u16::from(note.pitch & 0x3F)
                    | u16::from(note.waveform & 7) << 6
                    | u16::from(note.volume & 7) << 9
                    | u16::from(note.effect & 7) << 12
                    | u16::from(note.custom) << 15;
                bytes[at + i * 2..at + i * 2 + 2].copy_from_slice(&word.to_le_bytes());
            }
            bytes[at + 64..at + 68].copy_from_slice(&[
                sfx.editor,
                sfx.speed,
                sfx.loop_start,
                sfx.loop_end,
            ]);
        }
        bytes
    }

    /// Whether sound effect `n` has any audible note.
    pub fn sfx_used(&self, n: usize) -> bool {
        self.sfx[n].notes.iter().any(|note| note.volume > 0)
    }
}

fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Reads the hex digits of `text` (the digits of one section line).
fn hex_digits(text: &str, line: usize, what: &str) -> Result<Vec<u8>, P8Error> {
    text.bytes()
        .enumerate()
        .map(|(column, c)| {
            hex_digit(c).ok_or_else(|| P8Error {
                line,
                message: format!(
                    "{what}: `{}` at column {} is not a hex digit",
                    c as char,
                    column + 1
                ),
            })
        })
        .collect()
}

fn too_many(line: usize, section: &str, most: usize) -> P8Error {
    P8Error {
        line,
        message: format!("{section} has more than {most} lines"),
    }
}

/// Reads a `.p8` file's text.
pub fn parse(text: &str) -> Result<P8Cart, P8Error> {
    let mut cart = P8Cart::default();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let header = lines.next().map(|(_, l)| l.trim()).unwrap_or_default();
    if !header.starts_with("pico-8 cartridge") {
        return Err(P8Error {
            line: 1,
            message: "not a PICO-8 cart: the first line is not `pico-8 cartridge // http://www.pico-8.com`".into(),
        });
    }
    let mut section: Option<String> = None;
    let mut row = 0usize;
    let mut lua = Vec::new();
    for (number, raw) in lines {
        let line = raw.trim_end_matches('\r');
        if let Some(name) = section_name(line) {
            if cart.sections.iter().any(|s| s == name) {
                return Err(P8Error {
                    line: number,
                    message: format!("a second `__{name}__` section"),
                });
            }
            cart.sections.push(name.to_string());
            if name == "lua" {
                cart.lua_line = number + 1;
            }
            section = Some(name.to_string());
            row = 0;
            continue;
        }
        match section.as_deref() {
            None => {
                if let Some(version) = line.strip_prefix("version ") {
                    cart.version = version.trim().parse().map_err(|_| P8Error {
                        line: number,
                        message: format!("`{line}`: the version is not a number"),
                    })?;
                }
            }
            Some("lua") => lua.push(line),
            Some(_) if line.trim().is_empty() => {}
            Some("gfx") => {
                if row >= GFX_SIDE {
                    return Err(too_many(number, "__gfx__", GFX_SIDE));
                }
                let digits = hex_digits(line.trim(), number, "__gfx__")?;
                if digits.len() > GFX_SIDE {
                    return Err(P8Error {
                        line: number,
                        message: format!("__gfx__ rows are 128 digits, this one {}", digits.len()),
                    });
                }
                cart.gfx[row * GFX_SIDE..row * GFX_SIDE + digits.len()].copy_from_slice(&digits);
                row += 1;
            }
            Some("gff") => {
                let bytes = byte_pairs(line.trim(), number, "__gff__")?;
                let start = row * 128;
                if start + bytes.len() > SPRITES {
                    return Err(too_many(number, "__gff__", 2));
                }
                cart.flags[start..start + bytes.len()].copy_from_slice(&bytes);
                row += 1;
            }
            Some("map") => {
                if row >= MAP_OWN_ROWS {
                    return Err(too_many(number, "__map__", MAP_OWN_ROWS));
                }
                let bytes = byte_pairs(line.trim(), number, "__map__")?;
                if bytes.len() > MAP_W {
                    return Err(P8Error {
                        line: number,
                        message: format!(
                            "__map__ rows are 256 digits, this one {}",
                            bytes.len() * 2
                        ),
                    });
                }
                cart.map_top[row * MAP_W..row * MAP_W + bytes.len()].copy_from_slice(&bytes);
                row += 1;
            }
            Some("label") => {
                if row >= GFX_SIDE {
                    return Err(too_many(number, "__label__", GFX_SIDE));
                }
                let label = cart
                    .label
                    .get_or_insert_with(|| vec![0; GFX_SIDE * GFX_SIDE]);
                // Labels may use the extra colours, written g-v (16-31).
                for (x, c) in line.trim().bytes().take(GFX_SIDE).enumerate() {
                    label[row * GFX_SIDE + x] = match c {
                        b'0'..=b'9' | b'a'..=b'f' => hex_digit(c).unwrap_or(0),
                        b'g'..=b'v' => c - b'g' + 16,
                        _ => {
                            return Err(P8Error {
                                line: number,
                                message: format!("__label__: `{}` is not a colour", c as char),
                            });
                        }
                    };
                }
                row += 1;
            }
            Some("sfx") => {
                if row >= SFX_COUNT {
                    return Err(too_many(number, "__sfx__", SFX_COUNT));
                }
                cart.sfx[row] = parse_sfx(line.trim(), number)?;
                row += 1;
            }
            Some("music") => {
                if row >= MUSIC_COUNT {
                    return Err(too_many(number, "__music__", MUSIC_COUNT));
                }
                cart.music[row] = parse_pattern(line.trim(), number)?;
                row += 1;
            }
            // Sections this reader does not use (`__meta:...__`, `__change_mask__`...) are
            // kept out of the cart and named in `sections` for the import report.
            Some(_) => {}
        }
    }
    cart.lua = lua.join("\n");
    Ok(cart)
}

/// `__name__` alone on a line (names of letters, digits, `_` and `:`).
fn section_name(line: &str) -> Option<&str> {
    let name = line.strip_prefix("__")?.strip_suffix("__")?;
    (!name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':'))
    .then_some(name)
}

/// Two hex digits per byte, high digit first.
fn byte_pairs(text: &str, line: usize, what: &str) -> Result<Vec<u8>, P8Error> {
    let digits = hex_digits(text, line, what)?;
    if digits.len() % 2 != 0 {
        return Err(P8Error {
            line,
            message: format!("{what}: an odd number of hex digits ({})", digits.len()),
        });
    }
    Ok(digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect())
}

/// `eessllee` then 32 notes of `ppwve`: editor mode, speed, loop start, loop end; pitch (2
/// digits), waveform (1; 8 and up: a custom instrument), volume, effect.
fn parse_sfx(text: &str, line: usize) -> Result<Sfx, P8Error> {
    let digits = hex_digits(text, line, "__sfx__")?;
    if digits.len() != 8 + SFX_NOTES * 5 {
        return Err(P8Error {
            line,
            message: format!(
                "__sfx__ lines are {} digits, this one {}",
                8 + SFX_NOTES * 5,
                digits.len()
            ),
        });
    }
    let byte = |at: usize| digits[at] << 4 | digits[at + 1];
    let mut sfx = Sfx {
        editor: byte(0),
        speed: byte(2),
        loop_start: byte(4),
        loop_end: byte(6),
        notes: [Note::default(); SFX_NOTES],
    };
    for (i, note) in sfx.notes.iter_mut().enumerate() {
        let at = 8 + i * 5;
        *note = Note {
            pitch: byte(at),
            waveform: digits[at + 2] & 7,
            custom: digits[at + 2] & 8 != 0,
            volume: digits[at + 3] & 7,
            effect: digits[at + 4] & 7,
        };
    }
    Ok(sfx)
}

/// `ff cccccccc`: the flags, then four channel bytes (0x40 and up: silent).
fn parse_pattern(text: &str, line: usize) -> Result<Pattern, P8Error> {
    let (flags, channels) = text.split_once(' ').ok_or_else(|| P8Error {
        line,
        message: "__music__ lines are `ff cccccccc`".into(),
    })?;
    let flags = byte_pairs(flags, line, "__music__")?;
    let channels = byte_pairs(channels, line, "__music__")?;
    if flags.len() != 1 || channels.len() != 4 {
        return Err(P8Error {
            line,
            message: "__music__ lines are `ff cccccccc`".into(),
        });
    }
    Ok(Pattern {
        flags: flags[0],
        channels: std::array::from_fn(|i| channels[i] & 0x7F),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cart(body: &str) -> Result<P8Cart, P8Error> {
        parse(&format!(
            "pico-8 cartridge // http://www.pico-8.com\nversion 41\n{body}"
        ))
    }

    #[test]
    fn sections_land_where_pico8_keeps_them() {
        let sfx_line = format!("0110000a{}", "1a345".repeat(32));
        let read = cart(&format!(
            "__lua__\nprint(1)\n-- two\n__gfx__\n0123\n\n__gff__\n0001ff\n__map__\n0a0b\n__sfx__\n{sfx_line}\n__music__\n04 41020304\n"
        ))
        .unwrap();
        assert_eq!(read.version, 41);
        assert_eq!(read.lua, "print(1)\n-- two");
        assert_eq!(read.lua_line, 4);
        assert_eq!(&read.gfx[..5], &[0, 1, 2, 3, 0]);
        assert_eq!(&read.flags[..4], &[0, 1, 0xFF, 0]);
        assert_eq!((read.map_cell(0, 0), read.map_cell(1, 0)), (0x0A, 0x0B));
        let sfx = read.sfx[0];
        assert_eq!(
            (sfx.editor, sfx.speed, sfx.loop_start, sfx.loop_end),
            (1, 0x10, 0, 0x0A)
        );
        let note = sfx.notes[31];
        assert_eq!(
            (
                note.pitch,
                note.waveform,
                note.custom,
                note.volume,
                note.effect
            ),
            (0x1A, 3, false, 4, 5)
        );
        assert_eq!(read.music[0].flags, 4);
        assert_eq!(read.music[0].channels, [0x41, 2, 3, 4]);
        assert_eq!(read.music[0].sfx(0), None);
    }

    #[test]
    fn the_lower_map_is_the_lower_sprite_sheet() {
        let mut read = cart("").unwrap();
        // Map cell (1, 32) is memory 0x1001: sheet pixels 2 and 3 of row 64.
        read.gfx[64 * GFX_SIDE + 2] = 0x5;
        read.gfx[64 * GFX_SIDE + 3] = 0xC;
        assert_eq!(read.map_cell(1, 32), 0xC5);
        assert!(read.lower_map_used());
    }

    #[test]
    fn damage_is_an_error_on_its_line() {
        assert_eq!(parse("hello").unwrap_err().line, 1);
        let err = cart("__gfx__\n01x3\n").unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("`x` at column 3"), "{err}");
        let err = cart("__sfx__\n0110\n").unwrap_err();
        assert!(err.message.contains("168 digits"), "{err}");
        let err = cart("__lua__\n__lua__\n").unwrap_err();
        assert_eq!(err.line, 4);
        let rows = "00\n".repeat(33);
        assert!(
            cart(&format!("__map__\n{rows}"))
                .unwrap_err()
                .message
                .contains("more than 32")
        );
    }
}
