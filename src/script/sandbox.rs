//! The cart's Lua state: Lua 5.4 with only the safe libraries (no `io`, `os`, `package`,
//! `debug`, no `load`/`dofile`/`loadfile`, no binary chunks), a memory limit, the instruction
//! hook that charges the script unit and stops runaways, `require` over the cart's own Lua
//! files, `math.random` on the machine RNG, and the cart API bound from its table.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};

use super::api::all_functions;
use super::api::system::{math_random, math_randomseed};
use super::call::{Call, LuaResult};
use crate::machine::{Machine, RunawayStop};
use crate::meter::Unit;
use crate::spec::{LUA_HOOK_INTERVAL, LUA_MEMORY_LIMIT, cost};

/// Registry key of the table of modules loaded by `require`.
const LOADED: &str = "kairo.loaded";

/// Lua run once after the API is bound: closes the remaining ways out of the sandbox and
/// makes a runaway stop uncatchable by `pcall`.
const PRELUDE: &str = r#"
local stopped = ...
local raw_pcall, raw_xpcall, raw_resume, raw_gc = pcall, xpcall, coroutine.resume, collectgarbage
local function check(ok, ...)
  if not ok and stopped() then error((...), 0) end
  return ok, ...
end
pcall = function(f, ...) return check(raw_pcall(f, ...)) end
xpcall = function(f, handler, ...) return check(raw_xpcall(f, handler, ...)) end
coroutine.resume = function(co, ...) return check(raw_resume(co, ...)) end
local gc_options = { collect = true, count = true, step = true, isrunning = true }
collectgarbage = function(option, ...)
  if option == nil or gc_options[option] then return raw_gc(option, ...) end
  error("collectgarbage: option '" .. tostring(option) .. "' is not available on Kairo", 2)
end
dofile, loadfile, load, string.dump = nil, nil, nil, nil
"#;

/// Builds the sandboxed Lua state for a cart with Lua `sources` (by cart path).
pub fn build(sources: Rc<BTreeMap<String, String>>) -> LuaResult<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();

    for api in all_functions() {
        globals.set(api.name, bind(&lua, api.name, api.call)?)?;
    }
    let math: Table = globals.get("math")?;
    math.set("random", bind(&lua, "math.random", math_random)?)?;
    math.set(
        "randomseed",
        bind(&lua, "math.randomseed", math_randomseed)?,
    )?;
    globals.set("require", require_function(&lua, sources)?)?;
    let flags = lua.create_table()?;
    for (name, value) in super::api::collide::flag_constants() {
        flags.set(name, value)?;
    }
    globals.set("COL", flags)?;

    let stopped = lua.create_function(|lua, ()| {
        Ok(matches!(lua.try_app_data_ref::<Box<Machine>>(), Ok(Some(m)) if m.stopped.is_some()))
    })?;
    lua.load(PRELUDE).set_name("=kairo").call::<()>(stopped)?;

    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(LUA_HOOK_INTERVAL),
        count_instructions,
    )?;
    lua.set_named_registry_value(LOADED, lua.create_table()?)?;
    lua.set_memory_limit(LUA_MEMORY_LIMIT)?;
    Ok(lua)
}

/// Wraps an API function as a Lua function that charges the call and lends it the machine.
fn bind(
    lua: &Lua,
    name: &'static str,
    call: fn(&mut Call) -> LuaResult<MultiValue>,
) -> LuaResult<Function> {
    lua.create_function(move |lua, args: MultiValue| {
        let mut machine = match lua.try_app_data_mut::<Box<Machine>>() {
            Ok(Some(machine)) => machine,
            _ => {
                return Err(mlua::Error::runtime(format!(
                    "{name}: the machine is busy (called from a finalizer?)"
                )));
            }
        };
        let before = machine.profile.sampling.then(|| {
            (
                machine.meter.cycles().get(Unit::Script),
                machine.profile.attributed(),
            )
        });
        machine.meter.charge(Unit::Script, cost::API_CALL);
        let result = call(&mut Call {
            lua,
            m: &mut machine,
            name,
            args,
        });
        // Bullets the call spawned are charged now, so `cycles()` and profiler sections
        // see them where they happened.
        let spawned = std::mem::take(&mut machine.bullets.pending_cycles);
        machine.meter.charge(Unit::Bullets, spawned);
        if let Some((script, attributed)) = before {
            // The call's script cost (and anything it charged to the script unit) belongs
            // to the Lua function that made the call.
            let placed = machine.profile.attributed() - attributed;
            let cycles = machine.meter.cycles().get(Unit::Script) - script - placed;
            let profile = &mut machine.profile;
            lua.inspect_stack(1, |caller| profile.sample(caller, cycles));
        }
        result
    })
}

/// The count hook: charges the script unit (and, when profiling, the running function) and
/// stops a call that passes its cap.
fn count_instructions(lua: &Lua, debug: &mlua::debug::Debug) -> LuaResult<VmState> {
    let Ok(Some(mut machine)) = lua.try_app_data_mut::<Box<Machine>>() else {
        return Ok(VmState::Continue);
    };
    let cycles = u64::from(LUA_HOOK_INTERVAL) * cost::LUA_INSTRUCTION;
    machine.meter.charge(Unit::Script, cycles);
    if machine.profile.sampling {
        machine.profile.sample(debug, cycles);
    }
    if machine.meter.total() <= machine.cap {
        return Ok(VmState::Continue);
    }
    if machine.stopped.is_none() {
        let at = lua
            .inspect_stack(0, |d| {
                let src = d
                    .source()
                    .short_src
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                format!("{src}:{}", d.current_line().unwrap_or(0))
            })
            .unwrap_or_default();
        let traceback = lua
            .traceback(None, 0)
            .map(|s| s.to_string_lossy().trim_start().to_string())
            .unwrap_or_default();
        machine.stopped = Some(RunawayStop {
            at,
            cap: machine.cap,
            traceback,
        });
    }
    Err(mlua::Error::runtime("runaway script stopped"))
}

/// `require(name)`: runs the cart's `name.lua` (dots become folders) or `name/init.lua` once
/// and returns what it returned (or true).
fn require_function(lua: &Lua, sources: Rc<BTreeMap<String, String>>) -> LuaResult<Function> {
    let loading: Rc<RefCell<Vec<String>>> = Rc::default();
    lua.create_function(move |lua, name: String| {
        let loaded: Table = lua.named_registry_value(LOADED)?;
        if let Some(value) = loaded.get::<Option<Value>>(name.as_str())? {
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
        loaded.set(name.as_str(), &value)?;
        Ok(value)
    })
}
