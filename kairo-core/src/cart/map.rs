//! Tiled maps turned into what the machine uses: cell maps for background layers (each cell
//! with its tile's palette, empty where Tiled has no tile), each cell's tile properties (for
//! the collision unit), the tile animations the layers use, the objects, and the map's and
//! layers' properties.
//!
//! Cells Tiled rotates show a copy of their tile mirrored across its diagonal (made by the
//! importer) with the hardware's flips. Refused, each with the file, the layer and cell, and
//! what to do (every problem of a map, not only the first): non-orthogonal maps, cells other
//! than 8, 16 or 32 px squares, layers showing tiles that are not the cell size, layers
//! holding more or fewer tiles than the map has cells, tile ids past the end of their
//! tileset, bad `collide` and `palette` tile properties.

use std::collections::{BTreeMap, HashMap};

use crate::cart::CartError;
use crate::cart::art::Layout;
use crate::cart::tiled::{
    self, FLIP_D, FLIP_H, FLIP_V, GID_FLAGS, LayerKind, Properties, Shape, TilesetUse,
};
use crate::spec::{BG_CELL_SIZES, BG_MAX_CELLS, FRAME_RATE, TILE_ANIM_FRAMES};
use crate::video::anim::{AnimFrame, TileAnim};
use crate::video::cell::Cell;

/// One tile layer of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapLayer {
    pub name: String,
    /// `cols * rows` cells, row-major.
    pub cells: Vec<Cell>,
    /// Per cell, an index into [`MapAsset::tile_props`] (0 = no properties).
    pub props: Vec<u16>,
    /// The animations of the animated tiles this layer shows.
    pub animations: Vec<TileAnim>,
}

/// One object of an object layer, as Tiled saved it.
#[derive(Clone, Debug, PartialEq)]
pub struct MapObject {
    pub layer: String,
    pub id: u32,
    pub name: String,
    /// Tiled's class (formerly "type").
    pub class: String,
    /// `rect`, `ellipse`, `point`, `polygon`, `polyline`, `tile` or `text`.
    pub kind: &'static str,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Degrees clockwise.
    pub(crate) rotation: f64,
    pub visible: bool,
    /// Polygon and polyline points, relative to (x, y).
    pub points: Vec<(f64, f64)>,
    /// A tile object's tile (pattern tile, palette, flips), when its tileset is loaded.
    pub tile: Option<Cell>,
    pub text: String,
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
    pub properties: Properties,
    pub layers: Vec<MapLayer>,
    /// Every layer's name and properties, in Tiled's order (tile, object and image layers).
    pub(crate) layer_properties: Vec<(String, Properties)>,
    pub objects: Vec<MapObject>,
    /// Distinct tile property sets; entry 0 is the empty set.
    pub tile_props: Vec<Properties>,
    /// Per tileset, where its tiles are.
    pub tilesets: Vec<TilesetCells>,
}

/// Where a map's tileset went in pattern VRAM.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TilesetCells {
    pub first_gid: u32,
    /// Per tile id, the cell showing it (`None` if not loaded).
    pub cells: Vec<Option<Cell>>,
    /// Per tile id shown rotated, the cell showing its copy mirrored across the diagonal.
    pub(crate) transposed: BTreeMap<u32, Cell>,
    /// The tileset could not be loaded (that is reported once, for the tileset).
    pub failed: bool,
}

impl TilesetCells {
    /// The cell showing tile `id`, mirrored across its diagonal when `transposed`.
    fn cell(&self, id: u32, transposed: bool) -> Option<Cell> {
        if transposed {
            self.transposed.get(&id).copied()
        } else {
            self.cells.get(id as usize).copied().flatten()
        }
    }
}

impl MapAsset {
    /// The tile layer called `name`.
    pub fn layer(&self, name: &str) -> Option<&MapLayer> {
        self.layers.iter().find(|l| l.name == name)
    }

