//! Aseprite files (`.aseprite`, `.ase`) read as sprite sheets: every frame left to right, as
//! Aseprite's `--sheet-type horizontal` export lays them out, each frame padded with
//! transparent pixels on the right and bottom to a multiple of 8 px so that every frame
//! starts on the tile grid. The result is a [`Picture`], so every rule for PNG sheets
//! applies unchanged; the tags and frame durations come along for the cart's scripts.
//!
//! The pixels come from the `asefile` crate (visible layers flattened in order, with layer
//! and cel opacity and blend modes; hidden layers and groups skipped; linked cels followed).
//! That crate indexes its input without checking and allocates what a header asks for, so
//! [`outline`] first walks the file's chunks itself, bounds-checking everything the crate
//! relies on, and refuses a damaged, cut or hostile file with the frame and chunk it broke
//! at. The walk also reads the tags itself (the crate refuses Aseprite 1.3's "ping-pong
//! reverse" direction) and spots colour profiles, which Kairo ignores as it does a PNG's.

use std::panic::AssertUnwindSafe;

use super::picture::{CLEAR, Clear, IndexTransparency, MAX_SIDE, Picture};
use crate::cart::CartError;
use crate::spec::TILE_SIZE;

/// Most frames a file may have.
pub(crate) const MAX_FRAMES: usize = 1024;
/// Most pixels a file's frames may have in all (a 4096x4096 sheet's worth); a cel may have
/// as many, and all the cels of a file twice as many.
const MAX_PIXELS: usize = (MAX_SIDE * MAX_SIDE) as usize;

mod walk;
use walk::{outline, patched};

/// How a tag plays its frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Reverse,
    PingPong,
    /// Ping-pong starting from the last frame (Aseprite 1.3).
    PingPongReverse,
}

impl Direction {
    /// The name scripts see.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Reverse => "reverse",
            Direction::PingPong => "pingpong",
            Direction::PingPongReverse => "pingpong_reverse",
        }
    }
}

/// A tag: a named run of frames (0-based, inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub from: usize,
    pub to: usize,
    pub direction: Direction,
    /// How many times it plays (0: for ever).
    pub repeat: u16,
}

/// An Aseprite file as a sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AseSheet {
    /// The frames left to right, each `cell` px.
    pub picture: Picture,
    /// The sprite's size in pixels.
    pub size: (usize, usize),
    /// Each frame's size once padded to the tile grid.
    pub cell: (usize, usize),
    /// Each frame's duration in milliseconds.
    pub durations: Vec<u16>,
    pub tags: Vec<Tag>,
    /// What was read, in words (for `kairo check`).
    pub notes: Vec<String>,
    /// What may not be what the artist meant.
    pub warnings: Vec<String>,
}

/// Whether `file` names an Aseprite file.
pub(crate) fn is_aseprite(file: &str) -> bool {
    let lower = file.to_ascii_lowercase();
    lower.ends_with(".aseprite") || lower.ends_with(".ase")
}

/// Rounds `side` up to the tile grid.
fn padded(side: usize) -> usize {
    side.div_ceil(TILE_SIZE) * TILE_SIZE
}

/// Reads the Aseprite file `file` as a sheet; pixels `clear` names become transparent too.
pub fn decode(file: &str, bytes: &[u8], clear: Clear) -> Result<AseSheet, CartError> {
    decode_guarded(file, bytes, clear, true)
}

/// [`decode`] without the guard around the crate, for the fuzz target: a panic the walk
/// lets through is then the fuzzer's finding, not a quiet refusal.
pub fn decode_unguarded(bytes: &[u8]) -> Result<AseSheet, CartError> {
    decode_guarded("fuzz.aseprite", bytes, Clear::default(), false)
}

/// Runs `f`, turning a panic into `None` when `guard` is set.
fn guarded<T>(guard: bool, f: impl FnOnce() -> T) -> Option<T> {
    if guard {
        std::panic::catch_unwind(AssertUnwindSafe(f)).ok()
    } else {
        Some(f())
    }
}

