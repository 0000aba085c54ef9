//! The XML side of Tiled: `.tmx` maps, `.tsx` tilesets and `.tx` object templates, read with
//! `roxmltree` (DOCTYPE lines allowed, never fetched). Errors carry the file and line.

use roxmltree::{Document, Node, ParsingOptions};

use super::{
    Chunk, LayerKind, MAX_CHUNK_SIDE, MAX_NESTING, MAX_NODES, Map, Object, Origin, Properties,
    Shape, TemplateFile, Templates, TileData, TileImage, Tileset, TilesetImage, TilesetUse, data,
    parse_trans, read_external_tileset, resolve,
};
use crate::cart::CartError;
use crate::cart::files::CartFiles;

/// One parsed XML file and its name, for located errors.
struct Xml<'a> {
    file: &'a str,
    doc: Document<'a>,
}

impl<'a> Xml<'a> {
    fn parse(file: &'a str, text: &'a str) -> Result<Xml<'a>, CartError> {
        let options = ParsingOptions {
            allow_dtd: true,
            nodes_limit: MAX_NODES,
            ..ParsingOptions::default()
        };
        let doc = Document::parse_with_options(text, options).map_err(|e| {
            CartError::at(file, e.pos().row as usize, format!("malformed XML: {e}"))
        })?;
        let xml = Xml { file, doc };
        xml.check_depth()?;
        Ok(xml)
    }

    /// Refuses documents nested deeper than [`MAX_NESTING`], found without recursion, so the
    /// readers below may recurse.
    fn check_depth(&self) -> Result<(), CartError> {
        let mut stack = vec![(self.doc.root_element(), 1usize)];
        while let Some((node, depth)) = stack.pop() {
            if depth > MAX_NESTING {
                let message = format!("elements nest deeper than {MAX_NESTING} levels");
                return Err(self.origin(node).error(message));
            }
            stack.extend(
                node.children()
                    .filter(Node::is_element)
                    .map(|c| (c, depth + 1)),
            );
        }
        Ok(())
    }

    fn origin(&self, node: Node) -> Origin {
        Origin {
            file: self.file.to_string(),
            line: Some(self.doc.text_pos_at(node.range().start).row as usize),
        }
    }

    fn error(&self, node: Node, message: impl Into<String>) -> CartError {
        self.origin(node).error(message)
    }

    /// Attribute `name` as a number, if present.
    fn num<T: std::str::FromStr>(&self, node: Node, name: &str) -> Result<Option<T>, CartError> {
        node.attribute(name)
            .map(|text| {
                text.trim().parse::<T>().map_err(|_| {
                    self.error(
                        node,
                        format!("<{}> {name}=\"{text}\" is not a valid number", tag(node)),
                    )
                })
            })
            .transpose()
    }

    /// Attribute `name` as a number, or an error saying it is missing.
    fn required<T: std::str::FromStr>(&self, node: Node, name: &str) -> Result<T, CartError> {
        self.num(node, name)?
            .ok_or_else(|| self.error(node, format!("<{}> has no `{name}` attribute", tag(node))))
    }

    fn float(&self, node: Node, name: &str) -> Result<f64, CartError> {
        let value: f64 = self.num(node, name)?.unwrap_or(0.0);
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.error(node, format!("<{}> {name} is not finite", tag(node))))
        }
    }

    /// The `<properties>` child of `node`, flattened.
    fn properties(&self, node: Node) -> Properties {
        let mut out = Properties::new();
        if let Some(list) = child(node, "properties") {
            collect_properties(list, "", &mut out);
        }
        out
    }
}

fn tag<'a>(node: Node<'a, '_>) -> &'a str {
    node.tag_name().name()
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|c| c.is_element() && tag(*c) == name)
}

fn children<'a, 'i>(node: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(move |c| c.is_element() && tag(*c) == name)
}

fn text_attr(node: Node, name: &str) -> String {
    node.attribute(name).unwrap_or_default().to_string()
}

/// Tiled writes `class` since 1.9 and `type` before.
fn class_of(node: Node) -> String {
    node.attribute("class")
        .or_else(|| node.attribute("type"))
        .unwrap_or_default()
        .to_string()
}

