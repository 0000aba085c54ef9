//! `[[font]]`: fonts a cart draws text with, cut from a PNG. The image is a grid of glyph
//! cells of `glyph = [w, h]` pixels (1-16 each), left to right and top to bottom, for the
//! character codes from `first` (default 32). Ink is every opaque pixel when the image has
//! transparent ones, else every pixel whose colour differs from the most common one (the
//! paper); the loader says which it used in a note.

use crate::cart::art::picture::{self, CLEAR, Clear, Picture};
use crate::cart::manifest::FontDecl;
use crate::video::fonts::{BUILT_IN, Font, MAX_GLYPH_SIDE};

/// Cuts the font `decl` from the PNG `bytes`; returns it with its note, or what is wrong.
pub fn load(decl: &FontDecl, bytes: &[u8]) -> Result<(Font, String), String> {
    let file = &decl.file;
    let [w, h] = decl.glyph;
    if decl.name.is_empty() || BUILT_IN.contains(&decl.name.as_str()) {
        return Err(format!(
            "font name `{}` is taken: choose one other than {}",
            decl.name,
            BUILT_IN.join(" and ")
        ));
    }
    let sides = 1..=MAX_GLYPH_SIDE;
    if !sides.contains(&w) || !sides.contains(&h) {
        return Err(format!(
            "font `{}`: glyph = [{w}, {h}] must be 1-{MAX_GLYPH_SIDE} px each",
            decl.name
        ));
    }
    let picture =
        picture::decode(file, bytes, Clear::default()).map_err(|e| e.message.to_string())?;
    if picture.width % w != 0 || picture.height % h != 0 || picture.width < w || picture.height < h
    {
        return Err(format!(
            "{file} is {}x{} px, not a grid of {w}x{h} glyphs",
            picture.width, picture.height
        ));
    }
    let (columns, rows) = (picture.width / w, picture.height / h);
    let room = 256 - usize::from(decl.first);
    let count = (columns * rows).min(room);
    let (ink, rule) = ink_rule(&picture);
    let mut glyph_rows = Vec::with_capacity(count * h);
    for index in 0..count {
        let (gx, gy) = ((index % columns) * w, (index / columns) * h);
        for y in 0..h {
            let mut bits = 0u16;
            for x in 0..w {
                if ink(picture.at(gx + x, gy + y)) {
                    bits |= 0x8000 >> x;
                }
            }
            glyph_rows.push(bits);
        }
    }
    let last = usize::from(decl.first) + count - 1;
    let mut note = format!(
        "{file}: font `{}`, {count} glyphs of {w}x{h} px for codes {}-{last}, ink = {rule}",
        decl.name, decl.first
    );
    if columns * rows > count {
        note.push_str(&format!(
            "; {} cells past code 255 are not used",
            columns * rows - count
        ));
    }
    let font = Font::new(&decl.name, w, h, decl.first, glyph_rows)
        .ok_or_else(|| format!("font `{}` does not fit", decl.name))?;
    Ok((font, note))
}

/// Which pixels are ink, and how to say it.
fn ink_rule(picture: &Picture) -> (Box<dyn Fn(u32) -> bool>, String) {
    if picture.pixels.contains(&CLEAR) {
        return (Box::new(|p| p != CLEAR), "the opaque pixels".into());
    }
    let mut counts = std::collections::BTreeMap::new();
    for &p in &picture.pixels {
        *counts.entry(p).or_insert(0usize) += 1;
    }
    let paper = counts
        .iter()
        .max_by_key(|&(colour, n)| (*n, std::cmp::Reverse(*colour)))
        .map_or(0, |(colour, _)| *colour);
    (
        Box::new(move |p| p != paper),
        format!(
            "every colour but the most common one, #{paper:06x} (the image has no transparent \
             pixels)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(rgba).unwrap();
        writer.finish().unwrap();
        bytes
    }

    fn decl(glyph: [usize; 2], first: u8) -> FontDecl {
        FontDecl {
            name: "tiny".into(),
            file: "font.png".into(),
            glyph,
            first,
        }
    }

    #[test]
    fn glyphs_are_cut_in_order_and_ink_follows_the_image() {
        // Three 2x1 glyphs: ".#", "#." and "..", black on an opaque white paper (the most
        // common colour, even where ink is in the top-left corner).
        let white = [255, 255, 255, 255];
        let black = [0, 0, 0, 255];
        let pixels = [white, black, black, white, white, white].concat();
        let (font, note) = load(&decl([2, 1], 65), &png(6, 1, &pixels)).unwrap();
        assert_eq!(font.glyph(b'A'), Some(&[0x4000][..]));
        assert_eq!(font.glyph(b'B'), Some(&[0x8000][..]));
        assert_eq!(font.glyph(b'C'), Some(&[0][..]));
        assert!(
            note.contains("codes 65-67") && note.contains("#ffffff"),
            "{note}"
        );
        // With transparent pixels, every opaque pixel is ink, whatever its colour.
        let clear = [0, 0, 0, 0];
        let pixels = [white, clear, clear, black].concat();
        let (font, note) = load(&decl([2, 1], 65), &png(4, 1, &pixels)).unwrap();
        assert_eq!(font.glyph(b'A'), Some(&[0x8000][..]));
        assert_eq!(font.glyph(b'B'), Some(&[0x4000][..]));
        assert!(note.contains("opaque"), "{note}");
    }

    #[test]
    fn bad_fonts_say_what_is_wrong() {
        let pixels = vec![0u8; 5 * 4 * 4];
        let err = load(&decl([2, 2], 32), &png(5, 4, &pixels)).unwrap_err();
        assert!(err.contains("5x4 px, not a grid of 2x2"), "{err}");
        let err = load(&decl([17, 2], 32), &png(5, 4, &pixels)).unwrap_err();
        assert!(err.contains("1-16"), "{err}");
        let mut small = decl([1, 1], 32);
        small.name = "small".into();
        assert!(
            load(&small, &png(5, 4, &pixels))
                .unwrap_err()
                .contains("taken")
        );
        assert!(
            load(&decl([1, 1], 32), b"not a png")
                .unwrap_err()
                .contains("PNG")
        );
        // Cells past code 255 are left out, with a note.
        let (font, note) = load(&decl([1, 1], 250), &png(5, 4, &pixels)).unwrap();
        assert_eq!(font.glyph_count(), 6);
        assert!(note.contains("14 cells past code 255"), "{note}");
    }
}
