//! The tileset images of a cart's Tiled maps brought into pattern VRAM. Each image is checked
//! against what its tileset declares (size, columns, tile count); an image declared as a
//! `[[sheet]]` gives the layout of where it was put, any other image is imported once (maps
//! sharing a tileset share its tiles) with the tiles all the cart's maps use.

use std::collections::{BTreeMap, BTreeSet};

use crate::cart::CartError;
use crate::cart::art::picture::{self, Picture};
use crate::cart::art::vram::{VramBuilder, block_tiles, slot_tile};
use crate::cart::art::{self, Art, Cut, DeclaredSheet, Layout};
use crate::cart::files::CartFiles;
use crate::cart::map::find_tileset;
use crate::cart::tiled::{self, FLIP_D, LayerKind, Shape, Tileset};
use crate::spec::{BG_CELL_SIZES, PATTERN_SHEET_TILES_W, TILE_SIZE};

/// One image as tilesets cut it: the same image cut the same way is imported once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ImageKey {
    source: String,
    cut: Cut,
    trans: Option<u32>,
}

/// What the maps ask of one image: the tiles they show, and those they show rotated.
#[derive(Default)]
struct Wanted<'m> {
    /// The first tileset that cuts the image this way (for messages).
    tileset: Option<&'m Tileset>,
    ids: BTreeSet<usize>,
    transposed: BTreeSet<usize>,
}

/// Where the tiles of every tileset of every map went: per map, per tileset, a layout
/// (`None` for image collections), and the tilesets that failed (their problems collected
/// here, once each; their layouts are empty).
pub fn place(
    files: &CartFiles,
    maps: &[&tiled::Map],
    declared: &[DeclaredSheet],
    art: &mut Art,
    problems: &mut Vec<CartError>,
) -> Vec<(Vec<Option<Layout>>, Vec<usize>)> {
    let mut wanted: BTreeMap<ImageKey, Wanted> = BTreeMap::new();
    for map in maps {
        for (i, ts) in map.tilesets.iter().enumerate() {
            if let Some(key) = image_key(&ts.tileset) {
                let (ids, transposed) = used_tiles(map, i);
                let entry = wanted.entry(key).or_default();
                entry.tileset.get_or_insert(&ts.tileset);
                entry.ids.extend(ids);
                entry.transposed.extend(transposed);
            }
        }
    }
    // Each image once, in a fixed order.
    let mut placed: BTreeMap<ImageKey, Result<(Layout, Option<Picture>), CartError>> =
        BTreeMap::new();
    for (key, want) in &wanted {
        let tileset = want.tileset.expect("every entry has a tileset");
        if tileset.tile_width != tileset.tile_height || !BG_CELL_SIZES.contains(&key.cut.size) {
            // No layer can show these tiles (the map says so if one tries); objects can
            // still name them.
            art.notes.push(format!(
                "{}: tileset `{}` has {}x{} px tiles, not squares of 8, 16 or 32 px: they are not loaded into pattern VRAM; objects keep them (kind \"tile\", without a pattern tile), and no tile layer may show them",
                tileset.origin.file, tileset.name, tileset.tile_width, tileset.tile_height
            ));
            placed.insert(key.clone(), Ok((Layout::default(), None)));
            continue;
        }
        let is_sheet = declared.iter().any(|d| d.file == key.source);
        let result = decode_image(files, tileset, key, art, is_sheet).and_then(|picture| {
            let mut layout = match declared.iter().find(|d| d.file == key.source) {
                Some(sheet) => sheet_layout(sheet, tileset, &art.vram)?,
                None => {
                    art.say_transparency(&key.source, &picture, false);
                    art.import_tileset(&key.source, &picture, key.cut, &want.ids)?
                }
            };
            art.add_transposed(&key.source, &mut layout, key.cut, &want.transposed)?;
            Ok((layout, Some(picture)))
        });
        placed.insert(key.clone(), result);
    }
    let mut reported = BTreeSet::new();
    let mut singles = Singles::default();
    let mut out = Vec::with_capacity(maps.len());
    for map in maps {
        let mut layouts = Vec::with_capacity(map.tilesets.len());
        let mut failed = Vec::new();
        for (i, use_) in map.tilesets.iter().enumerate() {
            let tileset = &use_.tileset;
            let result = match image_key(tileset) {
                None => singles.layout(files, map, i, art),
                Some(key) => match &placed[&key] {
                    Ok((layout, Some(picture))) => {
                        check_declared(tileset, &key, picture).map(|note| {
                            art.notes.extend(note);
                            layout.clone()
                        })
                    }
                    Ok((layout, None)) => Ok(layout.clone()),
                    Err(e) => Err(e.clone()),
                },
            };
            match result {
                Ok(layout) => layouts.push(Some(layout)),
                Err(e) => {
                    failed.push(i);
                    layouts.push(Some(Layout::default()));
                    if reported.insert(e.to_string()) {
                        problems.push(e);
                    }
                }
            }
        }
        out.push((layouts, failed));
    }
    out
}

