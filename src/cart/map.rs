//! Tiled maps (`.tmx`, read with the `tiled` crate) turned into cell maps the video unit can
//! show, plus each cell's tile properties (for the collision unit) and the map's objects.
//!
//! A tileset's image must be one of the cart's `[[sheet]]`s; Tiled tile `k` of a tileset with
//! `c` columns of `s` px tiles shows the pattern tile at the same place of that sheet in VRAM.
//! Empty Tiled cells become pattern tile 0, so carts keep tile 0 transparent.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::Path;

use tiled::{LayerType, PropertyValue, TileLayer};

use crate::cart::CartError;
use crate::cart::files::{CartFiles, normalize, resolve};
use crate::cart::manifest::SheetDecl;
use crate::spec::{BG_MAX_CELLS, PATTERN_SHEET_TILES_W, TILE_SIZE};
use crate::video::layer::Cell;

/// Key/value properties of a tile or object, as strings.
pub type Properties = BTreeMap<String, String>;

/// One tile layer of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapLayer {
    pub name: String,
    /// `cols * rows` cells, row-major.
    pub cells: Vec<Cell>,
    /// Per cell, an index into [`MapAsset::tile_props`] (0 = no properties).
    pub props: Vec<u16>,
}

/// One object of an object layer.
#[derive(Clone, Debug, PartialEq)]
pub struct MapObject {
    pub layer: String,
    pub name: String,
    /// Tiled's class (formerly "type").
    pub class: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub properties: Properties,
}

/// A map ready for the machine.
#[derive(Clone, Debug, PartialEq)]
pub struct MapAsset {
    pub name: String,
    pub file: String,
    pub cols: usize,
    pub rows: usize,
    pub cell_size: usize,
    pub layers: Vec<MapLayer>,
    pub objects: Vec<MapObject>,
    /// Distinct tile property sets; entry 0 is the empty set.
    pub tile_props: Vec<Properties>,
}

impl MapAsset {
    /// The tile layer called `name`.
    pub fn layer(&self, name: &str) -> Option<&MapLayer> {
        self.layers.iter().find(|l| l.name == name)
    }
}

/// Deepest element nesting a map or tileset may have (the `tiled` crate recurses per level).
pub const MAX_NESTING: usize = 64;

/// The line of the first element nested deeper than [`MAX_NESTING`], found without recursion.
fn too_deep(doc: &roxmltree::Document) -> Option<usize> {
    let mut stack = vec![(doc.root_element(), 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Some(doc.text_pos_at(node.range().start).row as usize);
        }
        stack.extend(
            node.children()
                .filter(|c| c.is_element())
                .map(|c| (c, depth + 1)),
        );
    }
    None
}

/// Serves cart files to the `tiled` loader.
struct CartReader<'a>(&'a CartFiles);

impl tiled::ResourceReader for CartReader<'_> {
    type Resource = Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        let key = normalize(path).unwrap_or_default();
        let bytes = self.0.get(&key).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("missing file `{key}`"),
            )
        })?;
        // Tilesets go through the same nesting check as maps.
        let text = std::str::from_utf8(bytes).unwrap_or("");
        if let Some(line) = roxmltree::Document::parse(text)
            .ok()
            .and_then(|d| too_deep(&d))
        {
            let message = format!("{key}:{line}: elements nest deeper than {MAX_NESTING} levels");
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                message,
            ));
        }
        Ok(Cursor::new(bytes.to_vec()))
    }
}

