//! The drawing plane: what `cls`, `print`, the shape functions and `blit` draw, for one
//! frame. Each command keeps the priority it was drawn at (0-3 like the layers, 4 = in front
//! of everything), so drawings can sit between layers or behind sprites. The plane's state —
//! camera, clip rectangle, fill pattern, priority, draw palette — lasts until the cart
//! changes it; the commands are forgotten at the start of every machine frame, or, on a cart
//! with a canvas ([`crate::video::canvas`]), painted into it in order as the frame ends.
//! Colours are full palette indices (palette * 16 + colour), swapped through the draw
//! palette when drawn, and opaque (a blit's pixels of a transparent colour are not drawn).
//!
//! Shapes are rasterized when drawn (see [`crate::video::raster`]) into spans already cut to
//! the clip, so the cost the API charges is the work the compositor will do.

use crate::spec::{PALETTE_ENTRIES, PATTERN_SHEET_TILES_W, PRIORITY_LEVELS, TILE_SIZE};
use crate::video::fonts::{self, Font};
use crate::video::framebuffer::{Framebuffer, Pixels};
use crate::video::patterns::PatternVram;
use crate::video::raster::{self, Clip, Span};

/// The priority in front of everything (the default).
pub(crate) const FRONT: u8 = PRIORITY_LEVELS as u8;

/// A 4x4 fill pattern, aligned to the screen: bit 15 is pixel (0, 0), bit 14 pixel (1, 0),
/// ..., bit 0 pixel (3, 3). Set bits draw `alt`, or nothing when `alt` is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FillPattern {
    pub bits: u16,
    pub(crate) alt: Option<u8>,
}

impl FillPattern {
    /// The colour drawn at screen pixel (x, y), or `None` for a hole.
    #[inline]
    fn color_at(&self, x: usize, y: usize, color: u8) -> Option<u8> {
        let bit = 0x8000 >> ((y & 3) * 4 + (x & 3));
        if self.bits & bit == 0 {
            Some(color)
        } else {
            self.alt
        }
    }
}

/// The plane's lasting state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawState {
    /// Subtracted from every drawing's coordinates.
    pub camera: (i32, i32),
    /// Where drawings show, on screen (the camera does not move it).
    pub clip: Clip,
    pub fill: FillPattern,
    /// Priority of new drawings, 0-4.
    pub priority: u8,
}

impl Default for DrawState {
    fn default() -> Self {
        DrawState {
            camera: (0, 0),
            clip: Clip::SCREEN,
            fill: FillPattern::default(),
            priority: FRONT,
        }
    }
}

/// The draw palette: the colour each full palette index is drawn as (`draw_pal`), and which
/// colours of a tile a blit leaves out (`draw_transparent`). Applied when a drawing is made.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawPalette {
    #[serde(with = "crate::serde_array::boxed")]
    map: Box<[u8; PALETTE_ENTRIES]>,
    /// Bit `c`: tile colour `c` (0-15) is drawn by blits; colour 0 alone is left out at first.
    opaque: u16,
}

impl Default for DrawPalette {
    fn default() -> Self {
        DrawPalette {
            map: Box::new(std::array::from_fn(|i| i as u8)),
            opaque: !1,
        }
    }
}

impl DrawPalette {
    /// The colour `index` is drawn as.
    #[inline]
    pub fn get(&self, index: u8) -> u8 {
        self.map[usize::from(index)]
    }

    /// Draws `index` as `to` from now on; returns what it was drawn as.
    pub fn set(&mut self, index: u8, to: u8) -> u8 {
        std::mem::replace(&mut self.map[usize::from(index)], to)
    }

    /// Whether blits leave tile colour `color` (0-15) out.
    pub fn transparent(&self, color: u8) -> bool {
        self.opaque & (1 << (color & 15)) == 0
    }

    /// Makes blits leave tile colour `color` (0-15) out, or draw it; returns whether it was
    /// left out.
    pub fn set_transparent(&mut self, color: u8, transparent: bool) -> bool {
        let was = self.transparent(color);
        let bit = 1 << (color & 15);
        if transparent {
            self.opaque &= !bit;
        } else {
            self.opaque |= bit;
        }
        was
    }

