//! The profiler overlay the window shows (F3): a translucent strip along the bottom of the
//! picture with the current, average and peak load, a scrolling graph of the last 240 frames
//! stacked by unit against the 100 % budget line (slowdown frames marked in red), a legend
//! with the host's real frame rate, and the top five Lua functions of the last second — or,
//! with the graph frozen (F5), the breakdown of the frame under the cursor. Drawn straight
//! into the RGBA picture with the system font, so it costs the machine nothing, and kept in
//! the core so headless tests can render it.

use super::history::{History, OVERLAY_FRAMES, Summary};
use super::unit_color;
use crate::meter::Unit;
use crate::profile::FrameProfile;
use crate::spec::{FRAME_BUDGET, FRAME_RATE, SCREEN_H, SCREEN_W};
use crate::video::font::glyph;

/// Horizontal advance of the overlay's text (the font's glyphs are 5 pixels wide).
const CHAR_W: usize = 6;
/// Height of a text line.
const LINE_H: usize = 9;
/// Height of the graph; the budget line sits at [`BUDGET_H`] from its bottom.
const GRAPH_H: usize = 40;
const BUDGET_H: usize = 32;
/// Left edge of the graph and the text.
const MARGIN: usize = 8;
/// Lines of functions or frame breakdown in the full strip.
const DETAIL_LINES: usize = 5;
/// Characters that fit on a line.
const COLUMNS: usize = (SCREEN_W - 2 * MARGIN) / CHAR_W;

const WHITE: u32 = 0xF0_F4FC;
const DIM: u32 = 0x90_98B0;
const RED: u32 = 0xFF_4040;
const CURSOR: u32 = 0xFF_FFFF;

/// How much of the strip is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayMode {
    /// Load line, graph, legend and the functions or frame breakdown.
    Full,
    /// Load line and graph only.
    Compact,
}

/// What the overlay shows besides the frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayView {
    pub mode: OverlayMode,
    /// With the graph frozen: the frame (index into the history) whose breakdown is shown.
    pub cursor: Option<usize>,
    /// Pictures the host presented per second.
    pub host_fps: f32,
    /// Real time the host spent on the last frame, in microseconds (machine and present).
    pub host_us: f32,
}

/// Height of the strip in `mode`, in pixels.
pub fn strip_height(mode: OverlayMode) -> usize {
    let compact = 2 + LINE_H + GRAPH_H + 3;
    match mode {
        OverlayMode::Compact => compact,
        OverlayMode::Full => compact + LINE_H + DETAIL_LINES * LINE_H + 2,
    }
}

/// The RGBA picture being drawn on.
struct Canvas<'a> {
    rgba: &'a mut [u8],
}

impl Canvas<'_> {
    fn put(&mut self, x: usize, y: usize, rgb: u32) {
        if x < SCREEN_W && y < SCREEN_H {
            let px = &mut self.rgba[(y * SCREEN_W + x) * 4..][..4];
            px.copy_from_slice(&[(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8, 0xFF]);
        }
    }

    fn fill(&mut self, x: usize, y: usize, w: usize, h: usize, rgb: u32) {
        for yy in y..(y + h).min(SCREEN_H) {
            for xx in x..(x + w).min(SCREEN_W) {
                self.put(xx, yy, rgb);
            }
        }
    }

    /// Darkens rows `top..bottom` to a third, so the game shows through.
    fn shade(&mut self, top: usize, bottom: usize) {
        let end = bottom.min(SCREEN_H) * SCREEN_W * 4;
        for px in self.rgba[top * SCREEN_W * 4..end].chunks_exact_mut(4) {
            for c in &mut px[..3] {
                *c /= 3;
            }
        }
    }

    /// Text from (x, y), cut at the right edge of the strip.
    fn text(&mut self, x: usize, y: usize, text: &str, rgb: u32) {
        for (i, ch) in text.bytes().enumerate() {
            let left = x + i * CHAR_W;
            if left + CHAR_W > SCREEN_W - MARGIN / 2 {
                break;
            }
            for (row, bits) in glyph(ch).iter().enumerate() {
                for col in 0..8 {
                    if bits & (0x80 >> col) != 0 {
                        self.put(left + col, y + row, rgb);
                    }
                }
            }
        }
    }
}

