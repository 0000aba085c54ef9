//! The sound file of an imported cart (`sound.p8sfx`, `[pico8] sound` in `cart.toml`): the
//! `__sfx__` and `__music__` sections exactly as a `.p8` file writes them, so the text can
//! go back into a `.p8` and PICO-8's editor. `__sfx__`: one line per sfx, 8 hex digits
//! (filters byte, speed, loop start, loop end) then 32 notes of 5 (key 2 digits, waveform 1
//! with 8 added for an sfx instrument, volume 1, effect 1). `__music__`: one line per
//! pattern, `ff cccccccc` (flags: 1 loop start, 2 loop back, 4 stop; then a byte per channel,
//! 0x40 added when off). Missing lines are empty sfx (speed 16) and patterns with every
//! channel off, as PICO-8 reads a `.p8` that stops early.

use super::music::MUSIC;
use super::player::{SFX, SFX_BYTES};

/// The sound's bytes in memory: 0x3100-0x42ff.
pub const BYTES: usize = 0x1200;
const SFX_AT: usize = SFX - MUSIC;
const SFX_COUNT: usize = 64;
const PATTERNS: usize = 64;

/// A mistake in a sound file: the line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoundFileError {
    pub line: usize,
    pub message: String,
}

/// The sound memory a sound file describes.
pub fn parse(text: &str) -> Result<Box<[u8; BYTES]>, SoundFileError> {
    let mut bytes = Box::new([0u8; BYTES]);
    for p in 0..PATTERNS {
        bytes[p * 4..p * 4 + 4].copy_from_slice(&[0x41, 0x42, 0x43, 0x44]);
    }
    for n in 0..SFX_COUNT {
        bytes[SFX_AT + n * SFX_BYTES + 65] = 16;
    }
    let mut section = None;
    let mut rows = [0usize; 2];
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let error = |message: String| SoundFileError { line, message };
        let row = raw.trim();
        match row {
            "" => continue,
            "__sfx__" => section = Some(0),
            "__music__" => section = Some(1),
            _ => match section {
                None => return Err(error("expected `__sfx__` or `__music__` first".into())),
                Some(0) => {
                    let n = rows[0];
                    if n == SFX_COUNT {
                        return Err(error(format!("more than {SFX_COUNT} sfx lines")));
                    }
                    let at = SFX_AT + n * SFX_BYTES;
                    sfx_line(row, &mut bytes[at..at + SFX_BYTES]).map_err(error)?;
                    rows[0] += 1;
                }
                Some(_) => {
                    let n = rows[1];
                    if n == PATTERNS {
                        return Err(error(format!("more than {PATTERNS} music lines")));
                    }
                    music_line(row, &mut bytes[n * 4..n * 4 + 4]).map_err(error)?;
                    rows[1] += 1;
                }
            },
        }
    }
    Ok(bytes)
}

fn digits(text: &str) -> Result<Vec<u8>, String> {
    text.chars()
        .map(|c| {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| format!("`{c}` is not a hex digit"))
        })
        .collect()
}

fn sfx_line(row: &str, out: &mut [u8]) -> Result<(), String> {
    let d = digits(row)?;
    if d.len() != 168 {
        return Err(format!(
            "an sfx line has 168 hex digits, this one {}",
            d.len()
        ));
    }
    let byte = |at: usize| d[at] << 4 | d[at + 1];
    out[64..68].copy_from_slice(&[byte(0), byte(2), byte(4), byte(6)]);
    for n in 0..32 {
        let at = 8 + n * 5;
        let (key, wave, volume, effect) = (byte(at), d[at + 2], d[at + 3], d[at + 4]);
        if key > 63 || volume > 7 || effect > 7 {
            return Err(format!(
                "note {n}: key {key} (0-63), volume {volume} (0-7), effect {effect} (0-7)"
            ));
        }
        let word = u16::from(key)
            | u16::from(wave & 7) << 6
            | u16::from(volume) << 9
            | u16::from(effect) << 12
            | u16::from(wave >> 3) << 15;
        out[n * 2..n * 2 + 2].copy_from_slice(&word.to_le_bytes());
    }
    Ok(())
}

