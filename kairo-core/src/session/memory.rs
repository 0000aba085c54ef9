//! States this process saved, kept in memory so that loading one again is a restore, not a
//! replay. An entry holds the console as it stood (a [`ConsoleSnapshot`]) beside what the
//! state file holds (the history and the serialized machine); a state read back is matched
//! by comparing exactly those, so a hit is the very run the file records, never a look-alike.
//! Snapshots belong to one Lua state: after a reset or a replayed load they no longer apply,
//! and [`StateMemory::clear`] is called.

use std::collections::VecDeque;

use crate::console::{Console, ConsoleSnapshot};
use crate::savestate::StateImage;

/// States kept at most (the window has 10 slots; the libretro core saves every frame for
/// run-ahead, and needs only the last few).
pub(crate) const KEPT_STATES: usize = 16;
/// The memory they may take together, in bytes.
pub(crate) const KEPT_BYTES: usize = 128 * 1024 * 1024;

/// One state saved by this process.
#[derive(Debug)]
struct Kept {
    /// A checksum of the machine, to pass over entries quickly.
    key: u32,
    image: StateImage,
    snapshot: ConsoleSnapshot,
}

impl Kept {
    fn bytes(&self) -> usize {
        self.snapshot.bytes()
            + self.image.machine.len()
            + self.image.history.ticks.len() * std::mem::size_of::<crate::input::InputFrame>()
    }
}

/// The states this process saved, the newest last.
#[derive(Debug, Default)]
pub struct StateMemory {
    kept: VecDeque<Kept>,
}

impl StateMemory {
    /// Keeps `console`, of which `image` is the state just saved.
    pub fn keep(&mut self, console: &Console, image: StateImage) {
        let key = crc32fast::hash(&image.machine);
        if let Some(at) = self.find(key, &image) {
            // The same state again (run-ahead saves one every frame): the newest now.
            let kept = self.kept.remove(at).expect("found");
            self.kept.push_back(kept);
            return;
        }
        let reused = match self.kept.len() >= KEPT_STATES {
            true => self.kept.pop_front().map(|k| k.snapshot),
            false => None,
        };
        let mut snapshot = reused.unwrap_or_default();
        console.snapshot_into(&mut snapshot);
        self.kept.push_back(Kept {
            key,
            image,
            snapshot,
        });
        while self.bytes() > KEPT_BYTES && self.kept.len() > 1 {
            self.kept.pop_front();
        }
    }

    /// The snapshot of the state `image` holds, if this process saved exactly that state.
    pub(crate) fn find_snapshot(&self, image: &StateImage) -> Option<&ConsoleSnapshot> {
        let key = crc32fast::hash(&image.machine);
        self.find(key, image).map(|at| &self.kept[at].snapshot)
    }

    fn find(&self, key: u32, image: &StateImage) -> Option<usize> {
        self.kept.iter().rposition(|k| {
            k.key == key
                && k.image.history.ticks == image.history.ticks
                && k.image.history.save == image.history.save
                && k.image.machine == image.machine
        })
    }

    /// Forgets every state (the console's Lua state was replaced).
    pub fn clear(&mut self) {
        self.kept.clear();
    }

    /// States kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether no state is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Bytes the kept states take.
    pub fn bytes(&self) -> usize {
        self.kept.iter().map(Kept::bytes).sum()
    }
}
