//! Real JSON maps saved by Tiled before 1.2 (`tests/tiled/real/tiled-*/`, each with its
//! licence): what the reader makes of them, value by value against what the files say, and
//! carts that use them (`kairo check`, Lua's view of their properties and objects). Their
//! pictures are compared with Tiled's in `tiled_reference.rs`.

mod common;

use std::collections::BTreeMap;

use common::{kairo, root, temp_dir};
use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::cart::tiled::{
    FLIP_D, FLIP_H, FLIP_V, LayerKind, Map, Object, Properties, Shape, read_map,
};
use kairo::console::Console;
use kairo::input::InputFrame;
use serde_json::Value;

/// The cart files of a folder of `tests/tiled/real`, by cart path.
fn folder_files(folder: &str) -> BTreeMap<String, Vec<u8>> {
    let base = root().join("tests/tiled/real").join(folder);
    let mut files = BTreeMap::new();
    let mut dirs = vec![base.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let name = path.strip_prefix(&base).unwrap().to_string_lossy();
                files.insert(name.replace('\\', "/"), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

fn read(folder: &str, map: &str) -> Map {
    let files = CartFiles::from_map(folder, folder_files(folder));
    read_map(&files, map).unwrap_or_else(|e| panic!("{folder}/{map}: {e}"))
}

/// The file's own JSON, to compare with.
fn json(folder: &str, file: &str) -> Value {
    let path = root().join("tests/tiled/real").join(folder).join(file);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn props(pairs: &[(&str, &str)]) -> Properties {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn tile_gids(map: &Map, layer: &str) -> Vec<u32> {
    let layer = map.layers.iter().find(|l| l.name == layer).unwrap();
    match &layer.kind {
        LayerKind::Tiles { gids, .. } => gids.clone(),
        _ => panic!("{} is not a tile layer", layer.name),
    }
}

fn objects(map: &Map) -> Vec<(String, Object)> {
    map.layers
        .iter()
        .flat_map(|l| match &l.kind {
            LayerKind::Objects(objects) => objects
                .iter()
                .map(|o| (l.name.clone(), o.clone()))
                .collect(),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn tiled_1_1_tileproperties_and_tiles_keyed_by_id_read_as_the_file_says() {
    let map = read("tiled-1.1-platformer", "tilemaps/platformer.json");
    assert_eq!(
        (map.width, map.height, map.tile_width, map.tile_height),
        (40, 20, 32, 32)
    );
    let names: Vec<&str> = map.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["Background", "Ground", "Foreground", "Objects"]);
    let ts = &map.tilesets[0];
    assert_eq!(ts.first_gid, 1);
    let tileset = &ts.tileset;
    assert_eq!(tileset.name, "0x72-industrial-tileset-32px-extruded");
    assert_eq!(
        (
            tileset.tile_count,
            tileset.columns,
            tileset.margin,
            tileset.spacing
        ),
        (Some(1024), Some(32), 1, 2)
    );
    let image = tileset.image.as_ref().unwrap();
    assert_eq!(
        image.source,
        "tilesets/0x72-industrial-tileset-32px-extruded.png"
    );
    assert_eq!((image.width, image.height), (Some(1088), Some(1088)));

    // Every tile's `tileproperties`, typed bool by `tilepropertytypes`, as Tiled saves bools.
    let file = json("tiled-1.1-platformer", "tilemaps/platformer.json");
    let written = file["tilesets"][0]["tileproperties"].as_object().unwrap();
    let types = file["tilesets"][0]["tilepropertytypes"]
        .as_object()
        .unwrap();
    assert_eq!(written.len(), 1024);
    assert_eq!(tileset.tiles.len(), 1024);
    for (id, values) in written {
        let tile = &tileset.tiles[&id.parse::<u32>().unwrap()];
        for (name, value) in values.as_object().unwrap() {
            assert_eq!(types[id][name], "bool");
            assert_eq!(tile.properties[name], value.as_bool().unwrap().to_string());
        }
        assert_eq!(tile.properties.len(), 2, "tile {id}");
    }
    let colliding = tileset
        .tiles
        .values()
        .filter(|t| t.properties["collides"] == "true")
        .count();
    assert_eq!(colliding, 63);
    // The spike: the only `isSpike`, and the tile of `tiles` {"76": {"objectgroup": ...}}.
    assert_eq!(
        tileset.tiles[&76].properties,
        props(&[("collides", "true"), ("isSpike", "true")])
    );
    assert_eq!(
        tileset.tiles[&20].properties,
        props(&[("collides", "true"), ("isSpike", "false")])
    );
    assert_eq!(
        tileset.tiles[&0].properties,
        props(&[("collides", "false"), ("isSpike", "false")])
    );

    // Tile ids and flips as the layers hold them: the spike (gid 77) placed in four ways.
    let ground = tile_gids(&map, "Ground");
    assert_eq!(ground.len(), 800);
    assert_eq!(ground[2], 21);
    assert_eq!(ground[14], FLIP_V | FLIP_D | 77);
    assert_eq!(ground[8 * 40 + 22], FLIP_H | 77);
    assert_eq!(ground[16 * 40 + 21], FLIP_D | 77);
    assert_eq!(ground[16 * 40 + 4], 77);
    let written: Vec<u32> = file["layers"][1]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(ground, written);
    assert_eq!(tile_gids(&map, "Foreground")[10], 0);

    let objects = objects(&map);
    assert_eq!(objects.len(), 1);
    let (layer, spawn) = &objects[0];
    assert_eq!(
        (layer.as_str(), spawn.id, spawn.name.as_str()),
        ("Objects", 1, "Spawn Point")
    );
    assert_eq!(
        (spawn.shape.clone(), spawn.x, spawn.y),
        (Shape::Point, 160.0, 192.0)
    );
}

#[test]
fn tiled_1_0_typed_object_properties_and_an_external_json_tileset_read_as_the_files_say() {
    let map = read("tiled-1.0-excalibur", "test-v1.json");
    assert_eq!((map.width, map.height, map.tile_width), (10, 10, 32));
    let tileset = &map.tilesets[0].tileset;
    assert_eq!(tileset.image.as_ref().unwrap().trans, Some(0xFF_FF_FF));
    assert_eq!(
        tile_gids(&map, "Board")[..12],
        [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(tile_gids(&map, "Static")[14..18], [7, 7, 7, 7]);
    let objects = objects(&map);
    let by_name = |name: &str| {
        objects
            .iter()
            .find(|(_, o)| o.name == name)
            .unwrap_or_else(|| panic!("{name}"))
            .1
            .clone()
    };
    assert_eq!(objects.len(), 8);
    let john = by_name("John");
    assert_eq!((john.id, john.class.as_str()), (1, "Enemy"));
    assert_eq!(john.properties, props(&[("Aggressive", "false")]));
    let cory = by_name("Cory");
    assert_eq!(
        cory.properties,
        props(&[("Aggressive", "true"), ("Path", "Path1")])
    );
    assert!(by_name("Elana").properties.is_empty());
    assert_eq!(by_name("Fanny").shape, Shape::Ellipse);
    assert!(matches!(by_name("Herp").shape, Shape::Polygon(ref p) if p.len() == 5));
    assert!(matches!(by_name("Path1").shape, Shape::Polyline(ref p) if p[1] == (104.0, 0.0)));

    let external = read("tiled-1.0-excalibur", "test-v1-external.json");
    let ts = &external.tilesets[0];
    assert_eq!(ts.source.as_deref(), Some("tilemap.json"));
    assert_eq!(
        (
            ts.tileset.tile_count,
            ts.tileset.columns,
            ts.tileset.tile_width
        ),
        (Some(8), Some(4), 32)
    );
    assert_eq!(tile_gids(&external, "Board")[..3], [7, 7, 7]);
    assert_eq!(tile_gids(&external, "Static")[0], 3);
}

#[test]
fn tiled_1_0_image_layer_properties_and_old_tile_animations_read_as_the_files_say() {
    let map = read("tiled-1.0-melonjs", "map/map2.json");
    assert_eq!((map.width, map.height, map.tile_width), (55, 30, 35));
    let background = map.layers.iter().find(|l| l.name == "background").unwrap();
    assert_eq!(background.kind, LayerKind::Image);
    assert_eq!(
        background.properties,
        props(&[
            ("anchorPoint", r#"json:{"x":0,"y":1}"#),
            ("ratio", "0.25"),
            ("repeat", "repeat-x"),
        ])
    );
    let objects = objects(&map);
    let level = objects
        .iter()
        .find(|(_, o)| o.name == "me.LevelEntity")
        .unwrap();
    assert_eq!(
        level.1.properties,
        props(&[("duration", "150"), ("fade", "#fff"), ("to", "map1")])
    );
    let platform = objects
        .iter()
        .find(|(l, o)| l == "collision" && matches!(o.shape, Shape::Polyline(_)))
        .unwrap();
    assert_eq!(platform.1.properties, props(&[("platform", "true")]));

    // The external tileset of 2016: `tiles` keyed by id, holding animations.
    let ts = &map.tilesets[0];
    assert_eq!(ts.source.as_deref(), Some("map/tileset.json"));
    let tileset = &ts.tileset;
    assert_eq!(
        (
            tileset.tile_count,
            tileset.margin,
            tileset.spacing,
            tileset.tile_width
        ),
        (Some(252), 5, 10, 70)
    );
    assert_eq!(
        tileset.tiles.keys().copied().collect::<Vec<_>>(),
        [195, 216]
    );
    assert_eq!(tileset.tiles[&195].animation, [(195, 100), (196, 100)]);
    assert_eq!(tileset.tiles[&216].animation, [(216, 200), (217, 200)]);
}

#[test]
fn tiled_0_18_image_collection_keyed_by_id_reads_as_the_file_says() {
    let map = read("tiled-0.18", "title.json");
    let tileset = &map.tilesets[0].tileset;
    assert_eq!(tileset.image, None);
    let ids: Vec<u32> = tileset.tiles.keys().copied().collect();
    assert_eq!(ids, [0, 1, 2, 3, 5, 6, 7]);
    let images: Vec<&str> = tileset
        .tiles
        .values()
        .map(|t| t.image.as_ref().unwrap().source.as_str())
        .collect();
    assert_eq!(
        images,
        [
            "buttonHelp.png",
            "buttonStart.png",
            "helpBackground.png",
            "title.png",
            "backgroundSet.png",
            "block.png",
            "cloud.png"
        ]
    );
    let objects = objects(&map);
    assert_eq!(objects.len(), 14);
    let logo = objects.iter().find(|(_, o)| o.name == "logo").unwrap();
    assert_eq!(
        (logo.0.as_str(), logo.1.shape.clone(), logo.1.x),
        ("title", Shape::Tile(4), 256.0)
    );
}

/// A cart folder in a temporary directory: `folder`'s files, `map` as map `m`, and `main`.
fn cart_folder(name: &str, folder: &str, map: &str, main: &str) -> common::TempDir {
    let dir = temp_dir(name);
    for (path, bytes) in folder_files(folder) {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let manifest = format!("name = 'legacy'\n[[map]]\nfile = '{map}'\nname = 'm'\n");
    std::fs::write(dir.path().join("cart.toml"), manifest).unwrap();
    std::fs::write(dir.path().join("main.lua"), main).unwrap();
    dir
}

const PLATFORMER_MAIN: &str = r#"
function init()
  map_load("m", "Ground", 0)
  log("collides", map_prop("m", "Ground", 2, 0, "collides"), map_prop("m", "Ground", 0, 0, "collides"))
  log("spike", map_prop("m", "Ground", 22, 8, "isSpike"), map_prop("m", "Ground", 2, 0, "isSpike"))
  for _, o in ipairs(map_objects("m")) do log("object", o.name, o.kind, o.x, o.y) end
end
"#;

#[test]
fn a_cart_using_a_tiled_1_1_json_map_checks_and_sees_its_typed_tile_properties() {
    let dir = cart_folder(
        "legacy-platformer",
        "tiled-1.1-platformer",
        "tilemaps/platformer.json",
        PLATFORMER_MAIN,
    );
    let (code, out, err) = kairo(&["check", "."], dir.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.trim_end().ends_with(": ok"), "{out}");
    assert!(
        out.contains("only the 54 of its 1024 tiles the maps use were loaded"),
        "{out}"
    );

    let files = CartFiles::open(dir.path()).unwrap();
    let mut console = Console::new(Cart::from_files(files).unwrap()).unwrap();
    console.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(
        console.take_log(),
        [
            "collides true false",
            "spike true false",
            "object Spawn Point point 160 192",
        ]
    );
}

#[test]
fn carts_using_tiled_1_0_and_0_18_json_maps_check() {
    for (name, folder, map) in [
        ("legacy-excalibur", "tiled-1.0-excalibur", "test-v1.json"),
        (
            "legacy-excalibur-external",
            "tiled-1.0-excalibur",
            "test-v1-external.json",
        ),
        ("legacy-title", "tiled-0.18", "title.json"),
    ] {
        let main = "function init() for _, o in ipairs(map_objects('m')) do \
                    if o.props.Path then log(o.name, o.props.Aggressive, o.props.Path) end end end";
        let dir = cart_folder(name, folder, map, main);
        let (code, out, err) = kairo(&["check", "."], dir.path());
        assert_eq!(code, 0, "{folder}/{map}: {out}{err}");
        assert!(out.trim_end().ends_with(": ok"), "{out}");
        if folder == "tiled-1.0-excalibur" {
            let files = CartFiles::open(dir.path()).unwrap();
            let mut console = Console::new(Cart::from_files(files).unwrap()).unwrap();
            console.run_frame(InputFrame::NONE).unwrap();
            assert_eq!(console.take_log(), ["Cory true Path1"]);
        }
    }
}

#[test]
fn the_real_files_are_kept_with_their_licences() {
    for folder in [
        "tiled-1.1-platformer",
        "tiled-1.0-excalibur",
        "tiled-1.0-melonjs",
        "tiled-0.18",
    ] {
        let dir = root().join("tests/tiled/real").join(folder);
        assert!(dir.join("SOURCE.md").is_file(), "{folder}");
        let licence = ["LICENSE", "README.md"]
            .iter()
            .any(|f| dir.join(f).is_file());
        assert!(licence, "{folder} has no licence file");
    }
}