/// Draws the overlay for `history` over the picture `rgba` (256 x 256 RGBA).
pub fn draw(rgba: &mut [u8], history: &History, view: &OverlayView) {
    debug_assert_eq!(rgba.len(), SCREEN_W * SCREEN_H * 4);
    let top = SCREEN_H - strip_height(view.mode);
    let mut canvas = Canvas { rgba };
    canvas.shade(top, SCREEN_H);
    let mut y = top + 2;

    let Some(last) = history.last() else {
        canvas.text(MARGIN, y, "profiler: waiting for a frame", DIM);
        return;
    };
    let summary = history.summary();
    let total = summary.bucket("total").copied().unwrap_or_default();
    let header = format!(
        "load {:>3.0}%  avg {:>3.0}%  peak {:>3.0}%  slow ",
        last.load(),
        total.mean_load(),
        total.max_load()
    );
    canvas.text(MARGIN, y, &header, WHITE);
    let slow = summary.slowdowns.len().to_string();
    let colour = if summary.slowdowns.is_empty() {
        WHITE
    } else {
        RED
    };
    canvas.text(MARGIN + header.len() * CHAR_W, y, &slow, colour);
    y += LINE_H;

    draw_graph(&mut canvas, history, view.cursor, y);
    y += GRAPH_H + 3;
    if view.mode == OverlayMode::Compact {
        return;
    }

    let mut x = MARGIN;
    for unit in Unit::ALL {
        canvas.fill(x, y + 1, 5, 5, unit_color(unit));
        canvas.text(x + 7, y, &unit.name()[..3], DIM);
        x += 7 + 3 * CHAR_W + 4;
    }
    let host = format!("{:.0}fps {:.1}ms", view.host_fps, view.host_us / 1000.0);
    canvas.text(SCREEN_W - MARGIN - host.len() * CHAR_W, y, &host, DIM);
    y += LINE_H;

    let lines = match view.cursor.and_then(|i| history.get(i)) {
        Some(frame) => breakdown(frame),
        None => top_functions(&Summary::of(history.recent(FRAME_RATE as usize))),
    };
    for (i, (line, colour)) in lines.iter().take(DETAIL_LINES).enumerate() {
        let text: String = line.chars().take(COLUMNS).collect();
        canvas.text(MARGIN, y + i * LINE_H, &text, *colour);
    }
}

/// Height in graph pixels of `cycles` (the budget is [`BUDGET_H`]).
fn bar_height(cycles: u64) -> usize {
    (cycles * BUDGET_H as u64).div_ceil(FRAME_BUDGET) as usize
}

fn draw_graph(canvas: &mut Canvas, history: &History, cursor: Option<usize>, top: usize) {
    let bottom = top + GRAPH_H;
    let start = history.len().saturating_sub(OVERLAY_FRAMES);
    // The newest frame is at the right end of the graph.
    let left = MARGIN + OVERLAY_FRAMES - (history.len() - start);
    for (column, (index, frame)) in history.frames().enumerate().skip(start).enumerate() {
        let x = left + column;
        let mut base = 0;
        for unit in Unit::ALL {
            let below = base;
            base += frame.unit(unit);
            let (from, to) = (bar_height(below), bar_height(base).min(GRAPH_H));
            if to > from {
                canvas.fill(x, bottom - to, 1, to - from, unit_color(unit));
            }
        }
        if frame.slowed_down() {
            // A red cap marks over-budget frames, also when the bar is clipped.
            canvas.fill(x, top, 1, 2, RED);
        }
        if cursor == Some(index) {
            canvas.fill(x, top, 1, GRAPH_H, CURSOR);
        }
    }
    // The budget line, dashed so bars show through it.
    let line_y = bottom - BUDGET_H;
    for x in (MARGIN..MARGIN + OVERLAY_FRAMES).step_by(2) {
        canvas.put(x, line_y, RED);
    }
}

/// The top functions of `summary` as text lines.
fn top_functions(summary: &Summary) -> Vec<(String, u32)> {
    if summary.functions.is_empty() {
        return vec![("no Lua ran in the last second".into(), DIM)];
    }
    summary
        .functions
        .iter()
        .map(|f| (format!("{:>3.0}% {}", f.share, f.name), WHITE))
        .collect()
}

/// One frame's breakdown as text lines.
fn breakdown(frame: &FrameProfile) -> Vec<(String, u32)> {
    let mut lines = vec![(
        format!(
            "frame {}: {} cycles {:.0}% {} vblank{}",
            frame.frame,
            frame.total(),
            frame.load(),
            frame.vblanks,
            if frame.vblanks == 1 { "" } else { "s" }
        ),
        if frame.slowed_down() { RED } else { WHITE },
    )];
    let units: Vec<String> = Unit::ALL
        .iter()
        .map(|u| format!("{} {}", &u.name()[..3], frame.unit(*u)))
        .collect();
    lines.push((units[..3].join("  "), WHITE));
    lines.push((units[3..].join("  "), WHITE));
    let v = &frame.video;
    lines.push((
        format!(
            "vid: bg {} {} {} {} spr {} wr {}",
            v.layers[0], v.layers[1], v.layers[2], v.layers[3], v.sprites, v.writes
        ),
        DIM,
    ));
    let top = frame
        .functions
        .first()
        .map(|(name, cycles)| format!("top: {name} {cycles}"))
        .unwrap_or_else(|| "top: -".into());
    lines.push((top, DIM));
    lines
}
