//! The hardware viewers in the window (debug menu, F8): pattern VRAM as a tile sheet in a
//! chosen palette, palette RAM, each BG layer whole, the sprites outlined on the picture, the
//! OAM list and the bullet table, drawn by `tools::vram` from the machine's last frame. The
//! d-pad moves a cursor (the view pans to follow it) and the bottom line says what is under
//! it; L/R go to the previous/next view, A changes the tile sheet's palette, B goes back. The
//! game goes on underneath with no buttons held (F5 stops it, F6 steps it), so the views are
//! live; they read the machine and charge nothing.

use super::{Screen, Shell};
use crate::console::Console;
use crate::input::{Button, ButtonWord};
use crate::spec::{BG_LAYERS, OAM_ENTRIES, SCREEN_H, SCREEN_W};
use crate::views::vram::image::{CHAR_W, Image};
use crate::views::vram::{bullets, layers, palette, sprites, tiles};

/// A hardware view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Tiles,
    Palettes,
    Layer(usize),
    Sprites,
    Oam,
    Bullets,
}

impl View {
    /// Every view, in the order L/R go through them.
    pub fn all() -> Vec<View> {
        let mut views = vec![View::Tiles, View::Palettes];
        views.extend((0..BG_LAYERS).map(View::Layer));
        views.extend([View::Sprites, View::Oam, View::Bullets]);
        views
    }

    /// The view's name in the debug menu and its title bar.
    pub fn name(self) -> String {
        match self {
            View::Tiles => "Tile sheet".into(),
            View::Palettes => "Palettes".into(),
            View::Layer(n) => format!("BG layer {n}"),
            View::Sprites => "Sprites on screen".into(),
            View::Oam => "OAM list".into(),
            View::Bullets => "Bullet table".into(),
        }
    }
}

/// A viewer on screen: its view, the cursor (a point of the view's picture) and the
/// picture drawn last, redrawn when the machine runs a frame.
#[derive(Debug)]
pub struct Viewer {
    pub view: View,
    pub cursor: (usize, usize),
    /// The tile sheet's palette.
    pub palette: u8,
    picture: Option<(u64, Image)>,
}

/// Cursor speed in picture pixels per vblank while a direction is held.
const CURSOR_SPEED: usize = 2;

impl Viewer {
    pub fn new(view: View) -> Viewer {
        Viewer {
            view,
            cursor: (SCREEN_W / 2, SCREEN_H / 2),
            palette: 0,
            picture: None,
        }
    }

    /// Moves the cursor and changes view or palette with this vblank's buttons; `true` when
    /// B asks to leave.
    pub fn navigate(&mut self, held: ButtonWord, pressed: ButtonWord) -> bool {
        let on = |b: Button, word: ButtonWord| word & b.bit() != 0;
        let step = |v: usize, less: bool, more: bool| match (less, more) {
            (true, false) => v.saturating_sub(CURSOR_SPEED),
            (false, true) => v + CURSOR_SPEED,
            _ => v,
        };
        self.cursor.0 = step(
            self.cursor.0,
            on(Button::Left, held),
            on(Button::Right, held),
        );
        self.cursor.1 = step(self.cursor.1, on(Button::Up, held), on(Button::Down, held));
        let views = View::all();
        let at = views.iter().position(|&v| v == self.view).unwrap_or(0);
        let turn = isize::from(on(Button::R, pressed)) - isize::from(on(Button::L, pressed));
        if turn != 0 {
            let next = (at as isize + turn).rem_euclid(views.len() as isize) as usize;
            *self = Viewer {
                palette: self.palette,
                ..Viewer::new(views[next])
            };
        }
        if on(Button::A, pressed) && self.view == View::Tiles {
            self.palette = (self.palette + 1) % 16;
            self.picture = None;
        }
        on(Button::B, pressed)
    }

