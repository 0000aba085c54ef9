//! Reading a C function's arguments and a table's fields in place on the Lua stack, with
//! Kairo's Lua helpers (`lua_plainargs`, `lua_rawgetfields`, `lua_rawsetfields` in
//! `lua/README.md`, item 8): what the sandbox's direct entry gives an API call instead of
//! mlua's converted values.

use std::ffi::CStr;

use mlua::{MultiValue, Value, ffi};

/// Where a call's arguments are read from.
pub(crate) enum Args<'a> {
    /// Converted by mlua: functions that take any Lua value (see
    /// [`Kind::is_read_in_place`](super::args::Kind::is_read_in_place)), and every call made
    /// inside a coroutine.
    Values(MultiValue),
    /// Read in place from the calling Lua stack, slots 1..=`count` (the sandbox's direct
    /// entry), the first [`READ_AT_ONCE`] of them in one call. Valid for the call: the
    /// arguments stay on the stack until it returns.
    Stack {
        state: *mut ffi::lua_State,
        count: std::ffi::c_int,
        /// The first ones, read at once (see [`read_plain_args`]).
        first: &'a [LuaPlain],
    },
}

/// Arguments the direct entry reads in one call; the rest are read one by one.
pub(crate) const READ_AT_ONCE: usize = 12;

/// One argument as Kairo's Lua copies it (`lua_Plain` in `lua/src/lua.h`).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct LuaPlain {
    kind: std::ffi::c_int,
    integer: std::ffi::c_int,
    i: i64,
    n: f64,
    s: *const std::ffi::c_char,
    len: usize,
}

unsafe extern "C-unwind" {
    /// Kairo's Lua: copies the running C function's arguments 1..=`n` into `out` and
    /// the first `nlight` upvalues' light userdata into `light`, and returns the count.
    fn lua_plainargs(
        state: *mut ffi::lua_State,
        n: std::ffi::c_int,
        out: *mut LuaPlain,
        light: *mut *mut std::ffi::c_void,
        nlight: std::ffi::c_int,
    ) -> std::ffi::c_int;
    /// Kairo's Lua: reads `n` fields of the table at `index` raw, protected.
    fn lua_rawgetfields(
        state: *mut ffi::lua_State,
        index: std::ffi::c_int,
        n: std::ffi::c_int,
        keys: *const *const std::ffi::c_char,
        out: *mut LuaPlain,
    ) -> std::ffi::c_int;
    /// Kairo's Lua: sets `n` fields of the table at `index` raw, protected.
    fn lua_rawsetfields(
        state: *mut ffi::lua_State,
        index: std::ffi::c_int,
        n: std::ffi::c_int,
        keys: *const *const std::ffi::c_char,
        values: *const LuaPlain,
    ) -> std::ffi::c_int;
}

impl LuaPlain {
    const NIL: LuaPlain = LuaPlain {
        kind: ffi::LUA_TNIL,
        integer: 0,
        i: 0,
        n: 0.0,
        s: std::ptr::null(),
        len: 0,
    };

    /// The value it describes.
    ///
    /// # Safety
    /// A string it describes is still where Lua keeps it, for `'a`.
    #[inline]
    unsafe fn plain<'a>(&self) -> Plain<'a> {
        match self.kind {
            ffi::LUA_TNIL => Plain::Nil,
            ffi::LUA_TBOOLEAN => Plain::Boolean(self.i != 0),
            ffi::LUA_TNUMBER if self.integer != 0 => Plain::Integer(self.i),
            ffi::LUA_TNUMBER => Plain::Number(self.n),
            // SAFETY: as the caller says.
            ffi::LUA_TSTRING => {
                Plain::Bytes(unsafe { std::slice::from_raw_parts(self.s.cast(), self.len) })
            }
            other => Plain::Other(lua_type_name(other)),
        }
    }

    /// `value` to be set as a field: nil, a boolean or a number. Anything else is a bug in
    /// the API function setting it.
    fn to_set(value: Plain) -> LuaPlain {
        match value {
            Plain::Nil => LuaPlain::NIL,
            Plain::Boolean(b) => LuaPlain {
                kind: ffi::LUA_TBOOLEAN,
                i: i64::from(b),
                ..LuaPlain::NIL
            },
            Plain::Integer(i) => LuaPlain {
                kind: ffi::LUA_TNUMBER,
                integer: 1,
                i,
                ..LuaPlain::NIL
            },
            Plain::Number(n) => LuaPlain {
                kind: ffi::LUA_TNUMBER,
                n,
                ..LuaPlain::NIL
            },
            other => panic!("only nil, booleans and numbers are set as fields, not {other:?}"),
        }
    }
}

