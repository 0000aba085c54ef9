//! Lua 5.4 pattern matching, metered. Lua's own `string.find`, `match`, `gmatch` and `gsub`
//! are one C call each: the count hook that charges the script unit never fires inside them,
//! so `string.find(("a"):rep(1e5), ("a*"):rep(50) .. "b")` would backtrack for minutes,
//! uncharged and unstoppable. This module answers exactly what `lstrlib.c` answers (results,
//! errors and their texts) while counting its work in steps and handing them to a charge
//! callback that may stop it.
//!
//! - [`pattern`]: the pattern text read once into items ([`Pattern`]);
//! - [`matcher`]: the backtracking matcher over bytes ([`Matcher`]), its depth bounded as
//!   Lua bounds it ("pattern too complex") without using the host stack;
//! - [`meter`]: steps and the charge callback ([`Meter`]);
//! - [`replace`]: gsub's replacement strings;
//! - [`install`]: the Lua functions (argument checks and messages in `args`).
//!
//! Semantics: Lua 5.4 manual §6.4.1 and `lua/src/lstrlib.c`.

mod args;
pub mod error;
mod lua;
pub mod matcher;
pub mod meter;
pub mod pattern;
pub mod replace;

pub use error::{MatchError, PatternError};
pub use lua::install;
pub use pattern::Pattern;
