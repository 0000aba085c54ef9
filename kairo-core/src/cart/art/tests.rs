//! The importer on hand-made pictures: banks, palettes, cuts, placement and refusals.

use super::picture::tests::encode;
use super::*;
use crate::video::palette::PaletteRam;

/// An RGBA PNG `w` x `h` whose pixel (x, y) is `colour(x, y)` (`None` = transparent).
fn rgba(w: u32, h: u32, colour: impl Fn(u32, u32) -> Option<u32>) -> Vec<u8> {
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            match colour(x, y) {
                Some(c) => data.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8, 255]),
                None => data.extend_from_slice(&[0, 0, 0, 0]),
            }
        }
    }
    encode(
        w,
        h,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        None,
        &data,
    )
}

fn request(tile: u32, palette: u8, tile_size: usize) -> SheetRequest {
    SheetRequest {
        tile,
        palette,
        tile_size,
        clear: picture::Clear::default(),
    }
}

#[test]
fn a_4_bit_indexed_sheet_keeps_its_indices_and_loads_its_palette() {
    // 8x8, two pixels per byte: row y is indices (y, 1, 2, ..., 7) in the left pixels.
    let mut data = Vec::new();
    for y in 0..8u8 {
        for pair in 0..4u8 {
            let (left, right) = (if pair == 0 { y } else { pair * 2 }, pair * 2 + 1);
            data.push(left << 4 | right);
        }
    }
    let palette: Vec<u8> = (0..16u8).flat_map(|i| [i * 16, 255 - i * 16, 7]).collect();
    let bytes = encode(
        8,
        8,
        png::ColorType::Indexed,
        png::BitDepth::Four,
        Some(palette),
        &data,
    );
    let mut art = Art::default();
    // Index 0 (used in the left column) is opaque in this PNG: the cart names it transparent.
    let mut asked = request(17, 3, 8);
    asked.clear.index = Some(0);
    art.load_sheet("a.png", &bytes, asked).unwrap();
    assert_eq!(art.vram.vram.pixel(17, 0, 5), 5);
    assert_eq!(art.vram.vram.pixel(17, 7, 2), 7);
    assert_eq!(art.palettes.ram.get(3 * 16 + 2), 0x20DF07);
    assert_eq!(
        art.palettes.ram.get(3 * 16),
        PaletteRam::default().get(48),
        "colour 0 untouched"
    );
    assert_eq!(
        art.palettes.ram.get(4 * 16 + 1),
        PaletteRam::default().get(65),
        "only used banks load"
    );
    assert_eq!(art.vram.palettes[17], Some(3));
}

#[test]
fn an_indexed_sheet_with_tiles_in_several_banks_gives_each_tile_its_bank() {
    // Two 8x8 tiles: the left uses entries 1-2 (bank 0), the right entries 17-18 (bank 1).
    let mut data = Vec::new();
    for _ in 0..8 {
        data.extend_from_slice(&[1, 2, 1, 2, 1, 2, 1, 2, 17, 18, 17, 18, 17, 18, 17, 18]);
    }
    let palette: Vec<u8> = (0..32u8).flat_map(|i| [i, i, i]).collect();
    let bytes = encode(
        16,
        8,
        png::ColorType::Indexed,
        png::BitDepth::Eight,
        Some(palette),
        &data,
    );
    let mut art = Art::default();
    art.load_sheet("b.png", &bytes, request(0, 5, 8)).unwrap();
    assert_eq!(art.vram.palettes[0], Some(5));
    assert_eq!(
        art.vram.palettes[1],
        Some(6),
        "the second bank is the next palette"
    );
    assert_eq!(
        art.vram.vram.pixel(1, 0, 0),
        1,
        "index 17 keeps its low 4 bits"
    );
    assert_eq!(art.palettes.ram.get(6 * 16 + 2), 0x121212);
}

#[test]
fn a_truecolour_sheet_maps_onto_free_palette_slots() {
    // 8x8: the first column is transparent, even columns red, odd columns blue.
    let bytes = rgba(8, 8, |x, _| match x {
        0 => None,
        x if x % 2 == 0 => Some(0xFF0000),
        _ => Some(0x0000FF),
    });
    let mut art = Art::default();
    art.palettes.set(2, 1, 0x0000FF);
    art.load_sheet("c.png", &bytes, request(0, 2, 8)).unwrap();
    assert_eq!(art.vram.vram.pixel(0, 0, 0), 0, "alpha 0 is transparent");
    assert_eq!(
        art.vram.vram.pixel(0, 1, 0),
        1,
        "blue reuses the palette's colour 1"
    );
    assert_eq!(
        art.vram.vram.pixel(0, 2, 0),
        2,
        "red takes the first free slot"
    );
    assert_eq!(art.palettes.ram.get(2 * 16 + 2), 0xFF0000);
}

