//! Determinism: the same cart and movie always give the same pictures, and a recorded movie
//! replays to the same final hash.

mod common;

use common::bundled;
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::hash::fnv1a64;
use kairo::input::{Button, InputFrame};
use kairo::movie::Movie;
use kairo::tools::headless;

/// A movie that walks right, then up and left, with some pauses.
fn wander_movie() -> Movie {
    let mut ticks = Vec::new();
    let right = Button::Right.bit();
    let up_left = Button::Up.bit() | Button::Left.bit();
    for (word, n) in [
        (0, 10),
        (right, 90),
        (0, 5),
        (up_left, 40),
        (right | Button::A.bit(), 35),
    ] {
        ticks.extend(std::iter::repeat_n(InputFrame::player1(word), n));
    }
    Movie {
        cart: "Platformer".into(),
        ticks,
        save: Vec::new(),
    }
}

fn frame_hashes(movie: &Movie) -> Vec<u64> {
    let cart = Cart::open(&bundled("platformer")).unwrap();
    let mut console = Console::new(cart).unwrap();
    (0..movie.ticks.len())
        .map(|n| {
            console.tick(movie.input(n)).unwrap();
            fnv1a64(&console.rgba())
        })
        .collect()
}

#[test]
fn same_cart_and_movie_give_identical_hashes_every_frame() {
    let movie = wander_movie();
    let first = frame_hashes(&movie);
    let second = frame_hashes(&movie);
    assert_eq!(first, second);
    // The input matters: the picture changes while the hero moves.
    let distinct: std::collections::BTreeSet<_> = first.iter().collect();
    assert!(
        distinct.len() > 50,
        "only {} distinct frames",
        distinct.len()
    );
}

#[test]
fn a_recorded_movie_replays_to_the_same_final_hash() {
    let cart = Cart::open(&bundled("platformer")).unwrap();
    let movie = wander_movie();
    let mut console = Console::new(cart.clone()).unwrap();
    let run = headless::run(
        &mut console,
        movie.ticks.len() as u64,
        Some(&movie),
        &mut |_| {},
    );
    let original = fnv1a64(&console.rgba());

    let text = run.recorded.to_text();
    let replayed_movie = Movie::parse(&text, "recorded").unwrap();
    let mut replay = Console::new(cart).unwrap();
    headless::run(
        &mut replay,
        replayed_movie.ticks.len() as u64,
        Some(&replayed_movie),
        &mut |_| {},
    );
    assert_eq!(fnv1a64(&replay.rgba()), original);
}

#[test]
fn random_numbers_are_part_of_the_machine_state() {
    let source = "function update() log(rnd(100), rndi(1, 6), math.random(10), math.random()) end";
    let logs = |source: &str| {
        let mut console = common::console(source);
        let mut lines = Vec::new();
        headless::run(&mut console, 30, None, &mut |l| lines.push(l.to_string()));
        lines
    };
    let a = logs(source);
    assert_eq!(a.len(), 30);
    assert_eq!(a, logs(source));
    assert_ne!(a[0], a[1]);
}

#[test]
fn pairs_over_string_keys_has_the_same_order_on_every_run() {
    let source = "local t = {} for i = 1, 200 do t['k' .. i] = i end\n\
                  function update() local s = {} for k in pairs(t) do s[#s + 1] = k end log(table.concat(s, ',')) end";
    let run = || {
        let mut console = common::console(source);
        let mut lines = Vec::new();
        headless::run(&mut console, 1, None, &mut |l| lines.push(l.to_string()));
        lines
    };
    // Separate Lua states in one process differ in addresses, like separate runs.
    assert_eq!(run(), run());
}