/// Loads map `file` named `name`; `sheets` are the cart's sheet declarations.
pub fn load_map(
    files: &CartFiles,
    file: &str,
    name: &str,
    sheets: &[SheetDecl],
) -> Result<MapAsset, CartError> {
    let bytes = files.require(file, "cart.toml")?;
    let text = std::str::from_utf8(bytes).map_err(|_| CartError::file(file, "not UTF-8 text"))?;
    match roxmltree::Document::parse(text) {
        Err(e) => {
            let line = e.pos().row as usize;
            return Err(CartError::at(file, line, format!("malformed XML: {e}")));
        }
        Ok(doc) => {
            if let Some(line) = too_deep(&doc) {
                let message = format!("elements nest deeper than {MAX_NESTING} levels");
                return Err(CartError::at(file, line, message));
            }
        }
    }
    let mut loader = tiled::Loader::with_reader(CartReader(files));
    let map = loader
        .load_tmx_map(file)
        .map_err(|e| CartError::file(file, format!("cannot read the map: {e}")))?;
    let fail = |message: String| CartError::file(file, message);

    if map.orientation != tiled::Orientation::Orthogonal {
        return Err(fail("only orthogonal maps are supported".into()));
    }
    if map.infinite() {
        return Err(fail(
            "infinite maps are not supported (untick \"Infinite\" in the map's properties)".into(),
        ));
    }
    let cell_size = map.tile_width as usize;
    if map.tile_width != map.tile_height || !(cell_size == 8 || cell_size == 16) {
        return Err(fail(format!(
            "cells are {}x{} px; layers use 8x8 or 16x16",
            map.tile_width, map.tile_height
        )));
    }
    let (cols, rows) = (map.width as usize, map.height as usize);
    if !(1..=BG_MAX_CELLS).contains(&cols) || !(1..=BG_MAX_CELLS).contains(&rows) {
        return Err(fail(format!(
            "{cols}x{rows} cells; layers hold up to 256x256"
        )));
    }

    let bases = map
        .tilesets()
        .iter()
        .map(|tileset| tileset_base(file, tileset, cell_size, sheets))
        .collect::<Result<Vec<_>, _>>()?;

    let mut asset = MapAsset {
        name: name.into(),
        file: file.into(),
        cols,
        rows,
        cell_size,
        layers: Vec::new(),
        objects: Vec::new(),
        tile_props: vec![Properties::new()],
    };
    let mut pending: Vec<tiled::Layer> = map.layers().collect();
    pending.reverse();
    while let Some(layer) = pending.pop() {
        let layer_name = layer.name.clone();
        match layer.layer_type() {
            LayerType::Tiles(TileLayer::Finite(tiles)) => {
                let mut cells = vec![Cell::default(); cols * rows];
                let mut props = vec![0u16; cols * rows];
                for y in 0..rows {
                    for x in 0..cols {
                        let Some(tile) = tiles.get_tile(x as i32, y as i32) else {
                            continue;
                        };
                        if tile.flip_d {
                            return Err(fail(format!(
                                "layer `{layer_name}` cell ({x}, {y}) is rotated; layers can flip but not rotate"
                            )));
                        }
                        let base = &bases[tile.tileset_index()];
                        let id = tile.id() as usize;
                        let tile_size = cell_size / TILE_SIZE;
                        let pattern = base.tile as usize
                            + (id / base.columns) * tile_size * PATTERN_SHEET_TILES_W
                            + (id % base.columns) * tile_size;
                        let tile_properties = tile
                            .get_tile()
                            .map(|t| properties(&t.properties))
                            .unwrap_or_default();
                        if let Some(name) = tile_properties.get("collide")
                            && crate::collide::tile::Tile::from_name(name).is_none()
                        {
                            return Err(fail(format!(
                                "tile {id} of tileset `{}`: collide = \"{name}\" is not a collision tile (see docs/collision.md)",
                                tile.get_tileset().name
                            )));
                        }
                        let palette = match tile_properties.get("palette") {
                            None => base.palette,
                            Some(p) => p.parse::<u8>().ok().filter(|&p| p < 16).ok_or_else(|| {
                                fail(format!("tile {id} of tileset `{}`: property palette = \"{p}\" is not 0-15", tile.get_tileset().name))
                            })?,
                        };
                        cells[y * cols + x] =
                            Cell::new(pattern as u32, palette, tile.flip_h, tile.flip_v);
                        props[y * cols + x] = intern(&mut asset.tile_props, tile_properties);
                    }
                }
                asset.layers.push(MapLayer {
                    name: layer_name,
                    cells,
                    props,
                });
            }
            LayerType::Tiles(_) => {
                return Err(fail(format!(
                    "layer `{layer_name}` is infinite; only finite layers are supported"
                )));
            }
            LayerType::Objects(objects) => {
                for object in objects.objects() {
                    let (width, height) = match object.shape {
                        tiled::ObjectShape::Rect { width, height }
                        | tiled::ObjectShape::Ellipse { width, height } => (width, height),
                        _ => (0.0, 0.0),
                    };
                    asset.objects.push(MapObject {
                        layer: layer_name.clone(),
                        name: object.name.clone(),
                        class: object.user_type.clone(),
                        x: f64::from(object.x),
                        y: f64::from(object.y),
                        width: f64::from(width),
                        height: f64::from(height),
                        properties: properties(&object.properties),
                    });
                }
            }
            LayerType::Group(group) => {
                let mut inner: Vec<tiled::Layer> = group.layers().collect();
                inner.reverse();
                pending.extend(inner);
            }
            LayerType::Image(_) => {}
        }
    }
    Ok(asset)
}

