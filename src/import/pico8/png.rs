//! Reading a `.p8.png` cart: a 160 x 205 PNG whose pixels carry the cart, one byte per pixel
//! in the two low bits of alpha, red, green and blue (alpha the highest). Bytes 0x0000-0x42ff
//! are the cart's memory as PICO-8 lays it out (sprites, map, flags, music, sound effects),
//! 0x4300-0x7fff the code — plain, or compressed in the old `:c:` format or the newer `pxa`
//! one (both as Lexaloffle documented them) — and 0x8000 the version.

use super::p8::{
    GFX_SIDE, MAP_OWN_ROWS, MAP_W, MUSIC_COUNT, Note, P8Cart, P8Error, Pattern, SFX_COUNT,
    SFX_NOTES, SPRITES, Sfx,
};

/// The image's size.
const WIDTH: usize = 160;
const HEIGHT: usize = 205;
/// Where the code starts, and how much room it has.
const CODE: usize = 0x4300;
const CODE_END: usize = 0x8000;
/// Most code a cart decompresses to.
const MAX_CODE: usize = 0x10000;

fn error(message: impl Into<String>) -> P8Error {
    P8Error {
        line: 0,
        message: message.into(),
    }
}

/// The bytes the image carries.
fn stego_bytes(png: &[u8]) -> Result<Vec<u8>, P8Error> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder
        .read_info()
        .map_err(|e| error(format!("not a PNG: {e}")))?;
    let (width, height) = (reader.info().width as usize, reader.info().height as usize);
    if (width, height) != (WIDTH, HEIGHT) {
        return Err(error(format!(
            "a PICO-8 cart image is {WIDTH} x {HEIGHT} px, this one {width} x {height}"
        )));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| error("the image is too large"))?;
    let mut pixels = vec![0; size];
    let frame = reader
        .next_frame(&mut pixels)
        .map_err(|e| error(format!("the image cannot be read: {e}")))?;
    if frame.color_type != png::ColorType::Rgba || frame.bit_depth != png::BitDepth::Eight {
        return Err(error(format!(
            "the image is {:?} at {:?} bits, not 8-bit RGBA as PICO-8 writes it",
            frame.color_type, frame.bit_depth
        )));
    }
    Ok(pixels[..frame.buffer_size()]
        .chunks_exact(4)
        .map(|p| (p[3] & 3) << 6 | (p[0] & 3) << 4 | (p[1] & 3) << 2 | (p[2] & 3))
        .collect())
}

/// Reads a `.p8.png` file's bytes.
pub fn parse(png: &[u8]) -> Result<P8Cart, P8Error> {
    let bytes = stego_bytes(png)?;
    let mut cart = P8Cart {
        version: u32::from(bytes[CODE_END]),
        ..P8Cart::default()
    };
    for (i, &b) in bytes[..0x2000].iter().enumerate() {
        cart.gfx[i * 2] = b & 15;
        cart.gfx[i * 2 + 1] = b >> 4;
    }
    debug_assert_eq!(cart.gfx.len(), GFX_SIDE * GFX_SIDE);
    cart.map_top
        .copy_from_slice(&bytes[0x2000..0x2000 + MAP_W * MAP_OWN_ROWS]);
    cart.flags.copy_from_slice(&bytes[0x3000..0x3000 + SPRITES]);
    for (n, pattern) in cart.music.iter_mut().enumerate().take(MUSIC_COUNT) {
        let b = &bytes[0x3100 + n * 4..0x3100 + n * 4 + 4];
        *pattern = Pattern {
            flags: (0..4).fold(0, |flags, i| flags | (b[i] >> 7) << i),
            channels: std::array::from_fn(|i| b[i] & 0x7F),
        };
    }
    for (n, sfx) in cart.sfx.iter_mut().enumerate().take(SFX_COUNT) {
        let b = &bytes[0x3200 + n * 68..0x3200 + n * 68 + 68];
        let mut notes = [Note::default(); SFX_NOTES];
        for (i, note) in notes.iter_mut().enumerate() {
            let word = u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]);
            *note = Note {
                pitch: (word & 0x3F) as u8,
                waveform: (word >> 6 & 7) as u8,
                volume: (word >> 9 & 7) as u8,
                effect: (word >> 12 & 7) as u8,
                custom: word & 0x8000 != 0,
            };
        }
        *sfx = Sfx {
            editor: b[64],
            speed: b[65],
            loop_start: b[66],
            loop_end: b[67],
            notes,
        };
    }
    let code = code(&bytes[CODE..CODE_END])?;
    // The code is P8SCII: as text, the characters a `.p8` file writes.
    cart.lua = kairo_core::pico8::charset::to_unicode(&code);
    cart.sections = vec!["lua".into(), "gfx".into(), "gff".into(), "map".into()];
    Ok(cart)
}