    /// What the 16 colours of a tile are drawn as with palette `palette`, and which are drawn.
    fn for_tiles(&self, palette: u8) -> ([u8; 16], u16) {
        let base = usize::from(palette & 15) * 16;
        (std::array::from_fn(|c| self.map[base + c]), self.opaque)
    }
}

/// A rectangle of the pattern sheet (VRAM seen as a picture 16 tiles wide) drawn scaled
/// into a rectangle of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Blit {
    /// The source: top-left pixel and size on the sheet.
    pub source: [u16; 4],
    /// The destination on screen (after the camera): top-left pixel and size.
    pub target: [i32; 4],
    pub flip_x: bool,
    pub flip_y: bool,
}

/// Pixels across the pattern sheet.
pub const SHEET_W: usize = PATTERN_SHEET_TILES_W * TILE_SIZE;

impl Blit {
    /// The screen rows and columns it draws inside `clip` (ends excluded), or `None`.
    fn visible(&self, clip: &Clip) -> Option<(i32, i32, i32, i32)> {
        let [x, y, w, h] = self.target;
        let (x0, x1) = (x.max(clip.x0), x.saturating_add(w).min(clip.x1));
        let (y0, y1) = (y.max(clip.y0), y.saturating_add(h).min(clip.y1));
        (x0 < x1 && y0 < y1).then_some((x0, x1, y0, y1))
    }

    /// The 8-pixel runs it draws inside `clip` (what it costs beyond the call).
    pub fn runs(&self, clip: &Clip) -> u64 {
        self.visible(clip).map_or(0, |(x0, x1, y0, y1)| {
            (y1 - y0) as u64 * ((x1 - x0) as u64).div_ceil(8)
        })
    }

    /// Paints it: each screen pixel shows the sheet pixel its position scales to (nearest,
    /// from the top-left), drawn as `colors` says unless its colour is not in `opaque`.
    fn render(
        &self,
        patterns: &PatternVram,
        clip: &Clip,
        (colors, opaque): ([u8; 16], u16),
        out: &mut impl Pixels,
    ) {
        let Some((x0, x1, y0, y1)) = self.visible(clip) else {
            return;
        };
        let [sx, sy, sw, sh] = self.source.map(i64::from);
        let [tx, ty, tw, th] = self.target.map(i64::from);
        for y in y0..y1 {
            let mut v = (i64::from(y) - ty) * sh / th;
            if self.flip_y {
                v = sh - 1 - v;
            }
            let sheet_y = (sy + v) as usize;
            for x in x0..x1 {
                let mut u = (i64::from(x) - tx) * sw / tw;
                if self.flip_x {
                    u = sw - 1 - u;
                }
                let sheet_x = (sx + u) as usize;
                let tile = (sheet_y / TILE_SIZE) * PATTERN_SHEET_TILES_W + sheet_x / TILE_SIZE;
                let color = patterns.pixel(tile, sheet_x % TILE_SIZE, sheet_y % TILE_SIZE);
                if opaque & (1 << color) != 0 {
                    out.set(x as usize, y as usize, colors[usize::from(color)]);
                }
            }
        }
    }
}

/// One drawing command.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Command {
    /// Spans `start..end` of the span list, in one colour and pattern.
    Spans {
        priority: u8,
        color: u8,
        fill: FillPattern,
        start: u32,
        end: u32,
    },
    /// A blit, with the tile colours it draws (through the draw palette) and which it draws.
    Blit {
        priority: u8,
        blit: Blit,
        colors: [u8; 16],
        opaque: u16,
        clip: Clip,
    },
    /// Text bytes `start..end` of the text buffer.
    Text {
        priority: u8,
        font: u8,
        x: i32,
        y: i32,
        color: u8,
        clip: Clip,
        start: u32,
        end: u32,
    },
}

/// The drawing plane: its state and this frame's commands.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawingPlane {
    pub state: DrawState,
    /// The draw palette (lasting state, like `state`).
    pub palette: DrawPalette,
    /// The colour `cls` filled the screen with this frame, behind everything.
    pub background: Option<u8>,
    commands: Vec<Command>,
    spans: Vec<Span>,
    text: Vec<u8>,
}