fn collect_properties(list: Node, prefix: &str, out: &mut Properties) {
    for property in children(list, "property") {
        let name = format!("{prefix}{}", text_attr(property, "name"));
        if let Some(members) = child(property, "properties") {
            // A class-typed property: its type, then its members as `name.member`.
            out.insert(name.clone(), text_attr(property, "propertytype"));
            collect_properties(members, &format!("{name}."), out);
            continue;
        }
        let value = match property.attribute("value") {
            Some(v) => v.to_string(),
            // Multi-line strings are saved as the element's text.
            None => property.text().unwrap_or_default().to_string(),
        };
        out.insert(name, value);
    }
}

/// Reads a `.tmx` map.
pub(crate) fn read_map(files: &CartFiles, path: &str, text: &str) -> Result<Map, CartError> {
    let xml = Xml::parse(path, text)?;
    let root = xml.doc.root_element();
    if tag(root) != "map" {
        return Err(xml.error(
            root,
            format!("the root element is <{}>, not <map>", tag(root)),
        ));
    }
    let mut map = Map {
        origin: xml.origin(root),
        orientation: root
            .attribute("orientation")
            .unwrap_or("orthogonal")
            .to_string(),
        infinite: root.attribute("infinite") == Some("1"),
        width: xml.required(root, "width")?,
        height: xml.required(root, "height")?,
        tile_width: xml.required(root, "tilewidth")?,
        tile_height: xml.required(root, "tileheight")?,
        properties: xml.properties(root),
        ..Map::default()
    };
    for node in children(root, "tileset") {
        let first_gid = xml.required(node, "firstgid")?;
        let (tileset, source) = match node.attribute("source") {
            Some(source) => {
                let origin = xml.origin(node);
                let source = resolve(&origin, source, "tileset")?;
                (
                    read_external_tileset(files, &source, &origin)?,
                    Some(source),
                )
            }
            None => (tileset_from(&xml, node)?, None),
        };
        map.tilesets.push(TilesetUse {
            first_gid,
            source,
            tileset,
        });
    }
    let mut templates = Templates::new(files, &map.tilesets);
    read_layers(&xml, root, &mut map, &mut templates)?;
    map.tilesets.extend(templates.added());
    Ok(map)
}

/// Reads a `.tsx` tileset file.
pub(crate) fn read_tileset(path: &str, text: &str) -> Result<Tileset, CartError> {
    let xml = Xml::parse(path, text)?;
    let root = xml.doc.root_element();
    if tag(root) != "tileset" {
        let message = format!("the root element is <{}>, not <tileset>", tag(root));
        return Err(xml.error(root, message));
    }
    tileset_from(&xml, root)
}

fn tileset_from(xml: &Xml, node: Node) -> Result<Tileset, CartError> {
    let mut tileset = Tileset {
        origin: xml.origin(node),
        name: text_attr(node, "name"),
        tile_width: xml.required(node, "tilewidth")?,
        tile_height: xml.required(node, "tileheight")?,
        spacing: xml.num(node, "spacing")?.unwrap_or(0),
        margin: xml.num(node, "margin")?.unwrap_or(0),
        tile_count: xml.num(node, "tilecount")?,
        columns: xml.num(node, "columns")?,
        ..Tileset::default()
    };
    if let Some(image) = child(node, "image") {
        tileset.image = Some(image_from(xml, image)?);
    }
    for tile in children(node, "tile") {
        let id: u32 = xml.required(tile, "id")?;
        let mut data = TileData {
            class: class_of(tile),
            properties: xml.properties(tile),
            ..TileData::default()
        };
        if let Some(image) = child(tile, "image") {
            let whole = image_from(xml, image)?;
            data.image = Some(TileImage {
                origin: whole.origin,
                source: whole.source,
                x: xml.num(tile, "x")?.unwrap_or(0),
                y: xml.num(tile, "y")?.unwrap_or(0),
                width: xml.num(tile, "width")?.or(whole.width),
                height: xml.num(tile, "height")?.or(whole.height),
                trans: whole.trans,
            });
        }
        if let Some(animation) = child(tile, "animation") {
            for frame in children(animation, "frame") {
                data.animation.push((
                    xml.required(frame, "tileid")?,
                    xml.required(frame, "duration")?,
                ));
            }
        }
        tileset.tiles.insert(id, data);
    }
    Ok(tileset)
}

