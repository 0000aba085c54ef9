//! The console's own screens — cart browser, pause menu, remap screen, error screen — drawn
//! with the system font on an overlay of their own and laid over (or instead of) the game
//! picture. Driven by the console's buttons, so pads and keyboard both work.

use std::path::{Path, PathBuf};

use crate::cart::files::CartFiles;
use crate::cart::manifest::{MANIFEST, Manifest};
use crate::input::{Button, ButtonWord};
use crate::spec::SCREEN_H;
use crate::views::display_filter::DisplayFilter;
pub use crate::views::ui_canvas::{CART_ERROR, COLUMNS, UiCanvas, color, draw_fault, wrap};

/// Something a screen asks the host to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UiAction {
    Open(PathBuf),
    Resume,
    Reset,
    Remap,
    RemapDevice(usize),
    Screenshot,
    Profiler,
    Browser,
    Retry,
    RunLastGood,
    Quit,
    /// The save-state slots, to save into (`true`) or load from.
    Slots(bool),
    SaveSlot(usize),
    LoadSlot(usize),
    /// The movie menu: record, stop, play back.
    Movies,
    /// Starts recording a movie from power-on (`true`) or from this moment.
    Record(bool),
    StopRecording,
    PlayMovie(PathBuf),
    StopPlayback,
    /// The debug menu: overlays on the game picture.
    Debug,
    ToggleOverlay(crate::views::overlays::Overlay),
    /// A hardware viewer (its index in the shell's list of views).
    View(usize),
    /// The netplay screen: host, join or leave a match.
    Netplay,
    NetHost,
    NetJoin,
    NetLeave,
    /// The Netplay screen's rooms: make one, join or watch the one whose code is typed.
    NetCreateRoom,
    NetJoinRoom,
    NetWatchRoom,
    /// During a room's match: ask for a rematch.
    NetRematch,
    /// During a match: save its confirmed frames as a movie.
    NetSaveMovie,
    /// A PICO-8 cart's own pause-menu item (1-5, `menuitem`).
    CartItem(u8),
    /// The next display filter (the window's picture: sharp, CRT, LCD, smooth).
    Display,
}

/// A vertical menu of items, moved with up/down and chosen with A or Start.
#[derive(Clone, Debug)]
pub struct Menu {
    pub title: String,
    pub items: Vec<(String, UiAction)>,
    pub selected: usize,
}

impl Menu {
    pub fn new(title: impl Into<String>, items: Vec<(String, UiAction)>) -> Menu {
        Menu {
            title: title.into(),
            items,
            selected: 0,
        }
    }

    /// Moves or chooses with the buttons pressed this vblank.
    pub fn navigate(&mut self, pressed: ButtonWord) -> Option<UiAction> {
        if self.items.is_empty() {
            return None;
        }
        if pressed & Button::Up.bit() != 0 {
            self.selected = (self.selected + self.items.len() - 1) % self.items.len();
        }
        if pressed & Button::Down.bit() != 0 {
            self.selected = (self.selected + 1) % self.items.len();
        }
        if pressed & (Button::A.bit() | Button::Start.bit()) != 0 {
            return Some(self.items[self.selected].1.clone());
        }
        None
    }

    /// Draws the menu's title at character row `top` and at most `room` items below it,
    /// scrolled to keep the selection visible; returns the row after the last item.
    pub fn draw(&self, canvas: &mut UiCanvas, top: usize, room: usize) -> usize {
        canvas.centred(top, &self.title, color::HIGHLIGHT);
        let first_item = top + 2;
        let room = room.max(1);
        let scroll = self.selected.saturating_sub(room - 1);
        for (i, (label, _)) in self.items.iter().enumerate().skip(scroll).take(room) {
            let row = first_item + i - scroll;
            if i == self.selected {
                canvas.panel(row, row, color::BAR);
                canvas.text(1, row, ">", color::HIGHLIGHT);
            }
            let label: String = label.chars().take(COLUMNS - 3).collect();
            canvas.text(3, row, &label, color::TEXT);
        }
        first_item + self.items.len().min(room)
    }
}

/// One cart the browser lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartEntry {
    pub path: PathBuf,
    pub name: String,
    pub author: String,
}

/// Reads a cart's name and author from its manifest; a broken cart is listed by file name.
pub(crate) fn describe_cart(path: &Path) -> CartEntry {
    let fallback = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let manifest = CartFiles::open(path).ok().and_then(|files| {
        let text = std::str::from_utf8(files.get(MANIFEST)?).ok()?.to_string();
        Manifest::parse(&text).ok()
    });
    match manifest {
        Some(m) => CartEntry {
            path: path.to_path_buf(),
            name: m.name,
            author: m.author,
        },
        None => CartEntry {
            path: path.to_path_buf(),
            name: format!("{fallback} (broken)"),
            author: String::new(),
        },
    }
}

/// The carts in folder `dir`: sub-folders holding a `cart.toml`, and `.kcart` files, by name.
pub(crate) fn scan_carts(dir: &Path) -> Vec<CartEntry> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            (p.is_dir() && p.join(MANIFEST).is_file())
                || p.extension().is_some_and(|e| e == "kcart")
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| describe_cart(p)).collect()
}

