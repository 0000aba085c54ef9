//! The digest of a cart's Lua state (`lua_statedigest`, lua/README.md item 10) that netplay's
//! checksum carries: equal for states that hold the same values however they were laid out,
//! different when anything a program can reach differs, blind to what the collector may
//! or may not have removed yet.

mod common;

use common::console;
use kairo::console::Console;
use kairo::input::InputFrame;

fn digest_after(source: &str, frames: usize) -> u64 {
    let mut console: Console = console(source);
    for _ in 0..frames {
        console.run_frame(InputFrame::default()).unwrap();
    }
    console.script_digest().expect("a digest")
}

const GAME: &str = r#"
local hidden = 0
local enemies = {}
function update()
  hidden = hidden + 1
  if hidden % 7 == 0 then enemies[#enemies + 1] = { x = hidden * 1.5, name = "e" .. hidden } end
end
"#;

#[test]
fn the_same_run_gives_the_same_digest_and_a_later_frame_another() {
    assert_eq!(digest_after(GAME, 30), digest_after(GAME, 30));
    assert_ne!(digest_after(GAME, 30), digest_after(GAME, 31));
}

#[test]
fn a_local_kept_as_an_upvalue_counts() {
    let other = GAME.replace("local hidden = 0", "local hidden = 1000");
    // Frame 0 of both: the only difference is the upvalue's value (and so the enemies'
    // fields later).
    assert_ne!(digest_after(GAME, 1), digest_after(&other, 1));
}

#[test]
fn a_table_counts_by_what_it_holds_not_how_it_was_filled() {
    // The same keys and values, put in in other orders (and one through the hash part and
    // then moved to the array part by a rehash): the same digest.
    let one = "t = {} t.a = 1 t.b = 'two' t[1] = 1.5 t[2] = true";
    let two = "t = {} t[2] = true t.b = 'two' t[1] = 1.5 t.a = 1";
    assert_eq!(digest_after(one, 1), digest_after(two, 1));
    let three = "t = {} t.a = 1 t.b = 'two' t[1] = 1.5 t[2] = false";
    assert_ne!(digest_after(one, 1), digest_after(three, 1));
    // A float and an integer of the same value are other values to a program's `math.type`.
    let float = "t = {} t.a = 1.0 t.b = 'two' t[1] = 1.5 t[2] = true";
    assert_ne!(digest_after(one, 1), digest_after(float, 1));
}

#[test]
fn weak_tables_do_not_count_what_the_collector_may_not_have_removed_yet() {
    // Both states hold a weak table; in one, garbage keys still sit in it.
    let clean = "cache = setmetatable({}, { __mode = 'k' }) keep = {}";
    let garbage = "cache = setmetatable({}, { __mode = 'k' }) keep = {} \
                   do local k = {} cache[k] = true end";
    // The garbage key is one more object made: make as many in the clean state.
    let clean = format!("{clean} do local k = {{}} end");
    assert_eq!(digest_after(&clean, 1), digest_after(garbage, 1));
}
