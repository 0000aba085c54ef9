//! Art as people draw it, brought into pattern VRAM and palette RAM at cart load.
//!
//! Two ways in:
//! - a `[[sheet]]` declared in `cart.toml` lands where it says (`tile`, `palette`): up to
//!   128 px wide it keeps its layout in the 16-tile-wide VRAM sheet; wider, it is cut into
//!   blocks of `tile_size` px (8, 16 or 32) placed one after another from `tile`;
//! - a tileset image a Tiled map uses and `cart.toml` does not declare is imported: cut with
//!   the tileset's tile size, margin, spacing and colour key, placed where VRAM is free in
//!   Tiled's tile order (the whole image if it fits, otherwise only the tiles the cart's maps
//!   use), colours grouped into palettes automatically.
//!
//! Colours: an indexed sheet whose every block stays within one bank of 16 entries keeps its
//! indices (bank `k` goes to palette `palette + k`); a sheet whose colours fit its palette
//! uses that palette; anything else is split automatically into palettes of 15 colours plus
//! transparent, one palette per block (see [`palettes`]). Refusals name the tiles and counts.

pub mod aseprite;
pub mod palettes;
pub mod picture;
pub mod vram;

use std::collections::{BTreeMap, BTreeSet};

use crate::cart::CartError;
use crate::spec::{PALETTES, PATTERN_SHEET_TILES_W, PATTERN_TILES, TILE_SIZE};
use palettes::{PaletteBuilder, USABLE};
use picture::{CLEAR, Clear, Picture};
use vram::{VramBuilder, slot_tile};

/// How an image is cut into tiles: Tiled's tile size, margin and spacing, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cut {
    pub size: usize,
    pub margin: usize,
    pub spacing: usize,
}

impl Cut {
    /// A cut into `size` px tiles edge to edge.
    pub fn plain(size: usize) -> Cut {
        Cut {
            size,
            margin: 0,
            spacing: 0,
        }
    }

    /// Tiles across and down an image `width` x `height` px holds, as Tiled counts them.
    pub fn grid(&self, width: usize, height: usize) -> (usize, usize) {
        let count = |side: usize| {
            if self.size == 0 || side < 2 * self.margin + self.size {
                0
            } else {
                (side - 2 * self.margin + self.spacing) / (self.size + self.spacing)
            }
        };
        (count(width), count(height))
    }

    /// The top-left pixel of tile `k` in an image `cols` tiles wide.
    fn origin(&self, k: usize, cols: usize) -> (usize, usize) {
        let step = self.size + self.spacing;
        (
            self.margin + (k % cols) * step,
            self.margin + (k / cols) * step,
        )
    }

    /// Pattern tiles per side of one tile.
    fn tiles(&self) -> usize {
        self.size / TILE_SIZE
    }
}

/// Where an image's tiles went: per tile (Tiled's tile id order) its top-left pattern tile
/// and palette, or `None` when it was not loaded; and the copies made of some tiles mirrored
/// across their diagonal (x and y swapped), for cells Tiled rotates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub blocks: Vec<Option<(u16, u8)>>,
    pub(crate) transposed: BTreeMap<usize, (u16, u8)>,
    /// Whether the tiles kept the indices of an indexed image (one palette per bank).
    pub banked: bool,
}

/// A `[[sheet]]` as loaded, to work out layouts for the tilesets that use its image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredSheet {
    pub file: String,
    pub tile: usize,
    pub width: usize,
    pub height: usize,
    /// The block size it was cut into when wider than the VRAM sheet, else `None` (2-D).
    pub cut: Option<usize>,
    /// An Aseprite sheet's frames and tags, for the cart's scripts.
    pub animation: Option<SheetAnimation>,
}

/// An Aseprite sheet's frames as they landed in VRAM, and its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetAnimation {
    /// Each frame's size in pixels, padded to the tile grid.
    pub cell: (usize, usize),
    /// Per frame: the pattern tile its top-left 8x8 pixels landed on, their palette, and
    /// the frame's duration in milliseconds.
    pub frames: Vec<SheetFrame>,
    pub tags: Vec<aseprite::Tag>,
}

