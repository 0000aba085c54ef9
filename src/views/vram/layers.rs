//! A background layer drawn whole, not only the part on screen: every cell as the layer
//! shows it now (animated tiles resolved, flips applied, transparent pixels and empty cells
//! as a checkerboard), under a two-line caption (size, cell size, scroll, priority, whether
//! it is on), with the screen's rectangle outlined where the scroll puts it (following the
//! line-scroll table when there is one, wrapping around the edges) and a cross at the scroll
//! point. Layers larger than [`MAX_SIDE`] pixels a side are drawn reduced by a whole factor.
//! [`cell_at`] gives the cell under a point of the picture, with the collision unit's
//! attribute at that place.

use super::image::{Image, LINE_H, colors};
use crate::collide::tile::Tile;
use crate::machine::Machine;
use crate::spec::{PATTERN_SHEET_TILES_W, SCREEN_H, SCREEN_W, TILE_SIZE};
use crate::video::cell::Cell;
use crate::video::layer::BgLayer;

/// The largest side of a layer picture, in pixels.
pub const MAX_SIDE: usize = 4096;
/// Height of the caption above the layer.
pub const CAPTION_H: usize = 2 * LINE_H + 1;

/// Where a layer's pixels land in its picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Layer size in pixels.
    pub width: usize,
    pub height: usize,
    /// Layer pixels per picture pixel (1 unless the layer is larger than [`MAX_SIDE`]).
    pub reduce: usize,
}

impl Geometry {
    pub fn of(layer: &BgLayer) -> Geometry {
        let width = layer.cols() * layer.cell_size();
        let height = layer.rows() * layer.cell_size();
        let reduce = width.max(height).div_ceil(MAX_SIDE).max(1);
        Geometry {
            width,
            height,
            reduce,
        }
    }

    /// Size of the picture: the reduced layer, at least a screen wide, under the caption.
    pub(crate) fn picture_size(&self) -> (usize, usize) {
        (
            self.width.div_ceil(self.reduce).max(SCREEN_W),
            CAPTION_H + self.height.div_ceil(self.reduce),
        )
    }

    /// The layer pixel under picture point (x, y), if it is on the layer.
    pub(crate) fn layer_pixel(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        let y = y.checked_sub(CAPTION_H)?;
        let (lx, ly) = (x * self.reduce, y * self.reduce);
        (lx < self.width && ly < self.height).then_some((lx, ly))
    }

    /// The picture point showing layer pixel (x, y), wrapped into the layer.
    fn picture_point(&self, x: i64, y: i64) -> (usize, usize) {
        let x = x.rem_euclid(self.width as i64) as usize;
        let y = y.rem_euclid(self.height as i64) as usize;
        (x / self.reduce, CAPTION_H + y / self.reduce)
    }
}

/// The pattern tile and colour index at pixel (x, y) of `cell` (`size` px a side).
fn cell_pixel(machine: &Machine, cell: Cell, size: usize, x: usize, y: usize) -> u8 {
    let tiles = size / TILE_SIZE;
    let (mut sub_x, mut sub_y) = (x / TILE_SIZE, y / TILE_SIZE);
    let (mut tx, mut ty) = (x % TILE_SIZE, y % TILE_SIZE);
    if cell.flip_x() {
        sub_x = tiles - 1 - sub_x;
        tx = TILE_SIZE - 1 - tx;
    }
    if cell.flip_y() {
        sub_y = tiles - 1 - sub_y;
        ty = TILE_SIZE - 1 - ty;
    }
    let tile = cell.tile() + sub_x + sub_y * PATTERN_SHEET_TILES_W;
    machine.video().patterns().pixel(tile, tx, ty) & 0xF
}

