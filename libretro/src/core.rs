//! One loaded cart, as the frontend drives it: power-on from a path, one vblank per
//! `retro_run` (the machine's own frame budget decides slowdown, as in the window), the
//! picture as XRGB8888, the sound as 16-bit stereo, save RAM, and the run's history (what
//! states hold).
//!
//! Save RAM: [`Core::save_ram`] mirrors the save RAM the player's game wrote. It follows the
//! machine's save RAM only when the game writes it, never when a state is loaded (whose run
//! replays on the save RAM it was recorded with, a replay's maybe): so the player's data
//! stays as it was until the game writes save RAM again, as the window's state slots do.
//! Where the mirror is kept ([`Keeping`]):
//! - in the core's own file in the frontend's save folder ([`crate::saves`]), read at load
//!   and written when the mirror changes and at unload; the frontend sees no `SAVE_RAM`;
//! - when the frontend gives no save folder, in the frontend's `SAVE_RAM` buffer (its `.srm`),
//!   which it fills after `retro_load_game` returns. So the cart is powered on once at load
//!   (to report a broken cart there) with none, and if the buffer holds any data at the first
//!   vblank, powered on again with it: the cart's main chunk and `init()` see the stored data,
//!   as they do in the window.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::saveram::SaveRam;
use kairo::session::{Route, Session};
use kairo::spec::{SAVE_BYTES, SCREEN_H, SCREEN_W};

use crate::abi::LogLevel;
use crate::frontend::Frontend;
use crate::saves::SaveFile;
use crate::states::States;

/// How long a note stays on screen, in vblanks.
const NOTE_VBLANKS: u32 = 240;

/// Where the loaded cart's save RAM is kept.
enum Keeping {
    /// The cart has no `save_id`: nothing is kept, as in the window.
    Nothing,
    /// The frontend gave no save folder: its `SAVE_RAM` buffer (RetroArch's `.srm`).
    Frontend,
    /// The core's own file in the frontend's save folder.
    File(SaveFile),
}

/// A cart running for the frontend.
pub struct Core {
    /// The path the frontend gave, for messages.
    path: PathBuf,
    /// The console, its history and its snapshots.
    game: Session,
    /// The save RAM the player's game wrote (the frontend's `SAVE_RAM` in [`Keeping::Frontend`]).
    save_ram: Box<[u8; SAVE_BYTES]>,
    keeping: Keeping,
    /// Whether a vblank has run (or a state was loaded) since `retro_load_game`.
    started: bool,
    /// Why the cart cannot run, once it cannot (a script fault, or one at a reset), said
    /// once.
    fault: Option<String>,
    states: States,
    picture: Vec<u32>,
    sound: Vec<i16>,
}

/// The cart at `path`: a `.kcart` file, a cart folder, or a folder's `cart.toml`.
fn open_cart(path: &Path) -> Result<Cart, String> {
    let folder_or_file = match path.file_name() {
        Some(name) if name == "cart.toml" => path.parent().unwrap_or(path),
        _ => path,
    };
    if !folder_or_file.exists() {
        return Err(format!("{}: no such file or folder", path.display()));
    }
    Cart::open(folder_or_file).map_err(|e| format!("{}: {e}", folder_or_file.display()))
}

