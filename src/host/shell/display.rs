//! The display filter the window draws the picture with (F10, the pause menu's "Display"):
//! kept in `display.toml` when the player changes it; `--filter` sets it for one run only.
//! The shell only holds the choice; the window's GPU does the drawing (`host::filter`), so
//! the shell's picture, screenshots and GIFs never change with it.

use super::{Screen, Shell, config};
use crate::views::display_filter::DisplayFilter;

impl Shell {
    /// The filter the window shows the picture with.
    pub fn display_filter(&self) -> DisplayFilter {
        self.display
    }

    /// Shows the picture with `filter` for this run, without saving it (`--filter`).
    pub fn set_display_filter(&mut self, filter: DisplayFilter) {
        self.display = filter;
        self.refresh_pause_menu();
    }

    /// The next filter (F10, the pause menu's "Display"), saved in `display.toml` and told
    /// in a note.
    pub fn cycle_display_filter(&mut self) {
        self.display = self.display.next();
        if let Some(dir) = &self.config_dir {
            let saved = config::DisplayConfig {
                filter: self.display,
            };
            if let Err(e) = config::save(dir, config::DISPLAY_FILE, &saved) {
                crate::out::eprint_line(&format!("kairo: {e}"));
            }
        }
        self.refresh_pause_menu();
        self.toast(format!(
            "Display: {} (F10)",
            self.display.name().to_uppercase()
        ));
    }

    /// Keeps an open pause menu's "Display" line in step, its selection where it was.
    fn refresh_pause_menu(&mut self) {
        if let Screen::Paused(menu) = &self.screen {
            let selected = menu.selected;
            let mut fresh = self.pause_menu();
            fresh.selected = selected.min(fresh.items.len() - 1);
            self.screen = Screen::Paused(fresh);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::ui::UiAction;

    fn label(shell: &Shell) -> String {
        let Screen::Paused(menu) = &shell.screen else {
            panic!("the pause menu is up");
        };
        menu.items[menu.selected].0.clone()
    }

    #[test]
    fn the_menu_and_f10_cycle_and_save_the_filter_and_the_command_line_does_not_save() {
        let dir = tempfile::Builder::new()
            .prefix("kairo-display-")
            .tempdir()
            .unwrap();
        let config = dir.path().join("config");
        let mut shell = Shell::new(dir.path().join("carts"), Some(config.clone()));
        assert_eq!(shell.display_filter(), DisplayFilter::None);
        shell.set_display_filter(DisplayFilter::Lcd);
        assert!(
            !config.join(config::DISPLAY_FILE).exists(),
            "--filter is not saved"
        );

        shell.screen = Screen::Paused(shell.pause_menu());
        if let Screen::Paused(menu) = &mut shell.screen {
            menu.selected = menu
                .items
                .iter()
                .position(|(_, action)| *action == UiAction::Display)
                .unwrap();
        }
        assert_eq!(label(&shell), "Display: LCD");
        shell.perform(UiAction::Display);
        assert_eq!(
            label(&shell),
            "Display: SMOOTH",
            "the line follows, still selected"
        );
        assert_eq!(shell.toast_text(), Some("Display: SMOOTH (F10)"));
        shell.cycle_display_filter();
        assert_eq!(label(&shell), "Display: NONE");
        shell.cycle_display_filter();

        let again = Shell::new(dir.path().join("carts"), Some(config.clone()));
        assert_eq!(again.display_filter(), DisplayFilter::Crt);
        let text = std::fs::read_to_string(config.join(config::DISPLAY_FILE)).unwrap();
        assert_eq!(text.trim(), "filter = \"crt\"");
    }
}
