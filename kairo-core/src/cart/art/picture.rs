//! PNG pictures decoded with the `png` crate into one form the importer works on: per pixel
//! either transparent or an RGB colour, plus, for indexed PNGs, the palette index of every
//! pixel (so sheets made for Kairo's palettes can keep their indices).
//!
//! Transparent: alpha below 128 (truecolour alpha, or an indexed entry's `tRNS` alpha, as
//! the PNG says), the colour key (Tiled's `trans`, or a sheet's `transparent = "#rrggbb"`),
//! and the palette index a sheet names (`transparent = 0`). Index 0 of an indexed PNG is
//! transparent only when its `tRNS` or the cart says so; [`Picture::indices`] counts what was
//! decided so the loader can say it.

use crate::cart::CartError;

/// Largest PNG side accepted before decoding (guards against decompression bombs).
pub const MAX_SIDE: u32 = 4096;

/// A pixel that shows nothing.
pub const CLEAR: u32 = u32::MAX;

/// What is transparent in a picture besides what the PNG itself says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clear {
    /// Pixels of this colour (Tiled's `trans`, a sheet's `transparent = "#rrggbb"`).
    pub key: Option<u32>,
    /// Pixels of this palette index of an indexed PNG (a sheet's `transparent = 0`).
    pub index: Option<u8>,
}

impl Clear {
    /// A colour key only.
    pub fn key(key: Option<u32>) -> Clear {
        Clear { key, index: None }
    }
}

/// How an indexed PNG's palette indices turned out transparent or not, in pixels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexTransparency {
    /// Pixels of index 0 drawn because the PNG makes index 0 opaque and nothing asked for it
    /// to be transparent, and index 0's colour.
    pub(crate) zero_opaque: Option<(usize, u32)>,
    /// Pixels of the index the cart named transparent that the PNG makes opaque.
    pub asked: Option<(u8, usize)>,
    /// Indices other than 0 the PNG's `tRNS` makes transparent, with their pixel counts.
    pub(crate) trns_other: Vec<(u8, usize)>,
}

/// A decoded picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    /// `0xRRGGBB` or [`CLEAR`], row-major.
    pub pixels: Vec<u32>,
    /// For indexed PNGs: each pixel's palette index, and the PNG palette as `0xRRGGBB`.
    pub indexed: Option<(Vec<u8>, Vec<u32>)>,
    /// For indexed PNGs: what the transparency rules decided, for the loader's messages.
    pub indices: IndexTransparency,
    /// For an Aseprite sheet: the width of each frame in pixels (frames left to right), so
    /// that refusals can name the frame.
    pub frame_width: Option<usize>,
}

impl Picture {
    /// A picture of no pixels.
    pub fn empty() -> Picture {
        Picture {
            width: 0,
            height: 0,
            pixels: Vec::new(),
            indexed: None,
            indices: IndexTransparency::default(),
            frame_width: None,
        }
    }

    /// Tile `k` of a cut `cols` tiles across, named for messages: with its frame when the
    /// picture is an Aseprite sheet.
    pub(crate) fn name_tile(&self, k: usize, x: usize) -> String {
        match self.frame_width {
            Some(w) if w > 0 => format!("tile {k} in frame {}", x / w),
            _ => format!("tile {k}"),
        }
    }

    /// The colour at (x, y).
    pub fn at(&self, x: usize, y: usize) -> u32 {
        self.pixels[y * self.width + x]
    }

    /// The `width` x `height` rectangle at (x, y), or `None` if it does not lie inside.
    pub(crate) fn crop(&self, x: usize, y: usize, width: usize, height: usize) -> Option<Picture> {
        if x.checked_add(width)? > self.width || y.checked_add(height)? > self.height {
            return None;
        }
        let rect = (x, y, width, height);
        Some(Picture {
            width,
            height,
            pixels: cut_rect(&self.pixels, self.width, rect),
            indexed: self
                .indexed
                .as_ref()
                .map(|(indices, plte)| (cut_rect(indices, self.width, rect), plte.clone())),
            indices: IndexTransparency::default(),
            frame_width: None,
        })
    }
}

