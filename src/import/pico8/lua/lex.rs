//! The lexer of PICO-8's Lua: tokens with their lines, layout and comments kept (so the
//! translation can write the code back as it was), numbers read as PICO-8 reads them
//! (`1or` is `1` and `or`), the glyphs that name numbers, long strings and comments.

use super::{GLYPH_VALUES, LuaError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Name,
    Number,
    Str,
    /// A comment (kept, `//` ones turned into `--`).
    Comment,
    /// Spaces and tabs (newlines are their own kind).
    Space,
    Newline,
    Op,
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) text: String,
    pub(super) line: usize,
}

/// Operators, longest first.
pub(super) const OPS: &[&str] = &[
    ">>>=", "<<>=", ">><=", "^^=", "..=", "<<=", ">>=", ">>>", "<<>", ">><", "...", "+=", "-=",
    "*=", "/=", "%=", "^=", "\\=", "&=", "|=", "==", "~=", "!=", "<=", ">=", "<<", ">>", "::",
    "..", "^^", "+", "-", "*", "/", "%", "^", "#", "&", "~", "|", "<", ">", "=", "(", ")", "{",
    "}", "[", "]", ";", ":", ",", ".", "\\", "@", "$", "?",
];

/// The glyph at the start of `rest` that names a number in PICO-8 code (a button or a fill
/// pattern, U+FE0F after it included), with its length and value.
pub(super) fn glyph_at(rest: &str) -> Option<(usize, &'static str)> {
    let (glyph, value) = GLYPH_VALUES.iter().find(|(g, _)| rest.starts_with(g))?;
    let len = glyph.len()
        + if rest[glyph.len()..].starts_with('\u{FE0F}') {
            3
        } else {
            0
        };
    Some((len, value))
}

pub(super) fn error(line: usize, message: impl Into<String>) -> LuaError {
    LuaError {
        line,
        message: message.into(),
    }
}

/// The length of the number at the start of `rest`, as PICO-8 reads it: `1or` is 1 and `or`.
pub(super) fn number_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let lower = rest.get(..2).map(str::to_ascii_lowercase);
    let (digit, start): (fn(u8) -> bool, usize) = match lower.as_deref() {
        Some("0x") => (|b| b.is_ascii_hexdigit(), 2),
        Some("0b") => (|b| b == b'0' || b == b'1', 2),
        _ => (|b| b.is_ascii_digit(), 0),
    };
    let decimal = start == 0;
    let mut i = start;
    while i < bytes.len() && (digit(bytes[i]) || bytes[i] == b'.') {
        i += 1;
    }
    // A decimal exponent: e or E, maybe a sign, then digits.
    if decimal && i < bytes.len() && matches!(bytes[i], b'e' | b'E') {
        let mut j = i + 1;
        if j < bytes.len() && matches!(bytes[j], b'+' | b'-') {
            j += 1;
        }
        if j < bytes.len() && bytes[j].is_ascii_digit() {
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    i.max(1)
}

/// The level of a long bracket opening at `s` (`[[` 0, `[=[` 1...), if one does.
pub(super) fn long_bracket(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('[')?;
    let level = rest.bytes().take_while(|&b| b == b'=').count();
    rest[level..].starts_with('[').then_some(level)
}

pub(super) fn tokenize(source: &str) -> Result<Vec<Token>, LuaError> {
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut rest = source;
    while let Some(c) = rest.chars().next() {
        let start_line = line;
        let (kind, len) = if c == '\n' {
            (Kind::Newline, 1)
        } else if c == ' ' || c == '\t' || c == '\r' {
            let n = rest
                .bytes()
                .take_while(|&b| b == b' ' || b == b'\t' || b == b'\r')
                .count();
            (Kind::Space, n)
        } else if rest.starts_with("--") || rest.starts_with("//") {
            match long_bracket(&rest[2..]).filter(|_| rest.starts_with("--")) {
                Some(level) => {
                    let close = format!("]{}]", "=".repeat(level));
                    let end = rest[2..]
                        .find(&close)
                        .ok_or_else(|| error(line, "a long comment is never closed"))?;
                    (Kind::Comment, 2 + end + close.len())
                }
                None => (Kind::Comment, rest.find('\n').unwrap_or(rest.len())),
            }
        } else if c == '"' || c == '\'' {
            let mut escaped = false;
            let mut end = None;
            for (i, ch) in rest.char_indices().skip(1) {
                match ch {
                    '\n' if !escaped => return Err(error(line, "a string runs past its line")),
                    '\\' if !escaped => escaped = true,
                    ch if ch == c && !escaped => {
                        end = Some(i + 1);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let end = end.ok_or_else(|| error(line, "a string is never closed"))?;
            (Kind::Str, end)
        } else if let Some(level) = long_bracket(rest) {
            let close = format!("]{}]", "=".repeat(level));
            let end = rest
                .find(&close)
                .ok_or_else(|| error(line, "a long string is never closed"))?;
            (Kind::Str, end + close.len())
        } else if c.is_ascii_digit()
            || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            (Kind::Number, number_len(rest))
        } else if let Some((len, _)) = glyph_at(rest) {
            (Kind::Name, len)
        } else if c.is_ascii_alphabetic() || c == '_' {
            let n = rest
                .char_indices()
                .take_while(|&(_, ch)| ch.is_ascii_alphanumeric() || ch == '_')
                .last()
                .map_or(1, |(i, ch)| i + ch.len_utf8());
            (Kind::Name, n)
        } else if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            (Kind::Op, op.len())
        } else {
            return Err(error(
                line,
                format!(
                    "`{c}` (U+{:04X}) outside a string: PICO-8 glyphs in code other than the buttons are not translated",
                    c as u32
                ),
            ));
        };
        let text = &rest[..len];
        line += text.matches('\n').count();
        tokens.push(Token {
            kind,
            text: text.to_string(),
            line: start_line,
        });
        rest = &rest[len..];
    }
    Ok(tokens)
}
