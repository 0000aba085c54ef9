//! The console shell: which screen is up (browser, game, pause menu, remap, error, slots),
//! the cart session with its hot reload, and what each vblank does. Free of winit, so it is
//! tested by feeding it keys, pad events and vblanks.
//!
//! Each window feature is a file that owns its state, and the shell keeps one value of it:
//! the note line (`notes`: [`notes::Notes`]), debug pause, steps, fast-forward and rewind
//! (`play`), save RAM and the state slots (`state`: where data is kept, the hot keys' slot),
//! screenshots and GIFs (`clip`: the folder, the recorder), netplay (`net`: the match, told
//! to the shell as events), movies (`movies`, the open cart's), remapping (`remap`), the
//! debug menu and overlays (`debug`), the viewers (`viewer`), drawing (`draw`). The window
//! and the tests set them through narrow methods (`set_fast_forward`, `set_data_dir`...).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use super::config::{self, InputConfig, Recent};
use super::input_map::{InputMapper, PadEvent};
use super::ui::{self, Menu, UiAction, UiCanvas};
use crate::console::Console;
use crate::input::{Button, ButtonWord};
use crate::profiling::live::Profiler;
use crate::profiling::overlay::OverlayMode;
use crate::saving::slots::SlotInfo;
use crate::session::Session;
use crate::views::display_filter::DisplayFilter;

mod actions;
mod carts;
mod clip;
mod debug;
mod display;
mod draw;
mod movies;
mod net;
mod notes;
mod play;
mod remap;
mod state;
mod viewer;

pub use carts::Build;
use carts::OpenCart;
pub use clip::{GifError, GifRecorder};
pub use draw::screenshot_dir;
pub use movies::{folder as movie_folder, list as movie_list};
pub use net::{DEFAULT_PORT, NetLink, NetSetup};
pub use remap::{Remap, RemapDevice};
pub use viewer::{View, Viewer};

/// Vblanks a toast message stays up.
const TOAST_VBLANKS: u32 = 120;
/// Vblanks the loader's warnings stay up when a cart starts.
const WARNING_VBLANKS: u32 = 480;
/// Lines a toast may take at the bottom of the screen.
pub const TOAST_LINES: usize = 7;
pub use play::FAST_FORWARD;

/// The screen being shown.
#[derive(Debug)]
pub enum Screen {
    Browser(Menu),
    Playing,
    Paused(Menu),
    RemapPick(Menu),
    Remap(Remap),
    Error {
        /// What kind of ending it is: `CART ERROR`, or one of netplay's endings.
        title: &'static str,
        message: String,
        menu: Menu,
    },
    /// The save-state slots: saving into one (`saving`) or loading one.
    Slots {
        menu: Menu,
        saving: bool,
        infos: Vec<SlotInfo>,
    },
    /// Recording and playing back movies.
    Movies(Menu),
    /// Hosting, joining or leaving a netplay match.
    Netplay(Menu),
    /// The debug menu: overlays toggled on and off, and the viewers.
    Debug(Menu),
    /// A hardware viewer.
    Viewer(Viewer),
}

/// The console shell.
pub struct Shell {
    pub screen: Screen,
    session: Option<OpenCart>,
    pub mapper: InputMapper,
    canvas: UiCanvas,
    previous_buttons: ButtonWord,
    recent: Recent,
    config_dir: Option<PathBuf>,
    carts_dir: PathBuf,
    pad_names: BTreeMap<String, String>,
    /// The note line at the bottom.
    notes: notes::Notes,
    quit: bool,
    /// Debug pause and steps, fast-forward, rewind held.
    play: play::PlayControl,
    /// The cart's files changed during a netplay match: it reloads when the match ends.
    reload_after_match: bool,
    /// Screenshots and GIFs: where they go, the last seconds of play.
    capture: clip::Capture,
    /// The profiler overlay, while shown (F3).
    profiler: Option<Profiler>,
    /// Where save data and slots are kept, the slot the hot keys use, the last load.
    saving: state::Saving,
    /// Debug overlays drawn on the game picture, in drawing order.
    overlays: Vec<crate::views::overlays::Overlay>,
    /// Netplay: a match being set up or played, and the Netplay screen's lines.
    pub netplay: net::Netplay,
    /// A PICO-8 cart's pause-menu item chosen, for the game's next input.
    cart_item: Option<u8>,
    /// The display filter the window draws the picture with (`display`).
    display: DisplayFilter,
}

