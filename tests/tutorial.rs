//! The first-cart tutorial (docs/tutorial.md) cannot rot: every step's cart in
//! docs/tutorial/ is checked and played here as the tutorial says, the document quotes the
//! steps' files as they are, and its pictures are those the steps draw.

mod common;

use std::path::PathBuf;

const STEPS: [&str; 7] = [
    "01-map",
    "02-player",
    "03-collision",
    "04-coins",
    "05-sound",
    "06-title",
    "07-high-score",
];

/// The hero's suit colour in tiles.png; its red rows are 4-6 of the 8 px tile.
const SUIT: [u8; 3] = [0xE0, 0x40, 0x48];
/// The coin's colour in tiles.png.
const COIN: [u8; 3] = [0xFF, 0xD8, 0x3A];

fn step(name: &str) -> PathBuf {
    common::root().join("docs/tutorial").join(name)
}

/// Runs `kairo headless STEP --press SCRIPT --frames N --screenshot` plus `extra`; returns
/// the picture (RGBA) and standard output.
fn play(name: &str, press: &str, frames: usize, extra: &[&str]) -> (Vec<u8>, String) {
    let dir = common::temp_dir(&format!("tutorial-{name}-{}", press.len() + frames));
    let shot = dir.join("shot.png");
    let step = step(name);
    let frames = frames.to_string();
    let mut args = vec![
        "headless",
        step.to_str().unwrap(),
        "--frames",
        &frames,
        "--screenshot",
        shot.to_str().unwrap(),
    ];
    if !press.is_empty() {
        args.extend(["--press", press]);
    }
    args.extend_from_slice(extra);
    let (code, out, err) = common::kairo(&args, &dir);
    assert_eq!(code, 0, "{name}: {err}");
    (common::gifs::png_rgba(&shot), out)
}

/// Pixels of colour `rgb` in a 256x256 RGBA picture.
fn pixels_of(rgba: &[u8], rgb: [u8; 3]) -> Vec<(usize, usize)> {
    (0..256 * 256)
        .filter(|i| rgba[i * 4..i * 4 + 3] == rgb)
        .map(|i| (i % 256, i / 256))
        .collect()
}

/// The top-left corner of the hero's tile, from its suit's pixels.
fn hero_at(rgba: &[u8]) -> (usize, usize) {
    let suit = pixels_of(rgba, SUIT);
    assert!(!suit.is_empty(), "no hero on screen");
    let left = suit.iter().map(|p| p.0).min().unwrap();
    let top = suit.iter().map(|p| p.1).min().unwrap();
    (left - 2, top - 4)
}

#[test]
fn every_step_is_a_cart_that_checks_clean_with_the_same_art() {
    let art = common::root().join("docs/tutorial/art");
    for name in STEPS {
        let dir = step(name);
        let (code, out, err) = common::kairo(&["check", dir.to_str().unwrap()], &dir);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(!out.contains("warning"), "{name}: {out}");
        for file in ["tiles.png", "level.tmx"] {
            let same =
                std::fs::read(dir.join(file)).unwrap() == std::fs::read(art.join(file)).unwrap();
            assert!(same, "{name}/{file} differs from docs/tutorial/art/{file}");
        }
    }
}

#[test]
fn the_tutorial_quotes_the_steps_files_as_they_are() {
    let text = std::fs::read_to_string(common::root().join("docs/tutorial.md")).unwrap();
    let mut quoted = 0;
    for part in text.split("<!-- file: ").skip(1) {
        let (path, rest) = part.split_once(" -->\n").expect("a marker line");
        let body = rest.split_once('\n').expect("a fence").1;
        let body = body.split_once("\n```").expect("a closing fence").0;
        let file = std::fs::read_to_string(common::root().join("docs/tutorial").join(path))
            .unwrap_or_else(|_| panic!("docs/tutorial/{path}"));
        assert_eq!(
            body,
            file.trim_end(),
            "docs/tutorial.md quotes {path} as it was"
        );
        quoted += 1;
    }
    assert!(quoted >= 7, "{quoted} files quoted");
    for name in STEPS {
        assert!(
            text.contains(&format!("Step {}", &name[1..2])),
            "{name} has a section"
        );
    }
}