/// The caption's two lines for layer `number`.
pub(crate) fn caption(machine: &Machine, number: usize) -> [String; 2] {
    let layer = &machine.video().layers()[number];
    let geometry = Geometry::of(layer);
    [
        format!(
            "layer {number} {}  {}x{} cells of {} px{}",
            if layer.enabled { "on" } else { "off" },
            layer.cols(),
            layer.rows(),
            layer.cell_size(),
            if geometry.reduce > 1 {
                format!("  (1/{})", geometry.reduce)
            } else {
                String::new()
            }
        ),
        format!(
            "scroll {},{}  priority {}{}",
            layer.scroll_x,
            layer.scroll_y,
            layer.priority,
            if layer.has_line_scroll() {
                "  line scroll"
            } else {
                ""
            }
        ),
    ]
}

/// Layer `number` (0-3) drawn whole with its caption and the screen's rectangle.
pub fn layer_view(machine: &Machine, number: usize) -> Image {
    let layer = &machine.video().layers()[number % machine.video().layers().len()];
    let number = number % machine.video().layers().len();
    let geometry = Geometry::of(layer);
    let (width, height) = geometry.picture_size();
    let mut image = Image::new(width, height, colors::BACKGROUND);
    for (i, line) in caption(machine, number).iter().enumerate() {
        image.text(2, 1 + i * LINE_H, line, colors::TEXT);
    }
    let size = layer.cell_size();
    for y in CAPTION_H..height {
        for x in 0..width {
            let Some((lx, ly)) = geometry.layer_pixel(x, y) else {
                continue;
            };
            let stored = layer
                .cell((lx / size) as i64, (ly / size) as i64)
                .unwrap_or(Cell::EMPTY);
            let cell = machine.video().anims().apply(stored);
            let index = if cell.is_empty() {
                0
            } else {
                cell_pixel(machine, cell, size, lx % size, ly % size)
            };
            let rgb = if index == 0 {
                Image::checker(x, y - CAPTION_H)
            } else {
                machine.video().palette().get(cell.palette() << 4 | index)
            };
            image.put(x, y, rgb);
        }
    }
    mark_screen(&mut image, layer, &geometry);
    image
}

/// Outlines the screen's rectangle (a dark line outside a bright one) and crosses the
/// scroll point.
fn mark_screen(image: &mut Image, layer: &BgLayer, geometry: &Geometry) {
    let offsets = |line: usize| -> (i64, i64) {
        match layer.line_scroll() {
            Some(table) => (i64::from(table.dx[line]), i64::from(table.dy[line])),
            None => (0, 0),
        }
    };
    let (sx, sy) = (i64::from(layer.scroll_x), i64::from(layer.scroll_y));
    let (w, h) = (SCREEN_W as i64, SCREEN_H as i64);
    // `out` = 1 draws the dark line just outside the bright one.
    for (out, rgb) in [(1, colors::SHADOW), (0, colors::MARK)] {
        let mut plot = |x: i64, y: i64| {
            let (px, py) = geometry.picture_point(x, y);
            image.put(px, py, rgb);
        };
        // Left and right edges, line by line (each line has its own offsets).
        for line in 0..SCREEN_H {
            let (dx, dy) = offsets(line);
            let y = sy + dy + line as i64;
            plot(sx + dx - out, y);
            plot(sx + dx + w - 1 + out, y);
        }
        // Top and bottom edges, at the first and last line's offsets.
        for (line, y) in [(0, -out), (SCREEN_H - 1, h - 1 + out)] {
            let (dx, dy) = offsets(line);
            for i in -out..w + out {
                plot(sx + dx + i, sy + dy + y);
            }
        }
    }
    // A cross at the scroll point.
    for d in -4..=4 {
        for (x, y) in [(sx + d, sy), (sx, sy + d)] {
            let (px, py) = geometry.picture_point(x, y);
            image.put(px, py, colors::MARK);
        }
    }
}

/// What one cell of a layer holds, with the collision unit's attribute at its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellInfo {
    pub layer: usize,
    /// The layer pixel looked at, and the cell holding it.
    pub x: usize,
    pub y: usize,
    pub col: usize,
    pub row: usize,
    /// The cell as stored, and as shown now (an animated tile shows another tile).
    pub stored: Cell,
    pub shown: Cell,
    /// The collision layer's tile at that pixel (`None` past the collision map).
    pub collision: Option<Tile>,
}

