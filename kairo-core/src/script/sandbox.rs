//! The cart's Lua state: Lua 5.4 with only the safe libraries (no `io`, `os`, `package`,
//! `debug`, no `load`/`dofile`/`loadfile`, no binary chunks), a memory limit, `require` over
//! the cart's own Lua files, and the cart API bound from its table — nothing else.
//!
//! The budget cannot be escaped: the count hook charges every Lua instruction to the call
//! context (kept apart from the machine, so it is reachable whatever an API call borrowed)
//! and stops the script past its cap, in metamethods, string callbacks, sort comparators and
//! coroutines alike. Where Lua would run cart code with its hook switched off, the sandbox
//! closes the door: a runaway stop skips `xpcall` message handlers, and metatables with a
//! `__gc` field are refused (finalizers run unhooked). The work of Lua's library and VM that
//! no instruction pays for (a long string made or read, values moved, a full collection) is
//! counted by Kairo's Lua itself (`lua/README.md`) and charged through [`charge_work`],
//! which stops the script at the cap part way through the work; pattern matching
//! (`string.find`, `match`, `gmatch`, `gsub`) is Kairo's own metered matcher
//! ([`super::strmatch`]), charged per step and stopped at the cap mid-match.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use std::ffi::c_int;

use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, MultiValue, StdLib, Table, Value, VmState, ffi};

use super::api::{PICO8_API, all_constants, all_functions};
use super::call::{ApiFn, Call, LuaResult};
use super::context;
use super::heap::{Heap, WORK_KINDS, lua_takework};
use super::stack::{Args, PlainArgs, READ_AT_ONCE, read_plain_args};
use crate::cart::Cart;
use crate::meter::Unit;
use crate::spec::{
    LUA_HOOK_INTERVAL, WORK_CHARGE_EVERY, WORK_GC_MARK, WORK_LIBRARY_ITEMS, WORK_SCAN_BYTES,
    WORK_STACK_MOVES, WORK_STRING_BYTES, cost,
};

/// Registry key of the table of modules loaded by `require`.
const LOADED: &str = "kairo.loaded";
/// Registry key of Lua's own `tostring`, kept for `log` whatever the cart does to the global.
pub(crate) const TOSTRING: &str = "kairo.tostring";

/// PICO-8's functions that are plain Lua over Kairo's: its math (angles in turns, y up for
/// `sin` and `atan2`), its table helpers (`all` goes on past the item just deleted), strings,
/// time. What the layer does not have yet raises an error naming it. It ends with the frame
/// driver (`flip`), whose two functions it returns for the console (`Script::pico8_boot`,
/// `Script::pico8_step`).
const PICO8_PRELUDE: &str = include_str!("pico8_prelude.lua");

/// Lua run once after the API is bound: closes the remaining ways out of the sandbox and
/// out of the budget.
const PRELUDE: &str = r#"
local stopped = ...
local raw_pcall, raw_xpcall, raw_resume, raw_gc = pcall, xpcall, coroutine.resume, collectgarbage
local raw_close, raw_setmetatable, raw_rawget, raw_type = coroutine.close, setmetatable, rawget, type
local raw_error, raw_tostring = error, tostring
local function check(ok, ...)
  if not ok and stopped() then raw_error((...), 0) end
  return ok, ...
end
pcall = function(f, ...) return check(raw_pcall(f, ...)) end
-- A message handler runs with Lua's hook off when the error came from the hook itself (a
-- runaway stop), so it is not run then.
xpcall = function(f, handler, ...)
  local function guarded(e)
    if stopped() then return e end
    return handler(e)
  end
  return check(raw_xpcall(f, guarded, ...))
end
coroutine.resume = function(co, ...) return check(raw_resume(co, ...)) end
coroutine.close = function(co) return check(raw_close(co)) end
-- Finalizers run with Lua's hook off, so nothing could stop one that loops.
setmetatable = function(t, mt)
  if raw_type(mt) == "table" and raw_rawget(mt, "__gc") ~= nil then
    raw_error("setmetatable: __gc finalizers are not available on Kairo (they would run outside the cycle budget)", 2)
  end
  return raw_setmetatable(t, mt)