#[test]
fn step_1_shows_the_level_and_step_2_walks_the_hero() {
    let (level, _) = play("01-map", "", 2, &[]);
    // Grass along row 28 (y 224), sky above.
    assert_eq!(&level[(224 * 256 + 100) * 4..][..3], &[0x38, 0xB7, 0x64]);
    assert_eq!(&level[(100 * 256 + 100) * 4..][..3], &[0x29, 0xAD, 0xFF]);
    common::docs_picture_is_current("tutorial-1.png", &png(&level));
    let (still, _) = play("02-player", "-*40", 40, &[]);
    let (walked, _) = play("02-player", "right*40", 40, &[]);
    assert_eq!(hero_at(&still), (20, 216));
    assert_eq!(hero_at(&walked), (60, 216), "one pixel a frame");
}

#[test]
fn step_3_stands_on_the_ground_and_jumps_onto_the_ledge() {
    let (standing, _) = play("03-collision", "-*60", 60, &[]);
    assert_eq!(hero_at(&standing), (20, 216), "feet on the grass at y 224");
    let (jumped, _) = play("03-collision", "-*2,right+a*1,right*30,-*40", 73, &[]);
    let (x, y) = hero_at(&jumped);
    assert_eq!(y, 192, "on the ledge, whose top is y 200 (hero at x {x})");
    assert!((32..80).contains(&x), "above the ledge: x {x}");
}

#[test]
fn step_4_takes_a_coin_and_step_5_sounds() {
    let (start, _) = play("04-coins", "-*2", 2, &[]);
    let (end, _) = play("04-coins", "right*200", 200, &[]);
    let per_coin = pixels_of(&start, COIN).len() / 7;
    assert!(per_coin > 10);
    assert_eq!(pixels_of(&end, COIN).len(), 6 * per_coin, "one coin taken");
    let dir = common::temp_dir("tutorial-wav");
    let wav = dir.join("jump.wav");
    play(
        "05-sound",
        "-*10,a*1,-*30",
        41,
        &["--wav", wav.to_str().unwrap()],
    );
    let bytes = std::fs::read(&wav).unwrap();
    let samples = &bytes[44..];
    assert!(samples.iter().any(|&b| b != 0), "the jump is heard");
}

#[test]
fn step_6_has_a_title_and_a_time_limit_and_step_7_keeps_the_best_score() {
    let (title, _) = play("06-title", "", 10, &[]);
    assert!(pixels_of(&title, SUIT).is_empty(), "no hero on the title");
    assert_eq!(
        &title[(5 * 256 + 5) * 4..][..3],
        &[0x1A, 0x1C, 0x2C],
        "cls(INK)"
    );
    common::docs_picture_is_current("tutorial-6.png", &png(&title));
    let (playing, _) = play("06-title", "start*1,right*60", 61, &[]);
    hero_at(&playing);
    common::docs_picture_is_current("tutorial-7.png", &png(&playing));

    let data = common::temp_dir("tutorial-save");
    let data_arg = data.to_str().unwrap();
    // The coin on the ground is 169 frames to the right; the game ends 20 s after Start.
    let (over, out) = play(
        "07-high-score",
        "start*1,right*200,-*1100",
        1301,
        &["--data", data_arg],
    );
    assert!(out.contains("best score 0"), "{out}");
    assert!(!pixels_of(&over, [0xFF, 0xD8, 0x3A]).is_empty());
    let (_, out) = play("07-high-score", "", 2, &["--data", data_arg]);
    assert!(out.contains("best score 10"), "kept between runs: {out}");
}

fn png(rgba: &[u8]) -> Vec<u8> {
    kairo::views::screenshot::encode_png(rgba).unwrap()
}
