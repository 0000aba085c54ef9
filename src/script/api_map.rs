//! Cart API: the cart's Tiled maps — loading a map layer into a background layer, reading
//! objects and tile properties.

use mlua::MultiValue;

use super::api::{ApiFn, ApiGroup, Call, LuaResult};
use crate::cart::map::{MapAsset, MapLayer};
use crate::meter::Unit;
use crate::spec::{BG_LAYERS, cost};

pub const GROUP: ApiGroup = ApiGroup {
    title: "Maps",
    intro: "Maps are the Tiled `.tmx` files listed as `[[map]]` in `cart.toml`, named by their \
            `name` (default: the file name without extension). Map layers are named as in \
            Tiled.",
    functions: &[
        ApiFn {
            name: "map_load",
            args: "map, map_layer, layer",
            returns: "cols, rows",
            doc: "Resizes background layer `layer` (0-3) to the map's size and cell size and \
                  copies the cells of the map's tile layer `map_layer` into it.",
            cost: "1 per cell (video)",
            call: map_load,
        },
        ApiFn {
            name: "map_size",
            args: "map",
            returns: "cols, rows, cell",
            doc: "The map's size in cells and its cell size in pixels.",
            cost: "0",
            call: map_size,
        },
        ApiFn {
            name: "map_objects",
            args: "map",
            returns: "objects",
            doc: "A new array of the map's objects, each a table `{name, class, layer, x, y, w, \
                  h, props}` (positions in pixels, `props` a table of strings).",
            cost: "8 per object (script)",
            call: map_objects,
        },
        ApiFn {
            name: "map_prop",
            args: "map, map_layer, cx, cy, key",
            returns: "value",
            doc: "The tile property `key` of the tile at cell (cx, cy) of a map layer, as a \
                  string, or nil.",
            cost: "0",
            call: map_prop,
        },
    ],
};

fn map_arg<'m>(
    c: &Call,
    maps: &'m std::collections::BTreeMap<String, MapAsset>,
) -> LuaResult<&'m MapAsset> {
    let name = c.string(0, "map")?;
    maps.get(&name)
        .ok_or_else(|| c.error(format!("the cart has no map named \"{name}\"")))
}

fn map_layer_arg<'m>(c: &Call, map: &'m MapAsset, i: usize) -> LuaResult<&'m MapLayer> {
    let name = c.string(i, "map_layer")?;
    map.layer(&name)
        .ok_or_else(|| c.error(format!("map \"{}\" has no tile layer \"{name}\"", map.name)))
}

fn map_load(c: &mut Call) -> LuaResult<MultiValue> {
    let maps = c.m.maps.clone();
    let map = map_arg(c, &maps)?;
    let source = map_layer_arg(c, map, 1)?;
    let layer = c.int_in(2, "layer", 0, BG_LAYERS as i64 - 1)? as usize;
    c.m.video.layers[layer]
        .load(map.cols, map.rows, map.cell_size, &source.cells)
        .map_err(|e| c.error(e))?;
    c.charge(Unit::Video, source.cells.len() as u64 * cost::CELL_WRITE);
    c.ret((map.cols as i64, map.rows as i64))
}

fn map_size(c: &mut Call) -> LuaResult<MultiValue> {
    let maps = c.m.maps.clone();
    let map = map_arg(c, &maps)?;
    c.ret((map.cols as i64, map.rows as i64, map.cell_size as i64))
}

fn map_objects(c: &mut Call) -> LuaResult<MultiValue> {
    let maps = c.m.maps.clone();
    let map = map_arg(c, &maps)?;
    let list = c.lua.create_table_with_capacity(map.objects.len(), 0)?;
    for object in &map.objects {
        let entry = c.lua.create_table_with_capacity(0, 8)?;
        entry.set("name", object.name.as_str())?;
        entry.set("class", object.class.as_str())?;
        entry.set("layer", object.layer.as_str())?;
        entry.set("x", object.x)?;
        entry.set("y", object.y)?;
        entry.set("w", object.width)?;
        entry.set("h", object.height)?;
        let props = c.lua.create_table()?;
        for (k, v) in &object.properties {
            props.set(k.as_str(), v.as_str())?;
        }
        entry.set("props", props)?;
        list.push(entry)?;
    }
    c.charge(Unit::Script, cost::MAP_OBJECT * map.objects.len() as u64);
    c.ret(list)
}

fn map_prop(c: &mut Call) -> LuaResult<MultiValue> {
    let maps = c.m.maps.clone();
    let map = map_arg(c, &maps)?;
    let layer = map_layer_arg(c, map, 1)?;
    let (x, y) = (c.int(2, "cx")?, c.int(3, "cy")?);
    let key = c.string(4, "key")?;
    if !(0..map.cols as i64).contains(&x) || !(0..map.rows as i64).contains(&y) {
        return c.ret(());
    }
    let props = &map.tile_props[usize::from(layer.props[y as usize * map.cols + x as usize])];
    c.ret(props.get(&key).map(String::as_str))
}
