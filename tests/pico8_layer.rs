//! The PICO-8 layer (`[pico8]` in cart.toml): PICO-8's names over its memory and 128 x 128
//! screen, shown at 2x in PICO-8's colours; `_update` at 30 fps, `_update60` at 60; Kairo's
//! API in the `kairo` table; a real cart's sprite sheet and map, as the importer writes them,
//! drawn with `map` exactly as its data says.

mod common;

use common::{cart_with, root};
use kairo::console::Console;
use kairo::import::pico8::{folder, p8};
use kairo::input::{Button, InputFrame};

fn pico8_console(source: &str, extra: &[(&str, &[u8])], manifest_extra: &str) -> Console {
    let manifest = format!("name = \"p8\"\nplane = \"canvas\"\n[pico8]\n{manifest_extra}");
    let mut files: Vec<(&str, &[u8])> = vec![
        ("cart.toml", manifest.as_bytes()),
        ("main.lua", source.as_bytes()),
    ];
    files.extend_from_slice(extra);
    Console::new(cart_with(&files)).expect("the PICO-8 cart boots")
}

fn frames(console: &mut Console, n: usize, input: InputFrame) -> Vec<String> {
    let mut log = Vec::new();
    for _ in 0..n {
        console.run_frame(input).expect("the frame runs");
        log.extend(console.take_log());
    }
    log
}

/// The RGB the window shows at screen pixel (x, y) of the 256 x 256 picture.
fn rgb(console: &Console, x: usize, y: usize) -> u32 {
    let rgba = console.rgba();
    let at = (y * 256 + x) * 4;
    u32::from(rgba[at]) << 16 | u32::from(rgba[at + 1]) << 8 | u32::from(rgba[at + 2])
}

#[test]
fn the_screen_shows_at_2x_in_pico8_colours() {
    let mut console = pico8_console(
        r#"
function _draw()
  cls(1)
  pset(0, 0, 8)
  rectfill(10, 10, 11, 11, 12)
  pal(3, 128 + 11, 1)      -- colour 3 shown as extra colour 139
  pset(127, 127, 3)
end"#,
        &[],
        "",
    );
    frames(&mut console, 1, InputFrame::NONE);
    assert_eq!(rgb(&console, 0, 0), 0xFF004D, "red 8");
    assert_eq!(rgb(&console, 1, 1), 0xFF004D, "at 2x");
    assert_eq!(rgb(&console, 2, 0), 0x1D2B53, "dark blue 1");
    assert_eq!(rgb(&console, 20, 20), 0x29ADFF);
    assert_eq!(rgb(&console, 23, 23), 0x29ADFF);
    assert_eq!(rgb(&console, 24, 24), 0x1D2B53);
    assert_eq!(rgb(&console, 255, 255), 0x00B543, "extra colour 139");
}

#[test]
fn update_runs_at_30_fps_and_update60_at_60() {
    let mut thirty = pico8_console(
        "n = 0\nfunction _update() n = n + 1 end\nfunction _draw() kairo.log(n) end",
        &[],
        "",
    );
    assert_eq!(
        frames(&mut thirty, 6, InputFrame::NONE),
        ["1", "2", "3"],
        "update and draw on every other machine frame"
    );
    let mut sixty = pico8_console(
        "n = 0\nfunction _update60() n = n + 1 end\nfunction _draw() kairo.log(n) end",
        &[],
        "",
    );
    assert_eq!(frames(&mut sixty, 3, InputFrame::NONE), ["1", "2", "3"]);
}

#[test]
fn buttons_are_pico8s_and_btnp_counts_pico8_frames() {
    let mut console = pico8_console(
        r#"
function _update()
  kairo.log(tostring(btn(4)) .. " " .. tostring(btnp(4)) .. " " .. btn())
end"#,
        &[],
        "",
    );
    let a = InputFrame([Button::A.bit(), 0, 0, 0]);
    let log = frames(&mut console, 4, a);
    // A press held across two PICO-8 frames (four machine frames): pressed once.
    assert_eq!(log, ["true true 16", "true false 16"]);
}

#[test]
fn kairos_api_is_in_the_kairo_table() {
    let mut console = pico8_console(
        r#"
function _draw()
  kairo.log(type(kairo.bu_fire) .. " " .. type(log) .. " " .. type(spr))
end"#,
        &[],
        "",
    );
    assert_eq!(
        frames(&mut console, 1, InputFrame::NONE),
        ["function nil function"]
    );
}