/// One frame of an Aseprite sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetFrame {
    pub tile: u16,
    pub palette: u8,
    pub ms: u16,
}

/// A sheet or tileset image decoded: a PNG, or an Aseprite file (by its extension) read as
/// the horizontal sheet of its frames; the Aseprite reader's notes and warnings are added to
/// `art`'s.
pub(crate) fn decode_image(
    art: &mut Art,
    file: &str,
    bytes: &[u8],
    clear: Clear,
) -> Result<(Picture, Option<aseprite::AseSheet>), CartError> {
    if !aseprite::is_aseprite(file) {
        return Ok((picture::decode(file, bytes, clear)?, None));
    }
    let mut sheet = aseprite::decode(file, bytes, clear)?;
    art.notes.append(&mut sheet.notes);
    art.warnings.append(&mut sheet.warnings);
    let picture = std::mem::replace(&mut sheet.picture, Picture::empty());
    Ok((picture, Some(sheet)))
}

/// What `[[sheet]]` asks for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SheetRequest {
    pub tile: u32,
    pub palette: u8,
    pub tile_size: usize,
    /// What is transparent besides what the PNG says (its `transparent` key, and the colour
    /// key of a Tiled tileset that uses the image).
    pub clear: Clear,
}

/// The art of a cart being loaded.
#[derive(Clone, Debug, Default)]
pub struct Art {
    pub palettes: PaletteBuilder,
    pub vram: VramBuilder,
    /// What the importer did, one line each (`kairo check` prints them as `note:` lines).
    pub notes: Vec<String>,
    /// What the importer did that may not be what the cart meant: colours split or spilled
    /// over palettes, transparency the PNG decides (`warning:` lines of `kairo check`, and a
    /// note in the window).
    pub warnings: Vec<String>,
}

/// A picture as it is cut: how, how many tiles across, and whether its indices are kept
/// (an indexed sheet whose tiles each stay in one bank of 16 entries).
struct Source<'p> {
    picture: &'p Picture,
    cut: Cut,
    cols: usize,
    banked: bool,
}

/// The tiles of a picture to load and their colours.
struct Blocks {
    ids: Vec<usize>,
    colours: Vec<Vec<u32>>,
}

impl Blocks {
    /// Reads the colours of tiles `ids`; a tile with more than 15 is an error naming it.
    fn read(file: &str, picture: &Picture, cut: Cut, ids: Vec<usize>) -> Result<Blocks, CartError> {
        let (cols, _) = cut.grid(picture.width, picture.height);
        let mut colours = Vec::with_capacity(ids.len());
        let mut too_many = Vec::new();
        for &k in &ids {
            let (x0, y0) = cut.origin(k, cols);
            let mut set: Vec<u32> = Vec::new();
            let mut all = BTreeSet::new();
            for y in y0..y0 + cut.size {
                for x in x0..x0 + cut.size {
                    let c = picture.at(x, y);
                    if c != CLEAR && !set.contains(&c) {
                        if set.len() < USABLE {
                            set.push(c);
                        } else {
                            all.extend(set.iter().copied());
                            all.insert(c);
                        }
                    }
                }
            }
            if !all.is_empty() {
                too_many.push(format!(
                    "{} ({} colours)",
                    picture.name_tile(k, x0),
                    all.len()
                ));
            }
            colours.push(set);
        }
        if !too_many.is_empty() {
            let count = too_many.len();
            let shown: Vec<String> = too_many.into_iter().take(6).collect();
            return Err(CartError::file(
                file,
                format!(
                    "{count} of its tiles use more than 15 colours: {}{}; a tile shows at most 15 colours plus transparent: reduce the colours of those tiles",
                    shown.join(", "),
                    if count > shown.len() { ", ..." } else { "" }
                ),
            ));
        }
        Ok(Blocks { ids, colours })
    }
}

