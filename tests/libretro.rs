//! The libretro core (`libretro/`) driven by a small frontend ([`libretro_support`]) through
//! its C ABI, as RetroArch drives it: the bundled carts play their movies to the frames
//! `kairo headless` gives, states round-trip mid-run (in the same run and in a fresh one),
//! save RAM written by a cart reaches the next session through the frontend, and broken carts
//! and states are refused with a message. The core is built (release) on first use.
#![cfg(all(
    feature = "host",
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod common;
mod libretro_support;

use std::path::Path;

use common::{bundled, root, temp_dir};
use kairo::input::{Button, InputFrame};
use kairo::movie::Movie;
use libretro_support::Frontend;

/// What `kairo headless CART --input MOVIE --frames N --hash` prints.
fn headless(cart: &Path, movie: &Path, frames: usize) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairo"))
        .arg("headless")
        .arg(cart)
        .arg("--input")
        .arg(movie)
        .args(["--frames", &frames.to_string(), "--hash"])
        .output()
        .expect("run kairo headless");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The hash `kairo headless CART --input MOVIE --frames N --hash` prints.
fn headless_hash(cart: &Path, movie: &Path, frames: usize) -> String {
    headless(cart, movie, frames)
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("hash "))
        .expect("a hash line")
        .to_string()
}

fn movie(name: &str) -> (std::path::PathBuf, Movie) {
    let path = root().join("tests/movies").join(format!("{name}.kmv"));
    let text = std::fs::read_to_string(&path).expect("bundled movie");
    let movie = Movie::parse(&text, name).expect("movie parses");
    (path, movie)
}

/// Loads `cart` in the frontend, putting `save` in SAVE_RAM before the first vblank.
fn load(frontend: &Frontend, cart: &Path, save: &[u8]) {
    assert!(frontend.load_game(cart), "{:?}", frontend.take_log());
    if !save.is_empty() {
        frontend.write_save_ram(save);
    }
}

fn plays_its_movie_like_headless(name: &str) {
    let cart = bundled(name);
    let (movie_path, movie) = movie(name);
    let frontend = Frontend::open();
    load(&frontend, &cart, &movie.save);
    assert_eq!(frontend.requests(), (Some(1), Some(1 << 2)));
    let vblanks = movie.ticks.len();
    let checkpoints = [vblanks / 2, vblanks];
    let mut hashes = Vec::new();
    for n in 0..vblanks {
        let frames = frontend.run(movie.input(n));
        assert_eq!(frames, 800, "audio frames of vblank {n}");
        if checkpoints.contains(&(n + 1)) {
            hashes.push((n + 1, frontend.frame_hash()));
        }
    }
    for (n, hash) in hashes {
        assert_eq!(
            hash,
            headless_hash(&cart, &movie_path, n),
            "{name} at vblank {n}"
        );
    }
}

#[test]
fn the_platformer_plays_its_movie_to_the_frames_of_kairo_headless() {
    plays_its_movie_like_headless("platformer");
}

#[test]
fn the_shmup_plays_its_movie_to_the_frames_of_kairo_headless() {
    plays_its_movie_like_headless("shmup");
}