#[test]
fn what_the_layer_lacks_is_an_error_naming_it() {
    for name in kairo_core::pico8::MISSING {
        let mut console = pico8_console(&format!("function _draw() {name}(1, 1) end"), &[], "");
        let error = console.run_frame(InputFrame::NONE).unwrap_err();
        let expected = format!("{name} is not in Kairo's PICO-8 layer yet");
        assert!(error.to_string().contains(&expected), "{error}");
    }
}

/// The screen pixel (x, y) of the PICO-8 screen as the window shows it (at 2x).
fn shown(console: &Console, x: usize, y: usize) -> u32 {
    rgb(console, x * 2, y * 2)
}

#[test]
fn flip_shows_the_screen_and_waits_for_the_next_pico8_frame() {
    // A cart with its own main loop, as test_gol: the main chunk never returns.
    let mut console = pico8_console(
        r#"
n = 0
while true do
  n = n + 1
  cls(0)
  pset(n, 0, 8)
  kairo.log(n)
  flip()
end"#,
        &[],
        "",
    );
    // The first flip comes at power-on; then one a PICO-8 frame, every other machine frame.
    let log = frames(&mut console, 6, InputFrame::NONE);
    assert_eq!(log, ["1", "2", "3", "4"]);
    assert_eq!(shown(&console, 4, 0), 0xFF004D, "the loop's 4th picture");
    assert_eq!(shown(&console, 3, 0), 0x000000);
    // The loop's work is charged to the frame that resumed it.
    let report = console.run_frame(InputFrame::NONE).unwrap();
    assert!(report.total() > 1000, "{report:?}");
}

#[test]
fn flip_inside_update_and_draw_waits_a_frame_and_goes_on() {
    let mut console = pico8_console(
        r#"
function _init() cls(1) flip() kairo.log("init after flip") end
function _update60() kairo.log("update") flip() kairo.log("update after flip") end
function _draw() kairo.log("draw") end"#,
        &[],
        "",
    );
    let log = frames(&mut console, 3, InputFrame::NONE);
    assert_eq!(
        log,
        [
            "init after flip",
            "update",
            "update after flip",
            "draw",
            "update"
        ]
    );
}

#[test]
fn flip_loops_come_back_exactly_from_a_snapshot() {
    let mut console = pico8_console(
        "n = 0\nwhile true do n = n + 1 kairo.log(n) flip() end",
        &[],
        "",
    );
    frames(&mut console, 5, InputFrame::NONE);
    let snapshot = console.snapshot();
    let first = frames(&mut console, 6, InputFrame::NONE);
    console.restore(&snapshot).expect("restores");
    let again = frames(&mut console, 6, InputFrame::NONE);
    assert_eq!(first, ["5", "6", "7"]);
    assert_eq!(
        again, first,
        "the suspended loop resumes where the snapshot held it"
    );
}

#[test]
fn flip_loops_come_back_exactly_from_a_state_file() {
    // A state file holds the run's input, not the Lua heap: loading it plays the run again,
    // which rebuilds the suspended loop.
    let source = r#"
n = 0
while true do
  if btn(4) then n = n + 10 else n = n + 1 end
  cls(0) pset(n % 128, 5, 8)
  flip()
end
function _draw() end"#;
    let manifest = "name = \"p8\"\nplane = \"canvas\"\n[pico8]\n";
    let cart = cart_with(&[
        ("cart.toml", manifest.as_bytes()),
        ("main.lua", source.as_bytes()),
    ]);
    let input = |n: usize| {
        if n % 7 < 3 {
            InputFrame([Button::A.bit(), 0, 0, 0])
        } else {
            InputFrame::NONE
        }
    };
    let mut straight = Console::new(cart.clone()).unwrap();
    let mut history = kairo::movie::Movie {
        cart: cart.name().into(),
        ..kairo::movie::Movie::default()
    };
    for n in 0..40 {
        history.ticks.push(input(n));
        straight.tick(input(n)).unwrap();
    }
    let bytes = kairo::savestate::save(&straight, &history);
    let mut restored = kairo::session::Session::from_state(cart.clone(), &bytes, "state")
        .unwrap()
        .into_console();
    for n in 40..80 {
        straight.tick(input(n)).unwrap();
        restored.tick(input(n)).unwrap();
    }
    assert_eq!(restored.rgba(), straight.rgba());
    assert_eq!(restored.script_digest(), straight.script_digest());
}

