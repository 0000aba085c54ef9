//! What the menus' choices do: open, resume, reset, remap, states, movies, the debug and
//! netplay screens, the display filter, the browser, quit.

use super::{OpenCart, Remap, RemapDevice, Screen, Session, Shell, View};
use crate::host::ui::{Menu, UiAction};
use crate::profiling::overlay::OverlayMode;

impl Shell {
    /// Carries out what the player chose in a menu.
    pub(super) fn perform(&mut self, action: UiAction) {
        match action {
            UiAction::Open(path) => self.open(&path),
            UiAction::Resume => self.screen = Screen::Playing,
            UiAction::CartItem(item) => self.choose_cart_item(item),
            UiAction::Reset if self.session.as_ref().is_some_and(OpenCart::is_playing_back) => {
                self.stop_playback()
            }
            UiAction::Reset if self.refuse_during_netplay("Reset") => {}
            UiAction::Reset => {
                self.end_movie();
                // Power-on again: the history a state holds starts over.
                let reset = self
                    .session
                    .as_mut()
                    .and_then(|s| s.game.as_mut())
                    .map(Session::reset);
                match reset {
                    Some(Err(e)) => self.show_error(e.to_string()),
                    _ => self.screen = Screen::Playing,
                }
            }
            UiAction::Remap => {
                let mut items = vec![("Keyboard".to_string(), UiAction::RemapDevice(0))];
                for (i, (player, name, _)) in self.mapper.pads().into_iter().enumerate() {
                    items.push((
                        format!("{name} (player {})", player + 1),
                        UiAction::RemapDevice(i + 1),
                    ));
                }
                self.screen = Screen::RemapPick(Menu::new("REMAP: CHOOSE A DEVICE", items));
            }
            UiAction::RemapDevice(0) => {
                self.screen = Screen::Remap(Remap {
                    device: RemapDevice::Keyboard,
                    step: 0,
                    bindings: self.mapper.keyboard.clone(),
                });
            }
            UiAction::RemapDevice(i) => {
                if let Some((pad, uuid, name)) = self.pad_by_index(i - 1) {
                    let bindings = self.mapper.bindings_for(&uuid);
                    self.screen = Screen::Remap(Remap {
                        device: RemapDevice::Pad { pad, uuid, name },
                        step: 0,
                        bindings,
                    });
                }
            }
            UiAction::Screenshot => self.screenshot(),
            UiAction::Profiler => {
                let mode = match self.profiler {
                    Some(_) => None,
                    None => Some(OverlayMode::Full),
                };
                self.set_profiler(mode);
                self.screen = Screen::Playing;
            }
            UiAction::Browser => {
                self.netplay.leave();
                self.end_movie();
                self.session = None;
                self.show_browser();
            }
            UiAction::Retry => self.retry(),
            UiAction::Slots(_) | UiAction::Movies
                if self.refuse_during_netplay("States and movies") => {}
            UiAction::Slots(saving) => self.show_slots(saving),
            UiAction::SaveSlot(slot) => {
                self.save_slot(slot);
                self.screen = Screen::Playing;
            }
            UiAction::LoadSlot(slot) => self.load_slot(slot),
            UiAction::Movies => self.show_movies(),
            UiAction::Record(from_power_on) => self.record(from_power_on),
            UiAction::StopRecording => {
                self.stop_recording();
                self.screen = Screen::Playing;
            }
            UiAction::PlayMovie(path) => self.play_movie(&path),
            UiAction::StopPlayback => self.stop_playback(),
            UiAction::Debug => self.show_debug_menu(),
            UiAction::View(index) => {
                if let Some(&view) = View::all().get(index) {
                    self.show_viewer(view);
                }
            }
            UiAction::ToggleOverlay(overlay) => {
                self.toggle_overlay(overlay);
                self.show_debug_menu();
            }
            UiAction::RunLastGood => {
                if let Some(cart) = self.session.as_ref().and_then(|s| s.last_good.clone()) {
                    self.boot(Ok(cart));
                }
            }
            UiAction::Netplay => self.show_netplay(),
            UiAction::NetHost => self.netplay_from_menu(true),
            UiAction::NetJoin => self.netplay_from_menu(false),
            UiAction::NetLeave => {
                self.leave_netplay();
                self.screen = Screen::Playing;
            }
            UiAction::NetCreateRoom | UiAction::NetJoinRoom | UiAction::NetWatchRoom => {
                self.room_from_menu(&action);
            }
            UiAction::NetRematch => {
                if self.netplay.rematch() {
                    self.toast("Rematch asked: the cart powers on again for everyone".into());
                }
                self.screen = Screen::Playing;
            }
            UiAction::NetSaveMovie => {
                self.save_match_movie();
                self.screen = Screen::Playing;
            }
            UiAction::Display => self.cycle_display_filter(),
            UiAction::Quit => self.quit = true,
        }
    }
}
