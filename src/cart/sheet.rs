//! PNG sheets: decoded with the `png` crate and copied into pattern VRAM at power-on.
//!
//! Indexed PNGs keep their indices: pixel index i becomes colour i % 16, and the PNG's
//! palette fills palette RAM from the sheet's palette on (entries 16.. go to the next palettes;
//! colour 0 of every palette stays transparent and is never written). Truecolour and grey PNGs
//! are mapped onto the sheet's palette: pixels with alpha below 128 become colour 0, other
//! colours reuse an equal colour of the palette or take a free slot; a colour that does not
//! fit is an error naming the pixel.

use crate::cart::CartError;
use crate::spec::{
    PALETTE_COLORS, PALETTES, PATTERN_SHEET_TILES_H, PATTERN_SHEET_TILES_W, TILE_SIZE,
};
use crate::video::palette::PaletteRam;
use crate::video::patterns::PatternVram;

/// Palette RAM being filled by a cart's palettes and sheets, remembering which colours are
/// already taken.
#[derive(Clone, Debug, Default)]
pub struct PaletteBuilder {
    pub ram: PaletteRam,
    taken: [[bool; PALETTE_COLORS]; PALETTES],
}

impl PaletteBuilder {
    /// Sets colour `color` of palette `palette` and marks it taken.
    pub fn set(&mut self, palette: usize, color: usize, rgb: u32) {
        self.ram.set((palette * PALETTE_COLORS + color) as u8, rgb);
        self.taken[palette][color] = true;
    }

    /// The colour index of `rgb` in `palette`, taking a free slot when it is new.
    fn find_or_take(&mut self, palette: usize, rgb: u32) -> Option<u8> {
        for color in 1..PALETTE_COLORS {
            if self.taken[palette][color] && self.ram.get((palette * 16 + color) as u8) == rgb {
                return Some(color as u8);
            }
        }
        let free = (1..PALETTE_COLORS).find(|&c| !self.taken[palette][c])?;
        self.set(palette, free, rgb);
        Some(free as u8)
    }
}

/// Where a sheet lands.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub tile: u32,
    pub palette: u8,
}

/// Largest PNG dimension accepted before decoding (guards against decompression bombs).
const MAX_SIDE: u32 = 4096;

/// Decodes `bytes` (the PNG `file`) and writes it into `vram` and `palettes`.
pub fn load_sheet(
    file: &str,
    bytes: &[u8],
    at: Placement,
    vram: &mut PatternVram,
    palettes: &mut PaletteBuilder,
) -> Result<(), CartError> {
    let err = |message: String| CartError::file(file, message);
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let header = {
        let mut probe = png::Decoder::new(std::io::Cursor::new(bytes));
        probe.set_transformations(png::Transformations::IDENTITY);
        let reader = probe
            .read_info()
            .map_err(|e| err(format!("not a readable PNG: {e}")))?;
        reader.info().clone()
    };
    let (width, height) = (header.width, header.height);
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(err(format!(
            "{width}x{height} px is too big for pattern VRAM"
        )));
    }
    let origin_x = (at.tile as usize % PATTERN_SHEET_TILES_W) * TILE_SIZE;
    let origin_y = (at.tile as usize / PATTERN_SHEET_TILES_W) * TILE_SIZE;
    check_fits(width as usize, height as usize, origin_x, origin_y, at.tile).map_err(err)?;
    if usize::from(at.palette) >= PALETTES {
        return Err(err(format!("palette {} does not exist (0-15)", at.palette)));
    }

    if header.color_type == png::ColorType::Indexed {
        let plte = header.palette.as_deref().unwrap_or(&[]);
        let indices = decode_indices(bytes).map_err(err)?;
        let first = usize::from(at.palette);
        // Only the palettes the pixels use are loaded: editors often save 256 entries.
        let highest = usize::from(indices.iter().copied().max().unwrap_or(0));
        let entries = (plte.len() / 3).min((highest / PALETTE_COLORS + 1) * PALETTE_COLORS);
        if first * PALETTE_COLORS + entries > PALETTES * PALETTE_COLORS {
            return Err(err(format!(
                "its pixels use {entries} palette entries, which do not fit from palette {first} on"
            )));
        }
        for (i, rgb) in plte.chunks_exact(3).take(entries).enumerate() {
            if i % PALETTE_COLORS != 0 {
                let value = u32::from(rgb[0]) << 16 | u32::from(rgb[1]) << 8 | u32::from(rgb[2]);
                palettes.set(first + i / PALETTE_COLORS, i % PALETTE_COLORS, value);
            }
        }
        for (i, &index) in indices.iter().enumerate() {
            let (x, y) = (i % width as usize, i / width as usize);
            vram.set_sheet_pixel(origin_x + x, origin_y + y, index & 0xF);
        }
        return Ok(());
    }

    let mut reader = decoder
        .read_info()
        .map_err(|e| err(format!("not a readable PNG: {e}")))?;
    let mut buffer = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|e| err(format!("cannot decode PNG data: {e}")))?;
    let channels = frame.color_type.samples();
    let pixels = &buffer[..frame.buffer_size()];
    for y in 0..height as usize {
        for x in 0..width as usize {
            let px = &pixels[(y * width as usize + x) * channels..][..channels];
            let (rgb, alpha) = match channels {
                1 => (u32::from(px[0]) * 0x01_0101, 255),
                2 => (u32::from(px[0]) * 0x01_0101, px[1]),
                3 => (rgb_of(px), 255),
                _ => (rgb_of(px), px[3]),
            };
            let color = if alpha < 128 {
                0
            } else {
                palettes.find_or_take(usize::from(at.palette), rgb).ok_or_else(|| {
                    err(format!(
                        "colour #{rgb:06x} at ({x}, {y}) does not fit palette {}: its 15 colours are all taken",
                        at.palette
                    ))
                })?
            };
            vram.set_sheet_pixel(origin_x + x, origin_y + y, color);
        }
    }
    Ok(())
}