    /// The view's picture of `console`'s machine (redrawn when it ran a frame since), and the line
    /// describing what is under the cursor.
    fn picture(&mut self, console: &Console) -> String {
        let (machine, vblanks) = (console.machine(), console.vblanks());
        let stale = self.picture.as_ref().is_none_or(|(at, _)| *at != vblanks);
        if stale {
            let image = match self.view {
                View::Tiles => {
                    tiles::tile_sheet(machine, self.palette, tiles::rows_in_use(machine))
                }
                View::Palettes => palette::palette_view(
                    machine,
                    palette::entry_at(self.cursor.0, self.cursor.1).unwrap_or(0),
                ),
                View::Layer(n) => layers::layer_view(machine, n),
                View::Sprites => sprites::sprite_outlines(machine, &console.rgba()),
                View::Oam => sprites::oam_list(machine, 0..OAM_ENTRIES),
                View::Bullets => bullets::bullet_view(machine),
            };
            self.picture = Some((vblanks, image));
        }
        let Some((_, image)) = &self.picture else {
            return String::new();
        };
        self.cursor.0 = self.cursor.0.min(image.width.saturating_sub(1));
        self.cursor.1 = self.cursor.1.min(image.height.saturating_sub(1));
        let (x, y) = self.cursor;
        match self.view {
            View::Tiles => match tiles::tile_at(x, y) {
                Some(tile) => format!("tile {tile:03X} ({tile})  palette {}", self.palette),
                None => format!("palette {}  (A: next)", self.palette),
            },
            View::Palettes => palette::entry_at(x, y)
                .map(|i| palette::entry(machine, i).describe())
                .unwrap_or_default(),
            View::Layer(n) => layers::cell_at(machine, n, x, y)
                .map(|c| c.describe())
                .unwrap_or_default(),
            View::Sprites => format!("x {x} y {y}"),
            View::Oam => sprites::entry_at(0..OAM_ENTRIES, y)
                .and_then(|i| {
                    let sprite = machine.video().oam().get(i)?;
                    Some(sprites::describe(i, sprite))
                })
                .unwrap_or_default(),
            View::Bullets => String::new(),
        }
    }

    /// Draws the view into `rgba` (the window's 256x256 picture): the part of the picture
    /// around the cursor, the cursor, a title line and the line under the cursor.
    pub fn draw(&mut self, console: &Console, rgba: &mut [u8]) {
        let info = self.picture(console);
        let Some((_, image)) = &self.picture else {
            return;
        };
        // The picture shows between the title line and the info line.
        let (bar, shown_h) = (9, SCREEN_H - 18);
        let pan = |cursor: usize, size: usize, room: usize| {
            cursor
                .saturating_sub(room / 2)
                .min(size.saturating_sub(room))
        };
        let left = pan(self.cursor.0, image.width, SCREEN_W);
        let top = pan(self.cursor.1, image.height, shown_h);
        let mut window = Image::new(SCREEN_W, SCREEN_H, 0x00_0000);
        for y in 0..shown_h.min(image.height - top) {
            for x in 0..SCREEN_W.min(image.width - left) {
                window.put(x, bar + y, image.get(left + x, top + y));
            }
        }
        let cx = (self.cursor.0 - left) as i64;
        let cy = (self.cursor.1 - top + bar) as i64;
        window.outline(cx - 4, cy, 3, 1, 0xFF_FFFF);
        window.outline(cx + 2, cy, 3, 1, 0xFF_FFFF);
        window.outline(cx, cy - 4, 1, 3, 0xFF_FFFF);
        window.outline(cx, cy + 2, 1, 3, 0xFF_FFFF);
        window.fill(0, 0, SCREEN_W, 9, 0x10_1424);
        window.text(
            2,
            1,
            &format!("{}  L/R: view  B: back", self.view.name()),
            0xF8_C838,
        );
        window.fill(0, SCREEN_H - 9, SCREEN_W, 9, 0x10_1424);
        let fits: String = info.chars().take((SCREEN_W - 4) / CHAR_W).collect();
        window.text(2, SCREEN_H - 8, &fits, 0xF0_F4FC);
        rgba.copy_from_slice(&window.rgba);
    }
}

impl Shell {
    /// Opens the viewer on `view`.
    pub(crate) fn show_viewer(&mut self, view: View) {
        self.screen = Screen::Viewer(Viewer::new(view));
    }
}
