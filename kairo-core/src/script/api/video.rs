//! Cart API: the video unit — palettes, patterns, background layers, sprites.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::script::api::common::{FLAGS, LAYER, PALETTE, PRIORITY, TILE};
use crate::script::args::{Arg, Default, Kind};
use crate::script::call::{ApiConstants, ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::{
    BG_CELL_SIZES, BG_MAX_CELLS, OAM_ENTRIES, PALETTE_COLORS, PALETTES, PATTERN_TILES,
    PRIORITY_LEVELS, SCREEN_H, SPRITE_SIZES, TILE_ANIM_FRAMES, TILE_SIZE, cost,
};
use crate::video::anim::{AnimFrame, TileAnim};
use crate::video::cell::Cell;
use crate::video::sprite::Sprite;

/// `layer_size`'s cell sizes and `spr`'s sizes, as their arguments take them.
const BG_CELL_CHOICES: [i64; BG_CELL_SIZES.len()] = crate::script::args::choices!(BG_CELL_SIZES);
const SPRITE_SIZE_CHOICES: [i64; SPRITE_SIZES.len()] = crate::script::args::choices!(SPRITE_SIZES);

const MAX_TILE: i64 = PATTERN_TILES as i64 - 1;
const MAX_PRIORITY: i64 = PRIORITY_LEVELS as i64 - 1;

const RGB: Arg = Arg::int("rgb", 0, 0xFF_FFFF).optional("only reads it");
const PIXEL_X: Arg = Arg::int("x", 0, TILE_SIZE as i64 - 1);
const PIXEL_Y: Arg = Arg::int("y", 0, TILE_SIZE as i64 - 1);
const CX: Arg = Arg::new("cx", Kind::Integer);
const CY: Arg = Arg::new("cy", Kind::Integer);
/// A cell's tile: -1 makes the cell empty.
const CELL_TILE: Arg = Arg::int("tile", -1, MAX_TILE);
const SPRITE: Arg = Arg::int("i", 0, OAM_ENTRIES as i64 - 1);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Video",
    intro: "Palette RAM, pattern VRAM, the four background layers and the 256 sprites. \
            Colours in palette RAM are integers `0xRRGGBB`. Flags: bit 0 flips horizontally, bit 1 \
            vertically. Out-of-range arguments are errors.\n\n\
            **Draw order.** The picture is made of the backdrop, the four layers, the sprites \
            (OAM entries, set with `spr` or drawn for one frame with `sprite`), the bullet \
            layer and the drawings (shapes and text). Each has a priority: a layer its \
            `layer_prio` (0-3, 0 at power-on), a sprite its `priority` argument (0-3, default \
            2), the bullet layer its `bu_layer` (0-3, 2 at power-on), a drawing the \
            `draw_prio` it was made at (0-4, 4 at power-on). Where they overlap, these rules \
            decide what shows (`docs/hardware.md` gives the same list, and `tests/docs.rs` \
            checks each rule against the machine):\n\n\
            <!-- draw order rules -->\n\
            1. Anything of a higher priority is in front of anything of a lower priority.\n\
            2. A sprite is in front of the layers and drawings of its priority.\n\
            3. A drawing made at `draw_prio` 0-3 is in front of the layers of its priority.\n\
            4. A layer is in front of the layers of its priority with higher numbers.\n\
            5. A sprite is in front of the sprites of its priority in higher OAM entries.\n\
            6. A sprite drawn with `sprite` is in front of the sprites of its priority drawn \
            with `sprite` before it in the frame.\n\
            7. A drawing is in front of the drawings of its priority made before it.\n\
            8. The bullet layer is in front of the sprites, layers and drawings of its \
            priority.\n\
            9. A drawing at `draw_prio` 4 (the default) is in front of every layer, sprite and \
            bullet, whenever it is drawn.\n\
            10. Everything is in front of the backdrop and of the colour of `cls(color)`.",
    functions: &[
        ApiFn {
            name: "pal",
            args: &[
                Arg::int("palette", 0, PALETTES as i64 - 1),
                Arg::int("color", 0, PALETTE_COLORS as i64 - 1),
                RGB,
            ],
            returns: "old_rgb",
            doc: "Reads colour `color` of `palette` and, given `rgb`, sets it.",
            cost: &[],
            call: pal,
        },
        ApiFn {
            name: "backdrop",
            args: &[RGB],
            returns: "old_rgb",
            doc: "Reads and optionally sets the backdrop colour (palette 0, colour 0), shown \
                  wherever no layer or sprite has an opaque pixel.",
            cost: &[],
            call: backdrop,
        },
        ApiFn {
            name: "tset",
            args: &[TILE, PIXEL_X, PIXEL_Y, Arg::int("color", 0, 15)],
            returns: "",
            doc: "Sets pixel (x, y) of pattern tile `tile` to `color`.",
            cost: &[Cost::call(cost::PIXEL_WRITE, Unit::Video)],
            call: tset,
        },
        ApiFn {
            name: "tget",
            args: &[TILE, PIXEL_X, PIXEL_Y],
            returns: "color",
            doc: "The colour of pixel (x, y) of pattern tile `tile`.",
            cost: &[],
            call: tget,
        },
        ApiFn {
            name: "layer_on",
            args: &[LAYER, Arg::new("on", Kind::Bool).or(Default::Bool(true))],
            returns: "",
            doc: "Shows or hides background layer `layer`.",
            cost: &[],
            call: layer_on,
        },
        ApiFn {
            name: "layer_size",
            args: &[
                LAYER,
                Arg::int("cols", 1, BG_MAX_CELLS as i64),
                Arg::int("rows", 1, BG_MAX_CELLS as i64),
                Arg::new("cell", Kind::Choice(&BG_CELL_CHOICES)).or_int(BG_CELL_SIZES[0] as i64),
            ],
            returns: "",
            doc: "Gives the layer a cell map of `cols` x `rows` cells (1-256 each) of `cell` px \
                  (8, 16 or 32, default 8) and clears it to tile 0.",
            cost: &[Cost::each(cost::CELL_WRITE, "per cell", Unit::Video)],
            call: layer_size,
        },
        ApiFn {
            name: "layer_prio",
            args: &[LAYER, Arg::int("priority", 0, MAX_PRIORITY)],
            returns: "",
            doc: "Sets the layer's priority (0 at power-on). Draw order rule 1: anything of \
                  a higher priority is in front of anything of a lower priority; rule 4: a \
                  layer is in front of the layers of its priority with higher numbers.",
            cost: &[],
            call: layer_prio,
        },
        ApiFn {
            name: "scroll",
            args: &[
                LAYER,
                Arg::new("x", Kind::Integer).optional("unchanged"),
                Arg::new("y", Kind::Integer).optional("unchanged"),
            ],
            returns: "x, y",
            doc: "Reads and optionally sets the layer's scroll: the layer pixel shown at the \
                  screen's top-left corner. The map wraps around in both directions.",
            cost: &[],
            call: scroll,
        },
        ApiFn {
            name: "cell",
            args: &[LAYER, CX, CY, CELL_TILE, PALETTE, FLAGS],
            returns: "",
            doc: "Sets cell (cx, cy) of the layer. A 16 px cell shows the 2x2 tile block whose \
                  top-left is `tile`, a 32 px cell the 4x4 block. Tile -1 makes the cell \
                  empty: it draws nothing.",
            cost: &[Cost::call(cost::CELL_WRITE, Unit::Video)],
            call: cell,
        },
        ApiFn {
            name: "cellget",
            args: &[LAYER, CX, CY],
            returns: "tile, palette, flags",
            doc: "Reads cell (cx, cy) of the layer; an empty cell reads as tile -1.",
            cost: &[],
            call: cellget,
        },
        ApiFn {
            name: "fill",
            args: &[LAYER, CELL_TILE, PALETTE, FLAGS],
            returns: "",
            doc: "Sets every cell of the layer (tile -1: empty).",
            cost: &[Cost::each(cost::CELL_WRITE, "per cell", Unit::Video)],
            call: fill,
        },
        ApiFn {
            name: "tanim",
            args: &[
                TILE,
                Arg::new("frames", Kind::Table("{tile1, n1, tile2, n2, ...}"))
                    .optional("stops animating the tile"),
                Arg::int("palette", 0, PALETTES as i64 - 1).optional("each cell's own"),
            ],
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
            args: &[],
            returns: "",
            doc: "Stops every tile animation.",
            cost: &[],
            call: tanim_clear,
        },
        ApiFn {
            name: "tpal",
            args: &[TILE],
            returns: "palette",
            doc: "The palette the cart loader gave pattern tile `tile` when it filled it from a \
                  sheet or tileset (sheets with many colours are split over several \
                  palettes), or nil for tiles it did not fill. Use it for sprites.",
            cost: &[],
            call: tpal,
        },
        ApiFn {
            name: "linescroll",
            args: &[
                LAYER,
                Arg::int("line", 0, SCREEN_H as i64 - 1),
                Arg::new("dx", Kind::Integer),
                Arg::new("dy", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Adds (dx, dy) to the layer's scroll on screen line `line` only, for \
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
            args: &[LAYER],
            returns: "",
            doc: "Removes the layer's per-line scroll table.",
            cost: &[],
            call: linescroll_clear,
        },
        ApiFn {
            name: "spr",
            args: &[
                SPRITE,
                Arg::coord("x"),
                Arg::coord("y"),
                TILE,
                Arg::new("size", Kind::Choice(&SPRITE_SIZE_CHOICES)).or_int(1),
                PALETTE,
                FLAGS,
                PRIORITY,
            ],
            returns: "",
            doc: "Sets and shows sprite `i`: the `size` x `size` tile block from `tile` at \
                  screen position (x, y), which may be off-screen. Sprites stay until changed \
                  or hidden. Draw order rule 5: a sprite is in front of the sprites of its \
                  priority in higher OAM entries (sprite 0 covers sprite 1).",
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
            args: &[SPRITE],
            returns: "",
            doc: "Hides sprite `i`.",
            cost: &[],
            call: spr_hide,
        },
        ApiFn {
            name: "spr_clear",
            args: &[],
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
    Ok(c.int_arg(i)? as usize)
}

fn pal(c: &mut Call) -> LuaResult<MultiValue> {
    let (palette, color) = (c.int_arg(0)?, c.int_arg(1)?);
    let index = (palette * PALETTE_COLORS as i64 + color) as u8;
    let old = c.m.video.palette.get(index);
    if let Some(rgb) = c.opt_int_arg(2)? {
        c.m.video.palette.set(index, rgb as u32);
    }
    c.ret(i64::from(old))
}

fn backdrop(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.palette.backdrop();
    if let Some(rgb) = c.opt_int_arg(0)? {
        c.m.video.palette.set(0, rgb as u32);
    }
    c.ret(i64::from(old))
}

fn tile_pixel_args(c: &Call) -> LuaResult<(usize, usize, usize)> {
    let tile = c.int_arg(0)? as usize;
    Ok((tile, c.int_arg(1)? as usize, c.int_arg(2)? as usize))
}

fn tset(c: &mut Call) -> LuaResult<MultiValue> {
    let (tile, x, y) = tile_pixel_args(c)?;
    let color = c.int_arg(3)? as u8;
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
    let on = c.bool_arg(1);
    c.m.video.layers[layer].set_enabled(on);
    c.ret(())
}

fn layer_size(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let cols = c.int_arg(1)? as usize;
    let rows = c.int_arg(2)? as usize;
    let cell = c.int_arg(3)? as usize;
    c.m.video.layers[layer]
        .configure(cols, rows, cell)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, (cols * rows) as u64 * cost::CELL_WRITE)?;
    c.ret(())
}

fn layer_prio(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let priority = c.int_arg(1)?;
    c.m.video.layers[layer].set_priority(priority);
    c.ret(())
}

fn scroll(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let bg = &c.m.video.layers[layer];
    let old = (i64::from(bg.scroll_x), i64::from(bg.scroll_y));
    let (x, y) = (c.opt_int_arg(1)?, c.opt_int_arg(2)?);
    if x.is_some() || y.is_some() {
        let near = |v: Option<i64>, old: i64| {
            v.unwrap_or(old).clamp(i32::MIN.into(), i32::MAX.into()) as i32
        };
        c.m.video.layers[layer].set_scroll(near(x, old.0), near(y, old.1));
    }
    c.ret(old)
}

fn cell_from_args(c: &Call, first: usize) -> LuaResult<Cell> {
    let tile = c.int_arg(first)?;
    if tile < 0 {
        return Ok(Cell::EMPTY);
    }
    let tile = tile as u32;
    let palette = c.int_arg(first + 1)? as u8;
    let flags = c.int_arg(first + 2)?;
    Ok(Cell::new(tile, palette, flags & 1 != 0, flags & 2 != 0))
}

fn cell(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let (x, y) = (c.int_arg(1)?, c.int_arg(2)?);
    let value = cell_from_args(c, 3)?;
    c.m.video.layers[layer]
        .set_cell(x, y, value)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, cost::CELL_WRITE)?;
    c.ret(())
}

fn cellget(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    let (x, y) = (c.int_arg(1)?, c.int_arg(2)?);
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
    let line = c.int_arg(1)? as usize;
    let near = |v: i64| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    let (dx, dy) = (near(c.int_arg(2)?), near(c.int_arg(3)?));
    c.m.video.layers[layer].set_line_scroll(line, dx, dy);
    c.ret(())
}

fn linescroll_clear(c: &mut Call) -> LuaResult<MultiValue> {
    let layer = layer_arg(c, 0)?;
    c.m.video.layers[layer].clear_line_scroll();
    c.ret(())
}

fn sprite_index(c: &Call) -> LuaResult<usize> {
    Ok(c.int_arg(0)? as usize)
}

fn spr(c: &mut Call) -> LuaResult<MultiValue> {
    let i = sprite_index(c)?;
    let (x, y) = (c.coord_arg(1)?, c.coord_arg(2)?);
    let tile = c.int_arg(3)? as u32;
    let size = c.int_arg(4)? as u8;
    let palette = c.int_arg(5)? as u8;
    let flags = c.int_arg(6)?;
    let priority = c.int_arg(7)?;
    let sprite = Sprite::new(x, y, tile, size)
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
    let tile = c.int_arg(0)? as u16;
    if c.is_nil(1) {
        c.m.video.anims.remove(tile);
        return c.ret(());
    }
    let list = c.int_list(1, "frames", TILE_ANIM_FRAMES * 2)?;
    if list.is_empty() || list.len() % 2 != 0 {
        return Err(c.error("frames must be pairs {tile, frames, ...}, at least one"));
    }
    let palette = c.opt_int_arg(2)?.map(|n| n as u8);
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
    let tile = c.int_arg(0)? as usize;
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