impl Art {
    /// Loads a declared `[[sheet]]`.
    pub(crate) fn load_sheet(
        &mut self,
        file: &str,
        bytes: &[u8],
        at: SheetRequest,
    ) -> Result<DeclaredSheet, CartError> {
        let err = |message: String| CartError::file(file, message);
        if !crate::spec::BG_CELL_SIZES.contains(&at.tile_size) {
            return Err(err(format!(
                "tile_size = {} is not 8, 16 or 32",
                at.tile_size
            )));
        }
        if usize::from(at.palette) >= PALETTES {
            return Err(err(format!("palette {} does not exist (0-15)", at.palette)));
        }
        let (picture, ase) = decode_image(self, file, bytes, at.clear)?;
        self.say_transparency(file, &picture, true);
        let (width, height) = (picture.width, picture.height);
        let size = at.tile_size;
        if width == 0 || height == 0 || width % size != 0 || height % size != 0 {
            return Err(err(format!(
                "{width}x{height} px: a sheet of {size} px tiles must be a non-zero multiple of {size} px on each side"
            )));
        }
        let tile = at.tile as usize;
        let sheet_px = PATTERN_SHEET_TILES_W * TILE_SIZE;
        let b = size / TILE_SIZE;
        let cut = Cut::plain(size);
        let (cols, rows) = cut.grid(width, height);
        // Where each block's top-left pattern tile goes.
        let places: Vec<usize> = if width <= sheet_px {
            let (x, y) = (tile % PATTERN_SHEET_TILES_W, tile / PATTERN_SHEET_TILES_W);
            if x * TILE_SIZE + width > sheet_px {
                return Err(err(format!(
                    "{width} px wide from tile {tile} (column {x}) passes the 128 px edge of pattern VRAM"
                )));
            }
            if (y * TILE_SIZE + height) / TILE_SIZE * PATTERN_SHEET_TILES_W > PATTERN_TILES {
                return Err(err(format!(
                    "{height} px tall from tile {tile} (row {y}) runs past tile 2047 of pattern VRAM"
                )));
            }
            (0..cols * rows)
                .map(|k| tile + (k / cols) * b * PATTERN_SHEET_TILES_W + (k % cols) * b)
                .collect()
        } else {
            if !tile.is_multiple_of(b) || !(tile / PATTERN_SHEET_TILES_W).is_multiple_of(b) {
                return Err(err(format!(
                    "a sheet cut into {size} px tiles must start on a {size} px boundary of pattern VRAM; tile {tile} is not"
                )));
            }
            let first = (tile / PATTERN_SHEET_TILES_W / b) * (PATTERN_SHEET_TILES_W / b)
                + (tile % PATTERN_SHEET_TILES_W) / b;
            if first + cols * rows > VramBuilder::slots(b) {
                return Err(err(format!(
                    "its {} tiles of {size} px from tile {tile} run past tile 2047 of pattern VRAM",
                    cols * rows
                )));
            }
            (first..first + cols * rows)
                .map(|s| slot_tile(s, b))
                .collect()
        };

        let ids: Vec<usize> = (0..cols * rows).collect();
        // Banks past the last palette cannot be kept: the colours are grouped instead.
        let banks = bank_palettes(&picture, cut, cols).filter(|banks| {
            usize::from(at.palette) + usize::from(banks.iter().copied().max().unwrap_or(0))
                < PALETTES
        });
        let banked = banks.is_some();
        let palettes = match banks {
            Some(banks) => {
                let highest = banks.iter().copied().max().unwrap_or(0);
                let targets: Vec<(u8, u8)> = (0..=highest)
                    .map(|bank| (bank, at.palette + bank))
                    .collect();
                self.load_banks(&picture, &targets);
                if highest > 0 {
                    self.notes.push(format!(
                        "{file}: indexed, its {} banks of 16 entries kept as palettes {}-{}",
                        highest + 1,
                        at.palette,
                        at.palette + highest
                    ));
                }
                banks.into_iter().map(|bank| at.palette + bank).collect()
            }
            None => {
                let blocks = Blocks::read(file, &picture, cut, ids.clone())?;
                let union: BTreeSet<u32> = blocks.colours.iter().flatten().copied().collect();
                let union: Vec<u32> = union.into_iter().collect();
                if self.palettes.fits(usize::from(at.palette), &union) {
                    vec![at.palette; ids.len()]
                } else {
                    let grouped = self
                        .palettes
                        .group(&blocks.colours, Some(at.palette))
                        .map_err(|e| {
                            let free = self.palettes.free_count();
                            no_room(file, (&picture, cut), &blocks.ids, &e, free)
                        })?;
                    self.warnings.push(format!(
                        "{file}: its {} colours do not fit in palette {} (its [[sheet]]'s palette): its tiles were split over palettes {}; each tile shows in its own palette (tpal(tile) gives it to spr)",
                        union.len(),
                        at.palette,
                        list(&distinct(&grouped))
                    ));
                    grouped
                }
            }
        };
        for (k, (&place, &palette)) in places.iter().zip(&palettes).enumerate() {
            let source = Source {
                picture: &picture,
                cut,
                cols,
                banked,
            };
            self.write_block(&source, k, place, palette);
        }
        if width > sheet_px {
            self.notes
                .push(cut_note(file, (width, height), size, tile, &places));
        }
        let animation = ase.map(|ase| {
            let frames = (0..ase.durations.len())
                .map(|f| {
                    // The block holding the frame's top-left pixel, and the 8x8 tile in it.
                    let x = f * ase.cell.0;
                    let block = x / size;
                    SheetFrame {
                        tile: (places[block] + (x % size) / TILE_SIZE) as u16,
                        palette: palettes[block],
                        ms: ase.durations[f],
                    }
                })
                .collect();
            let whole = width <= sheet_px || ase.cell == (size, size);
            if !whole {
                self.warnings.push(format!(
                    "{file}: its {}x{} px frames make a sheet wider than {sheet_px} px, so it is cut into {size} px tiles placed one after another, and a frame's 8x8 tiles are not side by side in pattern VRAM: spr cannot show a frame as one sprite (frames of 8, 16 or 32 px with that `tile_size`, or a sheet at most {sheet_px} px wide, keep each frame together)",
                    ase.cell.0, ase.cell.1
                ));
            }
            SheetAnimation {
                cell: ase.cell,
                frames,
                tags: ase.tags,
            }
        });
        Ok(DeclaredSheet {
            file: file.to_string(),
            tile,
            width,
            height,
            cut: (width > sheet_px).then_some(size),
            animation,
        })
    }

