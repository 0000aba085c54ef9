//! Every API function charges what the API table declares, and nothing hostile gets past it.
//!
//! Each function is called straight from Rust (no Lua instructions between the readings of
//! the meter) on a fresh machine: once with ordinary arguments, where the cycles charged per
//! unit must equal the call's base cost plus the declared costs times what the call did; and
//! with hostile arguments (nothing, nils, huge and non-finite numbers, wrong types, tables
//! whose metamethods raise), where it must return (an error or not) without a panic, an error
//! must cost the base call only, and no metamethod may run (except `log`, which documents
//! that it calls `__tostring`).
//!
//! One test per function and check (`charges::NAME`, `hostile_arguments::NAME`,
//! `declared_arguments::NAME`; this file runs its own harness, `libtest-mimic`), so a
//! failure names its function and the others still run: `cargo test --test api_costs --
//! sprite` runs one function's.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::cart::manifest::Plane;
use kairo::collide::hitbox::{Hitbox, Hitboxes};
use kairo::collide::map::CollisionMap;
use kairo::collide::mover::{Body, MoveOptions};
use kairo::collide::platform::{Platforms, move_among};
use kairo::fixed::fx;
use kairo::machine::Machine;
use kairo::meter::Unit;
use kairo::script::api::all_functions;
use kairo::script::context::CallContext;
use kairo::script::heap::Heap;
use kairo::script::sandbox;
use kairo::spec::cost;
use kairo::video::Video;
use mlua::{Function, Lua, MultiValue};

const TMX: &str = r#"<map orientation="orthogonal" width="4" height="2" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="2" columns="2">
  <image source="t.png" width="32" height="16"/>
  <tile id="0"><animation><frame tileid="0" duration="100"/><frame tileid="1" duration="100"/></animation></tile>
 </tileset>
 <layer name="ground" width="4" height="2"><data encoding="csv">1,2,1,2,0,0,2,2</data></layer>
 <objectgroup name="things"><object id="1" name="start" x="8" y="8"/></objectgroup>
</map>"#;

const PATTERN: &str = r#"<bulletml><action label="top"><fire><bullet/></fire></action></bulletml>"#;

fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 32, 16);
    encoder.set_color(png::ColorType::Grayscale);
    let data: Vec<u8> = (0..32 * 16)
        .map(|i| if i % 32 < 16 { 60 } else { 200 })
        .collect();
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

/// The functions whose case runs on a cart with a canvas (they need one).
const CANVAS_CASES: &[&str] = &["pget"];

fn cart(plane: &str) -> Arc<Cart> {
    let mut files = BTreeMap::new();
    let manifest = format!("name = 'costs'\nplane = '{plane}'\n")
        + "[[map]]\nfile = 'm.tmx'\n[[music]]\nname = 'm'\nmml = 'c d e'\n[[sfx]]\nname = 's'\nmml = 'c'\n\
                    [[sheet]]\nfile = 'h.aseprite'\ntile = 1024\npalette = 4\n";
    // 14 frames; tags idle 0-1, walk-down 2-5, walk-up 6-9, walk-right 10-13.
    let hero = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/aseprite/bevy_aseprite_ultra/player.aseprite"),
    )
    .expect("a real Aseprite file");
    for (path, bytes) in [
        ("cart.toml", manifest.into_bytes()),
        ("main.lua", Vec::new()),
        ("m.tmx", TMX.as_bytes().to_vec()),
        ("t.png", png()),
        ("p.xml", PATTERN.as_bytes().to_vec()),
        ("h.aseprite", hero),
    ] {
        files.insert(path.to_string(), bytes);
    }
    Arc::new(Cart::from_files(CartFiles::from_map("costs", files)).expect("the test cart"))
}

/// A Lua state with the API, a fresh machine and call context lent to it.
fn state(cart: &Arc<Cart>) -> Heap {
    let heap = sandbox::build(cart.clone()).expect("sandbox");
    let video = match cart.manifest.plane {
        Plane::Canvas => Video::default().with_canvas(),
        Plane::Frame => Video::default(),
    };
    heap.slots()
        .lend(Box::new(Machine::new(video, 1)), CallContext::default());
    heap
}

