//! Cart API: the collision unit — the collision layer, `move_body`, hitbox lists.

use mlua::MultiValue;

use crate::collide::check_margin;
use crate::collide::hitbox::{Hitbox, overlap_rects};
use crate::collide::map::{CellSize, CollisionMap, Edges};
use crate::collide::mover::{Body, Mode, MoveOptions, flag};
use crate::collide::platform::{Platform, move_among};
use crate::collide::tile::Tile;
use crate::fixed::{fx_from_f64, fx_to_f64};
use crate::meter::Unit;
use crate::script::api::common::name;
use crate::script::args::{Arg, Default, Kind};
use crate::script::call::{ApiConstants, ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::script::stack::Plain;
use crate::spec::{
    BODY_MAX_SIZE, COLLISION_CELL_SIZES, COLLISION_MARGIN_MAX, COLLISION_MAX_CELLS, cost,
};

/// `col_size`'s cell sizes, as its argument takes them.
const COLLISION_CELL_CHOICES: [i64; COLLISION_CELL_SIZES.len()] =
    crate::script::args::choices!(COLLISION_CELL_SIZES);

const CX: Arg = Arg::new("cx", Kind::Integer);
const CY: Arg = Arg::new("cy", Kind::Integer);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Collision",
    intro: "The collision layer is a grid of square cells of 8, 16 (the default) or 32 px, \
            each a tile named as in `docs/collision.md` (`\"solid\"`, `\"ice\"`, \
            `\"ladder\"`, `\"oneway\"`, `\"hazard\"`, `\"slope_1_4_up_a\"`, ...); a tile \
            is the same shape at every size (a 45 degree slope rises one cell). Functions \
            that take `cx, cy` work in cells, all others in pixels. A body is a table `{x, y, w, h, vx, vy}` \
            in pixels (positions and speeds may be fractions; they are kept in 16.16). The \
            flags `move_body` returns are the bits of the table `COL`: `COL.WALL_LEFT`, \
            `COL.WALL_RIGHT`, `COL.GROUND`, `COL.CEILING`, `COL.LADDER_TOP`, `COL.ON_ICE`, \
            `COL.ON_SLOPE`, `COL.ON_ONEWAY`, `COL.HAZARD`, `COL.ON_LADDER`; test them with \
            `flags & COL.GROUND ~= 0`. Hitboxes are registered anew each frame (the list \
            empties when a frame starts); groups are 0-31 and a mask's bit g means \"tests \
            group g\". Boxes cover x..x+w, y..y+h with the right and bottom edges open.",
    functions: &[
        ApiFn {
            name: "col_size",
            args: &[
                Arg::int("cols", 1, COLLISION_MAX_CELLS as i64),
                Arg::int("rows", 1, COLLISION_MAX_CELLS as i64),
                Arg::new("cell", Kind::Choice(&COLLISION_CELL_CHOICES))
                    .or_int(crate::spec::COLLISION_CELL as i64),
            ],
            returns: "",
            doc: "Makes the collision layer `cols` x `rows` cells (1-256 each) of `cell` px \
                  (8, 16 or 32; default 16), all empty.",
            cost: &[],
            call: col_size,
        },
        ApiFn {
            name: "col_load",
            args: &[name("map"), name("map_layer")],
            returns: "cols, rows",
            doc: "Makes the collision layer the size of a map layer, in cells of the map's \
                  size (8, 16 or 32 px), and fills it from the `collide` tile property of the \
                  layer's tiles (cells without it are empty).",
            cost: &[Cost::each(cost::TILE_PROBE, "per cell", Unit::Collision)],
            call: col_load,
        },
        ApiFn {
            name: "col_set",
            args: &[CX, CY, Arg::str("tile")],
            returns: "",
            doc: "Sets cell (cx, cy) of the collision layer to the tile named `tile`.",
            cost: &[Cost::call(cost::TILE_PROBE, Unit::Collision)],
            call: col_set,
        },
        ApiFn {
            name: "col_get",
            args: &[CX, CY],
            returns: "tile",
            doc: "The name of the tile at cell (cx, cy); beyond the edges, `\"solid\"` or \
                  `\"empty\"` as `col_edges` says.",
            cost: &[Cost::call(cost::TILE_PROBE, Unit::Collision)],
            call: col_get,
        },
        ApiFn {
            name: "col_edges",
            args: &[
                Arg::new("left", Kind::Bool).or(Default::Bool(true)),
                Arg::new("right", Kind::Bool).or(Default::Bool(true)),
                Arg::new("top", Kind::Bool).or(Default::Bool(false)),
                Arg::new("bottom", Kind::Bool).or(Default::Bool(false)),
            ],
            returns: "",
            doc: "Whether the space beyond each edge of the layer is solid (at power-on: walls \
                  left and right, open above and below).",
            cost: &[],
            call: col_edges,
        },
        ApiFn {
            name: "col_margin",
            args: &[
                Arg::new("px", Kind::Num(0.0, COLLISION_MARGIN_MAX as f64)),
                Arg::new("top_speed", Kind::Num(0.0, f64::MAX)).optional("not checked"),
            ],
            returns: "",
            doc: "Sets how far below the feet ground mode looks for a floor to follow \
                  (0-16 px, default 4; more than one cell acts as one cell). With \
                  `top_speed`, checks it first against the layer: it must cover the steepest \
                  slope's drop at that speed and stay below the smallest drop (at most one \
                  cell), else it is an error saying which.",
            cost: &[Cost::each(
                cost::TILE_PROBE,
                "per cell when checked",
                Unit::Collision,
            )],
            call: col_margin,
        },
        ApiFn {
            name: "col_platform",
            args: &[
                Arg::new("id", Kind::Integer),
                Arg::num("x"),
                Arg::num("y"),
                Arg::int("w", 1, BODY_MAX_SIZE as i64),
                Arg::int("h", 1, BODY_MAX_SIZE as i64),
                Arg::num("dx").or(Default::Num(0.0)),
                Arg::num("dy").or(Default::Num(0.0)),
            ],
            returns: "",
            doc: "Registers a moving platform for this frame: a w x h rectangle at (x, y), its \
                  position after this frame's motion (dx, dy). Bodies land on its top from above \
                  (it is passed from below and from the sides, and dropped through with `drop`) \
                  and ride it: `move_body` adds the motion of the platform in `body.platform` \
                  to the body's own, so walls still stop it. Register platforms before moving \
                  the bodies; the list empties every frame (at most 64).",
            cost: &[Cost::call(cost::PLATFORM, Unit::Collision)],
            call: col_platform,
        },
        ApiFn {
            name: "move_body",
            args: &[
                Arg::new("body", Kind::Table("{x, y, w, h, vx, vy}")),
                Arg::str("mode").optional("\"ground\""),
                Arg::new("options", Kind::Table("{gravity, drop, slope_speed}")).optional("none"),
            ],
            returns: "flags, slope",
            doc: "Moves `body` by (vx, vy) through the collision layer and writes back its new \
                  x, y and the distance actually moved as vx, vy. `mode` is `\"ground\"` \
                  (default: follows slopes down, ladder tops are floors), `\"air\"` or \
                  `\"ladder\"`. `options` may hold `gravity = \"up\"` (floors above; everything \
                  mirrored), `drop = true` (fall through one-way floors), `slope_speed = true` \
                  (same speed along slopes as on flat ground). Moving platforms (`col_platform`) \
                  are landed on from above and carry the body: `body.platform` is set to the id \
                  of the platform it stands on (nil otherwise) and read by the next call. \
                  Returns the flags and the name of the slope stood on, or nil. `body.w` and `body.h` \
                  must be 1-4096 px (an error otherwise). Positions are \
                  clamped to +-16384 px and speeds to 2048 px a frame on each axis; a move \
                  longer than one cell is \
                  split into steps of at most one cell (charged per extra step: the same \
                  speed takes twice the steps on 8 px cells as on 16), so nothing passes \
                  through a wall or floor one cell thick.",
            cost: &[
                Cost::call(cost::MOVE_BODY, Unit::Collision),
                Cost::each(cost::TILE_PROBE, "per cell read", Unit::Collision),
                Cost::each(
                    cost::MOVE_STEP,
                    "per extra cell-sized step",
                    Unit::Collision,
                ),
                Cost::each(
                    cost::PLATFORM_TEST,
                    "per platform registered",
                    Unit::Collision,
                ),
            ],
            call: move_body_api,
        },
        ApiFn {
            name: "hb_add",
            args: &[
                Arg::new("id", Kind::Integer),
                Arg::int("group", 0, 31),
                Arg::new("mask", Kind::Integer),
                Arg::new("x", Kind::Integer),
                Arg::new("y", Kind::Integer),
                Arg::new("w", Kind::Integer),
                Arg::new("h", Kind::Integer),
            ],
            returns: "",
            doc: "Registers a hitbox for this frame. `id` is any number the cart uses to know \
                  it again.",
            cost: &[Cost::call(cost::HITBOX, Unit::Collision)],
            call: hb_add,
        },
        ApiFn {
            name: "hb_pairs",
            args: &[],
            returns: "pairs, n",
            doc: "Every overlapping pair where one box's mask names the other's group, as a \
                  flat array `{a1, b1, a2, b2, ...}` of ids (box a tests box b) and the number \
                  of pairs. Both orders appear when both boxes test each other.",
            cost: &[Cost::each(
                cost::HITBOX_TEST,
                "per candidate pair tested",
                Unit::Collision,
            )],
            call: hb_pairs,
        },
        ApiFn {
            name: "hb_query",
            args: &[
                Arg::coord("x"),
                Arg::coord("y"),
                Arg::coord("w"),
                Arg::coord("h"),
                Arg::new("mask", Kind::Integer).optional("all groups"),
            ],
            returns: "ids",
            doc: "An array of the ids of this frame's boxes that overlap the rectangle and \
                  whose group is in `mask` (default: all). Use w = h = 1 for a point.",
            cost: &[
                Cost::call(cost::HITBOX_QUERY, Unit::Collision),
                Cost::each(cost::HITBOX_TEST, "per box", Unit::Collision),
            ],
            call: hb_query,
        },
        ApiFn {
            name: "rect_hit",
            args: &[
                Arg::coord("ax"),
                Arg::coord("ay"),
                Arg::coord("aw"),
                Arg::coord("ah"),
                Arg::coord("bx"),
                Arg::coord("by"),
                Arg::coord("bw"),
                Arg::coord("bh"),
            ],
            returns: "hit",
            doc: "Whether two rectangles overlap, with the hitbox edge convention.",
            cost: &[Cost::call(cost::HITBOX_TEST, Unit::Collision)],
            call: rect_hit,
        },
        ApiFn {
            name: "point_in",
            args: &[
                Arg::coord("px"),
                Arg::coord("py"),
                Arg::coord("x"),
                Arg::coord("y"),
                Arg::coord("w"),
                Arg::coord("h"),
            ],
            returns: "inside",
            doc: "Whether point (px, py) lies in the rectangle (right and bottom edges open).",
            cost: &[Cost::call(cost::HITBOX_TEST, Unit::Collision)],
            call: point_in,
        },
    ],
    constants: &[ApiConstants {
        name: "COL",
        doc: "The flags `move_body` returns, by name (`COL.GROUND`, `COL.WALL_LEFT`, ...): test \
              them with `flags & COL.GROUND ~= 0`.",
        entries: flag_constants,
    }],
};

