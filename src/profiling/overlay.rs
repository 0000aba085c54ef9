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
    let header = header_text(last.load(), total.mean_load(), total.max_load());
    canvas.text(MARGIN, y, &header, WHITE);
    let slow = slow_count(summary.slowdowns.len());
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

    let host = host_text(view.host_fps, view.host_us);
    let layout = legend_layout(&host);
    for (unit, &x) in Unit::ALL.iter().zip(&layout.units) {
        canvas.fill(x, y + 1, SWATCH_W, 5, unit_color(*unit));
        canvas.text(x + SWATCH_W + 1, y, &short_name(*unit), DIM);
    }
    canvas.text(layout.host, y, &host, DIM);
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

/// A load in percent, at most four characters: right-aligned up to 999, `>999` above.
fn percent(load: f64) -> String {
    let load = if load.is_finite() { load.max(0.0) } else { 0.0 };
    if load.round() > 999.0 {
        ">999".into()
    } else {
        format!("{load:>3.0}")
    }
}

/// The load line up to the slowdown count, which follows it in its own colour.
fn header_text(load: f64, mean: f64, peak: f64) -> String {
    format!(
        "load {}% avg {}% peak {}% slow ",
        percent(load),
        percent(mean),
        percent(peak)
    )
}

/// The number of slowdown frames, at most three characters (`>99` above 99).
fn slow_count(n: usize) -> String {
    if n > 99 { ">99".into() } else { n.to_string() }
}

/// Width of a legend swatch.
const SWATCH_W: usize = 3;
/// Characters of a unit's name in the legend.
const NAME_CHARS: usize = 3;
/// From one legend entry to the next: swatch, gap, name, gap.
const LEGEND_PITCH: usize = SWATCH_W + 1 + NAME_CHARS * CHAR_W + 3;
/// The longest the host figures can be (see [`host_text`]).
const HOST_CHARS: usize = 14;

/// The host's frame rate and frame time, at most [`HOST_CHARS`] characters whatever the
/// values: whole fps up to 999, milliseconds with one decimal below 10 and whole up to
/// 999; larger values show as `>999`, and negative or undefined ones as 0.
fn host_text(fps: f32, us: f32) -> String {
    let clean = |v: f32| if v.is_finite() { v.max(0.0) } else { 0.0 };
    let (fps, ms) = (clean(fps), clean(us) / 1000.0);
    let fps = if fps.round() > 999.0 {
        ">999".to_string()
    } else {
        format!("{fps:.0}")
    };
    let ms = if ms.round() > 999.0 {
        ">999".to_string()
    } else if ms < 9.95 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.0}")
    };
    format!("{fps}fps {ms}ms")
}

/// A unit's name as the legend shows it: its first three letters.
fn short_name(unit: Unit) -> String {
    unit.name().chars().take(NAME_CHARS).collect()
}

/// Where the legend line's pieces start: each unit's swatch, and the host figures (right
/// aligned at the strip's margin).
struct LegendLayout {
    units: [usize; Unit::ALL.len()],
    host: usize,
}

