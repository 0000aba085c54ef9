//! Tiled's own example maps (tests/tiled/, kept as Tiled ships them) in carts: what loads is
//! drawn exactly as the tileset image shows it, checked pixel by pixel against a reference
//! drawn here straight from the PNG and the layer data; what does not fit the hardware is
//! refused with one line naming the file and what to do.

mod common;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use common::{kairo, root};
use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::Console;
use kairo::input::InputFrame;

/// A cart made of the files under `tests/tiled/<dir>` plus `cart.toml` and `main.lua`.
fn example_cart(dir: &str, manifest: &str, main: &str) -> Result<Cart, String> {
    let base = root().join("tests/tiled").join(dir);
    let mut files = BTreeMap::new();
    collect(&base, &base, &mut files);
    files.insert("cart.toml".into(), manifest.as_bytes().to_vec());
    files.insert("main.lua".into(), main.as_bytes().to_vec());
    Cart::from_files(CartFiles::from_map(dir, files)).map_err(|e| e.to_string())
}

fn collect(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(base, &path, out);
        } else {
            let key = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(key, std::fs::read(&path).unwrap());
        }
    }
}

/// RGBA8 pixels of a PNG, any colour type.
fn rgba_png(path: &Path) -> (usize, usize, Vec<[u8; 4]>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
    let pixels = buffer[..info.buffer_size()]
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    (info.width as usize, info.height as usize, pixels)
}

