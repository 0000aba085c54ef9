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
  add(pcall(sfx, "boom"))
  add(math.random(3, 3), pcall(math.random, 1.5))
  add(hb_add(1, 1, 2, 0, 0, 8, 8), hb_add(2, 2, 1, 4, 4, 8, 8))
  local pairs_list, count = hb_pairs()
  add(count, pairs_list[1], pairs_list[2])
  add(cycles() - start)
  log(who .. "\n" .. table.concat(out, "\n"))
end

function init()
  bu_type(0, 1)
  probe("main")
  local co = coroutine.create(probe)
  local ok, err = coroutine.resume(co, "coroutine")
  if not ok then log("coroutine failed: " .. tostring(err)) end
end
"#;

#[test]
fn calls_inside_a_coroutine_give_what_calls_outside_give() {
    let mut c = console(PROBE);
    c.run_frame(InputFrame::NONE).unwrap();
    let log = c.take_log();
    assert_eq!(log.len(), 2, "{log:#?}");
    let main = log[0].strip_prefix("main\n").expect("the main thread's run");
    let inside = log[1]
        .strip_prefix("coroutine\n")
        .expect("the coroutine's run");
    assert_eq!(main, inside);
    let lines: Vec<&str> = main.lines().collect();
    // A few of the answers, to be sure the probe called what it meant to.
    assert_eq!(lines[1], "12 18 1.25 0 nil", "{main}");
    assert_eq!(
        lines[2],
        "false main.lua:14: move_body: body.x must be a number, got string"
    );
    assert!(lines[3].starts_with("false main.lua:15: move_body: argument 1 (body) must be a table"));
    assert_eq!(
        lines[5],
        "false main.lua:17: move_body: options.gravity must be \"up\" or \"down\""
    );
    assert_eq!(
        lines[8],
        "false main.lua:20: bu_fire: options.accel must be a number, got string"
    );
    assert_eq!(
        lines[10],
        "false main.lua:22: tanim: item 2 of frames must be a number, got string"
    );
    assert_eq!(
        lines[12],
        "false false false main.lua:24: btn: no button named \"jump\""
    );
    assert_eq!(
        lines[14],
        "false main.lua:26: spr: argument 2 (x) must be a number, got table"
    );
    assert_eq!(
        lines[15],
        "false main.lua:27: spr: argument 2 (x) must be a finite number, got nan"
    );
    assert_eq!(lines[19], "1 1 2");
    let cycles: u64 = lines.last().unwrap().parse().unwrap();
    assert!(cycles > 0);
}