impl Shell {
    /// A shell showing the browser over `carts_dir`, with settings from `config_dir`.
    pub fn new(carts_dir: PathBuf, config_dir: Option<PathBuf>) -> Shell {
        let mut mapper = InputMapper::default();
        let mut recent = Recent::default();
        let mut net_setup = NetSetup::default();
        let mut display = DisplayFilter::default();
        if let Some(dir) = &config_dir {
            let (input, warning): (InputConfig, _) = config::load(dir, "input.toml");
            input.apply(&mut mapper);
            let (loaded, warning2): (Recent, _) = config::load(dir, "recent.toml");
            recent = loaded;
            let (net, warning3): (NetSetup, _) = config::load(dir, net::NETPLAY_FILE);
            net_setup = net;
            let (shown, warning4): (config::DisplayConfig, _) =
                config::load(dir, config::DISPLAY_FILE);
            display = shown.filter;
            for w in [warning, warning2, warning3, warning4]
                .into_iter()
                .flatten()
            {
                crate::out::eprint_line(&format!("kairo: {w}"));
            }
        }
        let mut shell = Shell {
            screen: Screen::Playing,
            session: None,
            mapper,
            canvas: UiCanvas::default(),
            previous_buttons: 0,
            recent,
            config_dir,
            carts_dir,
            pad_names: BTreeMap::new(),
            notes: notes::Notes::default(),
            quit: false,
            play: play::PlayControl::default(),
            reload_after_match: false,
            capture: clip::Capture::new(screenshot_dir()),
            profiler: None,
            saving: state::Saving::default(),
            overlays: Vec::new(),
            netplay: net::Netplay::new(net_setup),
            cart_item: None,
            display,
        };
        shell.show_browser();
        shell
    }

    /// Whether the user chose Quit.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The window title: the cart's name when one runs.
    pub fn title(&self) -> String {
        match self.console() {
            Some(console) => format!("{} - Kairo", console.cart().name()),
            None => "Kairo".into(),
        }
    }

    /// The sound the game made since the last call (interleaved stereo, 48 kHz).
    pub fn take_audio(&mut self) -> Vec<f32> {
        self.session
            .as_mut()
            .map(|s| std::mem::take(&mut s.audio))
            .unwrap_or_default()
    }

    /// The note shown at the bottom of the screen, if any.
    pub fn toast_text(&self) -> Option<&str> {
        self.notes.text()
    }

    /// The running console, if any.
    /// The pause menu, with the running cart's own items.
    fn pause_menu(&self) -> ui::Menu {
        let items = self
            .console()
            .and_then(|c| c.machine().pico8())
            .map(|p| p.menu_items())
            .unwrap_or_default();
        ui::pause_menu(&items, self.display)
    }

    /// Chooses the running PICO-8 cart's pause-menu item `item`: its callback runs before
    /// the game's next update (the choice is in player 1's input, so movies and netplay keep
    /// it).
    pub fn choose_cart_item(&mut self, item: u8) {
        self.cart_item = Some(item);
        self.screen = Screen::Playing;
    }

    pub fn console(&self) -> Option<&Console> {
        self.session.as_ref()?.game.as_ref().map(Session::console)
    }

    fn show_browser(&mut self) {
        let carts = ui::scan_carts(&self.carts_dir);
        let recent: Vec<_> = self
            .recent
            .carts
            .iter()
            .map(|p| ui::describe_cart(p))
            .collect();
        self.screen = Screen::Browser(ui::browser_menu(&carts, &recent));
    }