/// The global tile ids of every `<data encoding="base64" compression="zlib">` layer of a TMX,
/// decoded here without the cart loader.
fn zlib_layers(tmx: &str) -> Vec<Vec<u32>> {
    use base64::Engine;
    tmx.split(r#"<data encoding="base64" compression="zlib">"#)
        .skip(1)
        .map(|rest| {
            let text: String = rest[..rest.find("</data>").unwrap()]
                .split_whitespace()
                .collect();
            let packed = base64::engine::general_purpose::STANDARD
                .decode(text)
                .unwrap();
            let mut raw = Vec::new();
            flate2::read::ZlibDecoder::new(&packed[..])
                .read_to_end(&mut raw)
                .unwrap();
            raw.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        })
        .collect()
}

fn screen_after_one_frame(cart: Cart) -> Vec<u8> {
    let mut console = Console::new(cart).unwrap_or_else(|e| panic!("{e}"));
    console
        .run_frame(InputFrame::NONE)
        .unwrap_or_else(|e| panic!("{e}"));
    console.rgba()
}

#[test]
fn orthogonal_outside_is_drawn_exactly_as_its_tileset_shows_it() {
    let dir = root().join("tests/tiled/outside");
    let tmx = std::fs::read_to_string(dir.join("orthogonal-outside.tmx")).unwrap();
    let layers = zlib_layers(&tmx);
    assert_eq!(layers.len(), 2, "Ground and Fringe");
    let (sheet_w, _, sheet) = rgba_png(&dir.join("buch-outdoor.png"));
    let (cols, rows) = (45usize, 31usize);
    // Scrolls inside the map and wrapping past its right and bottom edges.
    for (sx, sy) in [(0, 0), (133, 77), (600, 400)] {
        let main = format!(
            "function init()
               backdrop(0x102030)
               map_load('orthogonal-outside', 'Ground', 1)
               map_load('orthogonal-outside', 'Fringe', 0)
               for l = 0, 1 do layer_on(l) scroll(l, {sx}, {sy}) end
             end
             function update() end
             function draw() end"
        );
        let manifest = "name = 'outside'\n[[map]]\nfile = 'orthogonal-outside.tmx'\n";
        let cart = example_cart("outside", manifest, &main).unwrap();
        let screen = screen_after_one_frame(cart);
        let mut wrong = 0;
        for y in 0..256usize {
            for x in 0..256usize {
                let (mx, my) = ((x + sx) % (cols * 16), (y + sy) % (rows * 16));
                let mut want = [0x10, 0x20, 0x30];
                for layer in &layers {
                    let gid = layer[(my / 16) * cols + mx / 16];
                    let id = (gid & 0x0FFF_FFFF) as usize;
                    if id == 0 {
                        continue;
                    }
                    let (mut px, mut py) = (mx % 16, my % 16);
                    if gid & 0x8000_0000 != 0 {
                        px = 15 - px;
                    }
                    if gid & 0x4000_0000 != 0 {
                        py = 15 - py;
                    }
                    let (tx, ty) = (((id - 1) % 24) * 16 + px, ((id - 1) / 24) * 16 + py);
                    let p = sheet[ty * sheet_w + tx];
                    if p[3] >= 128 {
                        want = [p[0], p[1], p[2]];
                    }
                }
                let got = &screen[(y * 256 + x) * 4..][..3];
                if got != want {
                    wrong += 1;
                    assert!(
                        wrong < 5,
                        "scroll ({sx}, {sy}) pixel ({x}, {y}): {got:?} != {want:?}"
                    );
                }
            }
        }
        assert_eq!(wrong, 0, "scroll ({sx}, {sy})");
    }
}

#[test]
fn orthogonal_outside_keeps_its_objects_and_properties() {
    let main = r#"
      function init()
        local objects = map_objects('orthogonal-outside')
        log('count', #objects)
        for _, o in ipairs(objects) do
          if o.id == 3 or o.id == 10 or o.id == 12 then
            log(o.id, o.kind, o.name, o.class, o.tile ~= nil, o.flags)
          end
        end
        log('tint', map_props('orthogonal-outside').enemyTint)
        local t10, p10 = map_tile('orthogonal-outside', 282)
        local t12, p12, f12 = map_tile('orthogonal-outside', 2147483930)
        log('same tile', t10 == t12, p10 == p12, f12)
        log('no tile', map_tile('orthogonal-outside', 9999))
      end
      function update() end
      function draw() end"#;
    let manifest = "name = 'outside'\n[[map]]\nfile = 'orthogonal-outside.tmx'\n";
    let mut console = Console::new(example_cart("outside", manifest, main).unwrap()).unwrap();
    let log = console.take_log().join("\n");
    assert!(log.contains("count 29"), "{log}");
    assert!(
        log.contains("3 polygon unreachable Fixture false nil"),
        "{log}"
    );
    assert!(log.contains("10 tile   true 0"), "{log}");
    assert!(
        log.contains("12 tile   true 1"),
        "flipped tile object: {log}"
    );
    assert!(log.contains("tint #ffa33636"), "{log}");
    assert!(log.contains("same tile true true 1"), "{log}");
    assert!(
        log.lines().any(|l| l == "no tile"),
        "no loaded tile has id 9999: {log}"
    );
}

#[test]
fn forests_collection_tile_draws_its_sub_rectangle() {
    // The platforms layer shows tile 0 of an image collection: the 16 px rectangle at (1, 1)
    // of squirrel.png (an indexed PNG).
    let main = "function init()
                  backdrop(0x000000)
                  map_load('forest', 'platforms', 0) layer_on(0)
                end
                function update() end
                function draw() end";
    let manifest = "name = 'forest'\n[[map]]\nfile = 'forest.tmx'\n";
    let screen = screen_after_one_frame(example_cart("forest", manifest, main).unwrap());
    let (w, _, sheet) = rgba_png(&root().join("tests/tiled/forest/squirrel.png"));
    // Row 10 of the layer has tile 0 in columns 4-15, all on screen.
    for (cx, cy) in [(4, 10), (9, 10), (15, 10)] {
        for y in 0..16 {
            for x in 0..16 {
                let p = sheet[(1 + y) * w + 1 + x];
                let want = if p[3] >= 128 {
                    [p[0], p[1], p[2]]
                } else {
                    [0, 0, 0]
                };
                let at = ((cy * 16 + y) * 256 + cx * 16 + x) * 4;
                assert_eq!(
                    &screen[at..at + 3],
                    want,
                    "cell ({cx}, {cy}) pixel ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn sticker_knights_object_maps_load_from_tmx_and_json() {
    let main = r#"
      function init()
        local hero
        for _, o in ipairs(map_objects('sandbox')) do
          if o.name == 'hero' then hero = o end
        end
        log('hero', hero.class, hero.kind, hero.w, hero.h, hero.tile)
        log('title', #map_objects('title'))
      end
      function update() end
      function draw() end"#;
    let manifest =
        "name = 'knight'\n[[map]]\nfile = 'map/sandbox.tmx'\n[[map]]\nfile = 'ui/title.json'\n";
    let mut console =
        Console::new(example_cart("sticker-knight", manifest, main).unwrap()).unwrap();
    let log = console.take_log().join("\n");
    // The hero comes from a template: class and size from templates/hero.tx; its tile is in
    // an image collection of big pictures, which layers could not show, so it has no tile.
    assert!(log.contains("hero hero tile 128 160 nil"), "{log}");
    assert!(log.contains("title 14"), "{log}");
}

#[test]
fn maps_the_hardware_cannot_show_are_refused_with_one_line_each() {
    let main = "function init() end function update() end function draw() end";
    let cases = [
        (
            "perspective",
            "perspective_walls.tmx",
            "perspective_walls.tmx:2: cells are 31x31 px; Kairo's layers have square cells of 8, 16 or 32 px",
        ),
        (
            "hexmini",
            "hexagonal-mini.tmx",
            "hexagonal-mini.tmx:2: the map is hexagonal; Kairo's layers are orthogonal grids",
        ),
    ];
    for (dir, file, expected) in cases {
        let manifest = format!("name = 'x'\n[[map]]\nfile = '{file}'\n");
        let e = example_cart(dir, &manifest, main).unwrap_err();
        assert!(e.starts_with(expected), "{dir}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn check_says_what_the_loader_converted() {
    let dir = common::temp_dir("tiled-verbose");
    for file in ["orthogonal-outside.tmx", "buch-outdoor.png"] {
        std::fs::copy(
            root().join("tests/tiled/outside").join(file),
            dir.join(file),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("cart.toml"),
        "name = 'outside'\n[[map]]\nfile = 'orthogonal-outside.tmx'\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), "function update() end").unwrap();
    // Plain `check` says it all (`--verbose` is still accepted and changes nothing).
    for args in [&["check"][..], &["check", "--verbose"][..]] {
        let mut args = args.to_vec();
        args.push(dir.to_str().unwrap());
        let (code, stdout, stderr) = kairo(&args, &dir);
        assert_eq!(code, 0, "{stdout}{stderr}");
        // Imported tilesets start above palette 0, which holds the text colours.
        assert!(
            stdout.contains(
                "note: buch-outdoor.png: 288 tiles of 16 px -> pattern tiles 0-1151, the whole image in Tiled's order; colours in palettes 1, 2"
            ),
            "{stdout}"
        );
        assert!(
            stdout.contains(
                "warning: buch-outdoor.png: imported for a map, its colours were split over palettes 1, 2"
            ),
            "{stdout}"
        );
        assert!(stdout.ends_with(": ok\n"), "{stdout}");
    }
}

/// An 8 px tileset PNG of `tiles` tiles in a row, tile k a solid colour `colours[k]`.
fn strip_png(colours: &[u32]) -> Vec<u8> {
    let mut data = Vec::new();
    for _ in 0..8 {
        for &c in colours {
            for _ in 0..8 {
                data.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8]);
            }
        }
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 8 * colours.len() as u32, 8);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

#[test]
fn tiled_tile_animations_play_and_empty_cells_stay_empty() {
    // Tile 0 animates 0 -> 1 -> 2 (100, 50 and 200 ms = 6, 3 and 12 frames); cell (1, 0) is
    // empty, so the layer behind shows through it.
    let tsx = r#"<tileset name="t" tilewidth="8" tileheight="8" tilecount="4" columns="4">
 <image source="t.png" width="32" height="8"/>
 <tile id="0"><animation>
  <frame tileid="0" duration="100"/><frame tileid="1" duration="50"/><frame tileid="2" duration="200"/>
 </animation></tile>
</tileset>"#;
    let tmx = r#"<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">
 <tileset firstgid="1" source="t.tsx"/>
 <layer name="front" width="2" height="1"><data encoding="csv">1,0</data></layer>
 <layer name="back" width="2" height="1"><data encoding="csv">4,4</data></layer>
</map>"#;
    let main = "function init()
                  map_load('m', 'front', 0) map_load('m', 'back', 1)
                  layer_on(0) layer_on(1)
                  log('cell', cellget(0, 1, 0))
                end
                function update() end
                function draw() end";
    let mut files = BTreeMap::new();
    files.insert(
        "cart.toml".into(),
        b"name = 'anim'\n[[map]]\nfile = 'm.tmx'\n".to_vec(),
    );
    files.insert("main.lua".into(), main.as_bytes().to_vec());
    files.insert("m.tmx".into(), tmx.as_bytes().to_vec());
    files.insert("t.tsx".into(), tsx.as_bytes().to_vec());
    files.insert(
        "t.png".into(),
        strip_png(&[0xFF0000, 0x00FF00, 0x0000FF, 0x808080]),
    );
    let cart = Cart::from_files(CartFiles::from_map("anim", files)).unwrap();
    let mut console = Console::new(cart).unwrap();
    assert_eq!(
        console.take_log(),
        ["cell -1 0 0"],
        "Tiled's empty cell reads as tile -1"
    );
    let mut seen = Vec::new();
    for _ in 0..24 {
        console.run_frame(InputFrame::NONE).unwrap();
        let rgba = console.rgba();
        seen.push((rgba[0], rgba[1], rgba[2], rgba[8 * 4]));
    }
    let red = (255, 0, 0, 128);
    let green = (0, 255, 0, 128);
    let blue = (0, 0, 255, 128);
    // Frame n is drawn at machine frame n (the first run_frame is frame 0).
    let want: Vec<_> = (0..24)
        .map(|n| match n % 21 {
            0..6 => red,
            6..9 => green,
            _ => blue,
        })
        .collect();
    assert_eq!(
        seen, want,
        "animation frames, and grey through the empty cell"
    );
}

#[test]
fn sheets_split_over_palettes_tell_sprites_their_palette() {
    // A 16-tile sheet whose tiles have 4 colours each, none shared: 64 colours, 5 palettes.
    let colours: Vec<u32> = (0..16u32).map(|k| 0x100000 * (k + 1)).collect();
    let mut data = Vec::new();
    for y in 0..8u32 {
        for &c in &colours {
            for x in 0..8u32 {
                let shade = c + (x / 2 + y % 2) * 0x10;
                data.extend_from_slice(&[(shade >> 16) as u8, (shade >> 8) as u8, shade as u8]);
            }
        }
    }
    let mut png_bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut png_bytes, 128, 8);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    let main = "function init()
                  local p = {}
                  for t = 0, 15 do p[#p + 1] = tpal(t) end
                  log(table.concat(p, ','), tpal(100))
                end
                function update() end
                function draw() end";
    let mut files = BTreeMap::new();
    files.insert(
        "cart.toml".into(),
        b"name = 'split'\n[[sheet]]\nfile = 's.png'\npalette = 2\n".to_vec(),
    );
    files.insert("main.lua".into(), main.as_bytes().to_vec());
    files.insert("s.png".into(), png_bytes);
    let cart = Cart::from_files(CartFiles::from_map("split", files)).unwrap();
    assert!(
        cart.warnings[0].contains("its tiles were split over palettes 2, 3, 4, 5, 6"),
        "{:?}",
        cart.warnings
    );
    let mut console = Console::new(cart).unwrap();
    let log = console.take_log();
    let palettes: Vec<u8> = log[0]
        .split_whitespace()
        .next()
        .unwrap()
        .split(',')
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(palettes.len(), 16);
    assert_eq!(palettes[0], 2, "the sheet's own palette first");
    assert!(
        palettes.iter().all(|&p| p >= 2),
        "never below the declared palette: {palettes:?}"
    );
    // Each palette holds 15 colours: at most 3 tiles of 4 colours share one.
    for p in &palettes {
        assert!(
            palettes.iter().filter(|q| *q == p).count() <= 3,
            "{palettes:?}"
        );
    }
    assert!(log[0].ends_with("nil"), "tile 100 was not filled: {log:?}");
}

#[test]
fn a_tileset_whose_tiles_are_not_the_cell_size_is_refused_where_a_layer_uses_it() {
    let tmx = |tile: u32| {
        format!(
            r#"<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="big" tilewidth="16" tileheight="16" columns="2">
  <image source="t.png" width="32" height="16"/>
 </tileset>
 <layer name="l" width="2" height="1"><data encoding="csv">{tile},0</data></layer>
</map>"#
        )
    };
    let load = |map: String| {
        let mut files = BTreeMap::new();
        files.insert(
            "cart.toml".into(),
            b"name = 'x'\n[[map]]\nfile = 'm.tmx'\n".to_vec(),
        );
        files.insert("main.lua".into(), b"".to_vec());
        files.insert("m.tmx".into(), map.into_bytes());
        let mut png_bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut png_bytes, 32, 16);
        encoder.set_color(png::ColorType::Grayscale);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&[200; 32 * 16])
            .unwrap();
        files.insert("t.png".into(), png_bytes);
        Cart::from_files(CartFiles::from_map("x", files)).map_err(|e| e.to_string())
    };
    let e = load(tmx(1)).unwrap_err();
    assert_eq!(
        e,
        "m.tmx:5: layer `l`: cell (0, 0): tileset `big` has 16x16 px tiles but the map's cells are 8 px; Kairo draws one tile per cell: use this tileset only for tile objects (in an object layer), or make its tiles 8 px squares"
    );
    assert!(load(tmx(0)).is_ok(), "a tileset no layer uses does no harm");
}
