//! The bookkeeping of one frame's calls into the cart's script, kept beside the machine and
//! never inside it: the cycle meter, the cap that stops a runaway, the stop once one
//! happened, the lines the cart logged, and the profiler's collector. While Lua runs, the
//! heap holds it in a slot of its own ([`LentSlots`]), apart from the machine's, so the count
//! hook can always charge and stop the script — inside metamethods, finalizers, string
//! callbacks and coroutines run while an API call has the machine borrowed.

use std::cell::{Ref, RefCell, RefMut};

use mlua::Lua;

use crate::machine::Machine;

use crate::meter::{CycleMeter, Unit};
use crate::profile::collector::ProfileCollector;
use crate::spec::{LOG_FRAME_BYTES, LOG_FRAME_LINES, LOG_LINE_BYTES, RUNAWAY_CAP};

/// Where and how a runaway script was stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunawayStop {
    /// `file:line` the script was at.
    pub at: String,
    /// The cap it passed.
    pub cap: u64,
    pub traceback: String,
}

/// What the script's calls need besides the hardware.
#[derive(Debug)]
pub struct CallContext {
    /// Cycles charged this frame, by unit.
    pub meter: CycleMeter,
    /// Cycles the current call may reach before it is stopped as a runaway.
    pub cap: u64,
    /// Set when the script passed its cap; every later Lua error stays uncatchable.
    pub stopped: Option<RunawayStop>,
    /// Lines the cart logged and the host has not taken yet.
    pub log: LogBuffer,
    /// The profiler's view of the frame being run.
    pub profile: ProfileCollector,
}

impl Default for CallContext {
    fn default() -> Self {
        CallContext {
            meter: CycleMeter::default(),
            cap: RUNAWAY_CAP,
            stopped: None,
            log: LogBuffer::default(),
            profile: ProfileCollector::default(),
        }
    }
}

impl CallContext {
    /// Charges `cycles` to `unit`; `true` if the call is now past its cap.
    pub fn charge(&mut self, unit: Unit, cycles: u64) -> bool {
        self.meter.charge(unit, cycles);
        self.meter.total() > self.cap
    }
}

/// Where the machine and the call context are lent while Lua runs: beside the heap's `Lua`
/// handle, found from any of its threads through the state's extra space. A lookup in mlua's
/// app data (a hash of the type) cost more than some API functions' own work.
#[derive(Default)]
pub struct LentSlots {
    machine: RefCell<Option<Box<Machine>>>,
    context: RefCell<Option<CallContext>>,
}

impl LentSlots {
    /// Lends both; they stay until [`LentSlots::take`].
    pub fn lend(&self, machine: Box<Machine>, context: CallContext) {
        *self.machine.borrow_mut() = Some(machine);
        *self.context.borrow_mut() = Some(context);
    }

    /// Takes back what [`LentSlots::lend`] lent, once Lua has returned.
    pub fn take(&self) -> Option<(Box<Machine>, CallContext)> {
        let machine = self.machine.borrow_mut().take()?;
        let context = self.context.borrow_mut().take()?;
        Some((machine, context))
    }

    /// The machine lent, to read between calls (none if not lent, or borrowed).
    pub fn machine(&self) -> Option<Ref<'_, Box<Machine>>> {
        Ref::filter_map(self.machine.try_borrow().ok()?, Option::as_ref).ok()
    }

    /// The call context lent, between calls (none if not lent, or borrowed).
    pub fn context(&self) -> Option<RefMut<'_, CallContext>> {
        RefMut::filter_map(self.context.try_borrow_mut().ok()?, Option::as_mut).ok()
    }
}

/// What a heap boxes and keeps the address of in its state's extra space (see
/// `heap::lua_of`): mlua's handle and the lent slots.
pub(crate) struct Shared {
    pub(crate) lua: Lua,
    pub(crate) slots: LentSlots,
}

/// What a heap keeps in its state's extra space, from any of the state's threads (threads
/// copy the main thread's); none once the heap is closing, or for a state a heap did not
/// make (Kairo's Lua zeroes the extra space).
///
/// # Safety
/// `state` is a live thread, and if a heap made its state, the heap is alive.
pub(crate) unsafe fn shared_of<'a>(state: *mut mlua::ffi::lua_State) -> Option<&'a Shared> {
    // SAFETY: as the caller says; the heap sets the pointer and clears it only when closing.
    unsafe { (*mlua::ffi::lua_getextraspace(state).cast::<*const Shared>()).as_ref() }
}