fn image_from(xml: &Xml, node: Node) -> Result<TilesetImage, CartError> {
    let origin = xml.origin(node);
    if child(node, "data").is_some() || node.attribute("format").is_some() {
        return Err(origin.error(
            "the tileset's image is embedded in the file; save it as a PNG next to the tileset",
        ));
    }
    let trans = match node.attribute("trans") {
        None => None,
        Some(text) => Some(
            parse_trans(text)
                .ok_or_else(|| origin.error(format!("trans=\"{text}\" is not a #rrggbb colour")))?,
        ),
    };
    Ok(TilesetImage {
        source: resolve(&origin, node.attribute("source").unwrap_or(""), "image")?,
        width: xml.num(node, "width")?,
        height: xml.num(node, "height")?,
        trans,
        origin,
    })
}

/// Reads the layers under `parent` in drawing order, flattening groups (nesting is bounded
/// by [`Xml::check_depth`]).
fn read_layers(
    xml: &Xml,
    parent: Node,
    map: &mut Map,
    templates: &mut Templates,
) -> Result<(), CartError> {
    for node in parent.children().filter(Node::is_element) {
        let mut chunks = Vec::new();
        let kind = match tag(node) {
            "layer" => tile_layer(xml, node, map, &mut chunks)?,
            "objectgroup" => {
                let objects = children(node, "object")
                    .map(|o| object_from(xml, o, Some(templates)))
                    .collect::<Result<_, _>>()?;
                LayerKind::Objects(objects)
            }
            "imagelayer" => LayerKind::Image,
            "group" => {
                read_layers(xml, node, map, templates)?;
                continue;
            }
            _ => continue,
        };
        map.layers.push(super::Layer {
            origin: xml.origin(node),
            id: xml.num(node, "id")?.unwrap_or(0),
            name: text_attr(node, "name"),
            class: class_of(node),
            visible: node.attribute("visible") != Some("0"),
            properties: xml.properties(node),
            kind,
            chunks,
        });
    }
    Ok(())
}

/// A tile layer; an infinite map's layer leaves its tiles in `chunks` (the map is made
/// finite once every layer is read).
fn tile_layer(
    xml: &Xml,
    node: Node,
    map: &Map,
    chunks: &mut Vec<Chunk>,
) -> Result<LayerKind, CartError> {
    let width: u32 = xml.num(node, "width")?.unwrap_or(map.width);
    let height: u32 = xml.num(node, "height")?.unwrap_or(map.height);
    let cells = width as usize * height as usize;
    let Some(data) = child(node, "data") else {
        let cells = if map.infinite { 0 } else { cells };
        return Ok(LayerKind::Tiles {
            width,
            height,
            gids: vec![0; cells],
        });
    };
    if map.infinite {
        for chunk in children(data, "chunk") {
            let (w, h): (u32, u32) = (
                xml.required(chunk, "width")?,
                xml.required(chunk, "height")?,
            );
            if !(1..=MAX_CHUNK_SIDE).contains(&w) || !(1..=MAX_CHUNK_SIDE).contains(&h) {
                let message = format!(
                    "a chunk of {w}x{h} cells; Tiled writes chunks of at most {MAX_CHUNK_SIDE} cells a side"
                );
                return Err(xml.error(chunk, message));
            }
            let gids = gids_of(xml, data, chunk, w as usize * h as usize)?;
            if gids.len() != w as usize * h as usize {
                let message = format!(
                    "a {w}x{h} chunk holds {} tile ids; give it exactly {}",
                    gids.len(),
                    w * h
                );
                return Err(xml.error(chunk, message));
            }
            chunks.push(Chunk {
                x: xml.required(chunk, "x")?,
                y: xml.required(chunk, "y")?,
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
    if child(data, "chunk").is_some() {
        return Err(xml.error(
            data,
            "the layer is stored in chunks, but the map is not infinite (infinite=\"1\"): open it in Tiled and save it again",
        ));
    }
    let gids = gids_of(xml, data, data, cells)?;
    Ok(LayerKind::Tiles {
        width,
        height,
        gids,
    })
}

/// The tile ids in `holder` (a `<data>` or one of its `<chunk>`s), in the encoding `data`
/// names; `cells` bounds what compressed data may inflate to.
fn gids_of(xml: &Xml, data: Node, holder: Node, cells: usize) -> Result<Vec<u32>, CartError> {
    let text = holder.text().unwrap_or_default();
    Ok(match data.attribute("encoding").unwrap_or("") {
        "csv" => data::csv(text).map_err(|(line, message)| {
            let first = xml.origin(holder).line.unwrap_or(1);
            CartError::at(xml.file, first + line, message)
        })?,
        "base64" => data::base64(text, data.attribute("compression").unwrap_or(""), cells)
            .map_err(|message| xml.error(holder, message))?,
        "" => children(holder, "tile")
            .map(|t| xml.num(t, "gid").map(Option::unwrap_or_default))
            .collect::<Result<_, _>>()?,
        other => {
            let message =
                format!("encoding `{other}` is not one Tiled writes (csv, base64 or XML)");
            return Err(xml.error(data, message));
        }
    })
}

fn points(xml: &Xml, node: Node) -> Result<Vec<(f64, f64)>, CartError> {
    let text = node.attribute("points").unwrap_or_default();
    text.split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',').unwrap_or((pair, ""));
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => Ok((x, y)),
                _ => Err(xml.error(node, format!("`{pair}` is not a point `x,y`"))),
            }
        })
        .collect()
}