/// The browser's menu: the carts of `./carts`, then recently opened ones not among them.
pub(crate) fn browser_menu(carts: &[CartEntry], recent: &[CartEntry]) -> Menu {
    let label = |e: &CartEntry| {
        if e.author.is_empty() {
            e.name.clone()
        } else {
            format!("{} - {}", e.name, e.author)
        }
    };
    let mut items: Vec<(String, UiAction)> = carts
        .iter()
        .map(|e| (label(e), UiAction::Open(e.path.clone())))
        .collect();
    let known: Vec<PathBuf> = carts
        .iter()
        .map(|e| e.path.canonicalize().unwrap_or_else(|_| e.path.clone()))
        .collect();
    for e in recent {
        let canonical = e.path.canonicalize().unwrap_or_else(|_| e.path.clone());
        if !known.contains(&canonical) && e.path.exists() {
            items.push((
                format!("(recent) {}", label(e)),
                UiAction::Open(e.path.clone()),
            ));
        }
    }
    items.push(("Quit".into(), UiAction::Quit));
    Menu::new("KAIRO - CARTS", items)
}

/// The pause menu, with the cart's own items (a PICO-8 cart's `menuitem`s) under Resume and
/// the display filter shown on its "Display" line.
pub(crate) fn pause_menu(cart_items: &[(u8, String)], display: DisplayFilter) -> Menu {
    let mut menu = Menu::new(
        "PAUSED",
        vec![
            ("Resume".into(), UiAction::Resume),
            ("Save state".into(), UiAction::Slots(true)),
            ("Load state".into(), UiAction::Slots(false)),
            ("Movies".into(), UiAction::Movies),
            ("Netplay".into(), UiAction::Netplay),
            ("Debug overlays".into(), UiAction::Debug),
            ("Reset".into(), UiAction::Reset),
            ("Remap controls".into(), UiAction::Remap),
            ("Screenshot".into(), UiAction::Screenshot),
            ("Profiler on/off".into(), UiAction::Profiler),
            (
                format!("Display: {}", display.name().to_uppercase()),
                UiAction::Display,
            ),
            ("Back to browser".into(), UiAction::Browser),
            ("Quit".into(), UiAction::Quit),
        ],
    );
    for (at, (item, label)) in cart_items.iter().enumerate() {
        menu.items
            .insert(1 + at, (label.to_uppercase(), UiAction::CartItem(*item)));
    }
    menu
}

/// The error screen's choices.
pub(crate) fn error_menu(has_last_good: bool) -> Menu {
    let mut items = vec![("Retry".into(), UiAction::Retry)];
    if has_last_good {
        items.push(("Run last good version".into(), UiAction::RunLastGood));
    }
    items.push(("Back to browser".into(), UiAction::Browser));
    items.push(("Quit".into(), UiAction::Quit));
    Menu::new("", items)
}

/// Draws the error screen: a title, the wrapped message and the menu.
pub(crate) fn draw_error(canvas: &mut UiCanvas, title: &str, message: &str, menu: &Menu) {
    draw_fault(canvas, title, message, 8);
    let rows = SCREEN_H / 8;
    menu.draw(canvas, rows - 2 - menu.items.len() - 1, menu.items.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::SCREEN_W;

    #[test]
    fn menus_wrap_around_and_choose() {
        let mut menu = pause_menu(&[], DisplayFilter::Crt);
        assert!(menu.items.iter().any(|(label, _)| label == "Display: CRT"));
        assert_eq!(menu.navigate(Button::Up.bit()), None);
        assert_eq!(menu.items[menu.selected].1, UiAction::Quit);
        assert_eq!(menu.navigate(Button::Down.bit()), None);
        assert_eq!(menu.navigate(Button::A.bit()), Some(UiAction::Resume));
        assert_eq!(menu.navigate(Button::Start.bit()), Some(UiAction::Resume));
    }

    #[test]
    fn wrap_breaks_long_lines_and_words() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("one\ntwo", 10), ["one", "two"]);
    }

    #[test]
    fn the_browser_lists_the_bundled_carts() {
        let carts = scan_carts(&Path::new(env!("CARGO_MANIFEST_DIR")).join("carts"));
        assert!(
            carts
                .iter()
                .any(|c| c.name == "Platformer" && c.author == "Kairo team")
        );
        let menu = browser_menu(&carts, &[]);
        assert_eq!(menu.items.last().unwrap().1, UiAction::Quit);
    }

    #[test]
    fn a_broken_cart_is_still_listed() {
        let entry =
            describe_cart(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/carts/bad_toml"));
        assert_eq!(entry.name, "bad_toml (broken)");
    }

    #[test]
    fn ui_pixels_cover_the_picture_and_the_rest_is_dimmed() {
        let mut canvas = UiCanvas::default();
        canvas.panel(0, 0, color::PANEL);
        let mut rgba = vec![90; SCREEN_W * SCREEN_H * 4];
        canvas.blend_over(&mut rgba, true);
        assert_eq!(&rgba[..3], &[0x10, 0x14, 0x24]);
        let below = (8 * SCREEN_W) * 4;
        assert_eq!(&rgba[below..below + 3], &[30, 30, 30]);
    }
}
