//! Save states for the frontend (`retro_serialize` / `retro_unserialize`), in Kairo's own
//! state format (`docs/state.md`): the run's history (the save RAM it powered on with, the
//! input of every vblank) and the machine, which a restore replays and checks. So a state
//! RetroArch writes loads in any later session, and in `kairo headless --load-state`.
//!
//! A full replay costs about a second per two minutes of play, far too slow for RetroArch's
//! rewind and run-ahead, which go back a few vblanks every host frame. So once the frontend
//! asks for states, the core also keeps in-memory snapshots of its own run
//! ([`kairo::rewind::Rewind`], the window's rewind buffer with a window of [`SNAPSHOT_SECONDS`]:
//! RetroArch runs its own rewind buffer beside it). A state of this cart and build whose history powered on with the
//! same save RAM is reached from the nearest snapshot inside the history it shares with the
//! run (else from power-on), playing only the input after it; the machine is then checked
//! against the state's. Anything else (another build, another cart, damage) goes through
//! `savestate::load`, which refuses it with its own message or replays it whole.
//!
//! The size reported to the frontend only grows, in steps of [`SIZE_STEP`]: a state is
//! padded up to it with a `PADD` chunk, which Kairo's reader skips like any unknown chunk.

use kairo::cart::Cart;
use kairo::console::Console;
use kairo::movie::Movie;
use kairo::saveram::SaveRam;
use kairo::savestate::{self, StateImage, file::Chunks};

use kairo::rewind::Rewind;

/// Seconds of play the core's own snapshots reach back.
pub const SNAPSHOT_SECONDS: u64 = 10;

/// The reported state size grows in steps of this many bytes (about half an hour of play's
/// input record for the bundled carts), so that the frontend sees it change seldom.
pub const SIZE_STEP: usize = 64 * 1024;
/// Bytes a chunk's header takes (tag and length).
const CHUNK_HEADER: usize = 8;

/// How a state was brought back (for tests and the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Along this run: from the nearest in-memory snapshot (or power-on) inside the history
    /// the state shares with the run, playing only the input after it.
    ThisRun,
    /// Through `savestate::load`: the whole history played again in a fresh console.
    FullReplay,
}

/// The state bookkeeping of one loaded cart.
pub struct States {
    /// The digest of the cart's files (as states name them), worked out once.
    digest: String,
    /// Whether the frontend has asked for states (snapshots are kept only from then on).
    keeping: bool,
    snapshots: Rewind,
    /// The size last reported to the frontend.
    reported: usize,
    /// The state worked out for `retro_serialize_size`, for the `retro_serialize` after it.
    pending: Option<Vec<u8>>,
}

impl States {
    pub fn new(cart: &Cart) -> States {
        States {
            digest: savestate::cart_digest(cart),
            keeping: false,
            snapshots: Rewind::with_window(SNAPSHOT_SECONDS * 60),
            reported: 0,
            pending: None,
        }
    }

    /// Forgets every snapshot (the console was reset or replaced).
    pub fn forget(&mut self) {
        self.snapshots.clear();
        self.pending = None;
    }

    /// Bytes the in-memory snapshots take.
    pub fn snapshot_bytes(&self) -> usize {
        self.snapshots.bytes()
    }

    /// Call after every vblank the console runs forward.
    pub fn after_vblank(&mut self, console: &Console) {
        self.pending = None;
        if self.keeping {
            self.snapshots.after_vblank(console);
        }
    }

    /// The size to report: at least the state as it stands now, rounded up to a step.
    pub fn size(&mut self, console: &Console, history: &Movie) -> usize {
        self.keeping = true;
        let state = savestate::save(console, history);
        let needed = state.len() + CHUNK_HEADER;
        if needed > self.reported {
            self.reported = needed.div_ceil(SIZE_STEP) * SIZE_STEP;
        }
        self.pending = Some(state);
        self.reported
    }