/// Reads an `<object>`; `templates` is `None` inside a template (templates do not nest).
fn object_from(
    xml: &Xml,
    node: Node,
    templates: Option<&mut Templates>,
) -> Result<Object, CartError> {
    let mut object = match (node.attribute("template"), templates) {
        (Some(_), None) => {
            return Err(xml.error(node, "a template's object cannot use a template itself"));
        }
        (Some(source), Some(templates)) => {
            let origin = xml.origin(node);
            let path = resolve(&origin, source, "template")?;
            templates.object(&path, &origin)?
        }
        (None, _) => Object {
            visible: true,
            ..Object::default()
        },
    };
    object.id = xml.num(node, "id")?.unwrap_or(object.id);
    if let Some(name) = node.attribute("name") {
        object.name = name.to_string();
    }
    if node.has_attribute("class") || node.has_attribute("type") {
        object.class = class_of(node);
    }
    for (attr, field) in [
        ("x", &mut object.x),
        ("y", &mut object.y),
        ("width", &mut object.width),
        ("height", &mut object.height),
        ("rotation", &mut object.rotation),
    ] {
        if node.has_attribute(attr) {
            *field = xml.float(node, attr)?;
        }
    }
    if let Some(visible) = node.attribute("visible") {
        object.visible = visible != "0";
    }
    if let Some(gid) = xml.num(node, "gid")? {
        object.shape = Shape::Tile(gid);
    }
    for shape in node.children().filter(Node::is_element) {
        object.shape = match tag(shape) {
            "ellipse" => Shape::Ellipse,
            "capsule" => Shape::Capsule,
            "point" => Shape::Point,
            "polygon" => Shape::Polygon(points(xml, shape)?),
            "polyline" => Shape::Polyline(points(xml, shape)?),
            "text" => Shape::Text(shape.text().unwrap_or_default().to_string()),
            _ => continue,
        };
    }
    // An instance's properties override its template's, one by one.
    object.properties.extend(xml.properties(node));
    Ok(object)
}

/// Reads a `.tx` object template: its object, and the tileset its tile id is numbered
/// through.
pub(crate) fn read_template(path: &str, text: &str) -> Result<TemplateFile, CartError> {
    let xml = Xml::parse(path, text)?;
    let root = xml.doc.root_element();
    if tag(root) != "template" {
        let message = format!("the root element is <{}>, not <template>", tag(root));
        return Err(xml.error(root, message));
    }
    let node =
        child(root, "object").ok_or_else(|| xml.error(root, "the template has no <object>"))?;
    let object = object_from(&xml, node, None)?;
    let tileset = match child(root, "tileset") {
        None => None,
        Some(node) => {
            let origin = xml.origin(node);
            let source = resolve(&origin, node.attribute("source").unwrap_or(""), "tileset")?;
            Some((source, xml.required(node, "firstgid")?, origin))
        }
    };
    Ok(TemplateFile { object, tileset })
}
