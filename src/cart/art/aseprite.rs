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

use std::io::Read;
use std::panic::AssertUnwindSafe;

use super::picture::{CLEAR, Clear, IndexTransparency, MAX_SIDE, Picture};
use crate::cart::CartError;
use crate::spec::TILE_SIZE;

/// Most frames a file may have.
pub const MAX_FRAMES: usize = 1024;
/// Most pixels a file's frames may have in all (a 4096x4096 sheet's worth).
const MAX_PIXELS: usize = (MAX_SIDE * MAX_SIDE) as usize;

const HEADER_MAGIC: u16 = 0xA5E0;
const FRAME_MAGIC: u16 = 0xF1FA;
const HEADER_BYTES: usize = 128;
const FRAME_HEADER_BYTES: usize = 16;

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
pub fn is_aseprite(file: &str) -> bool {
    let lower = file.to_ascii_lowercase();
    lower.ends_with(".aseprite") || lower.ends_with(".ase")
}

/// A cursor over little-endian fields that stops, rather than panics, at the end.
struct Fields<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Fields<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Fields { bytes, at: 0 }
    }

    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    fn i16(&mut self) -> Option<i16> {
        self.u16().map(|v| v as i16)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self) -> Option<String> {
        let len = usize::from(self.u16()?);
        self.take(len)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }
}

/// A layer as the file declares it.
#[derive(Clone, Debug)]
struct LayerInfo {
    name: String,
    visible: bool,
    group: bool,
    tilemap: bool,
    level: u16,
    background: bool,
}

/// What the walk found: enough to refuse what the crate cannot take, to name layers in
/// notes, and the tags and durations.
#[derive(Debug, Default)]
struct Outline {
    width: usize,
    height: usize,
    depth: u16,
    transparent_index: u8,
    frames: usize,
    durations: Vec<u16>,
    layers: Vec<LayerInfo>,
    tags: Vec<Tag>,
    /// Byte offsets of the tag directions to rewrite for the crate (ping-pong reverse to
    /// ping-pong), and of colour profiles to rewrite as plain sRGB.
    patches: Vec<(usize, Patch)>,
    profile_ignored: bool,
}

#[derive(Clone, Copy, Debug)]
enum Patch {
    Direction,
    Profile,
    HideLayer,
}

/// A cel's content, for checking links once every cel is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CelKind {
    Pixels,
    Linked(usize),
    Tiles,
}