/// Cost units of spans: started 8-pixel runs, plus 1 for each row examined that got none.
fn runs(spans: &[Span], rows_examined: u64) -> u64 {
    let runs: u64 = spans.iter().map(|s| s.len().div_ceil(8) as u64).sum();
    let mut rows_drawn = 0;
    let mut last = None;
    for span in spans {
        if last != Some(span.y) {
            rows_drawn += 1;
            last = Some(span.y);
        }
    }
    runs + rows_examined.saturating_sub(rows_drawn)
}

/// A point moved by the camera, in i64 so nothing overflows.
type Point = (i64, i64);

impl DrawingPlane {
    /// Forgets this frame's commands and background (the state stays).
    pub fn clear(&mut self) {
        self.background = None;
        self.commands.clear();
        self.spans.clear();
        self.text.clear();
    }

    /// Whether nothing is drawn.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.background.is_none()
    }

    /// `(x, y)` as the screen sees it through the camera.
    pub(crate) fn to_screen(&self, (x, y): (i32, i32)) -> Point {
        (
            i64::from(x) - i64::from(self.state.camera.0),
            i64::from(y) - i64::from(self.state.camera.1),
        )
    }

    /// Adds the spans `raster` makes, in `color` with the fill pattern `fill`; returns the
    /// 8-pixel runs they cover plus the rows `raster` examined in vain (it returns how many
    /// rows it examined).
    fn push_spans(
        &mut self,
        color: u8,
        fill: FillPattern,
        raster: impl FnOnce(&Clip, &mut Vec<Span>) -> u64,
    ) -> u64 {
        let color = self.palette.get(color);
        let fill = FillPattern {
            alt: fill.alt.map(|alt| self.palette.get(alt)),
            ..fill
        };
        let start = self.spans.len();
        let examined = raster(&self.state.clip, &mut self.spans);
        let added = &self.spans[start..];
        let cost = runs(added, examined);
        if added.is_empty() {
            return cost;
        }
        self.commands.push(Command::Spans {
            priority: self.state.priority,
            color,
            fill,
            start: start as u32,
            end: self.spans.len() as u32,
        });
        cost
    }

    /// A shape in the current fill pattern.
    fn shape(&mut self, color: u8, raster: impl FnOnce(&Clip, &mut Vec<Span>) -> u64) -> u64 {
        let fill = self.state.fill;
        self.push_spans(color, fill, raster)
    }

    /// Clears the frame's drawings and the clip; with a colour, the screen is filled with it
    /// behind everything (the compositor fills it instead of the backdrop: no extra work).
    pub fn cls(&mut self, color: Option<u8>) {
        self.clear();
        self.state.clip = Clip::SCREEN;
        self.background = color;
    }

    /// A filled rectangle, corners included. Returns the 8-pixel runs it covers.
    pub fn rect_fill(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        self.shape(color, |clip, out| raster::rect_fill(clip, a, b, out))
    }

    /// A rectangle's outline.
    pub fn rect(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        self.shape(color, |clip, out| raster::rect_outline(clip, a, b, out))
    }

    /// A line, both ends included. Returns its length in 8-pixel runs (all of it, shown or
    /// not: the walk is the work).
    pub fn line(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        let mut length = 0;
        self.shape(color, |clip, out| {
            length = raster::line(clip, a, b, out);
            0
        });
        length.div_ceil(8)
    }

    /// One pixel.
    pub fn pixel(&mut self, p: (i32, i32), color: u8) -> u64 {
        self.rect_fill(p, p, color)
    }

    /// An oval in the box with corners `a` and `b`.
    pub fn oval(&mut self, a: (i32, i32), b: (i32, i32), filled: bool, color: u8) -> u64 {
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        self.shape(color, |clip, out| raster::oval(clip, a, b, filled, out))
    }

    /// A circle of radius `r` (>= 0) around `centre`: the oval in the box centre +- r.
    pub fn circle(&mut self, centre: (i32, i32), r: i64, filled: bool, color: u8) -> u64 {
        let (x, y) = self.to_screen(centre);
        let (a, b) = ((x - r, y - r), (x + r, y + r));
        self.shape(color, |clip, out| raster::oval(clip, a, b, filled, out))
    }

    /// A triangle, filled or as its edges.
    pub(crate) fn triangle(&mut self, points: [(i32, i32); 3], filled: bool, color: u8) -> u64 {
        let points = points.map(|p| self.to_screen(p));
        if filled {
            return self.shape(color, |clip, out| raster::triangle_fill(clip, points, out));
        }
        let mut length = 0;
        self.shape(color, |clip, out| {
            length = raster::triangle_outline(clip, points, out);
            0
        });
        length.div_ceil(8)
    }

    /// Queues `text` in font number `font` at (x, y); `\n` starts a new line.
    pub fn print(&mut self, font: u8, text: &[u8], at: (i32, i32), color: u8) {
        let (x, y) = self.to_screen(at);
        let color = self.palette.get(color);
        let start = self.text.len() as u32;
        self.text.extend_from_slice(text);
        let near = |v: i64| v.clamp(-(1 << 20), 1 << 20) as i32;
        self.commands.push(Command::Text {
            priority: self.state.priority,
            font,
            x: near(x),
            y: near(y),
            color,
            clip: self.state.clip,
            start,
            end: self.text.len() as u32,
        });
    }

    /// Queues `blit` (its target already through the camera) with palette `palette`; returns
    /// the 8-pixel runs it draws inside the clip.
    pub fn blit(&mut self, blit: Blit, palette: u8) -> u64 {
        let clip = self.state.clip;
        let runs = blit.runs(&clip);
        if runs > 0 {
            let (colors, opaque) = self.palette.for_tiles(palette);
            self.commands.push(Command::Blit {
                priority: self.state.priority,
                blit,
                colors,
                opaque,
                clip,
            });
        }
        runs
    }

    /// Draws the commands of `priority` over `out`, in the order they were queued.
    pub(crate) fn render(
        &self,
        priority: u8,
        out: &mut impl Pixels,
        patterns: &PatternVram,
        cart_fonts: &[Font],
    ) {
        for command in &self.commands {
            match *command {
                Command::Spans {
                    priority: p,
                    color,
                    fill,
                    start,
                    end,
                } if p == priority => {
                    let spans = &self.spans[start as usize..end as usize];
                    draw_spans(out, spans, color, fill);
                }
                Command::Blit {
                    priority: p,
                    blit,
                    colors,
                    opaque,
                    clip,
                } if p == priority => blit.render(patterns, &clip, (colors, opaque), out),
                Command::Text {
                    priority: p,
                    font,
                    x,
                    y,
                    color,
                    clip,
                    start,
                    end,
                } if p == priority => {
                    let text = &self.text[start as usize..end as usize];
                    let font = fonts::by_number(cart_fonts, font);
                    font.draw(out, text, (x, y), color, clip.bounds());
                }
                _ => {}
            }
        }
    }

    /// Draws every command, whatever its priority, over `fb` (the console's own UI).
    pub fn render_all(&self, fb: &mut Framebuffer) {
        // The UI blits nothing, so the patterns are never read.
        static NO_PATTERNS: std::sync::OnceLock<PatternVram> = std::sync::OnceLock::new();
        let patterns = NO_PATTERNS.get_or_init(PatternVram::default);
        for priority in 0..=FRONT {
            self.render(priority, fb, patterns, &[]);
        }
    }

    /// Paints this frame's commands into `canvas` in the order they were made, and forgets
    /// them (a canvas cart's frame end; its `cls` clears the canvas itself).
    pub(crate) fn paint(
        &mut self,
        canvas: &mut crate::video::canvas::Canvas,
        patterns: &PatternVram,
        cart_fonts: &[Font],
    ) {
        // Commands keep their priority; on a canvas only their order counts.
        let priority = self.state.priority;
        for command in &mut self.commands {
            match command {
                Command::Spans { priority: p, .. }
                | Command::Blit { priority: p, .. }
                | Command::Text { priority: p, .. } => *p = priority,
            }
        }
        self.render(priority, canvas, patterns, cart_fonts);
        self.clear();
    }
}

