//! `gsub`'s replacement string: its text is copied, `%0` stands for the whole match, `%1`-`%9`
//! for the captures (`%1` is the whole match when the pattern has no captures) and `%%` for a
//! `%`. Any other byte after `%`, or a `%` at the end, is an error, raised only when a
//! match reaches it, as in Lua.

use std::ops::Range;

use super::error::PatternError;
use super::matcher::{Capture, Matcher};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// These bytes of the replacement.
    Text(Range<usize>),
    /// `%0`.
    Whole,
    /// `%1`-`%9`, 0-based.
    Capture(usize),
    /// A `%` not followed by a digit or `%`; nothing after it is ever used.
    Invalid,
}

/// A replacement string, split into its pieces.
#[derive(Clone, Debug)]
pub(crate) struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    pub fn new(text: &[u8]) -> Template {
        let mut pieces = Vec::new();
        let mut at = 0;
        while let Some(offset) = text[at..].iter().position(|&b| b == b'%') {
            let percent = at + offset;
            if percent > at {
                pieces.push(Piece::Text(at..percent));
            }
            match text.get(percent + 1) {
                Some(b'%') => pieces.push(Piece::Text(percent + 1..percent + 2)),
                Some(b'0') => pieces.push(Piece::Whole),
                Some(&digit @ b'1'..=b'9') => {
                    pieces.push(Piece::Capture(usize::from(digit - b'1')))
                }
                _ => {
                    pieces.push(Piece::Invalid);
                    return Template { pieces };
                }
            }
            at = percent + 2;
        }
        if at < text.len() {
            pieces.push(Piece::Text(at..text.len()));
        }
        Template { pieces }
    }

    /// Hands the replacement for the match `whole` of `subject` (whose captures `matcher`
    /// holds) to `emit`, piece by piece, so the caller can meter and bound what it builds;
    /// `text` is the replacement string this template was made from.
    pub(crate) fn expand<E: From<PatternError>>(
        &self,
        text: &[u8],
        subject: &[u8],
        whole: Range<usize>,
        matcher: &Matcher,
        mut emit: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        for piece in &self.pieces {
            match piece {
                Piece::Text(range) => emit(&text[range.clone()])?,
                Piece::Whole => emit(&subject[whole.clone()])?,
                Piece::Capture(index) => match matcher.capture(*index, whole.clone())? {
                    Capture::Text(range) => emit(&subject[range])?,
                    Capture::Position(position) => emit(position.to_string().as_bytes())?,
                },
                Piece::Invalid => return Err(PatternError::Replacement.into()),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_escapes_and_stops_at_a_bad_one() {
        assert_eq!(
            Template::new(b"a%%b%0%2c").pieces,
            [
                Piece::Text(0..1),
                Piece::Text(2..3),
                Piece::Text(3..4),
                Piece::Whole,
                Piece::Capture(1),
                Piece::Text(8..9)
            ]
        );
        assert_eq!(
            Template::new(b"x%ay").pieces,
            [Piece::Text(0..1), Piece::Invalid]
        );
        assert_eq!(Template::new(b"x%").pieces.last(), Some(&Piece::Invalid));
    }
}
