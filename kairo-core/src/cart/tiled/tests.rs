//! The Tiled readers on small maps written the ways Tiled saves them.

use std::collections::BTreeMap;

use super::*;

fn cart(files: &[(&str, &str)]) -> CartFiles {
    let map: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
    CartFiles::from_map("test", map)
}

const TSX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="ground" tilewidth="16" tileheight="16" tilecount="4" columns="2">
 <image source="../gfx/ground.png" width="32" height="32"/>
 <tile id="1" type="solid">
  <properties>
   <property name="collide" value="solid"/>
   <property name="note">line one
line two</property>
  </properties>
  <animation>
   <frame tileid="1" duration="100"/>
   <frame tileid="2" duration="250"/>
  </animation>
 </tile>
</tileset>
"#;

fn tmx(data: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">
<map version="1.10" orientation="orthogonal" width="3" height="2" tilewidth="16" tileheight="16" infinite="0">
 <properties>
  <property name="music" value="hills"/>
  <property name="spawn" type="class" propertytype="Point">
   <properties><property name="x" type="int" value="4"/></properties>
  </property>
 </properties>
 <tileset firstgid="1" source="ground.tsx"/>
 <group name="world">
  <layer id="1" name="ground" width="3" height="2">
   <properties><property name="depth" type="int" value="2"/></properties>
   {data}
  </layer>
 </group>
 <objectgroup id="2" name="things">
  <object id="7" name="start" type="spawn" x="8" y="24"><point/></object>
  <object id="8" x="1" y="2" width="3" height="4" rotation="45"><ellipse/></object>
  <object id="9" x="0" y="0"><polygon points="0,0 16,0 8,-8"/></object>
  <object id="10" gid="2147483650" x="32" y="32" width="16" height="16"/>
  <object id="11" template="things/coin.tx" x="40" y="8"/>
  <object id="12" x="1" y="1" width="50" height="10"><text wrap="1">Hello</text></object>
 </objectgroup>
</map>
"#
    )
}

const TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="coin" type="pickup" width="8" height="8">
  <properties><property name="value" type="int" value="10"/></properties>
 </object>
</template>
"#;

fn read(data: &str) -> Result<Map, CartError> {
    let text = tmx(data);
    let files = cart(&[
        ("maps/a.tmx", &text),
        ("maps/ground.tsx", TSX),
        ("maps/things/coin.tx", TEMPLATE),
    ]);
    read_map(&files, "maps/a.tmx")
}

