//! Per-feature tests of the video unit on hand-built VRAM, compared against expected pixels.

use super::*;
use crate::spec::{SCREEN_H, SCREEN_W};
use cell::Cell;

/// Tile `tile` gets pixel (x, y) = 1 + (x + y) % 15: no transparent pixels, no symmetry.
fn gradient_tile(video: &mut Video, tile: usize) {
    for y in 0..8 {
        for x in 0..8 {
            video
                .patterns
                .set_pixel(tile, x, y, (1 + (x + y) % 15) as u8);
        }
    }
}

fn solid_tile(video: &mut Video, tile: usize, color: u8) {
    for y in 0..8 {
        for x in 0..8 {
            video.patterns.set_pixel(tile, x, y, color);
        }
    }
}

fn compose(video: &Video) -> Framebuffer {
    let mut fb = Framebuffer::default();
    video.compose(&mut fb, &[]);
    fb
}

fn gradient(x: usize, y: usize) -> u8 {
    (1 + (x + y) % 15) as u8
}

#[test]
fn empty_machine_shows_the_backdrop() {
    let fb = compose(&Video::default());
    assert!((0..SCREEN_H).all(|y| fb.row(y).iter().all(|&p| p == 0)));
}

#[test]
fn layer_cells_show_tiles_with_palette_and_flips() {
    let mut video = Video::default();
    gradient_tile(&mut video, 1);
    let layer = &mut video.layers[0];
    layer.enabled = true;
    layer.set_cell(0, 0, Cell::new(1, 2, false, false)).unwrap();
    layer.set_cell(1, 0, Cell::new(1, 3, true, false)).unwrap();
    layer.set_cell(2, 0, Cell::new(1, 4, false, true)).unwrap();
    layer.set_cell(3, 0, Cell::new(1, 5, true, true)).unwrap();
    let fb = compose(&video);
    for y in 0..8 {
        for x in 0..8 {
            assert_eq!(fb.get(x, y), 0x20 | gradient(x, y));
            assert_eq!(fb.get(8 + x, y), 0x30 | gradient(7 - x, y));
            assert_eq!(fb.get(16 + x, y), 0x40 | gradient(x, 7 - y));
            assert_eq!(fb.get(24 + x, y), 0x50 | gradient(7 - x, 7 - y));
        }
    }
    assert_eq!(fb.get(32, 0), 0, "tile 0 is blank: backdrop shows");
}

#[test]
fn sixteen_pixel_cells_use_a_2x2_block_and_flip_it_whole() {
    let mut video = Video::default();
    for (i, tile) in [10, 11, 26, 27].into_iter().enumerate() {
        solid_tile(&mut video, tile, i as u8 + 1);
    }
    let layer = &mut video.layers[1];
    layer.enabled = true;
    layer.configure(16, 16, 16).unwrap();
    layer
        .set_cell(0, 0, Cell::new(10, 0, false, false))
        .unwrap();
    layer.set_cell(1, 0, Cell::new(10, 0, true, true)).unwrap();
    let fb = compose(&video);
    assert_eq!(
        [fb.get(0, 0), fb.get(8, 0), fb.get(0, 8), fb.get(8, 8)],
        [1, 2, 3, 4]
    );
    assert_eq!(
        [fb.get(16, 0), fb.get(24, 0), fb.get(16, 8), fb.get(24, 8)],
        [4, 3, 2, 1]
    );
}

#[test]
fn thirty_two_pixel_cells_use_a_4x4_block_and_flip_it_whole() {
    let mut video = Video::default();
    // Block from tile 4: tile (i, j) of the block is solid colour 1 + (i + 4 * j) % 15.
    let colour = |i: usize, j: usize| (1 + (i + 4 * j) % 15) as u8;
    for j in 0..4 {
        for i in 0..4 {
            solid_tile(&mut video, 4 + i + j * 16, colour(i, j));
        }
    }
    let layer = &mut video.layers[0];
    layer.enabled = true;
    layer.configure(8, 8, 32).unwrap();
    layer.set_cell(0, 0, Cell::new(4, 0, false, false)).unwrap();
    layer.set_cell(1, 0, Cell::new(4, 0, true, true)).unwrap();
    let fb = compose(&video);
    for j in 0..4 {
        for i in 0..4 {
            assert_eq!(fb.get(i * 8 + 3, j * 8 + 5), colour(i, j));
            assert_eq!(fb.get(32 + i * 8 + 3, j * 8 + 5), colour(3 - i, 3 - j));
        }
    }
}

