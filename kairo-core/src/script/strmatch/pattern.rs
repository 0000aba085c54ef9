//! A Lua pattern, read once into a list of items the matcher walks.
//!
//! Lua reads the pattern text again at every step; here each item is parsed once and every
//! single-character class (`.`, `%a`, `[a-z%d]`, a literal) becomes a 256-bit set, so a step
//! is one bit test. Where the text is malformed the item list ends with a
//! [`Item::Malformed`] that raises Lua's message when the matcher reaches it, because Lua
//! only notices a malformed item when it gets there.
//!
//! Item boundaries depend on the pattern text alone (never on the subject), which is what
//! makes reading it ahead of time exact. The grammar (Lua 5.4 manual §6.4.1):
//! `(` `()` `)` open, position and close captures; `$` as the last byte; `%bxy`; `%f[set]`;
//! `%0`-`%9` back-references; otherwise a class (`.`, `%x`, `[set]` or a byte) with an
//! optional `*`, `+`, `-` or `?`.

use super::error::PatternError;
use super::meter::bulk_steps;

/// Which bytes a single-character class accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// Every byte.
    pub const ALL: ByteSet = ByteSet([u64::MAX; 4]);

    /// Just `byte`.
    pub fn single(byte: u8) -> ByteSet {
        let mut set = ByteSet::default();
        set.insert(byte);
        set
    }

    /// Whether `byte` is in the set.
    #[inline]
    pub fn contains(&self, byte: u8) -> bool {
        self.0[usize::from(byte >> 6)] >> (byte & 63) & 1 == 1
    }

    fn insert(&mut self, byte: u8) {
        self.0[usize::from(byte >> 6)] |= 1 << (byte & 63);
    }

    fn insert_all(&mut self, other: &ByteSet) {
        for (word, add) in self.0.iter_mut().zip(other.0) {
            *word |= add;
        }
    }

    fn complement(mut self) -> ByteSet {
        for word in &mut self.0 {
            *word = !*word;
        }
        self
    }

    fn from_fn(test: impl Fn(u8) -> bool) -> ByteSet {
        let mut set = ByteSet::default();
        for byte in 0..=255 {
            if test(byte) {
                set.insert(byte);
            }
        }
        set
    }

    /// What `%c` stands for, in or out of a `[set]`: a class letter (`a c d g l p s u w x z`)
    /// is that C-locale `<ctype.h>` class, its capital the complement, and any other byte
    /// just itself (`%.`, `%%`, `%]`, also `%q`).
    pub fn escape(c: u8) -> ByteSet {
        let class: fn(u8) -> bool = match c.to_ascii_lowercase() {
            b'a' => |b| b.is_ascii_alphabetic(),
            b'c' => |b| b.is_ascii_control(),
            b'd' => |b| b.is_ascii_digit(),
            b'g' => |b| b.is_ascii_graphic(),
            b'l' => |b| b.is_ascii_lowercase(),
            b'p' => |b| b.is_ascii_punctuation(),
            b's' => |b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
            b'u' => |b| b.is_ascii_uppercase(),
            b'w' => |b| b.is_ascii_alphanumeric(),
            b'x' => |b| b.is_ascii_hexdigit(),
            b'z' => |b| b == 0,
            _ => return ByteSet::single(c),
        };
        let set = ByteSet::from_fn(class);
        if c.is_ascii_lowercase() {
            set
        } else {
            set.complement()
        }
    }
}

/// How often a class item may repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// No suffix: exactly once.
    Once,
    /// `*`: as many as possible, then fewer.
    Star,
    /// `+`: one, then as many as possible, then fewer.
    Plus,
    /// `-`: as few as possible, then more.
    Lazy,
    /// `?`: one if that leads to a match, else none.
    Optional,
}

