//! Save states: a state saved after vblank N and restored — in this process or in another —
//! continues bit-identically, on both bundled carts along their movies and on a cart built to
//! be hard to save (a boss coroutine suspended mid-pattern, closures sharing an upvalue, a
//! metatable class system, tables as keys). States of another cart, of edited cart files, of
//! another build, or damaged, are refused with one line.

mod common;

use common::{kairo, root, temp_dir};
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::movie::Movie;
use kairo::savestate::{self, StateError};
use kairo::session::Session;

/// The frame hash after `vblanks` vblanks of `movie` from power-on, in one go.
fn straight_hash(cart: &Cart, movie: &Movie, vblanks: usize) -> String {
    let mut console = Console::new(cart.clone()).unwrap();
    for n in 0..vblanks {
        console.tick(movie.input(n)).unwrap();
        console.take_log();
        console.take_audio();
    }
    kairo::hash::frame_hash_hex(&console.rgba())
}

/// The same run, saved and restored (in this process, through the state's bytes) every
/// `every` vblanks.
fn chained_hash(cart: &Cart, movie: &Movie, vblanks: usize, every: usize) -> String {
    let mut console = Console::new(cart.clone()).unwrap();
    let mut history = Movie {
        cart: cart.name().into(),
        ..Movie::default()
    };
    for n in 0..vblanks {
        if n > 0 && n % every == 0 {
            let bytes = savestate::save(&console, &history);
            // A session from the state's bytes alone replays it, as another process does.
            let restored = Session::from_state(cart.clone(), &bytes, "state").unwrap();
            assert_eq!(restored.history().ticks, history.ticks);
            console = restored.into_console();
        }
        let input = movie.input(n);
        history.ticks.push(input);
        console.tick(input).unwrap();
        console.take_log();
        console.take_audio();
    }
    kairo::hash::frame_hash_hex(&console.rgba())
}

fn bundled_run(name: &str) -> (Cart, Movie) {
    let cart = Cart::open(&root().join("carts").join(name)).unwrap();
    let movie = Movie::load(&root().join("tests/movies").join(format!("{name}.kmv"))).unwrap();
    (cart, movie)
}

#[test]
fn the_platformer_saved_and_restored_every_700_vblanks_matches_the_straight_run() {
    let (cart, movie) = bundled_run("platformer");
    let n = 3600;
    assert_eq!(
        chained_hash(&cart, &movie, n, 700),
        straight_hash(&cart, &movie, n)
    );
}

#[test]
fn the_shmup_saved_and_restored_every_2300_vblanks_matches_the_straight_run() {
    let (cart, movie) = bundled_run("shmup");
    let n = 6900;
    assert_eq!(
        chained_hash(&cart, &movie, n, 2300),
        straight_hash(&cart, &movie, n)
    );
}

#[test]
fn a_boss_coroutine_closures_classes_and_table_keys_come_back_exactly() {
    let cart = Cart::open(&root().join("tests/carts/state_boss")).unwrap();
    let movie = Movie::default();
    // Saved on every kind of frame: mid-volley, mid-pause, just after a shot.
    assert_eq!(
        chained_hash(&cart, &movie, 600, 37),
        straight_hash(&cart, &movie, 600)
    );
}

#[test]
fn a_state_file_continues_in_another_process() {
    let dir = temp_dir("states-cli");
    let state = dir.join("boss.kst");
    let state = state.to_str().unwrap();
    let cart = "tests/carts/state_boss";
    let hash = |args: &[&str]| {
        let (code, out, err) = kairo(args, &root());
        assert_eq!(code, 0, "{err}");
        out.lines().last().unwrap().to_string()
    };
    let straight = hash(&["headless", cart, "--frames", "500", "--hash"]);
    hash(&["headless", cart, "--frames", "230", "--save-state", state]);
    let resumed = hash(&[
        "headless",
        cart,
        "--load-state",
        state,
        "--frames",
        "270",
        "--hash",
    ]);
    assert!(straight.starts_with("hash "), "{straight}");
    assert_eq!(resumed, straight);

    // With a movie: the loaded run reads it from the state's vblank onwards.
    let movie = "tests/movies/platformer.kmv";
    let platformer = "carts/platformer";
    let straight = hash(&[
        "headless", platformer, "--input", movie, "--frames", "1500", "--hash",
    ]);
    let state = dir.join("p.kst");
    let state = state.to_str().unwrap();
    hash(&[
        "headless",
        platformer,
        "--input",
        movie,
        "--frames",
        "900",
        "--save-state",
        state,
    ]);
    let resumed = hash(&[
        "headless",
        platformer,
        "--load-state",
        state,
        "--input",
        movie,
        "--frames",
        "600",
        "--hash",
    ]);
    assert_eq!(resumed, straight);
}

#[test]
fn states_of_other_carts_edited_carts_other_builds_and_damaged_files_are_refused() {
    let boss = Cart::open(&root().join("tests/carts/state_boss")).unwrap();
    let mut console = Console::new(boss.clone()).unwrap();
    let mut history = Movie::default();
    for _ in 0..10 {
        history.ticks.push(InputFrame::NONE);
        console.tick(InputFrame::NONE).unwrap();
    }
    let bytes = savestate::save(&console, &history);
    let refused = |cart: Cart, bytes: &[u8]| match Session::from_state(cart, bytes, "s.kst") {
        Err(e) => e,
        Ok(_) => panic!("the state was accepted"),
    };

    let shmup = Cart::open(&root().join("carts/shmup")).unwrap();
    let e = refused(shmup, &bytes);
    assert!(matches!(e, StateError::OtherCart { .. }), "{e}");
    assert_eq!(e.to_string(), "a state of State boss, not of this cart");

    // The same cart with one file edited.
    let mut files = boss.files.clone().into_map();
    files
        .get_mut("main.lua")
        .unwrap()
        .extend_from_slice(b"\n-- edited\n");
    let edited = Cart::from_files(kairo::cart::files::CartFiles::from_map("e", files)).unwrap();
    let e = refused(edited, &bytes);
    assert!(matches!(e, StateError::CartChanged { .. }), "{e}");

    // Another build.
    let mut chunks = savestate::file::Chunks::decode(&bytes).unwrap();
    chunks.0[0].1 = b"kairo 9.9.9, Lua 5.4".to_vec();
    let e = refused(boss.clone(), &chunks.encode());
    assert!(
        e.to_string()
            .starts_with("written by another build (kairo 9.9.9, Lua 5.4); this is kairo "),
        "{e}"
    );

    // Damaged, cut, or not a state at all.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    assert!(
        refused(boss.clone(), &flipped)
            .to_string()
            .contains("checksum")
    );
    assert!(
        refused(boss.clone(), &bytes[..bytes.len() - 9])
            .to_string()
            .contains("checksum")
    );
    assert_eq!(
        refused(boss.clone(), b"KAIROSAV").to_string(),
        "not a Kairo state file"
    );

    // The command line gives the file and the reason, one line.
    let dir = temp_dir("states-refused");
    let path = dir.join("s.kst");
    std::fs::write(&path, &bytes).unwrap();
    let (code, _, err) = kairo(
        &[
            "headless",
            "carts/shmup",
            "--load-state",
            path.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!(
            "kairo: {}: a state of State boss, not of this cart",
            path.display()
        )
    );
}