fn music_line(row: &str, out: &mut [u8]) -> Result<(), String> {
    let shape = || "a music line is `ff cccccccc`".to_string();
    let (flags, channels) = row.split_once(' ').ok_or_else(shape)?;
    let (flags, channels) = (digits(flags)?, digits(channels.trim())?);
    if flags.len() != 2 || channels.len() != 8 {
        return Err(shape());
    }
    let flags = flags[0] << 4 | flags[1];
    for c in 0..4 {
        let byte = channels[c * 2] << 4 | channels[c * 2 + 1];
        if byte > 0x7F {
            return Err(format!("channel {c}: {byte:#04x} is past 0x7f"));
        }
        out[c] = byte | (flags >> c & 1) << 7;
    }
    Ok(())
}

/// The sound file of sound memory `bytes` (0x3100-0x42ff): every sfx and pattern.
pub fn write(bytes: &[u8; BYTES]) -> String {
    let mut text = String::from("__sfx__\n");
    for n in 0..SFX_COUNT {
        let s = &bytes[SFX_AT + n * SFX_BYTES..SFX_AT + (n + 1) * SFX_BYTES];
        text += &format!("{:02x}{:02x}{:02x}{:02x}", s[64], s[65], s[66], s[67]);
        for i in 0..32 {
            let word = u16::from_le_bytes([s[i * 2], s[i * 2 + 1]]);
            let wave = (word >> 6 & 7) | (word >> 15) << 3;
            text += &format!(
                "{:02x}{:x}{:x}{:x}",
                word & 0x3F,
                wave,
                word >> 9 & 7,
                word >> 12 & 7
            );
        }
        text.push('\n');
    }
    text += "__music__\n";
    for p in 0..PATTERNS {
        let b = &bytes[p * 4..p * 4 + 4];
        let flags = (0..4).fold(0, |f, c| f | (b[c] >> 7) << c);
        text += &format!(
            "{flags:02x} {:02x}{:02x}{:02x}{:02x}\n",
            b[0] & 0x7F,
            b[1] & 0x7F,
            b[2] & 0x7F,
            b[3] & 0x7F
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_sound_memory_survives_the_text_and_back() {
        let mut bytes = Box::new([0u8; BYTES]);
        let mut x = 12345u32;
        for b in bytes.iter_mut() {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *b = (x >> 16) as u8;
        }
        assert_eq!(parse(&write(&bytes)).unwrap(), bytes);
    }

    #[test]
    fn a_line_from_a_p8_file_lands_where_pico8_keeps_it() {
        let text = format!(
            "__sfx__\n0110000a{}\n__music__\n05 41020344\n",
            "1ab45".repeat(32)
        );
        let bytes = parse(&text).unwrap();
        let sfx = &bytes[SFX_AT..SFX_AT + 68];
        assert_eq!(&sfx[64..], &[0x01, 0x10, 0x00, 0x0A]);
        // Key 0x1a, waveform 3 as an sfx instrument (b = 8 + 3), volume 4, effect 5.
        let word = u16::from_le_bytes([sfx[0], sfx[1]]);
        assert_eq!(word, 0x1A | 3 << 6 | 4 << 9 | 5 << 12 | 1 << 15);
        // Flags 5: loop start on channel byte 0, stop on channel byte 2.
        assert_eq!(&bytes[..4], &[0xC1, 0x02, 0x83, 0x44]);
        // Patterns not given have every channel off; sfx not given are empty at speed 16.
        assert_eq!(&bytes[4..8], &[0x41, 0x42, 0x43, 0x44]);
        assert_eq!(&bytes[SFX_AT + 68..SFX_AT + 68 + 64], &[0; 64]);
        assert_eq!(&bytes[SFX_AT + 68 + 64..SFX_AT + 68 * 2], &[0, 16, 0, 0]);
    }

    #[test]
    fn mistakes_name_their_line() {
        let err = parse("__sfx__\n0110000a\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("168"), "{}", err.message);
        let err = parse("__music__\n00 4142434x\n").unwrap_err();
        assert_eq!(
            (err.line, err.message.as_str()),
            (2, "`x` is not a hex digit")
        );
        assert_eq!(parse("hello").unwrap_err().line, 1);
    }
}
