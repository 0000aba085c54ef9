//! The Lua side: [`install`] replaces `string.find`, `string.match`, `string.gmatch` and
//! `string.gsub` with metered versions that return what Lua 5.4's return and raise what they
//! raise.
//!
//! Each is a raw Rust function under a two-line Lua wrapper. The raw function returns
//! `true, results...` or `false, error, level`, and the wrapper raises the error with Lua's
//! own `error`, so a cart's `pcall` receives a plain string (`main.lua:3: malformed pattern
//! (ends with '%')`, located at the calling line exactly as `luaL_error` locates it) or, for
//! an error thrown by a gsub replacement function, the very value that function threw. Host
//! errors (the charge callback's runaway stop, out of memory) pass through as mlua errors.
//!
//! Deviations from Lua, all deliberate:
//! - gsub reads a replacement table with a raw get: a `__index` metamethod is not run (it
//!   would be Lua code run from inside the matcher, outside the cart's view of its cost).
//! - When the cart tail-calls one of these functions (`return s:find(p)`), the calling frame
//!   is gone by the time the error is raised, so the error names the line that called the
//!   function holding the `return`, and an argument error names the function
//!   `'string.find'` rather than `'find'`. Lua, whose C functions run before the caller's
//!   frame is dropped, names the `return` line.
//! - An error thrown by a gsub replacement function is caught and thrown again, so the Lua
//!   traceback of that error starts at the gsub call, not inside the function (its message,
//!   which carries the function's own line, is unchanged).
//! - A gsub result longer than [`MAX_RESULT`] bytes fails with "not enough memory" before it
//!   is built (Lua would build it in Lua memory, which the cart's memory limit caps).

use std::ops::Range;

use mlua::{Function, Integer, Lua, LuaString, MultiValue, Table, Value};

use super::args::{Args, Fail, type_name};
use super::error::{MatchError, PatternError};
use super::matcher::{Capture, Matcher, find_plain};
use super::meter::{Meter, bulk_steps};
use super::pattern::{Anchoring, Pattern};
use super::replace::Template;
use crate::spec::LUA_MEMORY_LIMIT;

/// The longest string gsub builds: the cart's whole Lua memory.
pub(crate) const MAX_RESULT: usize = LUA_MEMORY_LIMIT;

/// Bytes whose presence makes `find` match a pattern rather than search plainly.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// The wrappers. `check` runs as a tail call, so level 2 of `error` is the cart's frame that
/// called `string.find`, the frame `luaL_error` names from inside a C function.
const GLUE: &str = r#"
local find, match, gmatch, step, gsub, string = ...
local error = error
local function check(ok, ...)
  if ok then return ... end
  error(...)
end
-- The iteration's state lives here, in Lua: `at` is where the next search starts, `last`
-- where the last match ended (-1: none).
local function iterator(ok, s, p, at)
  if not ok then error(s, p) end
  local last = -1
  local function advance(ok, next_at, next_last, ...)
    if not ok then error(next_at, next_last) end
    if next_at == nil then return end
    at, last = next_at, next_last
    return ...
  end
  return function() return advance(step(s, p, at, last)) end
end
string.find = function(...) return check(find(...)) end
string.match = function(...) return check(match(...)) end
string.gmatch = function(...) return iterator(gmatch(...)) end
string.gsub = function(...) return check(gsub(...)) end
"#;

/// The meter a Lua call runs with.
type LuaMeter<'a> = Meter<&'a mut dyn FnMut(u64) -> mlua::Result<()>>;

/// Replaces `find`, `match`, `gmatch` and `gsub` in the `string` table (which the string
/// metatable indexes, so `s:find(p)` uses them too). `charge(lua, steps)` is called with the
/// steps each call used, in batches of [`super::CHARGE_EVERY`] and once more at its end; an
/// error from it stops the match at once and is raised as is. Run this before any cart code:
/// it captures the `pcall` and `error` globals.
pub fn install<F>(lua: &Lua, charge: F) -> mlua::Result<()>
where
    F: Fn(&Lua, u64) -> mlua::Result<()> + Clone + 'static,
{
    let globals = lua.globals();
    let string: Table = globals.get("string")?;
    let pcall: Function = globals.get("pcall")?;
    let find = raw(lua, charge.clone(), |args, meter| {
        find_or_match(args, meter, true)
    })?;
    let matching = raw(lua, charge.clone(), |args, meter| {
        find_or_match(args, meter, false)
    })?;
    let gmatch = raw(lua, charge.clone(), gmatch)?;
    let step = raw(lua, charge.clone(), gmatch_step)?;
    let gsub = raw(lua, charge, move |args, meter| gsub(args, meter, &pcall))?;
    lua.load(GLUE)
        .set_name("=strmatch")
        .call((find, matching, gmatch, step, gsub, string))
}

