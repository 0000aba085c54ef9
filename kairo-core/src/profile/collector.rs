//! Gathers one frame's profile inside the machine: script cycles by the cart's Lua functions
//! (each batch the instruction hook charges goes to the function running at that moment; API
//! call costs go to the function that made the call; work the sandbox's own Lua or its size
//! charges do for a call goes to the cart function that made it) and the cart's
//! `prof_begin`/`prof_end` sections.
//! Sampling costs host time only, never cycles, so a profiled run is the same run.

use std::collections::HashMap;
use std::sync::Arc;

use mlua::Lua;
use mlua::debug::{Debug, DebugSource};

use super::SectionCycles;
use crate::meter::UnitCycles;

/// Sections that may be open at once.
pub(crate) const MAX_SECTION_DEPTH: usize = 16;
/// Different section names one frame may use.
pub(crate) const MAX_SECTIONS_PER_FRAME: usize = 64;
/// Longest section name, in bytes.
pub(crate) const MAX_SECTION_NAME: usize = 32;

/// Why a profiler section call was refused.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SectionError {
    #[error("section names are 1 to {MAX_SECTION_NAME} bytes, got {0} bytes")]
    NameLength(usize),
    #[error("more than {MAX_SECTION_DEPTH} sections open at once (a prof_end missing?)")]
    TooDeep,
    #[error("more than {MAX_SECTIONS_PER_FRAME} different sections in one frame")]
    TooMany,
    #[error("no section is open (prof_end without prof_begin)")]
    NoneOpen,
}

/// The chunks of the sandbox's own Lua (`=kairo` and `=strmatch`, see `src/script`): none
/// of their functions is the cart's.
pub(crate) const SANDBOX_CHUNKS: [&str; 2] = ["kairo", "strmatch"];

/// A Lua function: hash of its chunk name and the line it is defined on.
type FunctionKey = (u64, usize);

/// The key of the function defined at `chunk:line`.
fn function_key(chunk: &str, line: usize) -> FunctionKey {
    (crate::hash::fnv1a64(chunk.as_bytes()), line)
}

/// The chunk a function is defined in (`main.lua`, `kairo`, `[C]`).
fn chunk_of<'a>(source: &'a DebugSource) -> &'a str {
    source.short_src.as_deref().unwrap_or("?")
}

/// Whether a frame runs a Lua function of the cart's own files (not a C function, not the
/// sandbox's own Lua).
fn is_cart(source: &DebugSource) -> bool {
    source.what != "C" && !SANDBOX_CHUNKS.contains(&chunk_of(source))
}

/// Whether Lua's name for a called function is a name (an identifier), not a description of
/// how it was called: `integer index` (`t[1]()`), `?` (`t[i]()`), `for iterator`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The name the cart calls the function running at `level` by, if it has one: Lua names a
/// function by the instruction that called it, which gives no real name for `t[1]()` or
/// `t[i]()`, and names a function the sandbox's own Lua called as the sandbox calls it.
fn called_name(lua: &Lua, level: usize, frame: &Debug) -> Option<String> {
    let names = frame.names();
    let name = names.name.filter(|n| is_identifier(n))?;
    let called_by_cart = lua
        .inspect_stack(level + 1, |caller| is_cart(&caller.source()))
        .unwrap_or(false);
    called_by_cart.then(|| match names.name_what {
        // Lua says `index` for the function in a metatable's `__index`.
        Some("metamethod") => format!("__{name}"),
        _ => name.into_owned(),
    })
}

/// A section opened by `prof_begin`.
#[derive(Clone, Debug)]
struct OpenSection {
    name: Arc<str>,
    start: UnitCycles,
}

/// The profiler's part of the machine state.
#[derive(Clone, Debug, Default)]
pub struct ProfileCollector {
    /// Whether script cycles are attributed to Lua functions (profiling mode is on).
    pub sampling: bool,
    names: HashMap<FunctionKey, Arc<str>>,
    functions: HashMap<FunctionKey, u64>,
    /// Script cycles attributed to functions so far (all frames).
    attributed: u64,
    open: Vec<OpenSection>,
    sections: Vec<SectionCycles>,
    /// Section names already reported as left open at the end of a frame.
    warned_open: Vec<Arc<str>>,
}