    /// Loads the PNG palette's entries 1-15 of each bank into a palette: `(bank, palette)`.
    fn load_banks(&mut self, picture: &Picture, targets: &[(u8, u8)]) {
        let Some((_, plte)) = &picture.indexed else {
            return;
        };
        for &(bank, palette) in targets {
            for color in 1..16 {
                if let Some(&rgb) = plte.get(usize::from(bank) * 16 + color) {
                    self.palettes.set(usize::from(palette), color, rgb);
                }
            }
        }
    }

    /// Says what the transparency rules decided about an indexed PNG: index 0 drawn because
    /// the PNG makes it opaque, or made transparent though the PNG does not (warnings);
    /// other indices the PNG's `tRNS` makes transparent (a note). `sheet`: the image is a
    /// `[[sheet]]` (else a tileset image a map imports).
    pub(crate) fn say_transparency(&mut self, file: &str, picture: &Picture, sheet: bool) {
        let how = if sheet {
            "add `transparent = 0` to its [[sheet]] in cart.toml, or save the PNG with index 0 transparent"
        } else {
            "save the PNG with index 0 transparent, set the tileset's transparent colour in Tiled, or declare the image as a [[sheet]] with `transparent = 0`"
        };
        if let Some((count, rgb)) = picture.indices.zero_opaque {
            self.warnings.push(format!(
                "{file}: palette index 0 (#{rgb:06x}) is opaque in this PNG (no tRNS entry makes it transparent), so its {count} pixels are drawn, as Tiled and image viewers draw them; if index 0 is meant to be transparent, {how}"
            ));
        }
        if let Some((index, count)) = picture.indices.asked {
            self.warnings.push(format!(
                "{file}: palette index {index} is opaque in this PNG, but its {count} pixels are transparent because cart.toml asks (`transparent = {index}`)"
            ));
        }
        if !picture.indices.trns_other.is_empty() {
            let listed: Vec<String> = picture
                .indices
                .trns_other
                .iter()
                .map(|(i, n)| format!("{i} ({n} px)"))
                .collect();
            self.notes.push(format!(
                "{file}: transparent as its tRNS chunk says: palette index {}",
                listed.join(", ")
            ));
        }
    }