end
local gc_options = { collect = true, count = true, step = true, isrunning = true }
collectgarbage = function(option, ...)
  if option == nil or gc_options[option] then return raw_gc(option, ...) end
  raw_error("collectgarbage: option '" .. raw_tostring(option) .. "' is not available on Kairo", 2)
end
-- One C call each, as long as their input: charged by size before they run.
dofile, loadfile, load, string.dump = nil, nil, nil, nil
"#;

/// Builds the sandboxed Lua state for `cart`.
pub fn build(cart: Arc<Cart>) -> LuaResult<Heap> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let heap = Heap::new(libs)?;
    let lua = heap.lua();
    let globals = lua.globals();
    lua.set_named_registry_value(TOSTRING, globals.get::<Function>("tostring")?)?;

    let state = heap.raw_state() as usize;
    // A PICO-8 cart has PICO-8's names; Kairo's API is in its table `kairo`.
    let pico8 = cart.pico8.is_some();
    let kairo_api = if pico8 {
        let table = lua.create_table()?;
        globals.set("kairo", table.clone())?;
        table
    } else {
        globals.clone()
    };
    for api in all_functions() {
        let function = bind(lua, api, cart.clone(), state)?;
        match api.name.split_once('.') {
            Some((table, field)) if pico8 => {
                let library = match kairo_api.get::<Option<Table>>(table)? {
                    Some(library) => library,
                    None => {
                        let library = lua.create_table()?;
                        kairo_api.set(table, library.clone())?;
                        library
                    }
                };
                library.set(field, function)?
            }
            Some((table, field)) => globals.get::<Table>(table)?.set(field, function)?,
            None => kairo_api.set(api.name, function)?,
        }
    }
    for constants in all_constants() {
        let table = lua.create_table()?;
        for (name, value) in (constants.entries)() {
            table.set(name, value)?;
        }
        kairo_api.set(constants.name, table)?;
    }
    if pico8 {
        for api in PICO8_API.iter().flat_map(|group| group.functions.iter()) {
            globals.set(api.name, bind(lua, api, cart.clone(), state)?)?;
        }
    }
    globals.set("require", raising(lua, require_function(lua, cart)?)?)?;

    // Lua's own `xpcall`, before the prelude wraps it: the PICO-8 frame driver's message
    // handler is Kairo's (a traceback), so it may run even on a runaway stop.
    let raw_xpcall: Function = globals.get("xpcall")?;
    let stopped = lua.create_function(|lua, ()| Ok(context::is_stopped(lua)))?;
    lua.load(PRELUDE).set_name("=kairo").call::<()>(stopped)?;
    if pico8 {
        // SAFETY: `traceback` follows the Lua C API (see below).
        let traceback = unsafe { lua.create_c_function(traceback) }?;
        let (boot, step, missing): (Function, Function, Function) = lua
            .load(PICO8_PRELUDE)
            .set_name("=pico8")
            .call((raw_xpcall, traceback))?;
        lua.set_named_registry_value(super::PICO8_BOOT, boot)?;
        lua.set_named_registry_value(super::PICO8_STEP, step)?;
        for name in crate::pico8::MISSING {
            globals.set(*name, missing.call::<Function>(*name)?)?;
        }
    }
    // After the prelude: the matcher keeps the wrapped `pcall`, which does not swallow a stop.
    super::strmatch::install(lua, |lua, steps| {
        charge_for_cart(lua, cost::PATTERN_STEP * steps)
    })?;

    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(LUA_HOOK_INTERVAL),
        move |lua, debug| count_instructions(lua, debug, state as *mut ffi::lua_State),
    )?;
    lua.set_named_registry_value(LOADED, lua.create_table()?)?;
    library_functions_in_the_heap(lua)?;
    // The memory limit is the heap's own (spec::LUA_MEMORY_LIMIT).
    heap.seal()?;
    number_the_carts_objects_apart(lua)?;
    // Last: what the sandbox did while being built is not the cart's work.
    heap.take_work();
    heap.set_work_meter(charge_work, &work_costs(), WORK_CHARGE_EVERY);
    // Counting moves into Lua; the count hook above charges when the count is due.
    heap.set_instruction_meter(
        LUA_HOOK_INTERVAL,
        u64::from(LUA_HOOK_INTERVAL) * cost::LUA_INSTRUCTION,
    );
    Ok(heap)
}

