//! The files of an imported PICO-8 cart, as a maker edits them with Kairo's tools: the sprite
//! sheet as an indexed PNG in PICO-8's colours (`gfx.png`), the map as a Tiled map using that
//! sheet as its tileset with each sprite's flags as tile properties (`map.tmx`), and the
//! code translated to Lua 5.4 (`main.lua`). The sheet's colour 0 is transparent (a tRNS
//! entry), so declared as a `[[sheet]]` it keeps PICO-8's colour numbers as pixel values, in
//! palette 0.
//!
//! The map: rows 0-31 always; rows 32-63 too when the memory they share with sprites 128-255
//! holds anything (the importer cannot know which of the two the cart meant: both files then
//! hold the same bytes, and the map's rows are what the cart's memory starts with).

use std::fmt::Write;

use kairo_core::pico8::COLORS;

use super::p8::{GFX_SIDE, MAP_H, MAP_OWN_ROWS, MAP_W, P8Cart, SPRITES};

/// The sprite sheet as an indexed PNG (4 bits per pixel, PICO-8's palette), 128 x 128.
pub fn sheet_png(cart: &P8Cart) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, GFX_SIDE as u32, GFX_SIDE as u32);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Four);
        let palette: Vec<u8> = COLORS
            .iter()
            .flat_map(|c| [(c >> 16) as u8, (c >> 8) as u8, *c as u8])
            .collect();
        encoder.set_palette(palette);
        // Colour 0 is transparent, as PICO-8's sprites have it: Kairo's loader keeps it as
        // pixel value 0 and every other colour as its own number.
        encoder.set_trns(vec![0u8]);
        let mut writer = encoder.write_header()?;
        let packed: Vec<u8> = cart
            .gfx
            .chunks_exact(2)
            .map(|pair| pair[0] << 4 | pair[1])
            .collect();
        writer.write_image_data(&packed)?;
    }
    Ok(bytes)
}

/// Rows of the map the importer writes (32, or 64 when the shared half holds anything).
pub fn map_rows(cart: &P8Cart) -> usize {
    if cart.lower_map_used() {
        MAP_H
    } else {
        MAP_OWN_ROWS
    }
}