/// A raw function: runs `body` with the call's arguments and a meter, charges what is left
/// on the meter, and answers in the wrapper's `ok, ...` convention.
fn raw<F, B>(lua: &Lua, charge: F, body: B) -> mlua::Result<Function>
where
    F: Fn(&Lua, u64) -> mlua::Result<()> + 'static,
    B: Fn(&Args, &mut LuaMeter) -> Result<MultiValue, Fail> + 'static,
{
    lua.create_function(move |lua, mut values: MultiValue| {
        let args = Args {
            lua,
            values: values.make_contiguous(),
        };
        // A call of the matcher costs its own entry before any step.
        charge(
            lua,
            crate::spec::cost::PATTERN_CALL.div_ceil(crate::spec::cost::PATTERN_STEP),
        )?;
        let mut charge_steps = |steps| charge(lua, steps);
        let mut meter: LuaMeter = Meter::new(&mut charge_steps);
        let result = body(&args, &mut meter);
        let flushed = meter.flush();
        let result = match (result, flushed) {
            (Err(Fail::Host(e)), _) => Err(Fail::Host(e)),
            (_, Err(e)) => Err(e.into()),
            (result, Ok(())) => result,
        };
        let mut out = match result {
            Ok(values) => values,
            Err(Fail::Host(e)) => return Err(e),
            Err(Fail::Message(message)) => {
                let message = lua.create_string(message)?;
                return Ok(MultiValue::from_vec(vec![
                    Value::Boolean(false),
                    Value::String(message),
                    Value::Integer(2),
                ]));
            }
            Err(Fail::Value(value)) => {
                return Ok(MultiValue::from_vec(vec![
                    Value::Boolean(false),
                    value,
                    Value::Integer(0),
                ]));
            }
        };
        out.push_front(Value::Boolean(true));
        Ok(out)
    })
}

impl From<MatchError<mlua::Error>> for Fail {
    fn from(e: MatchError<mlua::Error>) -> Self {
        match e {
            MatchError::Pattern(e) => Fail::Message(e.to_string()),
            MatchError::Charge(e) => Fail::Host(e),
        }
    }
}

impl From<PatternError> for Fail {
    fn from(e: PatternError) -> Self {
        Fail::Message(e.to_string())
    }
}

/// `posrelatI(pos, len) - 1`: a 1-based start, negative from the end, clipped below, as a
/// 0-based index (which may lie past the end).
fn start_index(pos: Integer, len: usize) -> usize {
    if pos > 0 {
        usize::try_from(pos - 1).unwrap_or(usize::MAX)
    } else if pos == 0 || pos < -(len as Integer) {
        0
    } else {
        len - pos.unsigned_abs() as usize
    }
}

/// Appends captures to `out`: strings for text, integers for positions.
fn push_captures(
    lua: &Lua,
    subject: &[u8],
    captures: Vec<Capture>,
    meter: &mut LuaMeter,
    out: &mut MultiValue,
) -> Result<(), Fail> {
    for capture in captures {
        out.push_back(capture_value(lua, subject, capture, meter)?);
    }
    Ok(())
}

fn capture_value(
    lua: &Lua,
    subject: &[u8],
    capture: Capture,
    meter: &mut LuaMeter,
) -> Result<Value, Fail> {
    Ok(match capture {
        Capture::Text(range) => {
            meter.step(bulk_steps(range.len()))?;
            Value::String(lua.create_string(&subject[range])?)
        }
        Capture::Position(position) => Value::Integer(position as Integer),
    })
}

fn nil() -> MultiValue {
    MultiValue::from_vec(vec![Value::Nil])
}