    /// The properties of the layer called `name`.
    pub(crate) fn layer_props(&self, name: &str) -> Option<&Properties> {
        self.layer_properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p)
    }

    /// The cell Tiled's global tile id `gid` (with flip bits) shows, if its tile is loaded.
    pub(crate) fn cell_of_gid(&self, gid: u32) -> Option<Cell> {
        let id = gid & !GID_FLAGS;
        let ts = self
            .tilesets
            .iter()
            .filter(|t| (1..=id).contains(&t.first_gid))
            .max_by_key(|t| t.first_gid)?;
        let cell = ts.cell(id - ts.first_gid, gid & FLIP_D != 0)?;
        Some(flipped(cell.tile(), cell.palette(), gid))
    }
}

/// A cell showing `tile` in `palette` with Tiled's flip bits of `gid`.
fn flipped(tile: usize, palette: u8, gid: u32) -> Cell {
    Cell::new(tile as u32, palette, gid & FLIP_H != 0, gid & FLIP_V != 0)
}

/// Checks what the machine needs of a map before its tilesets are loaded: orientation, size,
/// cell size. Returns the cell size.
pub(crate) fn check_shape(map: &tiled::Map) -> Result<usize, CartError> {
    let fail = |message: String| map.origin.error(message);
    if map.orientation != "orthogonal" {
        return Err(fail(format!(
            "the map is {}; Kairo's layers are orthogonal grids (Map > Map Properties > Orientation)",
            map.orientation
        )));
    }
    if map.infinite {
        return Err(fail(
            "infinite maps are not supported: untick \"Infinite\" in the map's properties".into(),
        ));
    }
    let (w, h) = (map.tile_width as usize, map.tile_height as usize);
    if w != h || !BG_CELL_SIZES.contains(&w) {
        let hint = if w == h && w == 24 {
            "scale the tileset image and the map to 32 px (or 16 px) tiles: Kairo's layers have 8, 16 or 32 px cells"
        } else {
            "Kairo's layers have square cells of 8, 16 or 32 px: make the map's and tilesets' tiles one of those"
        };
        return Err(fail(format!("cells are {w}x{h} px; {hint}")));
    }
    let (cols, rows) = (map.width as usize, map.height as usize);
    if !(1..=BG_MAX_CELLS).contains(&cols) || !(1..=BG_MAX_CELLS).contains(&rows) {
        return Err(fail(format!(
            "{cols}x{rows} cells; layers hold 1 to {BG_MAX_CELLS} cells a side (Map > Resize Map)"
        )));
    }
    Ok(w)
}

/// The tileset a global tile id belongs to and the tile's id in it.
pub(crate) fn find_tileset(tilesets: &[TilesetUse], gid: u32) -> Option<(usize, u32)> {
    let id = gid & !GID_FLAGS;
    let (index, ts) = tilesets
        .iter()
        .enumerate()
        .filter(|(_, t)| t.first_gid >= 1 && t.first_gid <= id)
        .max_by_key(|(_, t)| t.first_gid)?;
    Some((index, id - ts.first_gid))
}

/// What is wrong in the tiles of a map's tilesets, used or not: `collide` and `palette`
/// properties, animations (every problem, not only the first).
pub(crate) fn check_tilesets(map: &tiled::Map) -> Vec<CartError> {
    let mut problems = Vec::new();
    for tileset in map.tilesets.iter().map(|t| &t.tileset) {
        for (&id, data) in &tileset.tiles {
            if let Some(name) = data.properties.get("collide")
                && crate::collide::tile::Tile::from_name(name).is_none()
            {
                let message =
                    format!("collide = \"{name}\" is not a collision tile (see docs/collision.md)");
                problems.push(tile_error(tileset, id, message));
            }
            if let Some(p) = data.properties.get("palette")
                && !p.parse::<u8>().is_ok_and(|p| p < 16)
            {
                let message = format!("property palette = \"{p}\" is not 0-15");
                problems.push(tile_error(tileset, id, message));
            }
            if data.animation.len() > TILE_ANIM_FRAMES {
                problems.push(too_many_frames(tileset, id, data.animation.len()));
            }
        }
    }
    problems
}

