//! A [`Clip`] as an animated GIF. The first frame's palette RAM is the global colour table
//! and the pixels are the framebuffer's own palette indices, so no colour is ever
//! approximated; a frame shown with different palette RAM carries it as a local table.
//! After the first, each frame covers only the rectangle that changed (in colour, so a
//! palette change counts), drawn over the previous one, with the pixels that stayed the same
//! made transparent when an index is free for that (it compresses much better). A picture
//! equal to the one before adds its time to that frame instead of becoming a frame.

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Frame, Repeat};

use super::{Clip, ClipError, Shot, pack};
use crate::spec::{PALETTE_ENTRIES, SCREEN_H, SCREEN_W};

const PIXELS: usize = SCREEN_W * SCREEN_H;

/// A rectangle of console pixels: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

const FULL: Rect = Rect {
    x0: 0,
    y0: 0,
    x1: SCREEN_W,
    y1: SCREEN_H,
};

pub(super) fn encode(clip: &Clip) -> Result<Vec<u8>, ClipError> {
    let (Some(first), Some(last)) = (clip.shots.first(), clip.shots.last()) else {
        return Err(ClipError::Empty);
    };
    let options = clip.options;
    let scale = usize::from(options.scale);
    let side = |pixels: usize| (pixels * scale) as u16;
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(
        &mut bytes,
        side(SCREEN_W),
        side(SCREEN_H),
        &table(&first.palette),
    )?;
    encoder.set_repeat(Repeat::Infinite)?;
    // The colours (0xRRGGBB) the GIF shows so far, and those of the picture being added.
    let mut shown: Option<Vec<u32>> = None;
    let mut colours = vec![0u32; PIXELS];
    let mut indices = Vec::with_capacity(PIXELS);
    // The frame written last, waiting to learn how long it stays up.
    let mut pending: Option<(Frame<'static>, u64)> = None;
    for shot in &clip.shots {
        indices.clear();
        pack::unpack(&shot.pixels, &mut indices).map_err(ClipError::Damaged)?;
        if indices.len() != PIXELS {
            let size = std::io::Error::other(format!("{} pixels", indices.len()));
            return Err(ClipError::Damaged(size));
        }
        let rgb = rgb_words(shot);
        for (colour, &index) in colours.iter_mut().zip(&indices) {
            *colour = rgb[usize::from(index)];
        }
        let rect = match &shown {
            None => Some(FULL),
            Some(shown) => changed(shown, &colours),
        };
        let Some(rect) = rect else {
            continue;
        };
        if let Some((mut frame, start)) = pending.take() {
            frame.delay = delay(options.start(shot.k) - options.start(start));
            encoder.write_frame(&frame)?;
        }
        let local = (*shot.palette != *first.palette).then(|| table(&shot.palette));
        let frame = frame_for(rect, &indices, &colours, shown.as_deref(), local, scale);
        pending = Some((frame, shot.k));
        let shown = shown.get_or_insert_with(|| vec![0; PIXELS]);
        for y in rect.y0..rect.y1 {
            let row = y * SCREEN_W;
            shown[row + rect.x0..row + rect.x1]
                .copy_from_slice(&colours[row + rect.x0..row + rect.x1]);
        }
    }
    if let Some((mut frame, start)) = pending {
        frame.delay = delay(options.start(last.k + 1) - options.start(start));
        encoder.write_frame(&frame)?;
    }
    encoder.into_inner()?;
    Ok(bytes)
}

/// A delay in hundredths of a second, as a GIF frame holds it.
fn delay(hundredths: u64) -> u16 {
    u16::try_from(hundredths).unwrap_or(u16::MAX)
}

/// The shot's palette as 0xRRGGBB words.
fn rgb_words(shot: &Shot) -> [u32; PALETTE_ENTRIES] {
    shot.palette.map(|word| {
        let [r, g, b, _] = word.to_ne_bytes();
        u32::from_be_bytes([0, r, g, b])
    })
}

/// A palette as a GIF colour table (R, G, B bytes per entry).
fn table(palette: &[u32; PALETTE_ENTRIES]) -> Vec<u8> {
    palette
        .iter()
        .flat_map(|word| {
            let [r, g, b, _] = word.to_ne_bytes();
            [r, g, b]
        })
        .collect()
}

/// The smallest rectangle holding every pixel whose colour differs, if any does.
fn changed(before: &[u32], after: &[u32]) -> Option<Rect> {
    let rows = |y: &usize| before[y * SCREEN_W..][..SCREEN_W] != after[y * SCREEN_W..][..SCREEN_W];
    let y0 = (0..SCREEN_H).find(rows)?;
    let y1 = (0..SCREEN_H).rev().find(rows)? + 1;
    let mut x0 = SCREEN_W;
    let mut x1 = 0;
    for y in y0..y1 {
        let row = y * SCREEN_W;
        let differs = |x: &usize| before[row + x] != after[row + x];
        if let Some(left) = (0..x0).find(differs) {
            x0 = left;
        }
        if let Some(right) = (x1..SCREEN_W).rev().find(differs) {
            x1 = right + 1;
        }
    }
    Some(Rect { x0, y0, x1, y1 })
}

/// The GIF frame drawing `rect` of the picture (`indices`, whose colours are `colours`) over
/// what is `shown`, `scale` times enlarged.
fn frame_for(
    rect: Rect,
    indices: &[u8],
    colours: &[u32],
    shown: Option<&[u32]>,
    palette: Option<Vec<u8>>,
    scale: usize,
) -> Frame<'static> {
    let same = |i: usize| shown.is_some_and(|shown| shown[i] == colours[i]);
    // An index no changed pixel uses can stand for "as before".
    let transparent = shown.and_then(|_| {
        let mut used = [false; PALETTE_ENTRIES];
        for y in rect.y0..rect.y1 {
            for i in y * SCREEN_W + rect.x0..y * SCREEN_W + rect.x1 {
                if !same(i) {
                    used[usize::from(indices[i])] = true;
                }
            }
        }
        used.iter().position(|&u| !u).map(|i| i as u8)
    });
    let width = (rect.x1 - rect.x0) * scale;
    let mut buffer = Vec::with_capacity(width * (rect.y1 - rect.y0) * scale);
    let mut row = Vec::with_capacity(width);
    for y in rect.y0..rect.y1 {
        row.clear();
        let start = y * SCREEN_W + rect.x0;
        let span = &indices[start..y * SCREEN_W + rect.x1];
        for (i, &index) in (start..).zip(span) {
            let index = match transparent {
                Some(clear) if same(i) => clear,
                _ => index,
            };
            row.extend(std::iter::repeat_n(index, scale));
        }
        for _ in 0..scale {
            buffer.extend_from_slice(&row);
        }
    }
    Frame {
        left: (rect.x0 * scale) as u16,
        top: (rect.y0 * scale) as u16,
        width: width as u16,
        height: ((rect.y1 - rect.y0) * scale) as u16,
        dispose: DisposalMethod::Keep,
        transparent,
        palette,
        buffer: Cow::Owned(buffer),
        ..Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_is_tight() {
        let before = vec![0u32; PIXELS];
        assert_eq!(changed(&before, &before), None);
        let mut after = before.clone();
        after[10 * SCREEN_W + 5] = 1;
        after[20 * SCREEN_W + 200] = 1;
        after[15 * SCREEN_W + 3] = 1;
        assert_eq!(
            changed(&before, &after),
            Some(Rect {
                x0: 3,
                y0: 10,
                x1: 201,
                y1: 21
            })
        );
        after[PIXELS - 1] = 1;
        assert_eq!(
            changed(&before, &after).map(|r| (r.x1, r.y1)),
            Some((256, 256))
        );
    }

    #[test]
    fn unchanged_pixels_use_a_free_index_and_scaling_repeats_pixels() {
        let shown = vec![0x111111u32; PIXELS];
        let mut colours = shown.clone();
        let mut indices = vec![0u8; PIXELS];
        // (1, 0) changes to index 0 (a new colour); (0, 0) stays index 0's old colour.
        colours[1] = 0x222222;
        let rect = Rect {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 1,
        };
        let frame = frame_for(rect, &indices, &colours, Some(&shown), None, 2);
        assert_eq!(frame.transparent, Some(1));
        assert_eq!(&frame.buffer[..], [1, 1, 0, 0, 1, 1, 0, 0]);
        assert_eq!((frame.width, frame.height), (4, 2));
        // With every index in use, nothing is transparent.
        for (i, index) in indices.iter_mut().enumerate().take(256) {
            *index = i as u8;
        }
        colours[..256].fill(0x333333);
        let wide = Rect {
            x0: 0,
            y0: 0,
            x1: 256,
            y1: 1,
        };
        let frame = frame_for(wide, &indices, &colours, Some(&shown), None, 1);
        assert_eq!(frame.transparent, None);
        assert_eq!(frame.buffer[255], 255);
    }
}
