//! Each form of Tiled's JSON before 1.2, on small maps written as Tiled 0.x and 1.0/1.1 (and
//! the `json1` export) write them.

use std::collections::BTreeMap;

use crate::cart::CartError;
use crate::cart::files::CartFiles;
use crate::cart::tiled::{LayerKind, Map, Properties, read_map};

fn cart(files: &[(&str, &str)]) -> CartFiles {
    let map: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
    CartFiles::from_map("test", map)
}

/// A one-cell map with `tileset` (the tileset's JSON fields) and `extra` (more map fields).
fn map_json(tileset: &str, extra: &str) -> String {
    format!(
        r#"{{ "version": 1, "tiledversion": "1.1.5", "type": "map", "orientation": "orthogonal",
  "width": 1, "height": 1, "tilewidth": 16, "tileheight": 16, {extra}
  "tilesets": [{{"firstgid": 1, "name": "old", "tilewidth": 16, "tileheight": 16,
    "image": "t.png", "imagewidth": 32, "imageheight": 32, "tilecount": 4, "columns": 2,
    "margin": 0, "spacing": 0 {tileset}}}],
  "layers": [{{"type": "tilelayer", "name": "l", "width": 1, "height": 1, "x": 0, "y": 0,
    "opacity": 1, "visible": true, "data": [1]}}]
}}"#
    )
}

fn read(json: &str) -> Result<Map, CartError> {
    read_map(&cart(&[("m.json", json)]), "m.json")
}

fn props(pairs: &[(&str, &str)]) -> Properties {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn typed_properties_of_the_map_layers_and_objects_come_out_as_tiled_saves_them() {
    // What Tiled 1.0/1.1 writes: values as JSON, types beside them.
    let json = r##"{ "version": 1, "type": "map", "orientation": "orthogonal",
  "width": 1, "height": 1, "tilewidth": 16, "tileheight": 16,
  "properties": {"dark": true, "lives": 3, "gravity": 0.5, "title": "Cave", "tint": "#ff102030",
                 "music": "songs/cave.mml", "whole": 2, "boss": 7},
  "propertytypes": {"dark": "bool", "lives": "int", "gravity": "float", "title": "string",
                    "tint": "color", "music": "file", "whole": "float", "boss": "object"},
  "tilesets": [],
  "layers": [
    {"type": "tilelayer", "name": "l", "width": 1, "height": 1, "data": [0],
     "properties": {"scroll": 1.25, "solid": false}, "propertytypes": {"scroll": "float", "solid": "bool"}},
    {"type": "objectgroup", "name": "o", "properties": {}, "propertytypes": {},
     "objects": [{"id": 1, "name": "door", "type": "exit", "x": 8, "y": 8, "width": 0, "height": 0,
                  "properties": {"to": "map2", "locked": true, "keys": 2},
                  "propertytypes": {"to": "string", "locked": "bool", "keys": "int"}}]}
  ]
}"##;
    let map = read(json).unwrap();
    assert_eq!(
        map.properties,
        props(&[
            ("dark", "true"),
            ("lives", "3"),
            ("gravity", "0.5"),
            ("title", "Cave"),
            ("tint", "#ff102030"),
            ("music", "songs/cave.mml"),
            ("whole", "2"),
            ("boss", "7"),
        ])
    );
    assert_eq!(
        map.layers[0].properties,
        props(&[("scroll", "1.25"), ("solid", "false")])
    );
    assert!(map.layers[1].properties.is_empty());
    let LayerKind::Objects(objects) = &map.layers[1].kind else {
        panic!("an object layer")
    };
    assert_eq!(objects[0].class, "exit");
    assert_eq!(
        objects[0].properties,
        props(&[("to", "map2"), ("locked", "true"), ("keys", "2")])
    );
}

