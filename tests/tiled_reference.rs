//! Real Tiled maps drawn by Kairo against Tiled's own rendering of them (`tmxrasterizer`,
//! kept as PNGs beside the maps): Tiled's `orthogonal-outside` example re-saved with an
//! indexed tileset image of several 16-colour banks and with a colour-keyed one, in every
//! layer encoding, as TMX and as JSON, imported by the map loader and declared as a
//! `[[sheet]]` (`tests/tiled/indexed/make.py` made them).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::root;
use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::Console;
use kairo::input::InputFrame;

/// The map's size in pixels.
const MAP_W: usize = 45 * 16;
const MAP_H: usize = 31 * 16;
/// The backdrop the test carts clear to.
const BACKDROP: [u8; 3] = [0x10, 0x20, 0x30];

/// RGBA8 pixels of a PNG, any colour type.
fn rgba_png(path: &Path) -> (usize, usize, Vec<[u8; 4]>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let pixels = buffer[..info.buffer_size()]
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    (info.width as usize, info.height as usize, pixels)
}

/// Tiled's picture of the Ground layer under the Fringe layer over the backdrop.
fn tiled_picture() -> Vec<[u8; 3]> {
    let dir = root().join("tests/tiled/indexed");
    let (gw, gh, ground) = rgba_png(&dir.join("reference-ground.png"));
    let (_, _, fringe) = rgba_png(&dir.join("reference-fringe.png"));
    assert_eq!((gw, gh), (MAP_W, MAP_H));
    ground
        .iter()
        .zip(&fringe)
        .map(|(g, f)| {
            let mut px = BACKDROP;
            for layer in [g, f] {
                assert!(
                    layer[3] == 0 || layer[3] == 255,
                    "no blending in Tiled's picture"
                );
                if layer[3] == 255 {
                    px = [layer[0], layer[1], layer[2]];
                }
            }
            px
        })
        .collect()
}

/// A cart of the files in tests/tiled/indexed with `manifest`, showing the map's two layers
/// scrolled to (`sx`, `sy`).
fn cart(manifest: &str, map: &str, (sx, sy): (usize, usize)) -> Result<Cart, String> {
    let dir = root().join("tests/tiled/indexed");
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if (name.ends_with(".png") && name.starts_with("outdoor")) || name == map {
            files.insert(name, std::fs::read(&path).unwrap());
        }
    }
    let main = format!(
        "function init()
           backdrop(0x102030)
           map_load('outside', 'Ground', 1)
           map_load('outside', 'Fringe', 0)
           for l = 0, 1 do layer_on(l) scroll(l, {sx}, {sy}) end
         end"
    );
    files.insert("cart.toml".into(), manifest.as_bytes().to_vec());
    files.insert("main.lua".into(), main.into_bytes());
    Cart::from_files(CartFiles::from_map("indexed", files)).map_err(|e| e.to_string())
}

/// Pixels of the screen that differ from Tiled's picture, for each of the six screens that
/// cover the map.
fn compare(manifest: &str, map: &str, want: &[[u8; 3]]) -> Vec<String> {
    let mut wrong = Vec::new();
    for sy in [0, 240] {
        for sx in [0, 232, 464] {
            let cart = cart(manifest, map, (sx, sy)).unwrap_or_else(|e| panic!("{map}: {e}"));
            let mut console = Console::new(cart).unwrap();
            console.run_frame(InputFrame::NONE).unwrap();
            let screen = console.rgba();
            let bad = (0..256 * 256)
                .filter(|&i| {
                    let (x, y) = (i % 256 + sx, i / 256 + sy);
                    screen[i * 4..][..3] != want[y * MAP_W + x]
                })
                .count();
            if bad > 0 {
                wrong.push(format!(
                    "{map} scrolled to ({sx}, {sy}): {bad} pixels differ"
                ));
            }
        }
    }
    wrong
}

const MAPS: [&str; 11] = [
    "outside-csv.tmx",
    "outside-xml.tmx",
    "outside-base64.tmx",
    "outside-zlib.tmx",
    "outside-gzip.tmx",
    "outside-zstd.tmx",
    "outside-csv.tmj",
    "outside-base64.tmj",
    "outside-zlib.tmj",
    "outside-gzip.tmj",
    "outside-zstd.tmj",
];

#[test]
fn an_indexed_tileset_of_several_banks_draws_as_tiled_draws_it_in_every_encoding() {
    let want = tiled_picture();
    let mut wrong = Vec::new();
    for map in MAPS {
        // Imported by the map loader.
        let imported = format!("name = 'indexed'\n[[map]]\nfile = '{map}'\nname = 'outside'\n");
        wrong.extend(compare(&imported, map, &want));
        // The same image declared as a sheet.
        let declared = format!(
            "{imported}[[sheet]]\nfile = 'outdoor-banked.png'\ntile_size = 16\npalette = 1\n"
        );
        wrong.extend(compare(&declared, map, &want));
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn tileds_colour_key_applies_when_the_tileset_image_is_a_sheet() {
    let want = tiled_picture();
    let map = "outside-keyed.tmx";
    let imported = format!("name = 'keyed'\n[[map]]\nfile = '{map}'\nname = 'outside'\n");
    let mut wrong = compare(&imported, map, &want);
    let declared =
        format!("{imported}[[sheet]]\nfile = 'outdoor-keyed.png'\ntile_size = 16\npalette = 1\n");
    wrong.extend(compare(&declared, map, &want));
    assert!(wrong.is_empty(), "{wrong:#?}");
    // A sheet whose own key differs from the tileset's is refused, naming both.
    let clash = format!("{declared}transparent = '#000000'\n");
    let error = cart(&clash, map, (0, 0)).unwrap_err();
    assert!(
        error.contains(
            "makes #ff00ff transparent, but its [[sheet]] says transparent = \"#000000\""
        ),
        "{error}"
    );
}