/// One pattern item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `(`, or `()` when `position` is set.
    Open { position: bool },
    /// `)`.
    Close,
    /// `$` as the last byte of the pattern.
    End,
    /// `%bxy`.
    Balance { open: u8, close: u8 },
    /// `%f[set]`.
    Frontier(ByteSet),
    /// `%0`-`%9`, holding the digit byte.
    BackRef(u8),
    /// A single-character class with its repetition.
    Class { set: ByteSet, repeat: Repeat },
    /// The text here is malformed; reaching it raises this error.
    Malformed(PatternError),
}

/// Whether a leading `^` anchors the pattern (`find`, `match`, `gsub`) or is an ordinary byte
/// (`gmatch`, where an anchor would stop the iteration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchoring {
    Allowed,
    Literal,
}

/// A pattern read into items.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub(super) items: Vec<Item>,
    anchored: bool,
    steps: u64,
}

impl Pattern {
    /// Reads `source`. Never fails: a malformed spot becomes an [`Item::Malformed`].
    pub fn new(source: &[u8], anchoring: Anchoring) -> Pattern {
        let anchored = anchoring == Anchoring::Allowed && source.first() == Some(&b'^');
        let mut at = usize::from(anchored);
        let mut items = Vec::new();
        while at < source.len() {
            match read_item(source, at) {
                Ok((item, next)) => {
                    items.push(item);
                    at = next;
                }
                Err(e) => {
                    items.push(Item::Malformed(e));
                    break;
                }
            }
        }
        Pattern {
            items,
            anchored,
            steps: bulk_steps(source.len()),
        }
    }

    /// Whether the pattern began with an anchoring `^`.
    pub(crate) fn is_anchored(&self) -> bool {
        self.anchored
    }

    /// The items, in order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// Steps that reading the pattern cost (charged by whoever compiled it).
    pub(crate) fn compile_steps(&self) -> u64 {
        self.steps
    }
}

/// Reads the item at `at`; returns it and where the next one starts.
fn read_item(src: &[u8], at: usize) -> Result<(Item, usize), PatternError> {
    let next_byte = src.get(at + 1).copied();
    match src[at] {
        b'(' if next_byte == Some(b')') => Ok((Item::Open { position: true }, at + 2)),
        b'(' => Ok((Item::Open { position: false }, at + 1)),
        b')' => Ok((Item::Close, at + 1)),
        b'$' if at + 1 == src.len() => Ok((Item::End, at + 1)),
        b'%' => match next_byte {
            Some(b'b') => match src.get(at + 2..at + 4) {
                Some(&[open, close]) => Ok((Item::Balance { open, close }, at + 4)),
                _ => Err(PatternError::BalanceArguments),
            },
            Some(b'f') => {
                if src.get(at + 2) != Some(&b'[') {
                    return Err(PatternError::FrontierBracket);
                }
                let (set, next) = read_set(src, at + 2)?;
                Ok((Item::Frontier(set), next))
            }
            Some(digit @ b'0'..=b'9') => Ok((Item::BackRef(digit), at + 2)),
            _ => read_class(src, at),
        },
        _ => read_class(src, at),
    }
}

/// Reads a single-character class and its optional repetition suffix.
fn read_class(src: &[u8], at: usize) -> Result<(Item, usize), PatternError> {
    let (set, end) = match src[at] {
        b'.' => (ByteSet::ALL, at + 1),
        b'%' => match src.get(at + 1) {
            Some(&c) => (ByteSet::escape(c), at + 2),
            None => return Err(PatternError::EndsWithPercent),
        },
        b'[' => read_set(src, at)?,
        byte => (ByteSet::single(byte), at + 1),
    };
    let (repeat, next) = match src.get(end) {
        Some(b'*') => (Repeat::Star, end + 1),
        Some(b'+') => (Repeat::Plus, end + 1),
        Some(b'-') => (Repeat::Lazy, end + 1),
        Some(b'?') => (Repeat::Optional, end + 1),
        _ => (Repeat::Once, end),
    };
    Ok((Item::Class { set, repeat }, next))
}