    /// Imports a tileset image a map uses: the whole image in Tiled's order when VRAM and
    /// palettes have room, else only the tiles in `wanted`.
    pub(crate) fn import_tileset(
        &mut self,
        file: &str,
        picture: &Picture,
        cut: Cut,
        wanted: &BTreeSet<usize>,
    ) -> Result<Layout, CartError> {
        let (cols, rows) = cut.grid(picture.width, picture.height);
        let count = cols * rows;
        let b = cut.tiles();
        let whole = self.vram.find_run(count, b).and_then(|start| {
            let mut attempt = self.clone();
            let slots: Vec<usize> = (start..start + count).collect();
            let layout = attempt
                .place(file, picture, cut, (0..count).collect(), &slots)
                .ok()?;
            Some((attempt, layout, start))
        });
        if let Some((done, layout, start)) = whole {
            *self = done;
            let first = slot_tile(start, b);
            let last = slot_tile(start + count - 1, b) + (b - 1) * (PATTERN_SHEET_TILES_W + 1);
            self.notes.push(format!(
                "{file}: {count} tiles of {} px -> pattern tiles {first}-{last}, the whole image in Tiled's order{}",
                cut.size,
                self.palette_note(&layout)
            ));
            self.say_split(file, &layout);
            return Ok(layout);
        }
        let ids: Vec<usize> = wanted.iter().copied().filter(|&k| k < count).collect();
        let slots = self.vram.free_slots(ids.len(), b);
        if slots.len() < ids.len() {
            return Err(CartError::file(
                file,
                format!(
                    "its {count} tiles of {} px need {} pattern tiles, and even the {} tiles the maps use need {}, but {} are free: crop the image to the tiles you use, or use fewer tilesets",
                    cut.size,
                    count * b * b,
                    ids.len(),
                    ids.len() * b * b,
                    self.vram.free_tiles()
                ),
            ));
        }
        let layout = self.place(file, picture, cut, ids.clone(), &slots)?;
        self.notes.push(format!(
            "{file}: only the {} of its {count} tiles the maps use were loaded (the whole image does not fit){}",
            ids.len(),
            self.palette_note(&layout)
        ));
        self.say_split(file, &layout);
        Ok(layout)
    }

    /// Imports one tile of an image collection (a picture of exactly one tile) where VRAM is
    /// free; returns its top-left pattern tile and palette.
    pub(crate) fn import_single(
        &mut self,
        file: &str,
        picture: &Picture,
    ) -> Result<(u16, u8), CartError> {
        let cut = Cut::plain(picture.width);
        let slots = self.vram.free_slots(1, cut.tiles());
        if slots.is_empty() {
            return Err(CartError::file(
                file,
                format!(
                    "a {} px tile does not fit: only {} pattern tiles are free",
                    cut.size,
                    self.vram.free_tiles()
                ),
            ));
        }
        let layout = self.place(file, picture, cut, vec![0], &slots)?;
        let (tile, palette) = layout.blocks[0].expect("the one tile was placed");
        self.notes.push(format!(
            "{file}: a {} px tile of an image collection -> pattern tile {tile}, palette {palette}",
            cut.size
        ));
        Ok((tile, palette))
    }

