//! The two ways into the cart API. Most calls take the sandbox's direct entry, which reads
//! arguments in place from the Lua stack and a table's fields in one protected C call. Calls
//! made inside a coroutine go through mlua's callback. Both must give the same results, the
//! same errors at the same lines, and charge the same cycles.

mod common;

use common::console;
use kairo::input::InputFrame;

/// Calls of functions with every kind of argument (plain values, strings, tables read and
/// written, integer lists, bad arguments), logged as one line each, then the cycles they
/// cost. Run once on the main thread and once inside a coroutine.
const PROBE: &str = r#"
local function probe(who)
  local out = {}
  local function add(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = tostring(t[i]) end
    out[#out + 1] = table.concat(t, " ")
  end
  local start = cycles()
  local body = { x = 10.5, y = 20, w = 8, h = 8, vx = 1.25, vy = -2 }
  add(move_body(body, "air", { gravity = "up", drop = true }))
  add(body.x, body.y, body.vx, body.vy, body.platform)
  add(pcall(move_body, { x = "left", y = 0, w = 8, h = 8, vx = 0, vy = 0 }))
  add(pcall(move_body, 5))
  add(pcall(move_body, body, "swim"))
  add(pcall(move_body, body, "air", { gravity = "sideways" }))
  add(pcall(move_body, { x = 0, y = 0, w = 8, h = 8, vx = 0, vy = 0, platform = {} }))
  add(bu_fire(128, 40, 64, 2, 0, { accel = 0.5, turn = 1, frames = 10 }))
  add(pcall(bu_fire, 128, 40, 64, 2, 0, { accel = "fast" }))
  add(tanim(3, { 1, 4, 2, 4 }))
  add(pcall(tanim, 3, { 1, "x" }))
  add(pcall(tanim, 3, 7))
  add(btn("left"), btn(0), pcall(btn, "jump"))
  add(print(12.5, 0, 0), print("hi\n", 0, 8), text_width("abc"))
  add(pcall(spr, 0, {}, 0, 0))
  add(pcall(spr, 0, 0 / 0, 0, 0))
  add(pcall(function() return spr(0, {}, 0, 0) end))
  add(pcall(function() local b = { x = 0, y = 0, w = 8, h = "tall", vx = 0, vy = 0 }; return move_body(b) end))
  add(pcall(sfx, "boom"))
  add(math.random(3, 3), pcall(math.random, 1.5))
  add(hb_add(1, 1, 4, 0, 0, 8, 8), hb_add(2, 2, 0, 4, 4, 8, 8))
  local pairs_list, count = hb_pairs()
  add(count, pairs_list[1], pairs_list[2])
  add(cycles() - start)
  for _, line in ipairs(out) do log(who .. ": " .. line) end
end

function init()
  bu_type(0, 1)
  if IN_COROUTINE then
    local co = coroutine.create(probe)
    local ok, err = coroutine.resume(co, "coroutine")
    if not ok then log("coroutine failed: " .. tostring(err)) end
  else
    probe("main")
  end
end
"#;

/// The probe's lines, run on the main thread or inside a coroutine, in a fresh console.
fn probe(in_coroutine: bool) -> Vec<String> {
    let mut c = console(&format!("IN_COROUTINE = {in_coroutine}\n{PROBE}"));
    c.run_frame(InputFrame::NONE).unwrap();
    let who = if in_coroutine {
        "coroutine: "
    } else {
        "main: "
    };
    let log = c.take_log();
    let lines: Vec<String> = log
        .iter()
        .filter_map(|line| line.strip_prefix(who).map(str::to_string))
        .collect();
    assert_eq!(lines.len(), log.len(), "{log:#?}");
    lines
}

#[test]
fn calls_inside_a_coroutine_give_what_calls_outside_give() {
    let lines = probe(false);
    assert_eq!(lines, probe(true));
    // A few of the answers, to be sure the probe called what it meant to. (An error raised
    // straight into `pcall` has no location: its caller is a C function, as in Lua.)
    assert_eq!(lines[1], "11.75 18.0 1.25 -2.0 nil");
    assert_eq!(
        lines[2],
        "false move_body: body.x must be a number, got string"
    );
    assert_eq!(
        lines[3],
        "false move_body: argument 1 (body) must be a table {x, y, w, h, vx, vy}"
    );
    assert_eq!(
        lines[5],
        "false move_body: options.gravity must be \"up\" or \"down\""
    );
    assert_eq!(lines[7], "true");
    assert_eq!(
        lines[8],
        "false bu_fire: options.accel must be a number, got string"
    );
    assert_eq!(
        lines[10],
        "false tanim: item 2 of frames must be a number, got string"
    );
    assert_eq!(lines[12], "false false false btn: no button named \"jump\"");
    assert_eq!(
        lines[15],
        "false spr: argument 2 (x) must be a finite number, got nan"
    );
    assert_eq!(
        lines[16],
        "false main.lua:28: spr: argument 2 (x) must be a number, got table"
    );
    assert_eq!(
        lines[17],
        "false main.lua:29: move_body: body.h must be a number, got string"
    );
    assert_eq!(lines[21], "1 1 2");
    let cycles: u64 = lines.last().unwrap().parse().unwrap();
    assert!(cycles > 2000, "{cycles}");
}