/// Reads the `[set]` whose `[` is at `open`; returns the set and the index after its `]`.
///
/// The closing `]` is found the way Lua finds it: the first byte of the body (after an
/// optional `^`) is never the end, so `[]]` and `[^]]` hold a `]`, and `%` protects the byte
/// after it. The body is then read the way Lua tests it: `%x` escapes, `a-z` ranges (only
/// when the `-` is not the last byte), anything else literal.
fn read_set(src: &[u8], open: usize) -> Result<(ByteSet, usize), PatternError> {
    let negated = src.get(open + 1) == Some(&b'^');
    let first = open + 1 + usize::from(negated);
    let mut at = first;
    let close = loop {
        let Some(&byte) = src.get(at) else {
            return Err(PatternError::MissingBracket);
        };
        at += 1;
        if byte == b'%' && at < src.len() {
            at += 1;
        }
        if src.get(at) == Some(&b']') {
            break at;
        }
    };

    let mut set = ByteSet::default();
    let mut at = first;
    while at < close {
        let byte = src[at];
        if byte == b'%' {
            // `close` itself may be the escaped byte (`[a-%%]`): Lua reads it too.
            at += 1;
            set.insert_all(&ByteSet::escape(src[at]));
        } else if src[at + 1] == b'-' && at + 2 < close {
            for b in byte..=src[at + 2] {
                set.insert(b);
            }
            at += 2;
        } else {
            set.insert(byte);
        }
        at += 1;
    }
    Ok((if negated { set.complement() } else { set }, close + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(p: &str) -> Vec<Item> {
        Pattern::new(p.as_bytes(), Anchoring::Allowed).items
    }

    fn set_of(p: &str) -> Vec<u8> {
        match &items(p)[..] {
            [Item::Class { set, .. }] => (0..=255).filter(|&b| set.contains(b)).collect(),
            other => panic!("{p}: {other:?}"),
        }
    }

    #[test]
    fn items_split_where_lua_splits_them() {
        assert_eq!(
            items("^(a*)()%1$"),
            [
                Item::Open { position: false },
                Item::Class {
                    set: ByteSet::single(b'a'),
                    repeat: Repeat::Star
                },
                Item::Close,
                Item::Open { position: true },
                Item::BackRef(b'1'),
                Item::End,
            ]
        );
        assert!(Pattern::new(b"^x", Anchoring::Allowed).is_anchored());
        assert!(!Pattern::new(b"^x", Anchoring::Literal).is_anchored());
        assert_eq!(items("$a").len(), 2, "a `$` that is not last is a byte");
        assert_eq!(items("%b()*").len(), 2, "a suffix after %b is a byte");
    }

    #[test]
    fn malformed_spots_end_the_list() {
        assert_eq!(
            items("a%").last(),
            Some(&Item::Malformed(PatternError::EndsWithPercent))
        );
        assert_eq!(
            items("[a").last(),
            Some(&Item::Malformed(PatternError::MissingBracket))
        );
        assert_eq!(
            items("[]").last(),
            Some(&Item::Malformed(PatternError::MissingBracket))
        );
        assert_eq!(
            items("%b(").last(),
            Some(&Item::Malformed(PatternError::BalanceArguments))
        );
        assert_eq!(
            items("%fx").last(),
            Some(&Item::Malformed(PatternError::FrontierBracket))
        );
    }

    #[test]
    fn sets_read_as_lua_reads_them() {
        assert_eq!(set_of("[]]"), b"]");
        assert_eq!(set_of("[a-]"), b"-a");
        assert_eq!(set_of("[%a-c]").len(), 53, "letters and '-'");
        assert_eq!(set_of("[a-%%]"), b"]", "an empty range, then `%]`");
        assert_eq!(set_of("[^%w_]").len(), 256 - 63);
        assert_eq!(set_of("%Z").len(), 255);
        assert_eq!(set_of("%q"), b"q");
        assert_eq!(set_of("%p").len(), 32);
    }
}
