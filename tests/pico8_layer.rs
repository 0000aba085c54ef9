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
    let mut console = pico8_console("function _draw() stat(1) end", &[], "");
    let error = console.run_frame(InputFrame::NONE).unwrap_err();
    assert!(error.to_string().contains("stat is not in"), "{error}");
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
