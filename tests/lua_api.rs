//! The Lua API and sandbox as carts see them.

mod common;

use common::{cart_with, console};
use kairo::commands::headless;
use kairo::console::Console;
use kairo::input::{Button, InputFrame};

fn logs_of(console: &mut Console, inputs: &[InputFrame]) -> Vec<String> {
    let mut lines = Vec::new();
    for &input in inputs {
        console.run_frame(input).expect("frame runs");
        lines.extend(console.take_log());
    }
    lines
}

#[test]
fn the_sandbox_has_no_way_out() {
    let mut c = console(
        "function update() log(io, os, debug, package, load, loadfile, dofile, string.dump, \
         type(require), type(pcall), type(math.floor)) end",
    );
    let lines = logs_of(&mut c, &[InputFrame::NONE]);
    assert_eq!(
        lines,
        ["nil nil nil nil nil nil nil nil function function function"]
    );
}

#[test]
fn collectgarbage_is_limited_to_harmless_options() {
    let mut c = console("function update() collectgarbage('stop') end");
    let err = c.run_frame(InputFrame::NONE).unwrap_err();
    assert!(
        err.to_string()
            .contains("main.lua:1: collectgarbage: option 'stop' is not available"),
        "{err}"
    );
    let mut c = console("function update() log(type(collectgarbage('count'))) end");
    assert_eq!(logs_of(&mut c, &[InputFrame::NONE]), ["number"]);
}

#[test]
fn require_loads_cart_modules_once_and_reports_missing_and_cyclic_ones() {
    let cart = cart_with(&[
        ("main.lua", b"local util = require('lib.util')\nlocal again = require('lib.util')\nfunction update() log(util.twice(21), util == again, require('pkg').name) end"),
        ("lib/util.lua", b"log('util loaded') return { twice = function(x) return x * 2 end }"),
        ("pkg/init.lua", b"return { name = 'pkg' }"),
    ]);
    let mut c = Console::new(cart).unwrap();
    assert_eq!(c.take_log(), ["util loaded"]);
    assert_eq!(logs_of(&mut c, &[InputFrame::NONE]), ["42 true pkg"]);

    let cart = cart_with(&[("main.lua", b"require('nothere')")]);
    let err = Console::new(cart).unwrap_err().to_string();
    assert!(err.contains("the cart has no module 'nothere'"), "{err}");

    let cart = cart_with(&[
        ("main.lua", b"require('a')"),
        ("a.lua", b"require('b')"),
        ("b.lua", b"require('a')"),
    ]);
    let err = Console::new(cart).unwrap_err().to_string();
    assert!(err.contains("require: cycle a -> b -> a"), "{err}");
}

#[test]
fn btn_and_btnp_read_the_latched_input_by_number_or_name() {
    let mut c = console(
        "function update() log(btn(4), btn('a'), btnp('a'), btn('left', 1), btnword()) end",
    );
    let a = InputFrame::player1(Button::A.bit());
    let mut p2_left = a;
    p2_left.0[1] = Button::Left.bit();
    let lines = logs_of(&mut c, &[InputFrame::NONE, a, a, p2_left]);
    assert_eq!(
        lines,
        [
            "false false false false 0",
            "true true true false 16",
            "true true false false 16",
            "true true false true 16"
        ]
    );
}

/// The frames (0 = the first of the hold) on which `btnp('a')` is true while A is held for
/// 40 frames, after `setup` ran in `init`.
fn btnp_frames_over_a_hold(setup: &str) -> Vec<usize> {
    let mut c = console(&format!(
        "function init() {setup} end\nfunction update() log(btnp('a'), btnp(4, 0), btnp('b')) end"
    ));
    let a = InputFrame::player1(Button::A.bit());
    let lines = logs_of(&mut c, &[a; 40]);
    lines
        .iter()
        .enumerate()
        .filter_map(|(f, line)| match line.as_str() {
            "true true false" => Some(f),
            "false false false" => None,
            other => panic!("frame {f}: {other}"),
        })
        .collect()
}

#[test]
fn btnp_repeats_while_held_unless_the_cart_turns_it_off() {
    assert_eq!(btnp_frames_over_a_hold(""), [0, 15, 19, 23, 27, 31, 35, 39]);
    assert_eq!(btnp_frames_over_a_hold("btnp_repeat(0)"), [0]);
    assert_eq!(btnp_frames_over_a_hold("btnp_repeat(30, 0)"), [0]);
    assert_eq!(
        btnp_frames_over_a_hold("btnp_repeat(5, 10)"),
        [0, 5, 15, 25, 35]
    );
    assert_eq!(
        btnp_frames_over_a_hold("btnp_repeat(20)"),
        [0, 20, 24, 28, 32, 36]
    );
    let mut c = console("function update() btnp_repeat(256) end");
    let err = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(
        err.starts_with("main.lua:1: btnp_repeat: argument 1 (delay) is 256, must be 0..255"),
        "{err}"
    );
}

