//! Aseprite files from public game repositories (`tests/aseprite/README.md`) read as sheets
//! and compared pixel by pixel with the PNGs their authors exported; tags, durations, the
//! ping-pong reverse direction and colour profiles; damaged and cut files refused, never a
//! panic; and a cart using one through `cart.toml` and the Lua API.

use std::collections::BTreeMap;
use std::path::Path;

use kairo::cart::Cart;
use kairo::cart::art::aseprite::{self, AseSheet, Direction};
use kairo::cart::art::picture::{self, CLEAR, Clear, Picture};
use kairo::cart::files::CartFiles;
use kairo::console::Console;
use kairo::input::InputFrame;

fn read(path: &str) -> Vec<u8> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/aseprite")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn sheet(path: &str) -> AseSheet {
    aseprite::decode(path, &read(path), Clear::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn png(path: &str) -> Picture {
    picture::decode(path, &read(path), Clear::default()).unwrap()
}

/// Compares frame `frame` of `sheet` with `expected` (an export of that frame, or of a
/// horizontal sheet when `of_sheet`), and checks the padding is transparent.
fn same_frame(name: &str, sheet: &AseSheet, frame: usize, expected: &Picture, of_sheet: bool) {
    let (w, h) = sheet.size;
    let (cw, ch) = sheet.cell;
    let picture = &sheet.picture;
    assert_eq!(picture.height, ch, "{name}");
    let mut differing = 0;
    for y in 0..ch {
        for x in 0..cw {
            let got = picture.at(frame * cw + x, y);
            if x >= w || y >= h {
                assert_eq!(got, CLEAR, "{name} frame {frame}: padding at ({x}, {y})");
                continue;
            }
            let want = expected.at(if of_sheet { frame * w + x } else { x }, y);
            if got != want {
                differing += 1;
            }
        }
    }
    assert_eq!(
        differing, 0,
        "{name} frame {frame}: {differing} pixels differ from the export"
    );
}

#[test]
fn real_sprites_read_exactly_as_their_authors_exported_them() {
    // (file, its horizontal-sheet export)
    let sheets = [
        (
            "bevy-2d-platformer/player.aseprite",
            "bevy-2d-platformer/player.png",
        ),
        (
            "bevy-2d-platformer/bullet.aseprite",
            "bevy-2d-platformer/bullet.png",
        ),
        ("pocket_daemons/mob.aseprite", "pocket_daemons/mob.png"),
        ("pocket_daemons/title.aseprite", "pocket_daemons/title.png"),
        (
            "pocket_daemons/menu_pointer.aseprite",
            "pocket_daemons/menu_pointer.png",
        ),
        (
            "pocket_daemons/dialog_box.aseprite",
            "pocket_daemons/dialog_box.png",
        ),
        ("pocket_daemons/sign.aseprite", "pocket_daemons/sign.png"),
        (
            "pocket_daemons/smooth-tiles.aseprite",
            "pocket_daemons/smooth-tiles.png",
        ),
        ("bevy-jam-002/enemy.aseprite", "bevy-jam-002/enemy.png"),
        (
            "bevy-jam-002/player.aseprite",
            "bevy-jam-002/player-sad.png",
        ),
        (
            "asefile-tests/layers_and_tags.aseprite",
            "asefile-tests/layers_and_tags.png",
        ),
    ];
    for (file, export) in sheets {
        let sheet = sheet(file);
        let expected = png(export);
        let frames = sheet.durations.len();
        assert_eq!(
            (expected.width, expected.height),
            (sheet.size.0 * frames, sheet.size.1),
            "{file}: the export is its horizontal sheet"
        );
        for frame in 0..frames {
            same_frame(file, &sheet, frame, &expected, true);
        }
    }
    // (file, one export per frame)
    let framed: [(&str, &[&str]); 5] = [
        (
            "asefile-tests/indexed.aseprite",
            &["asefile-tests/indexed_01.png"],
        ),
        (
            "asefile-tests/linked_cels.aseprite",
            &[
                "asefile-tests/linked_cels_01.png",
                "asefile-tests/linked_cels_02.png",
                "asefile-tests/linked_cels_03.png",
            ],
        ),
        (
            "asefile-tests/transparency.aseprite",
            &[
                "asefile-tests/transparency_01.png",
                "asefile-tests/transparency_02.png",
            ],
        ),
        (
            "asefile-tests/blend_multiply.aseprite",
            &["asefile-tests/blend_multiply.png"],
        ),
        (
            "asefile-tests/layers_and_tags.aseprite",
            &[
                "asefile-tests/layers_and_tags_01.png",
                "asefile-tests/layers_and_tags_02.png",
                "asefile-tests/layers_and_tags_03.png",
                "asefile-tests/layers_and_tags_04.png",
            ],
        ),
    ];
    for (file, exports) in framed {
        let sheet = sheet(file);
        for (frame, export) in exports.iter().enumerate() {
            same_frame(file, &sheet, frame, &png(export), false);
        }
    }
}

#[test]
fn frames_are_padded_to_the_tile_grid_and_the_loader_says_so() {
    let bullet = sheet("bevy-2d-platformer/bullet.aseprite");
    assert_eq!((bullet.size, bullet.cell), ((3, 3), (8, 8)));
    let title = sheet("pocket_daemons/title.aseprite");
    assert_eq!((title.size, title.cell), ((94, 11), (96, 16)));
    assert_eq!((title.picture.width, title.picture.height), (96, 16));
    let note = &title.notes[0];
    assert!(
        note.contains("1 frame of 94x11 px, each padded to 96x16"),
        "{note}"
    );
    assert!(note.contains("hidden layers skipped"), "{note}");
    let player = sheet("bevy-2d-platformer/player.aseprite");
    assert!(
        player.notes[0].contains("22 frames of 64x64 px: a 1408x64 sheet"),
        "{:?}",
        player.notes
    );
    assert!(player.notes[0].contains("RGBA"));
}

#[test]
fn indexed_sprites_keep_their_indices_and_their_transparent_index() {
    // Transparent index 1 (not 0).
    let sheet = sheet("asefile-tests/indexed.aseprite");
    let (indices, palette) = sheet.picture.indexed.as_ref().expect("indices kept");
    assert!(
        sheet.notes[0].contains("indexed (transparent index 1)"),
        "{:?}",
        sheet.notes
    );
    for (i, &pixel) in sheet.picture.pixels.iter().enumerate() {
        if pixel == CLEAR {
            continue;
        }
        assert_eq!(
            palette[usize::from(indices[i])],
            pixel,
            "pixel {i} keeps its entry"
        );
    }
    let clear = sheet.picture.pixels.iter().filter(|&&p| p == CLEAR).count();
    assert!(clear > 0, "the transparent index shows nothing");
    // A CC0 game's indexed sprites (transparent index 0, palette in the old chunk).
    let mob = self::sheet("pocket_daemons/mob.aseprite");
    let (indices, _) = mob.picture.indexed.as_ref().expect("indices kept");
    assert!(
        mob.picture
            .pixels
            .iter()
            .zip(indices)
            .all(|(&p, &i)| (p == CLEAR) == (i == 0)),
        "index 0, and only it, is transparent"
    );
}

#[test]
fn tags_durations_and_directions_come_from_the_file() {
    let player = sheet("bevy-2d-platformer/player.aseprite");
    let tags: Vec<(&str, usize, usize, Direction)> = player
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.from, t.to, t.direction))
        .collect();
    assert_eq!(
        tags,
        [
            ("idle", 0, 12, Direction::Forward),
            ("run", 13, 19, Direction::Forward),
            ("jump", 20, 21, Direction::Forward)
        ]
    );
    assert_eq!(player.durations.len(), 22);
    assert!(player.durations.iter().all(|&d| (80..=1200).contains(&d)));
    assert_eq!(player.durations.iter().copied().max(), Some(1200));
    let ultra = sheet("bevy_aseprite_ultra/player.aseprite");
    assert!(
        ultra
            .tags
            .iter()
            .any(|t| t.direction == Direction::PingPong && t.repeat == 1),
        "{:?}",
        ultra.tags
    );
    // Aseprite 1.3's ping-pong reverse, which the asefile crate alone refuses.
    let ball = sheet("bevy_aseprite_ultra/ball.aseprite");
    assert!(
        ball.tags
            .iter()
            .any(|t| t.direction == Direction::PingPongReverse),
        "{:?}",
        ball.tags
    );
}

