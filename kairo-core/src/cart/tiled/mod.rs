//! Tiled maps and tilesets as Tiled saves them: `.tmx`/`.tsx` (XML, read with `roxmltree`)
//! and `.tmj`/`.tsj` (JSON, read with `serde_json`), both into one plain model. Nothing here
//! knows the console: `cart::map` turns the model into layers, collision tiles and objects.
//!
//! Every problem is a [`CartError`] naming the file that holds it (the `.tsx` when the problem
//! is in an external tileset), the line where the format has lines, and what to do.
//! Accepted: DOCTYPE lines, tilesets with or without `tilecount`/`columns`, CSV, base64
//! (uncompressed, zlib, gzip, zstd) and XML-element layer data, group layers, object
//! templates (`.tx`/`.tj`, from TMX and JSON maps, their tilesets added to the map when it
//! does not list them, as Tiled does), every object kind, infinite maps whose chunks fit the
//! hardware (loaded as the finite map their chunks cover, with a note), JSON saved by Tiled
//! before 1.2 (`json::legacy`). Refused with a message: embedded images, files that leave the
//! cart, `firstgid` 0, values in old JSON that Tiled itself would turn into something else.

mod data;
mod json;
mod xml;

use std::collections::BTreeMap;

use crate::cart::CartError;
use crate::cart::files::CartFiles;

pub(crate) use data::GID_FLAGS;
pub use data::{FLIP_D, FLIP_H, FLIP_V};

/// The chunk size Tiled keeps infinite layers in, whatever the file's chunks are.
const TILED_CHUNK: i64 = 16;
/// Most cells a side of one chunk of an infinite map (Tiled writes 16 or 32).
const MAX_CHUNK_SIDE: u32 = crate::spec::BG_MAX_CELLS as u32;

/// Key/value properties, as the text Tiled saved (booleans `true`/`false`, numbers as
/// written, colours `#aarrggbb`, class members as `name.member`).
pub type Properties = BTreeMap<String, String>;

/// Deepest element (or JSON value) nesting a map, tileset or template may have.
pub(crate) const MAX_NESTING: usize = 64;
/// Most elements a Tiled XML document may hold.
const MAX_NODES: u32 = 4_000_000;

/// Where something was written: a file and, for XML, a line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub line: Option<usize>,
}

impl Origin {
    /// An error at this place.
    pub fn error(&self, message: impl Into<String>) -> CartError {
        match self.line {
            Some(line) => CartError::at(&self.file, line, message),
            None => CartError::file(&self.file, message),
        }
    }
}

/// A map.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    pub origin: Origin,
    pub orientation: String,
    pub infinite: bool,
    pub width: u32,
    pub height: u32,
    pub tile_width: u32,
    pub tile_height: u32,
    pub properties: Properties,
    pub tilesets: Vec<TilesetUse>,
    /// Every layer in drawing order, groups flattened (a layer keeps its own name).
    pub layers: Vec<Layer>,
    /// What reading it converted (an infinite map made finite), one line each.
    pub notes: Vec<String>,
}

/// A tileset as a map uses it: its first global tile id.
#[derive(Clone, Debug, PartialEq)]
pub struct TilesetUse {
    pub first_gid: u32,
    /// The cart path of the tileset's file, when it is external.
    pub source: Option<String>,
    pub tileset: Tileset,
}

/// A tileset (inline in a map, or a `.tsx`/`.tsj` file).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tileset {
    pub origin: Origin,
    pub name: String,
    pub tile_width: u32,
    pub tile_height: u32,
    pub spacing: u32,
    pub margin: u32,
    /// As declared (older Tiled leaves these out).
    pub tile_count: Option<u32>,
    pub columns: Option<u32>,
    /// The single image; `None` for an image collection.
    pub image: Option<TilesetImage>,
    pub tiles: BTreeMap<u32, TileData>,
}

/// A tileset's image.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TilesetImage {
    pub origin: Origin,
    /// Its path in the cart.
    pub source: String,
    /// The size the tileset declares (Tiled writes what the image had when it was saved).
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Tiled's colour key (`trans`): pixels of this colour are transparent.
    pub trans: Option<u32>,
}