/// The `COL` table of `move_body` flags.
pub(crate) fn flag_constants() -> Vec<(&'static str, i64)> {
    flag::ALL
        .iter()
        .map(|&(name, bit)| (name, i64::from(bit)))
        .collect()
}

fn tile_arg(c: &Call, i: usize) -> LuaResult<Tile> {
    let name = c.str_arg(i)?;
    Tile::from_name(&name).ok_or_else(|| c.error(format!("\"{name}\" is not a collision tile")))
}

/// The cell size `px`, or an error saying what has it (`problem`) and naming the sizes (for
/// maps; `col_size`'s argument is checked by its declaration).
fn cell_size(c: &Call, px: i64, problem: &str) -> LuaResult<CellSize> {
    CellSize::from_px(px).ok_or_else(|| {
        c.error(format!(
            "{problem}; the collision layer's cells are 8, 16 or 32 px"
        ))
    })
}

fn col_size(c: &mut Call) -> LuaResult<MultiValue> {
    let cols = c.int_arg(0)? as usize;
    let rows = c.int_arg(1)? as usize;
    let px = c.int_arg(2)?;
    let cell = cell_size(c, px, &format!("cell is {px}"))?;
    c.m.collide.load_map(CollisionMap::sized(cols, rows, cell));
    c.ret(())
}

