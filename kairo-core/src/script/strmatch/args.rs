//! Arguments checked and coerced the way Lua's `lauxlib` does for the string library, with
//! its messages: `bad argument #2 to 'find' (string expected, got nil)`, `calling 'find' on
//! bad self (...)`, `number has no integer representation`.
//!
//! The raw functions here run under a small Lua wrapper (see `lua.rs`), so the function the
//! cart called sits one level up the stack: its name and how it was called (as a method or
//! not) are read there, just as `luaL_argerror` reads them for a C function.

use mlua::{Function, Integer, LightUserData, Lua, LuaString, Number, Table, Thread, Value};

pub(crate) use crate::script::call::type_name;

/// How a call ends when it does not return normally.
pub enum Fail {
    /// A Lua error message, raised as a string at the cart's calling line (what
    /// `luaL_error` does).
    Message(String),
    /// A Lua value raised by Lua code we called (a gsub replacement function), raised again
    /// unchanged.
    Value(Value),
    /// An error of the host (the charge callback's runaway stop, out of memory), passed on
    /// as an mlua error.
    Host(mlua::Error),
}

impl From<mlua::Error> for Fail {
    fn from(e: mlua::Error) -> Self {
        Fail::Host(e)
    }
}

/// The arguments of one call.
pub struct Args<'a> {
    pub lua: &'a Lua,
    pub values: &'a [Value],
}

impl Args<'_> {
    /// Argument `n` (1-based), `None` past the last one given.
    pub fn get(&self, n: usize) -> Option<&Value> {
        self.values.get(n - 1)
    }

    /// `luaL_checklstring`: a string, or a number turned into one.
    pub fn string(&self, n: usize) -> Result<LuaString, Fail> {
        match self.get(n) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(v @ (Value::Integer(_) | Value::Number(_))) => self
                .lua
                .coerce_string(v.clone())?
                .ok_or_else(|| self.type_error(n, "string")),
            _ => Err(self.type_error(n, "string")),
        }
    }

    /// `luaL_optinteger`: `default` when absent or nil, else an integer or a float or string
    /// with an exact integer value.
    pub(crate) fn opt_integer(&self, n: usize, default: Integer) -> Result<Integer, Fail> {
        let value = match self.get(n) {
            None | Some(Value::Nil) => return Ok(default),
            Some(Value::Integer(i)) => return Ok(*i),
            Some(value) => value.clone(),
        };
        if let Some(i) = self.lua.coerce_integer(value.clone())? {
            return Ok(i);
        }
        if self.lua.coerce_number(value)?.is_some() {
            return Err(self.arg_error(n, "number has no integer representation"));
        }
        Err(self.type_error(n, "number"))
    }

    /// `lua_toboolean`: anything but nil, false and absence.
    pub(crate) fn truthy(&self, n: usize) -> bool {
        !matches!(self.get(n), None | Some(Value::Nil | Value::Boolean(false)))
    }

    /// `luaL_typeerror`: `<expected> expected, got <type>`, the type named by a `__name`
    /// metafield if the value has one.
    pub(crate) fn type_error(&self, n: usize, expected: &str) -> Fail {
        let got = match self.get(n) {
            None => "no value".to_string(),
            Some(value) => match meta_name(self.lua, value) {
                Some(name) => name,
                None if matches!(value, Value::LightUserData(_)) => "light userdata".to_string(),
                None => type_name(value).to_string(),
            },
        };
        self.arg_error(n, &format!("{expected} expected, got {got}"))
    }

    /// `luaL_argerror`, naming the function as Lua would.
    pub(crate) fn arg_error(&self, n: usize, extra: &str) -> Fail {
        let caller = self.lua.inspect_stack(1, |d| {
            let names = d.names();
            (
                names.name.map(|s| s.into_owned()),
                names.name_what == Some("method"),
                d.function(),
            )
        });
        let Some((name, method, function)) = caller else {
            return Fail::Message(format!("bad argument #{n} ({extra})"));
        };
        let mut n = n;
        if method {
            n -= 1;
            if n == 0 {
                let name = name.unwrap_or_default();
                return Fail::Message(format!("calling '{name}' on bad self ({extra})"));
            }
        }
        let name = name
            .or_else(|| global_name(self.lua, &function))
            .unwrap_or_else(|| "?".to_string());
        Fail::Message(format!("bad argument #{n} to '{name}' ({extra})"))
    }
}

/// The string `__name` field of `value`'s metatable, read raw, as `luaL_typeerror` reads it.
fn meta_name(lua: &Lua, value: &Value) -> Option<String> {
    let name: Value = match value {
        Value::UserData(ud) => ud.metatable().ok()?.get("__name").ok()?,
        other => {
            let metatable: Table = match other {
                Value::Table(t) => t.metatable(),
                Value::Boolean(_) => lua.type_metatable::<bool>(),
                Value::Integer(_) | Value::Number(_) => lua.type_metatable::<Number>(),
                Value::String(_) => lua.type_metatable::<LuaString>(),
                Value::Function(_) => lua.type_metatable::<Function>(),
                Value::Thread(_) => lua.type_metatable::<Thread>(),
                Value::LightUserData(_) => lua.type_metatable::<LightUserData>(),
                _ => None,
            }?;
            metatable.raw_get("__name").ok()?
        }
    };
    match name {
        Value::String(s) => Some(s.to_string_lossy()),
        _ => None,
    }
}

/// Where `function` sits among the loaded modules (`string.find`), as lauxlib's
/// `pushglobalfuncname` finds it: two levels deep in `package.loaded`, in `next` order, with
/// a leading `_G.` dropped.
fn global_name(lua: &Lua, function: &Function) -> Option<String> {
    let loaded: Table = lua.named_registry_value("_LOADED").ok()?;
    let target = function.to_pointer();
    for pair in loaded.pairs::<Value, Value>() {
        let (Value::String(module), value) = pair.ok()? else {
            continue;
        };
        let module = module.to_string_lossy();
        if value.to_pointer() == target {
            return Some(module);
        }
        let Value::Table(table) = value else {
            continue;
        };
        for pair in table.pairs::<Value, Value>() {
            if let (Value::String(field), value) = pair.ok()?
                && value.to_pointer() == target
            {
                let full = format!("{module}.{}", field.to_string_lossy());
                return Some(match full.strip_prefix("_G.") {
                    Some(global) => global.to_string(),
                    None => full,
                });
            }
        }
    }
    None
}