    /// Adds to `layout` a copy of each tile in `ids` mirrored across its diagonal, placed
    /// where VRAM is free: with the hardware's flips it shows every rotation Tiled can save.
    pub(crate) fn add_transposed(
        &mut self,
        file: &str,
        layout: &mut Layout,
        cut: Cut,
        ids: &BTreeSet<usize>,
    ) -> Result<(), CartError> {
        let b = cut.tiles();
        let sources: Vec<(usize, (u16, u8))> = ids
            .iter()
            .filter_map(|&k| Some((k, (*layout.blocks.get(k)?)?)))
            .collect();
        let slots = self.vram.free_slots(sources.len(), b);
        if slots.len() < sources.len() {
            return Err(CartError::file(
                file,
                format!(
                    "the maps show {} of its tiles rotated, and each rotated tile needs a copy in pattern VRAM, but only {} pattern tiles are free",
                    sources.len(),
                    self.vram.free_tiles()
                ),
            ));
        }
        for ((k, (from, palette)), slot) in sources.into_iter().zip(slots) {
            let to = slot_tile(slot, b);
            for y in 0..cut.size {
                for x in 0..cut.size {
                    let tile = |px: usize, py: usize| {
                        usize::from(from)
                            + px / TILE_SIZE
                            + (py / TILE_SIZE) * PATTERN_SHEET_TILES_W
                    };
                    let colour = self
                        .vram
                        .vram
                        .pixel(tile(y, x), y % TILE_SIZE, x % TILE_SIZE);
                    let dest = to + x / TILE_SIZE + (y / TILE_SIZE) * PATTERN_SHEET_TILES_W;
                    self.vram
                        .vram
                        .set_pixel(dest, x % TILE_SIZE, y % TILE_SIZE, colour);
                }
            }
            self.vram.take(to, b, Some(palette));
            layout.transposed.insert(k, (to as u16, palette));
        }
        if !layout.transposed.is_empty() {
            self.notes.push(format!(
                "{file}: {} tiles shown rotated got mirrored copies",
                layout.transposed.len()
            ));
        }
        Ok(())
    }

    fn palette_note(&self, layout: &Layout) -> String {
        let used: Vec<u8> = layout.blocks.iter().flatten().map(|&(_, p)| p).collect();
        let how = if layout.banked {
            "its indexed banks kept"
        } else {
            "colours"
        };
        format!("; {how} in palettes {}", list(&distinct(&used)))
    }

    /// Warns when an imported image's colours were split over several palettes.
    fn say_split(&mut self, file: &str, layout: &Layout) {
        let used: Vec<u8> = layout.blocks.iter().flatten().map(|&(_, p)| p).collect();
        let used = distinct(&used);
        if used.len() > 1 && !layout.banked {
            self.warnings.push(format!(
                "{file}: imported for a map, its colours were split over palettes {}: map cells use each tile's palette; a sprite showing these tiles needs it too (tpal(tile))",
                list(&used)
            ));
        }
    }

    /// Groups the colours of tiles `ids`, writes them to `slots`, and gives their layout.
    /// An indexed image whose tiles each keep to one bank of 16 entries keeps its indices,
    /// each bank the tiles `ids` use going to a free palette above 0; any other image has
    /// the colours of those tiles grouped into palettes.
    fn place(
        &mut self,
        file: &str,
        picture: &Picture,
        cut: Cut,
        ids: Vec<usize>,
        slots: &[usize],
    ) -> Result<Layout, CartError> {
        let (cols, rows) = cut.grid(picture.width, picture.height);
        let banked = bank_palettes(picture, cut, cols).and_then(|banks| {
            let used = distinct(&ids.iter().map(|&k| banks[k]).collect::<Vec<u8>>());
            let free = self.palettes.free_from(1, used.len());
            (free.len() == used.len()).then(|| {
                let targets: Vec<(u8, u8)> = used.iter().copied().zip(free).collect();
                self.load_banks(picture, &targets);
                let palette_of = |bank: u8| targets.iter().find(|t| t.0 == bank).map(|t| t.1);
                ids.iter()
                    .map(|&k| palette_of(banks[k]).expect("every bank used has a palette"))
                    .collect::<Vec<u8>>()
            })
        });
        let (ids, palettes) = match banked.clone() {
            Some(palettes) => (ids, palettes),
            None => {
                let blocks = Blocks::read(file, picture, cut, ids)?;
                let grouped = self.palettes.group(&blocks.colours, None).map_err(|e| {
                    let free = self.palettes.free_count();
                    no_room(file, (picture, cut), &blocks.ids, &e, free)
                })?;
                (blocks.ids, grouped)
            }
        };
        let mut layout = Layout {
            blocks: vec![None; cols * rows],
            banked: banked.is_some(),
            ..Layout::default()
        };
        let b = cut.tiles();
        let source = Source {
            picture,
            cut,
            cols,
            banked: banked.is_some(),
        };
        for ((&k, &slot), &palette) in ids.iter().zip(slots).zip(&palettes) {
            let place = slot_tile(slot, b);
            self.write_block(&source, k, place, palette);
            layout.blocks[k] = Some((place as u16, palette));
        }
        Ok(layout)
    }