impl ProfileCollector {
    /// Charges `cycles` of script work to the cart function running at stack `level` 0
    /// (the instruction hook's `frame`), or, when that is the sandbox's own Lua, to the
    /// cart function that called it (see [`ProfileCollector::sample_stack`]).
    pub fn sample(&mut self, lua: &Lua, frame: &Debug, cycles: u64) {
        let source = frame.source();
        if is_cart(&source) {
            self.charge_frame(lua, 0, frame, &source, cycles);
        } else {
            self.sample_stack(lua, 0, cycles);
        }
    }

    /// Charges `cycles` of script work to the nearest cart function at stack `level` or
    /// below it: the sandbox's own Lua functions (its `pcall`, `coroutine.resume` and
    /// `table.sort` wrappers, its pattern matching glue) and C functions are passed over, so
    /// their work goes to the cart function that called them. A stack with no cart function
    /// on it (a coroutine whose body is one of the sandbox's functions) charges its nearest
    /// Lua function; one with no Lua function charges nothing (the console reports the
    /// cycles as outside Lua).
    pub(crate) fn sample_stack(&mut self, lua: &Lua, level: usize, cycles: u64) {
        let mut first_lua = None;
        for at in level.. {
            let charged = lua.inspect_stack(at, |frame| {
                let source = frame.source();
                let cart = is_cart(&source);
                if cart {
                    self.charge_frame(lua, at, frame, &source, cycles);
                } else if source.what != "C" && first_lua.is_none() {
                    first_lua = Some(at);
                }
                cart
            });
            match charged {
                Some(true) => return,
                Some(false) => {}
                None => break,
            }
        }
        if let Some(at) = first_lua {
            lua.inspect_stack(at, |frame| {
                self.charge_frame(lua, at, frame, &frame.source(), cycles)
            });
        }
    }

    /// Charges `cycles` to the Lua function running at stack `level` (`frame`, `source`).
    fn charge_frame(
        &mut self,
        lua: &Lua,
        level: usize,
        frame: &Debug,
        source: &DebugSource,
        cycles: u64,
    ) {
        let chunk = chunk_of(source);
        let line = source.line_defined.unwrap_or(0);
        let key = function_key(chunk, line);
        *self.functions.entry(key).or_insert(0) += cycles;
        self.attributed += cycles;
        self.names.entry(key).or_insert_with(|| {
            let name = match source.what {
                "main" => format!("main chunk ({chunk})"),
                _ => format!(
                    "{} ({chunk}:{line})",
                    called_name(lua, level, frame)
                        .as_deref()
                        .unwrap_or("function")
                ),
            };
            name.into()
        });
    }

    /// Names the function defined at `chunk:line` (an entry point the console calls, which
    /// the hook cannot name).
    pub(crate) fn name_function(&mut self, chunk: &str, line: usize, name: &str) {
        let key = function_key(chunk, line);
        if !self.names.get(&key).is_some_and(|n| n.starts_with(name)) {
            self.names
                .insert(key, format!("{name} ({chunk}:{line})").into());
        }
    }

    /// Charges `cycles` to the function defined at `chunk:line`, named `name` unless it has a
    /// name already (the work a function the console called counted after the last count,
    /// charged when it returns).
    pub(crate) fn charge_function(&mut self, chunk: &str, line: usize, name: &str, cycles: u64) {
        let key = function_key(chunk, line);
        *self.functions.entry(key).or_insert(0) += cycles;
        self.attributed += cycles;
        self.names.entry(key).or_insert_with(|| name.into());
    }

    /// Script cycles attributed to functions since power-on (to tell how much of an API
    /// call's script cost the hook has already placed).
    pub(crate) fn attributed(&self) -> u64 {
        self.attributed
    }

    /// Opens section `name` with the meter at `now`.
    pub(crate) fn begin(&mut self, name: &str, now: UnitCycles) -> Result<(), SectionError> {
        if name.is_empty() || name.len() > MAX_SECTION_NAME {
            return Err(SectionError::NameLength(name.len()));
        }
        if self.open.len() >= MAX_SECTION_DEPTH {
            return Err(SectionError::TooDeep);
        }
        let known = self
            .sections
            .iter()
            .map(|s| &s.name)
            .chain(self.open.iter().map(|s| &s.name))
            .find(|n| &***n == name)
            .cloned();
        let name = match known {
            Some(name) => name,
            None if self.sections.len() >= MAX_SECTIONS_PER_FRAME => {
                return Err(SectionError::TooMany);
            }
            None => Arc::from(name),
        };
        self.open.push(OpenSection { name, start: now });
        Ok(())
    }