/// Builds the map called `name`, given where each of its tilesets' tiles went (`None` for a
/// tileset whose image is not a single sheet: an image collection; `failed` lists tilesets
/// that could not be loaded, already reported, whose cells are left empty). Every problem
/// is collected.
pub fn build(
    map: &tiled::Map,
    name: &str,
    layouts: &[Option<Layout>],
    failed: &[usize],
) -> Result<MapAsset, Vec<CartError>> {
    let cell_size = check_shape(map).map_err(|e| vec![e])?;
    let (cols, rows) = (map.width as usize, map.height as usize);
    let mut asset = MapAsset {
        name: name.into(),
        file: map.origin.file.clone(),
        cols,
        rows,
        cell_size,
        properties: map.properties.clone(),
        layers: Vec::new(),
        layer_properties: Vec::new(),
        objects: Vec::new(),
        tile_props: vec![Properties::new()],
        tilesets: map
            .tilesets
            .iter()
            .zip(layouts)
            .map(|(ts, layout)| tileset_cells(ts.first_gid, layout))
            .collect(),
    };
    for &i in failed {
        if let Some(cells) = asset.tilesets.get_mut(i) {
            cells.failed = true;
        }
    }
    let mut problems = Vec::new();
    for layer in &map.layers {
        asset
            .layer_properties
            .push((layer.name.clone(), layer.properties.clone()));
        match &layer.kind {
            LayerKind::Tiles {
                width,
                height,
                gids,
            } => {
                let built = tile_layer(map, layer, (*width, *height, gids), &mut asset);
                match built {
                    Ok((built, found)) => {
                        problems.extend(found);
                        asset.layers.push(built);
                    }
                    Err(e) => problems.push(e),
                }
            }
            LayerKind::Objects(objects) => {
                for object in objects {
                    asset.objects.push(map_object(&layer.name, object, &asset));
                }
            }
            LayerKind::Image => {}
        }
    }
    if problems.is_empty() {
        Ok(asset)
    } else {
        Err(problems)
    }
}

/// Where a tileset's tiles are, from its layout.
fn tileset_cells(first_gid: u32, layout: &Option<Layout>) -> TilesetCells {
    let cell = |(tile, palette): (u16, u8)| Cell::new(u32::from(tile), palette, false, false);
    match layout {
        None => TilesetCells {
            first_gid,
            ..TilesetCells::default()
        },
        Some(layout) => TilesetCells {
            first_gid,
            cells: layout.blocks.iter().map(|b| b.map(cell)).collect(),
            transposed: layout
                .transposed
                .iter()
                .map(|(&k, &b)| (k as u32, cell(b)))
                .collect(),
            failed: false,
        },
    }
}

/// A tile layer and the problems of its cells (one per distinct tile); `Err` when the layer
/// itself has the wrong size.
fn tile_layer(
    map: &tiled::Map,
    layer: &tiled::Layer,
    (width, height, gids): (u32, u32, &[u32]),
    asset: &mut MapAsset,
) -> Result<(MapLayer, Vec<CartError>), CartError> {
    let at = |message: String| {
        layer
            .origin
            .error(format!("layer `{}`: {message}", layer.name))
    };
    let (cols, rows) = (asset.cols, asset.rows);
    if (width as usize, height as usize) != (cols, rows) {
        return Err(at(format!(
            "it is {width}x{height} cells but the map is {cols}x{rows}; resize the map in Tiled (Map > Resize Map) so every layer matches"
        )));
    }
    if gids.len() != cols * rows {
        return Err(at(format!(
            "it holds {} tile ids but the map has {cols}x{rows} = {cells} cells: the layer data was cut short or padded (edited by hand?); give it exactly {cells} ids, 0 for an empty cell",
            gids.len(),
            cells = cols * rows
        )));
    }
    let mut out = MapLayer {
        name: layer.name.clone(),
        cells: vec![Cell::EMPTY; cols * rows],
        props: vec![0; cols * rows],
        animations: Vec::new(),
    };
    // Per (tileset, tile, rotated): its pattern tile, palette and property set, worked out
    // once (`None`: the tile cannot be shown, said at its first cell).
    let mut seen: HashMap<TileKey, Option<ShownTile>> = HashMap::new();
    let mut unknown = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for (i, &gid) in gids.iter().enumerate() {
        if gid & !GID_FLAGS == 0 {
            continue;
        }
        let (x, y) = (i % cols, i / cols);
        let cell_at = |message: String| at(format!("cell ({x}, {y}): {message}"));
        let Some((index, id)) = find_tileset(&map.tilesets, gid) else {
            if unknown.insert(gid & !GID_FLAGS) {
                problems.push(cell_at(format!(
                    "tile id {} belongs to no tileset of the map",
                    gid & !GID_FLAGS
                )));
            }
            continue;
        };
        let key = (index, id, gid & FLIP_D != 0);
        let known = match seen.get(&key) {
            Some(&known) => known,
            None => {
                let known = match resolve_tile(map, key, asset, &mut out) {
                    Ok(known) => Some(known),
                    Err(TileProblem::Skip) => None,
                    Err(TileProblem::Cell(message)) => {
                        problems.push(cell_at(message));
                        None
                    }
                    Err(TileProblem::Located(e)) => {
                        problems.push(e);
                        None
                    }
                };
                seen.insert(key, known);
                known
            }
        };
        if let Some((tile, palette, props)) = known {
            out.cells[i] = flipped(tile, palette, gid);
            out.props[i] = props;
        }
    }
    Ok((out, problems))
}