    /// Writes tile `k` of `source` to the block at pattern tile `place`, in `palette`.
    fn write_block(&mut self, source: &Source, k: usize, place: usize, palette: u8) {
        let (picture, cut) = (source.picture, source.cut);
        let (x0, y0) = cut.origin(k, source.cols);
        let b = cut.tiles();
        let banked = picture.indexed.as_ref().filter(|_| source.banked);
        for y in 0..cut.size {
            for x in 0..cut.size {
                let (px, py) = (x0 + x, y0 + y);
                let colour = match banked {
                    Some(_) if picture.at(px, py) == CLEAR => 0,
                    Some((indices, _)) => indices[py * picture.width + px] & 0xF,
                    None => match picture.at(px, py) {
                        CLEAR => 0,
                        rgb => self
                            .palettes
                            .find_or_take(usize::from(palette), rgb)
                            .unwrap_or(0),
                    },
                };
                let tile = place + x / TILE_SIZE + (y / TILE_SIZE) * PATTERN_SHEET_TILES_W;
                self.vram
                    .vram
                    .set_pixel(tile, x % TILE_SIZE, y % TILE_SIZE, colour);
            }
        }
        self.vram.take(place, b, Some(palette));
    }
}

/// The note `kairo check` prints for a `[[sheet]]` wider than the VRAM sheet, cut into
/// `size` px blocks whose top-left pattern tiles are `places` (Tiled's order): which pattern
/// tiles each range of blocks covers, and the formula giving block `k`'s top-left tile (the
/// one in `docs/cart-format.md`, "Where the tiles go", with the sheet's numbers put in).
fn cut_note(
    file: &str,
    (width, height): (usize, usize),
    size: usize,
    tile: usize,
    places: &[usize],
) -> String {
    let b = size / TILE_SIZE;
    let per_row = PATTERN_SHEET_TILES_W / b;
    // Blocks grouped by the band of `b` pattern rows they sit in, each band's tiles as runs
    // of consecutive tile numbers; a band whose single run continues the previous band's
    // joins it (full bands are consecutive tiles).
    // (first block, last block, runs of pattern tiles as (first, last)).
    type Runs = Vec<(usize, usize)>;
    let mut ranges: Vec<(usize, usize, Runs)> = Vec::new();
    let band_of = |place: usize| place / (b * PATTERN_SHEET_TILES_W);
    let mut k = 0;
    while k < places.len() {
        let band = band_of(places[k]);
        let end = (k..places.len())
            .take_while(|&i| band_of(places[i]) == band)
            .last()
            .unwrap_or(k);
        let mut tiles: Vec<usize> = places[k..=end]
            .iter()
            .flat_map(|&p| vram::block_tiles(p, b))
            .collect();
        tiles.sort_unstable();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for t in tiles {
            match runs.last_mut() {
                Some(run) if run.1 + 1 == t => run.1 = t,
                _ => runs.push((t, t)),
            }
        }
        match ranges.last_mut() {
            Some((_, last, prev))
                if prev.len() == 1 && runs.len() == 1 && prev[0].1 + 1 == runs[0].0 =>
            {
                *last = end;
                prev[0].1 = runs[0].1;
            }
            _ => ranges.push((k, end, runs)),
        }
        k = end + 1;
    }
    let span = |(a, z): (usize, usize)| {
        if a == z {
            a.to_string()
        } else {
            format!("{a}-{z}")
        }
    };
    let listed: Vec<String> = ranges
        .iter()
        .map(|(first, last, runs)| {
            let runs: Vec<String> = runs.iter().map(|&r| span(r)).collect();
            let tiles = if first == last { "tile" } else { "tiles" };
            format!(
                "{tiles} {} -> pattern tiles {}",
                span((*first, *last)),
                runs.join(", ")
            )
        })
        .collect();
    // top = base - base % 16 + (j // per_row) * b * 16 + (j % per_row) * b, j = k + column.
    let row_start = tile - tile % PATTERN_SHEET_TILES_W;
    let column = (tile % PATTERN_SHEET_TILES_W) / b;
    let formula = if b == 1 {
        if tile == 0 {
            "k".to_string()
        } else {
            format!("{tile} + k")
        }
    } else {
        let j = if column == 0 {
            "k".to_string()
        } else {
            format!("(k + {column})")
        };
        let start = if row_start == 0 {
            String::new()
        } else {
            format!("{row_start} + ")
        };
        format!(
            "{start}({j} // {per_row}) * {} + ({j} % {per_row}) * {b}",
            b * PATTERN_SHEET_TILES_W
        )
    };
    format!(
        "{file}: {width}x{height} px, wider than {} px, so cut into {} tiles of {size} px, placed in Tiled's order {per_row} to a row of pattern VRAM from pattern tile {tile}: {}; tile k's top-left is pattern tile {formula}",
        PATTERN_SHEET_TILES_W * TILE_SIZE,
        places.len(),
        listed.join("; ")
    )
}