/// The value at stack slot `at` of `state`, read without converting or allocating.
///
/// # Safety
/// `at` is a valid index of `state`'s stack; a string read stays in place while it is there.
pub(crate) unsafe fn plain_at<'a>(state: *mut ffi::lua_State, at: std::ffi::c_int) -> Plain<'a> {
    // SAFETY: as the caller says; none of these reads converts or allocates.
    unsafe {
        match ffi::lua_type(state, at) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Plain::Nil,
            ffi::LUA_TBOOLEAN => Plain::Boolean(ffi::lua_toboolean(state, at) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(state, at) != 0 => {
                Plain::Integer(ffi::lua_tointeger(state, at))
            }
            ffi::LUA_TNUMBER => Plain::Number(ffi::lua_tonumber(state, at)),
            ffi::LUA_TSTRING => {
                let mut len = 0;
                let bytes = ffi::lua_tolstring(state, at, &mut len);
                Plain::Bytes(std::slice::from_raw_parts(bytes.cast(), len))
            }
            other => Plain::Other(lua_type_name(other)),
        }
    }
}

/// Runs one of Kairo's Lua field functions (`lua_rawgetfields`, `lua_rawsetfields`) on
/// `state`, turning a failure into the error it raised.
///
/// # Safety
/// `state` is a running thread of the sandbox; `run` calls one of those functions on it.
unsafe fn run_fields(
    state: *mut ffi::lua_State,
    run: impl FnOnce() -> std::ffi::c_int,
) -> mlua::Result<()> {
    // SAFETY: as the caller says; an error leaves at most its message above `top`.
    unsafe {
        let top = ffi::lua_gettop(state);
        let status = run();
        if status == ffi::LUA_OK {
            return Ok(());
        }
        let message = if ffi::lua_gettop(state) > top {
            let mut len = 0;
            let text = ffi::lua_tolstring(state, -1, &mut len);
            let message = match text.is_null() {
                true => "error in error handling".to_string(),
                false => String::from_utf8_lossy(std::slice::from_raw_parts(text.cast(), len))
                    .into_owned(),
            };
            ffi::lua_settop(state, top);
            message
        } else {
            "not enough memory".to_string()
        };
        Err(match status {
            ffi::LUA_ERRMEM => mlua::Error::MemoryError(message),
            _ => mlua::Error::runtime(message),
        })
    }
}

/// Room for the arguments read at once.
pub(crate) type PlainArgs = [std::mem::MaybeUninit<LuaPlain>; READ_AT_ONCE];

/// The arguments of the C function running on `state`, read in place, the first ones into
/// `room`, and its first `N` upvalues as light userdata (null for any other value).
///
/// # Safety
/// `state` is running a C function, whose arguments stay on its stack while the returned
/// value is used.
pub(crate) unsafe fn read_plain_args<const N: usize>(
    state: *mut ffi::lua_State,
    room: &mut PlainArgs,
) -> (Args<'_>, [*mut std::ffi::c_void; N]) {
    let mut light = [std::ptr::null_mut(); N];
    // SAFETY: as the caller says; at most the stack's values are read, into `room`, which
    // holds that many, and `N` pointers into `light`.
    unsafe {
        let count = lua_plainargs(
            state,
            READ_AT_ONCE as std::ffi::c_int,
            room.as_mut_ptr().cast(),
            light.as_mut_ptr(),
            N as std::ffi::c_int,
        );
        let read = count.min(READ_AT_ONCE as std::ffi::c_int);
        let args = Args::Stack {
            state,
            count,
            first: std::slice::from_raw_parts(room.as_ptr().cast(), read as usize),
        };
        (args, light)
    }
}

