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

/// A cart of the files under tests/tiled/real/`folder` (references left out) with `map` as
/// map `m` and `main` as its script; `sheets` adds `[[sheet]]` tables to the manifest.
fn real_cart(folder: &str, map: &str, main: &str) -> Result<Cart, String> {
    let base = root().join("tests/tiled/real").join(folder);
    let mut files = BTreeMap::new();
    let mut dirs = vec![base.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path
                .strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                if name != "reference" {
                    dirs.push(path);
                }
            } else {
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let manifest = format!("name = 'real'\n[[map]]\nfile = '{map}'\nname = 'm'\n");
    files.insert("cart.toml".into(), manifest.into_bytes());
    files.insert("main.lua".into(), main.as_bytes().to_vec());
    Cart::from_files(CartFiles::from_map(folder, files)).map_err(|e| e.to_string())
}

/// The names of a TMX or JSON map's tile layers in document order (groups flattened).
fn tile_layer_names(text: &str) -> Vec<String> {
    if text.trim_start().starts_with('{') {
        fn walk(layers: &serde_json::Value, out: &mut Vec<String>) {
            for layer in layers.as_array().into_iter().flatten() {
                if layer["type"] == "tilelayer" {
                    out.push(layer["name"].as_str().unwrap().to_string());
                }
                walk(&layer["layers"], out);
            }
        }
        let mut names = Vec::new();
        walk(
            &serde_json::from_str::<serde_json::Value>(text).unwrap()["layers"],
            &mut names,
        );
        return names;
    }
    text.split("<layer ")
        .skip(1)
        .map(|rest| {
            let at = rest.find(" name=\"").expect("a named layer") + 7;
            let name = &rest[at..at + rest[at..].find('"').unwrap()];
            name.replace("&amp;", "&").replace("&quot;", "\"")
        })
        .collect()
}

/// Every tile layer of `map` (in `folder`) drawn by Kairo, screen by screen, against Tiled's
/// picture of that layer (`reference/<map>-<n>.png`); returns what differs.
fn layers_against_tiled(folder: &str, map: &str) -> Vec<String> {
    let dir = root().join("tests/tiled/real").join(folder);
    let tmx = std::fs::read_to_string(dir.join(map)).unwrap();
    let stem = Path::new(map).file_stem().unwrap().to_string_lossy();
    let mut wrong = Vec::new();
    let names = tile_layer_names(&tmx);
    assert!(!names.is_empty(), "{folder}/{map} has no tile layer");
    for (n, layer) in names.iter().enumerate() {
        let (w, h, want) = rgba_png(&dir.join(format!("reference/{stem}-{n}.png")));
        let (across, down) = (w.div_ceil(256), h.div_ceil(256));
        // One screen of the layer per frame, left to right, top to bottom.
        let main = format!(
            "function init() backdrop(0x102030) map_load('m', [[{layer}]], 0) layer_on(0) end
             function update()
               local k = frame()
               scroll(0, (k % {across}) * 256, (k // {across}) * 256)
             end"
        );
        let cart = real_cart(folder, map, &main).unwrap_or_else(|e| panic!("{folder}/{map}: {e}"));
        let mut console = Console::new(cart).unwrap();
        for k in 0..across * down {
            console.run_frame(InputFrame::NONE).unwrap();
            let screen = console.rgba();
            let (sx, sy) = ((k % across) * 256, (k / across) * 256);
            let bad = (0..256 * 256)
                .filter(|&i| {
                    let (x, y) = (sx + i % 256, sy + i / 256);
                    if x >= w || y >= h {
                        return false;
                    }
                    let p = want[y * w + x];
                    let expect = if p[3] == 255 {
                        [p[0], p[1], p[2]]
                    } else {
                        BACKDROP
                    };
                    screen[i * 4..][..3] != expect
                })
                .count();
            if bad > 0 {
                wrong.push(format!(
                    "{folder}/{map} layer {n} `{layer}` at ({sx}, {sy}): {bad} pixels differ"
                ));
            }
        }
    }
    wrong
}

/// What `main` logged at power-on, for a real map's cart.
fn logged(folder: &str, map: &str, main: &str) -> Vec<String> {
    let cart = real_cart(folder, map, main).unwrap_or_else(|e| panic!("{folder}/{map}: {e}"));
    let mut console = Console::new(cart).unwrap();
    console.take_log()
}

#[test]
fn an_opaque_index_0_is_drawn_as_tiled_draws_it() {
    // DotTiled's test map: its tileset PNG has no tRNS, and index 0 (magenta) fills a tile
    // that fills the layer. It is also an infinite map, as TMX and as JSON.
    let wrong = layers_against_tiled("dottiled", "map-duplicate-object-id-bug.tmx");
    assert!(wrong.is_empty(), "{wrong:#?}");
    for map in [
        "map-duplicate-object-id-bug.tmx",
        "map-duplicate-object-id-bug.tmj",
    ] {
        let cart = real_cart("dottiled", map, "").unwrap();
        assert!(
            cart.warnings.iter().any(
                |w| w.starts_with("tiles.png: palette index 0 (#fa00ff) is opaque in this PNG")
            ),
            "{:?}",
            cart.warnings
        );
        assert!(
            cart.notes
                .iter()
                .any(|n| n.contains("an infinite map: loaded as the 16 x 16 cells")),
            "{:?}",
            cart.notes
        );
    }
}

#[test]
fn a_non_zero_index_trns_makes_transparent_is_transparent() {
    // SKTiled's roguelike map: index 0 opaque brown, index 63 transparent by tRNS; eleven
    // tile layers (some in groups), 16 px tiles with 1 px spacing.
    let wrong = layers_against_tiled("roguelike", "roguelike-16x16.tmx");
    assert!(wrong.is_empty(), "{wrong:#?}");
    let cart = real_cart("roguelike", "roguelike-16x16.tmx", "").unwrap();
    assert!(
        cart.notes
            .iter()
            .any(|n| n.contains("transparent as its tRNS chunk says: palette index 63")),
        "{:?}",
        cart.notes
    );
}

#[test]
fn infinite_maps_load_as_the_chunks_they_cover() {
    // rs-tiled's infinite map (32-cell chunks, negative x) and excalibur-tiled's (Tiled
    // 1.12.2, JSON and TMX, negative x and y).
    for (folder, map) in [
        ("infinite", "tiled_base64_zlib_infinite.tmx"),
        ("infinite-json", "orthogonal-infinite.tmx"),
    ] {
        let wrong = layers_against_tiled(folder, map);
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
    // The objects move with the map: excalibur's camera object sits at (79.25, 77.75) in
    // Tiled's coordinates, whose cell (-48, -32) became (0, 0).
    let main = "for _, o in ipairs(map_objects('m')) do
                  if o.name == 'camera' then log(o.x, o.y, map_size('m')) end
                end";
    for map in ["orthogonal-infinite.tmx", "orthogonal-infinite.tmj"] {
        assert_eq!(
            logged("infinite-json", map, main),
            ["847.25 589.75 112 80 16"],
            "{map}"
        );
    }
}

#[test]
fn templates_load_from_json_maps_and_bring_their_own_tilesets() {
    // DotTiled's JSON map places two objects from a JSON template (.tj); excalibur's JSON
    // map places coins from an XML template (.tx); rs-tiled's template uses a tileset the
    // map does not list, which joins the map's as in Tiled.
    let main = "for _, o in ipairs(map_objects('m')) do
                  if o.kind == 'tile' then log(o.id, o.name, o.class, o.x, o.y, o.w, o.tile ~= nil) end
                end";
    let dot = logged("dottiled", "map-duplicate-object-id-bug.tmj", main);
    assert_eq!(dot, ["1   80 144 16 true", "2   48 144 16 true"]);
    let coins: Vec<String> = logged("infinite-json", "orthogonal-infinite.tmj", main)
        .into_iter()
        .filter(|l| l.contains(" Coin "))
        .collect();
    assert!(
        !coins.is_empty()
            && coins
                .iter()
                .all(|l| l.contains(" Coin Collectable ") && l.ends_with(" true")),
        "{coins:?}"
    );
    let template = logged("template-tileset", "tiled_object_template.tmx", main);
    assert_eq!(template.len(), 5, "{template:?}");
    assert!(
        template.iter().all(|l| l.ends_with(" true")),
        "{template:?}"
    );
    // The template's instance keeps the template's property, and its own size where it sets one.
    let props = logged(
        "template-tileset",
        "tiled_object_template.tmx",
        "for _, o in ipairs(map_objects('m')) do if o.id ~= 2 and o.id < 4 then log(o.id, o.w, o.h, o.props.property) end end",
    );
    assert_eq!(props, ["1 32 32 1", "3 64 32 1"]);
}

#[test]
fn capsule_objects_are_capsules() {
    let main = "for _, o in ipairs(map_objects('m')) do log(o.id, o.kind, o.w, o.h) end";
    assert_eq!(
        logged("capsule", "tiled_object_capsule.tmx", main),
        ["1 capsule 16 48", "2 rect 32 32"]
    );
}

#[test]
fn tall_tiles_only_objects_use_load_and_are_refused_only_in_tile_layers() {
    // SKTiled's dungeon: a 16 px map whose braziers (16x32) and characters (32x32) are
    // tile objects (its art replaced by stand-ins of the same size, see the README).
    let main = "local n = 0
                for _, o in ipairs(map_objects('m')) do if o.kind == 'tile' then n = n + 1 end end
                log(n)";
    let log = logged("dungeon", "dungeon-16x16.tmx", main);
    assert!(log[0].parse::<u32>().unwrap() > 5, "{log:?}");
    // The same brazier placed in a tile layer is refused there, saying how to fix it.
    let tmx =
        std::fs::read_to_string(root().join("tests/tiled/real/dungeon/dungeon-16x16.tmx")).unwrap();
    let first = tmx
        .split("firstgid=\"")
        .filter_map(|r| r.split('"').next()?.parse::<u32>().ok())
        .collect::<Vec<_>>();
    let tsx = tmx
        .split("<tileset ")
        .skip(1)
        .position(|t| t.contains("dungeon-16x32.tsx"))
        .unwrap();
    let brazier = first[tsx];
    let data_at = tmx.find("<data encoding=\"csv\">").unwrap() + "<data encoding=\"csv\">".len();
    let rest = &tmx[data_at..];
    let skip = rest.len() - rest.trim_start().len();
    let first_id_len = rest.trim_start().find(',').unwrap();
    let edited = format!(
        "{}{}{}",
        &tmx[..data_at + skip],
        brazier,
        &rest[skip + first_id_len..]
    );
    let base = root().join("tests/tiled/real/dungeon");
    let mut files = BTreeMap::new();
    for name in [
        "dungeon-16x16.tsx",
        "dungeon-16x32.tsx",
        "dungeon-32x32.tsx",
        "dungeon-16x16.png",
        "dungeon-16x32.png",
        "dungeon-32x32.png",
    ] {
        files.insert(name.to_string(), std::fs::read(base.join(name)).unwrap());
    }
    files.insert("dungeon-16x16.tmx".into(), edited.into_bytes());
    files.insert(
        "cart.toml".into(),
        b"name = 'd'\n[[map]]\nfile = 'dungeon-16x16.tmx'\n".to_vec(),
    );
    files.insert("main.lua".into(), Vec::new());
    let error = Cart::from_files(CartFiles::from_map("d", files))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "cell (0, 0): tileset `dungeon-16x32` has 16x32 px tiles but the map's cells are 16 px"
        ) && error.contains("use this tileset only for tile objects (in an object layer)"),
        "{error}"
    );
}

#[test]
fn the_layer_encodings_of_a_real_map_draw_as_tiled_draws_them() {
    // rs-tiled's map saved in each encoding (its XML copy is another map, whose tile 0 has
    // 16 colours: refused for the hardware's 15).
    let reference = root().join("tests/tiled/real/encodings/reference/tiled_csv-0.png");
    for map in [
        "tiled_csv.tmx",
        "tiled_base64.tmx",
        "tiled_base64_zlib.tmx",
        "tiled_base64_gzip.tmx",
        "tiled_base64_zstandard.tmx",
    ] {
        let copy = root().join(format!(
            "tests/tiled/real/encodings/reference/{}-0.png",
            map.trim_end_matches(".tmx")
        ));
        if map != "tiled_csv.tmx" {
            std::fs::copy(&reference, &copy).unwrap();
        }
        let wrong = layers_against_tiled("encodings", map);
        if map != "tiled_csv.tmx" {
            std::fs::remove_file(&copy).unwrap();
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}

#[test]
fn maps_saved_before_tiled_1_2_draw_as_tiled_draws_them() {
    // JSON saved by Tiled 1.1.5 (`tileproperties`, `tiles` keyed by id, rotated tiles) and by
    // Tiled 1.0.3 (an embedded tileset with a colour key; an external `.json` tileset).
    for (folder, map) in [
        ("tiled-1.1-platformer", "tilemaps/platformer.json"),
        ("tiled-1.0-excalibur", "test-v1.json"),
        ("tiled-1.0-excalibur", "test-v1-external.json"),
    ] {
        let wrong = layers_against_tiled(folder, map);
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}

#[test]
fn hand_made_tiled_files_get_messages_with_the_fix() {
    // firstgid 0 (Tiled never writes it; a script that makes maps might).
    let tmx = std::fs::read_to_string(root().join("tests/tiled/real/capsule/tiled_object_capsule.tmx"))
        .unwrap()
        .replacen("<layer", "<tileset firstgid=\"0\" name=\"zero\" tilewidth=\"32\" tileheight=\"32\" tilecount=\"1\" columns=\"1\"><image source=\"none.png\" width=\"32\" height=\"32\"/></tileset>\n <layer", 1);
    let mut files = BTreeMap::new();
    files.insert("m.tmx".to_string(), tmx.into_bytes());
    files.insert(
        "cart.toml".into(),
        b"name = 'z'\n[[map]]\nfile = 'm.tmx'\n".to_vec(),
    );
    files.insert("main.lua".into(), Vec::new());
    let error = Cart::from_files(CartFiles::from_map("z", files))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("tileset `zero` has firstgid 0, but Tiled numbers tiles from 1"),
        "{error}"
    );
}
