//! Cart API: the video unit — palettes, patterns, background layers, sprites.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::script::call::{ApiConstants, ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::{
    BG_CELL_SIZES, BG_LAYERS, OAM_ENTRIES, PALETTE_COLORS, PALETTES, PATTERN_TILES,
    PRIORITY_LEVELS, SCREEN_H, TILE_ANIM_FRAMES, TILE_SIZE, cost,
};
use crate::video::anim::{AnimFrame, TileAnim};
use crate::video::cell::Cell;
use crate::video::sprite::Sprite;

const MAX_TILE: i64 = PATTERN_TILES as i64 - 1;
const MAX_LAYER: i64 = BG_LAYERS as i64 - 1;
const MAX_PRIORITY: i64 = PRIORITY_LEVELS as i64 - 1;

pub const GROUP: ApiGroup = ApiGroup {
    title: "Video",
    intro: "Palette RAM, pattern VRAM, the four background layers and the 256 sprites. \
            Colours in palette RAM are integers `0xRRGGBB`. Flags: bit 0 flips horizontally, bit 1 \
            vertically. Priorities run from 0 (back) to 3 (front); sprites are drawn in front \
            of layers of the same priority. Out-of-range arguments are errors.",
    functions: &[
        ApiFn {
            name: "pal",
            args: "palette, color, [rgb]",
            returns: "old_rgb",
            doc: "Reads colour `color` (0-15) of `palette` (0-15) and, given `rgb`, sets it.",
            cost: &[],
            call: pal,
        },
        ApiFn {
            name: "backdrop",
            args: "[rgb]",
            returns: "old_rgb",
            doc: "Reads and optionally sets the backdrop colour (palette 0, colour 0), shown \
                  wherever no layer or sprite has an opaque pixel.",
            cost: &[],
            call: backdrop,
        },
        ApiFn {
            name: "tset",
            args: "tile, x, y, color",
            returns: "",
            doc: "Sets pixel (x, y) (0-7) of pattern tile `tile` (0-2047) to `color` (0-15).",
            cost: &[Cost::call(cost::PIXEL_WRITE, Unit::Video)],
            call: tset,
        },
        ApiFn {
            name: "tget",
            args: "tile, x, y",
            returns: "color",
            doc: "The colour of pixel (x, y) of pattern tile `tile`.",
            cost: &[],
            call: tget,
        },
        ApiFn {
            name: "layer_on",
            args: "layer, [on]",
            returns: "",
            doc: "Shows (default) or hides background layer `layer` (0-3).",
            cost: &[],
            call: layer_on,
        },
        ApiFn {
            name: "layer_size",
            args: "layer, cols, rows, [cell]",
            returns: "",
            doc: "Gives the layer a cell map of `cols` x `rows` cells (1-256 each) of `cell` px \
                  (8, 16 or 32, default 8) and clears it to tile 0.",
            cost: &[Cost::each(cost::CELL_WRITE, "per cell", Unit::Video)],
            call: layer_size,
        },
        ApiFn {
            name: "layer_prio",
            args: "layer, priority",
            returns: "",
            doc: "Sets the layer's priority (0-3). Among layers of equal priority, lower \
                  numbers are in front.",
            cost: &[],
            call: layer_prio,
        },
        ApiFn {
            name: "scroll",
            args: "layer, [x, y]",
            returns: "x, y",
            doc: "Reads and optionally sets the layer's scroll: the layer pixel shown at the \
                  screen's top-left corner. The map wraps around in both directions.",
            cost: &[],
            call: scroll,
        },
        ApiFn {
            name: "cell",
            args: "layer, cx, cy, tile, [palette], [flags]",
            returns: "",
            doc: "Sets cell (cx, cy) of the layer. A 16 px cell shows the 2x2 tile block whose \
                  top-left is `tile`, a 32 px cell the 4x4 block. Tile -1 makes the cell \
                  empty: it draws nothing.",
            cost: &[Cost::call(cost::CELL_WRITE, Unit::Video)],
            call: cell,
        },
        ApiFn {
            name: "cellget",
            args: "layer, cx, cy",
            returns: "tile, palette, flags",
            doc: "Reads cell (cx, cy) of the layer; an empty cell reads as tile -1.",
            cost: &[],
            call: cellget,
        },
        ApiFn {
            name: "fill",
            args: "layer, tile, [palette], [flags]",
            returns: "",
            doc: "Sets every cell of the layer (tile -1: empty).",
            cost: &[Cost::each(cost::CELL_WRITE, "per cell", Unit::Video)],
            call: fill,
        },
        ApiFn {
            name: "tanim",
            args: "tile, [frames], [palette]",
            returns: "",
            doc: "Animates pattern tile `tile` on every background layer: `frames` is \
                  `{tile1, n1, tile2, n2, ...}`, each tile shown for n machine frames, looping \
                  (at most 16 frames). Cells showing `tile` show the current frame's tile, in \
                  `palette` if given, else in their own. Without `frames`, stops animating \
                  `tile`. The table holds 64 animated tiles; `map_load` fills it too.",
            cost: &[Cost::each(cost::ANIM_FRAME, "per frame", Unit::Video)],
            call: tanim,
        },
        ApiFn {
            name: "tanim_clear",
            args: "",
            returns: "",
            doc: "Stops every tile animation.",
            cost: &[],
            call: tanim_clear,
        },
        ApiFn {
            name: "tpal",
            args: "tile",
            returns: "palette",
            doc: "The palette the cart loader gave pattern tile `tile` when it filled it from a \
                  sheet or tileset (sheets with many colours are split over several \
                  palettes), or nil for tiles it did not fill. Use it for sprites.",
            cost: &[],
            call: tpal,
        },
        ApiFn {
            name: "linescroll",
            args: "layer, line, dx, [dy]",
            returns: "",
            doc: "Adds (dx, dy) to the layer's scroll on screen line `line` only (0-255), for \
                  parallax and wave effects. The layer costs extra while it has a line table.",
            cost: &[Cost::later(
                cost::LINE_SCROLL,
                "per frame",
                Unit::Video,
                "while the table is set",
            )],
            call: linescroll,
        },
        ApiFn {
            name: "linescroll_clear",
            args: "layer",
            returns: "",
            doc: "Removes the layer's per-line scroll table.",
            cost: &[],
            call: linescroll_clear,
        },
        ApiFn {
            name: "spr",
            args: "i, x, y, tile, [size], [palette], [flags], [priority]",
            returns: "",
            doc: "Sets and shows sprite `i` (0-255): the `size` x `size` tile block (size 1, 2, \
                  4 or 8, default 1) from `tile` at screen position (x, y), which may be \
                  off-screen. Palette defaults to 0, flags to 0, priority to 2. Sprite 0 is in \
                  front of sprite 1. Sprites stay until changed or hidden.",
            cost: &[
                Cost::later(cost::SPRITE, "", Unit::Video, "each frame it shows"),
                Cost::later(
                    cost::SPRITE_ROW,
                    "per 8 pixels drawn",
                    Unit::Video,
                    "each frame",
                ),
            ],
            call: spr,
        },
        ApiFn {
            name: "spr_hide",
            args: "i",
            returns: "",
            doc: "Hides sprite `i`.",
            cost: &[],
            call: spr_hide,
        },
        ApiFn {
            name: "spr_clear",
            args: "",
            returns: "",
            doc: "Hides every sprite.",
            cost: &[],
            call: spr_clear,
        },
    ],
    constants: &[ApiConstants {
        name: "SPR",
        doc: "Flip flags of sprites and cells: `SPR.FLIP_X` (1) and `SPR.FLIP_Y` (2); add \
              them for both.",
        entries: flip_constants,
    }],
};