fn decode_guarded(
    file: &str,
    bytes: &[u8],
    clear: Clear,
    guard: bool,
) -> Result<AseSheet, CartError> {
    let err = |message: String| CartError::file(file, message);
    let outline = outline(bytes).map_err(err)?;
    if let Some(layer) = outline.layers.iter().find(|l| l.visible && l.tilemap) {
        return Err(err(format!(
            "layer \"{}\" is a tilemap layer, which Kairo does not read: convert it to a normal layer in Aseprite (Layer > Convert To > Layer), or hide it",
            layer.name
        )));
    }
    let patched = patched(bytes, &outline);
    // The walk has checked what the crate indexes; a panic left in it is still refused.
    let read = guarded(guard, || asefile::AsepriteFile::read(&patched[..]));
    let ase = match read {
        Some(Ok(ase)) => ase,
        Some(Err(e)) => return Err(err(format!("not a readable Aseprite file: {e}"))),
        None => return Err(err("damaged: the Aseprite reader could not take it".into())),
    };
    let (width, height) = (outline.width, outline.height);
    let cell = (padded(width), padded(height));
    let frames = outline.frames;
    let sheet_width = cell.0 * frames;
    let mut pixels = vec![CLEAR; sheet_width * cell.1];
    let indexed_palette: Option<Vec<u32>> = (outline.depth == 8).then(|| {
        ase.palette()
            .map(|p| {
                (0..p.num_colors())
                    .map(|i| {
                        p.color(i)
                            .map(|c| {
                                u32::from(c.red()) << 16
                                    | u32::from(c.green()) << 8
                                    | u32::from(c.blue())
                            })
                            .unwrap_or(0)
                    })
                    .collect()
            })
            .unwrap_or_default()
    });
    let mut indices = indexed_palette
        .as_ref()
        .map(|_| vec![outline.transparent_index; sheet_width * cell.1]);
    let mut off_palette = 0usize;
    let mut asked = 0usize;
    for frame in 0..frames {
        let image = guarded(guard, || ase.frame(frame as u32).image()).ok_or_else(|| {
            err(format!(
                "frame {frame}: damaged: the Aseprite reader could not draw it"
            ))
        })?;
        for y in 0..height {
            for x in 0..width {
                let [r, g, b, a] = image.get_pixel(x as u32, y as u32).0;
                let at = y * sheet_width + frame * cell.0 + x;
                if a < 128 {
                    continue;
                }
                let rgb = u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b);
                if let (Some(palette), Some(indices)) = (&indexed_palette, &mut indices) {
                    // The lowest entry of that colour, the transparent index last (an
                    // opaque pixel is on it only on a background layer).
                    let transparent = usize::from(outline.transparent_index);
                    let found = palette
                        .iter()
                        .enumerate()
                        .position(|(i, &c)| c == rgb && i != transparent)
                        .or_else(|| {
                            (palette.get(transparent) == Some(&rgb)).then_some(transparent)
                        });
                    match found {
                        Some(i) => {
                            indices[at] = i as u8;
                            if clear.index == Some(i as u8) {
                                asked += 1;
                                continue;
                            }
                        }
                        None => off_palette += 1,
                    }
                }
                if Some(rgb) == clear.key {
                    continue;
                }
                pixels[at] = rgb;
            }
        }
    }
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let shown: Vec<&str> = outline
        .layers
        .iter()
        .filter(|l| l.visible && !l.group)
        .map(|l| l.name.as_str())
        .collect();
    let hidden: Vec<&str> = outline
        .layers
        .iter()
        .filter(|l| !l.visible && !l.group)
        .map(|l| l.name.as_str())
        .collect();
    let mode = match outline.depth {
        8 => format!("indexed (transparent index {})", outline.transparent_index),
        16 => "grayscale".to_string(),
        _ => "RGBA".to_string(),
    };
    let padding = if cell != (width, height) {
        format!(", each padded to {}x{} on the tile grid", cell.0, cell.1)
    } else {
        String::new()
    };
    notes.push(format!(
        "{file}: Aseprite, {mode}, {frames} frame{} of {width}x{height} px{padding}: a {sheet_width}x{} sheet; layers flattened: {}{}",
        if frames == 1 { "" } else { "s" },
        cell.1,
        if shown.is_empty() { "none".to_string() } else { shown.join(", ") },
        if hidden.is_empty() {
            String::new()
        } else {
            format!("; hidden layers skipped: {}", hidden.join(", "))
        }
    ));
    if !outline.tags.is_empty() {
        let listed: Vec<String> = outline
            .tags
            .iter()
            .map(|t| format!("{} {}-{} {}", t.name, t.from, t.to, t.direction.name()))
            .collect();
        notes.push(format!("{file}: tags {}", listed.join(", ")));
    }
    if outline.layers.iter().any(|l| l.visible && l.background) && outline.depth == 8 {
        notes.push(format!(
            "{file}: its background layer is opaque, its transparent index included, as Aseprite draws it"
        ));
    }
    if outline.profile_ignored {
        notes.push(format!(
            "{file}: its colour profile is ignored (colours are read as sRGB, as PNG colour profiles are)"
        ));
    }
    let indexed = match (indices, indexed_palette) {
        (Some(indices), Some(palette)) if off_palette == 0 => Some((indices, palette)),
        (Some(_), Some(_)) => {
            warnings.push(format!(
                "{file}: indexed, but layer opacity or blend modes made {off_palette} pixels of colours outside its palette, so its indices are not kept: its colours are grouped as an RGBA sheet's are"
            ));
            None
        }
        _ => None,
    };
    let indices_note = IndexTransparency {
        asked: (asked > 0).then_some((clear.index.unwrap_or(0), asked)),
        ..IndexTransparency::default()
    };
    Ok(AseSheet {
        picture: Picture {
            width: sheet_width,
            height: cell.1,
            pixels,
            indexed,
            indices: indices_note,
            frame_width: Some(cell.0),
        },
        size: (width, height),
        cell,
        durations: outline.durations,
        tags: outline.tags,
        notes,
        warnings,
    })
}