#[test]
fn flip_from_a_carts_own_coroutine_and_stray_yields_are_errors() {
    let mut console = pico8_console(
        "function _update() coroutine.wrap(function() flip() end)() end",
        &[],
        "",
    );
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(error.contains("flip: called inside a coroutine"), "{error}");
    let mut console = pico8_console("function _update() coroutine.yield(1) end", &[], "");
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(
        error.contains("attempt to yield from outside a coroutine"),
        "{error}"
    );
}

#[test]
fn errors_in_the_frame_driver_keep_the_carts_traceback() {
    let mut console = pico8_console(
        "function boom() error(\"boom\") end\nfunction _update() boom() end",
        &[],
        "",
    );
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(error.starts_with("main.lua:1: boom\n"), "{error}");
    assert!(
        error.contains("main.lua:2: in function '_update'"),
        "{error}"
    );
    assert!(
        !error.contains("pico8"),
        "the driver's own frames are left out: {error}"
    );
}

#[test]
fn stat_answers_from_the_machine() {
    let mut console = pico8_console(
        r#"
function _update()
  for i = 1, 200 do local x = i * 2 end
  kairo.log(stat(0) > 0, stat(1) > 0 and stat(1) < 1, stat(5), stat(7), stat(8), stat(4) == "")
  kairo.log(stat(16), stat(20), stat(46), stat(54), stat(55), stat(57))
  kairo.log(stat(30), stat(31) == "", stat(32), stat(34))
  kairo.log(stat(80), stat(81), stat(82), stat(85), stat(90))
end"#,
        &[],
        "",
    );
    let log = frames(&mut console, 1, InputFrame::NONE);
    assert_eq!(
        log,
        [
            "true true 42 30 30 true",
            "-1 -1 -1 -1 0 false",
            "false true 0 0",
            "2000 1 1 0 2000"
        ]
    );
    let mut console = pico8_console("function _update() stat(999) end", &[], "");
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(error.contains("stat(999) is not in"), "{error}");
}

#[test]
fn cstore_changes_what_reload_reads_and_refuses_files() {
    let mut console = pico8_console(
        r#"
function _update()
  poke(0x4300, 7, 9)
  poke(0x4301, 9)
  cstore(0x10, 0x4300, 2)
  poke(0x10, 0) poke(0x11, 0)
  reload(0x10, 0x10, 2)
  kairo.log(peek(0x10), peek(0x11))
end"#,
        &[],
        "",
    );
    assert_eq!(frames(&mut console, 1, InputFrame::NONE), ["7 9"]);
    let mut console = pico8_console("function _update() cstore(0, 0, 1, \"x.p8\") end", &[], "");
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(error.contains("never writes files"), "{error}");
    let mut console = pico8_console("function _update() cstore(0x4200, 0, 0x200) end", &[], "");
    let error = console.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(error.contains("is past it"), "{error}");
}

#[test]
fn ovals_move_with_the_camera_and_wrapped_addresses_reach_the_screen() {
    let mut console = pico8_console(
        r#"
function _draw()
  cls(0)
  camera(-10, -20)
  ovalfill(0, 0, 4, 4, 8)
  oval(10, 0, 14, 4, 12)
  camera()
  -- 6^13 is 0x6000 in PICO-8's 16.16 numbers: boulder copies the screen to the sheet so.
  memcpy(0, 6^13, 64 * 128)
  kairo.log(sget(12, 22), sget(10, 20), sget(20, 20), sget(21, 20))
end"#,
        &[],
        "",
    );
    assert_eq!(frames(&mut console, 1, InputFrame::NONE), ["8 0 0 12"]);
    assert_eq!(shown(&console, 12, 22), 0xFF004D);
    assert_eq!(shown(&console, 10, 22), 0xFF004D);
    assert_eq!(shown(&console, 10, 20), 0x000000);
    assert_eq!(shown(&console, 22, 22), 0x000000, "the outline's inside");
}