#[test]
fn empty_cells_draw_nothing_whatever_their_tile_holds() {
    let mut video = Video::default();
    solid_tile(&mut video, 0, 5);
    solid_tile(&mut video, 1, 7);
    for (number, cell) in [(0, Cell::EMPTY), (1, Cell::new(1, 0, false, false))] {
        let layer = &mut video.layers[number];
        layer.enabled = true;
        layer.fill(cell);
    }
    let fb = compose(&video);
    assert!(
        (0..SCREEN_H).all(|y| fb.row(y).iter().all(|&p| p == 7)),
        "layer 1 shows through the empty layer 0, tile 0 never drawn"
    );
    video.layers[0].set_line_scroll(3, 1, 0);
    let fb = compose(&video);
    assert!((0..SCREEN_H).all(|y| fb.row(y).iter().all(|&p| p == 7)));
}

#[test]
fn animated_tiles_show_the_current_frame() {
    let mut video = Video::default();
    solid_tile(&mut video, 1, 4);
    solid_tile(&mut video, 2, 6);
    let layer = &mut video.layers[0];
    layer.enabled = true;
    layer.fill(Cell::new(1, 0, false, false));
    let frame = |tile, frames| anim::AnimFrame {
        tile,
        palette: Some(2),
        frames,
    };
    video
        .anims
        .set(anim::TileAnim {
            tile: 1,
            frames: vec![frame(1, 3), frame(2, 2)],
        })
        .unwrap();
    let colours: Vec<u8> = (0..6)
        .map(|now| {
            video.anims.update(now);
            compose(&video).get(100, 100)
        })
        .collect();
    assert_eq!(colours, [0x24, 0x24, 0x24, 0x26, 0x26, 0x24]);
}

#[test]
fn scroll_wraps_in_both_directions() {
    let mut video = Video::default();
    gradient_tile(&mut video, 1);
    let layer = &mut video.layers[0];
    layer.enabled = true;
    layer.configure(40, 40, 8).unwrap(); // 320 px: not a power of two
    layer.set_cell(0, 0, Cell::new(1, 1, false, false)).unwrap();
    // Scrolled so that the layer's origin appears at screen (3, 5).
    layer.scroll_x = -3;
    layer.scroll_y = 320 * 7 - 5;
    let fb = compose(&video);
    assert_eq!(fb.get(3, 5), 0x10 | gradient(0, 0));
    assert_eq!(fb.get(10, 12), 0x10 | gradient(7, 7));
    assert_eq!(fb.get(2, 5), 0);
    assert_eq!(fb.get(11, 12), 0);
    // Scroll by a whole layer width shows the same picture.
    video.layers[0].scroll_x = -3 + 320 * 3;
    assert_eq!(compose(&video), fb);
}

#[test]
fn transparent_pixels_show_lower_layers_and_priority_orders_layers() {
    let mut video = Video::default();
    solid_tile(&mut video, 1, 5);
    video.patterns.set_pixel(2, 0, 0, 9); // tile 2: one opaque pixel
    for (i, tile) in [(0, 2), (1, 1)] {
        let layer = &mut video.layers[i];
        layer.enabled = true;
        layer.fill(Cell::new(tile, i as u8, false, false));
    }
    // Same priority: layer 0 is in front.
    let fb = compose(&video);
    assert_eq!(fb.get(0, 0), 0x09);
    assert_eq!(fb.get(1, 0), 0x15);
    // Layer 1 at a higher priority covers layer 0 entirely.
    video.layers[1].priority = 1;
    let fb = compose(&video);
    assert_eq!(fb.get(0, 0), 0x15);
}

