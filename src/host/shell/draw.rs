//! What the shell shows: the game picture with the screen's UI over it (menus, remap,
//! error, toasts, the slot list's thumbnail), and screenshots of the game (and where they and
//! GIFs go).

use std::path::{Path, PathBuf};

use super::{RemapDevice, Screen, Shell};
use crate::host::ui::{self, color};
use crate::saving::slots::THUMB;
use crate::session::Session;
use crate::spec::{SCREEN_H, SCREEN_W};

impl Shell {
    /// Draws the current picture: the game and/or the screen's UI, as RGBA.
    pub fn draw(&mut self, rgba: &mut [u8]) {
        match (&self.screen, self.console()) {
            (
                Screen::Playing
                | Screen::Paused(_)
                | Screen::RemapPick(_)
                | Screen::Remap(_)
                | Screen::Slots { .. }
                | Screen::Movies(_)
                | Screen::Netplay(_)
                | Screen::Debug(_),
                Some(console),
            ) => {
                console.rgba_into(rgba);
                self.draw_overlays(rgba);
                if let Some(profiler) = &self.profiler {
                    profiler.draw(rgba, self.play.paused());
                }
            }
            (Screen::Viewer(_), Some(_)) => {}
            _ => rgba.fill(0),
        }
        if let (Screen::Viewer(viewer), Some(console)) = (
            &mut self.screen,
            self.session
                .as_ref()
                .and_then(|s| s.game.as_ref())
                .map(Session::console),
        ) {
            viewer.draw(console, rgba);
            return;
        }
        let canvas = &mut self.canvas;
        canvas.clear();
        let rows = SCREEN_H / 8;
        let dim = match &self.screen {
            Screen::Playing => false,
            Screen::Browser(menu) => {
                canvas.panel(0, rows - 1, color::PANEL);
                menu.draw(canvas, 2, rows - 9);
                canvas.centred(rows - 3, "Up/Down: choose  A/Enter: open", color::DIM);
                canvas.centred(rows - 2, "or drop a cart on the window", color::DIM);
                false
            }
            Screen::Paused(menu)
            | Screen::RemapPick(menu)
            | Screen::Movies(menu)
            | Screen::Netplay(menu) => {
                canvas.panel(6, 7 + menu.items.len() + 3, color::PANEL);
                menu.draw(canvas, 7, menu.items.len());
                true
            }
            Screen::Viewer(_) => false,
            Screen::Debug(menu) => {
                // At the top and not dimmed: the overlays below stay in view.
                let bottom = menu.items.len() + 3;
                canvas.panel(0, bottom, color::PANEL);
                menu.draw(canvas, 0, menu.items.len());
                canvas.centred(bottom, "A: on/off  B: back  F8: close", color::DIM);
                false
            }
            Screen::Slots { menu, .. } => {
                canvas.panel(4, 22, color::PANEL);
                menu.draw(canvas, 5, menu.items.len());
                canvas.centred(21, "A: choose  B: back", color::DIM);
                true
            }
            Screen::Remap(remap) => {
                let device = match &remap.device {
                    RemapDevice::Keyboard => "the keyboard".to_string(),
                    RemapDevice::Pad { name, .. } => name.clone(),
                };
                canvas.panel(8, 16, color::PANEL);
                canvas.centred(9, "REMAP", color::HIGHLIGHT);
                canvas.centred(11, &format!("Press a control on {device}"), color::TEXT);
                if let Some(button) = remap.button() {
                    let current = remap.bindings.controls(button).join(", ");
                    canvas.centred(
                        12,
                        &format!("for {}", button.name().to_uppercase()),
                        color::HIGHLIGHT,
                    );
                    canvas.centred(13, &format!("(now: {current})"), color::DIM);
                }
                canvas.centred(15, "Esc: keep and go on", color::DIM);
                true
            }
            Screen::Error {
                title,
                message,
                menu,
            } => {
                ui::draw_error(canvas, title, message, menu);
                false
            }
        };
        if self.play.paused() && matches!(self.screen, Screen::Playing) {
            // With the profiler up, the bottom belongs to its strip.
            let (row, hint) = match self.profiler {
                Some(_) => (0, "F5:run F6:step Left/Right:frame"),
                None => (rows - 1, "DEBUG PAUSE  F5: run  F6: step"),
            };
            canvas.panel(row, row, color::BAR);
            canvas.text(1, row, hint, color::HIGHLIGHT);
        }
        if let Some(badge) = self.session.as_ref().and_then(|s| s.movie_badge()) {
            // Bottom right, where carts keep their score lines least; above the debug hint
            // when that takes the bottom row, under the profiler's hint when the strip does.
            let row = match (self.profiler.is_some(), self.play.paused()) {
                (true, _) => 1,
                (false, true) => rows - 3,
                (false, false) => rows - 1,
            };
            let colour = match badge == "REC" {
                true => color::ERROR,
                false => color::HIGHLIGHT,
            };
            canvas.label(ui::COLUMNS - badge.len(), row, badge, colour, color::PANEL);
        }
        if let Some(message) = self.notes.text() {
            let mut lines = ui::wrap(message, ui::COLUMNS - 2);
            lines.truncate(super::TOAST_LINES);
            let top = rows - 1 - lines.len();
            canvas.panel(top, rows - 2, color::BAR);
            for (i, line) in lines.iter().enumerate() {
                canvas.text(1, top + i, line, color::TEXT);
            }
        }
        canvas.blend_over(rgba, dim);
        debug_assert_eq!(rgba.len(), SCREEN_W * SCREEN_H * 4);
        // The chosen slot's picture, under the slot list.
        if let Screen::Slots { menu, infos, .. } = &self.screen
            && let Some(thumb) = infos.get(menu.selected).and_then(|i| i.thumbnail.as_ref())
        {
            let (left, top) = ((SCREEN_W - THUMB) / 2, 12 * 8);
            for y in 0..THUMB {
                for x in 0..THUMB {
                    let from = (y * THUMB + x) * 3;
                    let to = ((top + y) * SCREEN_W + left + x) * 4;
                    rgba[to..to + 3].copy_from_slice(&thumb[from..from + 3]);
                    rgba[to + 3] = 255;
                }
            }
        }
    }