/// The code, decompressed.
pub fn code(section: &[u8]) -> Result<Vec<u8>, P8Error> {
    match section.get(..4) {
        Some([b':', b'c', b':', 0]) => old_format(section),
        Some([0, b'p', b'x', b'a']) => pxa(section),
        _ => Ok(section.iter().take_while(|&&b| b != 0).copied().collect()),
    }
}

/// The characters the old format codes as one byte (1-59; 0 announces a rare byte).
const OLD_LITERALS: &[u8] = b"^\n 0123456789abcdefghijklmnopqrstuvwxyz!#%(){}[]<>+=/*:;.,~_";
/// What PICO-8 0.1.7 appended to code for 60 fps carts on older versions; not the cart's own.
const FUTURE_CODE: [&str; 2] = [
    "if(_update60)_update=function()_update60()_update60()end",
    "if(_update60)_update=function()_update60()_update_buttons()_update60()end",
];

/// The `:c:` format: a header (`:c:\0`, the length MSB first, two unused bytes), then bytes:
/// 0 and a rare byte; 1-59 a common character; 60 and up a copy of earlier output
/// (offset `(b - 60) * 16 + (next & 15)`, length `(next >> 4) + 2`).
fn old_format(section: &[u8]) -> Result<Vec<u8>, P8Error> {
    let damaged = || error("the compressed code (:c: format) is damaged");
    let len = usize::from(section[4]) << 8 | usize::from(section[5]);
    let mut out = Vec::with_capacity(len);
    let mut at = 8;
    let mut next = || {
        let b = *section.get(at).ok_or_else(damaged)?;
        at += 1;
        Ok::<u8, P8Error>(b)
    };
    while out.len() < len {
        let b = next()?;
        if b == 0 {
            out.push(next()?);
        } else if usize::from(b) < OLD_LITERALS.len() {
            out.push(OLD_LITERALS[usize::from(b)]);
        } else {
            let second = next()?;
            let offset = usize::from(b - OLD_LITERALS.len() as u8) * 16 + usize::from(second & 15);
            let length = usize::from(second >> 4) + 2;
            if offset == 0 || offset > out.len() {
                return Err(damaged());
            }
            for _ in 0..length {
                out.push(out[out.len() - offset]);
            }
        }
    }
    out.truncate(len);
    let text_end = out.iter().position(|&b| b == 0).unwrap_or(out.len());
    out.truncate(text_end);
    for future in FUTURE_CODE {
        if out.ends_with(future.as_bytes()) {
            out.truncate(out.len() - future.len());
        }
    }
    Ok(out)
}

/// Bits read least significant first.
struct Bits<'a> {
    bytes: &'a [u8],
    at: usize,
    bit: u8,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<u32, P8Error> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| error("the compressed code (pxa format) ends early"))?;
        let value = u32::from(byte >> self.bit & 1);
        self.bit += 1;
        if self.bit == 8 {
            self.bit = 0;
            self.at += 1;
        }
        Ok(value)
    }

    fn value(&mut self, bits: u32) -> Result<u32, P8Error> {
        let mut value = 0;
        for i in 0..bits {
            value |= self.bit()? << i;
        }
        Ok(value)
    }

    /// A chain of `link`-bit values summed while each is the largest a link holds, at most
    /// `max` bits read.
    fn chain(&mut self, link: u32, max: u32) -> Result<u32, P8Error> {
        let full = (1 << link) - 1;
        let (mut total, mut read) = (0, 0);
        loop {
            let v = self.value(link)?;
            total += v;
            read += link;
            if v != full || read >= max {
                return Ok(total);
            }
        }
    }
}

