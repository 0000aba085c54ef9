//! The cycle budget: instructions and API calls are charged exactly, over-budget frames take
//! more vblanks, and runaway scripts are stopped within the cap wherever they loop.

mod common;

use common::{console, lua_cart};
use kairo::console::{Console, Tick};
use kairo::input::InputFrame;
use kairo::meter::Unit;
use kairo::script::ScriptError;
use kairo::spec::{FRAME_BUDGET, INIT_CAP, LUA_HOOK_INTERVAL, RUNAWAY_CAP, cost};

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

/// The fault `source`'s first frame stops with, and the cycles the frame had been charged
/// (all units) when the script was stopped.
fn runaway_stop(source: &str) -> (ScriptError, u64) {
    let mut c = console(source);
    let err = c.run_frame(InputFrame::NONE).unwrap_err();
    let charged = c.cycles_charged();
    // The console stays faulted with the same error.
    assert_eq!(c.run_frame(InputFrame::NONE).unwrap_err(), err);
    (err, charged)
}

/// The cap a runaway fault reports, checked against the fault's message.
fn reported_cap(err: &ScriptError) -> u64 {
    let ScriptError::Runaway { cap, .. } = err else {
        panic!("expected a runaway, got {err:?}");
    };
    assert!(
        err.headline().ends_with(&format!(
            ": the script ran past the runaway cap of {cap} cycles without returning (an \
             endless loop?)"
        )),
        "{err}"
    );
    *cap
}

/// The instructions one count of the hook charges.
const INTERVAL: u64 = LUA_HOOK_INTERVAL as u64 * cost::LUA_INSTRUCTION;
/// How far past the cap a stop may come: Kairo's Lua charges the instructions and library
/// work it counted (and the cap is checked) once `WORK_CHARGE_EVERY` cycles are counted, at
/// the count of the hook that reaches it.
const HOOK: u64 = INTERVAL + kairo::spec::WORK_CHARGE_EVERY;

/// Asserts that a stop with `charged` cycles came once the meter passed `cap` and at most
/// `slack` cycles later.
fn assert_stopped_just_past(charged: u64, cap: u64, slack: u64, case: &str) {
    assert!(
        charged > cap && charged <= cap + slack,
        "{case}: stopped with {charged} cycles charged; the cap is {cap}, so the stop must \
         come within ({cap}, {}]",
        cap + slack
    );
}

#[test]
fn a_runaway_loop_is_stopped_at_the_cap_with_its_location() {
    let (err, charged) =
        runaway_stop("function update()\n  local n = 0\n  while true do n = n + 1 end\nend");
    match &err {
        ScriptError::Runaway { at, traceback, .. } => {
            assert_eq!(at, "main.lua:3");
            assert!(traceback.contains("in function 'update'"), "{traceback}");
        }
        other => panic!("expected a runaway, got {other:?}"),
    }
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    assert!(
        err.to_string()
            .starts_with("main.lua:3: the script ran past the runaway cap")
    );
    // Only instructions are charged: the hook that first finds the meter past the cap stops
    // the script.
    assert_stopped_just_past(charged, RUNAWAY_CAP, HOOK, "a bare loop");
}

#[test]
fn the_cap_counts_every_unit_and_the_stop_comes_within_a_hook_and_an_api_call() {
    // A `cell` call (script and video cycles) then 40 loop instructions: at most one call
    // falls between two hooks, so past the cap the stop comes within one hook interval plus
    // one call's cost. Video cycles count toward the cap like the script's own.
    let (err, charged) = runaway_stop(
        "function update() while true do cell(0, 0, 0, 1) for i = 1, 40 do end end end",
    );
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    assert_stopped_just_past(
        charged,
        RUNAWAY_CAP,
        HOOK + cost::API_CALL + cost::CELL_WRITE,
        "a loop of cell calls",
    );
}