/// Walks the file's header, frames and chunks, checking every size and index the crate will
/// rely on.
fn outline(bytes: &[u8]) -> Result<Outline, String> {
    let mut f = Fields::new(bytes);
    let cut = || "cut short: the file ends inside its header".to_string();
    let size = f.u32().ok_or_else(cut)? as usize;
    if f.u16().ok_or_else(cut)? != HEADER_MAGIC {
        return Err("not an Aseprite file (its header has no Aseprite magic number)".into());
    }
    if bytes.len() < HEADER_BYTES {
        return Err(cut());
    }
    if size > bytes.len() {
        return Err(format!(
            "cut short: its header says {size} bytes, the file has {}",
            bytes.len()
        ));
    }
    let frames = usize::from(f.u16().ok_or_else(cut)?);
    let width = usize::from(f.u16().ok_or_else(cut)?);
    let height = usize::from(f.u16().ok_or_else(cut)?);
    let depth = f.u16().ok_or_else(cut)?;
    f.take(4 + 2 + 8).ok_or_else(cut)?; // flags, speed, two zero dwords
    let transparent_index = f.u8().ok_or_else(cut)?;
    f.take(3 + 2).ok_or_else(cut)?; // reserved, colour count
    let (ratio_w, ratio_h) = (f.u8().ok_or_else(cut)?, f.u8().ok_or_else(cut)?);
    if frames == 0 {
        return Err("it has no frames".into());
    }
    if frames > MAX_FRAMES {
        return Err(format!("{frames} frames: at most {MAX_FRAMES} are read"));
    }
    if width == 0 || height == 0 || width > MAX_SIDE as usize || height > MAX_SIDE as usize {
        return Err(format!(
            "a {width}x{height} px sprite: each side must be 1-{MAX_SIDE} px"
        ));
    }
    if frames * width * height > MAX_PIXELS {
        return Err(format!(
            "{frames} frames of {width}x{height} px are more pixels than pattern VRAM could ever show"
        ));
    }
    if ![8, 16, 32].contains(&depth) {
        return Err(format!(
            "colour depth {depth} is not 8 (indexed), 16 (grayscale) or 32 (RGBA) bits"
        ));
    }
    if !(ratio_w == ratio_h || ratio_w == 0 || ratio_h == 0) {
        return Err(format!(
            "its pixels are {ratio_w}:{ratio_h}, not square: set Sprite > Properties > Pixel Aspect Ratio to 1:1"
        ));
    }
    let bpp = usize::from(depth / 8);
    let mut out = Outline {
        width,
        height,
        depth,
        transparent_index,
        frames,
        ..Outline::default()
    };
    let mut cels: Vec<Vec<Option<CelKind>>> = vec![Vec::new(); frames];
    let mut at = HEADER_BYTES;
    for (frame, row) in cels.iter_mut().enumerate() {
        let mut header = Fields::new(bytes.get(at..).unwrap_or(&[]));
        let frame_cut = || format!("frame {frame}: cut short (the file ends inside it)");
        let frame_bytes = header.u32().ok_or_else(frame_cut)? as usize;
        if header.u16().ok_or_else(frame_cut)? != FRAME_MAGIC {
            return Err(format!("frame {frame}: damaged (no frame magic number)"));
        }
        let old_count = usize::from(header.u16().ok_or_else(frame_cut)?);
        let duration = header.u16().ok_or_else(frame_cut)?;
        header.take(2).ok_or_else(frame_cut)?;
        let new_count = header.u32().ok_or_else(frame_cut)? as usize;
        let chunks = if new_count == 0 { old_count } else { new_count };
        if frame_bytes < FRAME_HEADER_BYTES || at + frame_bytes > bytes.len() {
            return Err(frame_cut());
        }
        out.durations.push(duration);
        let body = &bytes[at + FRAME_HEADER_BYTES..at + frame_bytes];
        let mut chunk_at = 0;
        for chunk in 0..chunks {
            let where_ = format!("frame {frame}, chunk {chunk}");
            let mut head = Fields::new(&body[chunk_at..]);
            let (Some(len), Some(kind)) = (head.u32(), head.u16()) else {
                return Err(format!("{where_}: cut short"));
            };
            let len = len as usize;
            if len < 6 || chunk_at + len > body.len() {
                return Err(format!(
                    "{where_}: its size ({len} bytes) runs past its frame"
                ));
            }
            let data = &body[chunk_at + 6..chunk_at + len];
            let offset = at + FRAME_HEADER_BYTES + chunk_at + 6;
            chunk_at += len;
            let result = match kind {
                0x0004 | 0x0011 => old_palette(data),
                0x2004 => layer(data, offset, &mut out),
                0x2005 => cel(data, &out, bpp, frame).map(|(layer, kind)| {
                    if row.len() <= layer {
                        row.resize(layer + 1, None);
                    }
                    if row[layer].replace(kind).is_some() {
                        Err(format!("two cels on layer {layer}"))
                    } else {
                        Ok(())
                    }
                })?,
                0x2007 => profile(data, offset, &mut out),
                0x2018 => tags(data, offset, &mut out),
                0x2019 => palette(data),
                // Cel extra, external files, mask, path, user data, slices, tilesets: not
                // needed for the pixels (tilemap layers are refused below).
                0x2006 | 0x2008 | 0x2016 | 0x2017 | 0x2020 | 0x2022 | 0x2023 => Ok(()),
                other => Err(format!(
                    "chunk type {other:#06x} is not one this reader knows (saved by a newer Aseprite?)"
                )),
            };
            result.map_err(|e| format!("{where_}: {e}"))?;
        }
        at += frame_bytes;
    }
    // Links must reach a cel with pixels on the same layer.
    for (frame, row) in cels.iter().enumerate() {
        for (layer, kind) in row.iter().enumerate() {
            if let Some(CelKind::Linked(target)) = kind {
                let ok = cels
                    .get(*target)
                    .and_then(|r| r.get(layer).copied().flatten())
                    .is_some_and(|k| k != CelKind::Tiles && !matches!(k, CelKind::Linked(_)));
                if !ok {
                    return Err(format!(
                        "frame {frame}, layer {layer}: a linked cel points at frame {target}, which has no cel of its own there"
                    ));
                }
            }
        }
    }
    for tag in &out.tags {
        if tag.to >= frames || tag.from > tag.to {
            return Err(format!(
                "tag \"{}\" runs over frames {}-{}, but the file has frames 0-{}",
                tag.name,
                tag.from,
                tag.to,
                frames - 1
            ));
        }
    }
    Ok(out)
}

