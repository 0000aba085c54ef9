//! The shell's carts: opening one (from the command line, the browser or a drop), booting
//! it into a session, watching its folder and reloading it when its files change, and
//! retrying after a failure.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::{Build, OpenCart, Screen, Shell, movies, open_cart};
use crate::cart::Cart;
use crate::host::config;
use crate::host::reload::CartWatcher;
use crate::rewind::REWIND_SECONDS;
use crate::session::Session;

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
