//! Tiled maps and tilesets as Tiled saves them: `.tmx`/`.tsx` (XML, read with `roxmltree`)
//! and `.tmj`/`.tsj` (JSON, read with `serde_json`), both into one plain model. Nothing here
//! knows the console: `cart::map` turns the model into layers, collision tiles and objects.
//!
//! Every problem is a [`CartError`] naming the file that holds it (the `.tsx` when the problem
//! is in an external tileset), the line where the format has lines, and what to do.
//! Accepted: DOCTYPE lines, tilesets with or without `tilecount`/`columns`, CSV, base64
//! (uncompressed, zlib, gzip, zstd) and XML-element layer data, group layers, object
//! templates (`.tx`), every object kind. Refused with a message: infinite maps, embedded
//! images, files that leave the cart.

mod data;
mod json;
mod xml;

use std::collections::BTreeMap;

use crate::cart::CartError;
use crate::cart::files::CartFiles;

pub use data::{FLIP_D, FLIP_H, FLIP_V, GID_FLAGS, ROTATE_HEX};

/// Key/value properties, as the text Tiled saved (booleans `true`/`false`, numbers as
/// written, colours `#aarrggbb`, class members as `name.member`).
pub type Properties = BTreeMap<String, String>;

/// Deepest element (or JSON value) nesting a map, tileset or template may have.
pub const MAX_NESTING: usize = 64;
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
    pub rotation: f64,
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
            Shape::Point => "point",
            Shape::Polygon(_) => "polygon",
            Shape::Polyline(_) => "polyline",
            Shape::Tile(_) => "tile",
            Shape::Text(_) => "text",
        }
    }
}

/// Reads the map at cart path `path` (TMX or TMJ, told apart by content), with its external
/// tilesets and object templates.
pub fn read_map(files: &CartFiles, path: &str) -> Result<Map, CartError> {
    let text = text_of(files, path, path)?;
    if is_json(text) {
        json::read_map(files, path, text)
    } else {
        xml::read_map(files, path, text)
    }
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
