//! P8SCII, PICO-8's character set, and the Unicode text `.p8` files write it as: codes
//! 32-126 are ASCII; the others are symbols, blocks, button glyphs and kana (five of them
//! two code points: a symbol and U+FE0F). Strings in an imported cart's Lua are UTF-8;
//! PICO-8's `print` draws P8SCII codes, so text goes through [`to_p8scii`] on its way to
//! the screen. The fill-pattern glyphs also name numbers in PICO-8 code ([`GLYPH_VALUES`]).

use std::sync::OnceLock;

/// The 256 characters in code order, as `.p8` files write them (code 0 as U+0000).
const CHARS: &str = concat!(
    "\0¹²³⁴⁵⁶⁷⁸\t\nᵇᶜ\rᵉᶠ▮■□⁙⁘‖◀▶「」¥•、。゛゜",
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNO",
    "PQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~○",
    "█▒🐱⬇\u{FE0F}░✽●♥☉웃⌂⬅\u{FE0F}😐♪🅾\u{FE0F}◆…➡\u{FE0F}★⧗⬆\u{FE0F}ˇ∧❎▤▥あいうえおか",
    "きくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ",
    "らりるれろわをんっゃゅょアイウエオカキクケコサシスセソタチツテト",
    "ナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンッャュョ◜◝",
);

/// The text of each code, 0-255.
pub fn table() -> &'static [String; 256] {
    static TABLE: OnceLock<[String; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut chars: Vec<String> = Vec::with_capacity(256);
        for c in CHARS.chars() {
            if c == '\u{FE0F}' {
                if let Some(last) = chars.last_mut() {
                    last.push(c);
                }
                continue;
            }
            chars.push(c.to_string());
        }
        chars.try_into().expect("256 characters in the table")
    })
}

/// The P8SCII code of each character beyond ASCII, longest text first (so a symbol with
/// U+FE0F is found before the symbol alone).
fn codes_by_text() -> &'static [(String, u8)] {
    static CODES: OnceLock<Vec<(String, u8)>> = OnceLock::new();
    CODES.get_or_init(|| {
        let mut codes: Vec<(String, u8)> = table()
            .iter()
            .enumerate()
            .filter(|(code, _)| !(32..127).contains(code))
            .map(|(code, text)| (text.clone(), code as u8))
            .collect();
        // The symbols with U+FE0F are also written without it.
        for (text, code) in codes.clone() {
            if let Some(bare) = text.strip_suffix('\u{FE0F}') {
                codes.push((bare.to_string(), code));
            }
        }
        codes.sort_by_key(|(text, _)| std::cmp::Reverse(text.len()));
        codes
    })
}

/// The P8SCII code of the character at the start of `text`, and its length in bytes.
pub fn code_at(text: &str) -> Option<(u8, usize)> {
    let first = text.chars().next()?;
    if (' '..='~').contains(&first) {
        return Some((first as u8, 1));
    }
    codes_by_text()
        .iter()
        .find(|(t, _)| text.starts_with(t.as_str()))
        .map(|(t, code)| (*code, t.len()))
}

/// UTF-8 text (or P8SCII bytes already) as P8SCII codes: characters of the table become
/// their code; a byte that starts no character of the table is kept as it is.
pub fn to_p8scii(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let rest = std::str::from_utf8(&bytes[at..]).ok().or_else(|| {
            // Up to the first byte that is not UTF-8.
            let valid = std::str::from_utf8(&bytes[at..]).unwrap_err().valid_up_to();
            std::str::from_utf8(&bytes[at..at + valid]).ok()
        });
        match rest.and_then(code_at) {
            Some((code, len)) if len > 0 => {
                out.push(code);
                at += len;
            }
            _ => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    out
}

/// P8SCII bytes (a `.p8.png` cart's code) as the Unicode text `.p8` files hold.
pub fn to_unicode(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| table()[usize::from(b)].as_str())
        .collect()
}

/// The numbers the glyphs name in PICO-8 code: the buttons 0-5 and the fill patterns
/// (as `fillp` takes them, `.5` for transparent).
pub const GLYPH_VALUES: &[(&str, &str)] = &[
    ("⬅", "0"),
    ("➡", "1"),
    ("⬆", "2"),
    ("⬇", "3"),
    ("🅾", "4"),
    ("❎", "5"),
    ("█", "0"),
    ("▒", "0x5a5a.8"),
    ("🐱", "0x511f.8"),
    ("░", "0x7d7d.8"),
    ("✽", "0xb81d.8"),
    ("●", "0xf99f.8"),
    ("♥", "0x51bf.8"),
    ("☉", "0xb5bf.8"),
    ("웃", "0x999f.8"),
    ("⌂", "0xb11f.8"),
    ("😐", "0xa0e0.8"),
    ("♪", "0x9b3f.8"),
    ("◆", "0xb1bf.8"),
    ("…", "0xf5ff.8"),
    ("★", "0xb15f.8"),
    ("⧗", "0x1b1f.8"),
    ("ˇ", "0xf5bf.8"),
    ("∧", "0x7adf.8"),
    ("▤", "0x0f0f.8"),
    ("▥", "0x5555.8"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_every_code_once() {
        let table = table();
        assert_eq!(table[65], "A");
        assert_eq!(table[128], "█");
        assert_eq!(table[139], "⬅\u{FE0F}");
        assert_eq!(table[142], "🅾\u{FE0F}");
        assert_eq!(table[151], "❎");
        assert_eq!(table[255], "◝");
        let distinct: std::collections::BTreeSet<&String> = table.iter().collect();
        assert_eq!(distinct.len(), 256);
    }

    #[test]
    fn text_goes_to_p8scii_and_back() {
        let text = "press ❎ or ⬅\u{FE0F}, ⬅ too";
        let codes = to_p8scii(text.as_bytes());
        assert_eq!(codes, b"press \x97 or \x8b, \x8b too");
        assert_eq!(to_unicode(b"\x97!"), "❎!");
        assert_eq!(
            to_p8scii(b"\xff\x41"),
            b"\xff\x41",
            "bytes that are no text stay"
        );
    }
}