fn layer_arg(c: &Call, i: usize) -> LuaResult<usize> {
    Ok(c.int_in(i, "layer", 0, MAX_LAYER)? as usize)
}

fn rgb_arg(c: &Call, i: usize) -> LuaResult<u32> {
    Ok(c.int_in(i, "rgb", 0, 0xFF_FFFF)? as u32)
}

fn pal(c: &mut Call) -> LuaResult<MultiValue> {
    let palette = c.int_in(0, "palette", 0, PALETTES as i64 - 1)?;
    let color = c.int_in(1, "color", 0, PALETTE_COLORS as i64 - 1)?;
    let index = (palette * PALETTE_COLORS as i64 + color) as u8;
    let old = c.m.video.palette.get(index);
    if !c.is_nil(2) {
        let rgb = rgb_arg(c, 2)?;
        c.m.video.palette.set(index, rgb);
    }
    c.ret(i64::from(old))
}

fn backdrop(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.palette.backdrop();
    if !c.is_nil(0) {
        let rgb = rgb_arg(c, 0)?;
        c.m.video.palette.set(0, rgb);
    }
    c.ret(i64::from(old))
}

fn tile_pixel_args(c: &Call) -> LuaResult<(usize, usize, usize)> {
    let tile = c.int_in(0, "tile", 0, MAX_TILE)? as usize;
    let x = c.int_in(1, "x", 0, TILE_SIZE as i64 - 1)? as usize;
    let y = c.int_in(2, "y", 0, TILE_SIZE as i64 - 1)? as usize;
    Ok((tile, x, y))
}

