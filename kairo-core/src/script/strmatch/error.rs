//! What can go wrong in a match: the pattern (or a gsub replacement) is malformed, or the meter
//! refused more steps. The texts are Lua 5.4's, byte for byte (`lstrlib.c`), because carts see
//! them and may compare them.

use thiserror::Error;

/// A pattern or replacement error, raised when the matcher reaches the bad spot (as Lua does:
/// `string.find("abc", "x%")` finds nothing and raises nothing, since no `x` is ever followed
/// by the trailing `%`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PatternError {
    #[error("malformed pattern (ends with '%')")]
    EndsWithPercent,
    #[error("malformed pattern (missing ']')")]
    MissingBracket,
    #[error("malformed pattern (missing arguments to '%b')")]
    BalanceArguments,
    #[error("missing '[' after '%f' in pattern")]
    FrontierBracket,
    /// `%N` naming a capture that does not exist (or is still open); the number is Lua's.
    #[error("invalid capture index %{0}")]
    CaptureIndex(i32),
    #[error("invalid pattern capture")]
    InvalidCapture,
    #[error("unfinished capture")]
    UnfinishedCapture,
    #[error("too many captures")]
    TooManyCaptures,
    /// More than [`super::MAX_DEPTH`] nested backtracking points.
    #[error("pattern too complex")]
    TooComplex,
    #[error("invalid use of '%' in replacement string")]
    Replacement,
}

/// Why a match stopped without an answer.
#[derive(Debug, PartialEq, Eq)]
pub enum MatchError<E> {
    /// The pattern (or replacement) is malformed.
    Pattern(PatternError),
    /// The meter's charge callback failed (the script ran out of cycles); its error, as is.
    Charge(E),
}

impl<E> From<PatternError> for MatchError<E> {
    fn from(e: PatternError) -> Self {
        MatchError::Pattern(e)
    }
}