fn gids(map: &Map) -> &[u32] {
    match &map.layers[0].kind {
        LayerKind::Tiles { gids, .. } => gids,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_tmx_map_with_doctype_groups_templates_and_every_object_kind_reads_whole() {
    let map = read(
        r#"<data encoding="csv">1,2,0,
2147483652,0,3</data>"#,
    )
    .unwrap();
    assert_eq!((map.width, map.height, map.tile_width), (3, 2, 16));
    assert_eq!(map.properties["music"], "hills");
    assert_eq!(map.properties["spawn"], "Point");
    assert_eq!(map.properties["spawn.x"], "4");
    assert_eq!(gids(&map), [1, 2, 0, FLIP_H | 4, 0, 3]);
    let layer = &map.layers[0];
    assert_eq!(
        (layer.name.as_str(), layer.properties["depth"].as_str()),
        ("ground", "2")
    );
    let ts = &map.tilesets[0].tileset;
    assert_eq!(ts.origin.file, "maps/ground.tsx");
    assert_eq!(ts.image.as_ref().unwrap().source, "gfx/ground.png");
    assert_eq!(ts.tiles[&1].class, "solid");
    assert_eq!(ts.tiles[&1].properties["note"], "line one\nline two");
    assert_eq!(ts.tiles[&1].animation, [(1, 100), (2, 250)]);
    let LayerKind::Objects(objects) = &map.layers[1].kind else {
        panic!("object layer")
    };
    let kinds: Vec<&str> = objects.iter().map(|o| o.shape.name()).collect();
    assert_eq!(
        kinds,
        ["point", "ellipse", "polygon", "tile", "rect", "text"]
    );
    assert_eq!((objects[0].id, objects[0].class.as_str()), (7, "spawn"));
    assert_eq!(objects[1].rotation, 45.0);
    assert_eq!(
        objects[2].shape,
        Shape::Polygon(vec![(0.0, 0.0), (16.0, 0.0), (8.0, -8.0)])
    );
    assert_eq!(objects[3].shape, Shape::Tile(FLIP_H | 2));
    let coin = &objects[4];
    assert_eq!(
        (coin.name.as_str(), coin.class.as_str()),
        ("coin", "pickup")
    );
    assert_eq!(
        (coin.x, coin.y, coin.width),
        (40.0, 8.0, 8.0),
        "instance position, template size"
    );
    assert_eq!(coin.properties["value"], "10");
    assert_eq!(objects[5].shape, Shape::Text("Hello".into()));
}

#[test]
fn layer_data_reads_in_every_encoding() {
    let csv = read(r#"<data encoding="csv">1,2,3,4,0,1</data>"#).unwrap();
    // The same six ids as base64, zlib-compressed base64 and XML elements.
    let xml = read(
        r#"<data><tile gid="1"/><tile gid="2"/><tile gid="3"/><tile gid="4"/><tile/><tile gid="1"/></data>"#,
    )
    .unwrap();
    let b64 = read(r#"<data encoding="base64">AQAAAAIAAAADAAAABAAAAAAAAAABAAAA</data>"#).unwrap();
    // zlib of the same bytes, made with Python's zlib.compress.
    let zlib = read(
        r#"<data encoding="base64" compression="zlib">eJxjZGBgYAJiZiBmYYAARiAGAAC8AAw=</data>"#,
    )
    .unwrap();
    assert_eq!(gids(&csv), [1, 2, 3, 4, 0, 1]);
    assert_eq!(gids(&xml), gids(&csv));
    assert_eq!(gids(&b64), gids(&csv));
    assert_eq!(gids(&zlib), gids(&csv));
}

#[test]
fn problems_are_located_in_the_file_that_holds_them() {
    let e = read(
        r#"<data encoding="csv">1,2,
3,x,0,1</data>"#,
    )
    .unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("maps/a.tmx", Some(15)));
    assert!(e.message.contains("`x`"), "{e}");
    let broken_tsx = TSX.replace(
        r#"tilewidth="16" tileheight"#,
        r#"tilewidth="big" tileheight"#,
    );
    let files = cart(&[("maps/a.tmx", &tmx("")), ("maps/ground.tsx", &broken_tsx)]);
    let e = read_map(&files, "maps/a.tmx").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("maps/ground.tsx", Some(2)));
    assert!(e.message.contains("tilewidth=\"big\""), "{e}");
    let files = cart(&[("maps/a.tmx", &tmx(""))]);
    let e = read_map(&files, "maps/a.tmx").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("maps/a.tmx", Some(10)));
    assert!(e.message.contains("missing file `maps/ground.tsx`"), "{e}");
    let escaping = TSX.replace("../gfx/ground.png", "../../../etc/x.png");
    let files = cart(&[("maps/a.tmx", &tmx("")), ("maps/ground.tsx", &escaping)]);
    let e = read_map(&files, "maps/a.tmx").unwrap_err();
    assert_eq!(e.file, "maps/ground.tsx");
    assert!(e.message.contains("outside the cart"), "{e}");
    let e = read(r#"<data encoding="base64" compression="lzma">AAAA</data>"#).unwrap_err();
    assert!(e.message.contains("lzma"), "{e}");
    let e =
        read(r#"<data encoding="csv"><chunk x="0" y="0" width="16" height="16">1</chunk></data>"#)
            .unwrap_err();
    assert!(e.message.contains("the map is not infinite"), "{e}");
}

#[test]
fn older_tilesets_without_tilecount_read() {
    let old = TSX.replace(r#" tilecount="4" columns="2""#, "");
    let files = cart(&[
        ("maps/a.tmx", &tmx("")),
        ("maps/ground.tsx", &old),
        ("maps/things/coin.tx", TEMPLATE),
    ]);
    let map = read_map(&files, "maps/a.tmx").unwrap();
    let ts = &map.tilesets[0].tileset;
    assert_eq!((ts.tile_count, ts.columns), (None, None));
    assert_eq!(gids(&map), [0; 6], "a layer without data is empty");
}

#[test]
fn template_tile_objects_are_renumbered_through_the_maps_tileset() {
    let tile_template = r#"<template>
 <tileset firstgid="5" source="../ground.tsx"/>
 <object name="coin" gid="1073741830" width="16" height="16"/>
</template>"#;
    let files = cart(&[
        ("maps/a.tmx", &tmx("")),
        ("maps/ground.tsx", TSX),
        ("maps/things/coin.tx", tile_template),
    ]);
    let map = read_map(&files, "maps/a.tmx").unwrap();
    let LayerKind::Objects(objects) = &map.layers[1].kind else {
        panic!()
    };
    // Tile 1 of the tileset (template gid 6, first id 5) is map gid 2, flip kept.
    assert_eq!(objects[4].shape, Shape::Tile(FLIP_V | 2));
    // A template whose tileset the map does not list brings it along, as in Tiled: it
    // joins the map's tilesets after the last id of theirs (ground.tsx: ids 1-4).
    let elsewhere = tile_template.replace("../ground.tsx", "other.tsx");
    let files = cart(&[
        ("maps/a.tmx", &tmx("")),
        ("maps/ground.tsx", TSX),
        ("maps/things/coin.tx", &elsewhere),
        ("maps/things/other.tsx", TSX),
    ]);
    let map = read_map(&files, "maps/a.tmx").unwrap();
    let LayerKind::Objects(objects) = &map.layers[1].kind else {
        panic!()
    };
    assert_eq!(objects[4].shape, Shape::Tile(FLIP_V | 6));
    assert_eq!(map.tilesets.len(), 2);
    assert_eq!(
        (map.tilesets[1].first_gid, map.tilesets[1].source.as_deref()),
        (5, Some("maps/things/other.tsx"))
    );
    // A missing one is named where the template asks for it.
    let files = cart(&[
        ("maps/a.tmx", &tmx("")),
        ("maps/ground.tsx", TSX),
        ("maps/things/coin.tx", &elsewhere),
    ]);
    let e = read_map(&files, "maps/a.tmx").unwrap_err();
    assert_eq!(e.file, "maps/things/coin.tx");
    assert!(
        e.message.contains("missing file `maps/things/other.tsx`"),
        "{e}"
    );
}

#[test]
fn templates_cannot_nest() {
    let nested = TEMPLATE.replace(r#"<object name"#, r#"<object template="coin.tx" name"#);
    let files = cart(&[
        ("maps/a.tmx", &tmx("")),
        ("maps/ground.tsx", TSX),
        ("maps/things/coin.tx", &nested),
    ]);
    let e = read_map(&files, "maps/a.tmx").unwrap_err();
    assert_eq!(e.file, "maps/things/coin.tx");
    assert!(e.message.contains("cannot use a template"), "{e}");
}

const TMJ: &str = r#"{ "type": "map", "version": "1.10", "orientation": "orthogonal",
  "width": 2, "height": 2, "tilewidth": 8, "tileheight": 8, "infinite": false,
  "properties": [{"name": "dark", "type": "bool", "value": true}],
  "tilesets": [{"firstgid": 1, "source": "t.tsj"}],
  "layers": [
    {"type": "group", "name": "g", "layers": [
      {"type": "tilelayer", "id": 1, "name": "bg", "width": 2, "height": 2, "data": [1, 0, 2, 1073741825],
       "properties": [{"name": "speed", "type": "float", "value": 0.5}]}
    ]},
    {"type": "tilelayer", "id": 2, "name": "fg", "width": 2, "height": 2,
     "encoding": "base64", "data": "AQAAAAIAAAADAAAABAAAAA=="},
    {"type": "objectgroup", "id": 3, "name": "obj", "objects": [
      {"id": 1, "name": "door", "type": "exit", "x": 1.5, "y": 2, "width": 8, "height": 16, "rotation": 0, "visible": true},
      {"id": 2, "name": "", "class": "path", "x": 0, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 8, "y": 4}]},
      {"id": 3, "point": true, "x": 3, "y": 4}
    ]}
  ]
}"#;

const TSJ: &str = r##"{ "type": "tileset", "name": "t", "tilewidth": 8, "tileheight": 8,
  "tilecount": 4, "columns": 2, "image": "t.png", "imagewidth": 16, "imageheight": 16,
  "transparentcolor": "#ff00ff", "margin": 0, "spacing": 0,
  "tiles": [{"id": 0, "type": "grass", "animation": [{"tileid": 0, "duration": 500}, {"tileid": 3, "duration": 500}],
             "properties": [{"name": "collide", "type": "string", "value": "solid"}]}]
}"##;

#[test]
fn a_tmj_map_with_a_tsj_tileset_reads_like_its_tmx_twin() {
    let files = cart(&[("m.tmj", TMJ), ("t.tsj", TSJ)]);
    let map = read_map(&files, "m.tmj").unwrap();
    assert_eq!(map.properties["dark"], "true");
    assert_eq!(map.layers.len(), 3);
    assert_eq!(map.layers[0].name, "bg");
    assert_eq!(map.layers[0].properties["speed"], "0.5");
    assert_eq!(gids(&map), [1, 0, 2, FLIP_V | 1]);
    let LayerKind::Tiles { gids: fg, .. } = &map.layers[1].kind else {
        panic!()
    };
    assert_eq!(fg, &[1, 2, 3, 4]);
    let ts = &map.tilesets[0].tileset;
    let image = ts.image.as_ref().unwrap();
    assert_eq!(
        (image.source.as_str(), image.trans),
        ("t.png", Some(0xFF00FF))
    );
    assert_eq!(ts.tiles[&0].animation, [(0, 500), (3, 500)]);
    assert_eq!(ts.tiles[&0].properties["collide"], "solid");
    let LayerKind::Objects(objects) = &map.layers[2].kind else {
        panic!()
    };
    assert_eq!((objects[0].class.as_str(), objects[0].x), ("exit", 1.5));
    assert_eq!(objects[1].class, "path");
    assert_eq!(
        objects[1].shape,
        Shape::Polyline(vec![(0.0, 0.0), (8.0, 4.0)])
    );
    assert_eq!(objects[2].shape, Shape::Point);
}

#[test]
fn json_problems_name_the_value() {
    let files = cart(&[
        (
            "m.tmj",
            &TMJ.replace("[1, 0, 2, 1073741825]", "[1, -3, 2, 0]"),
        ),
        ("t.tsj", TSJ),
    ]);
    let e = read_map(&files, "m.tmj").unwrap_err();
    assert_eq!(
        e.to_string(),
        "m.tmj: layers[0].layers[0] \"bg\": data[1] is -3, not a tile id"
    );
    let files = cart(&[("m.tmj", "{ \"width\": 1,\n \"height\": }")]);
    let e = read_map(&files, "m.tmj").unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.starts_with("malformed JSON"), "{e}");
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let files = cart(&[("m.tmj", &format!("{{\"layers\": {deep}}}"))]);
    assert!(read_map(&files, "m.tmj").is_err());
    let files = cart(&[("m.tmj", TMJ)]);
    let e = read_map(&files, "m.tmj").unwrap_err();
    assert!(e.message.contains("missing file `t.tsj`"), "{e}");
}

#[test]
fn deep_and_huge_xml_is_refused_without_recursing() {
    let deep = format!(
        "<map>{}{}</map>",
        "<group>".repeat(100_000),
        "</group>".repeat(100_000)
    );
    let files = cart(&[("d.tmx", &deep)]);
    let e = read_map(&files, "d.tmx").unwrap_err();
    assert!(e.message.contains("nest deeper"), "{e}");
}