    /// Writes the state into `out`, padded to fill it.
    pub fn serialize(
        &mut self,
        console: &Console,
        history: &Movie,
        out: &mut [u8],
    ) -> Result<(), String> {
        self.keeping = true;
        let state = self
            .pending
            .take()
            .unwrap_or_else(|| savestate::save(console, history));
        let padded = pad(state, out.len()).ok_or_else(|| {
            format!(
                "the frontend's buffer holds {} bytes; the state needs {} (ask retro_serialize_size again)",
                out.len(),
                self.size(console, history)
            )
        })?;
        out.copy_from_slice(&padded);
        self.snapshots.mark(console);
        Ok(())
    }

    /// Brings `console` and `history` back to the state in `bytes`.
    pub fn unserialize(
        &mut self,
        console: &mut Console,
        history: &mut Movie,
        bytes: &[u8],
        label: &str,
    ) -> Result<Route, savestate::StateError> {
        self.keeping = true;
        self.pending = None;
        // After a failed attempt here (a machine that differs from the state's, which a
        // deterministic machine never gives) the full route below replays from power-on and
        // says what went wrong.
        if let Some(target) = self.same_run(console, history, bytes)
            && self.restore_from_run(console, history, &target)
        {
            return Ok(Route::ThisRun);
        }
        let restored = savestate::load(console.cart().clone(), bytes, label)?;
        *console = restored.console;
        *history = restored.history;
        self.forget();
        Ok(Route::FullReplay)
    }

    /// The state's history and machine, if it is a state of this cart and build whose
    /// history powered on with the same save RAM as this run (else `None`: the full route
    /// decides, and words any refusal).
    fn same_run(&self, console: &Console, history: &Movie, bytes: &[u8]) -> Option<StateImage> {
        let name = console.cart().name();
        let image = savestate::read(bytes, "state", name, &self.digest).ok()?;
        (image.history.save == history.save).then_some(image)
    }

    /// Goes back along this run to where it parts from `target`'s history (from a snapshot,
    /// else from power-on), then plays `target`'s input from there; `true` if the machine
    /// then is the state's.
    fn restore_from_run(
        &mut self,
        console: &mut Console,
        history: &mut Movie,
        target: &StateImage,
    ) -> bool {
        let theirs = &target.history.ticks;
        let common = history
            .ticks
            .iter()
            .zip(theirs)
            .take_while(|(a, b)| a == b)
            .count();
        let back = common < history.ticks.len();
        if back
            && !matches!(
                self.snapshots
                    .go_back_to(console, &mut history.ticks, common as u64),
                Ok(true)
            )
        {
            let power_on = SaveRam::from_bytes(&history.save);
            let Ok(fresh) = Console::with_save(console.cart().clone(), power_on) else {
                return false;
            };
            *console = fresh;
            history.ticks.clear();
            self.snapshots.clear();
        }
        console.set_presenting(false);
        for &input in &theirs[history.ticks.len()..] {
            history.ticks.push(input);
            // A fault met here was met by the run the state recorded too; the check below
            // compares the outcome.
            let _ = console.tick(input);
            console.take_log();
            console.take_audio();
            self.snapshots.after_vblank(console);
        }
        console.set_presenting(true);
        let matches = postcard::to_stdvec(console.machine()).is_ok_and(|m| m == target.machine);
        if !matches {
            self.snapshots.clear();
        }
        matches
    }
}

/// `state` padded with a `PADD` chunk to exactly `len` bytes (`None` if it does not fit).
fn pad(state: Vec<u8>, len: usize) -> Option<Vec<u8>> {
    if state.len() == len {
        return Some(state);
    }
    let room = len.checked_sub(state.len() + CHUNK_HEADER)?;
    let mut chunks = Chunks::decode(&state).expect("a state this build just wrote");
    chunks.push(b"PADD", vec![0; room]);
    let padded = chunks.encode();
    debug_assert_eq!(padded.len(), len);
    Some(padded)
}
