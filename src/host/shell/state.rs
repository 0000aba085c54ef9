//! The running cart's save RAM and save-state slots: which save RAM a cart powers on with,
//! storing it as it changes and when the session ends, and saving and loading the slots
//! (pause menu and hot keys).

use std::path::PathBuf;
use std::time::Instant;

use super::{OpenCart, Screen, Shell};
use crate::cart::Cart;
use crate::host::ui::{Menu, UiAction};
use crate::saveram::SaveRam;
use crate::saving::ram::SaveKeeper;
use crate::saving::slots::{self, SLOTS, SlotInfo};
use crate::session::Route;

/// Where a player's data is kept, and the slot the hot keys use.
#[derive(Debug, Default)]
pub(super) struct Saving {
    /// Where carts' save RAM and save-state slots are kept (`None`: not kept between runs,
    /// and no slots).
    pub data_dir: Option<PathBuf>,
    /// The save-state slot the hot keys use (0-based).
    pub slot: usize,
    /// How the last slot loaded came back (from memory, along this run, or replayed).
    pub last_load: Option<Route>,
}

impl OpenCart {
    /// Stores the running cart's save RAM if it changed (`now`: at most once a second;
    /// `None`: whatever the time). A failure is said on stderr and returned.
    pub(super) fn store_save(&mut self, now: Option<Instant>) -> Option<String> {
        let (Some(keeper), Some(game)) = (&mut self.keeper, &self.game) else {
            return None;
        };
        let error = keeper.keep(game.console(), now).err()?;
        crate::out::eprint_line(&format!("kairo: {error}"));
        Some(error)
    }
}

impl Drop for OpenCart {
    /// A cart closed, switched or shut down with the window keeps its save RAM and the
    /// movie it was recording.
    fn drop(&mut self) {
        self.store_save(None);
        match self.finish_recording() {
            Ok(Some(path)) => crate::out::print_line(&format!("Movie saved: {}", path.display())),
            Ok(None) => {}
            Err(e) => crate::out::eprint_line(&format!("kairo: movie not saved: {e}")),
        }
    }
}

impl Shell {
    /// Where save RAM and slots are kept from now on (`None`: nowhere).
    pub fn set_data_dir(&mut self, dir: Option<PathBuf>) {
        self.saving.data_dir = dir;
    }

    /// The save-state slot the hot keys (F2, F4) use, 0-based.
    pub fn slot(&self) -> usize {
        self.saving.slot
    }

    /// How the last slot loaded came back.
    pub fn last_load(&self) -> Option<Route> {
        self.saving.last_load
    }

    /// Save RAM to power `cart` on with: the running console's when the cart keeps its
    /// `save_id` (a retry or a reload), else what the data folder holds for it, else empty.
    pub(super) fn save_for(&mut self, cart: &Cart) -> SaveRam {
        let Some(session) = self.session.as_mut() else {
            return SaveRam::default();
        };
        let id = cart.manifest.save_id.clone();
        if session.save_id == id
            && let Some(game) = &session.game
        {
            return game.console().machine().save().clone();
        }
        session.save_id = id;
        session.keeper = None;
        let Some((keeper, save, warning)) = self
            .saving
            .data_dir
            .as_deref()
            .and_then(|dir| SaveKeeper::open(dir, cart))
        else {
            return SaveRam::default();
        };
        session.keeper = Some(keeper);
        if let Some(warning) = warning {
            crate::out::eprint_line(&format!("kairo: {warning}"));
            self.toast("Save data was damaged: see the log".into());
        }
        save
    }

    /// The folder of the running cart's save-state slots, if there is a data folder.
    pub(super) fn slot_folder(&self) -> Option<PathBuf> {
        let cart = self.session.as_ref()?.game.as_ref()?.cart();
        Some(slots::folder(self.saving.data_dir.as_ref()?, cart))
    }