/// What a tileset says of one of its tiles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileData {
    pub class: String,
    pub properties: Properties,
    /// Frames: (tile id in the same tileset, duration in milliseconds).
    pub animation: Vec<(u32, u32)>,
    /// The tile's own image (image collection tilesets).
    pub image: Option<TileImage>,
}

/// The image of one tile of an image collection: a file, or a rectangle of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileImage {
    pub origin: Origin,
    /// Its path in the cart.
    pub source: String,
    /// The rectangle of the image the tile shows; `None` sizes mean the whole image.
    pub x: u32,
    pub y: u32,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub trans: Option<u32>,
}

/// A layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub origin: Origin,
    pub id: u32,
    pub name: String,
    pub class: String,
    pub visible: bool,
    pub properties: Properties,
    pub kind: LayerKind,
    /// The chunks of an infinite map's tile layer, until [`read_map`] makes the map finite.
    pub chunks: Vec<Chunk>,
}

/// A piece of an infinite map's tile layer: its top-left cell (Tiled's coordinates, maybe
/// negative), its size and its global tile ids.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    pub x: i64,
    pub y: i64,
    pub width: u32,
    pub height: u32,
    pub gids: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LayerKind {
    /// Global tile ids with Tiled's flip bits, `width * height` of them, row-major.
    Tiles {
        width: u32,
        height: u32,
        gids: Vec<u32>,
    },
    Objects(Vec<Object>),
    Image,
}

/// An object of an object layer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object {
    pub id: u32,
    pub name: String,
    pub class: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Degrees clockwise.
    pub(crate) rotation: f64,
    pub visible: bool,
    pub shape: Shape,
    pub properties: Properties,
}

/// An object's kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Shape {
    #[default]
    Rect,
    Ellipse,
    /// A rectangle with round ends (Tiled 1.12).
    Capsule,
    Point,
    /// Points relative to the object's position.
    Polygon(Vec<(f64, f64)>),
    Polyline(Vec<(f64, f64)>),
    /// A tile object: a global tile id with flip bits (its position is its bottom-left).
    Tile(u32),
    Text(String),
}

impl Shape {
    /// The name carts see.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Rect => "rect",
            Shape::Ellipse => "ellipse",
            Shape::Capsule => "capsule",
            Shape::Point => "point",
            Shape::Polygon(_) => "polygon",
            Shape::Polyline(_) => "polyline",
            Shape::Tile(_) => "tile",
            Shape::Text(_) => "text",
        }
    }
}

/// Reads the map at cart path `path` (TMX or TMJ, told apart by content), with its external
/// tilesets and object templates; an infinite map comes back finite. Public for the tests of
/// real files (`tests/tiled_legacy.rs`); carts load maps through `cart::map`.
pub fn read_map(files: &CartFiles, path: &str) -> Result<Map, CartError> {
    let text = text_of(files, path, path)?;
    let mut map = if is_json(text) {
        json::read_map(files, path, text)?
    } else {
        xml::read_map(files, path, text)?
    };
    for ts in &map.tilesets {
        if ts.first_gid == 0 {
            return Err(map.origin.error(format!(
                "tileset `{}` has firstgid 0, but Tiled numbers tiles from 1 (0 is an empty cell): set its firstgid to 1 more than the last id of the tileset before it (1 for the first), or open the map in Tiled and save it",
                ts.tileset.name
            )));
        }
    }
    if map.infinite {
        make_finite(&mut map)?;
    }
    Ok(map)
}

