//! In-memory snapshots (what rewind and quick restores use): the console taken whole — the
//! hardware and the Lua heap — and put back continues bit-identically, even after the run
//! went elsewhere in between (other input, other allocations, garbage collections). A
//! snapshot of another console, or one the Lua state's references no longer agree with, is
//! refused, never restored.

mod common;

use common::{console, root};
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::movie::Movie;
use kairo::script::heap::RestoreError;

fn bundled_run(name: &str) -> (Cart, Movie) {
    let cart = Cart::open(&root().join("carts").join(name)).unwrap();
    let movie = Movie::load(&root().join("tests/movies").join(format!("{name}.kmv"))).unwrap();
    (cart, movie)
}

fn tick(console: &mut Console, input: InputFrame) {
    console.tick(input).unwrap();
    console.take_log();
    console.take_audio();
}

fn hash(console: &Console) -> String {
    kairo::hash::frame_hash_hex(&console.rgba())
}

/// Input that mashes every button in a pattern of its own, to send the run elsewhere.
fn detour_input(n: usize) -> InputFrame {
    InputFrame::player1(((n * 37) % 256) as u16)
}

/// Hashes after every vblank of `movie`, straight.
fn straight(cart: &Cart, movie: &Movie, vblanks: usize) -> Vec<String> {
    let mut console = Console::new(cart.clone()).unwrap();
    (0..vblanks)
        .map(|n| {
            tick(&mut console, movie.input(n));
            hash(&console)
        })
        .collect()
}

/// The same run, but every `every` vblanks: snapshot, take a detour of `detour` vblanks with
/// other input, restore, and go on. Returns the hash after every vblank of the real run.
fn with_detours(
    cart: &Cart,
    movie: &Movie,
    vblanks: usize,
    every: usize,
    detour: usize,
) -> Vec<String> {
    let mut console = Console::new(cart.clone()).unwrap();
    let mut snapshot = kairo::console::ConsoleSnapshot::default();
    let mut hashes = Vec::new();
    for n in 0..vblanks {
        if n > 0 && n % every == 0 {
            console.snapshot_into(&mut snapshot);
            for d in 0..detour {
                // A detour may fault or end the game: that is the point of going back.
                let _ = console.tick(detour_input(n + d));
                console.take_log();
                console.take_audio();
            }
            console.restore(&snapshot).expect("restore");
            assert_eq!(console.vblanks(), n as u64);
        }
        tick(&mut console, movie.input(n));
        hashes.push(hash(&console));
    }
    hashes
}

fn first_difference(a: &[String], b: &[String]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

#[test]
fn the_platformer_restored_after_detours_matches_the_straight_run_every_vblank() {
    let (cart, movie) = bundled_run("platformer");
    let n = movie.ticks.len().min(3600);
    let expected = straight(&cart, &movie, n);
    let got = with_detours(&cart, &movie, n, 97, 41);
    assert_eq!(first_difference(&got, &expected), None);
}

#[test]
fn the_shmup_restored_after_detours_matches_the_straight_run_every_vblank() {
    let (cart, movie) = bundled_run("shmup");
    let n = movie.ticks.len().min(6900);
    let expected = straight(&cart, &movie, n);
    let got = with_detours(&cart, &movie, n, 131, 77);
    assert_eq!(first_difference(&got, &expected), None);
}

#[test]
fn a_boss_coroutine_closures_classes_and_table_keys_come_back_exactly() {
    let cart = Cart::open(&root().join("tests/carts/state_boss")).unwrap();
    let movie = Movie::default();
    let expected = straight(&cart, &movie, 900);
    // Restored on every kind of frame: mid-volley, mid-pause, just after a shot.
    let got = with_detours(&cart, &movie, 900, 13, 29);
    assert_eq!(first_difference(&got, &expected), None);
}

#[test]
fn one_snapshot_restores_many_times() {
    let (cart, movie) = bundled_run("shmup");
    let mut console = Console::new(cart).unwrap();
    for n in 0..600 {
        tick(&mut console, movie.input(n));
    }
    let snapshot = console.snapshot();
    let mut ends = Vec::new();
    for _ in 0..3 {
        console.restore(&snapshot).unwrap();
        for n in 600..900 {
            tick(&mut console, movie.input(n));
        }
        ends.push(hash(&console));
    }
    assert_eq!(ends[0], ends[1]);
    assert_eq!(ends[1], ends[2]);
}

#[test]
fn a_snapshot_of_another_console_is_refused() {
    let source = "x = 0 function update() x = x + 1 end";
    let a = console(source);
    let mut b = console(source);
    assert_eq!(b.restore(&a.snapshot()), Err(RestoreError::OtherState));
    let snapshot = b.snapshot();
    b.reset().unwrap();
    assert_eq!(b.restore(&snapshot), Err(RestoreError::OtherState));
}

#[test]
fn api_errors_reach_lua_as_strings_and_snapshots_survive_them() {
    let source = r#"
        n = 0
        function update()
          local ok, e = pcall(function() spr("not a sprite") end)
          n = n + 1
          log(type(e) .. " " .. e)
          local ok2, e2 = pcall(require, "nowhere")
          log(type(e2))
        end"#;
    let mut console = console(source);
    console.tick(InputFrame::default()).unwrap();
    let log = console.take_log();
    assert!(log[0].starts_with("string main.lua:4: spr:"), "{log:?}");
    assert_eq!(log[1], "string");
    let snapshot = console.snapshot();
    for _ in 0..20 {
        console.tick(InputFrame::default()).unwrap();
    }
    console.restore(&snapshot).unwrap();
    console.tick(InputFrame::default()).unwrap();
}

#[test]
fn callbacks_nested_deeper_than_prepared_make_older_snapshots_unusable_not_unsafe() {
    // gsub's replacement function calling gsub again, 40 deep: each level is a Rust
    // callback calling Lua.
    let source = r#"
        depth = 0
        local function deep(n)
          if n == 0 then return end
          string.gsub("x", "x", function() deep(n - 1) return "y" end)
        end
        function update() depth = depth + 1 if depth == 3 then deep(40) end end"#;
    let mut console = console(source);
    let snapshot = console.snapshot();
    for _ in 0..4 {
        console.tick(InputFrame::default()).unwrap();
    }
    assert_eq!(console.restore(&snapshot), Err(RestoreError::References));
    // Snapshots taken after the growth work again.
    let later = console.snapshot();
    console.tick(InputFrame::default()).unwrap();
    console.restore(&later).unwrap();
}