    fn show_error(&mut self, message: String) {
        self.show_ending(ui::CART_ERROR, message);
    }

    /// The error screen with its title.
    fn show_ending(&mut self, title: &'static str, message: String) {
        let has_last_good = self.session.as_ref().is_some_and(|s| s.last_good.is_some());
        self.screen = Screen::Error {
            title,
            message,
            menu: ui::error_menu(has_last_good),
        };
    }

    /// A key of the keyboard went down or up (winit key code name).
    pub fn key(&mut self, name: &str, down: bool) {
        if down && self.net_typed(name) {
            return;
        }
        if let Screen::Remap(remap) = &self.screen {
            if down && remap.device == RemapDevice::Keyboard {
                self.capture(name.to_string());
            }
            return;
        }
        self.mapper.key(name, down);
    }

    /// A pad event from the pad adapter.
    pub fn pad_event(&mut self, event: PadEvent) {
        if let PadEvent::Connected { uuid, name, .. } = &event {
            self.pad_names.insert(uuid.clone(), name.clone());
        }
        if let (
            Screen::Remap(remap),
            PadEvent::Button {
                pad,
                control,
                down: true,
            },
        ) = (&self.screen, &event)
            && matches!(&remap.device, RemapDevice::Pad { pad: p, .. } if p == pad)
        {
            self.capture(control.clone());
            return;
        }
        if let Some(player) = self.mapper.pad_event(event.clone())
            && let PadEvent::Connected { name, .. } = event
        {
            self.toast(format!("{name}: player {}", player + 1));
        }
    }

    /// Escape: pause or resume the game, or go back from a menu.
    pub fn escape(&mut self) {
        match &self.screen {
            Screen::Playing if self.console().is_some() => {
                self.screen = Screen::Paused(self.pause_menu())
            }
            Screen::Paused(_) => self.screen = Screen::Playing,
            Screen::Viewer(_) => self.show_debug_menu(),
            Screen::Slots { .. } | Screen::Movies(_) | Screen::Netplay(_) | Screen::Debug(_) => {
                self.screen = Screen::Paused(self.pause_menu())
            }
            Screen::Remap(_) => self.skip_remap_step(),
            Screen::RemapPick(_) => self.leave_remap(),
            _ => {}
        }
    }