/// Decodes the PNG `file`; pixels `clear` names become transparent too.
pub fn decode(file: &str, bytes: &[u8], clear: Clear) -> Result<Picture, CartError> {
    let key = clear.key;
    let err = |message: String| CartError::file(file, message);
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder
        .read_info()
        .map_err(|e| err(format!("not a readable PNG: {e}")))?;
    let info = reader.info().clone();
    let (width, height) = (info.width, info.height);
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(err(format!(
            "{width}x{height} px is too big for pattern VRAM (at most {MAX_SIDE} px a side)"
        )));
    }
    let mut buffer = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|e| err(format!("cannot decode PNG data: {e}")))?;
    let (width, height) = (width as usize, height as usize);
    let depth = frame.bit_depth as usize;
    let rows = buffer[..frame.buffer_size()].chunks(frame.line_size);
    // Each sample as 8 bits, whatever the depth (16-bit samples keep their high byte).
    let sample = |row: &[u8], i: usize| -> u8 {
        match depth {
            16 => row[i * 2],
            8 => row[i],
            _ => {
                let bit = i * depth;
                let value = (row[bit / 8] >> (8 - depth - bit % 8)) & ((1u16 << depth) - 1) as u8;
                if info.color_type == png::ColorType::Indexed {
                    value
                } else {
                    // Grey at 1, 2 or 4 bits scales to 0-255.
                    (u16::from(value) * 255 / ((1u16 << depth) - 1)) as u8
                }
            }
        }
    };
    let keyed = |rgb: u32| if Some(rgb) == key { CLEAR } else { rgb };
    let mut pixels = Vec::with_capacity(width * height);
    let mut indices = Vec::new();
    let plte: Vec<u32> = info
        .palette
        .as_deref()
        .unwrap_or(&[])
        .chunks_exact(3)
        .map(rgb)
        .collect();
    let trns = info.trns.as_deref().unwrap_or(&[]);
    let mut counts = [0usize; 256];
    for row in rows.take(height) {
        for x in 0..width {
            let pixel = match info.color_type {
                png::ColorType::Indexed => {
                    let index = sample(row, x);
                    indices.push(index);
                    counts[usize::from(index)] += 1;
                    let alpha = trns.get(usize::from(index)).copied().unwrap_or(255);
                    match plte.get(usize::from(index)) {
                        _ if alpha < 128 || clear.index == Some(index) => CLEAR,
                        Some(&c) => keyed(c),
                        None => {
                            return Err(err(format!(
                                "pixel ({x}, {}) uses palette entry {index}, but the PNG palette has {} entries",
                                indices.len() / width,
                                plte.len()
                            )));
                        }
                    }
                }
                png::ColorType::Grayscale => keyed(u32::from(sample(row, x)) * 0x01_0101),
                png::ColorType::GrayscaleAlpha => {
                    let grey = u32::from(sample(row, x * 2)) * 0x01_0101;
                    if sample(row, x * 2 + 1) < 128 {
                        CLEAR
                    } else {
                        keyed(grey)
                    }
                }
                png::ColorType::Rgb => {
                    let c = rgb(&[
                        sample(row, x * 3),
                        sample(row, x * 3 + 1),
                        sample(row, x * 3 + 2),
                    ]);
                    keyed(c)
                }
                png::ColorType::Rgba => {
                    let c = rgb(&[
                        sample(row, x * 4),
                        sample(row, x * 4 + 1),
                        sample(row, x * 4 + 2),
                    ]);
                    if sample(row, x * 4 + 3) < 128 {
                        CLEAR
                    } else {
                        keyed(c)
                    }
                }
            };
            pixels.push(pixel);
        }
    }
    if pixels.len() != width * height {
        return Err(err("the PNG data is shorter than its size".into()));
    }
    let mut decided = IndexTransparency::default();
    if info.color_type == png::ColorType::Indexed {
        let alpha = |i: usize| trns.get(i).copied().unwrap_or(255);
        let zero = plte.first().copied().unwrap_or(0);
        if counts[0] > 0 && alpha(0) >= 128 && clear.index != Some(0) && key != Some(zero) {
            decided.zero_opaque = Some((counts[0], zero));
        }
        if let Some(i) = clear.index
            && alpha(usize::from(i)) >= 128
            && counts[usize::from(i)] > 0
        {
            decided.asked = Some((i, counts[usize::from(i)]));
        }
        decided.trns_other = (1..256)
            .filter(|&i| alpha(i) < 128 && counts[i] > 0)
            .map(|i| (i as u8, counts[i]))
            .collect();
    }
    let indexed = (info.color_type == png::ColorType::Indexed).then_some((indices, plte));
    Ok(Picture {
        width,
        height,
        pixels,
        indexed,
        indices: decided,
        frame_width: None,
    })
}