/// One tile of an image collection: its image, rectangle (x, y, size) and colour key.
type SingleKey = (String, u32, u32, u32, Option<u32>);

/// Tiles of image collections imported one by one, each once.
#[derive(Default)]
struct Singles {
    done: BTreeMap<SingleKey, Result<(u16, u8), CartError>>,
}

impl Singles {
    /// The layout of collection tileset `index` of `map`: the tiles the map uses whose image
    /// is exactly a cell, imported; other tiles are left out (a layer cell showing one is an
    /// error when the map is built).
    fn layout(
        &mut self,
        files: &CartFiles,
        map: &tiled::Map,
        index: usize,
        art: &mut Art,
    ) -> Result<Layout, CartError> {
        let tileset = &map.tilesets[index].tileset;
        let cell = map.tile_width;
        let (ids, transposed) = used_tiles(map, index);
        let in_layers = layer_tiles(map, index);
        let mut layout = Layout {
            blocks: vec![None; ids.iter().max().map_or(0, |m| m + 1)],
            ..Layout::default()
        };
        for &id in &ids {
            let Some(image) = tileset
                .tiles
                .get(&(id as u32))
                .and_then(|t| t.image.as_ref())
            else {
                continue;
            };
            if image.width.unwrap_or(cell) != cell || image.height.unwrap_or(cell) != cell {
                continue;
            }
            let key = (image.source.clone(), image.x, image.y, cell, image.trans);
            let placed = self
                .done
                .entry(key)
                .or_insert_with(|| {
                    let at = |message: String| {
                        image
                            .origin
                            .error(format!("tileset `{}` tile {id}: {message}", tileset.name))
                    };
                    let bytes = files.get(&image.source).ok_or_else(|| {
                        at(format!("image `{}` is missing from the cart", image.source))
                    })?;
                    let clear = picture::Clear::key(image.trans);
                    let (picture, _) = art::decode_image(art, &image.source, bytes, clear)?;
                    art.say_transparency(&image.source, &picture, false);
                    let size = cell as usize;
                    let tile = picture
                        .crop(image.x as usize, image.y as usize, size, size)
                        .ok_or_else(|| {
                            at(format!(
                                "its {size} px rectangle at ({}, {}) is outside `{}` ({}x{} px)",
                                image.x, image.y, image.source, picture.width, picture.height
                            ))
                        })?;
                    art.import_single(&image.source, &tile)
                })
                .clone();
            match placed {
                Ok(placed) => layout.blocks[id] = Some(placed),
                // A tile only objects use does not stop the map: they keep it without a
                // pattern tile.
                Err(e) if !in_layers.contains(&(id as u32)) => art.warnings.push(format!(
                    "{e} (tile {id} of tileset `{}`, which only tile objects use: they keep it, without a pattern tile)",
                    tileset.name
                )),
                Err(e) => return Err(e),
            }
        }
        let cut = Cut::plain(cell as usize);
        art.add_transposed(&tileset.origin.file, &mut layout, cut, &transposed)?;
        Ok(layout)
    }
}

fn image_key(tileset: &Tileset) -> Option<ImageKey> {
    let image = tileset.image.as_ref()?;
    Some(ImageKey {
        source: image.source.clone(),
        cut: Cut {
            size: tileset.tile_width as usize,
            margin: tileset.margin as usize,
            spacing: tileset.spacing as usize,
        },
        trans: image.trans,
    })
}