/// Turns an infinite map into the finite map its chunks cover, as Tiled sizes it (and draws
/// it): Tiled keeps an infinite layer in chunks of [`TILED_CHUNK`] x [`TILED_CHUNK`] cells,
/// whatever size the file's chunks have, and the map is the bounding box of those that hold
/// a tile. The top-left cell of that box becomes (0, 0) and objects move with it. Refused
/// when the box is larger than a layer can be.
fn make_finite(map: &mut Map) -> Result<(), CartError> {
    let mut bounds: Option<(i64, i64, i64, i64)> = None;
    for chunk in map.layers.iter().flat_map(|l| &l.chunks) {
        let width = chunk.width.max(1) as usize;
        for (i, &gid) in chunk.gids.iter().enumerate() {
            if gid & !GID_FLAGS == 0 {
                continue;
            }
            let (x, y) = (chunk.x + (i % width) as i64, chunk.y + (i / width) as i64);
            let (x, y) = (
                x.div_euclid(TILED_CHUNK) * TILED_CHUNK,
                y.div_euclid(TILED_CHUNK) * TILED_CHUNK,
            );
            let (r, b) = (x + TILED_CHUNK, y + TILED_CHUNK);
            bounds = Some(match bounds {
                None => (x, y, r, b),
                Some((l, t, r0, b0)) => (l.min(x), t.min(y), r0.max(r), b0.max(b)),
            });
        }
    }
    let (left, top, right, bottom) = bounds.unwrap_or((0, 0, 1, 1));
    let (width, height) = (right - left, bottom - top);
    let most = crate::spec::BG_MAX_CELLS as i64;
    if width > most || height > most {
        return Err(map.origin.error(format!(
            "an infinite map whose tiles span {width} x {height} cells (cells ({left}, {top}) to ({}, {})); a layer holds at most {most} x {most}: move the tiles closer together, or split the map",
            right - 1,
            bottom - 1
        )));
    }
    let (w, h) = (width as usize, height as usize);
    for layer in &mut map.layers {
        let chunks = std::mem::take(&mut layer.chunks);
        if !matches!(layer.kind, LayerKind::Tiles { .. }) {
            continue;
        }
        let mut gids = vec![0; w * h];
        for chunk in chunks {
            for (i, &gid) in chunk.gids.iter().enumerate() {
                let x = chunk.x + (i % chunk.width.max(1) as usize) as i64 - left;
                let y = chunk.y + (i / chunk.width.max(1) as usize) as i64 - top;
                if (0..width).contains(&x) && (0..height).contains(&y) {
                    gids[y as usize * w + x as usize] = gid;
                }
            }
        }
        layer.kind = LayerKind::Tiles {
            width: width as u32,
            height: height as u32,
            gids,
        };
    }
    let (dx, dy) = (
        -left * i64::from(map.tile_width),
        -top * i64::from(map.tile_height),
    );
    for layer in &mut map.layers {
        if let LayerKind::Objects(objects) = &mut layer.kind {
            for object in objects {
                object.x += dx as f64;
                object.y += dy as f64;
            }
        }
    }
    map.width = width as u32;
    map.height = height as u32;
    map.infinite = false;
    map.notes.push(format!(
        "{}: an infinite map: loaded as the {width} x {height} cells its chunks cover (as Tiled sizes it when \"Infinite\" is unticked), Tiled's cell ({left}, {top}) at the top left (objects moved by ({dx}, {dy}) px with it)",
        map.origin.file
    ));
    Ok(())
}

/// Object templates (`.tx` or `.tj`) a map's objects use, read once each, and the tilesets
/// they need that the map does not list (added after the map's own, as Tiled does).
pub(crate) struct Templates<'f> {
    files: &'f CartFiles,
    /// Every tileset the map's tile ids can reach: its own, then those templates added.
    tilesets: Vec<TilesetUse>,
    /// How many of `tilesets` are the map's own.
    own: usize,
    cache: Vec<(String, Object)>,
}

/// A template as its file holds it: the object, and the external tileset (cart path, first
/// id) its tile id is numbered through.
pub(crate) struct TemplateFile {
    pub object: Object,
    pub tileset: Option<(String, u32, Origin)>,
}