#[test]
fn update_and_draw_share_the_cap_and_a_frame_just_under_it_runs() {
    let half = RUNAWAY_CAP / 2;
    // Over: update and draw each stay under the cap, together they pass it.
    let (err, charged) = runaway_stop(&format!(
        "function update() for i = 1, {half} do end end\n\
         function draw()\n  for i = 1, {} do end\nend",
        half + 2 * HOOK
    ));
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    assert!(
        err.headline().starts_with("main.lua:3:"),
        "stopped in draw: {err}"
    );
    assert_stopped_just_past(charged, RUNAWAY_CAP, HOOK, "update and draw");

    // Under: the same frame a few hook intervals shorter is slow, not stopped: the cap is
    // checked against what was charged. (Up to one hook interval of instructions run before
    // the frame may be charged in it.)
    let mut c = console(&format!(
        "function update() for i = 1, {half} do end end\n\
         function draw() for i = 1, {} do end end",
        half - 3 * INTERVAL
    ));
    let report = c.run_frame(InputFrame::NONE).unwrap();
    let script = report.cycles.get(Unit::Script);
    assert!(
        script > RUNAWAY_CAP - 5 * INTERVAL && script <= RUNAWAY_CAP,
        "{script} cycles"
    );
    // Ten budgets of script and the frame's fixed cost: eleven vblanks, slow but running.
    assert_eq!(
        u64::from(report.vblanks),
        RUNAWAY_CAP / FRAME_BUDGET + 1,
        "{report:?}"
    );
}

#[test]
fn pcall_cannot_swallow_a_runaway_stop() {
    let (err, charged) = runaway_stop(
        "function update() while true do pcall(function() while true do end end) end end",
    );
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    assert_stopped_just_past(charged, RUNAWAY_CAP, HOOK, "pcall");
    let (err, charged) = runaway_stop(
        "function update() while true do xpcall(function() for i=1,1e12 do end end, print) end end",
    );
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    // Here the message handler is `print`, an API function that fails on an error object:
    // Lua calls the handler again for each such failure until its C-call limit (200) ends
    // it, each call charged `API_CALL`. That work follows the stop but is bounded.
    assert_stopped_just_past(
        charged,
        RUNAWAY_CAP,
        HOOK + 250 * cost::API_CALL,
        "xpcall with print as handler",
    );
}

#[test]
fn runaways_inside_coroutines_are_stopped() {
    let (err, charged) = runaway_stop(
        "function update() local co = coroutine.create(function() while true do end end)\n\
         while true do coroutine.resume(co) end end",
    );
    assert_eq!(reported_cap(&err), RUNAWAY_CAP);
    assert_stopped_just_past(charged, RUNAWAY_CAP, HOOK, "a coroutine");
}

#[test]
fn a_runaway_init_fails_power_on() {
    let err = Console::new(lua_cart("function init() while true do end end")).unwrap_err();
    assert_eq!(reported_cap(&err), INIT_CAP);
    let err = Console::new(lua_cart("while true do end")).unwrap_err();
    assert!(err.to_string().starts_with("main.lua:1:"), "{err}");
    assert_eq!(reported_cap(&err), INIT_CAP);
}

#[test]
fn the_main_chunk_and_init_share_the_init_cap_and_stop_just_past_it() {
    // Power-on's cycles are discarded, so the stop is placed by loop lengths: a loop of n
    // iterations is charged n cycles give or take one hook interval (FORLOOP is one
    // instruction per iteration; see the first test of this file).
    let boot = |main: u64, init: u64| {
        Console::new(lua_cart(&format!(
            "for i = 1, {main} do end\nfunction init()\n  for i = 1, {init} do end\nend"
        )))
    };
    let half = INIT_CAP / 2;
    // Just under the cap, together: powers on.
    boot(half, half - 3 * INTERVAL).expect("a power-on just under INIT_CAP runs");
    // Past it, together (each alone is far under): stopped in init with INIT_CAP.
    let Err(err) = boot(half, half + 2 * HOOK) else {
        panic!("a power-on just past INIT_CAP runs");
    };
    assert_eq!(reported_cap(&err), INIT_CAP);
    assert!(err.headline().starts_with("main.lua:3:"), "{err}");
    // The update cap does not apply at power-on: a main chunk alone well past it runs.
    boot(RUNAWAY_CAP + RUNAWAY_CAP / 2, 0).expect("RUNAWAY_CAP does not stop power-on");
}