fn short(what: &str) -> impl FnOnce() -> String + '_ {
    move || format!("its {what} is cut short")
}

fn layer(data: &[u8], offset: usize, out: &mut Outline) -> Result<(), String> {
    let mut f = Fields::new(data);
    let flags_at = offset;
    let flags = f.u16().ok_or_else(short("layer"))?;
    let kind = f.u16().ok_or_else(short("layer"))?;
    let level = f.u16().ok_or_else(short("layer"))?;
    f.take(4).ok_or_else(short("layer"))?; // default size
    let blend = f.u16().ok_or_else(short("layer"))?;
    f.take(4).ok_or_else(short("layer"))?; // opacity, reserved
    let name = f.string().ok_or_else(short("layer"))?;
    if kind > 2 {
        return Err(format!("layer \"{name}\" is of an unknown type ({kind})"));
    }
    if blend > 18 {
        return Err(format!(
            "layer \"{name}\" has an unknown blend mode ({blend})"
        ));
    }
    if out.layers.is_empty() && level != 0 {
        return Err(format!(
            "layer \"{name}\" is inside a group that does not exist"
        ));
    }
    if let Some(last) = out.layers.last()
        && level > last.level + 1
    {
        return Err(format!(
            "layer \"{name}\" is inside a group that does not exist"
        ));
    }
    // Visible only when its flag and every enclosing group's are set.
    let parent_visible = out
        .layers
        .iter()
        .rev()
        .find(|l| l.level < level)
        .is_none_or(|parent| parent.visible);
    // A reference layer is a guide for drawing, left out of exports: hidden for the crate.
    let reference = flags & 64 != 0;
    if reference && flags & 1 != 0 {
        out.patches.push((flags_at, Patch::HideLayer));
    }
    out.layers.push(LayerInfo {
        name,
        visible: flags & 1 != 0 && parent_visible && !reference,
        group: kind == 1,
        tilemap: kind == 2,
        level,
        background: flags & 8 != 0,
    });
    Ok(())
}

fn cel(data: &[u8], out: &Outline, bpp: usize, frame: usize) -> Result<(usize, CelKind), String> {
    let mut f = Fields::new(data);
    let layer = usize::from(f.u16().ok_or_else(short("cel"))?);
    f.take(2 + 2 + 1).ok_or_else(short("cel"))?; // x, y, opacity
    let kind = f.u16().ok_or_else(short("cel"))?;
    f.i16().ok_or_else(short("cel"))?; // z-index
    f.take(5).ok_or_else(short("cel"))?;
    let Some(info) = out.layers.get(layer) else {
        return Err(format!(
            "a cel on layer {layer}, but the file has {} layers",
            out.layers.len()
        ));
    };
    let name = &info.name;
    match kind {
        0 | 2 => {
            let w = usize::from(f.u16().ok_or_else(short("cel"))?);
            let h = usize::from(f.u16().ok_or_else(short("cel"))?);
            if w * h > MAX_PIXELS {
                return Err(format!("layer \"{name}\": a {w}x{h} px cel is too big"));
            }
            let want = w * h * bpp;
            let pixels = &data[f.at..];
            let got = if kind == 0 {
                pixels.len()
            } else {
                let mut inflated = Vec::new();
                flate2::read::ZlibDecoder::new(pixels)
                    .take(want as u64 + 1)
                    .read_to_end(&mut inflated)
                    .map_err(|e| {
                        format!("layer \"{name}\": its compressed pixels are damaged ({e})")
                    })?;
                inflated.len()
            };
            if got < want {
                return Err(format!(
                    "layer \"{name}\": a {w}x{h} px cel holds {got} bytes of pixels, not {want}"
                ));
            }
            Ok((layer, CelKind::Pixels))
        }
        1 => {
            let target = usize::from(f.u16().ok_or_else(short("cel"))?);
            if target >= out.frames {
                return Err(format!(
                    "layer \"{name}\": a cel linked to frame {target}, but the file has {} frames",
                    out.frames
                ));
            }
            if target == frame {
                return Err(format!("layer \"{name}\": a cel linked to its own frame"));
            }
            Ok((layer, CelKind::Linked(target)))
        }
        3 => {
            if !info.tilemap {
                return Err(format!(
                    "layer \"{name}\": a tilemap cel outside a tilemap layer"
                ));
            }
            Ok((layer, CelKind::Tiles))
        }
        other => Err(format!("layer \"{name}\": unknown cel type {other}")),
    }
}