impl CellInfo {
    /// One line, e.g. `cell 12,3 tile 045 pal 2 flip x collision solid`.
    pub fn describe(&self) -> String {
        if self.stored.is_empty() {
            return format!(
                "cell {},{} empty  collision {}",
                self.col,
                self.row,
                collision_name(self.collision)
            );
        }
        let flips = match (self.stored.flip_x(), self.stored.flip_y()) {
            (false, false) => "-",
            (true, false) => "x",
            (false, true) => "y",
            (true, true) => "xy",
        };
        let shown = if self.shown.tile() != self.stored.tile() {
            format!(" (shows {:03X})", self.shown.tile())
        } else {
            String::new()
        };
        format!(
            "cell {},{} tile {:03X}{shown} pal {} flip {flips} collision {}",
            self.col,
            self.row,
            self.stored.tile(),
            self.stored.palette(),
            collision_name(self.collision)
        )
    }
}

fn collision_name(tile: Option<Tile>) -> String {
    match tile {
        Some(tile) => tile.name(),
        None => "-".into(),
    }
}

/// The cell of layer `number` under point (x, y) of its [`layer_view`] picture.
pub fn cell_at(machine: &Machine, number: usize, x: usize, y: usize) -> Option<CellInfo> {
    let layer = machine.video().layers().get(number)?;
    let (lx, ly) = Geometry::of(layer).layer_pixel(x, y)?;
    let size = layer.cell_size();
    let (col, row) = (lx / size, ly / size);
    let stored = layer.cell(col as i64, row as i64).ok()?;
    let map = &machine.collide().map();
    let cell = i64::from(map.cell_px());
    let (cx, cy) = (lx as i64 / cell, ly as i64 / cell);
    let collision = (cx < i64::from(map.cols()) && cy < i64::from(map.rows()))
        .then(|| map.get(cx as i32, cy as i32));
    Some(CellInfo {
        layer: number,
        x: lx,
        y: ly,
        col,
        row,
        stored,
        shown: machine.video().anims().apply(stored),
        collision,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::map::CollisionMap;

    fn machine_with_layer() -> Machine {
        let mut machine = Machine::new(Default::default(), 0);
        let layer = &mut machine.video_mut().layers_mut()[1];
        layer.configure(40, 20, 16).unwrap();
        layer
            .set_cell(3, 2, Cell::new(0x45, 2, true, false))
            .unwrap();
        layer.set_cell(4, 2, Cell::EMPTY).unwrap();
        layer.set_scroll(-8, 300);
        machine
            .collide_mut()
            .load_map(CollisionMap::from_ascii(&[".....", ".....", "...#."], &[]));
        machine.video_mut().patterns_mut().set_pixel(0x46, 0, 0, 7);
        machine.video_mut().palette_mut().set(2 * 16 + 7, 0x11_2233);
        machine
    }

    #[test]
    fn the_cell_under_a_point_carries_tile_palette_flips_and_collision() {
        let machine = machine_with_layer();
        let info = cell_at(&machine, 1, 3 * 16 + 5, CAPTION_H + 2 * 16 + 9).unwrap();
        assert_eq!((info.col, info.row), (3, 2));
        assert_eq!(info.stored.tile(), 0x45);
        assert_eq!(info.stored.palette(), 2);
        assert!(info.stored.flip_x() && !info.stored.flip_y());
        assert_eq!(info.collision, Some(Tile::Solid));
        assert_eq!(
            info.describe(),
            "cell 3,2 tile 045 pal 2 flip x collision solid"
        );
        let empty = cell_at(&machine, 1, 4 * 16, CAPTION_H + 2 * 16).unwrap();
        assert_eq!(empty.describe(), "cell 4,2 empty  collision empty");
        // Past the collision map, and off the layer or on the caption.
        let far = cell_at(&machine, 1, 39 * 16, CAPTION_H + 19 * 16).unwrap();
        assert_eq!(far.collision, None);
        assert_eq!(cell_at(&machine, 1, 40 * 16, CAPTION_H), None);
        assert_eq!(cell_at(&machine, 1, 0, CAPTION_H - 1), None);
        assert_eq!(cell_at(&machine, 9, 0, CAPTION_H), None);
    }

    #[test]
    fn the_collision_cell_under_a_point_is_found_at_the_layers_cell_size() {
        let mut machine = machine_with_layer();
        let rows = ["", "", "", "", "", "......#"];
        machine.collide_mut().load_map(
            CollisionMap::from_ascii(&rows, &[]).with_cell_size(crate::collide::map::CellSize::Px8),
        );
        // Layer pixel (53, 41): BG cell (3, 2) of 16 px, collision cell (6, 5) of 8 px.
        let info = cell_at(&machine, 1, 3 * 16 + 5, CAPTION_H + 2 * 16 + 9).unwrap();
        assert_eq!((info.col, info.row), (3, 2));
        assert_eq!(info.collision, Some(Tile::Solid));
        let beside = cell_at(&machine, 1, 3 * 16 + 8, CAPTION_H + 2 * 16 + 9).unwrap();
        assert_eq!(beside.collision, None, "past the 7-cell map");
    }

    #[test]
    fn the_whole_layer_is_drawn_with_flips_and_the_screen_marked() {
        let machine = machine_with_layer();
        let image = layer_view(&machine, 1);
        assert_eq!((image.width, image.height), (640, CAPTION_H + 320));
        // The 2x2 block flips whole: tile 0x46 (its right half) shows mirrored on the
        // left, so its pixel (0, 0) lands at the cell's pixel (7, 0).
        assert_eq!(image.get(3 * 16 + 7, CAPTION_H + 2 * 16), 0x11_2233);
        // The screen's left edge is at layer x = -8, wrapped to 632; its top at y = 300.
        assert_eq!(image.get(632, CAPTION_H + 310), colors::MARK);
        assert_eq!(image.get(632 + 255 - 640, CAPTION_H + 310), colors::MARK);
        assert_eq!(image.get(100, CAPTION_H + 300), colors::MARK);
        assert_eq!(image.get(100, CAPTION_H + (300 + 255) % 320), colors::MARK);
        // Outside the screen's columns, nothing is marked on those rows.
        assert_ne!(image.get(300, CAPTION_H + 300), colors::MARK);
    }

    #[test]
    fn the_screen_edges_follow_the_line_scroll_table() {
        let mut machine = machine_with_layer();
        let layer = &mut machine.video_mut().layers_mut()[1];
        layer.set_scroll(100, 0);
        layer.set_line_scroll(50, 20, 0);
        let image = layer_view(&machine, 1);
        // Line 50 starts 20 px further right; its neighbours do not move.
        assert_eq!(image.get(120, CAPTION_H + 50), colors::MARK);
        assert_eq!(image.get(120 + 255, CAPTION_H + 50), colors::MARK);
        assert_eq!(image.get(100, CAPTION_H + 49), colors::MARK);
        assert_ne!(image.get(100, CAPTION_H + 50), colors::MARK);
        assert!(caption(&machine, 1)[1].ends_with("line scroll"));
    }

    #[test]
    fn huge_layers_are_reduced_to_fit() {
        let mut machine = Machine::new(Default::default(), 0);
        machine.video_mut().layers_mut()[0]
            .configure(256, 16, 32)
            .unwrap();
        let geometry = Geometry::of(&machine.video().layers()[0]);
        assert_eq!(geometry.reduce, 2);
        assert_eq!(geometry.picture_size(), (4096, CAPTION_H + 256));
        assert_eq!(
            cell_at(&machine, 0, 4095, CAPTION_H).map(|c| c.col),
            Some(255)
        );
    }
}
