//! In-memory snapshots of the core's own run, for restoring states quickly: a keyframe every
//! [`KEYFRAME_EVERY`] vblanks for the last [`KEYFRAMES`] of them (10 s of play), and the
//! console as it was at the last `retro_serialize` (run-ahead goes back to exactly there every
//! host frame). Going back to a vblank restores the nearest snapshot at or before it and
//! plays the recorded input up to it; snapshots after it belong to a future being left and
//! are dropped.
//!
//! Snapshots are [`ConsoleSnapshot`]s: memory copies of the console, valid only in this
//! process (see docs/state.md, "In-memory snapshots"). The window's rewind buffer
//! (`kairo::rewind`) keeps a minute of them; a core keeps less, as RetroArch runs its own
//! rewind buffer beside it.

use std::collections::VecDeque;

use kairo::console::{Console, ConsoleSnapshot};
use kairo::input::InputFrame;

/// Vblanks between keyframes.
pub const KEYFRAME_EVERY: u64 = 20;
/// Keyframes kept (the oldest is dropped first).
pub const KEYFRAMES: usize = 30;

/// The snapshots of one run.
#[derive(Debug, Default)]
pub struct Snapshots {
    keyframes: VecDeque<ConsoleSnapshot>,
    /// The console at the last `retro_serialize`.
    marked: Option<ConsoleSnapshot>,
    /// Dropped snapshots, kept to reuse their memory.
    spare: Vec<ConsoleSnapshot>,
}

impl Snapshots {
    /// Forgets every snapshot (the console was reset or replaced).
    pub fn clear(&mut self) {
        self.spare.extend(self.keyframes.drain(..));
        self.spare.extend(self.marked.take());
        self.spare.truncate(2);
    }

    /// Call after every vblank run forward: takes a keyframe when one is due.
    pub fn after_vblank(&mut self, console: &Console) {
        let now = console.vblanks();
        if !now.is_multiple_of(KEYFRAME_EVERY)
            || self.keyframes.back().is_some_and(|k| k.vblanks() >= now)
        {
            return;
        }
        if self.keyframes.len() >= KEYFRAMES
            && let Some(oldest) = self.keyframes.pop_front()
        {
            self.spare.push(oldest);
        }
        let mut keyframe = self.spare.pop().unwrap_or_default();
        console.snapshot_into(&mut keyframe);
        self.keyframes.push_back(keyframe);
    }

    /// Keeps the console as it stands (the point a state was just taken at).
    pub fn mark(&mut self, console: &Console) {
        let marked = match &mut self.marked {
            Some(marked) => marked,
            none => none.insert(self.spare.pop().unwrap_or_default()),
        };
        console.snapshot_into(marked);
    }

    /// Moves `console` back to vblank `to`, playing `inputs` (every vblank's input since
    /// power-on, cut to `to`) from the nearest snapshot. `false` (nothing changed) when no
    /// snapshot lies at or before `to`, or the console refuses one (then all are dropped).
    pub fn go_back(
        &mut self,
        console: &mut Console,
        inputs: &mut Vec<InputFrame>,
        to: u64,
    ) -> bool {
        while self.keyframes.back().is_some_and(|k| k.vblanks() > to) {
            let dropped = self.keyframes.pop_back().expect("a keyframe");
            self.spare.push(dropped);
        }
        if self.marked.as_ref().is_some_and(|m| m.vblanks() > to) {
            self.spare.extend(self.marked.take());
        }
        let nearest = [self.keyframes.back(), self.marked.as_ref()]
            .into_iter()
            .flatten()
            .max_by_key(|s| s.vblanks());
        let Some(nearest) = nearest else {
            return false;
        };
        if console.restore(nearest).is_err() {
            self.clear();
            return false;
        }
        for n in nearest.vblanks()..to {
            // The vblanks are a repeat of ones already played: a fault is met again.
            let _ = console.tick(inputs[n as usize]);
            console.take_log();
        }
        console.take_audio();
        inputs.truncate(to as usize);
        true
    }

    /// Bytes the snapshots hold (for the docs' figures).
    pub fn bytes(&self) -> usize {
        self.keyframes
            .iter()
            .chain(self.marked.as_ref())
            .map(ConsoleSnapshot::bytes)
            .sum()
    }
}