#[test]
fn values_are_converted_to_their_declared_type_as_tiled_converts_them() {
    // Hand-edited or older files hold strings and numbers where the type says otherwise;
    // Tiled converts them (Qt's conversions), so does Kairo.
    let json = map_json(
        "",
        r#""properties": {"a": "1", "b": "FALSE", "c": "", "d": " 42 ", "e": 3.0, "f": true,
                         "g": "2", "h": 2, "i": 1.5, "j": 0, "k": 17, "l": null, "m": "0.10"},
           "propertytypes": {"a": "bool", "b": "bool", "c": "bool", "d": "int", "e": "int", "f": "int",
                             "g": "float", "h": "float", "i": "string", "j": "bool", "k": "string",
                             "l": "string", "m": "float"},"#,
    );
    let map = read(&json).unwrap();
    assert_eq!(
        map.properties,
        props(&[
            ("a", "true"),
            ("b", "false"),
            ("c", "false"),
            ("d", "42"),
            ("e", "3"),
            ("f", "1"),
            ("g", "2"),
            ("h", "2"),
            ("i", "1.5"),
            ("j", "false"),
            ("k", "17"),
            ("l", ""),
            ("m", "0.1"),
        ])
    );
}

#[test]
fn without_propertytypes_the_json_value_is_the_type() {
    // Tiled before 0.16 wrote no `propertytypes` (and every value as a string).
    let json = map_json(
        "",
        r#""properties": {"solid": "true", "hp": 3, "speed": 0.5, "on": true, "n": 3.0, "name": "x"},"#,
    );
    let map = read(&json).unwrap();
    assert_eq!(
        map.properties,
        props(&[
            ("solid", "true"),
            ("hp", "3"),
            ("speed", "0.5"),
            ("on", "true"),
            ("n", "3"),
            ("name", "x"),
        ])
    );
}

#[test]
fn a_class_property_from_the_json1_export_keeps_its_members() {
    let json = map_json(
        "",
        r#""properties": {"spawn": {"x": 4, "y": 2.5, "at": {"room": "hall"}}},
           "propertytypes": {"spawn": "class"},"#,
    );
    let map = read(&json).unwrap();
    assert_eq!(
        map.properties,
        props(&[
            ("spawn", ""),
            ("spawn.x", "4"),
            ("spawn.y", "2.5"),
            ("spawn.at", ""),
            ("spawn.at.room", "hall"),
        ])
    );
}

#[test]
fn what_cannot_be_honoured_is_refused_naming_the_file_place_and_property() {
    for (fields, wanted) in [
        (
            r#""properties": {"solid": "maybe"}, "propertytypes": {"solid": "bool"},"#,
            "m.json: properties: property `solid` is typed bool but holds \"maybe\", not true or false",
        ),
        (
            r#""properties": {"hp": 2.5}, "propertytypes": {"hp": "int"},"#,
            "property `hp` is typed int but holds 2.5, not a whole number (32-bit)",
        ),
        (
            r#""properties": {"hp": 4294967296}, "propertytypes": {"hp": "int"},"#,
            "property `hp` is typed int but holds 4294967296",
        ),
        (
            r#""properties": {"speed": "fast"}, "propertytypes": {"speed": "float"},"#,
            "property `speed` is typed float but holds \"fast\", not a number",
        ),
        (
            r#""properties": {"p": 1}, "propertytypes": {"p": "vec2"},"#,
            "property `p` has type `vec2`, which is not one Tiled writes",
        ),
        (
            r#""properties": {"items": [1, 2]}, "propertytypes": {"items": "list"},"#,
            "property `items` is a list",
        ),
        (
            r#""properties": {"tint": 5}, "propertytypes": {"tint": "color"},"#,
            "property `tint` is typed color but holds 5, not a string",
        ),
        (
            r#""properties": {"a": 1}, "propertytypes": ["int"],"#,
            "m.json: the property types of properties are [\"int\"], not an object of type names",
        ),
    ] {
        let e = read(&map_json("", fields)).unwrap_err().to_string();
        assert!(e.contains(wanted), "{e}\nwanted: {wanted}");
        assert!(e.starts_with("m.json: "), "{e}");
    }
    // On a layer and an object, the place says which.
    let json = map_json("", "").replace(
        r#""data": [1]"#,
        r#""data": [1], "properties": {"n": "x"}, "propertytypes": {"n": "int"}"#,
    );
    let e = read(&json).unwrap_err().to_string();
    assert!(
        e.starts_with("m.json: layers[0] \"l\": properties: property `n` is typed int"),
        "{e}"
    );
}

