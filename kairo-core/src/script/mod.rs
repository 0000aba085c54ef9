//! The script unit: the cart's Lua 5.4 program, run in a sandbox with the cart API. The
//! console lends it the machine for each call; every VM instruction and API call is charged
//! to the script unit, and a call that passes its cycle cap is stopped as a runaway.

pub mod api;
pub(crate) mod arena;
pub mod args;
pub mod call;
pub mod context;
// The cart API reference (docs/api.md) is written and checked by its test.
#[cfg(test)]
mod docs;
pub mod error;
pub mod heap;
pub mod sandbox;
pub(crate) mod stack;
pub mod strmatch;

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Value};

use crate::meter::Unit;

use crate::cart::{Cart, CartError};
use crate::machine::Machine;
use context::CallContext;
pub use error::ScriptError;

/// A cart's Lua program.
pub struct Script {
    heap: heap::Heap,
    cart: Arc<Cart>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("entry", &self.cart.manifest.entry)
            .finish_non_exhaustive()
    }
}

impl Script {
    /// Builds the sandbox for `cart`. Nothing runs yet.
    pub fn new(cart: Arc<Cart>) -> Result<Script, ScriptError> {
        let heap = sandbox::build(cart.clone()).map_err(|e| ScriptError::Setup(e.to_string()))?;
        Ok(Script { heap, cart })
    }

    /// The entry file's name and source, and how the profiler names its main chunk.
    fn main_chunk(&self) -> (&String, String, Called) {
        let entry = &self.cart.manifest.entry;
        let source = self.cart.scripts.get(entry).cloned().unwrap_or_default();
        let main = Called {
            chunk: entry.clone(),
            line: 0,
            name: format!("main chunk ({entry})"),
        };
        (entry, source, main)
    }

    /// Runs the entry file's main chunk with the machine and the call context lent.
    pub(crate) fn run_main(&self, lent: Lent) -> (Lent, Result<(), ScriptError>) {
        let (entry, source, main) = self.main_chunk();
        self.lend(lent, |lua, called| {
            *called = Some(main);
            lua.load(source)
                .set_name(format!("={entry}"))
                .set_mode(ChunkMode::Text)
                .exec()
        })
    }

    /// Runs a PICO-8 cart's main chunk and then its `_init`, inside the layer's frame driver
    /// (`pico8_prelude.lua`): until they end, or until they call `flip`.
    pub(crate) fn pico8_boot(&self, lent: Lent) -> (Lent, Result<Pico8Step, ScriptError>) {
        let (entry, source, main) = self.main_chunk();
        self.lend(lent, |lua, called| {
            *called = Some(main);
            let chunk = lua
                .load(source)
                .set_name(format!("={entry}"))
                .set_mode(ChunkMode::Text)
                .into_function()?;
            let boot: Function = lua.named_registry_value(PICO8_BOOT)?;
            boot.call::<i64>(chunk).map(Pico8Step::from_code)
        })
    }

    /// Runs one PICO-8 frame of a cart's code in the layer's frame driver: resumes what
    /// `flip` suspended, else calls `update` (`_update` or `_update60`); after
    /// [`Pico8Step::Updated`], the next call runs `_draw`.
    pub(crate) fn pico8_step(
        &self,
        lent: Lent,
        update: &'static str,
    ) -> (Lent, Result<Pico8Step, ScriptError>) {
        self.lend(lent, |lua, _| {
            let step: Function = lua.named_registry_value(PICO8_STEP)?;
            step.call::<i64>(update).map(Pico8Step::from_code)
        })
    }

    /// Calls the global function `name` if the cart defines it; `Ok(false)` if it does not.
    pub fn call(&self, lent: Lent, name: &str) -> (Lent, Result<bool, ScriptError>) {
        let entry = &self.cart.manifest.entry;
        self.lend(lent, |lua, called| {
            match global(lua, name)? {
                Value::Nil => Ok(false),
                Value::Function(f) => {
                    if let Some(mut context) = context::lent_context(lua)
                        && context.profile.sampling
                    {
                        // Called by the console, not by Lua: the hook cannot see its name.
                        let info = f.info();
                        let chunk = info.short_src.as_deref().unwrap_or("?");
                        let line = info.line_defined.unwrap_or(0);
                        context.profile.name_function(chunk, line, name);
                        *called = Some(Called {
                            chunk: chunk.to_string(),
                            line,
                            name: format!("{name} ({chunk}:{line})"),
                        });
                    }
                    f.call::<()>(()).map(|()| true)
                }
                other => Err(mlua::Error::runtime(format!(
                    "{entry}: the global `{name}` is a {}, not a function",
                    call::type_name(&other)
                ))),
            }
        })
    }

    /// Calls the callback a PICO-8 cart gave pause-menu item `item` (`menuitem`) with
    /// `buttons`; `Ok(false)` when the item has none.
    pub(crate) fn call_menu_item(
        &self,
        lent: Lent,
        item: u8,
        buttons: i64,
    ) -> (Lent, Result<bool, ScriptError>) {
        self.lend(lent, |lua, _| {
            let key = api::pico8_menu::CALLBACKS;
            let Some(callbacks) = lua.named_registry_value::<Option<mlua::Table>>(key)? else {
                return Ok(false);
            };
            match callbacks.raw_get::<Value>(item)? {
                Value::Function(f) => f.call::<()>(buttons).map(|()| true),
                _ => Ok(false),
            }
        })
    }

    /// Whether the cart defines a global function `name`.
    pub fn defines(&self, name: &str) -> bool {
        matches!(global(self.heap.lua(), name), Ok(Value::Function(_)))
    }

