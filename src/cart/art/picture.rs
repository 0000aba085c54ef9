//! PNG pictures decoded with the `png` crate into one form the importer works on: per pixel
//! either transparent or an RGB colour, plus, for indexed PNGs, the palette index of every
//! pixel (so sheets made for Kairo's palettes can keep their indices).
//!
//! Transparent: alpha below 128 (truecolour alpha, or an indexed entry's `tRNS` alpha), the
//! colour key (Tiled's `trans`) when one is given, and index 0 of indexed pictures (Kairo's
//! convention: colour 0 is transparent).

use crate::cart::CartError;

/// Largest PNG side accepted before decoding (guards against decompression bombs).
pub const MAX_SIDE: u32 = 4096;

/// A pixel that shows nothing.
pub const CLEAR: u32 = u32::MAX;

/// A decoded picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    /// `0xRRGGBB` or [`CLEAR`], row-major.
    pub pixels: Vec<u32>,
    /// For indexed PNGs: each pixel's palette index, and the PNG palette as `0xRRGGBB`.
    pub indexed: Option<(Vec<u8>, Vec<u32>)>,
}

impl Picture {
    /// The colour at (x, y).
    pub fn at(&self, x: usize, y: usize) -> u32 {
        self.pixels[y * self.width + x]
    }

    /// The `width` x `height` rectangle at (x, y), or `None` if it does not lie inside.
    pub fn crop(&self, x: usize, y: usize, width: usize, height: usize) -> Option<Picture> {
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
        })
    }
}

/// Decodes the PNG `file`; pixels of colour `key` become transparent.
pub fn decode(file: &str, bytes: &[u8], key: Option<u32>) -> Result<Picture, CartError> {
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
    for row in rows.take(height) {
        for x in 0..width {
            let pixel = match info.color_type {
                png::ColorType::Indexed => {
                    let index = sample(row, x);
                    indices.push(index);
                    let alpha = trns.get(usize::from(index)).copied().unwrap_or(255);
                    match plte.get(usize::from(index)) {
                        _ if index == 0 || alpha < 128 => CLEAR,
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
    let indexed = (info.color_type == png::ColorType::Indexed).then_some((indices, plte));
    Ok(Picture {
        width,
        height,
        pixels,
        indexed,
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
        let p = decode("a.png", &rgba, None).unwrap();
        assert_eq!(p.pixels, [0x010203, CLEAR]);
        let rgb = encode(
            2,
            1,
            png::ColorType::Rgb,
            png::BitDepth::Eight,
            None,
            &[255, 0, 255, 1, 1, 1],
        );
        let p = decode("a.png", &rgb, Some(0xFF00FF)).unwrap();
        assert_eq!(p.pixels, [CLEAR, 0x010101], "the colour key is transparent");
        let grey = encode(
            4,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::Two,
            None,
            &[0b00_01_10_11],
        );
        let p = decode("a.png", &grey, None).unwrap();
        assert_eq!(p.pixels, [0, 0x555555, 0xAAAAAA, 0xFFFFFF]);
        let indexed = encode(
            4,
            1,
            png::ColorType::Indexed,
            png::BitDepth::Four,
            Some(vec![0, 0, 0, 10, 20, 30, 40, 50, 60]),
            &[0x01, 0x20],
        );
        let p = decode("a.png", &indexed, None).unwrap();
        assert_eq!(p.pixels, [CLEAR, 0x0A141E, 0x28323C, CLEAR]);
        assert_eq!(p.indexed.as_ref().unwrap().0, [0, 1, 2, 0]);
    }

    #[test]
    fn broken_and_oversized_pngs_are_refused_by_name() {
        let e = decode("x.png", b"not a png", None).unwrap_err();
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
        let e = decode("x.png", &bytes, None).unwrap_err();
        assert!(
            e.to_string().contains("too big") || e.to_string().contains("PNG"),
            "{e}"
        );
    }
}
