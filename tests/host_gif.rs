//! F9 in the window's shell, driven off-screen: the last seconds of play are saved as a GIF
//! in the screenshot folder by a thread of their own while the game goes on, the toast says
//! where it went (or why it did not), and the GIF shows the game as it was shown.
#![cfg(feature = "host")]

mod common;

use std::time::Instant;

use common::gifs::{decode, enlarged};
use common::{root, temp_dir};
use kairo::host::shell::{Screen, Shell};

fn playing_palette_cart(shots: &std::path::Path) -> Shell {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.set_screenshot_dir(shots.to_path_buf());
    shell.open(&root().join("tests/carts/gif_palette"));
    assert!(matches!(shell.screen, Screen::Playing));
    shell
}

fn vblanks(shell: &mut Shell, n: usize) {
    for _ in 0..n {
        shell.vblank(Instant::now());
    }
}

#[test]
fn f9_saves_the_last_ten_seconds_as_shown_and_says_where() {
    let shots = temp_dir("host-gif");
    let mut shell = playing_palette_cart(&shots);
    // 701 vblanks: the last one starts a GIF frame (30 fps keeps every other vblank).
    vblanks(&mut shell, 701);
    let shown = shell.console().unwrap().rgba();
    shell.save_gif();
    assert_eq!(shell.toast_text(), Some("Saving GIF (last 10.0 s)..."));
    assert!(shell.gif().busy());
    // The game goes on while the GIF is encoded.
    vblanks(&mut shell, 3);
    let path = match shell.gif().busy() {
        true => shell.finish_gif().unwrap().unwrap(),
        false => shots.join("kairo-gif-palette-1.gif"),
    };
    assert_eq!(path, shots.join("kairo-gif-palette-1.gif"));
    // The toast fits the screen's 30 columns; the terminal has the whole path.
    assert_eq!(shell.toast_text(), Some("Saved kairo-gif-palette-1.gif"));
    assert!(!shell.gif().busy());
    let bytes = std::fs::read(&path).unwrap();
    let mut last = Vec::new();
    let info = decode(&bytes, |_, canvas| {
        last.clear();
        last.extend_from_slice(canvas);
    });
    assert_eq!((info.width, info.height), (512, 512));
    assert_eq!(info.delays.len(), 300);
    assert_eq!(info.delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 1000);
    assert!(
        last == enlarged(&shown, 2),
        "the last frame is the picture at F9"
    );

    // The next GIF takes the next name.
    shell.save_gif();
    assert!(shell.finish_gif().unwrap().is_ok());
    assert!(shots.join("kairo-gif-palette-2.gif").exists());
}

#[test]
fn only_the_game_on_screen_is_recorded() {
    let shots = temp_dir("host-gif-pause");
    let mut shell = playing_palette_cart(&shots);
    vblanks(&mut shell, 100);
    assert_eq!(shell.gif().history().frames(), 50);
    shell.escape();
    assert!(matches!(shell.screen, Screen::Paused(_)));
    vblanks(&mut shell, 100);
    assert_eq!(
        shell.gif().history().frames(),
        50,
        "nothing kept while paused"
    );
    shell.escape();
    vblanks(&mut shell, 2);
    assert_eq!(shell.gif().history().frames(), 51);
}

#[test]
fn f9_without_a_game_or_a_folder_says_why() {
    let shots = temp_dir("host-gif-fail");
    let mut browsing = Shell::new(root().join("carts"), None);
    browsing.save_gif();
    assert_eq!(browsing.toast_text(), Some("No game to record"));
    assert!(browsing.finish_gif().is_none());

    let mut shell = playing_palette_cart(&shots);
    shell.save_gif();
    assert_eq!(shell.toast_text(), Some("No game pictures recorded yet"));
    vblanks(&mut shell, 10);
    let file = shots.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    shell.set_screenshot_dir(file.join("gifs"));
    shell.save_gif();
    let toast = shell.toast_text().unwrap();
    assert!(toast.starts_with("GIF failed: "), "{toast}");
    assert!(toast.contains("a-file"), "{toast}");
    assert!(shell.finish_gif().is_none());
}

#[test]
fn another_cart_starts_the_recording_afresh() {
    let shots = temp_dir("host-gif-carts");
    let mut shell = playing_palette_cart(&shots);
    vblanks(&mut shell, 100);
    assert_eq!(shell.gif().history().frames(), 50);
    shell.open(&root().join("carts/platformer"));
    vblanks(&mut shell, 20);
    assert_eq!(
        shell.gif().history().frames(),
        10,
        "only the new cart's pictures"
    );
    shell.save_gif();
    let path = shell.finish_gif().unwrap().unwrap();
    assert_eq!(path, shots.join("kairo-platformer-1.gif"));
}