fn tset(c: &mut Call) -> LuaResult<MultiValue> {
    let (tile, x, y) = tile_pixel_args(c)?;
    let color = c.int_in(3, "color", 0, 15)? as u8;
    c.m.video.patterns.set_pixel(tile, x, y, color);
    c.charge(Unit::Video, cost::PIXEL_WRITE)?;
    c.ret(())
}

fn tget(c: &mut Call) -> LuaResult<MultiValue> {
    let (tile, x, y) = tile_pixel_args(c)?;
    c.ret(i64::from(c.m.video.patterns.pixel(tile, x, y)))
}

fn layer_on(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let on = c.opt_bool(1, true);
    c.m.video.layers[layer].set_enabled(on);
    c.ret(())
}

fn layer_size(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let cols = c.int_in(1, "cols", 1, 256)? as usize;
    let rows = c.int_in(2, "rows", 1, 256)? as usize;
    let cell = c.opt_int(3, "cell", 8)?;
    let Some(cell) = usize::try_from(cell)
        .ok()
        .filter(|c| BG_CELL_SIZES.contains(c))
    else {
        return Err(c.error(format!("cell size {cell} px is not 8, 16 or 32")));
    };
    c.m.video.layers[layer]
        .configure(cols, rows, cell)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, (cols * rows) as u64 * cost::CELL_WRITE)?;
    c.ret(())
}

fn layer_prio(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let priority = c.int_in(1, "priority", 0, MAX_PRIORITY)?;
    c.m.video.layers[layer].set_priority(priority);
    c.ret(())
}

fn scroll(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let bg = &c.m.video.layers[layer];
    let old = (i64::from(bg.scroll_x), i64::from(bg.scroll_y));
    if !c.is_nil(1) || !c.is_nil(2) {
        let x = c
            .opt_int(1, "x", old.0)?
            .clamp(i32::MIN.into(), i32::MAX.into()) as i32;
        let y = c
            .opt_int(2, "y", old.1)?
            .clamp(i32::MIN.into(), i32::MAX.into()) as i32;
        c.m.video.layers[layer].set_scroll(x, y);
    }
    c.ret(old)
}

fn cell_from_args(c: &Call, first: usize) -> LuaResult<Cell> {
    let tile = c.int_in(first, "tile", -1, MAX_TILE)?;
    if tile < 0 {
        return Ok(Cell::EMPTY);
    }
    let tile = tile as u32;
    let palette = c.opt_int_in(first + 1, "palette", 0, PALETTES as i64 - 1, 0)? as u8;
    let flags = c.opt_int_in(first + 2, "flags", 0, 3, 0)?;
    Ok(Cell::new(tile, palette, flags & 1 != 0, flags & 2 != 0))
}

fn cell(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let (x, y) = (c.int(1, "cx")?, c.int(2, "cy")?);
    let value = cell_from_args(c, 3)?;
    c.m.video.layers[layer]
        .set_cell(x, y, value)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, cost::CELL_WRITE)?;
    c.ret(())
}

fn cellget(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let (x, y) = (c.int(1, "cx")?, c.int(2, "cy")?);
    let value = c.m.video.layers[layer].cell(x, y).map_err(|e| c.error(e))?;
    if value.is_empty() {
        return c.ret((-1, 0, 0));
    }
    c.ret((
        value.tile() as i64,
        i64::from(value.palette()),
        i64::from(value.flags()),
    ))
}