/// A sheet of `tiles` 16 px tiles in a row; tile k uses 10 colours starting at k * 6.
fn many_colour_strip(tiles: u32) -> Vec<u8> {
    rgba(16 * tiles, 16, |x, y| {
        Some(0x010000 * ((x / 16) * 6 + (x + y) % 10))
    })
}

#[test]
fn a_sheet_with_more_colours_than_a_palette_is_split_per_tile() {
    // 4 tiles of 10 colours, overlapping by 4 with their neighbours: 28 colours in all.
    let bytes = many_colour_strip(4);
    let mut art = Art::default();
    art.load_sheet("d.png", &bytes, request(0, 3, 16)).unwrap();
    let palettes: Vec<Option<u8>> = (0..4).map(|k| art.vram.palettes[k * 2]).collect();
    assert!(palettes.iter().all(Option::is_some));
    assert_eq!(palettes[0], Some(3), "the sheet's own palette comes first");
    assert!(palettes.iter().any(|p| *p != Some(3)), "{palettes:?}");
    // Every pixel shows its true colour through its tile's palette.
    for k in 0..4usize {
        let palette = usize::from(art.vram.palettes[k * 2].unwrap());
        for (x, y) in [(0, 0), (5, 3), (15, 15)] {
            let tile = k * 2 + x / 8 + (y / 8) * 16;
            let index = art.vram.vram.pixel(tile, x % 8, y % 8);
            let want = 0x010000 * ((k as u32) * 6 + (x as u32 + k as u32 * 16 + y as u32) % 10);
            assert_eq!(
                art.palettes.ram.get((palette * 16) as u8 + index),
                want,
                "tile {k} ({x}, {y})"
            );
        }
    }
    assert!(
        art.warnings[0].contains("its tiles were split over palettes 3, 4"),
        "{:?}",
        art.warnings
    );
}

#[test]
fn a_sheet_wider_than_vram_is_cut_in_tile_order() {
    // 20 tiles of 16 px in one row (320 px): tile k is solid colour k + 1 (mod 15).
    let bytes = rgba(320, 16, |x, _| Some(0x000100 * (x / 16 % 15 + 1)));
    let mut art = Art::default();
    let sheet = art.load_sheet("e.png", &bytes, request(32, 0, 16)).unwrap();
    assert_eq!(sheet.cut, Some(16));
    // 8 blocks of 2x2 per VRAM row: tile 9 is the second block of the second block row.
    let top = slot_tile(8 + 9, 2);
    assert_eq!(top, 32 * 2 + 2);
    let index = art.vram.vram.pixel(top + 17, 7, 7);
    assert_eq!(art.palettes.ram.get(index), 0x000100 * 10);
    // `kairo check` says where the blocks went: full bands of 8 blocks are consecutive
    // tiles (two pattern rows each), a part band is two runs.
    assert_eq!(
        art.notes,
        [
            "e.png: 320x16 px, wider than 128 px, so cut into 20 tiles of 16 px, placed in Tiled's order 8 to a row of pattern VRAM from pattern tile 32: tiles 0-15 -> pattern tiles 32-95; tiles 16-19 -> pattern tiles 96-103, 112-119; tile k's top-left is pattern tile 32 + (k // 8) * 32 + (k % 8) * 2"
        ]
    );
    // From the middle of a row: the first band is a part band too.
    let mut art = Art::default();
    art.load_sheet("e.png", &bytes, request(8, 0, 16)).unwrap();
    assert_eq!(
        art.notes,
        [
            "e.png: 320x16 px, wider than 128 px, so cut into 20 tiles of 16 px, placed in Tiled's order 8 to a row of pattern VRAM from pattern tile 8: tiles 0-3 -> pattern tiles 8-15, 24-31; tiles 4-19 -> pattern tiles 32-95; tile k's top-left is pattern tile ((k + 4) // 8) * 32 + ((k + 4) % 8) * 2"
        ]
    );
    let e = art
        .load_sheet("e.png", &bytes, request(1, 0, 16))
        .unwrap_err();
    assert!(e.message.contains("boundary"), "{e}");
    let narrow = rgba(24, 8, |_, _| Some(1));
    let e = art
        .load_sheet("f.png", &narrow, request(0, 0, 16))
        .unwrap_err();
    assert!(e.message.contains("multiple of 16"), "{e}");
}