fn function(lua: &Lua, name: &str) -> Function {
    match name.split_once('.') {
        Some((table, field)) => lua
            .globals()
            .get::<mlua::Table>(table)
            .unwrap()
            .get(field)
            .unwrap(),
        None => lua.globals().get(name).unwrap(),
    }
}

/// Runs `setup` (Lua), clears the meter, calls `name` with the values of the Lua expression
/// list `args`; returns the call's result and the cycles it charged.
fn call(
    cart: &Arc<Cart>,
    setup: &str,
    name: &str,
    args: &str,
) -> (Result<(), String>, kairo::meter::UnitCycles) {
    let heap = state(cart);
    let lua = heap.lua();
    lua.load(setup)
        .exec()
        .unwrap_or_else(|e| panic!("{name} setup: {e}"));
    let args: MultiValue = lua
        .load(format!("return {args}"))
        .eval()
        .unwrap_or_else(|e| panic!("{name} args: {e}"));
    let f = function(lua, name);
    // The setup's instructions still counted and not charged are not the call's.
    heap.take_work();
    heap.slots().context().unwrap().meter.take();
    // Only text leaves: Lua values must not outlive the state.
    let result = f.call::<()>(args).map_err(|e| e.to_string());
    let charged = heap.slots().context().unwrap().meter.take();
    (result, charged)
}