/// The PICO-8 frame driver's message handler: a string error gets the traceback of the
/// coroutine it was raised in (which the driver's own rethrow would lose); any other error
/// value is passed on as it is.
unsafe extern "C-unwind" fn traceback(state: *mut ffi::lua_State) -> std::ffi::c_int {
    // SAFETY: called by Lua as a C function with the error value at index 1.
    unsafe {
        if ffi::lua_type(state, 1) == ffi::LUA_TSTRING {
            let message = ffi::lua_tostring(state, 1);
            ffi::luaL_traceback(state, state, message, 1);
        } else {
            ffi::lua_settop(state, 1);
        }
    }
    1
}

/// The creation number of the first object the cart makes (`lua/README.md`). The sandbox
/// makes about 440 objects first; numbering the cart's from a fixed place keeps the
/// numbers — and so `pairs` order over tables and functions, and what `tostring` shows for
/// them — unchanged when Kairo's API or mlua gains or loses an object.
pub const FIRST_CART_OBJECT: u32 = 0x1_0000;

unsafe extern "C-unwind" {
    /// Kairo's Lua (`lua/src/lapi.c`): numbers the objects made from now on from `first`;
    /// returns the number the next object would have had.
    fn lua_numberobjectsfrom(
        state: *mut ffi::lua_State,
        first: std::ffi::c_uint,
    ) -> std::ffi::c_uint;
}

/// Numbers the objects made from here on from [`FIRST_CART_OBJECT`].
fn number_the_carts_objects_apart(lua: &Lua) -> LuaResult<()> {
    let mut made_by_kairo = 0;
    // SAFETY: the function only reads and sets a counter in the state's global data.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            made_by_kairo = lua_numberobjectsfrom(state, FIRST_CART_OBJECT);
        })?;
    }
    if made_by_kairo > FIRST_CART_OBJECT {
        return Err(mlua::Error::runtime(format!(
            "the sandbox made {made_by_kairo} objects, more than the {FIRST_CART_OBJECT} numbers kept for it"
        )));
    }
    Ok(())
}

/// The libraries whose C functions [`library_functions_in_the_heap`] replaces.
const LIBRARIES: [&str; 5] = ["string", "table", "math", "utf8", "coroutine"];

/// Replaces every light C function in the globals and the libraries (`print`, `math.sin`...)
/// with a C closure of the same function. Kairo's Lua (`lua/README.md`) hashes a function
/// used as a table key by its creation number; a light C function is no object and has none
/// (its address moves with every run and platform), so all of them hash to one chain, which
/// is deterministic but slow for a table keyed by many. A closure is an object with its own
/// number, hashed like any Lua function. The closure's one upvalue (nil) is never read: the
/// function behaves exactly as before.
fn library_functions_in_the_heap(lua: &Lua) -> LuaResult<()> {
    let globals = lua.globals();
    let mut tables = vec![globals.clone()];
    for name in LIBRARIES {
        tables.push(globals.get::<Table>(name)?);
    }
    for table in tables {
        // SAFETY: `exec_raw` runs this protected with `table` at index 1; `lua_next` walks it
        // while only existing fields change value, which Lua allows.
        unsafe {
            lua.exec_raw::<()>(table, |state| {
                ffi::lua_pushnil(state);
                while ffi::lua_next(state, 1) != 0 {
                    if ffi::lua_iscfunction(state, -1) != 0 {
                        if !ffi::lua_getupvalue(state, -1, 1).is_null() {
                            // A closure already: drop the upvalue lua_getupvalue pushed.
                            ffi::lua_pop(state, 1);
                        } else if let Some(function) = ffi::lua_tocfunction(state, -1) {
                            ffi::lua_pushvalue(state, -2);
                            ffi::lua_pushnil(state);
                            ffi::lua_pushcclosure(state, function, 1);
                            ffi::lua_rawset(state, 1);
                        }
                    }
                    ffi::lua_pop(state, 1);
                }
            })?;
        }
    }
    Ok(())
}

