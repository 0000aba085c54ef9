//! Keeps a running cart's save RAM on disk: read when the cart powers on, stored when it
//! changed (at most about once a second) and when the cart stops (closed, switched, reloaded,
//! the window shut). Files and their format: [`crate::savefile`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cart::Cart;
use crate::console::Console;
use crate::saveram::SaveRam;

pub use crate::savefile::STORE_EVERY;
use crate::savefile::StorePacing;

/// The folder save files live in: `$KAIRO_DATA_DIR`, else `saves` in the user's data folder.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KAIRO_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "kairo").map(|d| d.data_dir().join("saves"))
}

/// The save file of one running cart.
#[derive(Debug)]
pub struct SaveKeeper {
    dir: PathBuf,
    id: String,
    /// Whether the game wrote save RAM since it was last stored (or read).
    unstored: bool,
    pacing: StorePacing,
}

impl SaveKeeper {
    /// The keeper for `cart` in `dir`, if the cart has a `save_id`, with the save RAM stored
    /// there and a warning if the file was damaged.
    pub fn open(dir: &Path, cart: &Cart) -> Option<(SaveKeeper, SaveRam, Option<String>)> {
        let id = cart.manifest.save_id.clone()?;
        let loaded = crate::savefile::load(dir, &id);
        let keeper = SaveKeeper {
            dir: dir.to_path_buf(),
            id,
            unstored: false,
            pacing: StorePacing::default(),
        };
        Some((keeper, SaveRam::from_bytes(&loaded.data), loaded.warning))
    }

    /// Whether this keeper stores under `id`.
    pub fn keeps(&self, id: Option<&str>) -> bool {
        id == Some(self.id.as_str())
    }

    /// Notes what a vblank (or a power-on) of the running game said of save RAM
    /// ([`crate::session::Vblank::save_written`]).
    pub fn saw(&mut self, written: bool) {
        self.unstored |= written;
    }

    /// Stores `console`'s save RAM if the game wrote it since the last store and, unless
    /// `now` is `None` (a final store), [`STORE_EVERY`] has passed since the last one. `Err`
    /// says what failed.
    pub fn keep(&mut self, console: &Console, now: Option<Instant>) -> Result<bool, String> {
        if !self.unstored || !self.pacing.due(now) {
            return Ok(false);
        }
        let ram = &console.machine().save();
        self.unstored = false;
        self.pacing.stored(now);
        crate::savefile::store(&self.dir, &self.id, ram.used())
            .map(|()| true)
            .map_err(|e| {
                format!(
                    "cannot store save RAM in {}: {e}",
                    crate::savefile::path_for(&self.dir, &self.id).display()
                )
            })
    }
}
