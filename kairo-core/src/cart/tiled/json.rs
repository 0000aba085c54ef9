//! The JSON side of Tiled: `.tmj` maps and `.tsj` tilesets (also the older `.json` names),
//! read with `serde_json` into the same model as the XML files. JSON has no lines after
//! parsing, so errors name the value's place instead (`layers[2] "Ground"`). The forms Tiled
//! wrote before 1.2 (properties as objects, `tileproperties`, `tiles` keyed by id) are read by
//! [`legacy`].

mod legacy;

use serde_json::{Map as JsonObject, Value};

use super::{
    Chunk, Layer, LayerKind, MAX_CHUNK_SIDE, MAX_NESTING, Map, Object, Origin, Properties, Shape,
    TemplateFile, Templates, TileData, TileImage, Tileset, TilesetImage, TilesetUse, data,
    parse_trans, read_external_tileset, resolve,
};
use crate::cart::CartError;
use crate::cart::files::CartFiles;

/// One JSON object and where it is, for errors.
#[derive(Clone, Copy)]
struct At<'a> {
    file: &'a str,
    place: &'a str,
    value: &'a JsonObject<String, Value>,
}

impl<'a> At<'a> {
    /// Refuses a document whose `type` is given and is not `kind`.
    fn expect_type(&self, kind: &str) -> Result<(), CartError> {
        match self.text("type") {
            found if found.is_empty() || found == kind => Ok(()),
            found => Err(self.error(format!("the file's type is \"{found}\", not \"{kind}\""))),
        }
    }

    fn error(&self, message: impl std::fmt::Display) -> CartError {
        if self.place.is_empty() {
            CartError::file(self.file, message.to_string())
        } else {
            CartError::file(self.file, format!("{}: {message}", self.place))
        }
    }

    fn origin(&self) -> Origin {
        Origin {
            file: self.file.to_string(),
            line: None,
        }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.value.get(key).filter(|v| !v.is_null())
    }

    fn text(&self, key: &str) -> String {
        match self.get(key) {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        }
    }

    fn uint(&self, key: &str) -> Result<Option<u32>, CartError> {
        self.get(key)
            .map(|v| {
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| self.error(format!("`{key}` is {v}, not a whole number")))
            })
            .transpose()
    }

    fn required(&self, key: &str) -> Result<u32, CartError> {
        self.uint(key)?
            .ok_or_else(|| self.error(format!("`{key}` is missing")))
    }

    fn float(&self, key: &str) -> Result<f64, CartError> {
        match self.get(key) {
            None => Ok(0.0),
            Some(v) => v
                .as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| self.error(format!("`{key}` is {v}, not a number"))),
        }
    }

    fn flag(&self, key: &str, default: bool) -> bool {
        self.get(key).and_then(Value::as_bool).unwrap_or(default)
    }

    fn array(&self, key: &str) -> Result<&'a [Value], CartError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(self.error(format!("`{key}` is not an array"))),
        }
    }

    /// Item `i` of array `key`, as an object placed at `place`.
    fn item(&self, value: &'a Value, place: &'a str) -> Result<At<'a>, CartError> {
        match value {
            Value::Object(value) => Ok(At {
                file: self.file,
                place,
                value,
            }),
            _ => Err(CartError::file(
                self.file,
                format!("{place}: not an object"),
            )),
        }
    }

    /// Tiled writes `class` since 1.9 and `type` before (for objects, `type` too).
    fn class(&self) -> String {
        let class = self.text("class");
        if class.is_empty() {
            self.text("type")
        } else {
            class
        }
    }

    /// The properties of this object: the array Tiled writes since 1.2, or the object (typed
    /// by `propertytypes`) it wrote before.
    fn properties(&self) -> Result<Properties, CartError> {
        let mut out = Properties::new();
        match self.get("properties") {
            Some(Value::Array(list)) => collect_properties(list, "", &mut out),
            Some(Value::Object(old)) => {
                out = legacy::properties(self, "properties", old, self.get("propertytypes"))?;
            }
            _ => {}
        }
        Ok(out)
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn collect_properties(list: &[Value], prefix: &str, out: &mut Properties) {
    for property in list.iter().filter_map(Value::as_object) {
        let name = format!(
            "{prefix}{}",
            property.get("name").map(scalar).unwrap_or_default()
        );
        match property.get("value") {
            Some(Value::Object(members)) => {
                let kind = property.get("propertytype").map(scalar).unwrap_or_default();
                out.insert(name.clone(), kind);
                for (k, v) in members {
                    out.insert(format!("{name}.{k}"), scalar(v));
                }
            }
            Some(v) => {
                out.insert(name, scalar(v));
            }
            None => {
                out.insert(name, String::new());
            }
        }
    }
}

/// Parses JSON text, refusing nesting deeper than [`MAX_NESTING`] (serde_json stops at 128).
fn parse(file: &str, text: &str) -> Result<JsonObject<String, Value>, CartError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| CartError::at(file, e.line(), format!("malformed JSON: {e}")))?;
    let mut stack = vec![(&value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            let message = format!("values nest deeper than {MAX_NESTING} levels");
            return Err(CartError::file(file, message));
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|i| (i, depth + 1))),
            _ => {}
        }
    }
    match value {
        Value::Object(object) => Ok(object),
        _ => Err(CartError::file(file, "the file is not a JSON object")),
    }
}