/// Marks the results of a Rust function that failed: [`raising`] raises them as a Lua
/// error.
static RAISE: u8 = 0;

/// What a Rust function under [`raising`] returns to fail with `error`: a plain Lua string
/// (never an mlua error object, which would own Rust memory inside the Lua heap), located
/// at the calling line when `level` is 1, as `luaL_error` locates.
pub fn raised(lua: &Lua, error: &mlua::Error, level: i64) -> LuaResult<MultiValue> {
    let message = lua.create_string(lua_message(error))?;
    Ok(MultiValue::from_vec(vec![
        Value::LightUserData(mlua::LightUserData(
            std::ptr::from_ref(&RAISE).cast_mut().cast(),
        )),
        Value::String(message),
        Value::Integer(level),
    ]))
}

/// The text a Lua error would carry for `error`: its message without mlua's decoration.
fn lua_message(error: &mlua::Error) -> String {
    match error {
        mlua::Error::RuntimeError(text) => match text.find("\nstack traceback:") {
            Some(at) => text[..at].to_string(),
            None => text.clone(),
        },
        mlua::Error::MemoryError(_) => "not enough memory".to_string(),
        mlua::Error::CallbackError { cause, .. } => lua_message(cause),
        mlua::Error::WithContext { cause, .. } => lua_message(cause),
        other => other.to_string(),
    }
}

/// Puts `function` (a Rust function that reports failure with [`raised`]) under a C
/// closure that raises those failures with Lua's own `lua_error`.
pub(crate) fn raising(lua: &Lua, function: Function) -> LuaResult<Function> {
    // SAFETY: `exec_raw` runs the closure protected, with `function` on the stack.
    unsafe {
        lua.exec_raw(function, |state| {
            ffi::lua_pushcclosure(state, raise_failures, 1);
        })
    }
}

/// Calls upvalue 1 with the arguments and returns its results, unless they are a
/// [`raised`] failure: then raises its message as a Lua string.
unsafe extern "C-unwind" fn raise_failures(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua as a C closure made by `raising`, whose upvalue 1 is the function.
    unsafe { call_raising(state, ffi::lua_upvalueindex(1)) }
}

/// Calls the function at `index` (a Rust function that reports failure with [`raised`])
/// with the running C function's arguments and returns its results, or raises its failure
/// located at the running C function's caller.
///
/// # Safety
/// Called from a C function Lua is running, with nothing to drop: `lua_error` leaves its
/// frame by a long jump.
unsafe fn call_raising(state: *mut ffi::lua_State, index: c_int) -> c_int {
    // SAFETY: as the caller says.
    unsafe {
        let args = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, index);
        ffi::lua_insert(state, 1);
        ffi::lua_call(state, args, ffi::LUA_MULTRET);
        let results = ffi::lua_gettop(state);
        if results == 3
            && ffi::lua_type(state, 1) == ffi::LUA_TLIGHTUSERDATA
            && std::ptr::eq(ffi::lua_touserdata(state, 1).cast::<u8>(), &RAISE)
        {
            let level = ffi::lua_tointeger(state, 3) as c_int;
            ffi::lua_settop(state, 2);
            if level > 0 {
                ffi::luaL_where(state, level);
                ffi::lua_insert(state, 2);
                ffi::lua_concat(state, 2);
            }
            ffi::lua_error(state)
        }
        results
    }
}