#[test]
fn a_colour_profile_is_ignored_as_a_pngs_is_and_the_loader_says_so() {
    let sheet = sheet("asefile-tests/color-curve.aseprite");
    assert!(
        sheet
            .notes
            .iter()
            .any(|n| n.contains("colour profile is ignored")),
        "{:?}",
        sheet.notes
    );
}

/// A tiny deterministic generator for the damage below.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn damaged_and_cut_files_are_refused_by_name_and_never_panic() {
    let files = [
        "bevy-2d-platformer/player.aseprite",
        "pocket_daemons/mob.aseprite",
        "asefile-tests/linked_cels.aseprite",
        "asefile-tests/layers_and_tags.aseprite",
        "bevy_aseprite_ultra/player.aseprite",
        "asefile-tests/indexed.aseprite",
    ];
    let mut seed = 7;
    for file in files {
        let bytes = read(file);
        // Cut anywhere.
        for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
            let e = aseprite::decode("x.aseprite", &bytes[..cut], Clear::default())
                .expect_err("a cut file is refused");
            assert!(e.to_string().starts_with("x.aseprite: "), "{e}");
        }
        // Bytes changed anywhere: refused or read, never a panic.
        for _ in 0..300 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + lcg(&mut seed) % 4 {
                let at = lcg(&mut seed) as usize % damaged.len();
                damaged[at] = lcg(&mut seed) as u8;
            }
            if let Err(e) = aseprite::decode("x.aseprite", &damaged, Clear::default()) {
                assert!(e.to_string().starts_with("x.aseprite: "), "{e}");
            }
        }
    }
    let e = aseprite::decode(
        "x.aseprite",
        b"not an aseprite file at all",
        Clear::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("not an Aseprite file"), "{e}");
}