#[test]
fn btnp_repeat_is_machine_state_that_a_reset_restores() {
    let mut c =
        console("function update() if frame() == 0 then btnp_repeat(2, 1) end log(btnp('a')) end");
    let a = InputFrame::player1(Button::A.bit());
    assert_eq!(logs_of(&mut c, &[a; 4]), ["true", "false", "true", "true"]);
    assert_eq!(
        c.machine().input().repeat(),
        kairo::input::Repeat {
            delay: 2,
            period: 1
        }
    );
    c.reset().unwrap();
    assert_eq!(c.machine().input().repeat(), kairo::input::Repeat::DEFAULT);
}

#[test]
fn time_is_machine_frames_over_60() {
    let mut c = console(
        "log(time())\nfunction init() log(time()) end\nfunction update() log(frame(), time()) end",
    );
    assert_eq!(c.take_log(), ["0", "0"]);
    let lines = logs_of(&mut c, &[InputFrame::NONE; 91]);
    assert_eq!(lines[0], "0 0");
    assert_eq!(lines[1], format!("1 {}", 1.0 / 60.0));
    assert_eq!(lines[30], "30 0.5");
    assert_eq!(lines[90], "90 1.5");
    // A frame that slows down counts once: time follows frames, not vblanks.
    let mut c = console(
        "function update() if frame() == 0 then for i = 1, 150000 do end end log(frame(), time()) end",
    );
    let mut lines = Vec::new();
    for _ in 0..12 {
        c.tick(InputFrame::NONE).unwrap();
        lines.extend(c.take_log());
    }
    assert!(
        c.machine().vblanks() > c.machine().frame(),
        "the first frame slowed down"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some(format!(
            "{} {}",
            c.machine().frame() - 1,
            (c.machine().frame() - 1) as f64 / 60.0
        ))
        .as_deref()
    );
}

#[test]
fn bad_arguments_are_errors_at_the_calling_line() {
    for (call, expected) in [
        (
            "spr(300, 0, 0, 0)",
            "main.lua:2: spr: argument 1 (i) is 300, must be 0..255",
        ),
        (
            "spr(0, 0, 0, 0, 3)",
            "main.lua:2: spr: argument 5 (size) is 3, must be 1, 2, 4 or 8",
        ),
        ("btn('jump')", "main.lua:2: btn: no button named \"jump\""),
        (
            "cell(0, 99, 0, 1)",
            "main.lua:2: cell: cell (99, 0) is outside the layer's 32x32 cells",
        ),
        (
            "print({}, 0, 0)",
            "main.lua:2: print: argument 1 (text) must be a string, got table",
        ),
        (
            "map_load('nope', 'x', 0)",
            "main.lua:2: map_load: the cart has no map named \"nope\"",
        ),
        (
            "layer_size(0, 0, 10)",
            "main.lua:2: layer_size: argument 2 (cols) is 0, must be 1..256",
        ),
    ] {
        let mut c = console(&format!("function update()\n  {call}\nend"));
        let err = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
        assert!(err.starts_with(expected), "{call}: {err}");
        assert!(
            err.contains("in function 'update'"),
            "{call}: traceback missing in {err}"
        );
    }
}

#[test]
fn video_calls_change_the_picture() {
    let mut c = console(
        "function init()\n\
           for y = 0, 7 do for x = 0, 7 do tset(1, x, y, 3) end end\n\
           pal(2, 3, 0x112233)\n\
           backdrop(0x445566)\n\
           cell(0, 1, 0, 1, 2)\n\
           layer_on(0)\n\
           spr(0, 100, 100, 1, 1, 2)\n\
         end\n\
         function draw() pset(200, 200, 35) end",
    );
    c.run_frame(InputFrame::NONE).unwrap();
    let fb = c.framebuffer();
    assert_eq!(fb.get(8, 0), 0x23);
    assert_eq!(fb.get(0, 0), 0);
    assert_eq!(fb.get(100, 100), 0x23);
    assert_eq!(fb.get(200, 200), 35);
    let rgba = c.rgba();
    assert_eq!(&rgba[..3], &[0x44, 0x55, 0x66]);
    assert_eq!(&rgba[8 * 4..8 * 4 + 3], &[0x11, 0x22, 0x33]);
}