#[test]
fn slowdown_in_the_shmup_stress_mode_is_the_slowdown_of_kairo_headless() {
    // Hold Select and press Start on the title (the stress mode), then hold A (shoot).
    let movie_path = temp_dir("libretro-stress").within("stress.kmv");
    std::fs::write(
        &movie_path,
        "kairo-movie 1\ncart Nova Lance\n0000 0000 0000 0000 *90\n0800 0000 0000 0000 *10\n\
         0c00 0000 0000 0000 *10\n0000 0000 0000 0000 *10\n0010 0000 0000 0000 *900\n",
    )
    .unwrap();
    let movie = Movie::parse(&std::fs::read_to_string(&movie_path).unwrap(), "stress").unwrap();
    let vblanks = 1000;
    let cart = bundled("shmup");
    let frontend = Frontend::open();
    load(&frontend, &cart, &[]);
    let mut held_pictures = 0;
    let mut last = Vec::new();
    for n in 0..vblanks {
        assert_eq!(frontend.run(movie.input(n)), 800, "sound every vblank");
        let picture = frontend.picture();
        held_pictures += usize::from(picture == last);
        last = picture;
    }
    let report = headless(&cart, &movie_path, vblanks);
    assert_eq!(
        report.lines().last(),
        Some(format!("hash {}", frontend.frame_hash()).as_str())
    );
    // `frames F (vblanks V), slowdown frames S ...`: the vblanks without a new frame.
    let frames: usize = report
        .lines()
        .find_map(|l| l.strip_prefix("frames "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|f| f.parse().ok())
        .expect("a frames line");
    assert!(
        frames < vblanks - 100,
        "the stress mode slows down: {report}"
    );
    assert!(
        held_pictures >= vblanks - frames,
        "{held_pictures} held pictures, {} vblanks without a frame",
        vblanks - frames
    );
}

/// Runs `frontend` through `movie` from vblank `from` to `to`.
fn play(frontend: &Frontend, movie: &Movie, from: usize, to: usize) {
    for n in from..to {
        frontend.run(movie.input(n));
    }
}

#[test]
fn states_round_trip_mid_run_in_this_run_in_a_new_one_and_in_kairo_headless() {
    let cart = bundled("shmup");
    let (_, movie) = movie("shmup");
    let (mid, end) = (1500, 2100);
    let frontend = Frontend::open();
    load(&frontend, &cart, &[]);
    play(&frontend, &movie, 0, mid);
    let state = frontend.serialize().expect("a state");
    play(&frontend, &movie, mid, end);
    let uninterrupted = frontend.frame_hash();

    // This process saved it: back from memory.
    frontend.take_log();
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    assert!(
        frontend
            .take_log()
            .iter()
            .any(|l| l.contains("state restored from memory")),
        "restored from the state kept in memory"
    );
    play(&frontend, &movie, mid, end);
    assert_eq!(frontend.frame_hash(), uninterrupted);

    // A run that went elsewhere (other input) comes back too.
    assert!(frontend.unserialize(&state));
    for _ in mid..mid + 300 {
        frontend.run(InputFrame::player1(Button::Left.bit() | Button::A.bit()));
    }
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    play(&frontend, &movie, mid, end);
    assert_eq!(frontend.frame_hash(), uninterrupted);

    // The state is a Kairo state file: `kairo headless --load-state` goes on from it to the
    // same frame.
    let file = temp_dir("libretro-state").within("shmup.kst");
    std::fs::write(&file, &state).unwrap();
    let (movie_path, _) = self::movie("shmup");
    let (code, out, err) = common::kairo(
        &[
            "headless",
            &cart.to_string_lossy(),
            "--load-state",
            &file.to_string_lossy(),
            "--input",
            &movie_path.to_string_lossy(),
            "--frames",
            &(end - mid).to_string(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().last(),
        Some(format!("hash {uninterrupted}").as_str())
    );

    // A fresh session: the state's history is played again from power-on.
    frontend.unload_game();
    load(&frontend, &cart, &[]);
    frontend.take_log();
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    play(&frontend, &movie, mid, end);
    assert_eq!(frontend.frame_hash(), uninterrupted);
}

#[test]
fn run_ahead_and_rewind_patterns_give_the_frames_of_a_plain_run() {
    let cart = bundled("platformer");
    let (_, movie) = movie("platformer");
    let (from, to) = (600, 900);
    let frontend = Frontend::open();
    load(&frontend, &cart, &[]);
    play(&frontend, &movie, 0, to + 1);
    let plain = frontend.frame_hash();

    frontend.reset();
    play(&frontend, &movie, 0, from);
    // Run-ahead as RetroArch does it: each vblank runs, is saved, runs two ahead with the
    // same input, and is loaded back.
    for n in from..to {
        frontend.run(movie.input(n));
        let state = frontend.serialize().expect("a state");
        frontend.run(movie.input(n));
        frontend.run(movie.input(n));
        assert!(frontend.unserialize(&state), "vblank {n}");
    }
    // The frontend last saw a frame run ahead; the next vblank is the plain run's `to + 1`.
    frontend.run(movie.input(to));
    assert_eq!(frontend.frame_hash(), plain);

    // Rewind: a state every vblank, then back 100 vblanks and forward again.
    let mut states = Vec::new();
    for n in to + 1..to + 150 {
        states.push(frontend.serialize().expect("a state"));
        frontend.run(movie.input(n));
    }
    for state in states.iter().rev().take(100) {
        assert!(frontend.unserialize(state));
    }
    play(&frontend, &movie, to + 50, to + 150);
    let rewound = frontend.frame_hash();
    frontend.reset();
    play(&frontend, &movie, 0, to + 150);
    assert_eq!(rewound, frontend.frame_hash());
}

#[test]
fn damaged_states_are_refused_with_a_message_and_the_game_goes_on() {
    let cart = bundled("platformer");
    let (_, movie) = movie("platformer");
    let frontend = Frontend::open();
    load(&frontend, &cart, &[]);
    play(&frontend, &movie, 0, 300);
    let state = frontend.serialize().expect("a state");
    let before = frontend.frame_hash();
    frontend.take_log();

    let mut flipped = state.clone();
    flipped[state.len() / 3] ^= 0x40;
    for bad in [&b"garbage"[..], &[], &state[..state.len() / 2], &flipped] {
        assert!(!frontend.unserialize(bad));
        let log = frontend.take_log();
        assert!(
            log.iter()
                .any(|l| l.contains("state refused") && l.contains("platformer")),
            "{log:?}"
        );
    }
    assert!(frontend.serialize_into(16).is_none(), "a buffer too small");
    assert_eq!(frontend.frame_hash(), before);
    play(&frontend, &movie, 300, 400);
    let played_on = frontend.frame_hash();
    assert!(frontend.unserialize(&state));
    play(&frontend, &movie, 300, 400);
    assert_eq!(frontend.frame_hash(), played_on);
}

/// A cart that counts its power-ons in save RAM slot 0 and logs the count.
fn counting_cart(dir: &Path, save_id: Option<&str>) {
    let manifest = match save_id {
        Some(id) => format!("name = \"Counter\"\nsave_id = \"{id}\"\n"),
        None => "name = \"Counter\"\n".to_string(),
    };
    std::fs::write(dir.join("cart.toml"), manifest).unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "local n = sd_get(0)\nlog('power-ons before: ' .. n)\nsd_set(0, n + 1)\n\
         function draw() print('count ' .. n, 8, 8, 7) end\n",
    )
    .unwrap();
}

#[test]
fn save_ram_written_by_a_cart_reaches_the_next_session_through_the_frontend() {
    let dir = temp_dir("libretro-save");
    counting_cart(&dir, Some("test.libretro-counter"));
    let frontend = Frontend::open();
    load(&frontend, &dir, &[]);
    frontend.run(InputFrame::NONE);
    let log = frontend.take_log();
    assert!(
        log.iter().any(|l| l.contains("power-ons before: 0")),
        "{log:?}"
    );
    let stored = frontend.save_ram().expect("save RAM");
    assert_eq!(stored.len(), 4096);
    assert_eq!(f64::from_le_bytes(stored[..8].try_into().unwrap()), 1.0);
    frontend.unload_game();

    // The frontend puts its .srm into the area after loading, before the first vblank.
    load(&frontend, &dir, &stored);
    frontend.run(InputFrame::NONE);
    let log = frontend.take_log();
    assert!(
        log.iter().any(|l| l.contains("power-ons before: 1")),
        "{log:?}"
    );
    let again = frontend.save_ram().expect("save RAM");
    assert_eq!(f64::from_le_bytes(again[..8].try_into().unwrap()), 2.0);
    frontend.unload_game();

    // A cart without a save_id keeps nothing, as in the window.
    counting_cart(&dir, None);
    load(&frontend, &dir, &[]);
    assert!(frontend.save_ram().is_none());
}

#[test]
fn broken_carts_are_refused_with_a_message_naming_the_file() {
    let dir = temp_dir("libretro-broken");
    let frontend = Frontend::open();

    let missing = dir.join("no-such-cart");
    assert!(!frontend.load_game(&missing));
    let log = frontend.take_log().join("\n");
    assert!(
        log.contains("no-such-cart") && log.contains("no such file"),
        "{log}"
    );

    let syntax = dir.join("syntax");
    std::fs::create_dir_all(&syntax).unwrap();
    std::fs::write(syntax.join("cart.toml"), "name = \"Broken\"\n").unwrap();
    std::fs::write(syntax.join("main.lua"), "function update(\n").unwrap();
    assert!(!frontend.load_game(&syntax));
    let log = frontend.take_log().join("\n");
    assert!(log.contains("main.lua"), "{log}");

    let kcart = packed_platformer(&dir.join("damaged.kcart"));
    let mut bytes = std::fs::read(&kcart).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&kcart, bytes).unwrap();
    assert!(!frontend.load_game(&kcart));
    let log = frontend.take_log().join("\n");
    assert!(log.contains("damaged.kcart"), "{log}");

    // A cart that fails while running stops with a note; the frontend still gets pictures
    // and sound, and a reset starts it again.
    let faulting = dir.join("faulting");
    std::fs::create_dir_all(&faulting).unwrap();
    std::fs::write(faulting.join("cart.toml"), "name = \"Faulty\"\n").unwrap();
    std::fs::write(
        faulting.join("main.lua"),
        "local t = 0\nfunction update() t = t + 1 if t == 3 then error('boom') end end\n",
    )
    .unwrap();
    assert!(frontend.load_game(&faulting));
    for _ in 0..5 {
        assert_eq!(frontend.run(InputFrame::NONE), 800);
    }
    let log = frontend.take_log();
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("note:") && l.contains("boom"))
            .count(),
        1,
        "{log:?}"
    );
    assert!(frontend.serialize().is_none(), "no state of a stopped cart");
    frontend.reset();
    frontend.run(InputFrame::NONE);
    assert!(frontend.serialize().is_some());
}