#[test]
fn a_real_carts_sheet_and_map_draw_as_its_data_says() {
    // Piconian's sprite sheet and map (tests/pico8/aquova-piconian, CC0), written as the
    // importer writes them, drawn with `map` and compared with the .p8's own bytes.
    let text =
        std::fs::read_to_string(root().join("tests/pico8/aquova-piconian/piconian.p8")).unwrap();
    let cart = p8::parse(&text).unwrap();
    let png = folder::sheet_png(&cart).unwrap();
    let tmx = folder::map_tmx(&cart);
    let mut console = pico8_console(
        r#"
function _draw()
  cls(0)
  palt(0, false)
  map(0, 0, 0, 0, 16, 16)
end"#,
        &[("gfx.png", &png), ("map.tmx", tmx.as_bytes())],
        "gfx = \"gfx.png\"\nmap = \"map.tmx\"\n",
    );
    frames(&mut console, 1, InputFrame::NONE);
    let memory = console.machine().pico8().expect("PICO-8 memory");
    let mut drawn_cells = 0;
    for cy in 0..16 {
        for cx in 0..16 {
            let sprite = usize::from(cart.map_cell(cx, cy));
            if sprite != 0 {
                drawn_cells += 1;
            }
            for py in 0..8 {
                for px in 0..8 {
                    let want = match sprite {
                        0 => 0,
                        s => cart.gfx[(s / 16 * 8 + py) * 128 + s % 16 * 8 + px],
                    };
                    let (x, y) = (cx * 8 + px, cy * 8 + py);
                    assert_eq!(memory.screen_pixel(x, y), want, "({x}, {y})");
                }
            }
        }
    }
    assert!(drawn_cells > 0, "the map's corner has cells");
    for n in 0..256 {
        assert_eq!(
            memory.peek(0x3000 + n),
            cart.flags[n],
            "flags of sprite {n}"
        );
    }
}

#[test]
fn print_draws_pico8s_font_and_numbers_as_pico8_writes_them() {
    let mut console = pico8_console(
        r#"
function _draw()
  cls()
  local x = print("a", 0, 0, 7)
  print(1/4)
  kairo.log(x .. " " .. tostr(10/2) .. " " .. tostr(1/3))
end"#,
        &[],
        "",
    );
    assert_eq!(frames(&mut console, 1, InputFrame::NONE), ["4 5 0.3333"]);
    let memory = console.machine().pico8().unwrap();
    let row = |y: usize| -> String {
        (0..4)
            .map(|x| {
                if memory.screen_pixel(x, y) == 7 {
                    '#'
                } else {
                    '.'
                }
            })
            .collect()
    };
    // The A shape of PICO-8's font, then "0.25" on the next line at the cursor.
    assert_eq!(
        [row(0), row(1), row(2), row(3), row(4)],
        ["###.", "#.#.", "###.", "#.#.", "#.#."]
    );
    assert_ne!(
        memory.screen_pixel(0, 6),
        0,
        "print(1/4) at the cursor, a line down"
    );
}