/// Wraps an API function as a Lua function that charges the call and lends it the machine.
/// A function whose arguments are all read in place
/// ([`Kind::is_read_in_place`](super::args::Kind::is_read_in_place)) gets the direct entry
/// ([`enter_directly`]); the others, and every call made inside a coroutine, go through an
/// mlua callback.
fn bind(lua: &Lua, api: &'static ApiFn, cart: Arc<Cart>, state: usize) -> LuaResult<Function> {
    // The callback owns a clone of the cart, which lives as long as the Lua state: the
    // direct entry, which keeps the callback as an upvalue, may point at the cart.
    let cart_at = Arc::as_ptr(&cart);
    let through_mlua = mlua_entry(lua, api, cart, state)?;
    if !api.args.iter().all(|arg| arg.kind.is_read_in_place()) {
        return raising(lua, through_mlua);
    }
    // SAFETY: `exec_raw` runs this protected with the mlua entry at index 1; the closure's
    // upvalues are the function's declaration, the cart (both outlive the state, above) and
    // the mlua entry.
    unsafe {
        lua.exec_raw(through_mlua, |state| {
            ffi::lua_pushlightuserdata(state, std::ptr::from_ref(api).cast_mut().cast());
            ffi::lua_pushlightuserdata(state, cart_at.cast_mut().cast());
            ffi::lua_rotate(state, 1, -1);
            ffi::lua_pushcclosure(state, enter_directly, 3);
        })
    }
}

/// An API function as an mlua callback that reports failure with [`raised`] (to be called
/// through [`call_raising`]).
fn mlua_entry(
    lua: &Lua,
    api: &'static ApiFn,
    cart: Arc<Cart>,
    state: usize,
) -> LuaResult<Function> {
    let (name, call, spec) = (api.name, api.call, api.args);
    lua.create_function(move |lua, args: MultiValue| {
        let Some(mut machine) = context::lent_machine(lua) else {
            return raised(lua, &busy(name), 1);
        };
        // SAFETY: `state` is this Lua's main thread, alive as long as the Lua; the call only
        // reads and updates a counter in its global data.
        let pending = unsafe { lua_takework(state as *mut ffi::lua_State) };
        let before = match enter_call(lua, pending) {
            Ok(before) => before,
            Err(e) => return raised(lua, &e, 1),
        };
        let result = call(&mut Call {
            lua,
            m: &mut machine,
            cart: &cart,
            name,
            spec,
            args: Args::Values(args),
            pushed: Default::default(),
        });
        match leave_call(lua, before, result) {
            Ok(values) => Ok(values),
            Err(e) => raised(lua, &e, 1),
        }
    })
}

/// The error of an API call made while another has the machine.
fn busy(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "{name}: the machine is busy (called from inside another API call)"
    ))
}

/// Charges what comes after an API call: an error costs its message and the unwinding, on
/// top of the call; when profiling, the call's cost goes to the cart function that made it.
fn leave_call(
    lua: &Lua,
    before: Option<(u64, u64)>,
    result: LuaResult<MultiValue>,
) -> LuaResult<MultiValue> {
    let result =
        result.or_else(|e| context::charge(lua, Unit::Script, cost::API_ERROR).and(Err(e)));
    if let Some(mark) = before {
        attribute_call(lua, mark);
    }
    result
}

thread_local! {
    /// A panic caught in the direct entry, which cannot unwind through Lua's C frames: it is
    /// raised there as a Lua error and resumed by [`resume_panic`] once Lua has returned.
    static PANIC: std::cell::Cell<Option<Box<dyn std::any::Any + Send>>> =
        const { std::cell::Cell::new(None) };
}

/// Resumes a panic of an API function caught in the direct entry (see [`PANIC`]), now that
/// the Lua call that ran it has returned.
pub(crate) fn resume_panic() {
    if let Some(panic) = PANIC.take() {
        std::panic::resume_unwind(panic);
    }
}

