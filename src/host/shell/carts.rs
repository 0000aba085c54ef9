//! The shell's carts: the cart open in the window ([`OpenCart`]: its session, save keeper,
//! movie and unplayed sound), opening one (from the command line, the browser or a drop),
//! booting it into a session, watching its folder and reloading it when its files change,
//! and retrying after a failure.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::{Screen, Shell, movies};
use crate::cart::Cart;
use crate::host::config;
use crate::host::reload::CartWatcher;
use crate::profiling::live::Profiler;
use crate::rewind::REWIND_SECONDS;
use crate::saving::ram::SaveKeeper;
use crate::session::Session;

/// How a session's cart is (re)built from its path.
pub type Build = std::sync::Arc<dyn Fn(&Path) -> crate::error::Result<Cart>>;

/// Reads a cart folder or `.kcart`.
fn open_cart(path: &Path) -> crate::error::Result<Cart> {
    Ok(Cart::open(path)?)
}

/// A cart opened in the window: where it came from, its files watched, its save RAM kept,
/// and the game it runs (none while it cannot start).
pub(super) struct OpenCart {
    pub(super) path: PathBuf,
    pub(super) build: Build,
    pub(super) game: Option<Session>,
    /// The last version of the cart that booted, to fall back to after a failed reload.
    pub(super) last_good: Option<Cart>,
    pub(super) watcher: Option<CartWatcher>,
    /// The `save_id` of the cart running (save RAM carries over a reboot while it stays).
    pub(super) save_id: Option<String>,
    /// Stores the save RAM of a cart with a `save_id`, when there is a data folder.
    pub(super) keeper: Option<SaveKeeper>,
    /// A movie being recorded or played back.
    pub(super) movie: movies::MovieMode,
    /// The game's sound not yet handed to the sound card.
    pub(super) audio: Vec<f32>,
}

impl OpenCart {
    /// Runs the game one vblank with `input` (its session keeps the history and rewind
    /// keyframes), collecting its profile when shown; `Err` is the fault that stopped it.
    pub(super) fn advance(
        &mut self,
        input: crate::input::InputFrame,
        profiler: Option<&mut Profiler>,
    ) -> Result<(), String> {
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        let vblank = game.tick(input);
        if let Some(profiler) = profiler {
            profiler.collect(vblank.profile);
        }
        for line in &vblank.log {
            crate::out::print_line(line);
        }
        self.audio.extend_from_slice(&vblank.audio);
        if let Some(keeper) = &mut self.keeper {
            keeper.saw(vblank.save_written);
        }
        match vblank.fault {
            Some(fault) => Err(fault.error.to_string()),
            None => Ok(()),
        }
    }

    /// Vblanks the game has run since power-on (0 with none).
    pub(super) fn vblanks(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.history().ticks.len())
    }
}

impl Shell {
    /// Opens the cart at `path` (folder or `.kcart`), from the command line, the browser or a
    /// drop onto the window. Folder carts are watched and reload when their files change.
    pub fn open(&mut self, path: &Path) {
        self.recent.touch(path);
        if let Some(dir) = &self.config_dir
            && let Err(e) = config::save(dir, "recent.toml", &self.recent)
        {
            crate::out::eprint_line(&format!("kairo: cannot remember recent carts: {e}"));
        }
        let watcher = path
            .is_dir()
            .then(|| CartWatcher::watch(path).ok())
            .flatten();
        self.start_session(path, Arc::new(open_cart), watcher);
    }

    /// Opens a cart that `build` makes from `path` (the pattern previewer builds one from an
    /// XML file); it is rebuilt when the files in `path`'s folder change.
    pub(crate) fn open_built(&mut self, path: &Path, build: Build) {
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let watcher = CartWatcher::watch(folder).ok();
        self.start_session(path, build, watcher);
    }

    pub(super) fn start_session(
        &mut self,
        path: &Path,
        build: Build,
        watcher: Option<CartWatcher>,
    ) {
        // A match (or its greeting) was for the cart being closed.
        self.netplay.leave();
        let cart = build(path);
        self.session = Some(OpenCart {
            path: path.to_path_buf(),
            build,
            game: None,
            last_good: None,
            watcher,
            save_id: None,
            keeper: None,
            movie: movies::MovieMode::Off,
            audio: Vec::new(),
        });
        self.boot(cart);
    }

    /// Starts `cart` in the current session with the player's save RAM, or shows why it
    /// cannot start. A movie being recorded is written first; a playback ends.
    pub(super) fn boot(&mut self, cart: crate::error::Result<Cart>) {
        self.reload_after_match = false;
        self.end_movie();
        if let Some(session) = self.session.as_mut() {
            session.store_save(None);
        }
        let started = cart.and_then(|cart| {
            let save = self.save_for(&cart);
            let game = Session::start(cart.clone(), save)?;
            Ok((game, cart))
        });
        self.install(started);
    }

    /// Writes a movie being recorded (saying where it went) and ends a playback.
    pub(super) fn end_movie(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.is_playing_back() {
            session.movie = movies::MovieMode::Off;
        }
        if matches!(session.movie, movies::MovieMode::Recording { .. }) {
            self.stop_recording();
        }
    }

    /// Makes a started game the open cart's, or shows why it could not start; `true` when
    /// it runs.
    pub(super) fn install(&mut self, started: crate::error::Result<(Session, Cart)>) -> bool {
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        match started {
            Ok((mut game, cart)) => {
                game.keep_rewind(REWIND_SECONDS * 60);
                let power_on = game.take_power_on();
                for line in &power_on.log {
                    crate::out::print_line(line);
                }
                if let Some(keeper) = &mut session.keeper {
                    keeper.saw(power_on.save_written);
                }
                game.set_profiling(self.profiler.is_some());
                if let Some(profiler) = &mut self.profiler {
                    profiler.history.clear();
                    profiler.cursor = None;
                }
                session.game = Some(game);
                let warnings = cart.warnings.clone();
                session.last_good = Some(cart);
                self.screen = Screen::Playing;
                self.warn_loaded(&warnings);
                true
            }
            Err(error) => {
                session.game = None;
                self.show_error(error.to_string());
                false
            }
        }
    }

    /// Builds the running cart again from its files and powers it on (Retry), keeping its
    /// save RAM.
    pub fn retry(&mut self) {
        if let Some((path, build)) = self
            .session
            .as_ref()
            .map(|s| (s.path.clone(), s.build.clone()))
        {
            self.boot(build(&path));
        }
    }

    pub(super) fn reload_if_changed(&mut self, now: Instant) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let changed = session
            .watcher
            .as_mut()
            .is_some_and(|w| w.should_reload(now));
        // A reload would make this peer's machine differ from the others': it waits until
        // the match ends.
        if changed && self.netplay.active() {
            self.reload_after_match = true;
            self.toast("Cart changed: it reloads when the netplay match ends".into());
            return;
        }
        // After the match, once its ending note has been seen (left with a menu choice).
        let after_match = self.reload_after_match
            && !self.netplay.active()
            && !matches!(self.screen, Screen::Error { .. });
        if changed || after_match {
            let (path, build) = (session.path.clone(), session.build.clone());
            self.boot(build(&path));
        }
    }
}