    /// Saves the game's picture as PNG in `screenshot_dir` (F12 or the pause menu).
    pub fn screenshot(&mut self) {
        let Some(console) = self.console() else {
            return;
        };
        let path = match free_path(&self.capture.dir, console.cart().name(), "png") {
            Ok(path) => path,
            Err(e) => {
                let dir = self.capture.dir.display();
                self.toast(format!("Screenshot failed: {dir}: {e}"));
                return;
            }
        };
        let saved = crate::views::screenshot::save_png(&path, &console.rgba());
        self.toast(match saved {
            Ok(()) => format!("Saved {}", path.display()),
            Err(e) => format!("Screenshot failed: {e}"),
        });
    }
}

/// A new file in `dir` (made if missing) for a picture of the cart `name`:
/// `kairo-<name>-<n>.<extension>` with the first `n` not taken.
pub(super) fn free_path(dir: &Path, name: &str, extension: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    (1..=u32::MAX)
        .map(|n| dir.join(format!("kairo-{slug}-{n}.{extension}")))
        .find(|p| !p.exists())
        .ok_or_else(|| std::io::Error::other("no free file name"))
}

/// Where screenshots go: `$KAIRO_SCREENSHOT_DIR`, else `Kairo` in the user's pictures folder,
/// else `screenshots` in the current folder.
pub fn screenshot_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("KAIRO_SCREENSHOT_DIR") {
        return PathBuf::from(dir);
    }
    directories::UserDirs::new()
        .and_then(|dirs| dirs.picture_dir().map(|p| p.join("Kairo")))
        .unwrap_or_else(|| PathBuf::from("screenshots"))
}
