//! The console's own drawing surface for its screens (the window's menus and error screen,
//! and the fault picture `kairo headless --screenshot` writes when a cart stops): the system
//! font on a drawing plane with a UI palette of its own, laid over (or instead of) the game
//! picture.

use crate::spec::{SCREEN_H, SCREEN_W};
use crate::video::framebuffer::Framebuffer;
use crate::video::palette::PaletteRam;
use crate::video::plane::DrawingPlane;

/// UI colours (full palette indices of the UI palette).
pub mod color {
    pub const PANEL: u8 = 1;
    pub const TEXT: u8 = 2;
    pub const HIGHLIGHT: u8 = 3;
    pub const DIM: u8 = 4;
    pub const ERROR: u8 = 5;
    pub const BAR: u8 = 6;
}

/// Characters per line of the system font across the screen.
pub const COLUMNS: usize = SCREEN_W / 8;

/// Where the UI draws: a drawing plane and its palette.
pub struct UiCanvas {
    pub plane: DrawingPlane,
    palette: PaletteRam,
    framebuffer: Framebuffer,
}

impl Default for UiCanvas {
    fn default() -> Self {
        let mut palette = PaletteRam::default();
        for (index, rgb) in [
            (color::PANEL, 0x10_1424),
            (color::TEXT, 0xF0_F4FC),
            (color::HIGHLIGHT, 0xF8_C838),
            (color::DIM, 0x80_88A0),
            (color::ERROR, 0xF0_5048),
            (color::BAR, 0x30_3C70),
        ] {
            palette.set(index, rgb);
        }
        UiCanvas {
            plane: DrawingPlane::default(),
            palette,
            framebuffer: Framebuffer::default(),
        }
    }
}

impl UiCanvas {
    /// Starts a new picture.
    pub fn clear(&mut self) {
        self.plane.clear();
    }

    /// Text at a character cell (column, row).
    pub fn text(&mut self, column: usize, row: usize, text: &str, color: u8) {
        let at = (column as i32 * 8, row as i32 * 8);
        self.plane.print(0, text.as_bytes(), at, color);
    }

    /// Text centred on character row `row`.
    pub(crate) fn centred(&mut self, row: usize, text: &str, color: u8) {
        let column = COLUMNS.saturating_sub(text.len()) / 2;
        self.text(column, row, text, color);
    }

    /// A filled panel over character rows `top..=bottom`, full width.
    pub fn panel(&mut self, top: usize, bottom: usize, color: u8) {
        let (a, b) = (
            (0, top as i32 * 8),
            (SCREEN_W as i32 - 1, bottom as i32 * 8 + 7),
        );
        self.plane.rect_fill(a, b, color);
    }

    /// Text on a box of `background` just its size, at a character cell.
    pub fn label(&mut self, column: usize, row: usize, text: &str, color: u8, background: u8) {
        let (x, y) = (column as i32 * 8, row as i32 * 8);
        let width = text.chars().count() as i32 * 8;
        self.plane
            .rect_fill((x - 1, y - 1), (x + width, y + 8), background);
        self.text(column, row, text, color);
    }

    /// Lays the UI over `rgba` (the game picture, or black): pixels the UI did not draw keep
    /// the picture, darkened when `dim` is set.
    pub(crate) fn blend_over(&mut self, rgba: &mut [u8], dim: bool) {
        self.framebuffer.clear();
        self.plane.render_all(&mut self.framebuffer);
        let words = self.palette.rgba_words();
        for y in 0..SCREEN_H {
            let row = self.framebuffer.row(y);
            for (x, &index) in row.iter().enumerate() {
                let px = &mut rgba[(y * SCREEN_W + x) * 4..][..4];
                if index != 0 {
                    px.copy_from_slice(&words[usize::from(index)].to_ne_bytes());
                } else if dim {
                    for channel in &mut px[..3] {
                        *channel /= 3;
                    }
                }
            }
        }
    }
}

/// Splits `text` into lines of at most `width` characters, breaking at spaces where it can.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let paragraph = paragraph.replace('\t', "  ");
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let mut word = word.to_string();
            while word.chars().count() > width {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                let head: String = word.chars().take(width).collect();
                word = word.chars().skip(width).collect();
                lines.push(head);
            }
            let needed = if line.is_empty() {
                word.len()
            } else {
                line.len() + 1 + word.len()
            };
            if needed > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        lines.push(line);
    }
    lines
}

/// The title of a cart fault's screen.
pub const CART_ERROR: &str = "CART ERROR";

/// Draws a cart fault (or another ending) over the whole screen: `title` and the wrapped
/// message, leaving `reserved` character rows at the bottom free (for the window's menu).
pub fn draw_fault(canvas: &mut UiCanvas, title: &str, message: &str, reserved: usize) {
    canvas.panel(0, SCREEN_H / 8 - 1, color::PANEL);
    canvas.centred(1, title, color::ERROR);
    let lines = wrap(message, COLUMNS - 2);
    let room = SCREEN_H / 8 - 4 - reserved;
    for (i, line) in lines.iter().take(room).enumerate() {
        canvas.text(1, 3 + i, line, color::TEXT);
    }
}

/// The picture of a fault as the window's error screen shows it (without its menu), as RGBA.
pub fn fault_picture(message: &str) -> Vec<u8> {
    let mut canvas = UiCanvas::default();
    draw_fault(&mut canvas, CART_ERROR, message, 0);
    let mut rgba = vec![0; SCREEN_W * SCREEN_H * 4];
    canvas.blend_over(&mut rgba, false);
    rgba
}