fn rgb_of(px: &[u8]) -> u32 {
    u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2])
}

fn check_fits(width: usize, height: usize, x: usize, y: usize, tile: u32) -> Result<(), String> {
    if width == 0
        || height == 0
        || !width.is_multiple_of(TILE_SIZE)
        || !height.is_multiple_of(TILE_SIZE)
    {
        return Err(format!(
            "{width}x{height} px: sheets must be a non-zero multiple of 8 px on each side"
        ));
    }
    let sheet_w = PATTERN_SHEET_TILES_W * TILE_SIZE;
    let sheet_h = PATTERN_SHEET_TILES_H * TILE_SIZE;
    if x + width > sheet_w {
        return Err(format!(
            "{width} px wide from tile {tile} (column {}) passes the 128 px edge of pattern VRAM",
            x / TILE_SIZE
        ));
    }
    if y + height > sheet_h {
        return Err(format!(
            "{height} px tall from tile {tile} (row {}) runs past tile 2047 of pattern VRAM",
            y / TILE_SIZE
        ));
    }
    Ok(())
}

/// The palette index of every pixel of an indexed PNG, whatever its bit depth.
fn decode_indices(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    let mut buffer = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("cannot decode PNG data: {e}"))?;
    let depth = frame.bit_depth as usize;
    let (width, height) = (frame.width as usize, frame.height as usize);
    let mut indices = Vec::with_capacity(width * height);
    for row in buffer[..frame.buffer_size()]
        .chunks(frame.line_size)
        .take(height)
    {
        for x in 0..width {
            let bit = x * depth;
            let byte = row[bit / 8];
            let shift = 8 - depth - bit % 8;
            indices.push((byte >> shift) & ((1u16 << depth) - 1) as u8);
        }
    }
    Ok(indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(
        width: u32,
        height: u32,
        color: png::ColorType,
        depth: png::BitDepth,
        palette: Option<Vec<u8>>,
        data: &[u8],
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut bytes, width, height);
            encoder.set_color(color);
            encoder.set_depth(depth);
            if let Some(p) = palette {
                encoder.set_palette(p);
            }
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(data).unwrap();
        }
        bytes
    }

    #[test]
    fn a_4_bit_indexed_sheet_keeps_its_indices_and_loads_its_palette() {
        // 8x8, two pixels per byte: row y is indices (y, 1, 2, ..., 7) in the left pixels.
        let mut data = Vec::new();
        for y in 0..8u8 {
            for pair in 0..4u8 {
                let (left, right) = (if pair == 0 { y } else { pair * 2 }, pair * 2 + 1);
                data.push(left << 4 | right);
            }
        }
        let palette: Vec<u8> = (0..16u8).flat_map(|i| [i * 16, 255 - i * 16, 7]).collect();
        let bytes = encode(
            8,
            8,
            png::ColorType::Indexed,
            png::BitDepth::Four,
            Some(palette),
            &data,
        );
        let (mut vram, mut palettes) = (PatternVram::default(), PaletteBuilder::default());
        load_sheet(
            "a.png",
            &bytes,
            Placement {
                tile: 17,
                palette: 3,
            },
            &mut vram,
            &mut palettes,
        )
        .unwrap();
        assert_eq!(vram.pixel(17, 0, 5), 5);
        assert_eq!(vram.pixel(17, 7, 2), 7);
        assert_eq!(palettes.ram.get(3 * 16 + 2), 0x20DF07);
        assert_eq!(
            palettes.ram.get(3 * 16),
            PaletteRam::default().get(48),
            "colour 0 untouched"
        );
        assert_eq!(
            palettes.ram.get(4 * 16 + 1),
            PaletteRam::default().get(65),
            "only used palettes load"
        );
    }

    #[test]
    fn a_truecolour_sheet_maps_onto_free_palette_slots() {
        // 8x8 RGBA: column x is red when even, blue when odd; the first column is transparent.
        let mut data = Vec::new();
        for _ in 0..8 {
            for x in 0..8 {
                let px = match x {
                    0 => [1, 2, 3, 0],
                    x if x % 2 == 0 => [255, 0, 0, 255],
                    _ => [0, 0, 255, 255],
                };
                data.extend_from_slice(&px);
            }
        }
        let bytes = encode(
            8,
            8,
            png::ColorType::Rgba,
            png::BitDepth::Eight,
            None,
            &data,
        );
        let (mut vram, mut palettes) = (PatternVram::default(), PaletteBuilder::default());
        palettes.set(2, 1, 0x0000FF);
        load_sheet(
            "b.png",
            &bytes,
            Placement {
                tile: 0,
                palette: 2,
            },
            &mut vram,
            &mut palettes,
        )
        .unwrap();
        assert_eq!(vram.pixel(0, 0, 0), 0, "alpha 0 is transparent");
        assert_eq!(vram.pixel(0, 1, 0), 1, "blue reuses the palette's colour 1");
        assert_eq!(vram.pixel(0, 2, 0), 2, "red takes the first free slot");
        assert_eq!(palettes.ram.get(2 * 16 + 2), 0xFF0000);
    }
}