fn fill(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let value = cell_from_args(c, 1)?;
    let bg = &mut c.m.video.layers[layer];
    bg.fill(value);
    let cells = (bg.cols() * bg.rows()) as u64;
    c.charge(Unit::Video, cells * cost::CELL_WRITE)?;
    c.ret(())
}

fn linescroll(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let line = c.int_in(1, "line", 0, SCREEN_H as i64 - 1)? as usize;
    let dx = c.int(2, "dx")?.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    let dy = c
        .opt_int(3, "dy", 0)?
        .clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    c.m.video.layers[layer].set_line_scroll(line, dx, dy);
    c.ret(())
}

fn linescroll_clear(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    c.m.video.layers[layer].clear_line_scroll();
    c.ret(())
}

fn sprite_index(c: &Call) -> LuaResult<usize> {
    Ok(c.int_in(0, "i", 0, OAM_ENTRIES as i64 - 1)? as usize)
}

fn spr(c: &mut Call) -> LuaResult<MultiValue> {
    let i = sprite_index(c)?;
    let (x, y) = (c.coord(1, "x")?, c.coord(2, "y")?);
    let tile = c.int_in(3, "tile", 0, MAX_TILE)? as u32;
    let size = c.opt_int(4, "size", 1)?;
    let palette = c.opt_int_in(5, "palette", 0, PALETTES as i64 - 1, 0)? as u8;
    let flags = c.opt_int_in(6, "flags", 0, 3, 0)?;
    let priority = c.opt_int_in(7, "priority", 0, MAX_PRIORITY, 2)?;
    let sprite = u8::try_from(size)
        .ok()
        .and_then(|size| Sprite::new(x, y, tile, size))
        .ok_or_else(|| c.error(format!("size {size} is not 1, 2, 4 or 8 tiles")))?;
    let sprite = sprite.with_style(palette, priority, flags & 1 != 0, flags & 2 != 0);
    c.m.video.set_sprite(i, sprite);
    c.ret(())
}

fn spr_hide(c: &mut Call) -> LuaResult<MultiValue> {
    let i = sprite_index(c)?;
    c.m.video.hide_sprite(i);
    c.ret(())
}

fn spr_clear(c: &mut Call) -> LuaResult<MultiValue> {
    c.m.video.clear_sprites();
    c.ret(())
}

fn tanim(c: &mut Call) -> LuaResult<MultiValue> {
    let tile = c.int_in(0, "tile", 0, MAX_TILE)? as u16;
    if c.is_nil(1) {
        c.m.video.anims.remove(tile);
        return c.ret(());
    }
    let list = c.int_list(1, "frames", TILE_ANIM_FRAMES * 2)?;
    if list.is_empty() || list.len() % 2 != 0 {
        return Err(c.error("frames must be pairs {tile, frames, ...}, at least one"));
    }
    let palette = match c.is_nil(2) {
        true => None,
        false => Some(c.int_in(2, "palette", 0, PALETTES as i64 - 1)? as u8),
    };
    let mut frames = Vec::with_capacity(list.len() / 2);
    for pair in list.chunks_exact(2) {
        if !(0..=MAX_TILE).contains(&pair[0]) || !(1..=i64::from(u16::MAX)).contains(&pair[1]) {
            return Err(c.error(format!(
                "frame {{{}, {}}}: tiles are 0-{MAX_TILE}, lengths 1-65535 frames",
                pair[0], pair[1]
            )));
        }
        frames.push(AnimFrame {
            tile: pair[0] as u16,
            palette,
            frames: pair[1] as u16,
        });
    }
    let count = frames.len() as u64;
    c.m.video
        .anims
        .set(TileAnim { tile, frames })
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, count * cost::ANIM_FRAME)?;
    c.ret(())
}

fn tanim_clear(c: &mut Call) -> LuaResult<MultiValue> {
    c.m.video.anims.clear();
    c.ret(())
}

fn tpal(c: &mut Call) -> LuaResult<MultiValue> {
    let tile = c.int_in(0, "tile", 0, MAX_TILE)? as usize;
    c.ret(
        c.cart
            .tile_palettes
            .get(tile)
            .copied()
            .flatten()
            .map(i64::from),
    )
}

/// The `SPR` table: flip flags.
fn flip_constants() -> Vec<(&'static str, i64)> {
    vec![("FLIP_X", 1), ("FLIP_Y", 2)]
}
