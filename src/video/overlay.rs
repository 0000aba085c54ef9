//! The overlay: immediate-mode text and shapes drawn in front of everything, for HUDs, menus
//! and debug output. The list is emptied at the start of every machine frame; each command
//! names a full palette index (palette * 16 + colour).

use crate::spec::{FONT_SIZE, SCREEN_H, SCREEN_W};
use crate::video::font::glyph;
use crate::video::framebuffer::Framebuffer;

/// One overlay drawing command.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Command {
    Text {
        x: i32,
        y: i32,
        color: u8,
        start: usize,
        end: usize,
    },
    Fill {
        x0: i32,
        y0: i32,
        x1: i32,
        y1: i32,
        color: u8,
    },
    Line {
        x0: i32,
        y0: i32,
        x1: i32,
        y1: i32,
        color: u8,
    },
}

/// The overlay's command list for the current frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Overlay {
    commands: Vec<Command>,
    text: String,
}

impl Overlay {
    /// Forgets every command (start of a frame).
    pub fn clear(&mut self) {
        self.commands.clear();
        self.text.clear();
    }

    /// Queues `text` at (x, y); `\n` starts a new line 8 px lower. Returns the glyphs queued.
    pub fn print(&mut self, text: &str, x: i32, y: i32, color: u8) -> u64 {
        let start = self.text.len();
        let glyphs = glyph_count(text.as_bytes());
        self.text.push_str(text);
        self.commands.push(Command::Text {
            x,
            y,
            color,
            start,
            end: self.text.len(),
        });
        glyphs
    }

    /// Queues a filled rectangle with corners (x0, y0) and (x1, y1), both inclusive. Returns
    /// the number of 8-pixel spans it covers on screen.
    pub fn fill_rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, color: u8) -> u64 {
        let (x0, x1) = (x0.min(x1), x0.max(x1));
        let (y0, y1) = (y0.min(y1), y0.max(y1));
        self.commands.push(Command::Fill {
            x0,
            y0,
            x1,
            y1,
            color,
        });
        let w = (x1.min(SCREEN_W as i32 - 1) - x0.max(0) + 1).max(0) as u64;
        let h = (y1.min(SCREEN_H as i32 - 1) - y0.max(0) + 1).max(0) as u64;
        h * w.div_ceil(8)
    }

    /// Queues the outline of a rectangle (corners inclusive). Returns spans covered.
    pub fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, color: u8) -> u64 {
        self.fill_rect(x0, y0, x1, y0, color)
            + self.fill_rect(x0, y1, x1, y1, color)
            + self.fill_rect(x0, y0, x0, y1, color)
            + self.fill_rect(x1, y0, x1, y1, color)
    }

    /// Queues a line from (x0, y0) to (x1, y1), both ends inclusive. Returns spans covered.
    pub fn line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, color: u8) -> u64 {
        self.commands.push(Command::Line {
            x0,
            y0,
            x1,
            y1,
            color,
        });
        // Bresenham walks from the start to the screen, whatever the screen shows of it.
        let length = x0.abs_diff(x1).max(y0.abs_diff(y1)) as u64 + 1;
        length.div_ceil(8)
    }

    /// Queues one pixel.
    pub fn pixel(&mut self, x: i32, y: i32, color: u8) -> u64 {
        self.fill_rect(x, y, x, y, color)
    }

    /// Draws every queued command over `fb`, in order.
    pub fn render(&self, fb: &mut Framebuffer) {
        for command in &self.commands {
            match *command {
                Command::Text {
                    x,
                    y,
                    color,
                    start,
                    end,
                } => draw_text(fb, &self.text[start..end], x, y, color),
                Command::Fill {
                    x0,
                    y0,
                    x1,
                    y1,
                    color,
                } => {
                    for py in y0.max(0)..=y1.min(SCREEN_H as i32 - 1) {
                        for px in x0.max(0)..=x1.min(SCREEN_W as i32 - 1) {
                            fb.set(px as usize, py as usize, color);
                        }
                    }
                }
                Command::Line {
                    x0,
                    y0,
                    x1,
                    y1,
                    color,
                } => draw_line(fb, (x0, y0), (x1, y1), color),
            }
        }
    }
}

fn plot(fb: &mut Framebuffer, x: i32, y: i32, color: u8) {
    if (0..SCREEN_W as i32).contains(&x) && (0..SCREEN_H as i32).contains(&y) {
        fb.set(x as usize, y as usize, color);
    }
}

fn draw_text(fb: &mut Framebuffer, text: &str, x: i32, y: i32, color: u8) {
    let step = FONT_SIZE as i32;
    let (mut cx, mut cy) = (x, y);
    for byte in text.bytes() {
        if byte == b'\n' {
            cx = x;
            cy += step;
            continue;
        }
        if cy >= SCREEN_H as i32 {
            break;
        }
        if cx > -step && cx < SCREEN_W as i32 && cy > -step {
            for (row, bits) in glyph(byte).iter().enumerate() {
                for column in 0..FONT_SIZE {
                    if bits & (0x80 >> column) != 0 {
                        plot(fb, cx + column as i32, cy + row as i32, color);
                    }
                }
            }
        }
        cx = cx.saturating_add(step);
    }
}

/// Bresenham's line, clipped per pixel; long lines stop once they have left the screen.
fn draw_line(fb: &mut Framebuffer, (x0, y0): (i32, i32), (x1, y1): (i32, i32), color: u8) {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    let on_screen =
        |x: i32, y: i32| (0..SCREEN_W as i32).contains(&x) && (0..SCREEN_H as i32).contains(&y);
    let mut was_on_screen = false;
    loop {
        let visible = on_screen(x, y);
        if visible {
            fb.set(x as usize, y as usize, color);
        } else if was_on_screen {
            break;
        }
        was_on_screen |= visible;
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}
/// The glyphs `print` draws for `text` (every byte but line breaks), what it costs.
pub fn glyph_count(text: &[u8]) -> u64 {
    text.iter().filter(|&&b| b != b'\n').count() as u64
}