/// Reads a `.tmj` map.
pub(crate) fn read_map(files: &CartFiles, path: &str, text: &str) -> Result<Map, CartError> {
    let root = parse(path, text)?;
    let at = At {
        file: path,
        place: "",
        value: &root,
    };
    at.expect_type("map")?;
    let mut map = Map {
        origin: at.origin(),
        orientation: match at.text("orientation") {
            o if o.is_empty() => "orthogonal".into(),
            o => o,
        },
        infinite: at.flag("infinite", false),
        width: at.required("width")?,
        height: at.required("height")?,
        tile_width: at.required("tilewidth")?,
        tile_height: at.required("tileheight")?,
        properties: at.properties()?,
        ..Map::default()
    };
    for (i, value) in at.array("tilesets")?.iter().enumerate() {
        let place = format!("tilesets[{i}]");
        let ts = at.item(value, &place)?;
        let first_gid = ts.required("firstgid")?;
        let (tileset, source) = match ts.get("source") {
            Some(Value::String(source)) => {
                let origin = at.origin();
                let source = resolve(&origin, source, "tileset")?;
                (
                    read_external_tileset(files, &source, &origin)?,
                    Some(source),
                )
            }
            _ => (tileset_from(ts)?, None),
        };
        map.tilesets.push(TilesetUse {
            first_gid,
            source,
            tileset,
        });
    }
    let mut templates = Templates::new(files, &map.tilesets);
    read_layers(at, "", &mut map, &mut templates)?;
    map.tilesets.extend(templates.added());
    Ok(map)
}

/// Reads a `.tj` object template: its object, and the tileset its tile id is numbered
/// through.
pub(crate) fn read_template(path: &str, text: &str) -> Result<TemplateFile, CartError> {
    let root = parse(path, text)?;
    let at = At {
        file: path,
        place: "",
        value: &root,
    };
    at.expect_type("template")?;
    let object = match at.get("object") {
        Some(value) => object_from(at.item(value, "object")?, None)?,
        None => return Err(at.error("the template has no `object`")),
    };
    let tileset = match at.get("tileset") {
        None => None,
        Some(value) => {
            let ts = at.item(value, "tileset")?;
            let source = match ts.get("source") {
                Some(Value::String(source)) => resolve(&at.origin(), source, "tileset")?,
                _ => return Err(ts.error("the template's tileset has no `source`")),
            };
            Some((source, ts.required("firstgid")?, at.origin()))
        }
    };
    Ok(TemplateFile { object, tileset })
}

/// Reads a `.tsj` tileset file.
pub(crate) fn read_tileset(path: &str, text: &str) -> Result<Tileset, CartError> {
    let root = parse(path, text)?;
    let at = At {
        file: path,
        place: "",
        value: &root,
    };
    at.expect_type("tileset")?;
    tileset_from(at)
}

fn tileset_from(at: At) -> Result<Tileset, CartError> {
    let mut tileset = Tileset {
        origin: at.origin(),
        name: at.text("name"),
        tile_width: at.required("tilewidth")?,
        tile_height: at.required("tileheight")?,
        spacing: at.uint("spacing")?.unwrap_or(0),
        margin: at.uint("margin")?.unwrap_or(0),
        tile_count: at.uint("tilecount")?,
        columns: at.uint("columns")?,
        ..Tileset::default()
    };
    if let Some(Value::String(image)) = at.get("image") {
        let trans = match at.get("transparentcolor") {
            Some(Value::String(text)) => Some(parse_trans(text).ok_or_else(|| {
                at.error(format!(
                    "transparentcolor \"{text}\" is not a #rrggbb colour"
                ))
            })?),
            _ => None,
        };
        tileset.image = Some(TilesetImage {
            origin: at.origin(),
            source: resolve(&at.origin(), image, "image")?,
            width: at.uint("imagewidth")?,
            height: at.uint("imageheight")?,
            trans,
        });
    }
    match at.get("tiles") {
        None => {}
        Some(Value::Array(tiles)) => {
            for (i, value) in tiles.iter().enumerate() {
                let place = format!("{}tiles[{i}]", prefix(at.place));
                let tile = at.item(value, &place)?;
                tileset.tiles.insert(tile.required("id")?, tile_from(tile)?);
            }
        }
        // Tiled before 1.2: an object keyed by tile id.
        Some(Value::Object(tiles)) => legacy::tiles(at, tiles, tile_from, &mut tileset.tiles)?,
        Some(_) => return Err(at.error("`tiles` is neither an array nor an object")),
    }
    legacy::tile_properties(at, &mut tileset.tiles)?;
    Ok(tileset)
}