#[test]
fn sprites_draw_blocks_with_flips_and_priority_against_layers() {
    let mut video = Video::default();
    for (i, tile) in [100, 101, 116, 117].into_iter().enumerate() {
        solid_tile(&mut video, tile, i as u8 + 1);
    }
    solid_tile(&mut video, 1, 15);
    let layer = &mut video.layers[0];
    layer.enabled = true;
    layer.priority = 1;
    layer.fill(Cell::new(1, 0, false, false));
    video.oam[0] = Sprite::new(10, 20, 100, 2)
        .unwrap()
        .with_style(6, 2, true, false);
    video.oam[1] = Sprite::new(40, 20, 100, 2)
        .unwrap()
        .with_style(6, 0, false, false);
    let fb = compose(&video);
    // Flipped horizontally: tile 101 on the left, 100 on the right.
    assert_eq!(
        [
            fb.get(10, 20),
            fb.get(18, 20),
            fb.get(10, 28),
            fb.get(18, 28)
        ],
        [0x62, 0x61, 0x64, 0x63]
    );
    // Priority 0 is behind the layer at priority 1.
    assert_eq!(fb.get(40, 20), 0x0F);
    // Lower OAM index in front when sprites overlap.
    video.oam[1] = Sprite::new(18, 20, 100, 2)
        .unwrap()
        .with_style(7, 2, false, false);
    let fb = compose(&video);
    assert_eq!(fb.get(18, 20), 0x61, "sprite 0 in front of sprite 1");
    assert_eq!(fb.get(26, 20), 0x72);
}

