//! Rewind: running a console's time backwards, one vblank at a time, frame-exact.
//!
//! The buffer keeps an in-memory snapshot of the whole console ([`ConsoleSnapshot`]) every
//! [`KEYFRAME_EVERY`] vblanks, for at least [`REWIND_SECONDS`] seconds and within a memory
//! budget. Going back to vblank `t` restores the last keyframe at or before `t` and runs the
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
#[derive(Debug, Default)]
pub struct Rewind {
    keyframes: VecDeque<ConsoleSnapshot>,
    /// The hardware's size in a keyframe (measured once: it does not change with play).
    machine_bytes: Option<usize>,
    /// Keyframes dropped, kept to reuse their memory.
    spare: Vec<ConsoleSnapshot>,
}

impl Rewind {
    /// Forgets everything (the console was replaced, reset or loaded from a state).
    pub fn clear(&mut self) {
        self.spare.extend(self.keyframes.drain(..));
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
        let window = REWIND_SECONDS * 60 + KEYFRAME_EVERY;
        while let Some(oldest) = self.keyframes.front()
            && (now - oldest.vblanks() > window || self.bytes() > REWIND_BUDGET)
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

    /// Bytes the keyframes take.
    pub fn bytes(&self) -> usize {
        let machine = self.machine_bytes.unwrap_or(0);
        self.keyframes.iter().map(|k| k.bytes() + machine).sum()
    }

    /// Moves `console` back to vblank `target`, replaying `inputs` (every vblank's input
    /// since power-on, which is cut to `target`). `Ok(false)` when `target` is before the
    /// earliest keyframe (nothing changes). A keyframe the console no longer agrees with
    /// empties the buffer and is reported.
    pub fn go_back_to(
        &mut self,
        console: &mut Console,
        inputs: &mut Vec<InputFrame>,
        target: u64,
    ) -> Result<bool, RestoreError> {
        let Some(index) = self.keyframes.iter().rposition(|k| k.vblanks() <= target) else {
            return Ok(false);
        };
        if let Err(e) = console.restore(&self.keyframes[index]) {
            self.clear();
            return Err(e);
        }
        let from = self.keyframes[index].vblanks();
        for n in from..target {
            let input = inputs.get(n as usize).copied().unwrap_or_default();
            // The run is a repeat of one already played: a fault it meets is met again.
            let _ = console.tick(input);
            console.take_log();
        }
        console.take_audio();
        inputs.truncate(target as usize);
        // Keyframes after the target belong to a future that is now gone.
        while self.keyframes.len() > index + 1 {
            let dropped = self.keyframes.pop_back().expect("a keyframe");
            self.spare.push(dropped);
        }
        Ok(true)
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
