//! Save states: the one state format of every front end (`kairo headless --save-state` and
//! `--load-state`, the window's slots, the libretro core).
//!
//! A state holds the whole history of the run since power-on, not the cart's Lua heap: the
//! save RAM the run powered on with, the input of every vblank, and the machine (hardware)
//! as it stood when saved. Restoring powers the cart on with that save RAM, plays the input
//! again at full speed (the machine is deterministic) and checks that the machine came out
//! bit-identical before going on; so everything a cart can build — coroutines suspended
//! mid-pattern, closures sharing upvalues, metatables, tables as keys — comes back exactly,
//! in the same process or another, and no Lua code or data is ever read from a file.
//! Restoring costs a replay of the run (thousands of frames a second); `docs/state.md` says
//! what that means in practice.
//!
//! The file ([`file`]) also names the cart (its name and a digest of its files) and the build
//! that wrote it: a state of another cart, of edited cart files or from another build is
//! refused with one line.

pub mod file;

use thiserror::Error;

use crate::cart::Cart;
use crate::console::Console;
use crate::movie::{Movie, MovieError};
use crate::saveram::SaveRam;
use crate::script::ScriptError;
use file::{Chunks, StateFileError};

/// The build a state needs: the same Kairo version and machine. The machine's revision goes
/// up whenever what the machine does or how its state serializes changes within a version
/// (revision 2: fixed-point oscillator phases; 3: each script call's counted work charged
/// when it returns; 4: PICO-8 carts run in the layer's frame driver, `flip`, and their ROM
/// in the machine for `cstore`), so a state never meets a machine that would play its run differently.
pub const BUILD_ID: &str = concat!("kairo ", env!("CARGO_PKG_VERSION"), " (machine 4), Lua 5.4");

/// Why a state cannot be restored.
#[derive(Debug, Error)]
pub enum StateError {
    #[error("{0}")]
    Read(#[from] crate::fsutil::ReadError),
    #[error("{0}")]
    File(#[from] StateFileError),
    #[error("written by another build ({theirs}); this is {BUILD_ID}")]
    Build { theirs: String },
    #[error("a state of {name}, not of this cart")]
    OtherCart { name: String },
    #[error("a state of {name} as its files were then; the cart's files have changed since")]
    CartChanged { name: String },
    #[error("its input record: {0}")]
    Input(#[from] MovieError),
    #[error("the cart failed while its run was played again: {0}")]
    Replay(ScriptError),
    #[error("playing its run again did not give the same machine at vblank {vblank}")]
    Diverged { vblank: usize },
    #[error(
        "the cart stopped at frame {frame} ({fault}); a state of it could not be loaded (reset, or load an earlier state)"
    )]
    Faulted { frame: u64, fault: ScriptError },
}

/// A digest of the cart's files (names and contents), naming the cart's exact version.
pub(crate) fn cart_digest(cart: &Cart) -> String {
    let mut bytes = Vec::new();
    for (name, data) in cart.files.iter() {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(data);
    }
    format!(
        "{:016x}-{:08x}",
        crate::hash::fnv1a64(&bytes),
        crc32fast::hash(&bytes)
    )
}

/// The machine of `console` serialized: what a state's `MACH` chunk holds before deflating.
pub(crate) fn machine_bytes(console: &Console) -> Vec<u8> {
    postcard::to_stdvec(console.machine()).expect("the machine serializes")
}

/// `bytes` deflated (the machine is mostly zeros and repeats).
fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("in memory");
    encoder.finish().expect("in memory")
}

/// Inflates at most `cap` bytes: `None` if the data is damaged or larger.
pub(crate) fn inflate(bytes: &[u8], cap: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(bytes)
        .take(cap + 1)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= cap).then_some(out)
}

/// Largest machine image accepted (it is about 100 KB).
pub(crate) const MAX_MACHINE_BYTES: u64 = 16 * 1024 * 1024;

/// The state file of `console` after running `history` (every vblank's input since power-on
/// and the save RAM it powered on with).
pub fn save(console: &Console, history: &Movie) -> Vec<u8> {
    encode(console.cart(), &image(console, history))
}

/// What a state of `console` after `history` holds (the machine serialized, not deflated).
pub fn image(console: &Console, history: &Movie) -> StateImage {
    StateImage {
        history: history.clone(),
        machine: machine_bytes(console),
    }
}

/// The state file of `image`, a state of `cart`.
pub fn encode(cart: &Cart, image: &StateImage) -> Vec<u8> {
    let mut chunks = Chunks::default();
    chunks.push(b"BILD", BUILD_ID.as_bytes().to_vec());
    chunks.push(b"NAME", cart.name().as_bytes().to_vec());
    chunks.push(b"CART", cart_digest(cart).into_bytes());
    chunks.push(b"INPT", image.history.to_text().into_bytes());
    chunks.push(b"MACH", deflate(&image.machine));
    chunks.encode()
}

/// Whether `console` is the machine `image` holds, bit for bit.
pub(crate) fn machine_matches(console: &Console, image: &StateImage) -> bool {
    machine_bytes(console) == image.machine
}

/// Largest state file read: a ten-hour input record and the machine fit well inside.
pub const MAX_STATE_BYTES: u64 = 256 * 1024 * 1024;

/// The bytes of the state file at `path` (capped at [`MAX_STATE_BYTES`]).
pub(crate) fn read_file(path: &std::path::Path) -> Result<Vec<u8>, StateError> {
    Ok(crate::fsutil::read_capped(path, MAX_STATE_BYTES)?)
}

/// What a state file holds, read and checked against a cart: the run's history and the
/// machine as it was saved (serialized, inflated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateImage {
    pub history: Movie,
    pub machine: Vec<u8>,
}

/// Reads the state in `bytes` (`file` names it in messages), refusing a state of another
/// build, of another cart than the one named `name`, or of that cart with other files than
/// those of `digest` ([`cart_digest`]). Every front end reads states through here.
pub fn read(bytes: &[u8], file: &str, name: &str, digest: &str) -> Result<StateImage, StateError> {
    let chunks = Chunks::decode(bytes)?;
    let text = |tag| -> Result<String, StateError> {
        Ok(String::from_utf8_lossy(chunks.get(tag)?).into_owned())
    };
    let build = text("BILD")?;
    if build != BUILD_ID {
        return Err(StateError::Build { theirs: build });
    }
    let theirs = text("NAME")?;
    if theirs != name {
        return Err(StateError::OtherCart { name: theirs });
    }
    if text("CART")? != digest {
        return Err(StateError::CartChanged { name: theirs });
    }
    let history = Movie::parse(&text("INPT")?, file)?;
    let machine = inflate(chunks.get("MACH")?, MAX_MACHINE_BYTES).ok_or(StateFileError::Chunk)?;
    Ok(StateImage { history, machine })
}

/// Powers `cart` on with the save RAM of `image`'s history, plays the history again without
/// drawing and checks that the machine came out as `image` holds it: the console where the
/// state was saved.
pub fn replay(cart: Cart, image: &StateImage) -> Result<Console, StateError> {
    let save = SaveRam::from_bytes(&image.history.save);
    let mut console = Console::with_save(cart, save).map_err(StateError::Replay)?;
    console
        .replay(&image.history.ticks)
        .map_err(StateError::Replay)?;
    if !machine_matches(&console, image) {
        return Err(StateError::Diverged {
            vblank: image.history.ticks.len(),
        });
    }
    Ok(console)
}