/// The tile ids of tileset `index` that `map` shows: in layers, as tile objects, and the
/// frames of their animations; and those layers show rotated (Tiled's diagonal flip).
fn used_tiles(map: &tiled::Map, index: usize) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let mut ids = BTreeSet::new();
    let mut transposed = BTreeSet::new();
    let mut add = |gid: u32| {
        if let Some((i, id)) = find_tileset(&map.tilesets, gid)
            && i == index
        {
            ids.insert(id);
            if gid & FLIP_D != 0 {
                transposed.insert(id as usize);
            }
        }
    };
    for layer in &map.layers {
        match &layer.kind {
            LayerKind::Tiles { gids, .. } => gids.iter().for_each(|&g| add(g)),
            LayerKind::Objects(objects) => {
                for object in objects {
                    if let Shape::Tile(gid) = object.shape {
                        add(gid);
                    }
                }
            }
            LayerKind::Image => {}
        }
    }
    let tiles = &map.tilesets[index].tileset.tiles;
    let frames: Vec<u32> = ids
        .iter()
        .filter_map(|id| tiles.get(id))
        .flat_map(|t| t.animation.iter().map(|&(frame, _)| frame))
        .collect();
    ids.extend(frames);
    (ids.into_iter().map(|id| id as usize).collect(), transposed)
}

/// The tile ids of tileset `index` that `map`'s tile layers show (not its objects).
fn layer_tiles(map: &tiled::Map, index: usize) -> BTreeSet<u32> {
    map.layers
        .iter()
        .filter_map(|layer| match &layer.kind {
            LayerKind::Tiles { gids, .. } => Some(gids),
            _ => None,
        })
        .flatten()
        .filter_map(|&gid| find_tileset(&map.tilesets, gid).filter(|(i, _)| *i == index))
        .map(|(_, id)| id)
        .collect()
}

/// An error about a tileset's image, against the file that defines the tileset.
fn image_error(tileset: &Tileset, message: String) -> CartError {
    let origin = tileset
        .image
        .as_ref()
        .map_or(&tileset.origin, |i| &i.origin);
    origin.error(format!("tileset `{}`: {message}", tileset.name))
}

/// Decodes a tileset's image.
/// Decodes a tileset's image (PNG or Aseprite). An Aseprite image's notes join `art`'s,
/// unless a `[[sheet]]` loaded it already and said them.
fn decode_image(
    files: &CartFiles,
    tileset: &Tileset,
    key: &ImageKey,
    art: &mut Art,
    is_sheet: bool,
) -> Result<Picture, CartError> {
    let bytes = files.get(&key.source).ok_or_else(|| {
        image_error(
            tileset,
            format!("image `{}` is missing from the cart", key.source),
        )
    })?;
    let clear = picture::Clear::key(key.trans);
    let picture = if is_sheet {
        art::decode_image(&mut Art::default(), &key.source, bytes, clear)?.0
    } else {
        art::decode_image(art, &key.source, bytes, clear)?.0
    };
    let (cols, rows) = key.cut.grid(picture.width, picture.height);
    if cols * rows == 0 {
        let message = format!(
            "its image `{}` ({}x{} px) holds no whole {} px tile",
            key.source, picture.width, picture.height, key.cut.size
        );
        return Err(image_error(tileset, message));
    }
    Ok(picture)
}