/// The slots of the heap `lua` runs on (none for a state a heap did not make).
fn slots(lua: &Lua) -> Option<&LentSlots> {
    let state = lua.exec_raw_lua(|raw| raw.state());
    // SAFETY: `state` is a thread of `lua`, running; its heap outlives the handle.
    unsafe { shared_of(state) }.map(|shared| &shared.slots)
}

/// The machine lent to `lua`, unless it is not lent or is borrowed (by an API call).
pub(crate) fn lent_machine(lua: &Lua) -> Option<RefMut<'_, Box<Machine>>> {
    let slot = slots(lua)?.machine.try_borrow_mut().ok()?;
    RefMut::filter_map(slot, Option::as_mut).ok()
}

/// The call context lent to `lua`, unless it is not lent or is borrowed.
pub(crate) fn lent_context(lua: &Lua) -> Option<RefMut<'_, CallContext>> {
    slots(lua)?.context()
}

/// The call context lent to `lua`, to read, unless it is not lent or is borrowed to change.
pub(crate) fn lent_context_ref(lua: &Lua) -> Option<Ref<'_, CallContext>> {
    let slot = slots(lua)?.context.try_borrow().ok()?;
    Ref::filter_map(slot, Option::as_ref).ok()
}

/// The error a runaway script is stopped with (it unwinds the script; the console reports
/// the [`RunawayStop`] recorded in the context instead).
pub(crate) fn runaway_error() -> mlua::Error {
    mlua::Error::runtime("runaway script stopped")
}

/// Charges `cycles` to `unit` in the context lent to `lua`; past the cap, records where the
/// script was and returns the runaway error, so the caller stops at once. Used by the count
/// hook and by every API call; it borrows the context only for the charge.
pub fn charge(lua: &Lua, unit: Unit, cycles: u64) -> mlua::Result<()> {
    let past = match lent_context(lua) {
        Some(mut context) => context.charge(unit, cycles) || context.stopped.is_some(),
        None => false,
    };
    if past {
        return Err(stopping(lua));
    }
    Ok(())
}

/// Records the stop of a script found past its cap (see [`charge`]) and returns the error
/// that unwinds it.
pub fn stopping(lua: &Lua) -> mlua::Error {
    stop(lua);
    runaway_error()
}

/// Records the stop (once) with the script's location and traceback.
fn stop(lua: &Lua) {
    let stopped = lent_context_ref(lua).is_some_and(|c| c.stopped.is_some());
    if stopped {
        return;
    }
    // The innermost cart function with a line: the hook runs at level 0, an API call at 1,
    // and the sandbox's own wrappers (chunks `kairo` and `strmatch`) are not the cart's.
    let at = (0..8)
        .find_map(|level| {
            lua.inspect_stack(level, |d| {
                let line = d.current_line()?;
                let src = d
                    .source()
                    .short_src
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                (!matches!(src.as_str(), "kairo" | "strmatch")).then(|| format!("{src}:{line}"))
            })
            .flatten()
        })
        .unwrap_or_else(|| "?".into());
    let traceback = lua
        .traceback(None, 0)
        .map(|s| super::error::cart_frames(s.to_string_lossy().trim_start()))
        .unwrap_or_default();
    if let Some(mut context) = lent_context(lua) {
        let cap = context.cap;
        context.stopped = Some(RunawayStop { at, cap, traceback });
    }
}

/// Whether the script has been stopped as a runaway (nothing it does may catch that).
pub(crate) fn is_stopped(lua: &Lua) -> bool {
    lent_context_ref(lua).is_some_and(|c| c.stopped.is_some())
}

/// Lines logged by the cart, bounded: a line keeps at most [`LOG_LINE_BYTES`] bytes with its
/// control characters escaped, and a frame keeps at most [`LOG_FRAME_LINES`] lines and
/// [`LOG_FRAME_BYTES`] bytes; past that, lines are counted and reported as one line.
#[derive(Debug, Default)]
pub struct LogBuffer {
    lines: Vec<String>,
    /// Lines and bytes kept this frame, and lines dropped.
    frame_lines: usize,
    bytes: usize,
    dropped: u64,
}