/// The `pxa` format: a header (`\0pxa`, the length and the compressed length, MSB first),
/// then a bit stream of literals (1, then an index into a move-to-front list of the 256
/// byte values in `4 + n` bits after `n` one-bits) and copies (0, an offset in 15, 10 or 5
/// bits, then a length of 3 plus 3-bit links; a 10-bit offset of 0 starts raw bytes up to a
/// zero).
fn pxa(section: &[u8]) -> Result<Vec<u8>, P8Error> {
    let damaged = || error("the compressed code (pxa format) is damaged");
    if section.len() < 8 {
        return Err(damaged());
    }
    let len = usize::from(section[4]) << 8 | usize::from(section[5]);
    let compressed = usize::from(section[6]) << 8 | usize::from(section[7]);
    let mut bits = Bits {
        bytes: &section[..compressed.min(section.len())],
        at: 8,
        bit: 0,
    };
    let mut order: Vec<u8> = (0..=255).collect();
    let mut out: Vec<u8> = Vec::with_capacity(len);
    while out.len() < len.min(MAX_CODE) && bits.at < compressed {
        if bits.bit()? == 1 {
            let mut index = 0;
            let mut extra = 0;
            while bits.bit()? == 1 {
                index += 1 << (4 + extra);
                extra += 1;
                if extra > 16 {
                    return Err(damaged());
                }
            }
            index += bits.value(4 + extra)?;
            let index = usize::try_from(index).map_err(|_| damaged())?;
            if index > 255 {
                return Err(damaged());
            }
            let c = order.remove(index);
            order.insert(0, c);
            out.push(c);
        } else {
            let width = (3 - bits.chain(1, 2)?) * 5;
            let offset = bits.value(width)?;
            if width == 10 && offset == 0 {
                loop {
                    let b = bits.value(8)? as u8;
                    if b == 0 || out.len() >= len {
                        break;
                    }
                    out.push(b);
                }
                continue;
            }
            let offset = offset as usize + 1;
            let length = bits.chain(3, 100_000)? as usize + 3;
            if offset > out.len() {
                return Err(damaged());
            }
            for _ in 0..length {
                out.push(out[out.len() - offset]);
            }
        }
    }
    out.truncate(len);
    let text_end = out.iter().position(|&b| b == 0).unwrap_or(out.len());
    out.truncate(text_end);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits written least significant first.
    #[derive(Default)]
    struct Writer {
        bytes: Vec<u8>,
        bit: u8,
    }

    impl Writer {
        fn bit(&mut self, b: u32) {
            if self.bit == 0 {
                self.bytes.push(0);
            }
            if b != 0 {
                *self.bytes.last_mut().unwrap() |= 1 << self.bit;
            }
            self.bit = (self.bit + 1) % 8;
        }

        fn value(&mut self, v: u32, bits: u32) {
            for i in 0..bits {
                self.bit(v >> i & 1);
            }
        }
    }

    /// A cart image carrying `bytes` (0x8001 of them), over a grey picture.
    fn image(bytes: &[u8]) -> Vec<u8> {
        let mut rgba = vec![0x80u8; WIDTH * HEIGHT * 4];
        for (i, &b) in bytes.iter().enumerate() {
            let px = &mut rgba[i * 4..i * 4 + 4];
            px[3] = 0xFC | b >> 6;
            px[0] = 0x80 | (b >> 4 & 3);
            px[1] = 0x80 | (b >> 2 & 3);
            px[2] = 0x80 | (b & 3);
        }
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, WIDTH as u32, HEIGHT as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&rgba)
            .unwrap();
        png
    }

    fn memory() -> Vec<u8> {
        let mut bytes = vec![0u8; 0x8001];
        bytes[0] = 0x21; // sprite pixels (0, 0) = 1 and (1, 0) = 2
        bytes[0x2000 + 3] = 7; // map cell (3, 0)
        bytes[0x3000 + 5] = 0x81; // flags of sprite 5
        bytes[0x3100..0x3104].copy_from_slice(&[0x81, 0x42, 0x03, 0x84]); // pattern 0
        // sfx 1, note 0: pitch 33, waveform 3, volume 5, effect 2, custom.
        let word: u16 = 33 | 3 << 6 | 5 << 9 | 2 << 12 | 0x8000;
        bytes[0x3200 + 68..0x3200 + 70].copy_from_slice(&word.to_le_bytes());
        bytes[0x3200 + 68 + 65] = 16; // its speed
        bytes[0x8000] = 41;
        bytes
    }

    #[test]
    fn memory_lands_where_the_text_format_puts_it() {
        let mut bytes = memory();
        bytes[CODE..CODE + 8].copy_from_slice(b"cls(1)\n\0");
        let cart = parse(&image(&bytes)).unwrap();
        assert_eq!(cart.version, 41);
        assert_eq!(&cart.gfx[..3], &[1, 2, 0], "low nibble left");
        assert_eq!(cart.map_cell(3, 0), 7);
        assert_eq!(cart.flags[5], 0x81);
        assert_eq!(cart.music[0].flags, 0b1001);
        assert_eq!(cart.music[0].channels, [0x01, 0x42, 0x03, 0x04]);
        let sfx = cart.sfx[1];
        assert_eq!(sfx.speed, 16);
        let note = sfx.notes[0];
        assert_eq!(
            (
                note.pitch,
                note.waveform,
                note.volume,
                note.effect,
                note.custom
            ),
            (33, 3, 5, 2, true)
        );
        assert_eq!(cart.lua, "cls(1)\n");
    }

    #[test]
    fn old_format_codes_literals_rare_bytes_and_copies() {
        let lit = |c: u8| OLD_LITERALS.iter().position(|&l| l == c).unwrap() as u8;
        // "abcabcabc@" : a b c, copy offset 3 length 6, rare '@'.
        let mut section = b":c:\0\0\x0a\0\0".to_vec();
        section.extend([lit(b'a'), lit(b'b'), lit(b'c')]);
        section.extend([60, (6 - 2) << 4 | 3]);
        section.extend([0, b'@']);
        assert_eq!(code(&section).unwrap(), b"abcabcabc@");
        // A copy reaching before the start is damage, not a panic.
        let mut bad = b":c:\0\0\x05\0\0".to_vec();
        bad.extend([60, 0x35]);
        assert!(code(&bad).is_err());
    }

    #[test]
    fn pxa_codes_moved_to_front_literals_copies_and_raw_runs() {
        let mut w = Writer::default();
        // 'a' (index 97 in the first order: 97 = 16 + 32 + 49 -> two one-bits, then 6 bits).
        w.bit(1);
        w.bit(1);
        w.bit(1);
        w.bit(0);
        w.value(97 - 16 - 32, 6);
        // 'a' again: now at the front.
        w.bit(1);
        w.bit(0);
        w.value(0, 4);
        // A copy: offset 2 (written as 1) in 5 bits, length 3 + 2 = 5.
        w.bit(0);
        w.bit(1);
        w.bit(1);
        w.value(1, 5);
        w.value(2, 3);
        // Raw bytes "xy", then zero.
        w.bit(0);
        w.bit(1);
        w.bit(0);
        w.value(0, 10);
        for b in b"xy\0" {
            w.value(u32::from(*b), 8);
        }
        let len: u16 = 9;
        let mut section = vec![0, b'p', b'x', b'a'];
        section.extend(len.to_be_bytes());
        section.extend(((w.bytes.len() + 8) as u16).to_be_bytes());
        section.extend(&w.bytes);
        assert_eq!(code(&section).unwrap(), b"aaaaaaaxy");
    }

    #[test]
    fn images_that_are_not_carts_are_refused() {
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, 10, 10);
        encoder.set_color(png::ColorType::Rgba);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&[0; 400])
            .unwrap();
        assert!(parse(&png).unwrap_err().message.contains("160 x 205"));
        assert!(parse(b"not a png").is_err());
    }
}