#[test]
fn sprites_clip_at_every_edge_and_at_negative_positions() {
    let mut video = Video::default();
    for t in 0..64 {
        let tile = 200 + (t / 8) * 16 + t % 8;
        for y in 0..8 {
            for x in 0..8 {
                let (px, py) = ((t % 8) * 8 + x, (t / 8) * 8 + y);
                video
                    .patterns
                    .set_pixel(tile, x, y, (1 + (px + py) % 15) as u8);
            }
        }
    }
    // 64x64 sprites hanging over each edge and each corner.
    let positions = [
        (-13, 100),
        (250, 100),
        (100, -61),
        (100, 255),
        (-63, -63),
        (255, 255),
        (-5, 250),
    ];
    for (i, &(x, y)) in positions.iter().enumerate() {
        video.oam[i] = Sprite::new(x, y, 200, 8)
            .unwrap()
            .with_style(1, 2, false, false);
    }
    video.oam[10] = Sprite::new(-64, 0, 200, 8).unwrap(); // entirely off-screen
    video.oam[11] = Sprite::new(256, 0, 200, 8).unwrap();
    let fb = compose(&video);
    for y in 0..SCREEN_H as i32 {
        for x in 0..SCREEN_W as i32 {
            let expected = positions
                .iter()
                .find(|&&(sx, sy)| (sx..sx + 64).contains(&x) && (sy..sy + 64).contains(&y))
                .map(|&(sx, sy)| 0x10 | (1 + ((x - sx) + (y - sy)) % 15) as u8)
                .unwrap_or(0);
            assert_eq!(fb.get(x as usize, y as usize), expected, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn per_line_scroll_offsets_single_lines() {
    let mut video = Video::default();
    gradient_tile(&mut video, 1);
    let layer = &mut video.layers[2];
    layer.enabled = true;
    layer.set_cell(0, 0, Cell::new(1, 0, false, false)).unwrap();
    layer.set_line_scroll(3, -2, 0);
    layer.set_line_scroll(4, 0, 1);
    let fb = compose(&video);
    assert_eq!(fb.get(0, 2), gradient(0, 2));
    assert_eq!(fb.get(2, 3), gradient(0, 3), "line 3 moved right by 2");
    assert_eq!(fb.get(0, 4), gradient(0, 5), "line 4 shows source line 5");
    video.layers[2].clear_line_scroll();
    assert_eq!(compose(&video).get(0, 3), gradient(0, 3));
}

#[test]
fn drawings_are_in_front_and_clipped_by_default() {
    let mut video = Video::default();
    solid_tile(&mut video, 0, 3);
    video.layers[0].enabled = true;
    video.oam[0] = Sprite::new(0, 0, 0, 1).unwrap();
    video.plane.rect_fill((-10, -10), (1, 1), 0x47);
    video.plane.print(0, b"A", (250, 252), 0x21);
    video.plane.line((0, 255), (300, 255), 0x22);
    let fb = compose(&video);
    assert_eq!(fb.get(0, 0), 0x47);
    assert_eq!(fb.get(2, 2), 0x03);
    let a = font::glyph(b'A');
    for (row, bits) in a.iter().enumerate().take(4) {
        for col in 0..6 {
            let lit = bits & (0x80 >> col) != 0;
            let expected = if lit { 0x21 } else { 0x03 };
            if row + 252 < 255 {
                assert_eq!(fb.get(250 + col, 252 + row), expected);
            }
        }
    }
    assert_eq!(fb.get(255, 255), 0x22);
    assert_eq!(fb.get(100, 255), 0x22);
}

#[test]
fn compose_reports_the_work_done() {
    let mut video = Video::default();
    video.layers[0].enabled = true;
    video.layers[1].enabled = true;
    video.layers[1].set_line_scroll(0, 1, 0);
    video.oam[0] = Sprite::new(-4, 0, 0, 2).unwrap();
    video.oam[1] = Sprite::new(0, 250, 0, 1).unwrap();
    video.oam[2] = Sprite::new(0, 300, 0, 1).unwrap();
    let work = compose_work(&video);
    assert_eq!(work.layers, 2);
    assert_eq!(work.line_scroll_layers, 1);
    assert_eq!(work.sprites, 2);
    assert_eq!(work.sprite_rows, 16 * 2 + 6);
}

fn compose_work(video: &Video) -> ComposeWork {
    video.compose(&mut Framebuffer::default(), &[])
}

#[test]
fn rgba_output_goes_through_palette_ram() {
    let mut video = Video::default();
    video.palette.set(0, 0x102030);
    video.palette.set(0x15, 0xA0B0C0);
    video.plane.pixel((1, 0), 0x15);
    let rgba = compose(&video).rgba(&video.palette);
    assert_eq!(
        &rgba[..8],
        &[0x10, 0x20, 0x30, 0xFF, 0xA0, 0xB0, 0xC0, 0xFF]
    );
}

#[test]
fn the_banded_and_the_line_by_line_compositors_agree() {
    // Layers without a line table are drawn band by band; a line table of zeros forces the
    // line-by-line path, which must give the same picture for every scroll and flip.
    let mut video = Video::default();
    for tile in 0..64 {
        for y in 0..8 {
            for x in 0..8 {
                video
                    .patterns
                    .set_pixel(tile, x, y, ((tile * 7 + x * 3 + y * 5) % 16) as u8);
            }
        }
    }
    let mut seed = 12345u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    video
        .anims
        .set(anim::TileAnim {
            tile: 3,
            frames: vec![anim::AnimFrame {
                tile: 40,
                palette: Some(9),
                frames: 1,
            }],
        })
        .unwrap();
    video.anims.update(0);
    for cell_size in [8, 16, 32] {
        let layer = &mut video.layers[0];
        layer.enabled = true;
        layer.configure(37, 23, cell_size).unwrap();
        for cy in 0..23 {
            for cx in 0..37 {
                let r = next();
                let cell = if r % 11 == 0 {
                    Cell::EMPTY
                } else {
                    Cell::new(r % 48, (r >> 8) as u8, r & 0x100 != 0, r & 0x200 != 0)
                };
                layer.set_cell(cx, cy, cell).unwrap();
            }
        }
        for _ in 0..20 {
            let layer = &mut video.layers[0];
            layer.scroll_x = (next() % 4000) as i32 - 2000;
            layer.scroll_y = (next() % 4000) as i32 - 2000;
            layer.clear_line_scroll();
            let banded = compose(&video);
            video.layers[0].set_line_scroll(0, 0, 0);
            let by_line = compose(&video);
            assert!(
                banded == by_line,
                "cell {cell_size}, scroll {:?}",
                (video.layers[0].scroll_x, video.layers[0].scroll_y)
            );
        }
    }
}

#[test]
fn drawings_at_a_priority_sit_between_its_layers_and_its_sprites() {
    let mut video = Video::default();
    solid_tile(&mut video, 0, 3);
    solid_tile(&mut video, 1, 4);
    video.layers[0].enabled = true;
    video.layers[0].priority = 1;
    video.oam[0] = Sprite::new(0, 0, 1, 1)
        .unwrap()
        .with_style(0, 1, false, false);
    video.plane.state.priority = 1;
    video.plane.rect_fill((0, 0), (15, 0), 0x20);
    video.plane.state.priority = 0;
    video.plane.rect_fill((0, 1), (15, 1), 0x30);
    let fb = compose(&video);
    assert_eq!(fb.get(0, 0), 0x04, "the sprite of priority 1 is in front");
    assert_eq!(
        fb.get(12, 0),
        0x20,
        "the drawing covers the layer of its priority"
    );
    assert_eq!(fb.get(12, 1), 0x03, "a drawing at 0 is behind a layer at 1");
}

#[test]
fn lent_sprites_last_one_frame_and_overflow_is_counted() {
    let mut video = Video::default();
    video.oam[255] = Sprite::new(0, 0, 0, 1).unwrap();
    let block = Sprite::block(5, 6, 0, 3, 2).unwrap();
    assert_eq!(
        video.lend_sprite(block),
        Some(254),
        "entry 255 is the cart's"
    );
    assert_eq!(video.lend_sprite(block), Some(253));
    assert_eq!(video.oam[254].pixels(), (24, 16));
    for _ in 0..253 {
        assert!(video.lend_sprite(block).is_some());
    }
    assert_eq!(video.lend_sprite(block), None);
    assert_eq!(video.lend_sprite(block), None);
    assert_eq!(video.sprites_dropped, 2);
    // `spr` takes over a lent entry: it stays.
    video.set_sprite(10, Sprite::new(1, 1, 0, 1).unwrap());
    video.begin_frame();
    assert_eq!(video.sprites_dropped, 0);
    assert!(video.oam[255].visible && video.oam[10].visible);
    assert_eq!(video.oam.iter().filter(|s| s.visible).count(), 2);
    assert_eq!(video.lend_sprite(block), Some(254));
    video.cls(None);
    assert!(!video.oam[254].visible);
}

#[test]
fn a_sprite_shows_only_inside_its_clip() {
    let mut video = Video::default();
    solid_tile(&mut video, 0, 5);
    solid_tile(&mut video, 1, 5);
    let mut sprite = Sprite::block(-3, 10, 0, 2, 1).unwrap();
    sprite.clip = crate::video::raster::Clip::new(2, 12, 10, 3);
    video.oam[0] = sprite;
    let fb = compose(&video);
    let lit: Vec<(usize, usize)> = (0..20)
        .flat_map(|y| (0..20).map(move |x| (x, y)))
        .filter(|&(x, y)| fb.get(x, y) != 0)
        .collect();
    let expected: Vec<(usize, usize)> = (12..15)
        .flat_map(|y| (2..12).map(move |x| (x, y)))
        .collect();
    assert_eq!(lit, expected, "the clip's columns 2..12 and rows 12..15");
    let work = compose_work(&video);
    assert_eq!((work.sprites, work.sprite_rows), (1, 3 * 2));
}

#[test]
fn counting_the_work_without_drawing_counts_what_drawing_does() {
    let mut video = Video::default();
    video.layers[0].enabled = true;
    video.layers[2].enabled = true;
    video.layers[2].set_line_scroll(3, 1, 0);
    video.oam[0] = Sprite::new(-4, 0, 0, 2).unwrap();
    video.oam[5] = Sprite::new(250, 250, 0, 8).unwrap();
    let mut clipped = Sprite::block(-3, 10, 0, 3, 2).unwrap();
    clipped.clip = crate::video::raster::Clip::new(2, 12, 10, 3);
    video.lend_sprite(clipped);
    video.lend_sprite(Sprite::block(100, -20, 0, 8, 8).unwrap());
    video.plane.rect_fill((0, 0), (40, 40), 3);
    assert_eq!(video.compose_work(), compose_work(&video));
    assert!(compose_work(&video).sprite_rows > 0);
}
