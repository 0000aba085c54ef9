//! Palette RAM: 16 palettes of 16 colours, RGB888. Colour 0 of each palette is transparent
//! for tiles and sprites; entry 0 (palette 0, colour 0) is the backdrop colour.

use crate::spec::{PALETTE_COLORS, PALETTE_ENTRIES};

/// An RGB colour, `0xRRGGBB`.
pub type Rgb = u32;

/// The 256 entries of palette RAM.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PaletteRam {
    #[serde(with = "crate::serde_array")]
    entries: [Rgb; PALETTE_ENTRIES],
}

impl Default for PaletteRam {
    /// Power-on palette: a black backdrop and, in every palette, a ramp of greys in colours
    /// 1-15 so that anything drawn before a cart sets its colours is visible.
    fn default() -> Self {
        let mut entries = [0; PALETTE_ENTRIES];
        for (i, entry) in entries.iter_mut().enumerate() {
            let level = ((i % PALETTE_COLORS) * 17) as u32;
            *entry = level << 16 | level << 8 | level;
        }
        PaletteRam { entries }
    }
}

impl PaletteRam {
    /// The colour at full index `index` (palette * 16 + colour).
    pub fn get(&self, index: u8) -> Rgb {
        self.entries[index as usize]
    }

    /// Sets the colour at full index `index`; only the low 24 bits of `rgb` are kept.
    pub fn set(&mut self, index: u8, rgb: Rgb) {
        self.entries[index as usize] = rgb & 0xFF_FFFF;
    }

    /// The colours of palette `palette` (0-15).
    pub fn palette(&self, palette: usize) -> &[Rgb] {
        &self.entries[palette * PALETTE_COLORS..(palette + 1) * PALETTE_COLORS]
    }

    /// The backdrop colour.
    pub fn backdrop(&self) -> Rgb {
        self.entries[0]
    }

    /// RGBA bytes of every entry packed in a `u32` in memory order R, G, B, A (alpha 255).
    pub fn rgba_words(&self) -> [u32; PALETTE_ENTRIES] {
        let mut words = [0; PALETTE_ENTRIES];
        for (word, rgb) in words.iter_mut().zip(self.entries) {
            let [_, r, g, b] = rgb.to_be_bytes();
            *word = u32::from_ne_bytes([r, g, b, 0xFF]);
        }
        words
    }
}
