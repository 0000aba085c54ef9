//! The script unit: the cart's Lua 5.4 program, run in a sandbox with the cart API. The
//! console lends it the machine for each call; every VM instruction and API call is charged
//! to the script unit, and a call that passes its cycle cap is stopped as a runaway.

pub mod api;
pub mod api_audio;
pub mod api_bullets;
pub mod api_collide;
pub mod api_input;
pub mod api_map;
pub mod api_profile;
pub mod api_system;
pub mod api_video;
pub mod docs;
pub mod error;
mod sandbox;
pub mod strmatch;

use std::collections::BTreeMap;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Value};

use crate::cart::CartError;
use crate::machine::Machine;
pub use error::ScriptError;

/// A cart's Lua program.
pub struct Script {
    lua: Lua,
    entry: String,
    sources: Rc<BTreeMap<String, String>>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("entry", &self.entry)
            .finish_non_exhaustive()
    }
}

impl Script {
    /// Builds the sandbox for a cart whose Lua files are `sources` and whose entry is `entry`.
    /// Nothing runs yet.
    pub fn new(sources: BTreeMap<String, String>, entry: &str) -> Result<Script, ScriptError> {
        let sources = Rc::new(sources);
        let lua = sandbox::build(sources.clone()).map_err(|e| ScriptError::Setup(e.to_string()))?;
        Ok(Script {
            lua,
            entry: entry.to_string(),
            sources,
        })
    }

    /// Runs the entry file's main chunk with the machine lent.
    pub fn run_main(&self, machine: Box<Machine>) -> (Box<Machine>, Result<(), ScriptError>) {
        let source = self.sources.get(&self.entry).cloned().unwrap_or_default();
        self.lend(machine, |lua| {
            lua.load(source)
                .set_name(format!("={}", self.entry))
                .set_mode(ChunkMode::Text)
                .exec()
        })
    }

    /// Calls the global function `name` if the cart defines it; `Ok(false)` if it does not.
    pub fn call(
        &self,
        machine: Box<Machine>,
        name: &str,
    ) -> (Box<Machine>, Result<bool, ScriptError>) {
        self.lend(machine, |lua| match lua.globals().get::<Value>(name)? {
            Value::Nil => Ok(false),
            Value::Function(f) => {
                if let Ok(Some(mut machine)) = lua.try_app_data_mut::<Box<Machine>>()
                    && machine.profile.sampling
                {
                    // Called by the console, not by Lua: the hook cannot see its name.
                    let info = f.info();
                    let chunk = info.short_src.as_deref().unwrap_or("?");
                    let line = info.line_defined.unwrap_or(0);
                    machine.profile.name_function(chunk, line, name);
                }
                f.call::<()>(()).map(|()| true)
            }
            other => Err(mlua::Error::runtime(format!(
                "{}: the global `{name}` is a {}, not a function",
                self.entry,
                api::type_name(&other)
            ))),
        })
    }

    /// Whether the cart defines a global function `name`.
    pub fn defines(&self, name: &str) -> bool {
        matches!(
            self.lua.globals().get::<Value>(name),
            Ok(Value::Function(_))
        )
    }

    /// Bytes the Lua state uses.
    pub fn memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// Runs `body` with the machine attached to the Lua state, then takes it back.
    fn lend<R>(
        &self,
        machine: Box<Machine>,
        body: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> (Box<Machine>, Result<R, ScriptError>) {
        self.lua.set_app_data(machine);
        let result = body(&self.lua);
        let mut machine = self
            .lua
            .remove_app_data::<Box<Machine>>()
            .expect("the machine lent to Lua is still attached");
        let result = match machine.stopped.take() {
            Some(stop) => Err(ScriptError::Runaway {
                at: stop.at,
                cap: stop.cap,
                traceback: stop.traceback,
            }),
            None => result.map_err(|e| ScriptError::from_lua(&e)),
        };
        (machine, result)
    }
}

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