/// Where a tileset's tiles live in pattern VRAM.
struct TilesetBase {
    tile: u32,
    palette: u8,
    columns: usize,
}

fn tileset_base(
    file: &str,
    tileset: &tiled::Tileset,
    cell_size: usize,
    sheets: &[SheetDecl],
) -> Result<TilesetBase, CartError> {
    let fail =
        |message: String| CartError::file(file, format!("tileset `{}`: {message}", tileset.name));
    let image = tileset
        .image
        .as_ref()
        .ok_or_else(|| fail("has no single image (image collections are not supported)".into()))?;
    if tileset.tile_width as usize != cell_size || tileset.tile_height as usize != cell_size {
        return Err(fail(format!(
            "tiles are {}x{} px but the map's cells are {cell_size} px",
            tileset.tile_width, tileset.tile_height
        )));
    }
    if tileset.spacing != 0 || tileset.margin != 0 {
        return Err(fail("spacing and margin must be 0".into()));
    }
    // `tiled` joins the image path with the folder of the file that named it.
    let source = normalize(&image.source)
        .or_else(|| resolve(file, &image.source.to_string_lossy()))
        .ok_or_else(|| {
            fail(format!(
                "image `{}` is outside the cart",
                image.source.display()
            ))
        })?;
    let sheet = sheets
        .iter()
        .find(|s| normalize(Path::new(&s.file)).as_deref() == Some(source.as_str()));
    let sheet =
        sheet.ok_or_else(|| fail(format!("image `{source}` is not a [[sheet]] in cart.toml")))?;
    Ok(TilesetBase {
        tile: sheet.tile,
        palette: sheet.palette,
        columns: tileset.columns.max(1) as usize,
    })
}

fn properties(props: &tiled::Properties) -> Properties {
    props
        .iter()
        .map(|(k, v)| {
            let value = match v {
                PropertyValue::BoolValue(b) => b.to_string(),
                PropertyValue::FloatValue(f) => f.to_string(),
                PropertyValue::IntValue(i) => i.to_string(),
                PropertyValue::ColorValue(c) => {
                    format!("#{:02x}{:02x}{:02x}", c.red, c.green, c.blue)
                }
                PropertyValue::StringValue(s) | PropertyValue::FileValue(s) => s.clone(),
                PropertyValue::ObjectValue(id) => id.to_string(),
                PropertyValue::ClassValue { property_type, .. } => property_type.clone(),
                PropertyValue::ListValue(items) => format!("[{} items]", items.len()),
            };
            (k.clone(), value)
        })
        .collect()
}

/// The index of `props` in `table`, adding it when new.
fn intern(table: &mut Vec<Properties>, props: Properties) -> u16 {
    if let Some(i) = table.iter().position(|p| *p == props) {
        return i as u16;
    }
    table.push(props);
    (table.len() - 1) as u16
}