fn col_load(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let name = c.str_arg(0)?;
    let map = cart
        .maps
        .get(&name)
        .ok_or_else(|| c.error(format!("the cart has no map named \"{name}\"")))?;
    let layer_name = c.str_arg(1)?;
    let layer = map
        .layer(&layer_name)
        .ok_or_else(|| c.error(format!("map \"{name}\" has no tile layer \"{layer_name}\"")))?;
    let problem = format!("map \"{name}\" has {} px cells", map.cell_size);
    let cell = cell_size(c, map.cell_size as i64, &problem)?;
    let mut grid = CollisionMap::sized(map.cols, map.rows, cell);
    for (i, &props) in layer.props.iter().enumerate() {
        if let Some(tile) = map.tile_props[usize::from(props)].get("collide") {
            // Names were checked when the cart loaded.
            grid.set(
                (i % map.cols) as i32,
                (i / map.cols) as i32,
                Tile::from_name(tile).unwrap_or_default(),
            );
        }
    }
    c.m.collide.load_map(grid);
    c.charge(
        Unit::Collision,
        (map.cols * map.rows) as u64 * cost::TILE_PROBE,
    )?;
    c.ret((map.cols as i64, map.rows as i64))
}

fn col_set(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (c.int_arg(0)?, c.int_arg(1)?);
    let tile = tile_arg(c, 2)?;
    let map = &mut c.m.collide.map;
    let inside =
        i32::try_from(x).is_ok_and(|x| i32::try_from(y).is_ok_and(|y| map.set(x, y, tile)));
    if !inside {
        let (cols, rows) = (map.cols(), map.rows());
        return Err(c.error(format!(
            "cell ({x}, {y}) is outside the {cols}x{rows} collision layer"
        )));
    }
    c.charge(Unit::Collision, cost::TILE_PROBE)?;
    c.ret(())
}