impl LogBuffer {
    /// Adds a line, already cut to [`LOG_LINE_BYTES`] (see [`escape_line`]).
    pub fn push(&mut self, line: String) {
        if self.frame_lines >= LOG_FRAME_LINES || self.bytes + line.len() > LOG_FRAME_BYTES {
            self.dropped += 1;
            return;
        }
        self.frame_lines += 1;
        self.bytes += line.len();
        self.lines.push(line);
    }

    /// Adds a line from the machine itself (never dropped, never escaped).
    pub(crate) fn push_system(&mut self, line: String) {
        self.lines.push(line);
    }

    /// Ends the frame: the next frame's limits start afresh, and a line says how many were
    /// dropped, if any.
    pub(crate) fn end_frame(&mut self) {
        if self.dropped > 0 {
            self.lines.push(format!(
                "kairo: {} log line(s) dropped this frame (at most {LOG_FRAME_LINES} lines and {LOG_FRAME_BYTES} bytes a frame)",
                self.dropped
            ));
        }
        self.frame_lines = 0;
        self.bytes = 0;
        self.dropped = 0;
    }

    /// Takes the lines logged so far.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.lines)
    }

    /// Puts `lines` before the ones logged so far (a reset keeps what was not printed).
    pub(crate) fn prepend(&mut self, lines: Vec<String>) {
        self.lines.splice(0..0, lines);
    }
}

/// Builds a log line from `pieces` (bytes, as Lua strings are): joined with spaces, control
/// characters and invalid UTF-8 escaped as `\xNN`, cut to [`LOG_LINE_BYTES`] bytes with
/// `...` when longer. Reads only as much of each piece as fits.
pub(crate) fn escape_line<'a>(pieces: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut line = String::new();
    let mut full = false;
    'pieces: for (i, piece) in pieces.into_iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        for chunk in piece.utf8_chunks() {
            for c in chunk.valid().chars() {
                if line.len() >= LOG_LINE_BYTES {
                    full = true;
                    break 'pieces;
                }
                if c.is_control() && c != '\t' {
                    line.push_str(&format!("\\x{:02X}", u32::from(c) & 0xFF));
                } else {
                    line.push(c);
                }
            }
            for &b in chunk.invalid() {
                if line.len() >= LOG_LINE_BYTES {
                    full = true;
                    break 'pieces;
                }
                line.push_str(&format!("\\x{b:02X}"));
            }
        }
    }
    if full {
        line.push_str("...");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_escaped_and_cut() {
        let line = escape_line([&b"a\x1b[2J\x07"[..], b"b\0", &[0xFF, b'c']]);
        assert_eq!(line, "a\\x1B[2J\\x07 b\\x00 \\xFFc");
        assert_eq!(escape_line([&b"tab\tok"[..]]), "tab\tok");
        let long = vec![b'x'; LOG_LINE_BYTES * 3];
        let cut = escape_line([&long[..]]);
        assert_eq!(cut.len(), LOG_LINE_BYTES + 3);
        assert!(cut.ends_with("..."));
        let accents = "é".repeat(LOG_LINE_BYTES);
        assert!(escape_line([accents.as_bytes()]).is_char_boundary(LOG_LINE_BYTES));
    }

    #[test]
    fn a_frame_keeps_a_bounded_log_and_says_what_it_dropped() {
        let mut log = LogBuffer::default();
        for i in 0..LOG_FRAME_LINES + 5 {
            log.push(format!("line {i}"));
        }
        log.end_frame();
        log.push("next frame".into());
        let lines = log.take();
        assert_eq!(lines.len(), LOG_FRAME_LINES + 2);
        assert_eq!(
            lines[LOG_FRAME_LINES],
            format!(
                "kairo: 5 log line(s) dropped this frame (at most {LOG_FRAME_LINES} lines and {LOG_FRAME_BYTES} bytes a frame)"
            )
        );
        assert_eq!(lines[LOG_FRAME_LINES + 1], "next frame");
    }
}