/// What a tileset says of one tile (all but its id, which the two forms keep apart).
fn tile_from(tile: At) -> Result<TileData, CartError> {
    let mut data = TileData {
        class: tile.class(),
        ..TileData::default()
    };
    // Tiled before 1.1 let users give a tile's collision shapes (its implicit object group)
    // properties of their own; Tiled moves them to the tile, under the tile's own.
    if let Some(group) = tile.get("objectgroup") {
        let place = format!("{}.objectgroup", tile.place);
        data.properties = tile.item(group, &place)?.properties()?;
    }
    data.properties.extend(tile.properties()?);
    if let Some(Value::String(image)) = tile.get("image") {
        data.image = Some(TileImage {
            origin: tile.origin(),
            source: resolve(&tile.origin(), image, "image")?,
            x: tile.uint("x")?.unwrap_or(0),
            y: tile.uint("y")?.unwrap_or(0),
            width: tile.uint("width")?.or(tile.uint("imagewidth")?),
            height: tile.uint("height")?.or(tile.uint("imageheight")?),
            trans: None,
        });
    }
    for (j, frame) in tile.array("animation")?.iter().enumerate() {
        let place = format!("{}.animation[{j}]", tile.place);
        let frame = tile.item(frame, &place)?;
        data.animation
            .push((frame.required("tileid")?, frame.required("duration")?));
    }
    Ok(data)
}

fn prefix(place: &str) -> String {
    if place.is_empty() {
        String::new()
    } else {
        format!("{place}.")
    }
}

/// Reads the layers of `at` (the map or a group) in drawing order, flattening groups.
fn read_layers(
    at: At,
    place: &str,
    map: &mut Map,
    templates: &mut Templates,
) -> Result<(), CartError> {
    for (i, value) in at.array("layers")?.iter().enumerate() {
        let place = format!("{place}layers[{i}]");
        let layer = at.item(value, &place)?;
        let name = layer.text("name");
        let named = format!("{place} \"{name}\"");
        let layer = At {
            place: &named,
            ..layer
        };
        let mut chunks = Vec::new();
        let kind = match layer.text("type").as_str() {
            "tilelayer" => tile_layer(layer, map, &mut chunks)?,
            "objectgroup" => {
                let mut objects = Vec::new();
                for (j, value) in layer.array("objects")?.iter().enumerate() {
                    let place = format!("{named}.objects[{j}]");
                    objects.push(object_from(layer.item(value, &place)?, Some(templates))?);
                }
                LayerKind::Objects(objects)
            }
            "imagelayer" => LayerKind::Image,
            "group" => {
                read_layers(layer, &format!("{place}."), map, templates)?;
                continue;
            }
            other => return Err(layer.error(format!("unknown layer type \"{other}\""))),
        };
        map.layers.push(Layer {
            origin: layer.origin(),
            id: layer.uint("id")?.unwrap_or(0),
            name,
            class: layer.class(),
            visible: layer.flag("visible", true),
            properties: layer.properties()?,
            kind,
            chunks,
        });
    }
    Ok(())
}