#[test]
fn a_packed_cart_and_a_folder_cart_toml_load_like_the_folder() {
    let dir = temp_dir("libretro-forms");
    let kcart = packed_platformer(&dir.join("platformer.kcart"));
    let frontend = Frontend::open();
    let mut hashes = Vec::new();
    for path in [
        bundled("platformer"),
        bundled("platformer").join("cart.toml"),
        kcart,
    ] {
        assert!(frontend.load_game(&path), "{}", path.display());
        for n in 0..200u16 {
            let word = if n > 130 {
                Button::Right.bit()
            } else {
                Button::Start.bit() * u16::from(n == 60)
            };
            frontend.run(InputFrame::player1(word));
        }
        hashes.push(frontend.frame_hash());
        frontend.unload_game();
    }
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
}

/// Packs the bundled platformer into `kcart` with `kairo pack`; the path back.
fn packed_platformer(kcart: &Path) -> std::path::PathBuf {
    let (code, _, err) = common::kairo(
        &[
            "pack",
            &bundled("platformer").to_string_lossy(),
            "-o",
            &kcart.to_string_lossy(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    kcart.to_path_buf()
}

#[test]
fn loading_a_state_leaves_the_players_save_ram_alone() {
    let dir = temp_dir("libretro-replay-save");
    std::fs::write(
        dir.join("cart.toml"),
        "name = \"Best\"\nsave_id = \"test.libretro-best\"\n",
    )
    .unwrap();
    // 600 when A is held, else 100; stored in slot 0 at frame 20 when it beats the best.
    std::fs::write(
        dir.join("main.lua"),
        "local best, score = sd_get(0), 100\n\
         function update()\n\
           if btn('a') then score = 600 end\n\
           if frame() == 20 and score > best then sd_set(0, score) best = score end\n\
         end\n",
    )
    .unwrap();
    let frontend = Frontend::open();
    load(&frontend, &dir, &[]);
    for _ in 0..5 {
        frontend.run(InputFrame::NONE);
    }
    // A state from before any score was stored: its run powered on with empty save RAM.
    let state = frontend.serialize().expect("a state");
    for _ in 5..30 {
        frontend.run(InputFrame::player1(Button::A.bit()));
    }
    let best = frontend.save_ram().expect("save RAM");
    assert_eq!(f64::from_le_bytes(best[..8].try_into().unwrap()), 600.0);
    // Loading the state in this session and in a new one (played again from power-on):
    // the frontend's save RAM still holds the player's 600 while the game writes nothing.
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    frontend.run(InputFrame::NONE);
    assert_eq!(frontend.save_ram().expect("save RAM"), best);
    frontend.unload_game();
    load(&frontend, &dir, &best);
    frontend.run(InputFrame::NONE);
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    for _ in 0..3 {
        frontend.run(InputFrame::NONE);
    }
    assert_eq!(frontend.save_ram().expect("save RAM"), best);
}
