//! The cart's Lua state: Lua 5.4 with only the safe libraries (no `io`, `os`, `package`,
//! `debug`, no `load`/`dofile`/`loadfile`, no binary chunks), a memory limit, `require` over
//! the cart's own Lua files, and the cart API bound from its table — nothing else.
//!
//! The budget cannot be escaped: the count hook charges every Lua instruction to the call
//! context (kept apart from the machine, so it is reachable whatever an API call borrowed)
//! and stops the script past its cap, in metamethods, string callbacks, sort comparators and
//! coroutines alike. Where Lua would run cart code with its hook switched off, the sandbox
//! closes the door: a runaway stop skips `xpcall` message handlers, and metatables with a
//! `__gc` field are refused (finalizers run unhooked). C loops that take time in proportion
//! to their input (`table.sort`, `table.concat`, `string.rep`) are charged by size first, and
//! pattern matching (`string.find`, `match`, `gmatch`, `gsub`) is Kairo's own metered matcher
//! ([`super::strmatch`]), charged per step and stopped at the cap mid-match.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};

use super::api::{all_constants, all_functions};
use super::call::{Call, LuaResult};
use super::context::{self, CallContext};
use crate::cart::Cart;
use crate::machine::Machine;
use crate::meter::Unit;
use crate::spec::{LUA_HOOK_INTERVAL, LUA_MEMORY_LIMIT, cost};

/// Registry key of the table of modules loaded by `require`.
const LOADED: &str = "kairo.loaded";
/// Registry key of Lua's own `tostring`, kept for `log` whatever the cart does to the global.
pub const TOSTRING: &str = "kairo.tostring";

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
pub fn build(cart: Arc<Cart>) -> LuaResult<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    lua.set_named_registry_value(TOSTRING, globals.get::<Function>("tostring")?)?;

    for api in all_functions() {
        let function = bind(&lua, api.name, api.call, cart.clone())?;
        match api.name.split_once('.') {
            Some((table, field)) => globals.get::<Table>(table)?.set(field, function)?,
            None => globals.set(api.name, function)?,
        }
    }
    for constants in all_constants() {
        let table = lua.create_table()?;
        for (name, value) in (constants.entries)() {
            table.set(name, value)?;
        }
        globals.set(constants.name, table)?;
    }
    globals.set("require", require_function(&lua, cart)?)?;

    let stopped = lua.create_function(|lua, ()| Ok(context::is_stopped(lua)))?;
    lua.load(PRELUDE).set_name("=kairo").call::<()>(stopped)?;
    charge_by_size(&lua)?;
    // After the prelude: the matcher keeps the wrapped `pcall`, which does not swallow a stop.
    super::strmatch::install(&lua, |lua, steps| {
        context::charge(lua, Unit::Script, cost::PATTERN_STEP * steps)
    })?;

    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(LUA_HOOK_INTERVAL),
        count_instructions,
    )?;
    lua.set_named_registry_value(LOADED, lua.create_table()?)?;
    lua.set_memory_limit(LUA_MEMORY_LIMIT)?;
    Ok(lua)
}

/// Wraps `table.sort`, `table.concat` and `string.rep` (each one C loop as long as its
/// input) so that their work is charged by size before they run, past the cap not at all.
fn charge_by_size(lua: &Lua) -> LuaResult<()> {
    let wrap = |library: &str, name: &str, cost: fn(&MultiValue) -> u64| -> LuaResult<()> {
        let table: Table = lua.globals().get(library)?;
        let raw: Function = table.get(name)?;
        let wrapped = lua.create_function(move |lua, args: MultiValue| {
            context::charge(lua, Unit::Script, cost(&args))?;
            raw.call::<MultiValue>(args)
        })?;
        table.set(name, wrapped)
    };
    wrap("table", "sort", |args| {
        let n = match args.front() {
            Some(Value::Table(t)) => t.raw_len() as u64,
            _ => 0,
        };
        cost::TABLE_ITEM * n * (1 + u64::from((n + 1).ilog2()))
    })?;
    wrap("table", "concat", |args| match args.front() {
        Some(Value::Table(t)) => cost::TABLE_ITEM * t.raw_len() as u64,
        _ => 0,
    })?;
    wrap("string", "rep", |args| {
        let size = |v: Option<&Value>| match v {
            Some(Value::String(s)) => s.as_bytes().len() as u64,
            Some(n @ (Value::Integer(_) | Value::Number(_))) => {
                n.to_string().map_or(0, |t| t.len() as u64)
            }
            _ => 0,
        };
        let n = match args.get(1) {
            Some(Value::Integer(n)) => (*n).max(0) as u64,
            Some(Value::Number(n)) if n.is_finite() => n.max(0.0) as u64,
            _ => 0,
        };
        let bytes = n.saturating_mul(size(args.front()) + size(args.get(2)));
        cost::STRING_FILL * (bytes / 64)
    })
}