/// One argument (or field) as the readers see it, without converting it: a string is read
/// in place.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plain<'a> {
    Nil,
    Boolean(bool),
    Integer(i64),
    Number(f64),
    String(&'a mlua::LuaString),
    Bytes(&'a [u8]),
    /// Anything else, by Lua's name for its type.
    Other(&'static str),
}

impl Plain<'_> {
    /// As a finite float, or the end of the message refusing it (as [`super::call::finite`]).
    pub(crate) fn finite(&self) -> Result<f64, String> {
        match *self {
            Plain::Integer(n) => Ok(n as f64),
            Plain::Number(f) if f.is_finite() => Ok(f),
            Plain::Number(f) => Err(format!("a finite number, got {}", non_finite_name(f))),
            Plain::Nil => Err("a number, got nil".into()),
            Plain::Boolean(_) => Err("a number, got boolean".into()),
            Plain::String(_) | Plain::Bytes(_) => Err("a number, got string".into()),
            Plain::Other(name) => Err(format!("a number, got {name}")),
        }
    }

    /// Lua's name for its type.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Plain::Nil => "nil",
            Plain::Boolean(_) => "boolean",
            Plain::Integer(_) | Plain::Number(_) => "number",
            Plain::String(_) | Plain::Bytes(_) => "string",
            Plain::Other(name) => name,
        }
    }
}

impl Args<'_> {
    /// Argument `i` (0-based) as the readers see it; nil when absent.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Plain<'_> {
        match self {
            Args::Values(values) => match values.get(i) {
                None | Some(Value::Nil) => Plain::Nil,
                Some(Value::Boolean(b)) => Plain::Boolean(*b),
                Some(Value::Integer(n)) => Plain::Integer(*n),
                Some(Value::Number(f)) => Plain::Number(*f),
                Some(Value::String(s)) => Plain::String(s),
                Some(other) => Plain::Other(type_name(other)),
            },
            Args::Stack {
                state,
                count,
                first,
            } => {
                if i >= *count as usize {
                    return Plain::Nil;
                }
                if let Some(read) = first.get(i) {
                    // SAFETY: a string argument is in place while it is on the stack.
                    return unsafe { read.plain() };
                }
                // SAFETY: slot `i + 1` is one of the call's arguments, on the stack for the
                // whole call.
                unsafe { plain_at(*state, i as std::ffi::c_int + 1) }
            }
        }
    }

    /// How many arguments the call was given (trailing nils included).
    pub(crate) fn count(&self) -> usize {
        match self {
            Args::Values(values) => values.len(),
            Args::Stack { count, .. } => *count as usize,
        }
    }
}

/// The fields `keys` of the table at `index` on `state`'s stack, read raw in one protected
/// call.
///
/// # Safety
/// `index` is a table on the stack of `state`, a running thread of the sandbox; a string read
/// stays in place while the table holds it, for `'a`.
pub(crate) unsafe fn get_fields<'a, const N: usize>(
    state: *mut ffi::lua_State,
    index: std::ffi::c_int,
    keys: [&'static CStr; N],
) -> mlua::Result<[Plain<'a>; N]> {
    // C strings: Kairo's Lua finds a key it met before by its address, without hashing.
    let keys = keys.map(CStr::as_ptr);
    let mut out = [LuaPlain::NIL; N];
    // SAFETY: as the caller says; `out` has room for the `N` fields `keys` name.
    unsafe {
        run_fields(state, || {
            lua_rawgetfields(
                state,
                index,
                N as std::ffi::c_int,
                keys.as_ptr(),
                out.as_mut_ptr(),
            )
        })?;
        Ok(out.map(|read| read.plain()))
    }
}

/// Sets the fields of the table at `index` on `state`'s stack raw, in order, in one
/// protected call; the values are nil, booleans or numbers.
///
/// # Safety
/// `index` is a table on the stack of `state`, a running thread of the sandbox.
pub(crate) unsafe fn set_fields<const N: usize>(
    state: *mut ffi::lua_State,
    index: std::ffi::c_int,
    fields: [(&'static CStr, Plain<'static>); N],
) -> mlua::Result<()> {
    let keys = fields.map(|(key, _)| key.as_ptr());
    let values = fields.map(|(_, value)| LuaPlain::to_set(value));
    // SAFETY: as the caller says; the arrays hold `N` fields.
    unsafe {
        run_fields(state, || {
            lua_rawsetfields(
                state,
                index,
                N as std::ffi::c_int,
                keys.as_ptr(),
                values.as_ptr(),
            )
        })
    }
}

/// Lua's name for a type that is not nil, a boolean, a number or a string.
fn lua_type_name(kind: std::ffi::c_int) -> &'static str {
    match kind {
        ffi::LUA_TTABLE => "table",
        ffi::LUA_TFUNCTION => "function",
        ffi::LUA_TTHREAD => "thread",
        _ => "userdata",
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
pub(crate) fn type_name(value: &Value) -> &'static str {
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
