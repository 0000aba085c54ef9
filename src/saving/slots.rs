//! Save-state slots in the window: [`SLOTS`] per cart, each a state file
//! ([`crate::savestate`]) in `<data folder>/states/<cart>/slotN.kst` with two extra
//! chunks, a thumbnail (`THMB`) and the time it was saved (`TIME`). Written atomically.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::cart::Cart;
use crate::fsutil::ReadError;
use crate::savestate::{self, StateError, file::Chunks};
use crate::session::{Route, Session};
use crate::spec::{SCREEN_H, SCREEN_W};

/// Slots per cart.
pub const SLOTS: usize = 4;
/// Thumbnail side in pixels: the picture at a quarter of its size.
pub const THUMB: usize = 64;

/// The folder of `cart`'s slots in `data_dir`: named by [`cart_key`].
pub fn folder(data_dir: &Path, cart: &Cart) -> PathBuf {
    data_dir.join("states").join(cart_key(cart))
}

/// The name of a cart's folders of states and movies: its `save_id`, else its name with
/// anything but ASCII letters and digits made `_` (at most 64 characters).
pub(crate) fn cart_key(cart: &Cart) -> String {
    match &cart.manifest.save_id {
        Some(id) => id.clone(),
        None => cart
            .name()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(64)
            .collect(),
    }
}

/// The file of slot `slot` (0-based) in `folder`.
pub fn path(folder: &Path, slot: usize) -> PathBuf {
    folder.join(format!("slot{}.kst", slot + 1))
}

/// The picture as a [`THUMB`] x [`THUMB`] RGB thumbnail (each pixel the mean of a 4x4 block).
pub fn thumbnail(rgba: &[u8]) -> Vec<u8> {
    let step = SCREEN_W / THUMB;
    let mut out = Vec::with_capacity(THUMB * THUMB * 3);
    for ty in 0..THUMB {
        for tx in 0..THUMB {
            let mut sum = [0u32; 3];
            for y in ty * step..(ty + 1) * step {
                for x in tx * step..(tx + 1) * step {
                    let at = (y * SCREEN_W + x) * 4;
                    for (c, s) in sum.iter_mut().enumerate() {
                        *s += u32::from(rgba[at + c]);
                    }
                }
            }
            out.extend(sum.iter().map(|s| (s / (step * step) as u32) as u8));
        }
    }
    debug_assert_eq!(rgba.len(), SCREEN_W * SCREEN_H * 4);
    out
}

/// Seconds since 1970 now (0 if the clock is before it).
pub(crate) fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Saves the game `session` runs into slot `slot` of `folder` (this process then loads it
/// from memory).
pub fn save(folder: &Path, slot: usize, session: &mut Session) -> Result<(), String> {
    let file = path(folder, slot);
    let bytes = session.save_state().map_err(|e| e.to_string())?;
    let mut chunks = Chunks::decode(&bytes).map_err(|e| e.to_string())?;
    chunks.push(b"THMB", thumbnail(&session.console().rgba()));
    chunks.push(b"TIME", now_seconds().to_le_bytes().to_vec());
    std::fs::create_dir_all(folder)
        .and_then(|()| crate::fsutil::write_atomic(&file, &chunks.encode()))
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// What a slot shows in the menu.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotInfo {
    /// When it was saved (seconds since 1970), `None` for an empty or unreadable slot.
    pub saved: Option<u64>,
    /// [`THUMB`] x [`THUMB`] RGB.
    pub thumbnail: Option<Vec<u8>>,
    /// Why the slot's file cannot be used, if it cannot.
    pub problem: Option<String>,
}

/// Reads slot `slot`'s label data (not the state itself).
pub fn info(folder: &Path, slot: usize) -> SlotInfo {
    let file = path(folder, slot);
    let bytes = match crate::fsutil::read_capped(&file, savestate::MAX_STATE_BYTES) {
        Ok(bytes) => bytes,
        Err(crate::fsutil::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return SlotInfo::default();
        }
        Err(e) => {
            return SlotInfo {
                problem: Some(e.to_string()),
                ..SlotInfo::default()
            };
        }
    };
    match Chunks::decode(&bytes) {
        Ok(chunks) => SlotInfo {
            saved: chunks
                .get("TIME")
                .ok()
                .and_then(|t| t.try_into().ok())
                .map(u64::from_le_bytes),
            thumbnail: chunks
                .get("THMB")
                .ok()
                .filter(|t| t.len() == THUMB * THUMB * 3)
                .map(<[u8]>::to_vec),
            problem: None,
        },
        Err(e) => SlotInfo {
            problem: Some(e.to_string()),
            ..SlotInfo::default()
        },
    }
}

/// Loads slot `slot` of `folder` into `session` (by the quickest route); `Err` is one line
/// naming the file, and leaves the session as it was.
pub fn load(folder: &Path, slot: usize, session: &mut Session) -> Result<Route, String> {
    let file = path(folder, slot);
    session.load_state_file(&file).map_err(|e| match e {
        StateError::Read(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            format!("slot {} is empty", slot + 1)
        }
        e => format!("{}: {e}", file.display()),
    })
}

/// "just now", "5 min ago", "3 h ago", "2 days ago" for a time `saved` seconds after 1970.
pub fn age(saved: u64) -> String {
    let secs = now_seconds().saturating_sub(saved);
    match secs {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", secs / 60),
        3600..86_400 => format!("{} h ago", secs / 3600),
        _ => format!("{} days ago", secs / 86_400),
    }
}
