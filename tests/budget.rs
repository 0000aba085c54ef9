//! The cycle budget: instructions and API calls are charged exactly, over-budget frames take
//! more vblanks, and runaway scripts are stopped within the cap wherever they loop.

mod common;

use common::{console, lua_cart};
use kairo::console::{Console, Tick};
use kairo::input::InputFrame;
use kairo::meter::Unit;
use kairo::script::ScriptError;
use kairo::spec::{FRAME_BUDGET, LUA_HOOK_INTERVAL, RUNAWAY_CAP, cost};

fn script_cycles_for_loop(n: u64) -> u64 {
    let mut c = console(&format!(
        "N = {n}\nfunction update() for i = 1, N do end end"
    ));
    // Warm up so the hook's carried remainder is in a steady state, then average.
    c.run_frame(InputFrame::NONE).unwrap();
    let frames = 8;
    (0..frames)
        .map(|_| {
            c.run_frame(InputFrame::NONE)
                .unwrap()
                .cycles
                .get(Unit::Script)
        })
        .sum::<u64>()
        / frames
}

#[test]
fn a_known_number_of_instructions_costs_that_many_cycles() {
    // A numeric for loop runs one FORLOOP instruction per iteration.
    let base = script_cycles_for_loop(0);
    let with_loop = script_cycles_for_loop(40_000);
    let extra = with_loop - base;
    let tolerance = u64::from(LUA_HOOK_INTERVAL);
    assert!(
        extra.abs_diff(40_000) <= tolerance,
        "40000 iterations cost {extra} cycles"
    );
}

#[test]
fn api_calls_charge_their_documented_costs() {
    let mut c = console(
        "function update() for i = 0, 99 do cell(0, i % 32, 0, 1) end end\n\
         function draw() print('hello', 0, 0) end",
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    // 100 cell writes and 5 glyphs on the video unit; no layer or sprite is enabled.
    assert_eq!(
        report.cycles.get(Unit::Video),
        100 * cost::CELL_WRITE + 5 * cost::GLYPH
    );
    assert_eq!(report.cycles.get(Unit::System), cost::FRAME_OUT);
    // Each of the 101 calls costs the API entry on the script unit, plus its instructions.
    assert!(report.cycles.get(Unit::Script) >= 101 * cost::API_CALL);
}

#[test]
fn video_work_is_charged_per_layer_and_sprite_pixel() {
    let mut c = console(
        "function init() layer_on(0) layer_on(1) spr(0, 10, 10, 0, 2) spr(1, -4, 0, 0, 1) end",
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    let expected = 2 * cost::LAYER + 2 * cost::SPRITE + (16 * 2 + 8) * cost::SPRITE_ROW;
    assert_eq!(report.cycles.get(Unit::Video), expected);
}

#[test]
fn an_over_budget_frame_takes_two_vblanks_and_holds_the_screen() {
    let mut c = console(&format!(
        "function update() if frame() == 1 then for i = 1, {} do end end end",
        FRAME_BUDGET + FRAME_BUDGET / 4
    ));
    let mut ticks = Vec::new();
    for _ in 0..5 {
        ticks.push(c.tick(InputFrame::NONE).unwrap());
    }
    let vblanks: Vec<Option<u32>> = ticks
        .iter()
        .map(|t| match t {
            Tick::Frame(r) => Some(r.vblanks),
            Tick::Busy => None,
        })
        .collect();
    assert_eq!(vblanks, [Some(1), Some(2), None, Some(1), Some(1)]);
    match &ticks[1] {
        Tick::Frame(r) => {
            assert!(r.slowed_down());
            assert!(r.total() > FRAME_BUDGET && r.total() <= 2 * FRAME_BUDGET);
        }
        Tick::Busy => unreachable!(),
    }
}

fn runaway_error(source: &str) -> ScriptError {
    let mut c = console(source);
    let err = c.run_frame(InputFrame::NONE).unwrap_err();
    // The console stays faulted with the same error.
    assert_eq!(c.run_frame(InputFrame::NONE).unwrap_err(), err);
    err
}

#[test]
fn a_runaway_loop_is_stopped_at_the_cap_with_its_location() {
    let err = runaway_error("function update()\n  local n = 0\n  while true do n = n + 1 end\nend");
    match &err {
        ScriptError::Runaway { at, cap, traceback } => {
            assert_eq!(at, "main.lua:3");
            assert_eq!(*cap, RUNAWAY_CAP);
            assert!(traceback.contains("in function 'update'"), "{traceback}");
        }
        other => panic!("expected a runaway, got {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("main.lua:3: the script ran past the runaway cap")
    );
}

#[test]
fn pcall_cannot_swallow_a_runaway_stop() {
    let err = runaway_error(
        "function update() while true do pcall(function() while true do end end) end end",
    );
    assert!(matches!(err, ScriptError::Runaway { .. }), "{err:?}");
    let err = runaway_error(
        "function update() while true do xpcall(function() for i=1,1e12 do end end, print) end end",
    );
    assert!(matches!(err, ScriptError::Runaway { .. }), "{err:?}");
}

#[test]
fn runaways_inside_coroutines_are_stopped() {
    let err = runaway_error(
        "function update() local co = coroutine.create(function() while true do end end)\n\
         while true do coroutine.resume(co) end end",
    );
    assert!(matches!(err, ScriptError::Runaway { .. }), "{err:?}");
}

#[test]
fn a_runaway_init_fails_power_on() {
    let err = Console::new(lua_cart("function init() while true do end end")).unwrap_err();
    assert!(matches!(err, ScriptError::Runaway { .. }), "{err:?}");
    let err = Console::new(lua_cart("while true do end")).unwrap_err();
    assert!(err.to_string().starts_with("main.lua:1:"), "{err}");
}
