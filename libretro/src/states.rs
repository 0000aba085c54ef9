//! Save states for the frontend (`retro_serialize` / `retro_unserialize`), in Kairo's own
//! state format (`docs/state.md`): the run's history (the save RAM it powered on with, the
//! input of every vblank) and the machine. So a state RetroArch writes loads in any later
//! session, and in `kairo headless --load-state`.
//!
//! The routes a state comes back by are the core [`Session`]'s: a state this process saved
//! comes back from memory at once, one along this run from the nearest snapshot, any other
//! by playing its whole history again (about a second per two minutes of play). RetroArch's
//! rewind and run-ahead go back a few vblanks every host frame, so once the frontend asks for
//! states the session also keeps rewind keyframes reaching [`SNAPSHOT_SECONDS`] back
//! (RetroArch runs its own rewind buffer beside them).
//!
//! The size reported to the frontend only grows, in steps of [`SIZE_STEP`]: a state is
//! padded up to it with a `PADD` chunk, which Kairo's reader skips like any unknown chunk.

use kairo::savestate::{StateError, file::Chunks};
use kairo::session::{Route, Session};

/// Seconds of play the core's own snapshots reach back.
pub const SNAPSHOT_SECONDS: u64 = 10;

/// The reported state size grows in steps of this many bytes (about half an hour of play's
/// input record for the bundled carts), so that the frontend sees it change seldom.
pub const SIZE_STEP: usize = 64 * 1024;
/// Bytes a chunk's header takes (tag and length).
const CHUNK_HEADER: usize = 8;

/// The state bookkeeping of one loaded cart.
#[derive(Default)]
pub struct States {
    /// Whether the frontend has asked for states (keyframes are kept only from then on).
    keeping: bool,
    /// The size last reported to the frontend.
    reported: usize,
    /// The state worked out for `retro_serialize_size`, for the `retro_serialize` after it.
    pending: Option<Vec<u8>>,
}

impl States {
    /// Forgets the state worked out ahead (the game moved on, was reset or replaced).
    pub fn forget(&mut self) {
        self.pending = None;
    }

    /// The frontend asks for states: from now on the game keeps keyframes.
    fn keep(&mut self, game: &mut Session) {
        if !self.keeping {
            self.keeping = true;
            game.keep_rewind(SNAPSHOT_SECONDS * 60);
        }
    }

    /// The size to report: at least the state as it stands now, rounded up to a step (one
    /// step when the cart has stopped and no state can be taken).
    pub fn size(&mut self, game: &mut Session) -> usize {
        self.keep(game);
        let needed = match game.save_state() {
            Ok(state) => {
                let needed = state.len() + CHUNK_HEADER;
                self.pending = Some(state);
                needed
            }
            Err(_) => 1,
        };
        if needed > self.reported {
            self.reported = needed.div_ceil(SIZE_STEP) * SIZE_STEP;
        }
        self.reported
    }

    /// Writes the state into `out`, padded to fill it.
    pub fn serialize(&mut self, game: &mut Session, out: &mut [u8]) -> Result<(), String> {
        self.keep(game);
        let state = match self.pending.take() {
            Some(state) => state,
            None => game.save_state().map_err(|e| e.to_string())?,
        };
        let needed = state.len();
        let padded = pad(state, out.len()).ok_or_else(|| {
            format!(
                "the frontend's buffer holds {} bytes; the state needs {needed} (ask retro_serialize_size again)",
                out.len(),
            )
        })?;
        out.copy_from_slice(&padded);
        Ok(())
    }

    /// Brings `game` back to the state in `bytes`.
    pub fn unserialize(
        &mut self,
        game: &mut Session,
        bytes: &[u8],
        label: &str,
    ) -> Result<Route, StateError> {
        self.keep(game);
        self.pending = None;
        game.load_state(bytes, label)
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