impl Core {
    /// Loads the cart at `path` and powers it on with its save RAM (from the core's file in
    /// the frontend's save folder, if it gives one).
    pub fn load(path: &Path, frontend: &Frontend) -> Result<Core, String> {
        let cart = open_cart(path)?;
        let (keeping, save) = match cart.manifest.save_id.clone() {
            None => (Keeping::Nothing, SaveRam::default()),
            Some(id) => match frontend.save_directory() {
                Some(dir) => {
                    let opened = SaveFile::open(&dir, &id, &path.to_string_lossy());
                    for (level, line) in &opened.notes {
                        match level {
                            LogLevel::Warn | LogLevel::Error => {
                                frontend.note(*level, line, NOTE_VBLANKS)
                            }
                            _ => frontend.log(*level, line),
                        }
                    }
                    (Keeping::File(opened.file), opened.save)
                }
                None => {
                    frontend.log(
                        LogLevel::Info,
                        "save data: the frontend gives no save folder, so save RAM is kept in \
                         its SAVE_RAM (RetroArch: the content's .srm file)",
                    );
                    (Keeping::Frontend, SaveRam::default())
                }
            },
        };
        let mut save_ram = Box::new([0; SAVE_BYTES]);
        save_ram.copy_from_slice(save.bytes());
        let game = Session::start(cart, save).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut core = Core {
            path: path.to_path_buf(),
            save_ram,
            keeping,
            started: false,
            fault: None,
            states: States::default(),
            picture: vec![0; SCREEN_W * SCREEN_H],
            sound: Vec::new(),
            game,
        };
        core.powered_on();
        if matches!(core.keeping, Keeping::Frontend) {
            // Until the first vblank the frontend sees the save RAM the cart powered on with
            // (none), not what its main chunk and `init()` wrote since: so whatever the
            // frontend puts there is told apart (see `start`).
            core.save_ram.fill(0);
        }
        Ok(core)
    }

    /// Bookkeeping after a power-on (at load, a reset, a new save RAM): what the main chunk
    /// and `init()` wrote to save RAM is mirrored.
    fn powered_on(&mut self) {
        self.fault = None;
        self.states.forget();
        // Power-on's sound is not heard (the frontend's first vblank starts the sound).
        let power_on = self.game.take_power_on();
        for line in &power_on.log {
            crate::frontend::get().log(LogLevel::Info, line);
        }
        if power_on.save_written {
            self.mirror_save_ram();
        }
        self.draw_picture();
    }

    /// The cart's name.
    pub fn name(&self) -> &str {
        self.game.cart().name()
    }

    /// The save RAM the frontend keeps as its `SAVE_RAM`: only for carts that keep save
    /// data (with a `save_id`, as in the window) when the frontend gave no save folder;
    /// `None` otherwise.
    pub fn save_ram(&mut self) -> Option<&mut [u8; SAVE_BYTES]> {
        matches!(self.keeping, Keeping::Frontend).then_some(&mut *self.save_ram)
    }

    /// Stores the player's save RAM in the core's file if it changed (`now`: at most every
    /// [`crate::saves::STORE_EVERY`]; `None`: whatever the time). A failure is said once.
    fn keep_save(&mut self, frontend: &Frontend, now: Option<Instant>) {
        if let Keeping::File(file) = &mut self.keeping
            && let Err(e) = file.keep(&self.save_ram[..], now)
        {
            frontend.note(LogLevel::Error, &e.to_string(), NOTE_VBLANKS);
        }
    }

    /// Stores the player's save RAM if it changed since the last store (at unload).
    pub fn flush_save(&mut self, frontend: &Frontend) {
        self.keep_save(frontend, None);
    }

    /// Runs one vblank with the frontend's input and hands it the picture and the sound.
    pub fn run(&mut self, frontend: &Frontend) {
        frontend.poll_input();
        let input = crate::pad::read(frontend);
        self.run_with(input, frontend);
    }

    /// Runs one vblank with `input` and hands the frontend the picture and the sound.
    pub fn run_with(&mut self, input: InputFrame, frontend: &Frontend) {
        if !self.started {
            self.start(frontend);
        }
        self.vblank(input, frontend);
        frontend.video(&self.picture, SCREEN_W, SCREEN_H);
        frontend.audio(&self.sound);
    }

    /// Before the first vblank: powers on again if the frontend put save RAM in the buffer
    /// (which holds, until then, the save RAM the cart powered on with: none).
    fn start(&mut self, frontend: &Frontend) {
        self.started = true;
        if !matches!(self.keeping, Keeping::Frontend) {
            return;
        }
        if self.save_ram.iter().all(|&b| b == 0) {
            self.mirror_save_ram();
            return;
        }
        let save = SaveRam::from_bytes(self.save_ram.as_slice());
        match self.game.reset_with_save(save) {
            Ok(()) => self.powered_on(),
            Err(e) => self.stop(frontend, e.to_string()),
        }
    }

