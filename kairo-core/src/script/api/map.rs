//! Cart API: the cart's Tiled maps — loading a map layer into a background layer (with its
//! tile animations), reading objects, tiles and properties.

use mlua::MultiValue;

use crate::cart::map::{MapAsset, MapLayer};
use crate::cart::tiled::Properties;
use crate::meter::Unit;
use crate::script::api::common::{LAYER, name};
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::cost;

const MAP: Arg = name("map");
const MAP_LAYER: Arg = name("map_layer");

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Maps",
    intro: "Maps are the Tiled maps (`.tmx` or `.tmj`) listed as `[[map]]` in `cart.toml`, \
            named by their `name` (default: the file name without extension). Map layers are \
            named as in Tiled. Properties are strings, as Tiled saved them.",
    functions: &[
        ApiFn {
            name: "map_load",
            args: &[MAP, MAP_LAYER, LAYER],
            returns: "cols, rows",
            doc: "Resizes background layer `layer` to the map's size and cell size and \
                  copies the cells of the map's tile layer `map_layer` into it (Tiled's empty \
                  cells stay empty). The layer's animated tiles go into the tile animation \
                  table (see `tanim`). Layers are off at power-on: `layer_on(layer)` shows it.",
            cost: &[
                Cost::each(cost::CELL_WRITE, "per cell", Unit::Video),
                Cost::each(cost::ANIM_FRAME, "per animation frame", Unit::Video),
            ],
            call: map_load,
        },
        ApiFn {
            name: "map_size",
            args: &[MAP],
            returns: "cols, rows, cell",
            doc: "The map's size in cells and its cell size in pixels.",
            cost: &[],
            call: map_size,
        },
        ApiFn {
            name: "map_objects",
            args: &[MAP],
            returns: "objects",
            doc: "A new array of the map's objects, each a table `{id, name, class, kind, layer, \
                  x, y, w, h, rotation, visible, props}` (positions in pixels, `props` a table \
                  of strings). `kind` is `rect`, `ellipse`, `capsule`, `point`, `polygon`, \
                  `polyline`, `tile` or `text`; polygons and polylines have `points = {{x=, y=}, ...}` \
                  relative to (x, y); tile objects have `tile, pal, flags` (their position is \
                  their bottom-left corner, as in Tiled); text objects have `text`.",
            cost: &[Cost::each(cost::MAP_OBJECT, "per object", Unit::Script)],
            call: map_objects,
        },
        ApiFn {
            name: "map_prop",
            args: &[
                MAP,
                MAP_LAYER,
                Arg::new("cx", Kind::Integer),
                Arg::new("cy", Kind::Integer),
                Arg::str("key"),
            ],
            returns: "value",
            doc: "The tile property `key` of the tile at cell (cx, cy) of a map layer, as a \
                  string, or nil.",
            cost: &[],
            call: map_prop,
        },
        ApiFn {
            name: "map_props",
            args: &[MAP, MAP_LAYER.optional("the map's own")],
            returns: "props",
            doc: "A new table of the map's properties, or of the layer's (any kind of layer) \
                  when `map_layer` is given.",
            cost: &[Cost::call(cost::MAP_OBJECT, Unit::Script)],
            call: map_props,
        },
        ApiFn {
            name: "map_tile",
            args: &[MAP, Arg::int("gid", 0, u32::MAX as i64)],
            returns: "tile, palette, flags",
            doc: "The pattern tile, palette and flip flags that Tiled's global tile id `gid` \
                  (flip bits included) shows in this map, or nil if no loaded tile has it: \
                  write Tiled's tiles into layers with `cell`, or draw them as sprites.",
            cost: &[],
            call: map_tile,
        },
    ],
    constants: &[],
};

fn map_arg<'m>(
    c: &Call,
    maps: &'m std::collections::BTreeMap<String, MapAsset>,
) -> LuaResult<&'m MapAsset> {
    let name = c.str_arg(0)?;
    maps.get(&name)
        .ok_or_else(|| c.error(format!("the cart has no map named \"{name}\"")))
}

fn map_layer_arg<'m>(c: &Call, map: &'m MapAsset, i: usize) -> LuaResult<&'m MapLayer> {
    let name = c.str_arg(i)?;
    map.layer(&name)
        .ok_or_else(|| c.error(format!("map \"{}\" has no tile layer \"{name}\"", map.name)))
}

