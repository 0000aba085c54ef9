//! Palette RAM as a 256x256 picture: the 16 palettes as rows of 16 swatches, labelled by
//! palette (left, hex) and colour (top, hex), one entry outlined, and that entry's index and
//! RGB value written underneath. [`entry_at`] gives the entry under a point.

use super::image::{Image, LINE_H, colors};
use crate::machine::Machine;
use crate::spec::{PALETTE_COLORS, PALETTES, SCREEN_H, SCREEN_W};

/// Top-left corner of swatch (0, 0).
const LEFT: usize = 12;
const TOP: usize = 10;
/// Distance between swatches (a swatch and a gap).
const PITCH: usize = 14;
const SWATCH: usize = PITCH - 1;

/// What palette RAM holds at one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Full index: palette * 16 + colour.
    pub index: u8,
    pub palette: u8,
    pub color: u8,
    pub rgb: u32,
}

impl Entry {
    /// Two lines about the entry: where it is, then its colour, e.g.
    /// `entry 3F  palette 3  colour 15` and `#A0B0C0  r 160 g 176 b 192`.
    pub fn describe(&self) -> String {
        let [_, r, g, b] = self.rgb.to_be_bytes();
        format!(
            "entry {:02X}  palette {}  colour {}{}\n#{:06X}  r {r} g {g} b {b}",
            self.index,
            self.palette,
            self.color,
            match (self.index, self.color) {
                (0, _) => " (backdrop)",
                (_, 0) => " (clear)",
                _ => "",
            },
            self.rgb,
        )
    }
}

/// Entry `index` of palette RAM.
pub fn entry(machine: &Machine, index: u8) -> Entry {
    Entry {
        index,
        palette: index / PALETTE_COLORS as u8,
        color: index % PALETTE_COLORS as u8,
        rgb: machine.video().palette().get(index),
    }
}

/// Palette RAM drawn as swatches, entry `selected` outlined and described.
pub(crate) fn palette_view(machine: &Machine, selected: u8) -> Image {
    let mut image = Image::new(SCREEN_W, SCREEN_H, colors::BACKGROUND);
    for color in 0..PALETTE_COLORS {
        image.text(
            LEFT + color * PITCH + 4,
            1,
            &format!("{color:X}"),
            colors::DIM,
        );
    }
    for palette in 0..PALETTES {
        let y = TOP + palette * PITCH;
        image.text(2, y + 3, &format!("{palette:X}"), colors::DIM);
        for (color, &rgb) in machine
            .video()
            .palette()
            .palette(palette)
            .iter()
            .enumerate()
        {
            image.fill(LEFT + color * PITCH, y, SWATCH, SWATCH, rgb);
        }
    }
    let (col, row) = (
        usize::from(selected) % PALETTE_COLORS,
        usize::from(selected) / PALETTE_COLORS,
    );
    let (x, y) = ((LEFT + col * PITCH) as i64, (TOP + row * PITCH) as i64);
    let side = SWATCH as i64;
    image.outline(x - 2, y - 2, side + 4, side + 4, colors::SHADOW);
    image.outline(x - 1, y - 1, side + 2, side + 2, colors::MARK);
    let text_y = TOP + PALETTES * PITCH + 3;
    for (i, line) in entry(machine, selected).describe().lines().enumerate() {
        image.text(2, text_y + i * LINE_H, line, colors::TEXT);
    }
    image
}

/// The palette RAM entry whose swatch holds point (x, y) of [`palette_view`].
#[cfg(any(feature = "host", test))]
pub(crate) fn entry_at(x: usize, y: usize) -> Option<u8> {
    let (x, y) = (x.checked_sub(LEFT)?, y.checked_sub(TOP)?);
    let (col, row) = (x / PITCH, y / PITCH);
    (x % PITCH < SWATCH && y % PITCH < SWATCH && col < PALETTE_COLORS && row < PALETTES)
        .then_some((row * PALETTE_COLORS + col) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swatches_show_palette_ram_and_points_find_their_entry() {
        let mut machine = Machine::new(Default::default(), 0);
        machine.video_mut().palette_mut().set(0x3F, 0xA0_B0C0);
        let image = palette_view(&machine, 0x3F);
        let (x, y) = (LEFT + 15 * PITCH + 3, TOP + 3 * PITCH + 3);
        assert_eq!(image.get(x, y), 0xA0_B0C0);
        assert_eq!(entry_at(x, y), Some(0x3F));
        assert_eq!(entry_at(LEFT, TOP), Some(0));
        assert_eq!(entry_at(LEFT + SWATCH, TOP), None);
        assert_eq!(entry_at(LEFT + 16 * PITCH, TOP), None);
        assert_eq!(entry_at(0, 0), None);
        assert_eq!(
            entry(&machine, 0x3F).describe(),
            "entry 3F  palette 3  colour 15\n#A0B0C0  r 160 g 176 b 192"
        );
        assert!(entry(&machine, 0x30).describe().contains("(clear)"));
    }
}