/// The map as Tiled XML, its tileset `gfx.png` (sprite `n` is tile id `n`, gid `n + 1`; cell
/// value 0 is an empty cell), every sprite with flags carrying them as properties: `flags`
/// (the byte) and `flag0`..`flag7`.
pub fn map_tmx(cart: &P8Cart) -> String {
    let rows = map_rows(cart);
    let mut xml = String::new();
    let _ = writeln!(xml, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        xml,
        r#"<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{MAP_W}" height="{rows}" tilewidth="8" tileheight="8" infinite="0" nextlayerid="2" nextobjectid="1">"#
    );
    let _ = writeln!(
        xml,
        r#" <tileset firstgid="1" name="gfx" tilewidth="8" tileheight="8" tilecount="{SPRITES}" columns="16">"#
    );
    let _ = writeln!(
        xml,
        r#"  <image source="gfx.png" width="{GFX_SIDE}" height="{GFX_SIDE}"/>"#
    );
    for (sprite, &flags) in cart.flags.iter().enumerate() {
        if flags == 0 {
            continue;
        }
        let _ = writeln!(xml, r#"  <tile id="{sprite}">"#);
        let _ = writeln!(xml, "   <properties>");
        let _ = writeln!(
            xml,
            r#"    <property name="flags" type="int" value="{flags}"/>"#
        );
        for bit in 0..8 {
            if flags & (1 << bit) != 0 {
                let _ = writeln!(
                    xml,
                    r#"    <property name="flag{bit}" type="bool" value="true"/>"#
                );
            }
        }
        let _ = writeln!(xml, "   </properties>");
        let _ = writeln!(xml, "  </tile>");
    }
    let _ = writeln!(xml, " </tileset>");
    let _ = writeln!(
        xml,
        r#" <layer id="1" name="map" width="{MAP_W}" height="{rows}">"#
    );
    let _ = writeln!(xml, r#"  <data encoding="csv">"#);
    for y in 0..rows {
        let cells: Vec<String> = (0..MAP_W)
            .map(|x| match cart.map_cell(x, y) {
                0 => "0".to_string(),
                n => (u32::from(n) + 1).to_string(),
            })
            .collect();
        let end = if y + 1 < rows { "," } else { "" };
        let _ = writeln!(xml, "{}{end}", cells.join(","));
    }
    let _ = writeln!(xml, "  </data>");
    let _ = writeln!(xml, " </layer>");
    let _ = writeln!(xml, "</map>");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::pico8::p8;

    fn cart() -> P8Cart {
        let mut gfx = String::from("__gfx__\n");
        for y in 0..GFX_SIDE {
            let row: String = (0..GFX_SIDE)
                .map(|x| char::from_digit(((x + y) % 16) as u32, 16).unwrap())
                .collect();
            gfx.push_str(&row);
            gfx.push('\n');
        }
        let text = format!(
            "pico-8 cartridge // http://www.pico-8.com\nversion 41\n{gfx}__gff__\n0003\n__map__\n000102\n"
        );
        p8::parse(&text).unwrap()
    }

    #[test]
    fn the_sheet_keeps_every_pixel_and_pico8s_colours() {
        let cart = cart();
        let png = sheet_png(&cart).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let info = reader.info().clone();
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(info.bit_depth, png::BitDepth::Four);
        let palette = info.palette.unwrap();
        assert_eq!(
            &palette[8 * 3..8 * 3 + 3],
            &[0xFF, 0x00, 0x4D],
            "colour 8, red"
        );
        let mut packed = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut packed).unwrap();
        let pixels: Vec<u8> = packed.iter().flat_map(|b| [b >> 4, b & 15]).collect();
        assert_eq!(pixels, cart.gfx);
    }

    #[test]
    fn the_map_keeps_cells_and_flags() {
        let cart = cart();
        let xml = map_tmx(&cart);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let map = doc.root_element();
        // The shared half holds sprite pixels here, so all 64 rows are written.
        assert_eq!(map.attribute("height"), Some("64"));
        let data = doc
            .descendants()
            .find(|n| n.has_tag_name("data"))
            .unwrap()
            .text()
            .unwrap();
        let cells: Vec<u32> = data.split(',').map(|c| c.trim().parse().unwrap()).collect();
        assert_eq!(cells.len(), MAP_W * MAP_H);
        assert_eq!(&cells[..3], &[0, 2, 3], "0 is empty, sprite n is gid n + 1");
        let shared = cells[32 * MAP_W + 1];
        assert_eq!(shared, u32::from(cart.map_cell(1, 32)) + 1);
        let tile = doc
            .descendants()
            .find(|n| n.has_tag_name("tile") && n.attribute("id") == Some("1"))
            .unwrap();
        let props: Vec<(&str, &str)> = tile
            .descendants()
            .filter(|n| n.has_tag_name("property"))
            .map(|p| (p.attribute("name").unwrap(), p.attribute("value").unwrap()))
            .collect();
        assert_eq!(
            props,
            [("flags", "3"), ("flag0", "true"), ("flag1", "true")]
        );
    }

    #[test]
    fn kairo_loads_the_sheet_with_its_indices_and_the_map() {
        use crate::cart::Cart;
        use crate::cart::files::CartFiles;
        let cart = cart();
        let mut files = std::collections::BTreeMap::new();
        let manifest = "name = 'imported'\nbackdrop = '#000000'\n[[sheet]]\nfile = 'gfx.png'\n\
                        [[map]]\nfile = 'map.tmx'\n";
        files.insert("cart.toml".to_string(), manifest.as_bytes().to_vec());
        files.insert("main.lua".to_string(), Vec::new());
        files.insert("gfx.png".to_string(), sheet_png(&cart).unwrap());
        files.insert("map.tmx".to_string(), map_tmx(&cart).into_bytes());
        let loaded = Cart::from_files(CartFiles::from_map("imported", files))
            .unwrap_or_else(|e| panic!("{e}"));
        for (i, &color) in cart.gfx.iter().enumerate() {
            let (x, y) = (i % GFX_SIDE, i / GFX_SIDE);
            let tile = y / 8 * 16 + x / 8;
            assert_eq!(
                loaded.patterns.pixel(tile, x % 8, y % 8),
                color,
                "({x}, {y})"
            );
        }
        let rgb = |i: usize| loaded.palette.rgba_words()[i].to_ne_bytes();
        assert_eq!(
            &rgb(8)[..3],
            &[0xFF, 0x00, 0x4D],
            "colour 8 is PICO-8's red"
        );
        assert_eq!(&rgb(0)[..3], &[0, 0, 0]);
    }
}
