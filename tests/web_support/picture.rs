//! Pictures for the display filters' tests (`tests/web.rs`): screenshots decoded, the
//! console's frame scaled as the `none` filter draws it, and the measures the other filters
//! are judged by.

/// An RGB picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    /// Rows of RGB triples.
    pub rgb: Vec<u8>,
}

impl Picture {
    /// Decodes an 8-bit RGB or RGBA PNG (a screenshot, `kairo headless --screenshot`).
    pub fn decode(png_bytes: &[u8]) -> Picture {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buffer).expect("a picture");
        assert_eq!(info.bit_depth, png::BitDepth::Eight, "8-bit PNG");
        let channels = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => panic!("an RGB or RGBA PNG, not {other:?}"),
        };
        let (width, height) = (info.width as usize, info.height as usize);
        let mut rgb = Vec::with_capacity(width * height * 3);
        for y in 0..height {
            let row = &buffer[y * info.line_size..][..width * channels];
            for pixel in row.chunks(channels) {
                rgb.extend_from_slice(&pixel[..3]);
            }
        }
        Picture { width, height, rgb }
    }

    pub fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The `width` x `height` part whose top left is (`left`, `top`).
    pub fn crop(&self, left: usize, top: usize, width: usize, height: usize) -> Picture {
        assert!(left + width <= self.width && top + height <= self.height);
        let mut rgb = Vec::with_capacity(width * height * 3);
        for y in top..top + height {
            let start = (y * self.width + left) * 3;
            rgb.extend_from_slice(&self.rgb[start..start + width * 3]);
        }
        Picture { width, height, rgb }
    }

    /// The picture scaled to `side` x `side` by nearest neighbour (each output pixel takes
    /// the source pixel under its centre).
    pub fn nearest(&self, side: usize) -> Picture {
        let mut rgb = Vec::with_capacity(side * side * 3);
        for y in 0..side {
            let sy = (2 * y + 1) * self.height / (2 * side);
            for x in 0..side {
                let sx = (2 * x + 1) * self.width / (2 * side);
                rgb.extend_from_slice(&self.at(sx, sy));
            }
        }
        Picture {
            width: side,
            height: side,
            rgb,
        }
    }

    /// Whether every pixel outside the `side`-pixel square at (`left`, `top`) is black.
    pub fn black_outside(&self, left: usize, top: usize, side: usize) -> bool {
        (0..self.height).all(|y| {
            (0..self.width).all(|x| {
                let inside = (left..left + side).contains(&x) && (top..top + side).contains(&y);
                inside || self.at(x, y) == [0, 0, 0]
            })
        })
    }
}

/// A pixel's brightness (the sum of its channels).
pub fn brightness(pixel: [u8; 3]) -> u32 {
    pixel.iter().map(|&c| c as u32).sum()
}

/// A rectangle of a picture: left, top, width, height.
pub type Area = (usize, usize, usize, usize);

/// How bright `filtered` is against `plain` (the same place drawn by `none`), on average by
/// phase: entry k is over the pixels whose row (`rows`) or column is k modulo `period`,
/// within `area` and where `plain` is not black.
pub fn phase_profile(
    filtered: &Picture,
    plain: &Picture,
    period: usize,
    rows: bool,
    area: Area,
) -> Vec<f64> {
    let (left, top, width, height) = area;
    let mut lit = vec![0u64; period];
    let mut base = vec![0u64; period];
    for y in top..top + height {
        for x in left..left + width {
            let under = brightness(plain.at(x, y));
            if under == 0 {
                continue;
            }
            let phase = if rows { y } else { x } % period;
            lit[phase] += brightness(filtered.at(x, y)) as u64;
            base[phase] += under as u64;
        }
    }
    lit.iter()
        .zip(&base)
        .map(|(&l, &b)| l as f64 / b.max(1) as f64)
        .collect()
}

/// The mean chromaticity (each channel's share of the brightness) within `area`, over
/// pixels that are not black in `plain`.
pub fn chromaticity(picture: &Picture, plain: &Picture, area: Area) -> [f64; 3] {
    let (left, top, width, height) = area;
    let mut sums = [0u64; 3];
    for y in top..top + height {
        for x in left..left + width {
            if brightness(plain.at(x, y)) == 0 {
                continue;
            }
            let pixel = picture.at(x, y);
            for c in 0..3 {
                sums[c] += pixel[c] as u64;
            }
        }
    }
    let total = sums.iter().sum::<u64>().max(1) as f64;
    sums.map(|s| s as f64 / total)
}
