//! Rewind: running a console's time backwards, one vblank at a time, frame-exact. The one
//! keeper of in-memory snapshots: the window's rewind and the libretro core's quick state
//! restores both use it, with windows of their own.
//!
//! The buffer keeps an in-memory snapshot of the whole console ([`ConsoleSnapshot`]) every
//! [`KEYFRAME_EVERY`] vblanks, for at least its window ([`REWIND_SECONDS`] seconds unless
//! made with [`Rewind::with_window`]) and within a memory budget, and optionally one more
//! snapshot [`Rewind::mark`]ed by the caller (where a state was last taken). Going back to vblank `t` restores the last keyframe at or before `t` and runs the
//! recorded input forward to `t` (silently), so the console is then exactly as it was at
//! `t` and, released there, goes on deterministically. The input is the caller's record of
//! every vblank since power-on (the same record a save state holds), cut back as time goes
//! back.

use std::collections::VecDeque;

use crate::console::{Console, ConsoleSnapshot};
use crate::input::InputFrame;
use crate::script::heap::RestoreError;

/// Vblanks between keyframes (the most a step back re-runs is one less).
pub const KEYFRAME_EVERY: u64 = 20;
/// Seconds of play the buffer keeps at least, memory allowing.
pub const REWIND_SECONDS: u64 = 60;
/// The memory the keyframes may take, in bytes.
pub const REWIND_BUDGET: usize = 256 * 1024 * 1024;

/// The keyframes of one running console.
#[derive(Debug)]
pub struct Rewind {
    /// Vblanks of play the keyframes reach back at least (memory allowing).
    window: u64,
    keyframes: VecDeque<ConsoleSnapshot>,
    /// The console where the caller last marked it.
    marked: Option<ConsoleSnapshot>,
    /// The hardware's size in a keyframe (measured once: it does not change with play).
    machine_bytes: Option<usize>,
    /// Keyframes dropped, kept to reuse their memory.
    spare: Vec<ConsoleSnapshot>,
}

impl Default for Rewind {
    /// The window's buffer: [`REWIND_SECONDS`] of play.
    fn default() -> Self {
        Rewind::with_window(REWIND_SECONDS * 60)
    }
}

impl Rewind {
    /// A buffer that reaches back at least `vblanks` of play (one keyframe more).
    pub(crate) fn with_window(vblanks: u64) -> Rewind {
        Rewind {
            window: vblanks + KEYFRAME_EVERY,
            keyframes: VecDeque::new(),
            marked: None,
            machine_bytes: None,
            spare: Vec::new(),
        }
    }

    /// Vblanks of play the keyframes reach back at least (one keyframe more than asked).
    pub fn window(&self) -> u64 {
        self.window
    }

    /// Forgets everything (the console was replaced, reset or loaded from a state).
    pub fn clear(&mut self) {
        self.spare.extend(self.keyframes.drain(..));
        self.spare.extend(self.marked.take());
        self.spare.truncate(2);
    }

    /// Keeps the console as it stands besides the keyframes (where a state was just
    /// taken: run-ahead goes back to exactly there every host frame).
    pub fn mark(&mut self, console: &Console) {
        let marked = match &mut self.marked {
            Some(marked) => marked,
            none => none.insert(self.spare.pop().unwrap_or_default()),
        };
        console.snapshot_into(marked);
    }

    /// Call after every vblank the console runs forward: takes a keyframe when one is due
    /// and drops those older than the rewind window (or past the memory budget).
    pub fn after_vblank(&mut self, console: &Console) {
        let now = console.vblanks();
        if !now.is_multiple_of(KEYFRAME_EVERY)
            || self.keyframes.back().is_some_and(|k| k.vblanks() >= now)
        {
            return;
        }
        if self.machine_bytes.is_none() {
            let encoded = postcard::to_allocvec(console.machine()).map_or(0, |b| b.len());
            self.machine_bytes = Some(encoded);
        }
        let mut keyframe = self.spare.pop().unwrap_or_default();
        console.snapshot_into(&mut keyframe);
        self.keyframes.push_back(keyframe);
        while let Some(oldest) = self.keyframes.front()
            && (now - oldest.vblanks() > self.window || self.bytes() > REWIND_BUDGET)
            && self.keyframes.len() > 1
        {
            let dropped = self.keyframes.pop_front().expect("a keyframe");
            self.spare.push(dropped);
        }
        self.spare.truncate(2);
    }

    /// The earliest vblank the console can go back to.
    pub fn earliest(&self) -> Option<u64> {
        self.keyframes.front().map(ConsoleSnapshot::vblanks)
    }

    /// Seconds of play the buffer reaches back from `now` (a vblank count).
    pub fn seconds(&self, now: u64) -> f32 {
        self.earliest()
            .map_or(0.0, |e| now.saturating_sub(e) as f32 / 60.0)
    }

    /// Bytes the keyframes (and the marked snapshot) take.
    pub fn bytes(&self) -> usize {
        let machine = self.machine_bytes.unwrap_or(0);
        let keyframes = self.keyframes.iter().chain(self.marked.as_ref());
        keyframes.map(|k| k.bytes() + machine).sum()
    }

    /// Moves `console` back to vblank `target` from the nearest snapshot at or before it (a
    /// keyframe or the marked one), replaying `inputs` (every vblank's input since power-on,
    /// which is cut to `target`). `Ok(false)` when no snapshot lies at or before `target`
    /// (nothing changes). A snapshot the console no longer agrees with empties the buffer and
    /// is reported.
    pub fn go_back_to(
        &mut self,
        console: &mut Console,
        inputs: &mut Vec<InputFrame>,
        target: u64,
    ) -> Result<bool, RestoreError> {
        let index = self.keyframes.iter().rposition(|k| k.vblanks() <= target);
        let keyframe = index.map(|i| &self.keyframes[i]);
        let marked = self.marked.as_ref().filter(|m| m.vblanks() <= target);
        let Some(nearest) = [keyframe, marked]
            .into_iter()
            .flatten()
            .max_by_key(|s| s.vblanks())
        else {
            return Ok(false);
        };
        if let Err(e) = console.restore(nearest) {
            self.clear();
            return Err(e);
        }
        let from = nearest.vblanks();
        let replayed: Vec<InputFrame> = (from..target)
            .map(|n| inputs.get(n as usize).copied().unwrap_or_default())
            .collect();
        // The run is a repeat of one already played: a fault it meets is met again.
        let _ = console.replay(&replayed);
        inputs.truncate(target as usize);
        // Snapshots after the target belong to a future that is now gone.
        self.forget_after(target);
        Ok(true)
    }

    /// Drops the snapshots taken after vblank `vblank` (the run's history was replaced from
    /// there on: they hold a future that is gone).
    pub(crate) fn forget_after(&mut self, vblank: u64) {
        while self.keyframes.back().is_some_and(|k| k.vblanks() > vblank) {
            let dropped = self.keyframes.pop_back().expect("a keyframe");
            self.spare.push(dropped);
        }
        if self.marked.as_ref().is_some_and(|m| m.vblanks() > vblank) {
            self.spare.extend(self.marked.take());
        }
        self.spare.truncate(2);
    }

    /// One vblank back from where `console` is.
    pub fn step_back(
        &mut self,
        console: &mut Console,
        inputs: &mut Vec<InputFrame>,
    ) -> Result<bool, RestoreError> {
        match console.vblanks().checked_sub(1) {
            Some(target) => self.go_back_to(console, inputs, target),
            None => Ok(false),
        }
    }
}