    pub(super) fn show_slots(&mut self, saving: bool) {
        let Some(folder) = self.slot_folder() else {
            self.toast("No data folder: states cannot be kept".into());
            return;
        };
        let infos: Vec<SlotInfo> = (0..SLOTS).map(|i| slots::info(&folder, i)).collect();
        let items = infos
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let what = match (&info.problem, info.saved) {
                    (Some(_), _) => "damaged".to_string(),
                    (None, Some(saved)) => slots::age(saved),
                    (None, None) => "empty".to_string(),
                };
                let action = match saving {
                    true => UiAction::SaveSlot(i),
                    false => UiAction::LoadSlot(i),
                };
                (format!("Slot {}  {what}", i + 1), action)
            })
            .collect();
        let mut menu = Menu::new(if saving { "SAVE STATE" } else { "LOAD STATE" }, items);
        menu.selected = self.saving.slot;
        self.screen = Screen::Slots {
            menu,
            saving,
            infos,
        };
    }

    /// Saves the running game into slot `slot` (0-based; also the hot key F2).
    pub fn save_slot(&mut self, slot: usize) {
        if self.refuse_during_netplay("States") {
            return;
        }
        let Some(folder) = self.slot_folder() else {
            self.toast("No data folder: states cannot be kept".into());
            return;
        };
        let Some(game) = self.session.as_mut().and_then(|s| s.game.as_mut()) else {
            return;
        };
        if game.fault().is_some() {
            return;
        }
        self.saving.slot = slot;
        let message = match slots::save(&folder, slot, game) {
            Ok(()) => format!("Saved slot {}", slot + 1),
            Err(e) => {
                crate::out::eprint_line(&format!("kairo: cannot save slot {}: {e}", slot + 1));
                format!("Slot {} not saved: see the log", slot + 1)
            }
        };
        self.toast(message);
    }

    /// Loads slot `slot` (0-based; also the hot key F4): the game goes on from there. A
    /// playback stops first (the player's own game is what a slot continues); a recording
    /// goes on, holding the state's history.
    pub fn load_slot(&mut self, slot: usize) {
        if self.refuse_during_netplay("States") {
            return;
        }
        self.stop_playback();
        let Some(folder) = self.slot_folder() else {
            self.toast("No data folder: states cannot be kept".into());
            return;
        };
        let Some(session) = self.session.as_mut() else {
            return;
        };
        // What the game wrote before is the player's: stored before the state's comes back.
        let store_failed = session.store_save(None).is_some();
        let Some(game) = session.game.as_mut() else {
            return;
        };
        self.saving.slot = slot;
        match slots::load(&folder, slot, game) {
            Ok(route) => {
                self.saving.last_load = Some(route);
                // Save RAM comes back as it was in the state (as on a console with a
                // battery); it is stored again only when the game next writes it (the
                // session reports no writes of the state's past).
                session.movie.went_back_to(game.history().ticks.len());
                if let Some(profiler) = &mut self.profiler {
                    profiler.history.clear();
                    profiler.cursor = None;
                }
                self.screen = Screen::Playing;
                self.toast(match store_failed {
                    true => format!(
                        "Loaded slot {}; save data not stored: see the log",
                        slot + 1
                    ),
                    false => format!("Loaded slot {}", slot + 1),
                });
            }
            Err(e) => {
                crate::out::eprint_line(&format!("kairo: {e}"));
                self.screen = Screen::Playing;
                self.toast(format!("Slot {} not loaded: see the log", slot + 1));
            }
        }
    }

    /// Moves the hot keys to the next slot (F1).
    pub(crate) fn next_slot(&mut self) {
        self.saving.slot = (self.saving.slot + 1) % SLOTS;
        self.toast(format!("State slot {}", self.saving.slot + 1));
    }

    /// Stores every running cart's save RAM and the movie being recorded now (the window is
    /// closing).
    pub fn store_saves(&mut self) {
        self.end_movie();
        if let Some(session) = self.session.as_mut() {
            session.store_save(None);
        }
    }
}