/// A tile as a layer cell names it: tileset index, tile id, shown rotated.
type TileKey = (usize, u32, bool);
/// How a layer shows a tile: pattern tile, palette, property set.
type ShownTile = (usize, u8, u16);

/// Why a cell's tile cannot be shown: about the cell, or about the tileset (located there),
/// or its tileset failed to load (said already).
enum TileProblem {
    Cell(String),
    Located(CartError),
    Skip,
}

impl From<CartError> for TileProblem {
    fn from(e: CartError) -> Self {
        TileProblem::Located(e)
    }
}

/// Tile `id` of tileset `index` (mirrored across its diagonal when `transposed`) as a layer
/// shows it: pattern tile, palette and property set; its animation joins the layer's.
fn resolve_tile(
    map: &tiled::Map,
    (index, id, transposed): (usize, u32, bool),
    asset: &mut MapAsset,
    layer: &mut MapLayer,
) -> Result<(usize, u8, u16), TileProblem> {
    let tileset = &map.tilesets[index].tileset;
    let cells = &asset.tilesets[index];
    if cells.failed {
        return Err(TileProblem::Skip);
    }
    if tileset.image.is_some()
        && (tileset.tile_width as usize, tileset.tile_height as usize)
            != (asset.cell_size, asset.cell_size)
    {
        return Err(TileProblem::Cell(format!(
            "tileset `{}` has {}x{} px tiles but the map's cells are {} px; Kairo draws one tile per cell: use this tileset only for tile objects (in an object layer), or make its tiles {} px squares",
            tileset.name, tileset.tile_width, tileset.tile_height, asset.cell_size, asset.cell_size
        )));
    }
    if tileset.image.is_none() {
        if cells.cell(id, transposed).is_none() {
            return Err(TileProblem::Cell(format!(
                "tile {id} of tileset `{}` (an image collection) is not a {} px square image; a layer cell shows one tile of the cell size: move it to an object layer (as a tile object), or give it a {} px image",
                tileset.name, asset.cell_size, asset.cell_size
            )));
        }
    } else if id as usize >= cells.cells.len() {
        return Err(TileProblem::Cell(format!(
            "tile {id} is past the end of tileset `{}` ({} tiles): the tileset image shrank, or the map uses a tile that no longer exists",
            tileset.name,
            cells.cells.len()
        )));
    }
    let Some(base) = cells.cell(id, transposed) else {
        let message = format!("tile {id} of tileset `{}` was not loaded", tileset.name);
        return Err(TileProblem::Cell(message));
    };
    let data = tileset.tiles.get(&id);
    let props = data.map(|d| d.properties.clone()).unwrap_or_default();
    if let Some(name) = props.get("collide")
        && crate::collide::tile::Tile::from_name(name).is_none()
    {
        let message =
            format!("collide = \"{name}\" is not a collision tile (see docs/collision.md)");
        return Err(tile_error(tileset, id, message).into());
    }
    let palette = match props.get("palette") {
        None => base.palette(),
        Some(p) => p.parse::<u8>().ok().filter(|&p| p < 16).ok_or_else(|| {
            tile_error(
                tileset,
                id,
                format!("property palette = \"{p}\" is not 0-15"),
            )
        })?,
    };
    // Rotated copies are tiles of their own: they do not animate.
    if let Some(data) = data.filter(|d| !d.animation.is_empty() && !transposed) {
        let anim = animation(tileset, id, base, &data.animation, &cells.cells)?;
        layer.animations.push(anim);
    }
    let props = asset.intern(props).ok_or_else(|| {
        TileProblem::Located(
            tileset
                .origin
                .error("more than 65535 different tile property sets"),
        )
    })?;
    Ok((base.tile(), palette, props))
}