#[test]
fn the_overlay_lasts_one_frame_and_sprites_persist() {
    let mut c = console(
        "function init() tset(1, 0, 0, 1) spr(0, 0, 0, 1) end\n\
         function draw() if frame() == 0 then print('X', 50, 50) end end",
    );
    c.run_frame(InputFrame::NONE).unwrap();
    let lit = |c: &Console| (50..58).any(|x| (50..58).any(|y| c.framebuffer().get(x, y) != 0));
    assert!(lit(&c));
    c.run_frame(InputFrame::NONE).unwrap();
    assert!(!lit(&c), "overlay text is gone the next frame");
    assert_eq!(c.framebuffer().get(0, 0), 1, "sprite stays");
}

#[test]
fn maps_load_into_layers_with_objects_and_tile_properties() {
    let mut c =
        Console::new(kairo::cart::Cart::open(&common::bundled("platformer")).unwrap()).unwrap();
    c.take_log();
    let cart = c.cart();
    let map = &cart.maps["stage1"];
    assert_eq!((map.cols, map.rows, map.cell_size), (64, 16, 16));
    // The terrain's ground row carries `collide = solid`.
    let terrain = map.layer("terrain").unwrap();
    let ground = terrain.props[14 * 64];
    assert_eq!(
        map.tile_props[usize::from(ground)]
            .get("collide")
            .map(String::as_str),
        Some("solid")
    );
    let layer = &c.machine().video().layers()[0];
    assert_eq!(
        (layer.cols(), layer.rows(), layer.cell_size()),
        (64, 16, 16)
    );
    assert_eq!(layer.cell(0, 14).unwrap(), terrain.cells[14 * 64]);

    let cart = kairo::cart::Cart::open(&common::bundled("platformer")).unwrap();
    let mut files = cart.scripts.clone();
    files.insert(
        "main.lua".into(),
        "function update() local o = map_objects('stage1') log(#o > 0, map_prop('stage1', 'terrain', 0, 14, 'collide'), map_size('stage1')) end".into(),
    );
    let mut cart = cart;
    cart.scripts = files;
    let mut c = kairo::session::Session::new(Console::new(cart).unwrap());
    let mut lines = Vec::new();
    headless::run(&mut c, 1, None, &mut |l| lines.push(l.to_string()));
    assert_eq!(lines, ["true solid 64 16 16"]);
}

#[test]
fn music_keeps_its_tempo_while_the_game_slows_down() {
    let cart = common::cart_with(&[
        ("main.lua", b"function init() music('m') end\nfunction update() if frame() % 2 == 1 then for i = 1, 150000 do end end end"),
        ("m.mml", b"A t120 l4 L c d e f"),
        ("cart.toml", b"name = \"t\"\n[[music]]\nname = \"m\"\nfile = \"m.mml\"\n"),
    ]);
    let mut c = Console::new(cart).unwrap();
    let mut frames = 0;
    for _ in 0..60 {
        if matches!(
            c.tick(InputFrame::NONE).unwrap(),
            kairo::console::Tick::Frame(_)
        ) {
            frames += 1;
        }
    }
    assert!(
        frames < 45,
        "the game slowed down: {frames} frames in 60 vblanks"
    );
    assert_eq!(
        c.take_audio().len(),
        60 * 1600,
        "one vblank of sound every vblank"
    );
    assert_eq!(c.machine().audio().music_playing(), Some("m"));
}

#[test]
fn sound_calls_from_lua() {
    let cart = common::cart_with(&[
        ("main.lua", b"function update()\n if frame() == 0 then log(sfx('blip'), sfx(0, 2), playing(), playing(2)) music('song') log(playing()) stop() log(playing()) end\n end"),
        ("cart.toml", b"name = \"t\"\n[[music]]\nname = \"song\"\nmml = \"t120 c d | e f\"\n[[sfx]]\nname = \"blip\"\nmml = \"o6 c16\"\n"),
    ]);
    let mut c = Console::new(cart).unwrap();
    c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["7 2 nil blip", "song", "nil"]);
    let cart = common::cart_with(&[("main.lua", b"function update() sfx('nope') end")]);
    let err = Console::new(cart)
        .unwrap()
        .run_frame(InputFrame::NONE)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sfx: the cart has no sound effect \"nope\""),
        "{err}"
    );
}
