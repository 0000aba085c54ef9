//! The bundled carts played from their recorded movies: the run reaches its milestones (the
//! log lines each cart writes), stays within the cycle budget, matches the golden frame
//! hashes at its checkpoints (`UPDATE_GOLDEN=1` rewrites them; a mismatch saves the PNG),
//! and runs identically from its packed `.kcart`.

mod common;

use std::path::PathBuf;

use common::{bundled, root, temp_dir};
use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::{Console, Tick};
use kairo::movie::Movie;

/// A bundled cart with its movie and what the movie must achieve.
struct Demo {
    cart: &'static str,
    movie: &'static str,
    vblanks: u64,
    /// Vblanks at which the picture is hashed.
    checkpoints: &'static [u64],
    /// Log lines (prefixes) that must appear, in this order.
    milestones: &'static [&'static str],
    /// Log lines (prefixes) that must not appear.
    never: &'static [&'static str],
}

const PLATFORMER: Demo = Demo {
    cart: "platformer",
    movie: "platformer.kmv",
    vblanks: 3800,
    checkpoints: &[10, 300, 601, 900, 1500, 2100, 2700, 3290, 3800],
    milestones: &[
        "platformer: new game",
        "platformer: stage 1 clear",
        "platformer: stage 2 start",
        "platformer: stage 2 clear",
        "platformer: stage 3 start",
        "platformer: stage 3 clear",
        "platformer: all stages clear",
    ],
    never: &["platformer: life lost", "platformer: game over"],
};

const SHMUP: Demo = Demo {
    cart: "shmup",
    movie: "shmup.kmv",
    vblanks: 7000,
    checkpoints: &[30, 760, 2050, 2930, 4520, 4650, 5400, 6100, 7000],
    milestones: &[
        "shmup: start",
        "shmup: midboss",
        "shmup: boss",
        "shmup: boss phase 1",
        "shmup: boss phase 2",
        "shmup: boss phase 3",
        "shmup: clear",
    ],
    never: &["shmup: life lost", "shmup: game over"],
};

/// What a movie run produced.
struct Played {
    log: Vec<String>,
    hashes: Vec<(u64, String)>,
    peak_load: f64,
    slow_frames: Vec<u64>,
    final_rgba: Vec<u8>,
}

fn play(cart: Cart, demo: &Demo) -> Played {
    let movie = Movie::load(&root().join("tests/movies").join(demo.movie)).expect("movie");
    let mut console = Console::new(cart).expect("the cart boots");
    let mut played = Played {
        log: console.take_log(),
        hashes: Vec::new(),
        peak_load: 0.0,
        slow_frames: Vec::new(),
        final_rgba: Vec::new(),
    };
    for n in 0..demo.vblanks {
        let tick = console
            .tick(movie.input(n as usize))
            .unwrap_or_else(|e| panic!("{} faulted at vblank {n}: {e}", demo.cart));
        if let Tick::Frame(report) = tick {
            played.peak_load = played.peak_load.max(report.load());
            if report.slowed_down() {
                played.slow_frames.push(report.frame);
            }
        }
        played.log.extend(console.take_log());
        console.take_audio();
        if demo.checkpoints.contains(&(n + 1)) {
            let rgba = console.rgba();
            played
                .hashes
                .push((n + 1, kairo::hash::frame_hash_hex(&rgba)));
            if n + 1 == demo.vblanks {
                played.final_rgba = rgba;
            }
        }
    }
    played
}

fn golden_path(demo: &Demo) -> PathBuf {
    root()
        .join("tests/golden")
        .join(format!("{}.hashes", demo.cart))
}

fn check_demo(demo: &Demo) {
    let cart = Cart::open(&bundled(demo.cart)).expect("the bundled cart loads");
    let played = play(cart, demo);

    let mut at = 0;
    for milestone in demo.milestones {
        let found = played.log[at..]
            .iter()
            .position(|l| l.starts_with(milestone))
            .unwrap_or_else(|| {
                panic!(
                    "{}: `{milestone}` missing (in order) from the log:\n{}",
                    demo.cart,
                    played.log.join("\n")
                )
            });
        at += found + 1;
    }
    for bad in demo.never {
        assert!(
            !played.log.iter().any(|l| l.starts_with(bad)),
            "{}: `{bad}` in the log:\n{}",
            demo.cart,
            played.log.join("\n")
        );
    }
    assert!(
        played.slow_frames.is_empty(),
        "{}: frames over budget in normal play: {:?} (peak {:.1}%)",
        demo.cart,
        played.slow_frames,
        played.peak_load
    );

    let text: String = played
        .hashes
        .iter()
        .map(|(n, h)| format!("{n} {h}\n"))
        .collect();
    let path = golden_path(demo);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if text != expected {
        let shot = temp_dir(&format!("golden-{}", demo.cart)).join("final.png");
        kairo::tools::screenshot::save_png(&shot, &played.final_rgba).unwrap();
        panic!(
            "{}: frame hashes differ from {}\nexpected:\n{expected}got:\n{text}final picture: {}",
            demo.cart,
            path.display(),
            shot.display()
        );
    }
}

fn check_packed_runs_identically(demo: &Demo) {
    let files = CartFiles::open(&bundled(demo.cart)).unwrap();
    let bytes = kairo::cart::kcart::pack(files.iter()).unwrap();
    let path = temp_dir(&format!("packed-{}", demo.cart)).join("cart.kcart");
    std::fs::write(&path, bytes).unwrap();
    let short = Demo {
        vblanks: demo.checkpoints[demo.checkpoints.len() / 2],
        ..*demo
    };
    let packed = play(Cart::open(&path).expect("the packed cart loads"), &short);
    let folder = play(Cart::open(&bundled(demo.cart)).unwrap(), &short);
    assert_eq!(packed.hashes, folder.hashes, "{}", demo.cart);
    assert_eq!(packed.log, folder.log, "{}", demo.cart);
}

#[test]
fn the_platformer_movie_plays_all_three_stages_within_budget() {
    check_demo(&PLATFORMER);
}

#[test]
fn the_packed_platformer_runs_like_the_folder() {
    check_packed_runs_identically(&PLATFORMER);
}

#[test]
fn the_shmup_movie_survives_to_the_boss_and_clears_the_stage_within_budget() {
    check_demo(&SHMUP);
}

#[test]
fn the_packed_shmup_runs_like_the_folder() {
    check_packed_runs_identically(&SHMUP);
}

#[test]
fn the_bundled_carts_pass_check() {
    for cart in ["platformer", "shmup"] {
        let problems = kairo::tools::check::check_cart(&bundled(cart), 120);
        assert!(problems.is_empty(), "{cart}: {problems:?}");
    }
}