/// (function, setup, arguments, cycles beyond the base call cost by unit)
type Case = (&'static str, &'static str, &'static str, Vec<(Unit, u64)>);

/// The cycles `move_body` should charge for a body of 8x8 at (40, 40) falling 3 px in an
/// empty 10x10 layer: computed by the collision unit itself.
fn move_body_cycles() -> u64 {
    let map = CollisionMap::new(10, 10);
    let mut body = Body {
        x: fx(40),
        y: fx(40),
        w: 8,
        h: 8,
        vx: 0,
        vy: fx(3),
    };
    let options = MoveOptions {
        mode: kairo::collide::mover::Mode::Air,
        margin: fx(4),
        ..MoveOptions::default()
    };
    let moved = move_among(&map, &Platforms::default(), &mut body, &options, None);
    cost::MOVE_BODY
        + u64::from(moved.moved.probes) * cost::TILE_PROBE
        + u64::from(moved.moved.steps - 1) * cost::MOVE_STEP
        + u64::from(moved.tests) * cost::PLATFORM_TEST
}

/// The three boxes the hitbox cases register, and what the unit tests for them.
const BOXES: &str =
    "hb_add(1, 0, 3, 0, 0, 8, 8) hb_add(2, 1, 3, 4, 4, 8, 8) hb_add(3, 1, 3, 40, 0, 8, 8)";

fn hitbox_tests() -> (u64, u64) {
    let mut boxes = Hitboxes::default();
    for (id, group, x, y) in [(1, 0, 0, 0), (2, 1, 4, 4), (3, 1, 40, 0)] {
        boxes
            .add(Hitbox {
                id,
                group,
                mask: 3,
                x,
                y,
                w: 8,
                h: 8,
            })
            .unwrap();
    }
    let (_, queried) = boxes.query(0, 0, 10, 10, u32::MAX);
    (boxes.pairs().tests, queried)
}

/// The 8-pixel runs the drawing plane covers for one shape, computed by the plane itself.
fn plane_runs(draw: impl FnOnce(&mut kairo::video::plane::DrawingPlane) -> u64) -> u64 {
    draw(&mut kairo::video::plane::DrawingPlane::default()) * cost::DRAW_SPAN
}

fn cases() -> Vec<Case> {
    use Unit::*;
    let spawn = |n: u64| vec![(Bullets, n * cost::BULLET_SPAWN)];
    let (pair_tests, query_tests) = hitbox_tests();
    vec![
        ("sfx", "", "'s'", vec![]),
        ("music", "", "'m'", vec![]),
        ("stop", "", "", vec![]),
        ("playing", "", "", vec![]),
        ("bu_type", "", "1, 5", vec![]),
        ("bu_fire", "bu_type(0, 1)", "10, 10, 0, 1, 0", spawn(1)),
        ("bu_aim", "bu_type(0, 1)", "10, 10, 1, 0", spawn(1)),
        (
            "bu_nway",
            "bu_type(0, 1)",
            "10, 10, 0, 5, 10, 1, 0",
            spawn(5),
        ),
        ("bu_ring", "bu_type(0, 1)", "10, 10, 8, 1, 0", spawn(8)),
        ("bu_spiral", "bu_type(0, 1)", "10, 10, 3, 1, 0, 2", spawn(3)),
        ("bu_burst", "bu_type(0, 1)", "10, 10, 10, 1, 0, 3", spawn(4)),
        ("bu_player", "", "100, 100", vec![]),
        ("bu_shot", "bu_type(0, 1)", "10, 10, 0, 4, 0", vec![]),
        ("bu_target", "", "1, 0, 0, 8, 8", vec![]),
        ("bu_events", "", "", vec![]),
        ("bu_cancel", "", "", vec![]),
        ("bu_count", "", "", vec![]),
        ("bu_clear", "", "", vec![]),
        ("bu_layer", "", "1", vec![]),
        ("bu_pattern", "bu_type(0, 1)", "'p', 10, 10", vec![]),
        (
            "bu_source",
            "bu_type(0, 1) bu_pattern('p', 10, 10)",
            "1",
            vec![],
        ),
        (
            "bu_source_stop",
            "bu_type(0, 1) bu_pattern('p', 10, 10)",
            "1",
            vec![],
        ),
        ("bu_rank", "", "0.5", vec![]),
        ("bu_atan", "", "1, 1", vec![]),
        ("bu_sin", "", "0", vec![]),
        ("col_size", "", "10, 10", vec![]),
        (
            "col_load",
            "",
            "'m', 'ground'",
            vec![(Collision, 8 * cost::TILE_PROBE)],
        ),
        (
            "col_set",
            "",
            "1, 1, 'solid'",
            vec![(Collision, cost::TILE_PROBE)],
        ),
        ("col_get", "", "1, 1", vec![(Collision, cost::TILE_PROBE)]),
        ("col_edges", "", "true, true", vec![]),
        ("col_margin", "", "4", vec![]),
        (
            "col_platform",
            "",
            "1, 0, 0, 16, 4",
            vec![(Collision, cost::PLATFORM)],
        ),
        (
            "move_body",
            "col_size(10, 10)",
            "{x = 40, y = 40, w = 8, h = 8, vx = 0, vy = 3}, 'air'",
            vec![(Collision, move_body_cycles())],
        ),
        (
            "hb_add",
            "",
            "1, 0, 1, 0, 0, 8, 8",
            vec![(Collision, cost::HITBOX)],
        ),
        (
            "hb_pairs",
            BOXES,
            "",
            vec![(Collision, pair_tests * cost::HITBOX_TEST)],
        ),
        (
            "hb_query",
            BOXES,
            "0, 0, 10, 10",
            vec![(
                Collision,
                cost::HITBOX_QUERY + query_tests * cost::HITBOX_TEST,
            )],
        ),
        (
            "rect_hit",
            "",
            "0, 0, 8, 8, 4, 4, 8, 8",
            vec![(Collision, cost::HITBOX_TEST)],
        ),
        (
            "point_in",
            "",
            "1, 1, 0, 0, 8, 8",
            vec![(Collision, cost::HITBOX_TEST)],
        ),
        ("btn", "", "0", vec![]),
        ("btnp", "", "0", vec![]),
        ("btnp_repeat", "", "0", vec![]),
        ("btnword", "", "", vec![]),
        (
            "map_load",
            "",
            "'m', 'ground', 0",
            vec![(Video, 8 * cost::CELL_WRITE + 2 * cost::ANIM_FRAME)],
        ),
        ("map_size", "", "'m'", vec![]),
        ("map_objects", "", "'m'", vec![(Script, cost::MAP_OBJECT)]),
        ("map_prop", "", "'m', 'ground', 0, 0, 'x'", vec![]),
        ("map_props", "", "'m'", vec![(Script, cost::MAP_OBJECT)]),
        ("map_tile", "", "'m', 1", vec![]),
        (
            "sheet_tags",
            "",
            "'h.aseprite'",
            vec![(Script, 4 * cost::MAP_OBJECT)],
        ),
        (
            "sheet_frames",
            "",
            "'h.aseprite'",
            vec![(Script, 14 * cost::MAP_OBJECT)],
        ),
        (
            "sheet_anim",
            "",
            "'h.aseprite', 'walk-right', 5",
            vec![(Script, 4 * cost::ANIM_FRAME)],
        ),
        ("prof_begin", "", "'x'", vec![]),
        ("prof_end", "prof_begin('x')", "", vec![]),
        (
            "log",
            "",
            "'hello', 12",
            vec![(Script, cost::LOG_LINE + cost::LOG_BYTES)],
        ),
        ("frame", "", "", vec![]),
        ("time", "", "", vec![]),
        ("sd_get", "", "3", vec![(System, cost::SAVE_SLOT)]),
        ("sd_set", "", "3, 7", vec![(System, cost::SAVE_SLOT)]),
        ("sd_clear", "", "", vec![(System, cost::SAVE_SLOT)]),
        // { 'abc', 5 } encodes in 13 bytes: two lots of 8.
        (
            "sd_write",
            "",
            "{ 'abc', 5 }",
            vec![(System, 2 * cost::SAVE_BYTES)],
        ),
        (
            "sd_read",
            "sd_write({ 'abc', 5 })",
            "",
            vec![(System, 2 * cost::SAVE_BYTES)],
        ),
        ("cycles", "", "", vec![]),
        ("budget", "", "", vec![]),
        ("rnd", "", "", vec![]),
        ("rndi", "", "1, 6", vec![]),
        ("srand", "", "7", vec![]),
        ("math.random", "", "1, 6", vec![]),
        ("math.randomseed", "", "7", vec![]),
        ("pal", "", "1, 1, 0xFF0000", vec![]),
        ("backdrop", "", "0x102030", vec![]),
        ("tset", "", "1, 0, 0, 3", vec![(Video, cost::PIXEL_WRITE)]),
        ("tget", "", "1, 0, 0", vec![]),
        ("layer_on", "", "0", vec![]),
        (
            "layer_size",
            "",
            "0, 10, 10",
            vec![(Video, 100 * cost::CELL_WRITE)],
        ),
        ("layer_prio", "", "0, 1", vec![]),
        ("scroll", "", "0, 5, 5", vec![]),
        ("cell", "", "0, 1, 1, 3", vec![(Video, cost::CELL_WRITE)]),
        ("cellget", "", "0, 1, 1", vec![]),
        (
            "fill",
            "",
            "0, 3",
            vec![(Video, 32 * 32 * cost::CELL_WRITE)],
        ),
        (
            "tanim",
            "",
            "1, {2, 5, 3, 5}",
            vec![(Video, 2 * cost::ANIM_FRAME)],
        ),
        ("tanim_clear", "", "", vec![]),
        ("tpal", "", "1", vec![]),
        ("linescroll", "", "0, 10, 2", vec![]),
        ("linescroll_clear", "", "0", vec![]),
        ("spr", "", "0, 10, 10, 1", vec![]),
        ("spr_hide", "", "0", vec![]),
        ("spr_clear", "", "", vec![]),
        (
            "print",
            "",
            "'hi\\nyo', 0, 0",
            vec![(Video, 4 * cost::GLYPH)],
        ),
        (
            "rectfill",
            "",
            "0, 0, 15, 7, 1",
            vec![(Video, 16 * cost::DRAW_SPAN)],
        ),
        (
            "rect",
            "",
            "0, 0, 15, 7, 1",
            // Top and bottom rows: 2 runs each; six rows of two single pixels.
            vec![(Video, 16 * cost::DRAW_SPAN)],
        ),
        (
            "line",
            "",
            "0, 0, 15, 0, 1",
            vec![(Video, 2 * cost::DRAW_SPAN)],
        ),
        ("pset", "", "1, 1, 1", vec![(Video, cost::DRAW_SPAN)]),
        ("cls", "rectfill(0, 0, 9, 9, 1)", "", vec![]),
        ("cls", "", "3", vec![]),
        (
            "print",
            "",
            "'hi', 0, 0, 7, 'small'",
            vec![(Video, 2 * cost::GLYPH)],
        ),
        (
            "text_width",
            "",
            "'hello\\nyo', 'small'",
            vec![(Script, cost::SCAN_BYTES)],
        ),
        (
            "circfill",
            "",
            // Rows of 17, 17, 17, 17, 17 px (3 runs), 15, 15, 13, 11, 9 px twice (2 runs)
            // and 5 px twice (1 run).
            "100, 100, 8, 1",
            vec![(Video, 37 * cost::DRAW_SPAN)],
        ),
        (
            "circ",
            "",
            "100, 100, 8, 1",
            vec![(Video, plane_runs(|p| p.circle((100, 100), 8, false, 1)))],
        ),
        (
            "ovalfill",
            "",
            "0, 0, 15, 7, 1",
            vec![(Video, plane_runs(|p| p.oval((0, 0), (15, 7), true, 1)))],
        ),
        (
            "oval",
            "",
            "0, 0, 15, 7, 1",
            vec![(Video, plane_runs(|p| p.oval((0, 0), (15, 7), false, 1)))],
        ),
        (
            "trifill",
            "",
            // Rows of 16 down to 9 px (2 runs), then 8 down to 1 px (1 run).
            "0, 0, 15, 0, 0, 15, 1",
            vec![(Video, 24 * cost::DRAW_SPAN)],
        ),
        (
            "tri",
            "",
            // Three edges of 16 px.
            "0, 0, 15, 0, 0, 15, 1",
            vec![(Video, 6 * cost::DRAW_SPAN)],
        ),
        ("fillp", "", "0x5a5a, 3", vec![]),
        ("camera", "", "10, -4", vec![]),
        ("clip", "", "10, 10, 20, 20", vec![]),
        ("draw_prio", "", "1", vec![]),
        ("sprite", "", "1, 10, 10, 2, 3", vec![]),
        (
            "blit",
            "",
            // 16 x 8 px: two runs of 8 on each of 8 rows.
            "8, 0, 16, 8, 10, 10",
            vec![(Video, cost::BLIT + 16 * cost::DRAW_SPAN)],
        ),
        ("draw_pal", "", "7, 9", vec![]),
        ("draw_transparent", "", "3, true", vec![]),
        ("pget", "", "1, 1", vec![(Video, cost::PGET)]),
    ]
}

/// Every API function has a case of ordinary arguments below.
fn every_api_function_has_a_case() {
    let cases = cases();
    for api in all_functions() {
        assert!(
            cases.iter().any(|(name, ..)| *name == api.name),
            "{} has no case: add one to tests/api_costs.rs",
            api.name
        );
    }
}

/// `name` called with its case's arguments charges exactly its declared cost.
fn charges_exactly_its_declared_cost(cart: &Arc<Cart>, case: &Case) {
    let (name, setup, args, extra) = case;
    let api = all_functions()
        .find(|f| f.name == *name)
        .unwrap_or_else(|| panic!("{name} is not an API function"));
    let (result, charged) = call(cart, setup, name, args);
    result.unwrap_or_else(|e| panic!("{name}({args}): {e}"));
    let mut expected = kairo::meter::UnitCycles::default();
    expected.add(Unit::Script, cost::API_CALL);
    for &(unit, cycles) in extra {
        expected.add(unit, cycles);
        assert!(
            api.cost.iter().any(|c| c.at_call() && c.unit == unit),
            "{name} charges {unit:?} but declares no cost there"
        );
    }
    assert_eq!(charged, expected, "{name}({args})");
}

/// Arguments no function should take without a clean error or a clean result.
const HOSTILE: &[&str] = &[
    "",
    "nil, nil, nil, nil, nil, nil, nil, nil",
    "1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308",
    "-1e308, -1e308, -1e308, -1e308, -1e308, -1e308, -1e308, -1e308",
    "0/0, 0/0, 0/0, 0/0, 0/0, 0/0, 0/0, 0/0",
    "math.huge, -math.huge, math.huge, -math.huge, math.huge, math.huge, math.huge, math.huge",
    "math.maxinteger, math.mininteger, math.maxinteger, math.mininteger, math.maxinteger, math.maxinteger, math.maxinteger, math.maxinteger",
    "-1, -1, -1, -1, -1, -1, -1, -1",
    "'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'",
    "print, print, print, print, print, print, print, print",
    "coroutine.create(print), 1, 1, 1, 1, 1, 1, 1",
    "TRAP, TRAP, TRAP, TRAP, TRAP, TRAP, TRAP, TRAP",
    "'m', TRAP, TRAP, TRAP, TRAP, TRAP, TRAP, TRAP",
    "1, 1, TRAP, 1, 1, TRAP, TRAP, TRAP",
    "1, 1, 1, 1, 0, TRAP, TRAP, TRAP",
    "1, 1, {1, 2, TRAP}, 1, 0, TRAP, TRAP, TRAP",
];

/// A table every metamethod of which raises: an API function that reads it without raw
/// access is caught by the message.
const TRAP: &str = r#"
local function trap() error("metamethod ran", 0) end
local mt = {}
for _, name in ipairs({"__index", "__newindex", "__len", "__tostring", "__eq", "__lt", "__le",
    "__concat", "__call", "__unm", "__add", "__name", "__pairs", "__close"}) do
  mt[name] = trap
end
TRAP = setmetatable({}, mt)
"#;

/// `name` given hostile arguments returns a clean error (or a clean result), charged as one
/// failed call, running no metamethod.
fn hostile_arguments_get_clean_errors_charged_as_one_failed_call(cart: &Arc<Cart>, name: &str) {
    // Functions documented to call metamethods of what they are given.
    let calls_metamethods = ["log"];
    for args in HOSTILE {
        let (result, charged) = call(cart, TRAP, name, args);
        let message = match &result {
            Ok(_) => continue,
            Err(e) => e.clone(),
        };
        if !calls_metamethods.contains(&name) {
            assert!(
                !message.contains("metamethod ran"),
                "{name}({args}) ran a metamethod: {message}"
            );
        }
        if message.contains("metamethod ran") {
            continue;
        }
        // A refused call costs the call and the error, nothing of the work refused.
        let mut one_call = kairo::meter::UnitCycles::default();
        one_call.add(Unit::Script, cost::API_CALL + cost::API_ERROR);
        assert_eq!(
            charged, one_call,
            "{name}({args}) failed ({message}) but charged other than the call and its error"
        );
    }
}

/// Runs `setup`, calls `name` with the Lua expression list `args`; returns what it returned
/// (as text) or its error, and the machine afterwards (serialized).
fn call_state(
    cart: &Arc<Cart>,
    setup: &str,
    name: &str,
    args: &str,
) -> (Result<String, String>, Vec<u8>) {
    let heap = state(cart);
    let lua = heap.lua();
    lua.load(setup).exec().unwrap();
    let args: MultiValue = lua.load(format!("return {args}")).eval().unwrap();
    let result = function(lua, name)
        .call::<MultiValue>(args)
        .map(|values| {
            let shown: Vec<String> = values
                .iter()
                .map(|v| match v {
                    mlua::Value::Table(_) => "table".to_string(),
                    other => format!("{other:?}"),
                })
                .collect();
            shown.join(", ")
        })
        .map_err(|e| e.to_string());
    let machine = heap.slots().machine().unwrap();
    (result, postcard::to_stdvec(&**machine).unwrap())
}

/// The arguments `args` (a Lua expression list) with argument `n` (1-based) replaced by the
/// Lua expression `value`.
fn replaced(args: &str, n: usize, value: &str) -> String {
    format!(
        "(function() local t = table.pack({args}) t[{n}] = {value} \
         return table.unpack(t, 1, math.max(t.n, {n})) end)()"
    )
}

/// A Lua literal of `x` that reads back exactly.
fn lua_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.1}")
    } else {
        format!("{x:e}")
    }
}