#[test]
fn every_pico8_function_takes_any_arguments_without_a_panic() {
    // Each function called with values of every kind: a clean result or a clean error.
    let names: Vec<&str> = kairo::script::api::PICO8_API
        .iter()
        .flat_map(|g| g.functions.iter().map(|f| f.name))
        .collect();
    let list = names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(",");
    let source = format!(
        r#"
local names = {{ {list} }}
local values = {{ nil, true, false, 0, -1, 1.5, -32769, 1e308, -1e308, 0/0, math.huge,
  "x", "12", {{}}, print, 0x7fff, 0x8000, math.mininteger, math.maxinteger }}
-- One function a frame (each frame has its own cycle budget).
local next_name = 0
function _update60() end
function _draw()
  next_name = next_name + 1
  local f = _ENV[names[next_name]]
  local calls = 0
  for i = 1, #values + 1 do
    for j = 1, 4 do
      local args = {{}}
      for k = 1, 10 do args[k] = values[(i + j * k) % (#values + 1) + 1] end
      pcall(f, table.unpack(args, 1, 10))
      calls = calls + 1
    end
  end
  kairo.log(names[next_name] .. " " .. calls)
end"#
    );
    let mut console = pico8_console(&source, &[], "");
    let log = frames(&mut console, names.len(), InputFrame::NONE);
    assert_eq!(log.len(), names.len(), "{log:?}");
}

#[test]
fn the_docs_example_adds_the_bullet_unit_to_an_imported_cart() {
    // docs/pico8.md's example, after a cart's own _init and _update.
    let docs = std::fs::read_to_string(root().join("docs/pico8.md")).unwrap();
    let example = docs
        .split("```lua\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the example");
    let source = format!(
        "function _init() n = 0 end\nfunction _update() n = n + 1 end\nfunction _draw() cls(1) end\n{example}"
    );
    let sheet = {
        let mut text =
            String::from("pico-8 cartridge // http://www.pico-8.com\nversion 41\n__gfx__\n");
        text.push_str(&format!(
            "{}\n",
            "0".repeat(8) + &"8".repeat(8) + &"0".repeat(112)
        ));
        folder::sheet_png(&p8::parse(&text).unwrap()).unwrap()
    };
    // The manifest gives the sheet to pattern VRAM too, as kairo import does.
    let mut console = pico8_console(
        &source,
        &[("gfx.png", &sheet)],
        "gfx = \"gfx.png\"\n[[sheet]]\nfile = \"gfx.png\"\n",
    );
    let x = InputFrame([Button::B.bit(), 0, 0, 0]);
    frames(&mut console, 2, x);
    frames(&mut console, 20, InputFrame::NONE);
    let live = console.machine().bullets().stats().live;
    assert_eq!(live, 16, "the ring of 16 bullets flies");
}

/// One vblank after another, the sound mixed (48 kHz stereo), the left channel.
fn sound_of(console: &mut Console, vblanks: usize) -> Vec<f32> {
    for _ in 0..vblanks {
        console.tick(InputFrame::NONE).expect("the vblank runs");
    }
    console.take_audio().chunks(2).map(|f| f[0]).collect()
}

/// Frequency from the rising zero crossings of a 48 kHz signal.
fn pitch(samples: &[f32]) -> f64 {
    let rises: Vec<usize> = (1..samples.len())
        .filter(|&i| samples[i - 1] < 0.0 && samples[i] >= 0.0)
        .collect();
    (rises.len() - 1) as f64 * 48_000.0 / (rises[rises.len() - 1] - rises[0]) as f64
}

#[test]
fn sfx_play_the_carts_sound_file_at_pico8s_pitch_and_length_and_hear_pokes() {
    // sfx 0: four notes of A2 (key 33 = 0x21, 440 Hz), square, volume 7, speed 16; then
    // silence. 4 x 16 x 183 samples at 22,050 Hz is 0.5312 s.
    let notes = "21370".repeat(4) + &"00000".repeat(28);
    let sound = format!("__sfx__\n00100000{notes}\n__music__\n00 41424344\n");
    let source = "function _init() sfx(0) end\n\
                  function _update60() if btnp(4) then poke(0x3200, 0xed) sfx(0, 1) end end";
    let mut console = pico8_console(
        source,
        &[("sound.p8sfx", sound.as_bytes())],
        "sound = \"sound.p8sfx\"\n",
    );
    // A snapshot taken as the sfx plays, restored, plays on to the same sample.
    let mut heard = sound_of(&mut console, 10);
    let snapshot = console.snapshot();
    let after = sound_of(&mut console, 5);
    console.restore(&snapshot).unwrap();
    assert_eq!(sound_of(&mut console, 5), after);
    heard.extend(after);
    heard.extend(sound_of(&mut console, 45));
    let last = heard.iter().rposition(|&s| s != 0.0).unwrap();
    let expected_end = 4.0 * 16.0 * 183.0 / 22_050.0 * 48_000.0;
    assert!(
        (last as f64 - expected_end).abs() < 4.0,
        "sound ends at {last}, {expected_end} expected"
    );
    let f = pitch(&heard[..last]);
    assert!((f / 440.0 - 1.0).abs() < 0.003, "{f} Hz");
    // Note 0 poked to key 45 (0x2d, the square's waveform bits kept: 0xed): the first note
    // plays an octave up, 880 Hz.
    console.tick(InputFrame::player1(Button::A.bit())).unwrap();
    let heard = sound_of(&mut console, 10);
    let f = pitch(&heard[500..6000]);
    assert!((f / 880.0 - 1.0).abs() < 0.003, "{f} Hz");
}

#[test]
fn a_broken_sound_file_is_refused_naming_its_line() {
    let manifest = "name = \"p8\"\nplane = \"canvas\"\n[pico8]\nsound = \"s.p8sfx\"\n";
    let mut files = std::collections::BTreeMap::new();
    files.insert("cart.toml".to_string(), manifest.as_bytes().to_vec());
    files.insert("main.lua".to_string(), Vec::new());
    files.insert("s.p8sfx".to_string(), b"__sfx__\n0010zz00\n".to_vec());
    let files = kairo::cart::files::CartFiles::from_map("test", files);
    let error = kairo::cart::Cart::from_files(files).unwrap_err();
    assert!(error.to_string().contains("s.p8sfx:2:"), "{error}");
}

#[test]
fn a_menu_item_chosen_in_the_input_calls_its_callback_once_before_update_and_states_keep_it() {
    let mut console = pico8_console(
        "n = 0\n\
         function _init() menuitem(3, \"count\", function(b) n = n + 1 kairo.log(\"menu \" .. b) end) end\n\
         function _update() kairo.log(\"update \" .. n) end",
        &[],
        "",
    );
    assert_eq!(
        console.machine().pico8().unwrap().menu_items(),
        [(3, "count".to_string())]
    );
    let choose = InputFrame::player1(kairo::input::menu_choice_bits(3));
    let snapshot = console.snapshot();
    // Chosen on a vblank a 30 fps cart skips: kept for its next frame, called once.
    let mut log = frames(&mut console, 1, InputFrame::NONE);
    log.extend(frames(&mut console, 1, choose));
    log.extend(frames(&mut console, 4, InputFrame::NONE));
    assert_eq!(log, ["update 0", "menu 32", "update 1", "update 1"]);
    // Item 1 is not the cart's: nothing is called.
    frames(
        &mut console,
        2,
        InputFrame::player1(kairo::input::menu_choice_bits(1)),
    );
    // The callback is part of the state: restored, it runs again.
    console.restore(&snapshot).unwrap();
    assert_eq!(frames(&mut console, 1, choose), ["menu 32", "update 1"]);
}

/// The PICO-8 frames (1 = the press) on which `btnp(4)` is true while A is held for
/// `vblanks` vblanks, in a cart with `update` (`_update` or `_update60`) and `init`.
fn btnp_frames(update: &str, init: &str, vblanks: usize) -> Vec<u32> {
    let source = format!(
        "h = 0\nfunction _init() {init} end\n\
         function {update}() h = h + 1 if btnp(4) then kairo.log(h) end end"
    );
    let mut console = pico8_console(&source, &[], "");
    frames(&mut console, vblanks, InputFrame::player1(Button::A.bit()))
        .iter()
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn btnp_repeats_after_15_frames_then_every_4_at_30_fps_doubled_at_60_and_as_poked() {
    assert_eq!(btnp_frames("_update", "", 2 * 28), [1, 16, 20, 24, 28]);
    assert_eq!(btnp_frames("_update60", "", 48), [1, 31, 39, 47]);
    // 0x5f5c and 0x5f5d: the delay and the period; 255 as the delay never repeats.
    assert_eq!(
        btnp_frames("_update", "poke(0x5f5c, 5) poke(0x5f5d, 2)", 2 * 11),
        [1, 6, 8, 10]
    );
    assert_eq!(btnp_frames("_update", "poke(0x5f5c, 255)", 2 * 40), [1]);
}

/// A cart that runs `checks` (lines of `check(name, got, want)`) once and logs each check
/// that fails, then "done".
fn run_checks(checks: &str) -> Vec<String> {
    let source = format!(
        r#"
local function check(name, got, want)
  if got ~= want or math.type(got) ~= math.type(want) then
    kairo.log(name .. ": got " .. tostring(got) .. " (" .. tostring(math.type(got))
      .. "), want " .. tostring(want) .. " (" .. tostring(math.type(want)) .. ")")
  end
end
function _draw()
{checks}
  kairo.log("done")
end"#
    );
    let mut console = pico8_console(&source, &[], "");
    frames(&mut console, 1, InputFrame::NONE)
}

#[test]
fn bitwise_functions_work_on_all_32_bits_of_pico8s_numbers() {
    // Expected values worked out by hand from PICO-8's rules: a number is its value times
    // 65536 in 32 bits (truncated toward zero, wrapped), a shift count is flr(n), shifts by
    // 32 or more give 0 (shr: the sign), a negative count shifts the other way, rotations
    // take the count's low 5 bits. Integers come back as Lua integers.
    let log = run_checks(
        r#"
  local lsb = 1 / 65536
  local ones = bnot(0) -- 0xffff.ffff; -1 is 0xffff.0000
  check("all ones", ones, -lsb)
  check("band fractions", band(0.5, 0.75), 0.5)
  check("band -1", band(-1, 0.5), 0)
  check("band ones", band(ones, 0.5), 0.5)
  check("band -1.5 3", band(-1.5, 3), 2)
  check("band integers", band(5, 3), 1)
  check("band nothing", band(), 0)
  check("bor fraction", bor(0.25, 1), 1.25)
  check("bor negative", bor(-2, 1), -1)
  check("bxor fractions", bxor(1.5, 0.5), 1)
  check("bxor negative", bxor(-1, 0.5), -0.5)
  check("bnot 0", bnot(0), -lsb)
  check("bnot 0.5", bnot(0.5), -32769 / 65536)
  check("bnot -1", bnot(-1), 1 - lsb)
  check("shl wraps", shl(1, 16), 0)
  check("shl to the sign", shl(1, 15), -32768)
  check("shl fraction", shl(0.5, 1), 1)
  check("shl lowest bit", shl(lsb, 31), -32768)
  check("shl negative count", shl(3, -1), 1.5)
  check("shl negative count is logical", shl(-1, -1), 32767.5)
  check("shl 32", shl(-1, 32), 0)
  check("shl -32768", shl(1, -32768), 0)
  check("shl count floored", shl(1, 1.9), 2)
  check("shl count -0.5", shl(1, -0.5), 0.5)
  check("shr fraction", shr(1, 1), 0.5)
  check("shr negative", shr(-1, 1), -0.5)
  check("shr -3", shr(-3, 1), -1.5)
  check("shr 40 negative", shr(-1, 40), -lsb)
  check("shr 40", shr(1, 40), 0)
  check("shr negative count", shr(0.5, -2), 2)
  check("lshr", lshr(-1, 1), 32767.5)
  check("lshr 16", lshr(-1, 16), 1 - lsb)
  check("lshr 32", lshr(-1, 32), 0)
  check("lshr negative count", lshr(0.5, -1), 1)
  check("rotl 16", rotl(1, 16), lsb)
  check("rotl sign", rotl(-32768, 1), lsb)
  check("rotl 33", rotl(1, 33), 2)
  check("rotl 0", rotl(1.5, 0), 1.5)
  check("rotl -1", rotl(1.5, -1), 0.75)
  check("rotr", rotr(1, 1), 0.5)
  check("rotr lowest bit", rotr(lsb, 1), -32768)
  check("rotr 17", rotr(1, 17), -32768)
  check("wrap 32768", band(32768, -1), -32768)
  check("wrap 65539", band(65539, -1), 3)
  check("wrap 1e10", band(1e10, ones), -7168)
  check("truncated third", band(1 / 3, ones), 21845 / 65536)
  check("truncated toward zero", band(-1 / 3, ones), -21845 / 65536)
  check("infinity", band(1 / 0, ones), 32768 - lsb)
  check("-infinity", band(-1 / 0, ones), -32768 + lsb)
  check("nan", band(0 / 0, ones), 0)
  check("string", band("3", 1), 1)
  check("tostr hex", tostr(1.5, true), "0x0001.8000")
  check("tostr hex negative", tostr(-1, 1), "0xffff.0000")
  check("tostr bits", tostr(1.5, 2), "98304")
  check("tostr hex bits", tostr(-1.5, 3), "0xfffe8000")
  check("tostr", tostr(5), "5")
  check("tostr none", tostr(), "")
  check("tostr nil", tostr(nil), "[nil]")
  check("tonum hex", tonum("0x10"), 16)
  check("tonum binary", tonum("0b101"), 5)
  check("tonum hex fraction", tonum("0x1.8"), 1.5)
  check("tonum hex wraps", tonum("0xffff"), -1)
  check("tonum binary fraction", tonum("0b0.1"), 0.5)
  check("tonum negative hex", tonum("-0x10"), -16)
  check("tonum decimal", tonum(" 12.5 "), 12.5)
  check("tonum number", tonum(7), 7)
  check("tonum no number", tonum("x"), nil)
  check("tonum no number 0x4", tonum("x", 4), 0)
  check("tonum bare hex 0x1", tonum("ff", 1), 255)
  check("tonum bits 0x2", tonum("65536", 2), 1)
  check("tonum 0x", tonum("0x"), nil)"#,
    );
    assert_eq!(log, ["done"]);
}

#[test]
fn translated_bitwise_operators_have_pico8s_priorities() {
    // PICO-8 code through the importer's translation, then run: each expected value
    // discriminates the priority it names (evaluated the other way it differs).
    let pico8 = r#"
  check("&", 0.5 & 0.75, 0.5)
  check("|", 0.25 | 1, 1.25)
  check("^^", 5 ^^ 3, 6)
  check("~ binary", 5 ~ 3, 6)
  check("~", ~0, -1 / 65536)
  check("<<", 1 << 15, -32768)
  check(">>", -1 >> 1, -0.5)
  check(">>>", -1 >>> 16, 1 - 1 / 65536)
  check("<<>", 1 <<> 16, 1 / 65536)
  check(">><", 1 >>< 1, 0.5)
  check("& before |", 4 | 6 & 3, 6)
  check("^^ before |", 1 | 1 ^^ 1, 1)
  check("& before ^^", 1 ^^ 3 & 2, 3)
  check("shift before &", 1 & 3 << 1, 0)
  check("+ before shift", 1 + 1 << 2, 8)
  check("& before ==", 3 & 1 == 1, true)
  check("left to right", 1 << 2 >> 1, 2)
  check("unary ~ first", ~0 & 0xffff, -1)
  check("unary - first", -1 >> 1, -0.5)
  check("~ takes ^", ~2 ^ 2, bnot(4))
  check("mixed", 1 + 2 * 3 >> 1 | 1, 3.5)
  check("calls and fields", max(1 & 3, 0) | t.v[1] & t:m(2), 3)
  local x = 3 x &= 1.5 check("&=", x, 1)
  x = 1 x |= 0.5 check("|=", x, 1.5)
  x = 1 x ^^= 3 check("^^=", x, 2)
  x = 1 x <<= 4 check("<<=", x, 16)
  x = 1 x >>= 2 check(">>=", x, 0.25)
  x = -1 x >>>= 31 check(">>>=", x, 1 / 65536)
  x = 1 x <<>= 31 check("<<>=", x, 0.5)
  x = 1 x >><= 17 check(">><=", x, -32768)
  x = 1 x += 2 & 3 check("+= takes its whole side", x, 3)
  local u = {1, 5} u[1 & 1] |= 2 check("indexed target", u[1], 3)
  x = 7 x \= 2 check("\\=", x, 3)
  x = 7 x %= 4 check("%=", x, 3)
  x = 2 x ^= 3 check("^=", x, 8.0)
  local s = "a" s ..= "b" check("..=", s, "ab")
  if (x & 8 == 8) x = 0
  check("one-line if", x, 0)
  local y = 6 -- six
    & 3 -- three
  check("across lines", y, 2)"#;
    let lua = kairo::import::pico8::lua::translate(pico8).unwrap();
    assert_eq!(lua.lines().count(), pico8.lines().count(), "{lua}");
    assert!(lua.contains("-- six\n    , 3) -- three"), "{lua}");
    let log = run_checks(&format!(
        "  t = {{ v = {{ 6 }} }} function t:m(n) return n end\n{lua}"
    ));
    assert_eq!(log, ["done"], "{lua}");
}

#[test]
fn rnd_is_pico8s_generator_seeded_from_the_cart_so_runs_repeat() {
    // srand(1), then rnd(1), rnd(100), rnd(), rnd(8), as 16.16 bits: the values PICO-8's
    // generator (as
    // zepto8 and fake-08 describe it: hi = rotl(hi, 16) + lo, lo += hi, after srand's 32
    // steps) gives, worked out apart from this code.
    let mut console = pico8_console(
        "local function b(x) return flr(x * 65536) end\n\
         function _update() srand(1) kairo.log(b(rnd(1)) .. ' ' .. b(rnd(100)) .. ' ' \
         .. b(rnd()) .. ' ' .. b(rnd(8))) end",
        &[],
        "",
    );
    assert_eq!(
        frames(&mut console, 1, InputFrame::NONE),
        ["5303 4062488 38882 233551"],
        "0.0809173583984375, 61.9886474609375, 0.593292236328125, 3.5637054443359375 in 16.16"
    );
    // Without srand: the same numbers on every run of the cart (seeded from its `seed`),
    // and rnd(table) picks one of its items; math.random is deterministic too.
    let source = "function _update() kairo.log(rnd() .. ' ' .. rnd({ 'a', 'b', 'c' }) .. ' ' \
                  .. math.random(1000)) end";
    let run = || frames(&mut pico8_console(source, &[], ""), 5, InputFrame::NONE);
    let first = run();
    assert_eq!(first, run());
    assert!(
        first
            .iter()
            .all(|l| l.contains(" a ") || l.contains(" b ") || l.contains(" c "))
    );
}