/// Checks an image against what a tileset says of it: Tiled writes the image's size, columns
/// and tile count when it saves a tileset, so a mismatch means the image changed since. As
/// in Tiled, an image that only gained (or lost) rows keeps every tile's place: it loads,
/// with a note (returned). Other changes move tiles (the columns, tile size, margin or
/// spacing changed) and are refused.
fn check_declared(
    tileset: &Tileset,
    key: &ImageKey,
    picture: &Picture,
) -> Result<Option<String>, CartError> {
    let image = tileset
        .image
        .as_ref()
        .expect("keyed tilesets have an image");
    let at = |message: String| image_error(tileset, message);
    let (cols, rows) = key.cut.grid(picture.width, picture.height);
    let reopen = "reopen the tileset in Tiled (Tileset Properties > Image) and save it";
    if let Some(w) = image.width
        && w as usize != picture.width
        && tileset.columns.is_none_or(|c| c as usize != cols)
    {
        return Err(at(format!(
            "image `{}` is {} px wide but the tileset says {w}: its columns changed since the tileset was saved, which moves the tiles; {reopen}",
            key.source, picture.width
        )));
    }
    if let Some(columns) = tileset.columns
        && columns as usize != cols
    {
        return Err(at(format!(
            "it says {columns} columns but its image `{}` holds {cols} columns of {} px tiles (margin {}, spacing {}): the tile size, margin or spacing changed, or the image did; {reopen}",
            key.source, key.cut.size, key.cut.margin, key.cut.spacing
        )));
    }
    let said_rows = match (tileset.tile_count, image.height) {
        (Some(count), _) => Some(count as usize)
            .filter(|&c| c != cols * rows)
            .map(|c| c.div_ceil(cols.max(1))),
        (None, Some(h)) => Some(key.cut.grid(picture.width, h as usize).1).filter(|&r| r != rows),
        (None, None) => None,
    };
    Ok(said_rows.map(|before| {
        format!(
            "{}: tileset `{}`: its image `{}` has {rows} rows of tiles now, {before} when the tileset was saved: its {} tiles are loaded as the image has them (the columns are unchanged, so every tile keeps its id, as in Tiled)",
            tileset.origin.file,
            tileset.name,
            key.source,
            cols * rows
        )
    }))
}

/// Where a tileset's tiles are in a declared `[[sheet]]`, with the palette the sheet gave
/// each.
fn sheet_layout(
    sheet: &DeclaredSheet,
    tileset: &Tileset,
    vram: &VramBuilder,
) -> Result<Layout, CartError> {
    let size = tileset.tile_width as usize;
    let at = |message: String| image_error(tileset, message);
    if tileset.margin != 0 || tileset.spacing != 0 {
        return Err(at(format!(
            "its image `{}` is a [[sheet]] in cart.toml, which is cut without margin or spacing; remove the [[sheet]] to let the map import the image",
            sheet.file
        )));
    }
    let b = size / TILE_SIZE;
    let cols = sheet.width / size;
    let count = cols * (sheet.height / size);
    let tops: Vec<usize> = match sheet.cut {
        Some(cut) if cut != size => {
            return Err(at(format!(
                "its image `{}` is a [[sheet]] cut into {cut} px tiles but the tileset's tiles are {size} px: set tile_size = {size} in the [[sheet]]",
                sheet.file
            )));
        }
        Some(_) => {
            let first = (sheet.tile / PATTERN_SHEET_TILES_W / b) * (PATTERN_SHEET_TILES_W / b)
                + (sheet.tile % PATTERN_SHEET_TILES_W) / b;
            (first..first + count).map(|s| slot_tile(s, b)).collect()
        }
        None => (0..count)
            .map(|k| sheet.tile + (k / cols) * b * PATTERN_SHEET_TILES_W + (k % cols) * b)
            .collect(),
    };
    let mut layout = Layout {
        blocks: Vec::with_capacity(count),
        ..Layout::default()
    };
    for (k, &top) in tops.iter().enumerate() {
        // A blank 8 px part of the tile (all transparent) shows no colour, whatever palette
        // the sheet gave it.
        let blank = |t: usize| {
            (0..TILE_SIZE).all(|y| (0..TILE_SIZE).all(|x| vram.vram.pixel(t, x, y) == 0))
        };
        let parts: Vec<usize> = block_tiles(top, b).collect();
        let shown: Vec<usize> = parts.iter().copied().filter(|&t| !blank(t)).collect();
        let palettes: BTreeSet<Option<u8>> = if shown.is_empty() { &parts } else { &shown }
            .iter()
            .map(|&t| vram.palettes[t % vram.palettes.len()])
            .collect();
        if palettes.len() > 1 {
            return Err(at(format!(
                "tile {k} of `{}` spans several palettes: set tile_size = {size} in its [[sheet]] so each tile keeps one palette",
                sheet.file
            )));
        }
        let palette = palettes.into_iter().next().flatten().unwrap_or(0);
        layout.blocks.push(Some((top as u16, palette)));
    }
    Ok(layout)
}