#[test]
fn a_tile_with_more_than_15_colours_is_refused_by_number() {
    let bytes = rgba(32, 16, |x, y| Some(if x < 16 { x + y * 16 } else { 1 }));
    let mut art = Art::default();
    let e = art
        .load_sheet("g.png", &bytes, request(0, 0, 16))
        .unwrap_err();
    assert_eq!(e.file, "g.png");
    assert!(
        e.message
            .contains("1 of its tiles use more than 15 colours: tile 0 (256 colours);"),
        "{e}"
    );
}

#[test]
fn running_out_of_palettes_is_refused_naming_tiles() {
    // 17 tiles with 15 colours each, none shared: one palette each, and there are 16.
    let bytes = rgba(17 * 8, 8, |x, y| Some((x / 8) * 1000 + (x % 8 + y) % 15));
    let mut art = Art::default();
    let e = art
        .load_sheet("h.png", &bytes, request(0, 0, 8))
        .unwrap_err();
    assert!(
        e.message
            .contains("need more palettes than are free: tiles 16 found no room"),
        "{e}"
    );
}

#[test]
fn tileset_images_import_whole_with_margin_spacing_and_colour_key() {
    // Tiled's desert-style cut: margin 1, spacing 1, 16 px tiles, 3 x 2 tiles; magenta is
    // the colour key and the 1 px lines between tiles are grey (never read).
    let cut = Cut {
        size: 16,
        margin: 1,
        spacing: 1,
    };
    let (w, h) = (1 + 3 * 17, 1 + 2 * 17);
    let bytes = rgba(w, h, |x, y| {
        let (cx, cy) = ((x.max(1) - 1) % 17, (y.max(1) - 1) % 17);
        if x == 0 || y == 0 || cx == 16 || cy == 16 {
            Some(0x808080)
        } else if cx < 4 {
            Some(0xFF00FF)
        } else {
            Some(0x100 * ((x - 1) / 17 + 3 * ((y - 1) / 17) + 1))
        }
    });
    let picture = picture::decode("t.png", &bytes, picture::Clear::key(Some(0xFF00FF))).unwrap();
    let mut art = Art::default();
    art.vram.take(0, 1, None);
    let layout = art
        .import_tileset("t.png", &picture, cut, &BTreeSet::new())
        .unwrap();
    assert_eq!(layout.blocks.len(), 6);
    let (tile, palette) = layout.blocks[4].unwrap();
    assert_eq!(
        tile,
        slot_tile(5, 2) as u16,
        "slot 0 touches the taken tile 0"
    );
    assert_eq!(
        art.vram.vram.pixel(usize::from(tile), 2, 2),
        0,
        "the colour key is clear"
    );
    let index = art.vram.vram.pixel(usize::from(tile), 6, 2);
    assert_eq!(art.palettes.ram.get(palette * 16 + index), 0x500);
    assert!(art.notes[0].contains("whole image"), "{:?}", art.notes);
}

#[test]
fn a_tileset_too_big_for_vram_loads_only_the_tiles_maps_use() {
    // 600 tiles of 16 px need 2400 pattern tiles; VRAM has 2048.
    let bytes = rgba(16 * 30, 16 * 20, |x, y| {
        Some((x / 16 + y / 16 * 30) % 7 + 1)
    });
    let picture = picture::decode("big.png", &bytes, picture::Clear::default()).unwrap();
    let mut art = Art::default();
    let wanted: BTreeSet<usize> = [3, 599, 10].into();
    let layout = art
        .import_tileset("big.png", &picture, Cut::plain(16), &wanted)
        .unwrap();
    let loaded: Vec<usize> = (0..600).filter(|&k| layout.blocks[k].is_some()).collect();
    assert_eq!(loaded, [3, 10, 599]);
    assert_eq!(layout.blocks[3].unwrap().0, 0);
    assert!(
        art.notes[0].contains("only the 3 of its 600 tiles"),
        "{:?}",
        art.notes
    );
    // When even those do not fit, the refusal says what would.
    let mut full = Art::default();
    for slot in 0..VramBuilder::slots(2) - 1 {
        full.vram.take(slot_tile(slot, 2), 2, None);
    }
    let e = full
        .import_tileset("big.png", &picture, Cut::plain(16), &wanted)
        .unwrap_err();
    assert!(e.message.contains("crop the image"), "{e}");
}
