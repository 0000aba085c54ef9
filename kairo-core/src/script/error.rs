//! Errors of cart scripts, located by cart file and line, with a Lua traceback.

use crate::spec::LUA_MEMORY_LIMIT;

/// Why a cart's script failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// A Lua source did not compile: `file:line: message`.
    #[error("{0}")]
    Syntax(String),
    /// A Lua error at run time: `file:line: message` and the traceback.
    #[error("{message}{}", on_new_line(traceback))]
    Runtime { message: String, traceback: String },
    /// The script used more cycles than the runaway cap in one call.
    #[error(
        "{at}: the script ran past the runaway cap of {cap} cycles without returning (an endless loop?)\n{traceback}"
    )]
    Runaway {
        at: String,
        cap: u64,
        traceback: String,
    },
    /// The Lua state reached its memory limit.
    #[error(
        "out of memory: the cart's Lua state reached its limit of {} MiB",
        LUA_MEMORY_LIMIT / (1024 * 1024)
    )]
    OutOfMemory,
    /// The Lua state itself could not be built (a bug, not a cart problem).
    #[error("cannot set up Lua: {0}")]
    Setup(String),
}

/// Results of the script unit.
pub type Result<T> = std::result::Result<T, ScriptError>;

/// `text` on a line of its own, or nothing when empty.
fn on_new_line(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("\n{text}")
    }
}

/// A traceback without the nameless C frames (`[C]: in ?`) an API function's own wrapper
/// leaves above it, and without the PICO-8 layer's frame driver (`pico8:` lines, its own
/// `pico8_` functions, and the second traceback of the driver passing on an error raised in
/// the cart's coroutine, whose traceback comes first): they say nothing to a cart maker.
pub(crate) fn cart_frames(traceback: &str) -> String {
    let mut headed = false;
    traceback
        .lines()
        .filter(|line| {
            let line = line.trim();
            // The first header stays; a second one is the driver's.
            if line == "stack traceback:" {
                return !std::mem::replace(&mut headed, true);
            }
            line != "[C]: in ?" && !line.contains("'pico8_") && !line.starts_with("pico8:")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl ScriptError {
    /// The error's first line (`file:line: message`), without the traceback.
    pub fn headline(&self) -> String {
        self.to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// Converts an error that came out of a Lua call.
    pub(crate) fn from_lua(error: &mlua::Error) -> ScriptError {
        match error {
            mlua::Error::SyntaxError { message, .. } => ScriptError::Syntax(message.clone()),
            mlua::Error::MemoryError(_) => ScriptError::OutOfMemory,
            mlua::Error::CallbackError { traceback, cause } => match ScriptError::from_lua(cause) {
                ScriptError::Runtime { message, .. } => ScriptError::Runtime {
                    message,
                    traceback: cart_frames(traceback),
                },
                other => other,
            },
            mlua::Error::RuntimeError(text) => {
                let (message, traceback) = match text.find("\nstack traceback:") {
                    Some(at) => (&text[..at], cart_frames(&text[at + 1..])),
                    None => (text.as_str(), String::new()),
                };
                ScriptError::Runtime {
                    message: message.to_string(),
                    traceback,
                }
            }
            mlua::Error::WithContext { cause, .. } => ScriptError::from_lua(cause),
            other => ScriptError::Runtime {
                message: other.to_string(),
                traceback: String::new(),
            },
        }
    }
}