fn cart(files: &[(&str, Vec<u8>)]) -> Result<Cart, String> {
    let map: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Cart::from_files(CartFiles::from_map("ase", map)).map_err(|e| e.to_string())
}

#[test]
fn a_cart_plays_an_aseprite_sheets_tags_from_lua() {
    let toml = "name = 'ase'\n[[sheet]]\nfile = 'gfx/hero.aseprite'\ntile = 0\npalette = 1\n\
                [[sheet]]\nfile = 'gfx/mob.aseprite'\ntile = 1024\npalette = 4\n";
    let main = "function init()
          for _, t in ipairs(sheet_tags('gfx/hero.aseprite')) do
            log(t.name, t.from, t.to, t.direction, t.times)
          end
          local frames, w, h = sheet_frames('gfx/mob.aseprite')
          log('mob', #frames, w, h, frames[1].tile, frames[2].tile, frames[1].pal, frames[1].ms, frames[1].frames)
          log(pcall(sheet_anim, 'gfx/hero.aseprite', 'fly', 0))
        end
        local t = 0
        function update()
          local tile, pal, frame, done = sheet_anim('gfx/hero.aseprite', 'walk-right', t)
          if t % 10 == 0 then log(t, frame, done) end
          t = t + 1
        end";
    let cart = cart(&[
        ("cart.toml", toml.into()),
        ("main.lua", main.into()),
        (
            "gfx/hero.aseprite",
            read("bevy_aseprite_ultra/player.aseprite"),
        ),
        ("gfx/mob.aseprite", read("pocket_daemons/mob.aseprite")),
    ])
    .unwrap();
    assert!(
        cart.notes.iter().any(|n| n.starts_with(
            "gfx/mob.aseprite: Aseprite, indexed (transparent index 0), 6 frames of 16x64 px: a 96x64 sheet"
        )),
        "{:?}",
        cart.notes
    );
    let mut console = Console::new(cart).unwrap();
    let log = console.take_log();
    assert_eq!(
        log[..5],
        [
            "idle 0 1 forward 0",
            "walk-down 2 5 forward 0",
            "walk-up 6 9 forward 0",
            "walk-right 10 13 pingpong 1",
            // 16 px wide frames from tile 1024: 2 tiles apart; 200 ms = 12 machine frames.
            "mob 6 16 64 1024 1026 4 200 12",
        ]
    );
    assert!(
        log[5].contains("the sheet has no tag \"fly\""),
        "{}",
        log[5]
    );
    for _ in 0..60 {
        console.run_frame(InputFrame::NONE).unwrap();
    }
    // walk-right: frames 10-13 once forward (its repeat is 1), then it holds frame 13.
    let played: Vec<String> = console.take_log();
    assert_eq!(played[0], "0 10 false");
    assert_eq!(played.last().unwrap(), "50 13 true");
}

/// A Tiled tileset over `image`, and a map showing its first tiles.
fn tileset_cart(image: &str, bytes: Vec<u8>) -> Cart {
    let tsx = format!(
        r#"<tileset name="t" tilewidth="16" tileheight="16" tilecount="256" columns="16">
 <image source="{image}" width="256" height="256"/>
</tileset>"#
    );
    let tmx = r#"<map orientation="orthogonal" width="4" height="2" tilewidth="16" tileheight="16">
 <tileset firstgid="1" source="t.tsx"/>
 <layer name="l" width="4" height="2"><data encoding="csv">1,2,3,4,17,18,19,20</data></layer>
</map>"#;
    let main = "function init() map_load('m', 'l', 0) layer_on(0) end";
    cart(&[
        (
            "cart.toml",
            b"name = 't'\n[[map]]\nfile = 'm.tmx'\n".to_vec(),
        ),
        ("main.lua", main.into()),
        ("m.tmx", tmx.into()),
        ("t.tsx", tsx.into_bytes()),
        (image, bytes),
    ])
    .unwrap()
}

#[test]
fn a_tiled_tileset_image_may_be_an_aseprite_file() {
    let from_png = tileset_cart("tiles.png", read("pocket_daemons/smooth-tiles.png"));
    let from_ase = tileset_cart(
        "tiles.aseprite",
        read("pocket_daemons/smooth-tiles.aseprite"),
    );
    assert!(
        from_ase
            .notes
            .iter()
            .any(|n| n.starts_with("tiles.aseprite: Aseprite, indexed")),
        "{:?}",
        from_ase.notes
    );
    let mut pictures = Vec::new();
    for cart in [from_png, from_ase] {
        let mut console = Console::new(cart).unwrap();
        console.run_frame(InputFrame::NONE).unwrap();
        pictures.push(console.rgba().to_vec());
    }
    assert_eq!(
        pictures[0], pictures[1],
        "the map looks the same from either image"
    );
    assert!(
        pictures[0].chunks(4).any(|p| p[..3] != pictures[0][..3]),
        "something is drawn"
    );
}

/// A minimal Aseprite file: `w` x `h`, one frame whose chunks are `chunks` (type, data).
fn ase_file(w: u16, h: u16, depth: u16, chunks: &[(u16, Vec<u8>)]) -> Vec<u8> {
    let mut frame = Vec::new();
    for (kind, data) in chunks {
        frame.extend_from_slice(&(data.len() as u32 + 6).to_le_bytes());
        frame.extend_from_slice(&kind.to_le_bytes());
        frame.extend_from_slice(data);
    }
    let mut header = vec![0u8; 128];
    let total = 128 + 16 + frame.len();
    header[0..4].copy_from_slice(&(total as u32).to_le_bytes());
    header[4..6].copy_from_slice(&0xA5E0u16.to_le_bytes());
    header[6..8].copy_from_slice(&1u16.to_le_bytes());
    header[8..10].copy_from_slice(&w.to_le_bytes());
    header[10..12].copy_from_slice(&h.to_le_bytes());
    header[12..14].copy_from_slice(&depth.to_le_bytes());
    header[34] = 1;
    header[35] = 1;
    let mut out = header;
    out.extend_from_slice(&((16 + frame.len()) as u32).to_le_bytes());
    out.extend_from_slice(&0xF1FAu16.to_le_bytes());
    out.extend_from_slice(&(chunks.len() as u16).to_le_bytes());
    out.extend_from_slice(&100u16.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    out.extend_from_slice(&frame);
    out
}

/// A layer chunk's data: visible, of `kind` (0 image, 2 tilemap), named `name`.
fn layer_chunk(kind: u16, name: &str) -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(&1u16.to_le_bytes()); // visible
    data.extend_from_slice(&kind.to_le_bytes());
    data.extend_from_slice(&[0; 2 + 4]); // child level, default size
    data.extend_from_slice(&0u16.to_le_bytes()); // blend: normal
    data.extend_from_slice(&[255, 0, 0, 0]);
    data.extend_from_slice(&(name.len() as u16).to_le_bytes());
    data.extend_from_slice(name.as_bytes());
    if kind == 2 {
        data.extend_from_slice(&0u32.to_le_bytes());
    }
    data
}

#[test]
fn what_kairo_cannot_show_is_refused_naming_the_layer_frame_or_tile() {
    let tilemap = ase_file(16, 16, 32, &[(0x2004, layer_chunk(2, "ground"))]);
    let e = aseprite::decode("map.aseprite", &tilemap, Clear::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("map.aseprite: layer \"ground\" is a tilemap layer"),
        "{e}"
    );
    let unknown = ase_file(16, 16, 32, &[(0x2099, vec![0; 4])]);
    let e = aseprite::decode("new.aseprite", &unknown, Clear::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("frame 0, chunk 0: chunk type 0x2099 is not one this reader knows"),
        "{e}"
    );
    // Too many colours in a tile: the refusal names the tile and its frame.
    let toml =
        "name = 'c'\n[[sheet]]\nfile = 'b.aseprite'\ntile = 0\npalette = 1\ntile_size = 16\n";
    let e = cart(&[
        ("cart.toml", toml.into()),
        ("main.lua", b"".to_vec()),
        ("b.aseprite", read("asefile-tests/blend_multiply.aseprite")),
    ])
    .unwrap_err();
    assert!(
        e.contains("b.aseprite: 256 of its tiles use more than 15 colours: tile 0 in frame 0 ("),
        "{e}"
    );
}

#[test]
fn cels_claiming_more_pixels_than_any_sheet_can_show_are_refused_before_reading_them() {
    // Three 4096x4096 cels on a 16x16 sprite: 48M pixels, over the 32M a file may hold.
    let side = 4096u16;
    let mut chunks: Vec<(u16, Vec<u8>)> = (0..3)
        .map(|i| (0x2004, layer_chunk(0, &format!("l{i}"))))
        .collect();
    for layer in 0..3u16 {
        let mut cel = Vec::new();
        cel.extend_from_slice(&layer.to_le_bytes());
        cel.extend_from_slice(&[0, 0, 0, 0, 255]); // x, y, opacity
        cel.extend_from_slice(&0u16.to_le_bytes()); // raw
        cel.extend_from_slice(&[0; 2 + 5]); // z-index, reserved
        cel.extend_from_slice(&side.to_le_bytes());
        cel.extend_from_slice(&side.to_le_bytes());
        cel.resize(cel.len() + usize::from(side) * usize::from(side), 0);
        chunks.push((0x2005, cel));
    }
    let file = ase_file(16, 16, 8, &chunks);
    let e = aseprite::decode("big.aseprite", &file, Clear::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("big.aseprite: frame 0, chunk 5: its cels hold more than 33554432 pixels"),
        "{e}"
    );
}

#[test]
fn an_opaque_pixel_takes_the_lowest_entry_of_its_colour_that_is_not_the_transparent_one() {
    // Entries 0 (transparent) and 1 are both black: the outline drawn with entry 1 keeps 1.
    let colours: [[u8; 3]; 3] = [[0, 0, 0], [0, 0, 0], [200, 40, 40]];
    let mut palette = Vec::new();
    palette.extend_from_slice(&3u32.to_le_bytes());
    palette.extend_from_slice(&0u32.to_le_bytes());
    palette.extend_from_slice(&2u32.to_le_bytes());
    palette.extend_from_slice(&[0; 8]);
    for [r, g, b] in colours {
        palette.extend_from_slice(&[0, 0, r, g, b, 255]);
    }
    let mut cel = Vec::new();
    cel.extend_from_slice(&[0, 0, 0, 0, 0, 0, 255]); // layer 0, x, y, opacity
    cel.extend_from_slice(&0u16.to_le_bytes()); // raw
    cel.extend_from_slice(&[0; 2 + 5]);
    cel.extend_from_slice(&8u16.to_le_bytes());
    cel.extend_from_slice(&8u16.to_le_bytes());
    let pixels: Vec<u8> = (0..64).map(|i| [0, 1, 2][i % 3]).collect();
    cel.extend_from_slice(&pixels);
    let file = ase_file(
        8,
        8,
        8,
        &[
            (0x2019, palette),
            (0x2004, layer_chunk(0, "art")),
            (0x2005, cel),
        ],
    );
    let sheet = aseprite::decode("p.aseprite", &file, Clear::default()).unwrap();
    let (indices, _) = sheet.picture.indexed.as_ref().expect("indices kept");
    assert_eq!(&indices[..6], &[0, 1, 2, 0, 1, 2]);
    assert_eq!(
        sheet.picture.pixels[0], CLEAR,
        "the transparent index shows nothing"
    );
    assert_eq!(
        sheet.picture.pixels[1], 0x000000,
        "entry 1 is black and drawn"
    );
}
