//! Rewind: the console runs back one vblank at a time, frame-exact, over at least 60 s with
//! bounded memory, and released anywhere it goes on exactly as a run that took that path
//! from the start. Driven directly and through the window's shell (held Backspace, and
//! Select + L on a pad), off-screen.

mod common;

use common::root;
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::movie::Movie;
use kairo::rewind::{KEYFRAME_EVERY, REWIND_BUDGET, REWIND_SECONDS, Rewind};

fn bundled_run(name: &str) -> (Cart, Movie) {
    let cart = Cart::open(&root().join("carts").join(name)).unwrap();
    let movie = Movie::load(&root().join("tests/movies").join(format!("{name}.kmv"))).unwrap();
    (cart, movie)
}

fn hash(console: &Console) -> String {
    kairo::hash::frame_hash_hex(&console.rgba())
}

/// Plays `inputs` from `console`'s vblank on, keeping the record and the rewind buffer.
fn play(
    console: &mut Console,
    rewind: &mut Rewind,
    record: &mut Vec<InputFrame>,
    inputs: &[InputFrame],
) {
    for &input in inputs {
        record.push(input);
        console.tick(input).unwrap();
        console.take_log();
        console.take_audio();
        rewind.after_vblank(console);
    }
}

/// Hashes after every vblank of `inputs` from power-on.
fn straight(cart: &Cart, inputs: &[InputFrame]) -> Vec<String> {
    let mut console = Console::new(cart.clone()).unwrap();
    inputs
        .iter()
        .map(|&input| {
            console.tick(input).unwrap();
            console.take_log();
            console.take_audio();
            hash(&console)
        })
        .collect()
}

fn rewinds_frame_exactly_and_goes_on(name: &str, played: usize, back: usize, after: usize) {
    let (cart, movie) = bundled_run(name);
    let inputs: Vec<InputFrame> = (0..played + after).map(|n| movie.input(n)).collect();
    let mut console = Console::new(cart.clone()).unwrap();
    let mut rewind = Rewind::default();
    let mut record = Vec::new();
    play(&mut console, &mut rewind, &mut record, &inputs[..played]);
    let expected = straight(&cart, &inputs);

    // Back one vblank at a time: each picture is the one the run showed then.
    for step in 1..=back {
        assert!(rewind.step_back(&mut console, &mut record).unwrap());
        let at = played - step;
        assert_eq!(console.vblanks(), at as u64);
        assert_eq!(record.len(), at);
        assert_eq!(hash(&console), expected[at - 1], "{name}: {step} back");
    }
    // Released there, and played on with other input: the same as a run that took that
    // path from power-on.
    let resume = played - back;
    let mut other: Vec<InputFrame> = inputs[..resume].to_vec();
    other.extend((0..after).map(|n| InputFrame::player1(((n * 13) % 64) as u16)));
    play(&mut console, &mut rewind, &mut record, &other[resume..]);
    assert_eq!(record, other);
    let other_run = straight(&cart, &other);
    assert_eq!(
        hash(&console),
        *other_run.last().unwrap(),
        "{name}: after release"
    );
}

#[test]
fn the_platformer_rewinds_frame_exactly_and_goes_on_after_release() {
    rewinds_frame_exactly_and_goes_on("platformer", 1500, 130, 400);
}

#[test]
fn the_shmup_rewinds_frame_exactly_and_goes_on_after_release() {
    rewinds_frame_exactly_and_goes_on("shmup", 3000, 95, 400);
}

#[test]
fn the_buffer_reaches_back_a_minute_within_its_budget() {
    let (cart, movie) = bundled_run("shmup");
    let mut console = Console::new(cart).unwrap();
    let mut rewind = Rewind::default();
    let mut record = Vec::new();
    let inputs: Vec<InputFrame> = (0..5000).map(|n| movie.input(n)).collect();
    play(&mut console, &mut rewind, &mut record, &inputs);
    let now = console.vblanks();
    let earliest = rewind.earliest().unwrap();
    assert!(
        now - earliest >= REWIND_SECONDS * 60,
        "reaches back {} vblanks",
        now - earliest
    );
    assert!(now - earliest <= REWIND_SECONDS * 60 + 2 * KEYFRAME_EVERY);
    assert!(rewind.bytes() <= REWIND_BUDGET);
    assert!(rewind.seconds(now) >= REWIND_SECONDS as f32);
    // All the way back, then no further.
    assert!(
        rewind
            .go_back_to(&mut console, &mut record, earliest)
            .unwrap()
    );
    assert_eq!(console.vblanks(), earliest);
    assert!(!rewind.step_back(&mut console, &mut record).unwrap());
}

#[cfg(feature = "host")]
mod window {
    use std::time::Instant;

    use super::*;
    use kairo::host::shell::{Screen, Shell};

    fn frames(shell: &mut Shell, n: usize) {
        for _ in 0..n {
            shell.vblank(Instant::now());
        }
    }

    #[test]
    fn holding_backspace_in_the_window_runs_the_game_backwards_silently() {
        let mut shell = Shell::new(root().join("carts"), None);
        shell.open(&root().join("carts/platformer"));
        assert!(matches!(shell.screen, Screen::Playing));
        shell.key("Enter", true);
        frames(&mut shell, 3);
        shell.key("Enter", false);
        shell.key("ArrowRight", true);
        frames(&mut shell, 200);
        shell.key("ArrowRight", false);
        let at = shell.console().unwrap().vblanks();
        let picture_then = |shell: &Shell| shell.console().unwrap().rgba();
        let mut pictures = Vec::new();
        shell.take_audio();
        shell.set_rewind_held(true);
        for _ in 0..50 {
            frames(&mut shell, 1);
            pictures.push(picture_then(&shell));
            assert!(
                shell.take_audio().iter().all(|&s| s == 0.0),
                "rewind is silent"
            );
        }
        shell.set_rewind_held(false);
        assert_eq!(shell.console().unwrap().vblanks(), at - 50);
        assert_ne!(pictures.first(), pictures.last(), "the hero walked back");
    }

    #[test]
    fn select_and_l_on_a_pad_rewind_too() {
        use kairo::host::input_map::PadEvent;
        let mut shell = Shell::new(root().join("carts"), None);
        shell.open(&root().join("carts/platformer"));
        frames(&mut shell, 120);
        let at = shell.console().unwrap().vblanks();
        let pad = 0;
        shell.pad_event(PadEvent::Connected {
            pad,
            uuid: "0".into(),
            name: "Test pad".into(),
        });
        for control in ["Select", "LeftTrigger"] {
            shell.pad_event(PadEvent::Button {
                pad,
                control: control.into(),
                down: true,
            });
        }
        frames(&mut shell, 30);
        assert_eq!(shell.console().unwrap().vblanks(), at - 30);
    }
}