/// The direct entry of an API function whose arguments are plain: one C call, the
/// arguments read in place from the stack ([`Args::Stack`]), the results pushed on it.
/// Upvalues: the [`ApiFn`], the [`Cart`], the same function's mlua entry ([`mlua_entry`]).
///
/// mlua's own stack inspection (a runaway stop's location, the profiler) reads the thread
/// mlua is running, which is this one unless the call comes from a coroutine: such calls go
/// through the mlua entry, which switches to the coroutine.
unsafe extern "C-unwind" fn enter_directly(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua as the C closure made by `bind`, whose upvalues are as above.
    // Every Rust value is gone before `lua_error` long-jumps out of this frame, but for the
    // message while Lua copies it (leaked if Lua runs out of memory doing so).
    unsafe {
        let lua = super::heap::lua_of(state);
        if !lua.exec_raw_lua(|raw| raw.state() == state) {
            return call_raising(state, ffi::lua_upvalueindex(3));
        }
        let mut room: PlainArgs = [const { std::mem::MaybeUninit::uninit() }; READ_AT_ONCE];
        let (args, [api, cart]) = read_plain_args(state, &mut room);
        let api = &*api.cast::<ApiFn>();
        let cart = &*cart.cast::<Cart>();
        let run = std::panic::AssertUnwindSafe(|| call_directly(lua, state, api, cart, args));
        let message = match std::panic::catch_unwind(run) {
            Ok(Ok(results)) => return results,
            Ok(Err(message)) => message,
            Err(panic) => {
                PANIC.set(Some(panic));
                format!("{}: internal error", api.name)
            }
        };
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        drop(message);
        ffi::luaL_where(state, 1);
        ffi::lua_insert(state, -2);
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}

/// Makes one call of `api` with its arguments on `state`'s stack, as the mlua entry does,
/// and pushes its results: their number, or the message of the error to raise.
fn call_directly(
    lua: &Lua,
    state: *mut ffi::lua_State,
    api: &'static ApiFn,
    cart: &Cart,
    args: Args,
) -> Result<c_int, String> {
    let Some(mut machine) = context::lent_machine(lua) else {
        return Err(lua_message(&busy(api.name)));
    };
    // SAFETY: `state` is a thread of this Lua; the work count is a counter in its global
    // data.
    let pending = unsafe { lua_takework(state) };
    let before = enter_call(lua, pending).map_err(|e| lua_message(&e))?;
    let mut call = Call {
        lua,
        m: &mut machine,
        cart,
        name: api.name,
        spec: api.args,
        args,
        pushed: Default::default(),
    };
    let result = (api.call)(&mut call);
    let pushed = call.pushed.get();
    drop(call);
    drop(machine);
    let values = leave_call(lua, before, result).map_err(|e| lua_message(&e))?;
    if values.is_empty() {
        return Ok(pushed);
    }
    // A list the function made itself, not through `Call::ret` (none does today): pushed by
    // mlua on its current thread, which the direct entry checked is `state`.
    // SAFETY: mlua pushes on its current thread, making room first.
    let listed =
        lua.exec_raw_lua(|raw| unsafe { mlua::IntoLuaMulti::push_into_stack_multi(values, raw) });
    Ok(pushed + listed.map_err(|e| lua_message(&e))?)
}

/// Charges what comes before an API call, with the call context borrowed once: the library
/// work counted since the last charge (`pending`, the caller's: when profiling, given to the
/// cart function that made the call), then the call's base cost. Returns, when profiling, the
/// script cycles and attributed cycles from before both, for [`attribute_call`].
fn enter_call(lua: &Lua, pending: u64) -> LuaResult<Option<(u64, u64)>> {
    {
        let Some(mut context) = context::lent_context(lua) else {
            return Ok(None);
        };
        let mark = context.profile.sampling.then(|| {
            (
                context.meter.cycles().get(Unit::Script),
                context.profile.attributed(),
            )
        });
        if pending > 0 && context.profile.sampling {
            context.profile.sample_stack(lua, 0, pending);
        }
        let past = context.charge(Unit::Script, pending)
            || context.stopped.is_some()
            || context.charge(Unit::Script, cost::API_CALL);
        if !past {
            return Ok(mark);
        }
    }
    Err(context::stopping(lua))
}

/// Gives the call's script cost (and anything it charged to the script unit) to the Lua
/// function that made the call.
fn attribute_call(lua: &Lua, (script, attributed): (u64, u64)) {
    if let Some(mut context) = context::lent_context(lua) {
        let placed = context.profile.attributed() - attributed;
        let cycles = context.meter.cycles().get(Unit::Script) - script - placed;
        // Level 0 is the API function; C functions are passed over up to the caller.
        context.profile.sample_stack(lua, 1, cycles);
    }
}

/// The count hook: charges the script unit (and, when profiling, the running function) and
/// stops a call that passes its cap.
fn count_instructions(
    lua: &Lua,
    debug: &mlua::debug::Debug,
    state: *mut ffi::lua_State,
) -> LuaResult<VmState> {
    // SAFETY: `state` is the main thread of this Lua state, alive while its hook runs; the
    // call only reads and updates a counter in the state's global data.
    let work = unsafe { lua_takework(state) };
    let cycles = u64::from(LUA_HOOK_INTERVAL) * cost::LUA_INSTRUCTION + work;
    if let Some(mut context) = context::lent_context(lua)
        && context.profile.sampling
    {
        context.profile.sample(lua, debug, cycles);
    }
    context::charge(lua, Unit::Script, cycles)?;
    Ok(VmState::Continue)
}

/// What each kind of work Kairo's Lua counts costs, in 1/1024 cycles per unit
/// (`LUA_WORK_*` in `lua/src/lua.h`), from the cost table.
pub(crate) fn work_costs() -> [u32; WORK_KINDS] {
    let per = |cycles: u64, units: u64| (1024 * cycles / units) as u32;
    [
        per(cost::STRING_BYTES, WORK_STRING_BYTES),
        per(cost::SCAN_BYTES, WORK_SCAN_BYTES),
        per(cost::LIBRARY_ITEMS, WORK_LIBRARY_ITEMS),
        per(cost::GC_MARK, WORK_GC_MARK),
        per(cost::STACK_MOVES, WORK_STACK_MOVES),
    ]
}

/// Called by Kairo's Lua when the work its library and VM counted is due: charges it to
/// the cart function at work and, past the cap, raises the runaway stop there, part way
/// through the work. While an API call has the call context borrowed (Lua code it runs
/// counts work too), the work stays counted for the next charge.
unsafe extern "C-unwind" fn charge_work(state: *mut ffi::lua_State) {
    let past = {
        // SAFETY: the state is Kairo's sandbox, alive during the call.
        let lua = unsafe { super::heap::lua_of(state) };
        let free = context::lent_context_ref(lua).is_some();
        // SAFETY: reads and updates a counter in the state's global data.
        free && charge_for_cart(lua, unsafe { lua_takework(state) }).is_err()
    };
    if past {
        // SAFETY: called by Lua's library where an error may be raised (as a memory error
        // could); the Rust values above are gone before the long jump.
        unsafe {
            ffi::lua_pushstring(state, c"runaway script stopped".as_ptr());
            ffi::lua_error(state);
        }
    }
}

/// Charges `cycles` of script work a Rust function of the sandbox does for the cart (the size
/// charge of `table.sort`, `table.concat` and `string.rep`, pattern matching steps) and, when
/// profiling, gives them to the cart function that made the call.
fn charge_for_cart(lua: &Lua, cycles: u64) -> LuaResult<()> {
    if cycles > 0
        && let Some(mut context) = context::lent_context(lua)
        && context.profile.sampling
    {
        context.profile.sample_stack(lua, 0, cycles);
    }
    context::charge(lua, Unit::Script, cycles)
}

/// `require(name)`: runs the cart's `name.lua` (dots become folders) or `name/init.lua` once
/// and returns what it returned (or true).
fn require_function(lua: &Lua, cart: Arc<Cart>) -> LuaResult<Function> {
    let loading: RefCell<Vec<String>> = RefCell::default();
    lua.create_function(move |lua, name: String| {
        let loaded: Table = lua.named_registry_value(LOADED)?;
        if let Some(value) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(MultiValue::from_vec(vec![value]));
        }
        if loading.borrow().contains(&name) {
            let chain = loading.borrow().join(" -> ");
            let cycle = format!("require: cycle {chain} -> {name}");
            return raised(lua, &mlua::Error::runtime(cycle), 1);
        }
        let base = name.replace('.', "/");
        let candidates = [format!("{base}.lua"), format!("{base}/init.lua")];
        let sources: &BTreeMap<String, String> = &cart.scripts;
        let Some((path, source)) = candidates.iter().find_map(|p| sources.get_key_value(p)) else {
            let missing = format!(
                "require: the cart has no module '{name}' (looked for {} and {})",
                candidates[0], candidates[1]
            );
            return raised(lua, &mlua::Error::runtime(missing), 1);
        };
        // Compiling is work in proportion to the source, charged before it is done.
        if let Err(e) = charge_for_cart(lua, source.len() as u64 * cost::COMPILE_BYTE) {
            return raised(lua, &e, 1);
        }
        let chunk = match lua
            .load(source.as_str())
            .set_name(format!("={path}"))
            .set_mode(ChunkMode::Text)
            .into_function()
        {
            Ok(chunk) => chunk,
            Err(e) => return raised(lua, &e, 0),
        };
        loading.borrow_mut().push(name.clone());
        let result = chunk.call::<Value>(name.as_str());
        loading.borrow_mut().pop();
        let value = match result {
            Ok(Value::Nil) => Value::Boolean(true),
            Ok(value) => value,
            // The module's own error, already located in its file.
            Err(e) => return raised(lua, &e, 0),
        };
        loaded.raw_set(name.as_str(), &value)?;
        Ok(MultiValue::from_vec(vec![value]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::files::CartFiles;
    use crate::machine::Machine;
    use crate::script::context::CallContext;
    use crate::video::Video;

    fn panics(_: &mut Call) -> LuaResult<MultiValue> {
        panic!("a bug in an API function")
    }

    static PANICS: ApiFn = ApiFn {
        name: "panics",
        args: &[],
        returns: "",
        doc: "",
        cost: &[],
        call: panics,
    };

    #[test]
    fn a_panic_in_the_direct_entry_unwinds_lua_as_an_error_and_is_resumed_after() {
        let files = [
            ("cart.toml".to_string(), b"name = \"t\"\n".to_vec()),
            ("main.lua".to_string(), Vec::new()),
        ];
        let cart = Cart::from_files(CartFiles::from_map("t", files.into_iter().collect()))
            .map(Arc::new)
            .expect("cart");
        let heap = build(cart.clone()).expect("sandbox");
        let lua = heap.lua();
        let function = bind(lua, &PANICS, cart, heap.raw_state() as usize).expect("bound");
        lua.globals().set("panics", function).unwrap();
        heap.slots().lend(
            Box::new(Machine::new(Video::default(), 1)),
            CallContext::default(),
        );
        let (ok, message): (bool, String) = lua
            .load("return pcall(panics)")
            .set_name("=probe")
            .eval()
            .expect("Lua ran on");
        assert!(!ok);
        // Raised straight into `pcall` (a C function), so with no location, as in Lua.
        assert_eq!(message, "panics: internal error");
        let resumed = std::panic::catch_unwind(resume_panic).expect_err("the panic resumed");
        assert_eq!(
            resumed.downcast_ref::<&str>(),
            Some(&"a bug in an API function")
        );
        // Once only.
        resume_panic();
    }
}
