//! The script layer's types: an API function's declaration ([`ApiFn`], [`ApiGroup`]) and one
//! call of it ([`Call`]: the machine, the Lua state, the arguments, with argument readers
//! that give Lua-style errors). The table of every function is `script::api`.

use std::ffi::CStr;

use mlua::{IntoLuaMulti, Lua, MultiValue, Value, ffi};

pub(crate) use super::stack::non_finite_name;
pub(crate) use super::stack::type_name;
use super::stack::{self, Args, Plain, plain_at};

use crate::cart::Cart;
use crate::machine::Machine;
use crate::meter::Unit;
use crate::script::args::{Arg, Default, Kind, or_list};
use crate::script::context::CallContext;

/// Result type of API functions.
pub(crate) type LuaResult<T> = mlua::Result<T>;

/// One cart API function.
pub struct ApiFn {
    /// The global it is bound to, or `table.field` for a field of a library table
    /// (`math.random`).
    pub name: &'static str,
    /// The arguments, declared once: the readers (`Call::int_arg`, ...), the docs and the
    /// hostile-argument tests all use this.
    pub args: &'static [Arg],
    /// What it returns, or `""`.
    pub returns: &'static str,
    /// One or two sentences for the docs.
    pub doc: &'static str,
    /// What the call costs on top of the base call cost, in `spec::cost` values; the docs
    /// are rendered from it and a test checks the call charges what it says.
    pub cost: &'static [Cost],
    pub call: fn(&mut Call) -> LuaResult<MultiValue>,
}

/// One part of what an API function costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub cycles: u64,
    /// What it is paid for (`"per bullet"`), or `""` for once per call.
    pub per: &'static str,
    pub unit: Unit,
    /// When it is charged if not during the call (`"each frame"`), else `""`.
    pub later: &'static str,
}

impl Cost {
    /// `cycles` once per call.
    pub const fn call(cycles: u64, unit: Unit) -> Cost {
        Cost::each(cycles, "", unit)
    }

    /// `cycles` for each thing the call does (`per` names it), charged by the call.
    pub const fn each(cycles: u64, per: &'static str, unit: Unit) -> Cost {
        Cost {
            cycles,
            per,
            unit,
            later: "",
        }
    }

    /// `cycles` the unit charges afterwards, `later` saying when (`"each frame"`).
    pub const fn later(cycles: u64, per: &'static str, unit: Unit, later: &'static str) -> Cost {
        Cost {
            cycles,
            per,
            unit,
            later,
        }
    }

    /// Whether the call itself pays it.
    pub fn at_call(&self) -> bool {
        self.later.is_empty()
    }
}

#[cfg(test)]
/// The docs' text for a list of costs: `"0"`, `"1 per cell (video)"`,
/// `"24 (collision) + 1 per cell read (collision)"`, `"0; 512 per frame while set (video)"`.
pub(crate) fn cost_text(costs: &[Cost]) -> String {
    let part = |c: &Cost| {
        let mut text = c.cycles.to_string();
        for words in [c.per, c.later] {
            if !words.is_empty() {
                text.push(' ');
                text.push_str(words);
            }
        }
        format!("{text} ({})", c.unit.name())
    };
    let now: Vec<String> = costs.iter().filter(|c| c.at_call()).map(part).collect();
    let later: Vec<String> = costs.iter().filter(|c| !c.at_call()).map(part).collect();
    let now = if now.is_empty() {
        "0".to_string()
    } else {
        now.join(" + ")
    };
    if later.is_empty() {
        now
    } else {
        format!("{now}; {}", later.join(" + "))
    }
}

/// A table of named integer constants carts read (`COL.GROUND`, `SPR.FLIP_X`).
pub struct ApiConstants {
    /// The global the table is bound to.
    pub name: &'static str,
    pub doc: &'static str,
    pub entries: fn() -> Vec<(&'static str, i64)>,
}

/// A group of API functions (and constant tables) for the docs.
pub struct ApiGroup {
    pub title: &'static str,
    pub intro: &'static str,
    pub functions: &'static [ApiFn],
    pub constants: &'static [ApiConstants],
}

/// One call of an API function: the machine, the cart's data, the Lua state and the
/// arguments. The call context (meter, cap, log) is reached through the Lua state for each
/// use, never held across a call back into Lua.
pub struct Call<'a> {
    pub lua: &'a Lua,
    pub m: &'a mut Machine,
    pub cart: &'a Cart,
    pub name: &'static str,
    /// The function's declared arguments.
    pub spec: &'static [Arg],
    pub(crate) args: Args<'a>,
    /// Results [`Call::ret`] pushed on the Lua stack itself (the direct entry).
    pub(crate) pushed: std::cell::Cell<std::ffi::c_int>,
}