/// The rectangle (x, y, width, height) of row-major `data` `stride` items wide.
fn cut_rect<T: Copy>(
    data: &[T],
    stride: usize,
    (x, y, w, h): (usize, usize, usize, usize),
) -> Vec<T> {
    (y..y + h)
        .flat_map(|row| data[row * stride + x..][..w].iter().copied())
        .collect()
}

fn rgb(px: &[u8]) -> u32 {
    u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2])
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Encodes a PNG (tests).
    pub fn encode(
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
    fn every_colour_type_decodes_to_colours_or_clear() {
        let rgba = encode(
            2,
            1,
            png::ColorType::Rgba,
            png::BitDepth::Eight,
            None,
            &[1, 2, 3, 255, 9, 9, 9, 0],
        );
        let p = decode("a.png", &rgba, Clear::default()).unwrap();
        assert_eq!(p.pixels, [0x010203, CLEAR]);
        let rgb = encode(
            2,
            1,
            png::ColorType::Rgb,
            png::BitDepth::Eight,
            None,
            &[255, 0, 255, 1, 1, 1],
        );
        let p = decode("a.png", &rgb, Clear::key(Some(0xFF00FF))).unwrap();
        assert_eq!(p.pixels, [CLEAR, 0x010101], "the colour key is transparent");
        let grey = encode(
            4,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::Two,
            None,
            &[0b00_01_10_11],
        );
        let p = decode("a.png", &grey, Clear::default()).unwrap();
        assert_eq!(p.pixels, [0, 0x555555, 0xAAAAAA, 0xFFFFFF]);
        let indexed = encode(
            4,
            1,
            png::ColorType::Indexed,
            png::BitDepth::Four,
            Some(vec![0, 0, 0, 10, 20, 30, 40, 50, 60]),
            &[0x01, 0x20],
        );
        // Without tRNS, index 0 is as opaque as the PNG says (and counted for a warning).
        let p = decode("a.png", &indexed, Clear::default()).unwrap();
        assert_eq!(p.pixels, [0, 0x0A141E, 0x28323C, 0]);
        assert_eq!(p.indexed.as_ref().unwrap().0, [0, 1, 2, 0]);
        assert_eq!(p.indices.zero_opaque, Some((2, 0)));
        // The cart can ask for index 0 to be transparent.
        let asked = Clear {
            key: None,
            index: Some(0),
        };
        let p = decode("a.png", &indexed, asked).unwrap();
        assert_eq!(p.pixels, [CLEAR, 0x0A141E, 0x28323C, CLEAR]);
        assert_eq!(
            (p.indices.zero_opaque, p.indices.asked),
            (None, Some((0, 2)))
        );
    }

    #[test]
    fn broken_and_oversized_pngs_are_refused_by_name() {
        let e = decode("x.png", b"not a png", Clear::default()).unwrap_err();
        assert!(
            e.to_string().starts_with("x.png: not a readable PNG"),
            "{e}"
        );
        let mut bytes = encode(
            1,
            1,
            png::ColorType::Rgb,
            png::BitDepth::Eight,
            None,
            &[0, 0, 0],
        );
        bytes[16..24].copy_from_slice(&[0, 0, 0x20, 0, 0, 0, 0, 1]); // 8192 x 1
        let e = decode("x.png", &bytes, Clear::default()).unwrap_err();
        assert!(
            e.to_string().contains("too big") || e.to_string().contains("PNG"),
            "{e}"
        );
    }
}