fn tags(data: &[u8], offset: usize, out: &mut Outline) -> Result<(), String> {
    let mut f = Fields::new(data);
    let count = f.u16().ok_or_else(short("tag list"))?;
    f.take(8).ok_or_else(short("tag list"))?;
    for _ in 0..count {
        let from = usize::from(f.u16().ok_or_else(short("tag list"))?);
        let to = usize::from(f.u16().ok_or_else(short("tag list"))?);
        let direction_at = offset + f.at;
        let direction = match f.u8().ok_or_else(short("tag list"))? {
            0 => Direction::Forward,
            1 => Direction::Reverse,
            2 => Direction::PingPong,
            3 => {
                out.patches.push((direction_at, Patch::Direction));
                Direction::PingPongReverse
            }
            other => return Err(format!("a tag has an unknown direction ({other})")),
        };
        let repeat = f.u16().ok_or_else(short("tag list"))?;
        f.take(6 + 3 + 1).ok_or_else(short("tag list"))?;
        let name = f.string().ok_or_else(short("tag list"))?;
        out.tags.push(Tag {
            name,
            from,
            to,
            direction,
            repeat,
        });
    }
    Ok(())
}

fn profile(data: &[u8], offset: usize, out: &mut Outline) -> Result<(), String> {
    let mut f = Fields::new(data);
    let kind = f.u16().ok_or_else(short("colour profile"))?;
    let flags = f.u16().ok_or_else(short("colour profile"))?;
    if kind > 2 {
        return Err(format!("unknown colour profile type {kind}"));
    }
    if kind == 2 || flags & 1 != 0 {
        out.patches.push((offset, Patch::Profile));
        out.profile_ignored = true;
    }
    Ok(())
}

fn palette(data: &[u8]) -> Result<(), String> {
    let mut f = Fields::new(data);
    let size = f.u32().ok_or_else(short("palette"))?;
    let first = f.u32().ok_or_else(short("palette"))?;
    let last = f.u32().ok_or_else(short("palette"))?;
    f.take(8).ok_or_else(short("palette"))?;
    if first > last || last >= 256 || size > 256 || last >= size.max(1) {
        return Err(format!(
            "its palette sets entries {first}-{last} of {size}: a palette has at most 256"
        ));
    }
    for _ in first..=last {
        let flags = f.u16().ok_or_else(short("palette"))?;
        f.take(4).ok_or_else(short("palette"))?;
        if flags & 1 != 0 {
            f.string().ok_or_else(short("palette"))?;
        }
    }
    Ok(())
}

fn old_palette(data: &[u8]) -> Result<(), String> {
    let mut f = Fields::new(data);
    let packets = f.u16().ok_or_else(short("palette"))?;
    let mut index = 0usize;
    for _ in 0..packets {
        index += usize::from(f.u8().ok_or_else(short("palette"))?);
        let count = match f.u8().ok_or_else(short("palette"))? {
            0 => 256,
            n => usize::from(n),
        };
        index += count;
        if index > 256 {
            return Err("its old-style palette runs past 256 entries".into());
        }
        f.take(count * 3).ok_or_else(short("palette"))?;
    }
    Ok(())
}

/// The file's bytes as the crate can take them: colour profiles made plain sRGB (Kairo
/// ignores them, as it ignores a PNG's) and ping-pong reverse tags made ping-pong (the walk
/// has the real direction).
fn patched(bytes: &[u8], outline: &Outline) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    for &(at, patch) in &outline.patches {
        match patch {
            Patch::Direction => copy[at] = 2,
            Patch::HideLayer => copy[at] &= !1,
            Patch::Profile => {
                copy[at..at + 2].copy_from_slice(&1u16.to_le_bytes());
                copy[at + 2..at + 4].copy_from_slice(&0u16.to_le_bytes());
            }
        }
    }
    copy
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
                    match palette.iter().position(|&c| c == rgb) {
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
