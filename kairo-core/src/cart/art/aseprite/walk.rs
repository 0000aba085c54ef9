//! The walk over an Aseprite file's header, frames and chunks that comes before the
//! `asefile` crate sees it: every size and index the crate relies on is checked here (the
//! crate indexes without checking and allocates what headers ask for), the tags are read
//! here (the crate refuses "ping-pong reverse"), and colour profiles, reference layers and
//! those tags are noted for rewriting in the copy the crate reads.

use std::io::Read;

use super::{Direction, MAX_FRAMES, MAX_PIXELS, Tag};
use crate::cart::art::picture::MAX_SIDE;

const HEADER_MAGIC: u16 = 0xA5E0;
const FRAME_MAGIC: u16 = 0xF1FA;
const HEADER_BYTES: usize = 128;
const FRAME_HEADER_BYTES: usize = 16;

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
pub(super) struct LayerInfo {
    pub(super) name: String,
    pub(super) visible: bool,
    pub(super) group: bool,
    pub(super) tilemap: bool,
    pub(super) level: u16,
    pub(super) background: bool,
}

/// What the walk found: enough to refuse what the crate cannot take, to name layers in
/// notes, and the tags and durations.
#[derive(Debug, Default)]
pub(super) struct Outline {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) depth: u16,
    pub(super) transparent_index: u8,
    pub(super) frames: usize,
    pub(super) durations: Vec<u16>,
    pub(super) layers: Vec<LayerInfo>,
    pub(super) tags: Vec<Tag>,
    /// Byte offsets of what to rewrite in the crate's copy: tag directions (ping-pong
    /// reverse to ping-pong), colour profiles (to plain sRGB), reference layers (hidden).
    patches: Vec<(usize, Patch)>,
    pub(super) profile_ignored: bool,
    /// Pixels of every cel read so far (bounded: a hostile file could make each inflate).
    cel_pixels: usize,
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
pub(super) fn outline(bytes: &[u8]) -> Result<Outline, String> {
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
                0x2005 => cel(data, &mut out, bpp, frame).and_then(|(layer, kind)| {
                    if row.len() <= layer {
                        row.resize(layer + 1, None);
                    }
                    match row[layer].replace(kind) {
                        Some(_) => Err(format!("two cels on layer {layer}")),
                        None => Ok(()),
                    }
                }),
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

fn cel(
    data: &[u8],
    out: &mut Outline,
    bpp: usize,
    frame: usize,
) -> Result<(usize, CelKind), String> {
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
            out.cel_pixels += w * h;
            if out.cel_pixels > 2 * MAX_PIXELS {
                return Err(format!(
                    "its cels hold more than {} pixels in all, more than any sheet could show",
                    2 * MAX_PIXELS
                ));
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
pub(super) fn patched(bytes: &[u8], outline: &Outline) -> Vec<u8> {
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