/// An error in a tile of a tileset, against the file that defines the tileset.
fn tile_error(tileset: &tiled::Tileset, id: u32, message: String) -> CartError {
    tileset
        .origin
        .error(format!("tileset `{}` tile {id}: {message}", tileset.name))
}

fn too_many_frames(tileset: &tiled::Tileset, id: u32, frames: usize) -> CartError {
    tile_error(
        tileset,
        id,
        format!("its animation has {frames} frames; the hardware plays up to {TILE_ANIM_FRAMES}"),
    )
}

/// Machine frames a frame of `ms` milliseconds shows for (rounded, at least 1): how Tiled's
/// tile animations and Aseprite's frame durations are converted.
pub(crate) fn frames_of_ms(ms: u32) -> u16 {
    let frames = (u64::from(ms) * u64::from(FRAME_RATE) + 500) / 1000;
    frames.clamp(1, u64::from(u16::MAX)) as u16
}

/// Tiled's animation of tile `id` in pattern tiles and machine frames.
fn animation(
    tileset: &tiled::Tileset,
    id: u32,
    base: Cell,
    frames: &[(u32, u32)],
    cells: &[Option<Cell>],
) -> Result<TileAnim, CartError> {
    if frames.len() > TILE_ANIM_FRAMES {
        return Err(too_many_frames(tileset, id, frames.len()));
    }
    let mut out = Vec::with_capacity(frames.len());
    for &(frame_id, ms) in frames {
        let cell = cells
            .get(frame_id as usize)
            .copied()
            .flatten()
            .ok_or_else(|| {
                tile_error(
                    tileset,
                    id,
                    format!("its animation shows tile {frame_id}, which is not in the tileset"),
                )
            })?;
        out.push(AnimFrame {
            tile: cell.tile() as u16,
            palette: Some(cell.palette()),
            frames: frames_of_ms(ms),
        });
    }
    Ok(TileAnim {
        tile: base.tile() as u16,
        frames: out,
    })
}

fn map_object(layer: &str, object: &tiled::Object, asset: &MapAsset) -> MapObject {
    let (points, tile, text) = match &object.shape {
        Shape::Polygon(p) | Shape::Polyline(p) => (p.clone(), None, String::new()),
        Shape::Tile(gid) => (Vec::new(), asset.cell_of_gid(*gid), String::new()),
        Shape::Text(t) => (Vec::new(), None, t.clone()),
        _ => (Vec::new(), None, String::new()),
    };
    MapObject {
        layer: layer.to_string(),
        id: object.id,
        name: object.name.clone(),
        class: object.class.clone(),
        kind: object.shape.name(),
        x: object.x,
        y: object.y,
        width: object.width,
        height: object.height,
        rotation: object.rotation,
        visible: object.visible,
        points,
        tile,
        text,
        properties: object.properties.clone(),
    }
}

impl MapAsset {
    /// The index of `props` in [`MapAsset::tile_props`], adding it when new; `None` past
    /// 65535 sets. Called once per distinct tile, so a linear search is enough.
    fn intern(&mut self, props: Properties) -> Option<u16> {
        if let Some(i) = self.tile_props.iter().position(|p| *p == props) {
            return u16::try_from(i).ok();
        }
        self.tile_props.push(props);
        u16::try_from(self.tile_props.len() - 1).ok()
    }
}