#[test]
fn tileproperties_give_each_tile_its_typed_properties() {
    // As Tiled 1.1.5 wrote the tile properties of a platformer tileset.
    let map = read(&map_json(
        r#", "tileproperties": {"0": {"collides": false, "isSpike": false},
                                  "3": {"collides": true, "damage": 2, "collide": "solid"}},
           "tilepropertytypes": {"0": {"collides": "bool", "isSpike": "bool"},
                                 "3": {"collides": "bool", "damage": "int", "collide": "string"}}"#,
        "",
    ))
    .unwrap();
    let tiles = &map.tilesets[0].tileset.tiles;
    assert_eq!(tiles.keys().copied().collect::<Vec<_>>(), [0, 3]);
    assert_eq!(
        tiles[&0].properties,
        props(&[("collides", "false"), ("isSpike", "false")])
    );
    assert_eq!(
        tiles[&3].properties,
        props(&[("collides", "true"), ("damage", "2"), ("collide", "solid")])
    );
    // Without `tilepropertytypes` (Tiled before 0.16), the values' own types.
    let map = read(&map_json(
        r#", "tileproperties": {"1": {"collide": "ladder", "slow": "1"}}"#,
        "",
    ))
    .unwrap();
    assert_eq!(
        map.tilesets[0].tileset.tiles[&1].properties,
        props(&[("collide", "ladder"), ("slow", "1")])
    );
}

#[test]
fn bad_tileproperties_are_refused_with_the_tile() {
    for (fields, wanted) in [
        (
            r#", "tileproperties": {"one": {"a": 1}}"#,
            "m.json: tilesets[0]: `tileproperties` has an entry \"one\", which is not a tile id",
        ),
        (
            r#", "tileproperties": {"-1": {"a": 1}}"#,
            "`tileproperties` has an entry \"-1\", which is not a tile id",
        ),
        (
            r#", "tileproperties": [{"a": 1}]"#,
            "`tileproperties` is an array, not an object keyed by tile id",
        ),
        (
            r#", "tileproperties": {"2": "solid"}"#,
            "tileproperties[\"2\"] is a string, not an object of properties",
        ),
        (
            r#", "tileproperties": {"2": {"a": 1}}, "tilepropertytypes": "int""#,
            "`tilepropertytypes` is a string, not an object keyed by tile id",
        ),
        (
            r#", "tileproperties": {"2": {"hp": "lots"}}, "tilepropertytypes": {"2": {"hp": "int"}}"#,
            "m.json: tilesets[0]: tileproperties[\"2\"]: property `hp` is typed int but holds \"lots\"",
        ),
    ] {
        let e = read(&map_json(fields, "")).unwrap_err().to_string();
        assert!(e.contains(wanted), "{e}\nwanted: {wanted}");
    }
}

#[test]
fn tiles_keyed_by_id_keep_animations_images_and_their_object_groups_properties() {
    // Tiled 0.18/1.1's `tiles`: animation, terrain corners (editor data), a collision shape
    // whose object group carries properties (Tiled before 1.1), and an image collection.
    let map = read(&map_json(
        r#", "terrains": [{"name": "grass", "tile": 0}],
           "tiles": {"1": {"animation": [{"tileid": 1, "duration": 100}, {"tileid": 2, "duration": 250}],
                           "terrain": [0, 0, 0, -1], "probability": 0.5, "type": "water"},
                     "2": {"objectgroup": {"draworder": "index", "name": "", "type": "objectgroup",
                             "objects": [{"id": 1, "x": 0, "y": 8, "width": 16, "height": 8}],
                             "properties": {"collide": "oneway", "hp": 1}, "propertytypes": {"hp": "int"}}}},
           "tileproperties": {"2": {"collide": "solid"}}"#,
        "",
    ))
    .unwrap();
    let tiles = &map.tilesets[0].tileset.tiles;
    assert_eq!(tiles[&1].animation, [(1, 100), (2, 250)]);
    assert_eq!(tiles[&1].class, "water");
    assert!(tiles[&1].properties.is_empty());
    // The group's properties move to the tile; `tileproperties` win where both name one.
    assert_eq!(
        tiles[&2].properties,
        props(&[("collide", "solid"), ("hp", "1")])
    );
    // An image collection as Tiled 0.18 wrote it (no id 4: ids need not be contiguous).
    let json = r#"{ "version": 1, "orientation": "orthogonal", "width": 1, "height": 1,
      "tilewidth": 16, "tileheight": 16, "layers": [],
      "tilesets": [{"firstgid": 1, "name": "ui", "columns": 0, "tilewidth": 32, "tileheight": 16,
        "tilecount": 2, "margin": 0, "spacing": 0, "properties": {},
        "tiles": {"0": {"image": "gfx/a.png"}, "5": {"image": "../b.png", "imagewidth": 32, "imageheight": 16}}}]}"#;
    let files = cart(&[("maps/m.json", json)]);
    let map = read_map(&files, "maps/m.json").unwrap();
    let tiles = &map.tilesets[0].tileset.tiles;
    assert_eq!(tiles.keys().copied().collect::<Vec<_>>(), [0, 5]);
    let a = tiles[&0].image.as_ref().unwrap();
    assert_eq!((a.source.as_str(), a.width), ("maps/gfx/a.png", None));
    let b = tiles[&5].image.as_ref().unwrap();
    assert_eq!(
        (b.source.as_str(), b.width, b.height),
        ("b.png", Some(32), Some(16))
    );
}