/// Each declared argument of `case`'s function is read as its declaration says: out-of-range
/// and wrong-typed values are refused in the declared words, a left-out argument is its
/// default.
fn every_declared_argument_is_read_as_its_declaration_says(cart: &Arc<Cart>, case: &Case) {
    use kairo::script::args::{Default, Kind, or_list};
    let cart = cart.clone();
    {
        let (name, setup, args, _) = (case.0, case.1, case.2, ());
        let api = all_functions().find(|f| f.name == name).unwrap();
        let good = call_state(&cart, setup, name, args);
        assert!(good.0.is_ok(), "{name}({args}): {:?}", good.0);
        for (i, arg) in api.args.iter().enumerate() {
            let n = i + 1;
            let what = format!("argument {n} ({})", arg.name);
            // (value, what the error must say)
            let mut hostile: Vec<(String, String)> = Vec::new();
            match arg.kind {
                Kind::Int(lo, hi) => {
                    for v in [lo.checked_sub(1), hi.checked_add(1)].into_iter().flatten() {
                        hostile.push((v.to_string(), format!("{what} is {v}, must be {lo}..{hi}")));
                    }
                }
                Kind::Choice(values) => {
                    let v = values.iter().max().unwrap() + 1;
                    let must = or_list(values);
                    hostile.push((v.to_string(), format!("{what} is {v}, must be {must}")));
                }
                Kind::Num(lo, hi) => {
                    if lo > f64::MIN {
                        let v = lo - 1.0;
                        hostile.push((lua_number(v), format!("{what} is {v}, must be")));
                    }
                    if hi < f64::MAX {
                        let v = hi + 1.0;
                        hostile.push((lua_number(v), format!("{what} is {v}, must be")));
                    }
                }
                Kind::Str => {
                    hostile.push(("{}".into(), format!("{what} must be a string, got table")));
                }
                _ => {}
            }
            if matches!(
                arg.kind,
                Kind::Int(..) | Kind::Choice(_) | Kind::Num(..) | Kind::Coord | Kind::Integer
            ) {
                hostile.push((
                    "0/0".into(),
                    format!("{what} must be a finite number, got nan"),
                ));
                hostile.push(("{}".into(), format!("{what} must be a number, got table")));
            }
            if !arg.is_optional() && !matches!(arg.kind, Kind::Any(_) | Kind::Value(_)) {
                hostile.push(("nil".into(), String::new()));
            }
            for (value, says) in hostile {
                let call = replaced(args, n, &value);
                let (result, _) = call_state(&cart, setup, name, &call);
                let error = result.expect_err(&format!("{name} with {what} = {value} passed"));
                assert!(
                    error.contains(&says),
                    "{name} with {what} = {value}: {error}"
                );
            }
            // Leaving an argument out is the same as passing its declared default.
            let default = match arg.default {
                Default::Int(d) => Some(d.to_string()),
                Default::Num(d) => Some(lua_number(d)),
                Default::Bool(b) => Some(b.to_string()),
                _ => None,
            };
            if let Some(default) = default {
                let left_out = call_state(&cart, setup, name, &replaced(args, n, "nil"));
                let given = call_state(&cart, setup, name, &replaced(args, n, &default));
                assert_eq!(left_out.0, given.0, "{name}: {what} left out vs {default}");
                assert!(
                    left_out.1 == given.1,
                    "{name}: {what} left out does not leave the machine as {default} does"
                );
            }
        }
    }
}

