//! Pattern VRAM as a tile sheet: the 2048 tiles, 16 to a row as the sheet is laid out,
//! drawn in one palette with a 1-pixel grid between tiles and the hex index of each row's
//! first tile on the left; colour 0 (transparent) shows as a checkerboard. [`tile_at`] gives
//! the tile under a point of the sheet.

use super::image::{CHAR_W, Image, colors};
use crate::machine::Machine;
use crate::spec::{PATTERN_SHEET_TILES_H, PATTERN_SHEET_TILES_W, TILE_SIZE};

/// Width of the row labels.
pub const LABEL_W: usize = 4 * CHAR_W;
/// Distance between tiles (a tile and one grid line).
pub const PITCH: usize = TILE_SIZE + 1;
/// Width of the sheet picture.
pub const SHEET_W: usize = LABEL_W + PATTERN_SHEET_TILES_W * PITCH + 1;

/// Height of a sheet of `rows` tile rows.
pub(crate) fn sheet_height(rows: usize) -> usize {
    rows * PITCH + 1
}

/// Tile rows up to the last one holding a non-zero pixel (at least one row): what a sheet
/// needs to show everything in pattern VRAM.
pub fn rows_in_use(machine: &Machine) -> usize {
    let vram = &machine.video().patterns();
    (0..PATTERN_SHEET_TILES_H)
        .rev()
        .find(|&row| {
            (0..PATTERN_SHEET_TILES_W).any(|col| {
                let tile = row * PATTERN_SHEET_TILES_W + col;
                (0..TILE_SIZE).any(|y| vram.row(tile, y) != 0)
            })
        })
        .map_or(1, |row| row + 1)
}

/// The first `rows` tile rows of pattern VRAM drawn in palette `palette` (0-15).
pub fn tile_sheet(machine: &Machine, palette: u8, rows: usize) -> Image {
    let rows = rows.clamp(1, PATTERN_SHEET_TILES_H);
    let colors = machine
        .video()
        .palette()
        .palette(usize::from(palette & 0xF));
    let vram = &machine.video().patterns();
    let mut image = Image::new(SHEET_W, sheet_height(rows), colors::BACKGROUND);
    image.fill(LABEL_W, 0, SHEET_W - LABEL_W, image.height, colors::GRID);
    for row in 0..rows {
        let top = row * PITCH + 1;
        image.text(
            0,
            top,
            &format!("{:03X}", row * PATTERN_SHEET_TILES_W),
            colors::DIM,
        );
        for col in 0..PATTERN_SHEET_TILES_W {
            let tile = row * PATTERN_SHEET_TILES_W + col;
            let left = LABEL_W + col * PITCH + 1;
            for y in 0..TILE_SIZE {
                for x in 0..TILE_SIZE {
                    let index = vram.pixel(tile, x, y);
                    let rgb = if index == 0 {
                        Image::checker(x, y)
                    } else {
                        colors[usize::from(index)]
                    };
                    image.put(left + x, top + y, rgb);
                }
            }
        }
    }
    image
}

/// The tile under point (x, y) of a tile sheet, if the point is on a tile (not on the grid
/// or the labels).
pub fn tile_at(x: usize, y: usize) -> Option<usize> {
    let x = x.checked_sub(LABEL_W + 1)?;
    let y = y.checked_sub(1)?;
    let (col, row) = (x / PITCH, y / PITCH);
    let on_tile = x % PITCH < TILE_SIZE && y % PITCH < TILE_SIZE;
    (on_tile && col < PATTERN_SHEET_TILES_W && row < PATTERN_SHEET_TILES_H)
        .then_some(row * PATTERN_SHEET_TILES_W + col)
}

/// Where tile `tile` starts on a tile sheet (its top-left pixel).
pub fn tile_origin(tile: usize) -> (usize, usize) {
    let (col, row) = (tile % PATTERN_SHEET_TILES_W, tile / PATTERN_SHEET_TILES_W);
    (LABEL_W + col * PITCH + 1, row * PITCH + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tile_under_a_point_is_the_one_drawn_there() {
        for tile in [0, 1, 15, 16, 17, 300, 2047] {
            let (x, y) = tile_origin(tile);
            assert_eq!(tile_at(x, y), Some(tile));
            assert_eq!(tile_at(x + 7, y + 7), Some(tile));
            // The grid line after the tile and the label column belong to no tile.
            assert_eq!(tile_at(x + 8, y), None);
            assert_eq!(tile_at(x, y + 8), None);
        }
        assert_eq!(tile_at(LABEL_W - 1, 5), None);
        assert_eq!(tile_at(5000, 5), None);
        assert_eq!(
            tile_at(LABEL_W + 1, sheet_height(PATTERN_SHEET_TILES_H)),
            None
        );
    }

    #[test]
    fn the_sheet_draws_each_tile_in_the_chosen_palette() {
        let mut machine = Machine::new(Default::default(), 0);
        machine.video_mut().patterns_mut().set_pixel(17, 2, 3, 5);
        machine.video_mut().palette_mut().set(3 * 16 + 5, 0x12_3456);
        assert_eq!(rows_in_use(&machine), 2);
        let sheet = tile_sheet(&machine, 3, rows_in_use(&machine));
        assert_eq!(sheet.height, sheet_height(2));
        let (x, y) = tile_origin(17);
        assert_eq!(sheet.get(x + 2, y + 3), 0x12_3456);
        // Colour 0 is drawn as the checkerboard, not as palette RAM's colour 0.
        assert_eq!(sheet.get(x, y), Image::checker(0, 0));
        assert_eq!(tile_at(x + 2, y + 3), Some(17));
    }
}