/// A tile layer; an infinite map's layer leaves its tiles in `chunks` (the map is made
/// finite once every layer is read).
fn tile_layer(layer: At, map: &Map, chunks: &mut Vec<Chunk>) -> Result<LayerKind, CartError> {
    let width = layer.uint("width")?.unwrap_or(map.width);
    let height = layer.uint("height")?.unwrap_or(map.height);
    if map.infinite {
        for (i, value) in layer.array("chunks")?.iter().enumerate() {
            let place = format!("{}.chunks[{i}]", layer.place);
            let chunk = layer.item(value, &place)?;
            let (w, h) = (chunk.required("width")?, chunk.required("height")?);
            if !(1..=MAX_CHUNK_SIDE).contains(&w) || !(1..=MAX_CHUNK_SIDE).contains(&h) {
                return Err(chunk.error(format!(
                    "a chunk of {w}x{h} cells; Tiled writes chunks of at most {MAX_CHUNK_SIDE} cells a side"
                )));
            }
            let gids = gids_of(layer, chunk, w as usize * h as usize)?;
            if gids.len() != (w * h) as usize {
                return Err(chunk.error(format!(
                    "a {w}x{h} chunk holds {} tile ids; give it exactly {}",
                    gids.len(),
                    w * h
                )));
            }
            let coordinate = |key: &str| {
                chunk
                    .get(key)
                    .and_then(Value::as_i64)
                    .ok_or_else(|| chunk.error(format!("`{key}` is missing or not a whole number")))
            };
            chunks.push(Chunk {
                x: coordinate("x")?,
                y: coordinate("y")?,
                width: w,
                height: h,
                gids,
            });
        }
        return Ok(LayerKind::Tiles {
            width,
            height,
            gids: Vec::new(),
        });
    }
    if layer.get("chunks").is_some() {
        return Err(layer.error(
            "the layer is stored in chunks, but the map is not infinite: open it in Tiled and save it again",
        ));
    }
    let cells = width as usize * height as usize;
    let gids = gids_of(layer, layer, cells)?;
    Ok(LayerKind::Tiles {
        width,
        height,
        gids,
    })
}

/// The tile ids of `holder` (the layer or one of its chunks), in the layer's encoding;
/// `cells` bounds what compressed data may inflate to (and fills a layer with no data).
fn gids_of(layer: At, holder: At, cells: usize) -> Result<Vec<u32>, CartError> {
    Ok(match holder.get("data") {
        None => vec![0; cells],
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| holder.error(format!("data[{i}] is {v}, not a tile id")))
            })
            .collect::<Result<_, _>>()?,
        Some(Value::String(text)) => {
            let encoding = layer.text("encoding");
            if encoding != "base64" {
                let message = format!("data is a string but encoding is \"{encoding}\"");
                return Err(holder.error(message));
            }
            data::base64(text, &layer.text("compression"), cells)
                .map_err(|message| holder.error(message))?
        }
        Some(_) => return Err(holder.error("data is neither an array nor a string")),
    })
}

fn points(at: At, key: &str) -> Result<Vec<(f64, f64)>, CartError> {
    at.array(key)?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let place = format!("{}.{key}[{i}]", at.place);
            let point = at.item(p, &place)?;
            Ok((point.float("x")?, point.float("y")?))
        })
        .collect()
}

/// Reads an object; `templates` is `None` inside a template (templates do not nest). An
/// instance of a template is the template's object with what the instance writes over it.
fn object_from(at: At, templates: Option<&mut Templates>) -> Result<Object, CartError> {
    let mut object = match (at.get("template"), templates) {
        (Some(_), None) => return Err(at.error("a template's object cannot use a template itself")),
        (Some(Value::String(source)), Some(templates)) => {
            let origin = at.origin();
            let path = resolve(&origin, source, "template")?;
            templates.object(&path, &origin)?
        }
        (Some(_), Some(_)) => return Err(at.error("`template` is not a path")),
        (None, _) => Object {
            visible: true,
            ..Object::default()
        },
    };
    let shape = if let Some(gid) = at.uint("gid")? {
        Some(Shape::Tile(gid))
    } else if at.flag("ellipse", false) {
        Some(Shape::Ellipse)
    } else if at.flag("capsule", false) {
        Some(Shape::Capsule)
    } else if at.flag("point", false) {
        Some(Shape::Point)
    } else if at.get("polygon").is_some() {
        Some(Shape::Polygon(points(at, "polygon")?))
    } else if at.get("polyline").is_some() {
        Some(Shape::Polyline(points(at, "polyline")?))
    } else if let Some(Value::Object(text)) = at.get("text") {
        Some(Shape::Text(
            text.get("text").map(scalar).unwrap_or_default(),
        ))
    } else {
        None
    };
    if let Some(shape) = shape {
        object.shape = shape;
    }
    if let Some(id) = at.uint("id")? {
        object.id = id;
    }
    if at.get("name").is_some() {
        object.name = at.text("name");
    }
    if at.get("class").is_some() || at.get("type").is_some() {
        object.class = at.class();
    }
    for (key, field) in [
        ("x", &mut object.x),
        ("y", &mut object.y),
        ("width", &mut object.width),
        ("height", &mut object.height),
        ("rotation", &mut object.rotation),
    ] {
        if at.get(key).is_some() {
            *field = at.float(key)?;
        }
    }
    object.visible = at.flag("visible", object.visible);
    // An instance's properties override its template's, one by one.
    object.properties.extend(at.properties()?);
    Ok(object)
}