fn legend_layout(host: &str) -> LegendLayout {
    let mut units = [0; Unit::ALL.len()];
    for (i, x) in units.iter_mut().enumerate() {
        *x = MARGIN + i * LEGEND_PITCH;
    }
    LegendLayout {
        units,
        host: SCREEN_W - MARGIN - host.len().min(HOST_CHARS) * CHAR_W,
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
        .map(|u| format!("{} {}", short_name(*u), frame.unit(*u)))
        .collect();
    lines.push((units[..3].join("  "), WHITE));
    lines.push((units[3..].join("  "), WHITE));
    let v = &frame.video;
    let video = format!(
        "vid: bg {} {} {} {} spr {} wr {}",
        v.layers[0], v.layers[1], v.layers[2], v.layers[3], v.sprites, v.writes
    );
    match frame.sprites_dropped {
        0 => lines.push((video, DIM)),
        n => lines.push((format!("{video} drop {n}"), RED)),
    }
    let top = frame
        .functions
        .first()
        .map(|(name, cycles)| format!("top: {name} {cycles}"))
        .unwrap_or_else(|| "top: -".into());
    lines.push((top, DIM));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_figures_stay_within_their_width_at_any_value() {
        assert_eq!(host_text(60.0, 1500.0), "60fps 1.5ms");
        assert_eq!(host_text(57.4, 16_700.0), "57fps 17ms");
        assert_eq!(host_text(0.0, 0.0), "0fps 0.0ms");
        assert_eq!(host_text(999.0, 999_000.0), "999fps 999ms");
        assert_eq!(host_text(9999.0, 9_999_900.0), ">999fps >999ms");
        assert_eq!(host_text(f32::NAN, -5.0), "0fps 0.0ms");
        assert_eq!(host_text(f32::INFINITY, f32::INFINITY), "0fps 0.0ms");
        for fps in [0.0, 0.4, 9.96, 59.9, 99.5, 999.4, 999.6, 1e9] {
            for us in [0.0, 9949.0, 9951.0, 99_999.0, 999_499.0, 999_501.0, 1e12] {
                assert!(host_text(fps, us).len() <= HOST_CHARS, "{fps} {us}");
            }
        }
    }

    #[test]
    fn the_load_line_fits_the_strip_at_any_value() {
        assert_eq!(
            header_text(88.0, 86.4, 103.0),
            "load  88% avg  86% peak 103% slow "
        );
        let slow = slow_count(usize::MAX);
        assert_eq!(slow, ">99");
        assert_eq!(slow_count(7), "7");
        for load in [0.0, 999.4, 999.6, 1e9, f64::NAN, -1.0] {
            let line = header_text(load, load, load) + &slow;
            assert!(
                MARGIN + line.len() * CHAR_W <= SCREEN_W - MARGIN / 2,
                "{line}"
            );
        }
        assert_eq!(percent(1e9), ">999");
        assert_eq!(percent(f64::NAN), "  0");
    }

    #[test]
    fn the_legend_never_runs_into_the_host_figures() {
        // The widest host text there can be, and the legend's last name.
        let widest = host_text(1e9, 1e12);
        assert_eq!(widest.len(), HOST_CHARS);
        let layout = legend_layout(&widest);
        let last = layout.units[Unit::ALL.len() - 1];
        let legend_end = last + SWATCH_W + 1 + NAME_CHARS * CHAR_W;
        // At least one character's gap, and everything inside the strip's margins.
        assert!(
            legend_end + CHAR_W <= layout.host,
            "{legend_end} {}",
            layout.host
        );
        assert!(layout.host + widest.len() * CHAR_W <= SCREEN_W - MARGIN);
        for pair in layout.units.windows(2) {
            assert!(pair[0] + SWATCH_W + 1 + NAME_CHARS * CHAR_W < pair[1]);
        }
        for unit in Unit::ALL {
            assert_eq!(short_name(unit).len(), NAME_CHARS);
        }
    }

    #[test]
    fn drawn_at_extreme_values_the_legend_line_keeps_a_gap() {
        let mut history = History::new(OVERLAY_FRAMES);
        for frame in 0..3 {
            history.push(FrameProfile {
                frame,
                ..FrameProfile::default()
            });
        }
        let legend_y = SCREEN_H - strip_height(OverlayMode::Full) + 2 + LINE_H + GRAPH_H + 3;
        for (fps, us) in [
            (0.0, 0.0),
            (999.0, 9_999_900.0),
            (1e9, 1e12),
            (57.0, 16_700.0),
        ] {
            let mut rgba = vec![0; SCREEN_W * SCREEN_H * 4];
            let view = OverlayView {
                mode: OverlayMode::Full,
                cursor: None,
                host_fps: fps,
                host_us: us,
            };
            draw(&mut rgba, &history, &view);
            let lit = |x: usize| {
                (legend_y..legend_y + 8).any(|y| rgba[(y * SCREEN_W + x) * 4..][..3] != [0; 3])
            };
            let host = host_text(fps, us);
            let layout = legend_layout(&host);
            let last = layout.units[Unit::ALL.len() - 1];
            let legend_end = last + SWATCH_W + 1 + NAME_CHARS * CHAR_W;
            let drawn = |from: usize| (from..from + CHAR_W).any(lit);
            assert!(drawn(legend_end - CHAR_W) && drawn(layout.host), "{host}");
            assert!(
                (legend_end..layout.host).all(|x| !lit(x)),
                "legend and {host} touch"
            );
        }
    }
}
