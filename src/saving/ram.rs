//! A cart's save RAM on disk, under its `save_id`: what a headless run powers on with and
//! stores at its end ([`starting_save`], [`store_save`]), and the window's [`SaveKeeper`]:
//! read when the cart powers on, stored when the game wrote it (at most about once a second)
//! and when the cart stops (closed, switched, reloaded, the window shut). Files and their
//! format: [`crate::savefile`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cart::Cart;
use crate::console::Console;
use crate::movie::Movie;
use crate::saveram::SaveRam;

pub use crate::savefile::STORE_EVERY;
use crate::savefile::StorePacing;

#[cfg(feature = "host")]
/// The folder save files live in: `$KAIRO_DATA_DIR`, else `saves` in the user's data folder.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KAIRO_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "kairo").map(|d| d.data_dir().join("saves"))
}

/// Save RAM for a headless power-on: a movie's own (so replays match the recording), else
/// what `data` holds for the cart's `save_id`, else empty. Warnings (a damaged save file,
/// a cart with no `save_id`) go to `warn`.
pub fn starting_save(
    cart: &Cart,
    movie: Option<&Movie>,
    data: Option<&Path>,
    warn: &mut dyn FnMut(&str),
) -> SaveRam {
    if let Some(movie) = movie {
        return SaveRam::from_bytes(&movie.save);
    }
    let Some(dir) = data else {
        return SaveRam::default();
    };
    let Some(id) = &cart.manifest.save_id else {
        warn(&format!(
            "{} has no save_id in cart.toml: its save RAM is not kept in {}",
            cart.name(),
            dir.display()
        ));
        return SaveRam::default();
    };
    let loaded = crate::savefile::load(dir, id);
    if let Some(warning) = &loaded.warning {
        warn(warning);
    }
    SaveRam::from_bytes(&loaded.data)
}

/// Stores the console's save RAM in `dir` under the cart's `save_id` if the run changed it
/// (nothing without a `save_id`).
pub fn store_save(console: &Console, dir: &Path) -> crate::error::Result<()> {
    let Some(id) = &console.cart().manifest.save_id else {
        return Ok(());
    };
    if console.machine().save().changes() == 0 {
        return Ok(());
    }
    crate::savefile::store(dir, id, console.machine().save().used()).map_err(
        crate::error::ToolError::write(crate::savefile::path_for(dir, id)),
    )
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