    /// One vblank of the host: reload, input, then the game or the screen's menu.
    pub fn vblank(&mut self, now: Instant) {
        self.reload_if_changed(now);
        let mut input = self.mapper.latch();
        if matches!(self.screen, Screen::Playing)
            && let Some(item) = self.cart_item.take()
        {
            input.0[0] |= crate::input::menu_choice_bits(item);
        }
        let held = input.0.iter().fold(0, |all, word| all | word);
        let pressed = held & !self.previous_buttons;
        self.previous_buttons = held;
        self.notes.tick();
        let back = pressed & Button::B.bit() != 0;
        // A match goes on whatever screen is up (the peers do not wait): this peer's word is
        // player 1's pad while the game is shown, else nothing.
        let word = match self.screen {
            Screen::Playing => input.0[0],
            _ => 0,
        };
        let netplay = self.net_vblank(word);
        let combo = Button::Select.bit() | Button::L.bit();
        let rewinding = self.play.rewind_held() || held & combo == combo;
        if netplay && matches!(self.screen, Screen::Playing) {
            if rewinding {
                self.refuse_during_netplay("Rewind");
            } else if self.play.fast_forward() {
                self.refuse_during_netplay("Fast-forward");
            }
        }
        if rewinding && matches!(self.screen, Screen::Error { .. }) && self.can_rewind() {
            // A fault is one more moment to go back from.
            self.screen = Screen::Playing;
        }
        let action = match &mut self.screen {
            Screen::Playing if netplay => {
                let combo = Button::Start.bit() | Button::Select.bit();
                if self.mapper.pause_combo_held() && pressed & combo != 0 {
                    self.screen = Screen::Paused(self.pause_menu());
                }
                None
            }
            Screen::Playing if rewinding => {
                self.rewind_game();
                None
            }
            Screen::Playing => {
                let combo = Button::Start.bit() | Button::Select.bit();
                if self.mapper.pause_combo_held() && pressed & combo != 0 {
                    self.screen = Screen::Paused(self.pause_menu());
                } else {
                    if self.play.paused()
                        && let Some(profiler) = &mut self.profiler
                    {
                        // The game is frozen, so the d-pad moves the graph's cursor.
                        let left = pressed & Button::Left.bit() != 0;
                        let right = pressed & Button::Right.bit() != 0;
                        profiler.move_cursor(isize::from(right) - isize::from(left));
                    }
                    self.run_game(input);
                }
                None
            }
            Screen::Paused(_) if back => Some(UiAction::Resume),
            Screen::Slots { .. } if back => {
                self.screen = Screen::Paused(self.pause_menu());
                None
            }
            Screen::Slots { menu, .. } => menu.navigate(pressed),
            Screen::Movies(_) if back => {
                self.screen = Screen::Paused(self.pause_menu());
                None
            }
            Screen::Movies(menu) => menu.navigate(pressed),
            Screen::Netplay(_) if back => {
                self.screen = Screen::Paused(self.pause_menu());
                None
            }
            Screen::Netplay(menu) => menu.navigate(pressed),
            Screen::Debug(_) if back => {
                self.screen = Screen::Paused(self.pause_menu());
                None
            }
            Screen::Debug(menu) => menu.navigate(pressed),
            Screen::Viewer(viewer) => {
                if viewer.navigate(held, pressed) {
                    self.show_debug_menu();
                } else {
                    // Live: the game goes on underneath, with no buttons held.
                    self.run_game(crate::input::InputFrame::NONE);
                }
                None
            }
            Screen::RemapPick(_) if back => {
                self.leave_remap();
                None
            }
            Screen::Paused(menu) | Screen::Browser(menu) | Screen::RemapPick(menu) => {
                menu.navigate(pressed)
            }
            Screen::Error { menu, .. } => menu.navigate(pressed),
            Screen::Remap(_) => None,
        };
        if let Some(action) = action {
            self.perform(action);
        }
        self.gif_vblank();
        if self
            .session
            .as_mut()
            .and_then(|s| s.store_save(Some(now)))
            .is_some()
        {
            self.toast("Save data not stored: see the log".into());
        }
    }

    fn run_game(&mut self, input: crate::input::InputFrame) {
        if self.netplay.active() {
            // The match runs the game (see `net_vblank`).
            return;
        }
        let vblanks = self.play.vblanks();
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.game.is_none() {
            return;
        }
        if vblanks > 0
            && let Some(profiler) = &mut self.profiler
        {
            profiler.cursor = None;
        }
        for _ in 0..vblanks {
            let input = match session.movie.input_at(session.vblanks()) {
                Some(recorded) => recorded,
                None if matches!(session.movie, movies::MovieMode::Playing { .. }) => {
                    self.playback_finished();
                    return;
                }
                None => input,
            };
            if let Err(fault) = session.advance(input, self.profiler.as_mut()) {
                self.show_error(fault);
                return;
            }
            if session.movie.full(session.vblanks()) {
                self.stop_recording();
                return;
            }
        }
    }

    /// Whether the running game has anything to rewind to.
    fn can_rewind(&self) -> bool {
        self.session
            .as_ref()
            .and_then(|s| s.game.as_ref())
            .is_some_and(Session::can_rewind)
    }