    /// Bytes the Lua state uses.
    pub fn memory(&self) -> usize {
        self.heap.used()
    }

    /// A digest of every value the cart's script can reach (between calls only): see
    /// [`heap::Heap::digest`].
    pub fn digest(&self) -> Option<u64> {
        self.heap.digest()
    }

    /// The Lua heap as it stands (between calls only).
    pub fn snapshot_into(&self, snapshot: &mut heap::HeapSnapshot) {
        self.heap.snapshot_into(snapshot);
    }

    /// Puts back a heap taken by [`Script::snapshot_into`] of this script.
    pub fn restore(&mut self, snapshot: &heap::HeapSnapshot) -> Result<(), heap::RestoreError> {
        self.heap.restore(snapshot)
    }

    /// Runs `body` with the machine and the call context attached to the Lua state, then
    /// takes them back. `body` says which function it called, when profiling.
    fn lend<R>(
        &self,
        (machine, context): Lent,
        body: impl FnOnce(&Lua, &mut Option<Called>) -> mlua::Result<R>,
    ) -> (Lent, Result<R, ScriptError>) {
        let lua = self.heap.lua();
        self.heap.set_sampling(context.profile.sampling);
        self.heap.slots().lend(machine, context);
        let mut called = None;
        let result = body(lua, &mut called);
        // The work counted and not charged yet (less than WORK_CHARGE_EVERY cycles) is this
        // call's: charged now, so every call pays for all it counted. (The instructions since
        // the last count, fewer than LUA_HOOK_INTERVAL, are counted at the next one.)
        let pending = self.heap.take_work();
        let (machine, mut context) = self
            .heap
            .slots()
            .take()
            .expect("the machine and the context lent to Lua are still there");
        // Past the cap or not: the script has returned (a stop is found by the next charge).
        context.charge(Unit::Script, pending);
        if let Some(called) = called.filter(|_| pending > 0 && context.profile.sampling) {
            let Called { chunk, line, name } = called;
            context
                .profile
                .charge_function(&chunk, line, &name, pending);
        }
        // An API function that panicked in the direct entry did so as a Lua error: now that
        // Lua has returned, it panics as it would have through mlua.
        sandbox::resume_panic();
        let result = match context.stopped.take() {
            Some(stop) => Err(ScriptError::Runaway {
                at: stop.at,
                cap: stop.cap,
                traceback: stop.traceback,
            }),
            None => result.map_err(|e| ScriptError::from_lua(&e)),
        };
        ((machine, context), result)
    }
}

/// Registry keys of the PICO-8 layer's frame driver, the two functions `pico8_prelude.lua`
/// returns.
pub(crate) const PICO8_BOOT: &str = "kairo.pico8_boot";
pub(crate) const PICO8_STEP: &str = "kairo.pico8_step";

/// Where a PICO-8 cart's code stands after a call of the frame driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pico8Step {
    /// The frame's code (or the main chunk and `_init`) ended.
    Ended,
    /// It called `flip`: the screen shows now, and the next PICO-8 frame resumes it.
    Flipped,
    /// `_update` ended; `_draw` runs on the next call.
    Updated,
}

impl Pico8Step {
    fn from_code(code: i64) -> Pico8Step {
        match code {
            1 => Pico8Step::Flipped,
            2 => Pico8Step::Updated,
            _ => Pico8Step::Ended,
        }
    }
}

/// The function the console called, for the profiler: where it is defined and its name.
struct Called {
    chunk: String,
    line: usize,
    name: String,
}

/// The global `name`, read as `_G[name]` reads it (a metamethod of `_G` included), in one
/// protected call: through mlua's `globals().get`, making the key and reading it were two,
/// twice a frame.
fn global(lua: &Lua, name: &str) -> mlua::Result<Value> {
    // SAFETY: run protected by mlua, which takes the one value left on the stack.
    unsafe {
        lua.exec_raw((), |state| {
            mlua::ffi::lua_rawgeti(
                state,
                mlua::ffi::LUA_REGISTRYINDEX,
                mlua::ffi::LUA_RIDX_GLOBALS,
            );
            mlua::ffi::lua_pushlstring(state, name.as_ptr().cast(), name.len());
            mlua::ffi::lua_gettable(state, -2);
            mlua::ffi::lua_remove(state, -2);
        })
    }
}

/// What the console lends the script for a call: the hardware, and the call's bookkeeping.
pub type Lent = (Box<Machine>, CallContext);

/// Compiles every Lua source without running it; returns each syntax error found.
pub fn syntax_problems(sources: &BTreeMap<String, String>) -> Vec<CartError> {
    let lua = Lua::new();
    let mut problems = Vec::new();
    for (path, source) in sources {
        let compiled: mlua::Result<Function> = lua
            .load(source.as_str())
            .set_name(format!("={path}"))
            .set_mode(ChunkMode::Text)
            .into_function();
        if let Err(e) = compiled {
            let text = match &e {
                mlua::Error::SyntaxError { message, .. } => message.clone(),
                other => other.to_string(),
            };
            problems.push(locate(path, &text));
        }
    }
    problems
}

/// Splits a Lua message `path:line: text` into a located cart error.
fn locate(path: &str, message: &str) -> CartError {
    let rest = message.strip_prefix(path).and_then(|r| r.strip_prefix(':'));
    if let Some((line, text)) = rest.and_then(|r| r.split_once(':'))
        && let Ok(line) = line.parse()
    {
        return CartError::at(path, line, text.trim());
    }
    CartError::file(path, message)
}