fn main() {
    use libtest_mimic::{Arguments, Trial};
    let arguments = Arguments::from_args();
    let (cart, canvas_cart) = (cart("frame"), cart("canvas"));
    let cart_for = |name: &str| match CANVAS_CASES.contains(&name) {
        true => canvas_cart.clone(),
        false => cart.clone(),
    };
    let mut trials = vec![Trial::test("every_api_function_has_a_case", || {
        every_api_function_has_a_case();
        Ok(())
    })];
    for case in cases() {
        let (c, same) = (cart_for(case.0), case.clone());
        trials.push(Trial::test(format!("charges::{}", case.0), move || {
            charges_exactly_its_declared_cost(&c, &same);
            Ok(())
        }));
        let (c, same) = (cart_for(case.0), case.clone());
        trials.push(Trial::test(
            format!("declared_arguments::{}", case.0),
            move || {
                every_declared_argument_is_read_as_its_declaration_says(&c, &same);
                Ok(())
            },
        ));
    }
    for api in all_functions() {
        let (c, name) = (cart_for(api.name), api.name);
        trials.push(Trial::test(
            format!("hostile_arguments::{name}"),
            move || {
                hostile_arguments_get_clean_errors_charged_as_one_failed_call(&c, name);
                Ok(())
            },
        ));
    }
    libtest_mimic::run(&arguments, trials).exit();
}
