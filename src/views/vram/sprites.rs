//! OAM, the 256 sprites: as a list (one line each: index, position, top-left tile with a
//! thumbnail, size in tiles, palette, priority, flips; hidden entries greyed) and as outlines
//! over the game picture (visible sprites only, coloured by priority).

use std::ops::Range;

use super::image::{Image, LINE_H, colors};
use crate::machine::Machine;
use crate::spec::{OAM_ENTRIES, SCREEN_H, SCREEN_W, TILE_SIZE};
use crate::video::sprite::Sprite;

/// The list's header line.
pub const HEADER: &str = "  #     x     y tile siz pal pri fl vis";
/// Left edge of the list's text (after the thumbnail).
const TEXT_X: usize = TILE_SIZE + 4;
/// Outline colours by priority, back (0) to front (3).
pub const PRIORITY_COLORS: [u32; 4] = [0x40_90FF, 0x40_E070, 0xFF_D040, 0xFF_5060];

/// One OAM entry as a line of the list.
pub fn describe(index: usize, sprite: &Sprite) -> String {
    let flips = match (sprite.flip_x, sprite.flip_y) {
        (false, false) => "-",
        (true, false) => "x",
        (false, true) => "y",
        (true, true) => "xy",
    };
    format!(
        "{index:>3} {:>5} {:>5} {:>4} {:>3} {:>3X} {:>3} {flips:>2} {}",
        sprite.x,
        sprite.y,
        format!("{:03X}", sprite.tile),
        format!("{}x{}", sprite.w, sprite.h),
        sprite.palette,
        sprite.priority,
        if sprite.visible { "yes" } else { " no" }
    )
}

/// The list of OAM entries `entries` (clamped to 0..256) under a header line.
pub(crate) fn oam_list(machine: &Machine, entries: Range<usize>) -> Image {
    let entries = entries.start.min(OAM_ENTRIES)..entries.end.min(OAM_ENTRIES);
    let height = LINE_H * (entries.len() + 1) + 1;
    let mut image = Image::new(SCREEN_W, height, colors::BACKGROUND);
    image.text(TEXT_X, 1, HEADER, colors::DIM);
    let palette = &machine.video().palette();
    for (line, index) in entries.enumerate() {
        let sprite = &machine.video().oam()[index];
        let top = LINE_H * (line + 1) + 1;
        let rgb = if sprite.visible {
            colors::TEXT
        } else {
            colors::GREY
        };
        // A thumbnail of the top-left tile, in the sprite's palette.
        for y in 0..TILE_SIZE {
            for x in 0..TILE_SIZE {
                let index = machine
                    .video()
                    .patterns()
                    .pixel(usize::from(sprite.tile), x, y)
                    & 0xF;
                let shown = if index == 0 {
                    Image::checker(x, y)
                } else if sprite.visible {
                    palette.get(sprite.palette << 4 | index)
                } else {
                    colors::GREY
                };
                image.put(1 + x, top + y - 1, shown);
            }
        }
        image.text(TEXT_X, top, &describe(index, sprite), rgb);
    }
    image
}

/// The OAM entry on line `y` of a list of `entries`, if that line shows one.
#[cfg(any(feature = "host", test))]
pub(crate) fn entry_at(entries: Range<usize>, y: usize) -> Option<usize> {
    let line = (y.checked_sub(1)? / LINE_H).checked_sub(1)?;
    let index = entries.start + line;
    (index < entries.end.min(OAM_ENTRIES)).then_some(index)
}

/// The game picture (256x256 RGBA) with every visible sprite's box outlined in its
/// priority's colour; sprites partly off screen are cut at the edges.
pub fn sprite_outlines(machine: &Machine, picture: &[u8]) -> Image {
    let mut image = Image::from_rgba(SCREEN_W, SCREEN_H, picture);
    // Back to front, so sprite 0 ends on top as it does on screen.
    for sprite in machine.video().oam().iter().rev().filter(|s| s.on_screen()) {
        let (w, h) = sprite.pixels();
        let rgb = PRIORITY_COLORS[usize::from(sprite.priority).min(3)];
        let (x, y) = (i64::from(sprite.x), i64::from(sprite.y));
        image.outline(x, y, i64::from(w), i64::from(h), rgb);
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_every_field_and_greys_hidden_entries() {
        let mut machine = Machine::new(Default::default(), 0);
        let sprite = Sprite::new(-12, 200, 0x123, 2)
            .unwrap()
            .with_style(15, 3, true, true);
        machine.video_mut().set_sprite(4, sprite);
        assert_eq!(
            describe(4, &sprite),
            "  4   -12   200  123 2x2   F   3 xy yes"
        );
        assert!(describe(5, &machine.video().oam()[5]).ends_with(" no"));
        assert_eq!(HEADER.len(), describe(4, &sprite).len());
        let list = oam_list(&machine, 0..OAM_ENTRIES);
        assert_eq!(list.height, LINE_H * 257 + 1);
        let widest = describe(255, &Sprite::default()).len();
        assert!(TEXT_X + widest * super::super::image::CHAR_W <= SCREEN_W);
        // Line 4's text is white, line 5's grey.
        let line_pixels = |n: usize, rgb: u32| {
            let top = LINE_H * (n + 1) + 1;
            (0..SCREEN_W).any(|x| (top..top + 8).any(|y| list.get(x, y) == rgb))
        };
        assert!(line_pixels(4, colors::TEXT));
        assert!(!line_pixels(5, colors::TEXT) && line_pixels(5, colors::GREY));
        assert_eq!(entry_at(0..OAM_ENTRIES, LINE_H * 5 + 1), Some(4));
        assert_eq!(entry_at(10..20, LINE_H + 1), Some(10));
        assert_eq!(entry_at(10..20, 0), None);
        assert_eq!(entry_at(10..20, LINE_H * 11 + 1), None);
    }

    #[test]
    fn visible_sprites_are_outlined_over_the_picture() {
        let mut machine = Machine::new(Default::default(), 0);
        machine.video_mut().set_sprite(
            0,
            Sprite::new(10, 20, 0, 1)
                .unwrap()
                .with_style(0, 1, false, false),
        );
        machine
            .video_mut()
            .set_sprite(1, Sprite::new(100, 100, 0, 4).unwrap());
        machine.video_mut().hide_sprite(1);
        let picture = vec![0; SCREEN_W * SCREEN_H * 4];
        let image = sprite_outlines(&machine, &picture);
        assert_eq!(image.get(10, 20), PRIORITY_COLORS[1]);
        assert_eq!(image.get(17, 27), PRIORITY_COLORS[1]);
        assert_eq!(image.get(11, 21), 0);
        assert_eq!(image.get(100, 100), 0, "hidden sprites are not outlined");
    }
}
