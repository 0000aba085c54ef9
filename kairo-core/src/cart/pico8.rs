//! Loading a PICO-8 cart's data into the memory it powers on with (0x0000-0x42ff), from the
//! files `kairo import` writes: the sprite sheet (`gfx`, an indexed 128 x 128 PNG whose
//! palette indices are PICO-8's colours) and the map (`map`, a Tiled map over that sheet:
//! cell value `n` is gid `n + 1`, each sprite's flags its `flags` property). Map rows 0-31
//! go to 0x2000; rows 32-63, when the map has them, to 0x1000, over the sheet's lower half
//! that they share. The sound (`sound`, the `__sfx__` and `__music__` sections of a `.p8`)
//! goes to 0x3100-0x42ff.

use crate::cart::CartError;
use crate::cart::files::CartFiles;
use crate::cart::manifest::Pico8Decl;
use crate::cart::tiled::{self, LayerKind};
use crate::pico8::sound::music::MUSIC;
use crate::pico8::{FLAGS, MAP, MAP_SHARED, ROM_BYTES, Rom, SIDE};

/// The cart's data as PICO-8 memory.
pub fn load(files: &CartFiles, decl: &Pico8Decl) -> Result<Rom, CartError> {
    let mut bytes = Box::new([0u8; ROM_BYTES]);
    if let Some(file) = &decl.gfx {
        let png = files
            .get(file)
            .ok_or_else(|| CartError::file(file, "missing file (the [pico8] sprite sheet)"))?;
        let pixels = sheet(png).map_err(|message| CartError::file(file, message))?;
        for (i, pair) in pixels.chunks_exact(2).enumerate() {
            bytes[i] = pair[0] | pair[1] << 4;
        }
    }
    if let Some(file) = &decl.map {
        let map = tiled::read_map(files, file)?;
        if map.width as usize != SIDE || !(1..=64).contains(&map.height) {
            return Err(CartError::file(
                file,
                format!(
                    "a PICO-8 map is 128 cells wide and at most 64 down, this one {} x {}",
                    map.width, map.height
                ),
            ));
        }
        let tile_layers: Vec<_> = map
            .layers
            .iter()
            .filter(|l| matches!(l.kind, LayerKind::Tiles { .. }))
            .collect();
        let [layer] = tile_layers[..] else {
            return Err(CartError::file(
                file,
                format!(
                    "a PICO-8 map has one tile layer, this one {}",
                    tile_layers.len()
                ),
            ));
        };
        let LayerKind::Tiles { gids, .. } = &layer.kind else {
            unreachable!("filtered to tile layers");
        };
        let first_gid = map.tilesets.first().map_or(1, |t| t.first_gid);
        for (i, &gid) in gids.iter().enumerate() {
            let (x, y) = (i % SIDE, i / SIDE);
            let gid = gid & !tiled::GID_FLAGS;
            let value = match gid {
                0 => 0,
                g if g >= first_gid && g - first_gid < 256 => (g - first_gid) as u8,
                g => {
                    return Err(layer.origin.error(format!(
                        "cell ({x}, {y}) shows tile gid {g}, not one of the sheet's 256 sprites"
                    )));
                }
            };
            let at = if y < 32 {
                MAP + y * SIDE + x
            } else {
                MAP_SHARED + (y - 32) * SIDE + x
            };
            bytes[at] = value;
        }
        if let Some(tileset) = map.tilesets.first() {
            for (&id, tile) in &tileset.tileset.tiles {
                let Some(flags) = tile.properties.get("flags") else {
                    continue;
                };
                let flags: u8 = flags.parse().map_err(|_| {
                    tileset
                        .tileset
                        .origin
                        .error(format!("tile {id}: flags `{flags}` is not a number 0-255"))
                })?;
                if let Some(slot) = bytes.get_mut(FLAGS + id as usize).filter(|_| id < 256) {
                    *slot = flags;
                }
            }
        }
    }
    if let Some(file) = &decl.sound {
        let text = files
            .get(file)
            .ok_or_else(|| CartError::file(file, "missing file (the [pico8] sound)"))?;
        let text =
            std::str::from_utf8(text).map_err(|_| CartError::file(file, "is not UTF-8 text"))?;
        let sound = crate::pico8::sound::file::parse(text)
            .map_err(|e| CartError::at(file, e.line, e.message))?;
        bytes[MUSIC..ROM_BYTES].copy_from_slice(&sound[..]);
    }
    Ok(Rom { bytes })
}

/// The colours (0-15) of a 128 x 128 indexed PNG, row by row.
fn sheet(png: &[u8]) -> Result<Vec<u8>, String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().map_err(|e| format!("not a PNG: {e}"))?;
    let info = reader.info();
    if (info.width, info.height) != (SIDE as u32, SIDE as u32) {
        return Err(format!(
            "a PICO-8 sprite sheet is 128 x 128 px, this one {} x {}",
            info.width, info.height
        ));
    }
    if info.color_type != png::ColorType::Indexed {
        return Err(
            "a PICO-8 sprite sheet is an indexed PNG (its palette indices are PICO-8's colours)"
                .into(),
        );
    }
    let depth = info.bit_depth as usize;
    let size = reader
        .output_buffer_size()
        .ok_or("the image is too large")?;
    let mut packed = vec![0; size];
    let frame = reader
        .next_frame(&mut packed)
        .map_err(|e| format!("cannot be read: {e}"))?;
    let mut pixels = Vec::with_capacity(SIDE * SIDE);
    for row in packed[..frame.buffer_size()].chunks_exact(frame.line_size) {
        for x in 0..SIDE {
            let bit = x * depth;
            let byte = row[bit / 8];
            let index = (byte >> (8 - depth - bit % 8)) & ((1u16 << depth) - 1) as u8;
            if index > 15 {
                return Err(format!(
                    "pixel ({x}, {}) has palette index {index}: PICO-8's colours are 0-15",
                    pixels.len() / SIDE
                ));
            }
            pixels.push(index);
        }
    }
    Ok(pixels)
}