fn map_load(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    let source = map_layer_arg(c, map, 1)?;
    let layer = c.int_arg(2)? as usize;
    c.m.video.layers[layer]
        .load(map.cols, map.rows, map.cell_size, &source.cells)
        .map_err(|e| c.error(e))?;
    let mut frames = 0;
    for anim in &source.animations {
        frames += anim.frames.len() as u64;
        c.m.video.anims.set(anim.clone()).map_err(|e| c.error(e))?;
    }
    c.charge(
        Unit::Video,
        source.cells.len() as u64 * cost::CELL_WRITE + frames * cost::ANIM_FRAME,
    )?;
    c.ret((map.cols as i64, map.rows as i64))
}

fn map_size(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    c.ret((map.cols as i64, map.rows as i64, map.cell_size as i64))
}

fn map_objects(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    let list = c.lua.create_table_with_capacity(map.objects.len(), 0)?;
    for object in &map.objects {
        let entry = c.lua.create_table_with_capacity(0, 16)?;
        entry.raw_set("id", object.id)?;
        entry.raw_set("name", object.name.as_str())?;
        entry.raw_set("class", object.class.as_str())?;
        entry.raw_set("kind", object.kind)?;
        entry.raw_set("layer", object.layer.as_str())?;
        entry.raw_set("x", object.x)?;
        entry.raw_set("y", object.y)?;
        entry.raw_set("w", object.width)?;
        entry.raw_set("h", object.height)?;
        entry.raw_set("rotation", object.rotation)?;
        entry.raw_set("visible", object.visible)?;
        entry.raw_set("props", props_table(c, &object.properties)?)?;
        if !object.points.is_empty() {
            let points = c.lua.create_table_with_capacity(object.points.len(), 0)?;
            for &(x, y) in &object.points {
                let point = c.lua.create_table_with_capacity(0, 2)?;
                point.raw_set("x", x)?;
                point.raw_set("y", y)?;
                points.raw_push(point)?;
            }
            entry.raw_set("points", points)?;
        }
        if let Some(tile) = object.tile {
            entry.raw_set("tile", tile.tile() as i64)?;
            entry.raw_set("pal", i64::from(tile.palette()))?;
            entry.raw_set("flags", i64::from(tile.flags()))?;
        }
        if object.kind == "text" {
            entry.raw_set("text", object.text.as_str())?;
        }
        list.raw_push(entry)?;
    }
    c.charge(Unit::Script, cost::MAP_OBJECT * map.objects.len() as u64)?;
    c.ret(list)
}

fn map_prop(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    let layer = map_layer_arg(c, map, 1)?;
    let (x, y) = (c.int_arg(2)?, c.int_arg(3)?);
    let key = c.str_arg(4)?;
    if !(0..map.cols as i64).contains(&x) || !(0..map.rows as i64).contains(&y) {
        return c.ret(());
    }
    let props = &map.tile_props[usize::from(layer.props[y as usize * map.cols + x as usize])];
    c.ret(props.get(&key).map(String::as_str))
}

fn props_table(c: &Call, props: &Properties) -> LuaResult<mlua::Table> {
    let table = c.lua.create_table_with_capacity(0, props.len())?;
    for (k, v) in props {
        table.raw_set(k.as_str(), v.as_str())?;
    }
    Ok(table)
}

fn map_props(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    let props = match c.opt_str_arg(1)? {
        None => &map.properties,
        Some(name) => map
            .layer_props(&name)
            .ok_or_else(|| c.error(format!("map \"{}\" has no layer \"{name}\"", map.name)))?,
    };
    let table = props_table(c, props)?;
    c.charge(Unit::Script, cost::MAP_OBJECT)?;
    c.ret(table)
}

fn map_tile(c: &mut Call) -> LuaResult<MultiValue> {
    let cart = c.cart;
    let map = map_arg(c, &cart.maps)?;
    let gid = c.int_arg(1)? as u32;
    match map.cell_of_gid(gid) {
        Some(cell) => c.ret((
            cell.tile() as i64,
            i64::from(cell.palette()),
            i64::from(cell.flags()),
        )),
        None => c.ret(()),
    }
}