/// Stack slots made ready for an API function's results (mlua checks for more itself when a
/// list of them is longer).
const RESULT_ROOM: std::ffi::c_int = 8;

impl Call<'_> {
    /// An error for this call. It reaches Lua as a string located at the cart's calling
    /// line (the sandbox's `raising` closure adds the location, as `luaL_error` does).
    pub fn error(&self, message: impl std::fmt::Display) -> mlua::Error {
        mlua::Error::runtime(format!("{}: {message}", self.name))
    }

    #[inline]
    fn arg(&self, i: usize) -> Plain<'_> {
        self.args.get(i)
    }

    /// Argument `i` as read in place (nil past the last), whatever it was declared as: for
    /// functions that take any value the way their console does (the PICO-8 layer).
    pub(crate) fn plain(&self, i: usize) -> Plain<'_> {
        self.arg(i)
    }

    /// How many arguments the call was given (trailing nils included).
    pub(crate) fn arg_count(&self) -> usize {
        self.args.count()
    }

    /// The arguments as Lua values, for a function declared with a table or any value
    /// (which the sandbox binds through mlua). Reading them in any other function is a bug
    /// in its declaration, which the API tests find.
    pub(crate) fn values(&self) -> &MultiValue {
        match &self.args {
            Args::Values(values) => values,
            Args::Stack { .. } => panic!(
                "{}: reads its arguments as Lua values, but declares none that needs them (Kind::is_read_in_place)",
                self.name
            ),
        }
    }

    /// Argument `i` as a Lua value (see [`Call::values`]).
    pub(crate) fn value(&self, i: usize) -> Value {
        self.values().get(i).cloned().unwrap_or(Value::Nil)
    }

    /// The bytes of argument `i` if it is a string (read in place; numbers are not converted).
    pub(crate) fn str_bytes(&self, i: usize) -> Option<std::borrow::Cow<'_, [u8]>> {
        match self.arg(i) {
            Plain::String(s) => Some(std::borrow::Cow::Owned(s.as_bytes().to_vec())),
            Plain::Bytes(bytes) => Some(std::borrow::Cow::Borrowed(bytes)),
            _ => None,
        }
    }

    /// Whether argument `i` (0-based) is absent or nil.
    pub(crate) fn is_nil(&self, i: usize) -> bool {
        matches!(self.arg(i), Plain::Nil)
    }

    /// Argument `i` as an integer; floats are floored.
    pub fn int(&self, i: usize, what: &str) -> LuaResult<i64> {
        match self.arg(i) {
            Plain::Integer(n) => Ok(n),
            _ => Ok(self.num(i, what)?.floor() as i64),
        }
    }

    /// Argument `i` as an integer; floats must have an exact integer value (Lua's rule for
    /// functions such as `math.random`).
    pub(crate) fn exact_int(&self, i: usize, what: &str) -> LuaResult<i64> {
        match self.arg(i) {
            Plain::Number(f) if f.is_finite() && f.fract() != 0.0 => Err(self.error(format!(
                "argument {} ({what}) has no integer representation",
                i + 1
            ))),
            _ => self.int(i, what),
        }
    }

    /// Argument `i` as a float. Every number argument of every API function is read here
    /// (or by [`Call::int`], which reads through it): NaN and +-inf are refused.
    pub(crate) fn num(&self, i: usize, what: &str) -> LuaResult<f64> {
        self.arg(i)
            .finite()
            .map_err(|got| self.error(format!("argument {} ({what}) must be {got}", i + 1)))
    }

    /// Runs `f` with a Lua thread and the index on its stack where argument `i` is, if it is
    /// a table; `None` if it is not.
    fn with_table<R>(
        &self,
        i: usize,
        f: impl FnOnce(*mut ffi::lua_State, std::ffi::c_int) -> LuaResult<R>,
    ) -> LuaResult<Option<R>> {
        match &self.args {
            &Args::Stack { state, count, .. } => {
                let at = i as std::ffi::c_int + 1;
                // SAFETY: reading the type of one of the call's arguments.
                if at > count || unsafe { ffi::lua_type(state, at) } != ffi::LUA_TTABLE {
                    return Ok(None);
                }
                f(state, at).map(Some)
            }
            Args::Values(values) => {
                let Some(table @ Value::Table(_)) = values.get(i) else {
                    return Ok(None);
                };
                // SAFETY: the table is pushed on mlua's current thread (the callback's) for
                // `f`, and taken off after.
                self.lua.exec_raw_lua(|raw| unsafe {
                    let state = raw.state();
                    if ffi::lua_checkstack(state, 2) == 0 {
                        return Err(mlua::Error::runtime("stack overflow"));
                    }
                    raw.push_value(table)?;
                    let result = f(state, ffi::lua_gettop(state));
                    ffi::lua_pop(state, 1);
                    result.map(Some)
                })
            }
        }
    }

    /// The fields `keys` of argument `i`, read raw (no metamethod runs) in one protected
    /// call, or `None` when the argument is not a table. A string field is read in place:
    /// it stays there while the table holds it.
    pub(crate) fn table_fields<const N: usize>(
        &self,
        i: usize,
        keys: [&'static CStr; N],
    ) -> LuaResult<Option<[Plain<'_>; N]>> {
        self.with_table(i, |state, index| {
            // SAFETY: `index` is a table on `state`'s stack. The strings read are held by
            // the table, which this call does not change before it uses them.
            unsafe { stack::get_fields(state, index, keys) }
        })
    }

    /// Sets the fields of argument `i`, a table, raw (no metamethod runs), in order, in one
    /// protected call; the values are nil, booleans or numbers. Does nothing when the
    /// argument is not a table.
    pub(crate) fn set_table_fields<const N: usize>(
        &self,
        i: usize,
        fields: [(&'static CStr, Plain<'static>); N],
    ) -> LuaResult<()> {
        self.with_table(i, |state, index| {
            // SAFETY: `index` is a table on `state`'s stack.
            unsafe { stack::set_fields(state, index, fields) }
        })
        .map(|_| ())
    }

    /// `value`, read from field `key` of the table `table_name` names, as a finite float,
    /// `None` when nil (`options.accel must be a number, got string`).
    pub(crate) fn field_num(
        &self,
        table_name: &str,
        key: &str,
        value: &Plain,
    ) -> LuaResult<Option<f64>> {
        match value {
            Plain::Nil => Ok(None),
            value => value
                .finite()
                .map(Some)
                .map_err(|got| self.error(format!("{table_name}.{key} must be {got}"))),
        }
    }

    /// Argument `i` as a boolean (nil and false are false), or `default` when absent.
    fn opt_bool(&self, i: usize, default: bool) -> bool {
        match self.arg(i) {
            Plain::Nil => default,
            Plain::Boolean(b) => b,
            _ => true,
        }
    }

    /// Argument `i` as a string; numbers are converted like Lua's `tostring`.
    pub fn string(&self, i: usize, what: &str) -> LuaResult<String> {
        match self.arg(i) {
            Plain::String(s) => Ok(s.to_string_lossy()),
            Plain::Bytes(bytes) => Ok(String::from_utf8_lossy(bytes).into_owned()),
            Plain::Integer(n) => Ok(n.to_string()),
            Plain::Number(f) => Ok(f.to_string()),
            other => Err(self.error(format!(
                "argument {} ({what}) must be a string, got {}",
                i + 1,
                other.type_name()
            ))),
        }
    }

    /// Argument `i` as an array of at most `max` integers, read without metamethods.
    pub(crate) fn int_list(&self, i: usize, what: &str, max: usize) -> LuaResult<Vec<i64>> {
        let list = self.with_table(i, |state, index| {
            // SAFETY: `index` is a table on `state`'s stack. Its length and items are read raw,
            // which neither allocates nor raises; each item is taken off once read.
            unsafe {
                let len = ffi::lua_rawlen(state, index) as usize;
                if len > max {
                    return Err(self.error(format!("{what} has {len} items; at most {max}")));
                }
                if ffi::lua_checkstack(state, 1) == 0 {
                    return Err(mlua::Error::runtime("stack overflow"));
                }
                (1..=len)
                    .map(|k| {
                        ffi::lua_rawgeti(state, index, k as ffi::lua_Integer);
                        let item = plain_at(state, -1);
                        let n = match item {
                            Plain::Integer(n) => Ok(n),
                            other => other.finite().map(|f| f.floor() as i64),
                        };
                        ffi::lua_pop(state, 1);
                        n.map_err(|got| self.error(format!("item {k} of {what} must be {got}")))
                    })
                    .collect()
            }
        })?;
        list.ok_or_else(|| {
            self.error(format!(
                "argument {} ({what}) must be a table, got {}",
                i + 1,
                self.arg(i).type_name()
            ))
        })
    }

    /// The declaration of argument `i`. Reading an undeclared argument is a bug in the API
    /// table, which the API tests find.
    /// The declared default of argument `i`.
    pub(crate) fn declared_default(&self, i: usize) -> crate::script::args::Default {
        self.declared(i).default
    }

    fn declared(&self, i: usize) -> &'static Arg {
        self.spec.get(i).unwrap_or_else(|| {
            panic!(
                "{}: argument {} is not declared in its ApiFn",
                self.name,
                i + 1
            )
        })
    }

    /// Whether argument `i` is left out (nil) and optional.
    fn left_out(&self, i: usize) -> bool {
        self.is_nil(i) && self.declared(i).is_optional()
    }

    /// Argument `i` as its declared integer (`Int`, `Choice` or `Coord`): its default when
    /// left out, an error outside its range or choices. Panics for an argument declared
    /// without an integer default that is left out: read it with [`Call::opt_int_arg`].
    pub(crate) fn int_arg(&self, i: usize) -> LuaResult<i64> {
        match self.opt_int_arg(i)? {
            Some(n) => Ok(n),
            None => panic!(
                "{}: argument {} ({}) has no integer default: read it with opt_int_arg",
                self.name,
                i + 1,
                self.declared(i).name
            ),
        }
    }

    /// Argument `i` as its declared integer, `None` when left out without an integer default.
    pub(crate) fn opt_int_arg(&self, i: usize) -> LuaResult<Option<i64>> {
        let arg = self.declared(i);
        // Read once: as `left_out` and then `int` would.
        let n = match self.arg(i) {
            Plain::Nil if arg.is_optional() => {
                return Ok(match arg.default {
                    Default::Int(n) => Some(n),
                    _ => None,
                });
            }
            Plain::Integer(n) => n,
            other => match other.finite() {
                Ok(f) => f.floor() as i64,
                Err(got) => return Err(self.not_a_number(i, got)),
            },
        };
        match arg.kind {
            Kind::Int(lo, hi) if !(lo..=hi).contains(&n) => {
                Err(self.out_of_range(i, &n, &format!("{lo}..{hi}")))
            }
            Kind::Choice(values) if !values.contains(&n) => {
                Err(self.out_of_range(i, &n, &or_list(values)))
            }
            Kind::Coord => Ok(Some(n.clamp(-32768, 32767))),
            Kind::Int(..) | Kind::Choice(_) | Kind::Integer => Ok(Some(n)),
            other => self.misdeclared(i, &other, "an integer"),
        }
    }

    /// The error of argument `i` that is not a number: `got` ends the message.
    #[cold]
    #[inline(never)]
    fn not_a_number(&self, i: usize, got: String) -> mlua::Error {
        let name = self.declared(i).name;
        self.error(format!("argument {} ({name}) must be {got}", i + 1))
    }

    /// The error of argument `i`, the number `n`, outside what it `must` be.
    #[cold]
    #[inline(never)]
    fn out_of_range(&self, i: usize, n: &dyn std::fmt::Display, must: &str) -> mlua::Error {
        let name = self.declared(i).name;
        self.error(format!(
            "argument {} ({name}) is {n}, must be {must}",
            i + 1
        ))
    }

    /// A reader used on an argument declared as another kind: a bug in the API function.
    #[cold]
    #[inline(never)]
    fn misdeclared<T>(&self, i: usize, kind: &Kind, read_as: &str) -> T {
        panic!(
            "{}: argument {} is {kind:?}, not {read_as}",
            self.name,
            i + 1
        )
    }

    /// Argument `i` as a position in pixels (declared `Coord`), clamped to -32768..32767.
    pub(crate) fn coord_arg(&self, i: usize) -> LuaResult<i32> {
        Ok(self.int_arg(i)? as i32)
    }

    /// Argument `i` as its declared number: its default when left out, an error outside its
    /// range. Panics for an argument left out without a number default (use
    /// [`Call::opt_num_arg`]).
    pub(crate) fn num_arg(&self, i: usize) -> LuaResult<f64> {
        match self.opt_num_arg(i)? {
            Some(n) => Ok(n),
            None => panic!("{}: argument {} has no number default", self.name, i + 1),
        }
    }

    /// Argument `i` as its declared number, `None` when left out without a number default.
    pub(crate) fn opt_num_arg(&self, i: usize) -> LuaResult<Option<f64>> {
        let arg = self.declared(i);
        // Read once: as `left_out` and then `num` would.
        let n = match self.arg(i) {
            Plain::Nil if arg.is_optional() => {
                return Ok(match arg.default {
                    Default::Num(n) => Some(n),
                    Default::Int(n) => Some(n as f64),
                    _ => None,
                });
            }
            other => other.finite().map_err(|got| self.not_a_number(i, got))?,
        };
        match arg.kind {
            Kind::Num(lo, hi) if !(lo..=hi).contains(&n) => {
                Err(self.out_of_range(i, &n, &arg.kind_text()))
            }
            Kind::Num(..) => Ok(Some(n)),
            other => self.misdeclared(i, &other, "a number"),
        }
    }

    /// Argument `i` as a string (declared `Str`), `None` when left out.
    pub(crate) fn opt_str_arg(&self, i: usize) -> LuaResult<Option<String>> {
        let arg = self.declared(i);
        if self.left_out(i) {
            return Ok(None);
        }
        self.string(i, arg.name).map(Some)
    }

    /// Argument `i` as a required string.
    pub(crate) fn str_arg(&self, i: usize) -> LuaResult<String> {
        let arg = self.declared(i);
        self.string(i, arg.name)
    }

    /// Argument `i` as a boolean (declared `Bool`): its default when left out.
    pub(crate) fn bool_arg(&self, i: usize) -> bool {
        let default = match self.declared(i).default {
            Default::Bool(b) => b,
            _ => false,
        };
        self.opt_bool(i, default)
    }

    /// Charges `cycles` to `unit`; past the cap, stops the script at once with the runaway
    /// error (return it with `?`).
    pub fn charge(&mut self, unit: Unit, cycles: u64) -> LuaResult<()> {
        crate::script::context::charge(self.lua, unit, cycles)
    }

    /// Runs `f` on the call context (the meter, the log, the profiler's collector).
    pub fn context<R>(&self, f: impl FnOnce(&mut CallContext) -> R) -> LuaResult<R> {
        match crate::script::context::lent_context(self.lua) {
            Some(mut context) => Ok(f(&mut context)),
            None => Err(mlua::Error::runtime(format!(
                "{}: the call context is not available",
                self.name
            ))),
        }
    }

    /// Returns values to Lua (always as the function's last step). In the direct entry they
    /// are pushed where results go at once, with no list made; through mlua, as a list.
    pub(crate) fn ret(&self, values: impl IntoLuaMulti) -> LuaResult<MultiValue> {
        let Args::Stack { state, .. } = self.args else {
            return values.into_lua_multi(self.lua);
        };
        // SAFETY: the direct entry runs only while mlua's current thread is `state`, the
        // caller's (`sandbox::enter_directly`), so mlua pushes the values on its stack, above
        // the arguments; room is made first.
        let pushed = self.lua.exec_raw_lua(|raw| unsafe {
            if ffi::lua_checkstack(state, RESULT_ROOM) == 0 {
                return Err(mlua::Error::runtime("stack overflow"));
            }
            values.push_into_stack_multi(raw)
        })?;
        self.pushed.set(self.pushed.get() + pushed);
        Ok(MultiValue::new())
    }
}

/// A Lua number as a finite float; otherwise the end of the message refusing it: `a finite
/// number, got nan` (or `inf`, `-inf`), or `a number, got string`. The one rule for numbers
/// every API function reads.
pub fn finite(value: &Value) -> Result<f64, String> {
    match value {
        Value::Integer(n) => Ok(*n as f64),
        Value::Number(f) if f.is_finite() => Ok(*f),
        Value::Number(f) => Err(format!("a finite number, got {}", non_finite_name(*f))),
        other => Err(format!("a number, got {}", type_name(other))),
    }
}