fn col_get(c: &mut Call) -> LuaResult<MultiValue> {
    let x = c.int_arg(0)?.clamp(-1, 1 << 16) as i32;
    let y = c.int_arg(1)?.clamp(-1, 1 << 16) as i32;
    let name = c.m.collide.map.get(x, y).name();
    c.charge(Unit::Collision, cost::TILE_PROBE)?;
    c.ret(name)
}

fn col_edges(c: &mut Call) -> LuaResult<MultiValue> {
    let edges = Edges {
        left: c.bool_arg(0),
        right: c.bool_arg(1),
        top: c.bool_arg(2),
        bottom: c.bool_arg(3),
    };
    c.m.collide.set_edges(edges);
    c.ret(())
}

fn col_margin(c: &mut Call) -> LuaResult<MultiValue> {
    // Checked before the map is read, so a bad margin costs no probes.
    let margin = fx_from_f64(c.num_arg(0)?);
    if let Some(top_speed) = c.opt_num_arg(1)? {
        let top_speed = fx_from_f64(top_speed);
        let map = &c.m.collide.map;
        let cells = (map.cols() * map.rows()) as u64;
        check_margin(map, margin, top_speed).map_err(|e| c.error(e))?;
        c.charge(Unit::Collision, cells * cost::TILE_PROBE)?;
    }
    c.m.collide.set_margin(margin).map_err(|e| c.error(e))?;
    c.ret(())
}