fn draw_spans(out: &mut impl Pixels, spans: &[Span], color: u8, fill: FillPattern) {
    for span in spans {
        let y = usize::from(span.y);
        let (x0, x1) = (usize::from(span.x0), usize::from(span.x1));
        if fill.bits == 0 {
            out.fill_span(y, x0, x1, color);
            continue;
        }
        for x in x0..=x1 {
            if let Some(c) = fill.color_at(x, y, color) {
                out.set(x, y, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(plane: &DrawingPlane) -> Framebuffer {
        let mut fb = Framebuffer::default();
        plane.render_all(&mut fb);
        fb
    }

    #[test]
    fn the_camera_moves_drawings_and_the_clip_cuts_them() {
        let mut plane = DrawingPlane::default();
        plane.state.camera = (100, -20);
        plane.state.clip = Clip::new(0, 0, 8, 256);
        let runs = plane.rect_fill((100, -20), (115, -20), 7);
        assert_eq!(runs, 1, "only 8 of 16 pixels show");
        let fb = drawn(&plane);
        assert_eq!(fb.get(0, 0), 7);
        assert_eq!(fb.get(7, 0), 7);
        assert_eq!(fb.get(8, 0), 0);
    }

    #[test]
    fn fill_patterns_are_screen_aligned() {
        let mut plane = DrawingPlane::default();
        plane.state.fill = FillPattern {
            bits: 0x8000,
            alt: None,
        };
        plane.rect_fill((0, 0), (7, 7), 5);
        plane.state.fill.alt = Some(9);
        plane.rect_fill((8, 0), (15, 7), 5);
        let fb = drawn(&plane);
        assert_eq!(fb.get(0, 0), 0, "bit 15 is pixel (0, 0): a hole");
        assert_eq!(fb.get(1, 0), 5);
        assert_eq!(fb.get(4, 4), 0);
        assert_eq!(fb.get(8, 0), 9, "with a second colour, set bits draw it");
        assert_eq!(fb.get(9, 0), 5);
    }

    #[test]
    fn rows_examined_in_vain_are_charged() {
        let mut plane = DrawingPlane::default();
        // A ring far bigger than the screen crosses every row but shows nothing.
        assert_eq!(plane.circle((128, 128), 100_000, false, 1), 256);
        assert!(plane.is_empty());
        // A box beside the clip examines nothing.
        assert_eq!(plane.circle((-500, 128), 100, true, 1), 0);
        assert_eq!(plane.rect_fill((-9, 0), (-1, 255), 1), 0);
        // A filled shape pays its runs only: every examined row has one.
        assert_eq!(plane.rect_fill((0, 0), (8, 1), 1), 4);
    }

    #[test]
    fn cls_forgets_drawings_and_resets_the_clip() {
        let mut plane = DrawingPlane::default();
        plane.state.clip = Clip::new(0, 0, 1, 1);
        plane.pixel((0, 0), 3);
        plane.cls(Some(2));
        assert_eq!(plane.state.clip, Clip::SCREEN);
        assert_eq!(plane.background, Some(2));
        assert!(
            drawn(&plane).get(0, 0) == 0,
            "the compositor fills the background"
        );
        plane.cls(None);
        assert!(plane.is_empty());
    }

    #[test]
    fn commands_draw_only_at_their_priority() {
        let mut plane = DrawingPlane::default();
        plane.state.priority = 1;
        plane.pixel((1, 1), 4);
        plane.state.priority = FRONT;
        plane.print(1, b"A", (10, 10), 6);
        let mut fb = Framebuffer::default();
        plane.render(FRONT, &mut fb, &PatternVram::default(), &[]);
        assert_eq!(fb.get(1, 1), 0);
        assert_eq!(
            fb.get(11, 10),
            6,
            "the small font's A: .#. on its first row"
        );
        plane.render(1, &mut fb, &PatternVram::default(), &[]);
        assert_eq!(fb.get(1, 1), 4);
    }
}