    /// One vblank of rewinding: the game goes one vblank back (silently), and a note shows
    /// how far back the buffer reaches and the memory it takes.
    fn rewind_game(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        // What the game wrote before going back is the player's: stored first, as before
        // loading a state.
        let store_failed = session.store_save(None).is_some();
        let Some(game) = session.game.as_mut() else {
            return;
        };
        let went = game.step_back();
        let now = game.console().vblanks();
        let reach = game.rewind().map_or(0.0, |r| r.seconds(now));
        let mib = game.rewind().map_or(0, |r| r.bytes()) as f32 / (1024.0 * 1024.0);
        let note = match went {
            Ok(true) => format!("<< REWIND  {reach:.1} s left, {mib:.1} MiB"),
            Ok(false) => format!("Start of the rewind history ({mib:.1} MiB)"),
            Err(e) => format!("Rewind history reset: {e}"),
        };
        let note = match store_failed {
            true => "Save data not stored: see the log".to_string(),
            false => note,
        };
        if let Some(profiler) = &mut self.profiler {
            profiler.cursor = None;
        }
        self.toast(note);
    }

    /// F5: stops or restarts the game for debugging (the pause menu stays closed).
    pub fn toggle_debug_pause(&mut self) {
        if self.refuse_during_netplay("Debug pause") {
            return;
        }
        self.play.toggle_pause();
    }

    /// F3: shows the profiler overlay, then its compact strip, then hides it.
    pub fn cycle_profiler(&mut self) {
        let next = match self.profiler.as_ref().map(|p| p.mode) {
            None => Some(OverlayMode::Full),
            Some(OverlayMode::Full) => Some(OverlayMode::Compact),
            Some(OverlayMode::Compact) => None,
        };
        self.set_profiler(next);
    }

    /// Shows the profiler overlay in `mode`, or hides it (`None`). The running console
    /// profiles only while it is shown.
    pub(crate) fn set_profiler(&mut self, mode: Option<OverlayMode>) {
        match (mode, &mut self.profiler) {
            (Some(mode), Some(profiler)) => profiler.mode = mode,
            (Some(mode), None) => self.profiler = Some(Profiler::new(mode)),
            (None, _) => self.profiler = None,
        }
        let on = self.profiler.is_some();
        if let Some(game) = self.session.as_mut().and_then(|s| s.game.as_mut()) {
            game.set_profiling(on);
        }
    }

    /// The profiler overlay's state, while shown.
    pub fn profiler(&self) -> Option<&Profiler> {
        self.profiler.as_ref()
    }

    /// The debug overlays shown, in drawing order.
    pub fn overlays(&self) -> &[crate::views::overlays::Overlay] {
        &self.overlays
    }

    /// Notes that the window presented a picture (for the overlay's host frame rate).
    pub(crate) fn presented(&mut self, now: Instant, present_us: f32) {
        if let Some(profiler) = &mut self.profiler {
            profiler.presented(now, present_us);
        }
    }

    /// F6: while debug-paused, runs the game for one more vblank.
    pub fn step(&mut self) {
        self.play.step();
    }

    /// Tab held or let go: fast-forward.
    pub fn set_fast_forward(&mut self, on: bool) {
        self.play.set_fast_forward(on);
    }

    /// Backspace held or let go: rewind.
    pub fn set_rewind_held(&mut self, held: bool) {
        self.play.set_rewind_held(held);
    }

    fn toast(&mut self, message: String) {
        self.notes.show(message, TOAST_VBLANKS);
    }

    /// Shows what the loader warned of when a cart started (all of it on the log, the first
    /// warning on screen for a while).
    fn warn_loaded(&mut self, warnings: &[String]) {
        let Some(first) = warnings.first() else {
            return;
        };
        for warning in warnings {
            crate::out::eprint_line(&format!("kairo: warning: {warning}"));
        }
        let count = match warnings.len() {
            1 => "Warning".to_string(),
            n => format!("{n} warnings (see the log)"),
        };
        self.notes
            .show(format!("{count}: {first}"), WARNING_VBLANKS);
    }
}
