//! The window's debug menu (pause menu "Debug", or F8): the overlays on the game picture,
//! each toggled on or off. They are drawn over the picture the window shows, from the
//! machine's last frame; the console's own picture, its hashes and its cycles are untouched.

use super::{Screen, Shell, View};
use crate::host::ui::{Menu, UiAction};
use crate::views::overlays::{self, Overlay};

impl Shell {
    /// The debug menu: one line per overlay, `[x]` when shown.
    pub(crate) fn show_debug_menu(&mut self) {
        let selected = match &self.screen {
            Screen::Debug(menu) => menu.selected,
            _ => 0,
        };
        let mut items: Vec<(String, UiAction)> = Overlay::ALL
            .into_iter()
            .map(|overlay| {
                let mark = if self.overlays.contains(&overlay) {
                    "[x]"
                } else {
                    "[ ]"
                };
                (
                    format!("{mark} {}", describe(overlay)),
                    UiAction::ToggleOverlay(overlay),
                )
            })
            .collect();
        items.extend(
            View::all()
                .into_iter()
                .enumerate()
                .map(|(i, view)| (format!("View: {}", view.name()), UiAction::View(i))),
        );
        let mut menu = Menu::new("DEBUG", items);
        menu.selected = selected;
        self.screen = Screen::Debug(menu);
    }

    /// F8: opens the debug menu over the game, or closes it.
    pub fn toggle_debug_menu(&mut self) {
        match self.screen {
            Screen::Debug(_) | Screen::Viewer(_) => self.screen = Screen::Playing,
            Screen::Playing if self.console().is_some() => self.show_debug_menu(),
            _ => {}
        }
    }

    /// Shows `overlay` if hidden, hides it if shown.
    pub(crate) fn toggle_overlay(&mut self, overlay: Overlay) {
        match self.overlays.iter().position(|&o| o == overlay) {
            Some(at) => {
                self.overlays.remove(at);
            }
            None => {
                self.overlays.push(overlay);
                self.overlays.sort();
            }
        }
    }

    /// Draws the overlays shown over `rgba`, the game's picture.
    pub(super) fn draw_overlays(&self, rgba: &mut [u8]) {
        if let Some(console) = self.console()
            && !self.overlays.is_empty()
        {
            overlays::draw(console.machine(), &self.overlays, rgba);
        }
    }
}

/// The menu line of an overlay.
fn describe(overlay: Overlay) -> &'static str {
    match overlay {
        Overlay::Collision => "Collision cells",
        Overlay::Platforms => "Moving platforms",
        Overlay::Bodies => "Bodies moved",
        Overlay::Hitboxes => "Hitboxes",
        Overlay::Bullets => "Bullets and shots",
        Overlay::Player => "Player hit/graze",
    }
}