/// For an indexed picture whose every tile keeps its opaque pixels within entries 1-15 of
/// one bank of 16 palette entries, each tile's bank; `None` when the picture is not indexed
/// that way (an opaque pixel on a bank's entry 0 included: the hardware's colour 0 is
/// transparent, so it could not keep its index).
fn bank_palettes(picture: &Picture, cut: Cut, cols: usize) -> Option<Vec<u8>> {
    let (indices, _) = picture.indexed.as_ref()?;
    let rows = cut.grid(picture.width, picture.height).1;
    let mut banks = Vec::with_capacity(cols * rows);
    for k in 0..cols * rows {
        let (x0, y0) = cut.origin(k, cols);
        let mut bank = None;
        for y in y0..y0 + cut.size {
            let row = y * picture.width + x0;
            for (&index, &pixel) in indices[row..][..cut.size]
                .iter()
                .zip(&picture.pixels[row..][..cut.size])
            {
                if pixel == CLEAR {
                    continue;
                }
                if index % 16 == 0 {
                    return None;
                }
                match bank {
                    None => bank = Some(index / 16),
                    Some(b) if b != index / 16 => return None,
                    Some(_) => {}
                }
            }
        }
        banks.push(bank.unwrap_or(0));
    }
    Some(banks)
}

fn distinct(palettes: &[u8]) -> Vec<u8> {
    let set: BTreeSet<u8> = palettes.iter().copied().collect();
    set.into_iter().collect()
}

fn list(items: &[u8]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn no_room(
    file: &str,
    (picture, cut): (&Picture, Cut),
    ids: &[usize],
    e: &palettes::NoRoom,
    free: usize,
) -> CartError {
    let cols = cut.grid(picture.width, picture.height).0.max(1);
    // "16", or "16 (frame 2)" for an Aseprite sheet.
    let tiles: Vec<String> = e
        .tiles
        .iter()
        .take(8)
        .map(|&i| {
            let k = ids[i];
            let named = picture.name_tile(k, cut.origin(k, cols).0);
            named.trim_start_matches("tile ").to_string()
        })
        .collect();
    CartError::file(
        file,
        format!(
            "its tiles' colours need more palettes than are free: tiles {}{} found no room once palettes {} were full ({free} palettes left unused); use fewer colours, share colours between tiles, or free palettes in cart.toml",
            tiles.join(", "),
            if e.tiles.len() > tiles.len() {
                format!(" (and {} more)", e.tiles.len() - tiles.len())
            } else {
                String::new()
            },
            list(&e.opened)
        ),
    )
}

#[cfg(test)]
mod tests;