/// `string.find(s, pattern [, init [, plain]])` and `string.match(s, pattern [, init])`.
fn find_or_match(args: &Args, meter: &mut LuaMeter, find: bool) -> Result<MultiValue, Fail> {
    let subject = args.string(1)?;
    let pattern = args.string(2)?;
    let (subject, pattern) = (subject.as_bytes(), pattern.as_bytes());
    let init = start_index(args.opt_integer(3, 1)?, subject.len());
    if init > subject.len() {
        return Ok(nil());
    }
    if find && (args.truthy(4) || !pattern.iter().any(|b| SPECIALS.contains(b))) {
        return Ok(match find_plain(&subject, &pattern, init, meter)? {
            Some(at) => MultiValue::from_vec(vec![
                Value::Integer(at as Integer + 1),
                Value::Integer((at + pattern.len()) as Integer),
            ]),
            None => nil(),
        });
    }
    let pattern = Pattern::new(&pattern, Anchoring::Allowed);
    meter.step(pattern.compile_steps())?;
    let mut matcher = Matcher::new(&subject, &pattern);
    let Some(found) = matcher.search(init, meter)? else {
        return Ok(nil());
    };
    let mut out = MultiValue::new();
    if find {
        out.push_back(Value::Integer(found.start as Integer + 1));
        out.push_back(Value::Integer(found.end as Integer));
    }
    let captures = matcher.captures(found, !find)?;
    push_captures(args.lua, &subject, captures, meter, &mut out)?;
    Ok(out)
}

/// `string.gmatch(s, pattern [, init])`: checks the arguments and charges the pattern's
/// compilation; answers the subject, the pattern and the 0-based start for the Lua side,
/// which keeps the iteration's state (no Rust closure outlives the call).
fn gmatch(args: &Args, meter: &mut LuaMeter) -> Result<MultiValue, Fail> {
    let subject = args.string(1)?;
    let pattern = args.string(2)?;
    let len = subject.as_bytes().len();
    let init = start_index(args.opt_integer(3, 1)?, len).min(len + 1);
    meter.step(Pattern::new(&pattern.as_bytes(), Anchoring::Literal).compile_steps())?;
    Ok(MultiValue::from_vec(vec![
        Value::String(subject),
        Value::String(pattern),
        Value::Integer(init as Integer),
    ]))
}

/// One gmatch iteration: `(subject, pattern, at, last)` to the next search start, the end
/// of this match and its captures, or nothing when there is no more match. A match ending
/// where the last one ended (an empty match right after it) is skipped, Lua 5.4's
/// `lastmatch` rule. The pattern was charged when the iteration began.
fn gmatch_step(args: &Args, meter: &mut LuaMeter) -> Result<MultiValue, Fail> {
    let subject = args.string(1)?;
    let pattern = args.string(2)?;
    let at = usize::try_from(args.opt_integer(3, 0)?).unwrap_or(usize::MAX);
    let last = usize::try_from(args.opt_integer(4, -1)?).ok();
    let subject = subject.as_bytes();
    let pattern = Pattern::new(&pattern.as_bytes(), Anchoring::Literal);
    let mut matcher = Matcher::new(&subject, &pattern);
    for start in at..=subject.len() {
        if let Some(end) = matcher.match_at(start, meter)?
            && Some(end) != last
        {
            let mut out = MultiValue::new();
            out.push_back(Value::Integer(end as Integer));
            out.push_back(Value::Integer(end as Integer));
            push_captures(
                args.lua,
                &subject,
                matcher.captures(start..end, true)?,
                meter,
                &mut out,
            )?;
            return Ok(out);
        }
    }
    Ok(MultiValue::new())
}

/// gsub's third argument.
enum Replacement {
    /// A string (or number): a template, and the text it was read from.
    Text(Template, LuaString),
    /// A table indexed (raw) by the first capture.
    Lookup(Table),
    /// A function called with the captures.
    Call(Function),
}

/// `string.gsub(s, pattern, repl [, n])`.
fn gsub(args: &Args, meter: &mut LuaMeter, pcall: &Function) -> Result<MultiValue, Fail> {
    let subject_value = args.string(1)?;
    let pattern = args.string(2)?;
    let subject = subject_value.as_bytes();
    let max = args.opt_integer(4, subject.len() as Integer + 1)?;
    let replacement = match args.get(3) {
        Some(Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            let text = args.string(3)?;
            Replacement::Text(Template::new(&text.as_bytes()), text)
        }
        Some(Value::Table(table)) => Replacement::Lookup(table.clone()),
        Some(Value::Function(function)) => Replacement::Call(function.clone()),
        _ => return Err(args.type_error(3, "string/function/table")),
    };
    let pattern = Pattern::new(&pattern.as_bytes(), Anchoring::Allowed);
    meter.step(pattern.compile_steps())?;
    let mut matcher = Matcher::new(&subject, &pattern);
    let mut out = Output::default();
    let (mut at, mut last, mut count, mut changed) = (0, None, 0, false);
    while count < max {
        match matcher.match_at(at, meter)? {
            Some(end) if Some(end) != last => {
                count += 1;
                let call = Substitution {
                    lua: args.lua,
                    subject: &subject,
                    whole: at..end,
                    matcher: &matcher,
                    pcall,
                };
                changed |= call.apply(&replacement, meter, &mut out)?;
                at = end;
                last = Some(end);
            }
            _ if at < subject.len() => {
                out.append(&subject[at..=at], meter)?;
                at += 1;
            }
            _ => break,
        }
        if pattern.is_anchored() {
            break;
        }
    }
    let result = if changed {
        out.append(&subject[at..], meter)?;
        args.lua.create_string(&out.bytes)?
    } else {
        subject_value.clone()
    };
    Ok(MultiValue::from_vec(vec![
        Value::String(result),
        Value::Integer(count),
    ]))
}