/// The body's field `key`, read as `value`: a finite number.
fn body_number(c: &Call, key: &str, value: &Plain) -> LuaResult<f64> {
    c.field_num("body", key, value)?
        .ok_or_else(|| c.error(format!("body.{key} must be a number, got nil")))
}

fn move_body_api(c: &mut Call) -> LuaResult<MultiValue> {
    let Some([x, y, w, h, vx, vy, platform]) =
        c.table_fields(0, [c"x", c"y", c"w", c"h", c"vx", c"vy", c"platform"])?
    else {
        return Err(c.error("argument 1 (body) must be a table {x, y, w, h, vx, vy}"));
    };
    // Out of range is an error, as for `col_platform`'s sizes and every declared argument.
    let size = |key: &str, value: &Plain| -> LuaResult<i32> {
        let px = body_number(c, key, value)?.floor();
        if !(1.0..=f64::from(BODY_MAX_SIZE)).contains(&px) {
            return Err(c.error(format!("body.{key} is {px}, must be 1..{BODY_MAX_SIZE}")));
        }
        Ok(px as i32)
    };
    let mut body = Body {
        x: fx_from_f64(body_number(c, "x", &x)?),
        y: fx_from_f64(body_number(c, "y", &y)?),
        w: size("w", &w)?,
        h: size("h", &h)?,
        vx: fx_from_f64(body_number(c, "vx", &vx)?),
        vy: fx_from_f64(body_number(c, "vy", &vy)?),
    };
    let mode = c.opt_str_arg(1)?.unwrap_or_else(|| "ground".to_string());
    let mut options = MoveOptions {
        mode: match mode.as_str() {
            "ground" => Mode::Ground,
            "air" => Mode::Air,
            "ladder" => Mode::Ladder,
            other => {
                return Err(c.error(format!(
                    "mode \"{other}\" is not \"ground\", \"air\" or \"ladder\""
                )));
            }
        },
        margin: c.m.collide.margin,
        ..MoveOptions::default()
    };
    if let Some([gravity, drop, slope_speed]) =
        c.table_fields(2, [c"gravity", c"drop", c"slope_speed"])?
    {
        options.gravity_up = match gravity {
            Plain::Nil => false,
            Plain::Bytes(b"down") => false,
            Plain::Bytes(b"up") => true,
            _ => return Err(c.error("options.gravity must be \"up\" or \"down\"")),
        };
        // Read as Lua reads a condition: nil and false are false.
        options.drop_through = !matches!(drop, Plain::Nil | Plain::Boolean(false));
        options.slope_speed = !matches!(slope_speed, Plain::Nil | Plain::Boolean(false));
    }
    let riding = match platform {
        Plain::Nil | Plain::Boolean(false) => None,
        Plain::Integer(id) => Some(id),
        Plain::Number(id) if id.fract() == 0.0 => Some(id as i64),
        other => {
            return Err(c.error(format!(
                "body.platform must be a platform id or nil, got {}",
                other.type_name()
            )));
        }
    };
    let collide = &c.m.collide;
    let result = move_among(
        &collide.map,
        &collide.platforms,
        &mut body,
        &options,
        riding,
    );
    let moved = result.moved;
    let cycles = cost::MOVE_BODY
        + u64::from(moved.probes) * cost::TILE_PROBE
        + u64::from(moved.steps - 1) * cost::MOVE_STEP
        + u64::from(result.tests) * cost::PLATFORM_TEST;
    c.charge(Unit::Collision, cycles)?;
    c.m.collide.trace.push(crate::collide::trace::TracedMove {
        x: body.x,
        y: body.y,
        w: body.w,
        h: body.h,
        flags: moved.flags,
    });
    c.set_table_fields(
        0,
        [
            (c"x", Plain::Number(fx_to_f64(body.x))),
            (c"y", Plain::Number(fx_to_f64(body.y))),
            (c"vx", Plain::Number(fx_to_f64(body.vx))),
            (c"vy", Plain::Number(fx_to_f64(body.vy))),
            (
                c"platform",
                result.riding.map_or(Plain::Nil, Plain::Integer),
            ),
        ],
    )?;
    c.ret((i64::from(moved.flags), moved.slope.map(Tile::name)))
}

