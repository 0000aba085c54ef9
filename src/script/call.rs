//! The script layer's types: an API function's declaration ([`ApiFn`], [`ApiGroup`]) and one
//! call of it ([`Call`]: the machine, the Lua state, the arguments, with argument readers
//! that give Lua-style errors). The table of every function is `script::api`.

use mlua::{IntoLuaMulti, Lua, MultiValue, Table, Value, ffi};

use crate::cart::Cart;
use crate::machine::Machine;
use crate::meter::Unit;
use crate::script::args::{Arg, Default, Kind, or_list};
use crate::script::context::CallContext;

/// Result type of API functions.
pub type LuaResult<T> = mlua::Result<T>;

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
    pub args: MultiValue,
}

impl Call<'_> {
    /// An error for this call. It reaches Lua as a string located at the cart's calling
    /// line (the sandbox's `raising` closure adds the location, as `luaL_error` does).
    pub fn error(&self, message: impl std::fmt::Display) -> mlua::Error {
        mlua::Error::runtime(format!("{}: {message}", self.name))
    }

    fn arg(&self, i: usize) -> &Value {
        self.args.get(i).unwrap_or(&Value::Nil)
    }

    /// Whether argument `i` (0-based) is absent or nil.
    pub(crate) fn is_nil(&self, i: usize) -> bool {
        self.arg(i).is_nil()
    }

    /// Argument `i` as an integer; floats are floored.
    pub fn int(&self, i: usize, what: &str) -> LuaResult<i64> {
        match self.arg(i) {
            Value::Integer(n) => Ok(*n),
            _ => Ok(self.num(i, what)?.floor() as i64),
        }
    }

    /// Argument `i` as an integer; floats must have an exact integer value (Lua's rule for
    /// functions such as `math.random`).
    pub(crate) fn exact_int(&self, i: usize, what: &str) -> LuaResult<i64> {
        match self.arg(i) {
            Value::Number(f) if f.is_finite() && f.fract() != 0.0 => Err(self.error(format!(
                "argument {} ({what}) has no integer representation",
                i + 1
            ))),
            _ => self.int(i, what),
        }
    }

    /// Argument `i` as a float. Every number argument of every API function is read here
    /// (or by [`Call::int`], which reads through it): NaN and +-inf are refused.
    pub(crate) fn num(&self, i: usize, what: &str) -> LuaResult<f64> {
        finite(self.arg(i))
            .map_err(|got| self.error(format!("argument {} ({what}) must be {got}", i + 1)))
    }

    /// Field `key` of `table` (read raw, so no metamethod runs) as a finite float, `None`
    /// when nil; `table_name` names the table in messages (`options.accel must be ...`).
    pub(crate) fn field_num(
        &self,
        table: &mlua::Table,
        table_name: &str,
        key: &str,
    ) -> LuaResult<Option<f64>> {
        self.field_value_num(table_name, key, &table.raw_get::<Value>(key)?)
    }

    /// `value`, read from field `key` of the table `table_name` names, as a finite float,
    /// `None` when nil (see [`Call::field_num`]).
    pub(crate) fn field_value_num(
        &self,
        table_name: &str,
        key: &str,
        value: &Value,
    ) -> LuaResult<Option<f64>> {
        match value {
            Value::Nil => Ok(None),
            value => finite(value)
                .map(Some)
                .map_err(|got| self.error(format!("{table_name}.{key} must be {got}"))),
        }
    }

    /// Argument `i` as a boolean (nil and false are false), or `default` when absent.
    fn opt_bool(&self, i: usize, default: bool) -> bool {
        match self.arg(i) {
            Value::Nil => default,
            Value::Boolean(b) => *b,
            _ => true,
        }
    }

    /// Argument `i` as a string; numbers are converted like Lua's `tostring`.
    pub fn string(&self, i: usize, what: &str) -> LuaResult<String> {
        match self.arg(i) {
            Value::String(s) => Ok(s.to_string_lossy()),
            number @ (Value::Integer(_) | Value::Number(_)) => number.to_string(),
            other => Err(self.error(format!(
                "argument {} ({what}) must be a string, got {}",
                i + 1,
                type_name(other)
            ))),
        }
    }

    /// Argument `i` as an array of at most `max` integers, read without metamethods.
    pub(crate) fn int_list(&self, i: usize, what: &str, max: usize) -> LuaResult<Vec<i64>> {
        let Value::Table(table) = self.arg(i) else {
            return Err(self.error(format!(
                "argument {} ({what}) must be a table, got {}",
                i + 1,
                type_name(self.arg(i))
            )));
        };
        let len = table.raw_len();
        if len > max {
            return Err(self.error(format!("{what} has {len} items; at most {max}")));
        }
        (1..=len)
            .map(|k| match table.raw_get::<Value>(k)? {
                Value::Integer(n) => Ok(n),
                other => finite(&other)
                    .map(|f| f.floor() as i64)
                    .map_err(|got| self.error(format!("item {k} of {what} must be {got}"))),
            })
            .collect()
    }

    /// The declaration of argument `i`. Reading an undeclared argument is a bug in the API
    /// table, which the API tests find.
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
        if self.left_out(i) {
            return Ok(match arg.default {
                Default::Int(n) => Some(n),
                _ => None,
            });
        }
        let n = self.int(i, arg.name)?;
        let bad = |must: String| {
            self.error(format!(
                "argument {} ({}) is {n}, must be {must}",
                i + 1,
                arg.name
            ))
        };
        match arg.kind {
            Kind::Int(lo, hi) if !(lo..=hi).contains(&n) => Err(bad(format!("{lo}..{hi}"))),
            Kind::Choice(values) if !values.contains(&n) => Err(bad(or_list(values))),
            Kind::Coord => Ok(Some(n.clamp(-32768, 32767))),
            Kind::Int(..) | Kind::Choice(_) | Kind::Integer => Ok(Some(n)),
            other => panic!(
                "{}: argument {} is {other:?}, not an integer",
                self.name,
                i + 1
            ),
        }
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
        if self.left_out(i) {
            return Ok(match arg.default {
                Default::Num(n) => Some(n),
                Default::Int(n) => Some(n as f64),
                _ => None,
            });
        }
        let n = self.num(i, arg.name)?;
        match arg.kind {
            Kind::Num(lo, hi) if !(lo..=hi).contains(&n) => Err(self.error(format!(
                "argument {} ({}) is {n}, must be {}",
                i + 1,
                arg.name,
                arg.kind_text()
            ))),
            Kind::Num(..) => Ok(Some(n)),
            other => panic!(
                "{}: argument {} is {other:?}, not a number",
                self.name,
                i + 1
            ),
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
        match self.lua.try_app_data_mut::<CallContext>() {
            Ok(Some(mut context)) => Ok(f(&mut context)),
            _ => Err(mlua::Error::runtime(format!(
                "{}: the call context is not available",
                self.name
            ))),
        }
    }

    /// The fields `keys` of `table`, read raw (no metamethod runs), in one protected call:
    /// reading them one by one with `Table::raw_get` would make each key's string in a
    /// protected call of its own, which costs more than the read.
    pub(crate) fn raw_fields<const N: usize>(
        &self,
        table: &Table,
        keys: [&'static str; N],
    ) -> LuaResult<[Value; N]> {
        // SAFETY: `exec_raw` runs this protected with `table` at index 1; each key is pushed
        // and replaced by its value, which stay on the stack as the results.
        let values: MultiValue = unsafe {
            self.lua.exec_raw(table, |state| {
                for key in keys {
                    ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                    ffi::lua_rawget(state, 1);
                }
            })?
        };
        // The first result is the table itself.
        let mut values = values.into_iter().skip(1);
        Ok(std::array::from_fn(|_| values.next().unwrap_or(Value::Nil)))
    }

    /// Sets the fields of `table` named in `fields` raw (no metamethod runs), in order, in
    /// one protected call (see [`Call::raw_fields`]).
    pub(crate) fn set_raw_fields<const N: usize>(
        &self,
        table: &Table,
        fields: [(&'static str, Value); N],
    ) -> LuaResult<()> {
        let keys = fields.each_ref().map(|(key, _)| *key);
        let mut args = MultiValue::with_capacity(N + 1);
        args.push_back(Value::Table(table.clone()));
        args.extend(fields.into_iter().map(|(_, value)| value));
        // SAFETY: `exec_raw` runs this protected with the table at index 1 and the values
        // after it, in the order of `keys`.
        unsafe {
            self.lua.exec_raw::<()>(args, |state| {
                for (i, key) in keys.iter().enumerate() {
                    ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                    ffi::lua_pushvalue(state, 2 + i as std::ffi::c_int);
                    ffi::lua_rawset(state, 1);
                }
                ffi::lua_settop(state, 0);
            })
        }
    }

    /// Returns values to Lua.
    pub(crate) fn ret(&self, values: impl IntoLuaMulti) -> LuaResult<MultiValue> {
        values.into_lua_multi(self.lua)
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

/// How a message names a number that is not finite: `nan`, `inf` or `-inf`.
pub(crate) fn non_finite_name(f: f64) -> &'static str {
    if f.is_nan() {
        "nan"
    } else if f > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Lua's name for the type of `value`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Nil => "nil",
        Value::Boolean(_) => "boolean",
        Value::Integer(_) | Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Table(_) => "table",
        Value::Function(_) => "function",
        Value::Thread(_) => "thread",
        _ => "userdata",
    }
}