/// gsub's result as it grows, metered and bounded by [`MAX_RESULT`].
#[derive(Default)]
struct Output {
    bytes: Vec<u8>,
}

impl Output {
    fn append(&mut self, data: &[u8], meter: &mut LuaMeter) -> Result<(), Fail> {
        if self.bytes.len() + data.len() > MAX_RESULT {
            return Err(Fail::Host(mlua::Error::MemoryError(
                "not enough memory".to_string(),
            )));
        }
        meter.step(bulk_steps(data.len()))?;
        self.bytes.extend_from_slice(data);
        Ok(())
    }
}

/// One match of a gsub, about to be replaced.
struct Substitution<'a> {
    lua: &'a Lua,
    subject: &'a [u8],
    whole: Range<usize>,
    matcher: &'a Matcher<'a>,
    pcall: &'a Function,
}

impl Substitution<'_> {
    /// Appends the replacement; false when a table or function gave nil or false and the
    /// match was kept as it was.
    fn apply(
        &self,
        replacement: &Replacement,
        meter: &mut LuaMeter,
        out: &mut Output,
    ) -> Result<bool, Fail> {
        let value = match replacement {
            Replacement::Text(template, text) => {
                template.expand(
                    &text.as_bytes(),
                    self.subject,
                    self.whole.clone(),
                    self.matcher,
                    |piece| out.append(piece, meter),
                )?;
                return Ok(true);
            }
            Replacement::Lookup(table) => {
                let key = self.matcher.capture(0, self.whole.clone())?;
                let key = capture_value(self.lua, self.subject, key, meter)?;
                table.raw_get::<Value>(key)?
            }
            Replacement::Call(function) => {
                let mut call = MultiValue::new();
                call.push_back(Value::Function(function.clone()));
                let captures = self.matcher.captures(self.whole.clone(), true)?;
                push_captures(self.lua, self.subject, captures, meter, &mut call)?;
                // The function's own instructions are charged by the count hook; ours first.
                meter.flush()?;
                let mut results = self.pcall.call::<MultiValue>(call)?;
                let ok = matches!(results.pop_front(), Some(Value::Boolean(true)));
                let value = results.pop_front().unwrap_or(Value::Nil);
                match (ok, value) {
                    (true, value) => value,
                    (false, Value::Error(e)) => return Err(Fail::Host(*e)),
                    (false, thrown) => return Err(Fail::Value(thrown)),
                }
            }
        };
        match value {
            Value::Nil | Value::Boolean(false) => {
                out.append(&self.subject[self.whole.clone()], meter)?;
                Ok(false)
            }
            Value::String(_) | Value::Integer(_) | Value::Number(_) => {
                let text = self.lua.coerce_string(value)?.unwrap_or_else(|| {
                    unreachable!("Lua turns every string and number into a string")
                });
                out.append(&text.as_bytes(), meter)?;
                Ok(true)
            }
            other => Err(Fail::Message(format!(
                "invalid replacement value (a {})",
                type_name(&other)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_index_clips_as_lua_does() {
        assert_eq!(start_index(1, 5), 0);
        assert_eq!(start_index(0, 5), 0);
        assert_eq!(start_index(-2, 5), 3);
        assert_eq!(start_index(-5, 5), 0);
        assert_eq!(start_index(-6, 5), 0);
        assert_eq!(start_index(Integer::MIN, 5), 0);
        assert_eq!(start_index(7, 5), 6);
        assert_eq!(start_index(Integer::MAX, 5), Integer::MAX as usize - 1);
    }
}