    /// One vblank of the machine.
    fn vblank(&mut self, input: InputFrame, frontend: &Frontend) {
        let vblank = self.game.tick(input);
        for line in &vblank.log {
            frontend.log(LogLevel::Info, line);
        }
        self.sound = vblank
            .audio
            .iter()
            .map(|&s| (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16)
            .collect();
        if vblank.picture_changed() {
            self.draw_picture();
        }
        if let Some(fault) = vblank.fault
            && self.fault.is_none()
        {
            self.stop(frontend, fault.error.to_string());
        }
        if vblank.save_written {
            self.mirror_save_ram();
        }
        self.keep_save(frontend, Some(Instant::now()));
        self.states.forget();
    }

    /// The cart stopped: says why, once; the picture holds until a reset or a state.
    fn stop(&mut self, frontend: &Frontend, why: String) {
        frontend.note(
            LogLevel::Error,
            &format!("{} stopped: {why} (reset to start again)", self.name()),
            NOTE_VBLANKS,
        );
        self.fault = Some(why);
    }

    /// Copies the machine's save RAM into the mirror (the game wrote it).
    fn mirror_save_ram(&mut self) {
        let save = self.game.console().machine().save();
        self.save_ram.copy_from_slice(save.bytes());
    }

    /// Converts the last composed picture to XRGB8888.
    fn draw_picture(&mut self) {
        let console: &Console = self.game.console();
        let colours = console.shown_palette().map(|rgba| {
            let [r, g, b, _] = rgba.to_ne_bytes();
            u32::from_be_bytes([0, r, g, b])
        });
        let framebuffer = console.framebuffer();
        for (y, row) in self.picture.chunks_exact_mut(SCREEN_W).enumerate() {
            for (pixel, &index) in row.iter_mut().zip(framebuffer.row(y)) {
                *pixel = colours[usize::from(index)];
            }
        }
    }

    /// Powers the cart off and on (save RAM stays, as on the console).
    pub fn reset(&mut self, frontend: &Frontend) {
        self.started = true;
        match self.game.reset() {
            Ok(()) => self.powered_on(),
            Err(e) => self.stop(frontend, e.to_string()),
        }
    }

    /// The size of a state now, as reported to the frontend.
    pub fn state_size(&mut self) -> usize {
        self.states.size(&mut self.game)
    }

    /// Bytes the in-memory snapshots take.
    pub fn snapshot_bytes(&self) -> usize {
        self.game.snapshot_bytes()
    }

    /// Writes a state into `out` (which the frontend sized with [`Core::state_size`]).
    pub fn serialize(&mut self, out: &mut [u8]) -> Result<(), String> {
        if let Some(fault) = &self.fault {
            return Err(format!(
                "{} has stopped ({fault}); a state of it could not be loaded",
                self.name()
            ));
        }
        self.states.serialize(&mut self.game, out)
    }

    /// Brings back the state in `bytes`; the console is unchanged when it is refused.
    pub fn unserialize(&mut self, bytes: &[u8]) -> Result<Route, String> {
        let label = format!("state of {}", self.path.display());
        let route = self
            .states
            .unserialize(&mut self.game, bytes, &label)
            .map_err(|e| format!("{label}: {e}"))?;
        self.started = true;
        self.fault = None;
        // The state's run played on its own save RAM (a replay's, maybe): the mirror, which
        // is the player's save file (or the frontend's `.srm`), keeps the player's data until
        // the game writes save RAM again, as the window's state slots do (the session
        // reports no writes of the state's past).
        self.draw_picture();
        Ok(route)
    }
}

impl Drop for Core {
    /// A cart unloaded (or the core shut down) keeps the save RAM its game wrote last.
    fn drop(&mut self) {
        self.flush_save(&crate::frontend::get());
    }
}