    /// Closes the innermost open section with the meter at `now`; returns its name.
    pub fn end(&mut self, now: UnitCycles) -> Result<Arc<str>, SectionError> {
        let open = self.open.pop().ok_or(SectionError::NoneOpen)?;
        let mut cycles = UnitCycles::default();
        for (unit, c) in now.iter() {
            cycles.add(unit, c.saturating_sub(open.start.get(unit)));
        }
        match self.sections.iter_mut().find(|s| s.name == open.name) {
            Some(section) => {
                section.calls += 1;
                for (unit, c) in cycles.iter() {
                    section.cycles.add(unit, c);
                }
            }
            None => self.sections.push(SectionCycles {
                name: open.name.clone(),
                calls: 1,
                cycles,
            }),
        }
        Ok(open.name)
    }

    /// Closes sections still open at the end of a frame. Returns the names not reported
    /// before, for a one-time warning.
    pub(crate) fn close_open(&mut self, now: UnitCycles) -> Vec<Arc<str>> {
        let mut fresh = Vec::new();
        while !self.open.is_empty() {
            if let Ok(name) = self.end(now)
                && !self.warned_open.contains(&name)
            {
                self.warned_open.push(name.clone());
                fresh.push(name);
            }
        }
        fresh
    }

    /// The frame's functions (most expensive first, ties by name) and sections (in the
    /// order they were first opened), leaving the collector ready for the next frame.
    pub(crate) fn take_frame(&mut self) -> (Vec<(Arc<str>, u64)>, Vec<SectionCycles>) {
        let mut functions: Vec<(Arc<str>, u64)> = self
            .functions
            .drain()
            .map(|(key, cycles)| (self.names[&key].clone(), cycles))
            .collect();
        functions.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        (functions, std::mem::take(&mut self.sections))
    }

    /// Drops what was gathered (cycles charged before the first frame).
    pub(crate) fn discard_frame(&mut self) {
        self.functions.clear();
        self.sections.clear();
        self.open.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::Unit;

    fn at(script: u64, video: u64) -> UnitCycles {
        let mut c = UnitCycles::default();
        c.add(Unit::Script, script);
        c.add(Unit::Video, video);
        c
    }

    #[test]
    fn nested_sections_are_inclusive_and_merge_by_name() {
        let mut p = ProfileCollector::default();
        p.begin("outer", at(0, 0)).unwrap();
        p.begin("inner", at(10, 0)).unwrap();
        p.end(at(30, 5)).unwrap();
        p.begin("inner", at(40, 5)).unwrap();
        p.end(at(41, 9)).unwrap();
        p.end(at(50, 9)).unwrap();
        let (_, sections) = p.take_frame();
        assert_eq!(sections.len(), 2);
        let inner = sections.iter().find(|s| &*s.name == "inner").unwrap();
        assert_eq!(inner.calls, 2);
        assert_eq!(inner.cycles.get(Unit::Script), 21);
        assert_eq!(inner.cycles.get(Unit::Video), 9);
        let outer = sections.iter().find(|s| &*s.name == "outer").unwrap();
        assert_eq!(outer.cycles.total(), 59);
        assert!(p.take_frame().1.is_empty());
    }

    #[test]
    fn misuse_is_an_error_not_a_panic() {
        let mut p = ProfileCollector::default();
        assert!(p.end(at(0, 0)).is_err());
        assert!(p.begin("", at(0, 0)).is_err());
        assert!(p.begin(&"x".repeat(33), at(0, 0)).is_err());
        for _ in 0..MAX_SECTION_DEPTH {
            p.begin("deep", at(0, 0)).unwrap();
        }
        assert!(p.begin("deep", at(0, 0)).is_err());
        assert_eq!(p.close_open(at(1, 0)), vec![Arc::from("deep")]);
        // Reported once only.
        p.begin("deep", at(0, 0)).unwrap();
        assert!(p.close_open(at(1, 0)).is_empty());
        let mut p = ProfileCollector::default();
        for i in 0..MAX_SECTIONS_PER_FRAME {
            p.begin(&format!("s{i}"), at(0, 0)).unwrap();
            p.end(at(0, 0)).unwrap();
        }
        assert!(p.begin("one more", at(0, 0)).is_err());
        assert!(p.begin("s3", at(0, 0)).is_ok());
    }
}