#[test]
fn bad_tile_keys_are_refused() {
    for (fields, wanted) in [
        (
            r#", "tiles": {"x": {"image": "a.png"}}"#,
            "m.json: tilesets[0]: `tiles` has an entry \"x\", which is not a tile id",
        ),
        (
            r#", "tiles": {"-3": {}}"#,
            "`tiles` has an entry \"-3\", which is not a tile id",
        ),
        (
            r#", "tiles": {"3": []}"#,
            "m.json: tilesets[0].tiles[\"3\"]: not an object",
        ),
        (
            r#", "tiles": {"3": {"animation": [{"tileid": 1}]}}"#,
            "m.json: tilesets[0].tiles[\"3\"].animation[0]: `duration` is missing",
        ),
        (
            r#", "tiles": "none""#,
            "m.json: tilesets[0]: `tiles` is neither an array nor an object",
        ),
    ] {
        let e = read(&map_json(fields, "")).unwrap_err().to_string();
        assert!(e.contains(wanted), "{e}\nwanted: {wanted}");
    }
}

#[test]
fn an_external_tileset_and_a_template_in_the_old_form_read_too() {
    // A Tiled 1.0 `.json` tileset beside the map, and a Tiled 1.1 `.json` template.
    let map = r#"{ "version": 1, "orientation": "orthogonal", "width": 1, "height": 1,
      "tilewidth": 16, "tileheight": 16,
      "tilesets": [{"firstgid": 1, "source": "tiles.json"}],
      "layers": [{"type": "objectgroup", "name": "o", "objects": [
        {"id": 3, "template": "coin.json", "x": 4, "y": 4, "properties": {"value": "20"}, "propertytypes": {"value": "int"}}]}]}"#;
    let tileset = r#"{ "name": "tiles", "tilewidth": 16, "tileheight": 16, "image": "t.png",
      "imagewidth": 32, "imageheight": 16, "tilecount": 2, "columns": 2, "margin": 0, "spacing": 0,
      "tileproperties": {"1": {"collide": "hazard"}}, "tilepropertytypes": {"1": {"collide": "string"}},
      "tiles": {"1": {"animation": [{"tileid": 0, "duration": 50}, {"tileid": 1, "duration": 50}]}},
      "type": "tileset"}"#;
    let template = r#"{ "type": "template", "object": {"name": "coin", "type": "pickup", "width": 16, "height": 16,
      "properties": {"value": 10, "spin": true}, "propertytypes": {"value": "int", "spin": "bool"}}}"#;
    let files = cart(&[
        ("m.json", map),
        ("tiles.json", tileset),
        ("coin.json", template),
    ]);
    let map = read_map(&files, "m.json").unwrap();
    let tiles = &map.tilesets[0].tileset.tiles;
    assert_eq!(tiles[&1].properties, props(&[("collide", "hazard")]));
    assert_eq!(tiles[&1].animation, [(0, 50), (1, 50)]);
    let LayerKind::Objects(objects) = &map.layers[0].kind else {
        panic!("an object layer")
    };
    assert_eq!((objects[0].name.as_str(), objects[0].x), ("coin", 4.0));
    assert_eq!(
        objects[0].properties,
        props(&[("value", "20"), ("spin", "true")])
    );
    // A problem in the tileset file names that file.
    let bad = tileset.replace(r#"{"collide": "string"}"#, r#"{"collide": "int"}"#);
    let e = super::super::read_tileset("tiles.json", &bad).unwrap_err();
    assert_eq!(e.file, "tiles.json");
    assert!(
        e.message
            .starts_with("tileproperties[\"1\"]: property `collide` is typed int"),
        "{e}"
    );
}