impl<'f> Templates<'f> {
    pub(crate) fn new(files: &'f CartFiles, tilesets: &[TilesetUse]) -> Templates<'f> {
        Templates {
            files,
            tilesets: tilesets.to_vec(),
            own: tilesets.len(),
            cache: Vec::new(),
        }
    }

    /// The object of template `path` as the map numbers its tile.
    pub(crate) fn object(&mut self, path: &str, wanted_by: &Origin) -> Result<Object, CartError> {
        if let Some((_, object)) = self.cache.iter().find(|(p, _)| p == path) {
            return Ok(object.clone());
        }
        let text = text_of(self.files, path, &wanted_by.file)
            .map_err(|e| with_origin(e, wanted_by, "template"))?;
        let TemplateFile {
            mut object,
            tileset,
        } = if is_json(text) {
            json::read_template(path, text)?
        } else {
            xml::read_template(path, text)?
        };
        if let Shape::Tile(gid) = object.shape {
            let Some((source, first, origin)) = tileset else {
                return Err(CartError::file(
                    path,
                    "the template's tile object names no tileset",
                ));
            };
            object.shape = Shape::Tile(self.renumber(&source, first, gid, &origin)?);
        }
        self.cache.push((path.to_string(), object.clone()));
        Ok(object)
    }

    /// Global tile id `gid` of a template whose tileset `source` starts at `first`, as the
    /// map numbers it; a tileset the map does not list joins the map's.
    fn renumber(
        &mut self,
        source: &str,
        first: u32,
        gid: u32,
        origin: &Origin,
    ) -> Result<u32, CartError> {
        let id = (gid & !GID_FLAGS).checked_sub(first).ok_or_else(|| {
            origin.error(format!(
                "tile id {gid} is below the tileset's first id {first}"
            ))
        })?;
        let known = self
            .tilesets
            .iter()
            .find(|t| t.source.as_deref() == Some(source))
            .map(|t| t.first_gid);
        let map_first = match known {
            Some(first) => first,
            None => {
                let tileset = read_external_tileset(self.files, source, origin)?;
                let next = self
                    .tilesets
                    .iter()
                    .map(|t| t.first_gid.saturating_add(tile_span(&t.tileset)))
                    .max()
                    .unwrap_or(1);
                self.tilesets.push(TilesetUse {
                    first_gid: next,
                    source: Some(source.to_string()),
                    tileset,
                });
                next
            }
        };
        Ok((gid & GID_FLAGS) | map_first.saturating_add(id))
    }

    /// The tilesets templates added, to go after the map's own.
    pub(crate) fn added(self) -> Vec<TilesetUse> {
        self.tilesets.into_iter().skip(self.own).collect()
    }
}

/// How many tile ids a tileset spans: its tile count, or past its highest tile id.
fn tile_span(tileset: &Tileset) -> u32 {
    let listed = tileset
        .tiles
        .keys()
        .max()
        .map_or(0, |&id| id.saturating_add(1));
    tileset.tile_count.unwrap_or(0).max(listed).max(1)
}

/// Reads the external tileset at cart path `path` (TSX or TSJ) for the file `wanted_by`.
fn read_external_tileset(
    files: &CartFiles,
    path: &str,
    wanted_by: &Origin,
) -> Result<Tileset, CartError> {
    let text =
        text_of(files, path, &wanted_by.file).map_err(|e| with_origin(e, wanted_by, "tileset"))?;
    if is_json(text) {
        json::read_tileset(path, text)
    } else {
        xml::read_tileset(path, text)
    }
}

/// The UTF-8 text of cart file `path`; a missing file is reported against `wanted_by`.
fn text_of<'f>(files: &'f CartFiles, path: &str, wanted_by: &str) -> Result<&'f str, CartError> {
    let bytes = files.require(path, wanted_by)?;
    let text = std::str::from_utf8(bytes).map_err(|_| CartError::file(path, "not UTF-8 text"))?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// A missing-file error moved to the line that asked for the file.
fn with_origin(e: CartError, origin: &Origin, what: &str) -> CartError {
    if e.file == origin.file && e.line.is_none() {
        origin.error(format!("{what}: {}", e.message))
    } else {
        e
    }
}

/// Resolves `relative` (written in cart file `from`) to a cart path, or says it leaves the cart.
fn resolve(origin: &Origin, relative: &str, what: &str) -> Result<String, CartError> {
    if relative.is_empty() {
        return Err(origin.error(format!("{what} has no path")));
    }
    crate::cart::paths::resolve(&origin.file, relative).ok_or_else(|| {
        origin.error(format!(
            "{what} `{relative}` is outside the cart: keep every file the map uses inside the cart folder"
        ))
    })
}

/// Parses a `#rrggbb` or `rrggbb` colour key (Tiled's `trans`).
fn parse_trans(text: &str) -> Option<u32> {
    let hex = text.trim().trim_start_matches('#');
    let hex = if hex.len() == 8 { &hex[2..] } else { hex };
    (hex.len() == 6)
        .then(|| u32::from_str_radix(hex, 16).ok())
        .flatten()
}

#[cfg(test)]
mod tests;
