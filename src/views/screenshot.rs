//! Writing the picture as a PNG file (atomically).

use std::path::Path;

use crate::spec::{SCREEN_H, SCREEN_W};

/// Encodes a 256x256 RGBA picture as PNG bytes.
pub fn encode_png(rgba: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    encode_png_sized(rgba, SCREEN_W as u32, SCREEN_H as u32)
}

/// Encodes an RGBA picture of any size as PNG bytes.
pub fn encode_png_sized(
    rgba: &[u8],
    width: u32,
    height: u32,
) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(rgba)?;
    }
    Ok(bytes)
}

/// Saves a 256x256 RGBA picture to `path` as PNG.
pub fn save_png(path: &Path, rgba: &[u8]) -> std::io::Result<()> {
    let bytes = encode_png(rgba).map_err(std::io::Error::other)?;
    crate::fsutil::write_atomic(path, &bytes)
}