/// Wraps an API function as a Lua function that charges the call and lends it the machine.
fn bind(
    lua: &Lua,
    name: &'static str,
    call: fn(&mut Call) -> LuaResult<MultiValue>,
    cart: Arc<Cart>,
) -> LuaResult<Function> {
    lua.create_function(move |lua, args: MultiValue| {
        let mut machine = match lua.try_app_data_mut::<Box<Machine>>() {
            Ok(Some(machine)) => machine,
            _ => {
                return Err(mlua::Error::runtime(format!(
                    "{name}: the machine is busy (called from inside another API call)"
                )));
            }
        };
        let before = profile_mark(lua);
        context::charge(lua, Unit::Script, cost::API_CALL)?;
        let result = call(&mut Call {
            lua,
            m: &mut machine,
            cart: &cart,
            name,
            args,
        });
        if let Some(mark) = before {
            attribute_call(lua, mark);
        }
        result
    })
}

/// The script cycles and attributed cycles before a call, when profiling.
fn profile_mark(lua: &Lua) -> Option<(u64, u64)> {
    let context = lua.try_app_data_ref::<CallContext>().ok()??;
    context.profile.sampling.then(|| {
        (
            context.meter.cycles().get(Unit::Script),
            context.profile.attributed(),
        )
    })
}

/// Gives the call's script cost (and anything it charged to the script unit) to the Lua
/// function that made the call.
fn attribute_call(lua: &Lua, (script, attributed): (u64, u64)) {
    if let Ok(Some(mut context)) = lua.try_app_data_mut::<CallContext>() {
        let placed = context.profile.attributed() - attributed;
        let cycles = context.meter.cycles().get(Unit::Script) - script - placed;
        let profile = &mut context.profile;
        lua.inspect_stack(1, |caller| profile.sample(caller, cycles));
    }
}

/// The count hook: charges the script unit (and, when profiling, the running function) and
/// stops a call that passes its cap.
fn count_instructions(lua: &Lua, debug: &mlua::debug::Debug) -> LuaResult<VmState> {
    let cycles = u64::from(LUA_HOOK_INTERVAL) * cost::LUA_INSTRUCTION;
    if let Ok(Some(mut context)) = lua.try_app_data_mut::<CallContext>()
        && context.profile.sampling
    {
        context.profile.sample(debug, cycles);
    }
    context::charge(lua, Unit::Script, cycles)?;
    Ok(VmState::Continue)
}

/// `require(name)`: runs the cart's `name.lua` (dots become folders) or `name/init.lua` once
/// and returns what it returned (or true).
fn require_function(lua: &Lua, cart: Arc<Cart>) -> LuaResult<Function> {
    let loading: RefCell<Vec<String>> = RefCell::default();
    lua.create_function(move |lua, name: String| {
        let loaded: Table = lua.named_registry_value(LOADED)?;
        if let Some(value) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(value);
        }
        if loading.borrow().contains(&name) {
            let chain = loading.borrow().join(" -> ");
            return Err(mlua::Error::runtime(format!(
                "require: cycle {chain} -> {name}"
            )));
        }
        let base = name.replace('.', "/");
        let candidates = [format!("{base}.lua"), format!("{base}/init.lua")];
        let sources: &BTreeMap<String, String> = &cart.scripts;
        let Some((path, source)) = candidates.iter().find_map(|p| sources.get_key_value(p)) else {
            return Err(mlua::Error::runtime(format!(
                "require: the cart has no module '{name}' (looked for {} and {})",
                candidates[0], candidates[1]
            )));
        };
        let chunk = lua
            .load(source.as_str())
            .set_name(format!("={path}"))
            .set_mode(ChunkMode::Text)
            .into_function()?;
        loading.borrow_mut().push(name.clone());
        let result = chunk.call::<Value>(name.as_str());
        loading.borrow_mut().pop();
        let value = match result? {
            Value::Nil => Value::Boolean(true),
            value => value,
        };
        loaded.raw_set(name.as_str(), &value)?;
        Ok(value)
    })
}
