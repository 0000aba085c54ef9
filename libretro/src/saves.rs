//! Save RAM kept by the core itself, in the frontend's save folder: `<save folder>/kairo/
//! <save_id>.ksav`, the window's file format and name ([`kairo::savefile`]: a checksum, atomic
//! writes, the previous copy kept as `.bak`, a damaged file kept aside). One file per cart
//! `save_id`, so carts never share save data whatever their paths, which the frontend's own
//! `.srm` (named after the content path) cannot promise.
//!
//! The file is read when the cart loads and stored when the game's save RAM changed (at once
//! the first time, then at most every [`STORE_EVERY`]) and at unload. What is stored is the
//! save RAM the player's game wrote ([`crate::core`] mirrors it): a state's replay never
//! writes here.
//!
//! Upgrading players: when the cart has no file here yet, save RAM an earlier version of the
//! core left in RetroArch's `.srm` is imported once, if that file can only be this cart's
//! ([`crate::srm_name`]), or if the player copied it to `kairo/<save_id>.srm`. The `.srm` is
//! left as it was.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kairo::savefile;
use kairo::saveram::SaveRam;
use kairo::spec::SAVE_BYTES;

use crate::abi::LogLevel;
use crate::srm_name::srm_name;

/// The core's folder inside the frontend's save folder.
pub const FOLDER: &str = "kairo";

/// Shortest time between two stores while the game keeps changing save RAM (the window's).
pub use kairo::savefile::STORE_EVERY;

/// A store that failed: the file and why.
#[derive(Debug)]
pub struct StoreError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot store save RAM in {}: {}",
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The save file of the loaded cart.
#[derive(Debug)]
pub struct SaveFile {
    /// `<save folder>/kairo`.
    dir: PathBuf,
    id: String,
    /// Save RAM as last read or stored (up to its last non-zero byte).
    on_disk: Vec<u8>,
    pacing: savefile::StorePacing,
    /// Whether the last store failed (said once until one succeeds).
    failing: bool,
}

/// What [`SaveFile::open`] found: the file, the save RAM to power on with, and lines for the
/// frontend's log.
pub struct Opened {
    pub file: SaveFile,
    pub save: SaveRam,
    pub notes: Vec<(LogLevel, String)>,
}

impl SaveFile {
    /// The save file of `id` under the frontend's `save_dir`, for the content at `content`
    /// (whose `.srm`, left by an earlier version of the core, may be imported).
    pub fn open(save_dir: &Path, id: &str, content: &str) -> Opened {
        let dir = save_dir.join(FOLDER);
        let mut notes = Vec::new();
        let mut file = SaveFile {
            dir,
            id: id.to_string(),
            on_disk: Vec::new(),
            pacing: savefile::StorePacing::default(),
            failing: false,
        };
        if !savefile::exists(&file.dir, id)
            && let Some(imported) = file.import(save_dir, content, &mut notes)
        {
            file.on_disk = imported;
        } else {
            let loaded = savefile::load(&file.dir, id);
            if let Some(warning) = loaded.warning {
                notes.push((LogLevel::Warn, format!("save data: {warning}")));
            }
            file.on_disk = SaveRam::from_bytes(&loaded.data).used().to_vec();
        }
        notes.push((
            LogLevel::Info,
            format!("save data: {}", file.path().display()),
        ));
        Opened {
            save: SaveRam::from_bytes(&file.on_disk),
            file,
            notes,
        }
    }

    /// The file's path.
    pub fn path(&self) -> PathBuf {
        savefile::path_for(&self.dir, &self.id)
    }

    /// Imports the first usable `.srm` (the player's copy in `kairo/<save_id>.srm`, else
    /// RetroArch's file for this content when it is this cart's alone) into the save file;
    /// its save RAM, or `None` when there was nothing to import.
    fn import(
        &mut self,
        save_dir: &Path,
        content: &str,
        notes: &mut Vec<(LogLevel, String)>,
    ) -> Option<Vec<u8>> {
        let copied = self.dir.join(format!("{}.srm", self.id));
        let source = if copied.symlink_metadata().is_ok() {
            copied
        } else {
            match srm_name(content) {
                Ok(name) => save_dir.join(format!("{name}.srm")),
                Err(shared) => {
                    let srm = shared.name().map(|n| save_dir.join(format!("{n}.srm")));
                    if let Some(srm) = srm.filter(|p| p.symlink_metadata().is_ok()) {
                        notes.push((
                            LogLevel::Info,
                            format!(
                                "save data: {} was not imported: {shared}, so it may be another \
                                 cart's; if it is this one's, copy it to {} and load the cart again",
                                srm.display(),
                                copied.display()
                            ),
                        ));
                    }
                    return None;
                }
            }
        };
        let bytes = match kairo::fsutil::read_capped(&source, SAVE_BYTES as u64) {
            Ok(bytes) => bytes,
            Err(kairo::fsutil::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return None;
            }
            Err(e) => {
                notes.push((
                    LogLevel::Warn,
                    format!("save data: {} was not imported: {e}", source.display()),
                ));
                return None;
            }
        };
        if bytes.len() != SAVE_BYTES {
            notes.push((
                LogLevel::Warn,
                format!(
                    "save data: {} was not imported: it holds {} bytes, Kairo's save RAM {SAVE_BYTES}",
                    source.display(),
                    bytes.len()
                ),
            ));
            return None;
        }
        let save = SaveRam::from_bytes(&bytes);
        if save.used().is_empty() {
            return None;
        }
        match savefile::store(&self.dir, &self.id, save.used()) {
            Ok(()) => {
                notes.push((
                    LogLevel::Info,
                    format!(
                        "save data: imported {} (kept by earlier versions of the core) into {}; \
                         the .srm is left as it was",
                        source.display(),
                        self.path().display()
                    ),
                ));
                Some(save.used().to_vec())
            }
            Err(e) => {
                notes.push((
                    LogLevel::Error,
                    format!(
                        "save data: cannot import {} into {}: {e}",
                        source.display(),
                        self.path().display()
                    ),
                ));
                // Played on all the same; the file stays where it is for the next load.
                Some(save.used().to_vec())
            }
        }
    }

    /// Stores `ram` if it differs from the file and, unless `now` is `None` (a final store),
    /// [`STORE_EVERY`] has passed since the last store. `Ok(true)` when it was written; an
    /// error is returned once until a store succeeds again (`Ok(false)` meanwhile).
    pub fn keep(&mut self, ram: &[u8], now: Option<Instant>) -> Result<bool, StoreError> {
        let used = &ram[..ram.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)];
        if used == self.on_disk.as_slice() {
            return Ok(false);
        }
        if !self.pacing.due(now) {
            return Ok(false);
        }
        self.pacing.stored(now);
        match savefile::store(&self.dir, &self.id, used) {
            Ok(()) => {
                self.on_disk = used.to_vec();
                self.failing = false;
                Ok(true)
            }
            Err(source) if !self.failing => {
                self.failing = true;
                Err(StoreError {
                    path: self.path(),
                    source,
                })
            }
            Err(_) => Ok(false),
        }
    }
}