fn col_platform(c: &mut Call) -> LuaResult<MultiValue> {
    let id = c.int_arg(0)?;
    let platform = Platform {
        id,
        x: fx_from_f64(c.num_arg(1)?),
        y: fx_from_f64(c.num_arg(2)?),
        w: c.int_arg(3)? as i32,
        h: c.int_arg(4)? as i32,
        dx: fx_from_f64(c.num_arg(5)?),
        dy: fx_from_f64(c.num_arg(6)?),
    };
    c.m.collide
        .platforms
        .add(platform)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Collision, cost::PLATFORM)?;
    c.ret(())
}

fn hb_add(c: &mut Call) -> LuaResult<MultiValue> {
    let id = c.int_arg(0)?;
    let (group, mask) = (c.int_arg(1)?, c.int_arg(2)?);
    let (x, y, w, h) = (c.int_arg(3)?, c.int_arg(4)?, c.int_arg(5)?, c.int_arg(6)?);
    let hitbox = Hitbox::new(id, group, mask, x, y, w, h).map_err(|e| c.error(e))?;
    c.m.collide.hitboxes.add(hitbox).map_err(|e| c.error(e))?;
    c.charge(Unit::Collision, cost::HITBOX)?;
    c.ret(())
}

fn hb_pairs(c: &mut Call) -> LuaResult<MultiValue> {
    let found = c.m.collide.hitboxes.pairs();
    c.charge(Unit::Collision, found.tests * cost::HITBOX_TEST)?;
    let list = c.lua.create_table_with_capacity(found.pairs.len() * 2, 0)?;
    for (a, b) in &found.pairs {
        list.push(*a)?;
        list.push(*b)?;
    }
    c.ret((list, found.pairs.len() as i64))
}

fn hb_query(c: &mut Call) -> LuaResult<MultiValue> {
    let rect = [
        c.coord_arg(0)?,
        c.coord_arg(1)?,
        c.coord_arg(2)?,
        c.coord_arg(3)?,
    ];
    let mask = c.opt_int_arg(4)?.unwrap_or(-1) as u32;
    let (ids, tested) =
        c.m.collide
            .hitboxes
            .query(rect[0], rect[1], rect[2], rect[3], mask);
    c.charge(
        Unit::Collision,
        cost::HITBOX_QUERY + tested * cost::HITBOX_TEST,
    )?;
    let list = c.lua.create_sequence_from(ids)?;
    c.ret(list)
}

fn rect_args(c: &Call, first: usize) -> LuaResult<(i32, i32, i32, i32)> {
    Ok((
        c.coord_arg(first)?,
        c.coord_arg(first + 1)?,
        c.coord_arg(first + 2)?,
        c.coord_arg(first + 3)?,
    ))
}

fn rect_hit(c: &mut Call) -> LuaResult<MultiValue> {
    let (a, b) = (rect_args(c, 0)?, rect_args(c, 4)?);
    c.charge(Unit::Collision, cost::HITBOX_TEST)?;
    c.ret(a.2 > 0 && a.3 > 0 && b.2 > 0 && b.3 > 0 && overlap_rects(a, b))
}

fn point_in(c: &mut Call) -> LuaResult<MultiValue> {
    let (px, py) = (c.coord_arg(0)?, c.coord_arg(1)?);
    let rect = rect_args(c, 2)?;
    c.charge(Unit::Collision, cost::HITBOX_TEST)?;
    c.ret(rect.2 > 0 && rect.3 > 0 && overlap_rects((px, py, 1, 1), rect))
}
