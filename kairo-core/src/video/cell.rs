//! One background-layer cell as the hardware stores it: tile index, palette, flips, and an
//! empty bit, packed in a `u32`.

/// One map cell: tile index (11 bits), palette (4 bits), horizontal and vertical flip, and an
/// empty bit (an empty cell draws nothing, whatever its tile holds).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Cell(u32);

impl Cell {
    const TILE_MASK: u32 = 0x7FF;
    const PALETTE_SHIFT: u32 = 11;
    const FLIP_X: u32 = 1 << 15;
    const FLIP_Y: u32 = 1 << 16;
    const EMPTY_BIT: u32 = 1 << 17;

    /// A cell that draws nothing.
    pub const EMPTY: Cell = Cell(Self::EMPTY_BIT);

    /// A cell showing `tile` (wrapped to 0-2047) with `palette` (low 4 bits) and flips.
    pub fn new(tile: u32, palette: u8, flip_x: bool, flip_y: bool) -> Cell {
        let mut bits = (tile & Self::TILE_MASK) | u32::from(palette & 0xF) << Self::PALETTE_SHIFT;
        if flip_x {
            bits |= Self::FLIP_X;
        }
        if flip_y {
            bits |= Self::FLIP_Y;
        }
        Cell(bits)
    }

    /// Whether the cell draws nothing.
    pub fn is_empty(self) -> bool {
        self.0 & Self::EMPTY_BIT != 0
    }

    /// This cell's flips with another tile and palette (never empty).
    pub(crate) fn with_tile(self, tile: u32, palette: u8) -> Cell {
        Cell::new(tile, palette, self.flip_x(), self.flip_y())
    }

    pub fn tile(self) -> usize {
        (self.0 & Self::TILE_MASK) as usize
    }

    pub fn palette(self) -> u8 {
        (self.0 >> Self::PALETTE_SHIFT) as u8 & 0xF
    }

    pub fn flip_x(self) -> bool {
        self.0 & Self::FLIP_X != 0
    }

    pub fn flip_y(self) -> bool {
        self.0 & Self::FLIP_Y != 0
    }

    /// Flags as carts see them: bit 0 = flip x, bit 1 = flip y.
    pub fn flags(self) -> u8 {
        u8::from(self.flip_x()) | u8::from(self.flip_y()) << 1
    }
}
