//! Movies in the window's shell, driven off-screen: recording from power-on and from the
//! middle of a game (pause menu and F7), the files replaying headless to the same frame hash,
//! playback from the Movies menu reaching the same picture whatever the player presses, and
//! the player's save file left alone while a movie plays.
#![cfg(feature = "host")]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::shell::{frames, tap};
use common::{kairo, root, temp_dir};
use kairo::hash::frame_hash_hex;
use kairo::host::shell::{Screen, Shell, movie_folder, movie_list};
use kairo::host::ui::UiAction;
use kairo::movie::Movie;

fn shell_on(cart: &str, data: &Path) -> Shell {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.set_data_dir(Some(data.to_path_buf()));
    shell.open(&root().join(cart));
    assert!(matches!(shell.screen, Screen::Playing));
    shell
}

/// The Movies screen's title, opened from the pause menu and closed again.
fn movies_title(shell: &mut Shell) -> String {
    open_movies(shell);
    let Screen::Movies(menu) = &shell.screen else {
        panic!("the movies menu: {:?}", shell.screen);
    };
    let title = menu.title.clone();
    shell.escape();
    shell.escape();
    assert!(matches!(shell.screen, Screen::Playing));
    title
}

/// Opens the pause menu's Movies screen and chooses the item doing `action`.
fn choose_in_movies(shell: &mut Shell, action: &UiAction) {
    open_movies(shell);
    let Screen::Movies(menu) = &shell.screen else {
        panic!("the movies menu: {:?}", shell.screen);
    };
    let at = menu
        .items
        .iter()
        .position(|(_, a)| a == action)
        .unwrap_or_else(|| panic!("{action:?} in {:?}", menu.items));
    for _ in 0..at {
        tap(shell, "ArrowDown");
    }
    tap(shell, "Enter");
}

fn open_movies(shell: &mut Shell) {
    shell.escape();
    let Screen::Paused(menu) = &shell.screen else {
        panic!("paused: {:?}", shell.screen);
    };
    let movies = menu
        .items
        .iter()
        .position(|(_, a)| *a == UiAction::Movies)
        .unwrap();
    for _ in 0..movies {
        tap(shell, "ArrowDown");
    }
    tap(shell, "Enter");
}

fn hash(shell: &Shell) -> String {
    frame_hash_hex(&shell.console().unwrap().rgba())
}

fn movies(shell: &Shell, data: &Path) -> Vec<PathBuf> {
    movie_list(&movie_folder(data, shell.console().unwrap()))
}

/// `kairo headless CART --input MOVIE --frames N --hash`'s hash.
fn headless_hash(cart: &str, movie: &Path, frames: usize) -> String {
    let (code, out, err) = kairo(
        &[
            "headless",
            cart,
            "--input",
            movie.to_str().unwrap(),
            "--frames",
            &frames.to_string(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    out.lines()
        .last()
        .and_then(|l| l.strip_prefix("hash "))
        .unwrap_or_else(|| panic!("a hash line: {out}"))
        .to_string()
}

#[test]
fn a_movie_recorded_from_power_on_replays_headless_and_in_the_window() {
    let data = temp_dir("movies-power-on");
    let mut shell = shell_on("carts/platformer", &data);
    frames(&mut shell, 40, &["ArrowRight"]);
    choose_in_movies(&mut shell, &UiAction::Record(true));
    assert!(matches!(shell.screen, Screen::Playing));
    // (The menu tap's second vblank already ran the game once.)
    assert_eq!(shell.console().unwrap().vblanks(), 1, "powered on again");
    frames(&mut shell, 20, &[]);
    frames(&mut shell, 2, &["Enter"]);
    frames(&mut shell, 120, &["ArrowRight"]);
    frames(&mut shell, 30, &["ArrowRight", "KeyZ"]);
    let recorded = shell.console().unwrap().vblanks() as usize;
    let end = hash(&shell);
    choose_in_movies(&mut shell, &UiAction::StopRecording);

    let files = movies(&shell, &data);
    assert_eq!(files.len(), 1, "{files:?}");
    let movie = Movie::load(&files[0]).unwrap();
    assert_eq!((movie.start, movie.ticks.len()), (0, recorded));
    assert_eq!(movie.cart, "Platformer");
    assert_eq!(headless_hash("carts/platformer", &files[0], recorded), end);

    // Played back from the menu: the player's keys change nothing, and the game waits on the
    // movie's last picture.
    frames(&mut shell, 50, &["ArrowLeft"]);
    choose_in_movies(&mut shell, &UiAction::PlayMovie(files[0].clone()));
    assert_eq!(shell.console().unwrap().vblanks(), 1);
    frames(&mut shell, recorded + 5, &["ArrowLeft", "KeyX"]);
    let Screen::Paused(menu) = &shell.screen else {
        panic!("playback finished: {:?}", shell.screen);
    };
    assert_eq!(menu.title, "PLAYBACK FINISHED");
    assert_eq!(shell.console().unwrap().vblanks() as usize, recorded);
    assert_eq!(hash(&shell), end);

    // Stopping powers the cart on again for the player.
    tap(&mut shell, "Enter");
    assert!(matches!(shell.screen, Screen::Playing));
    assert!(shell.console().unwrap().vblanks() <= 2);
}

#[test]
fn a_movie_recorded_from_here_holds_its_way_there_and_plays_from_its_start() {
    let data = temp_dir("movies-from-here");
    let mut shell = shell_on("carts/shmup", &data);
    frames(&mut shell, 30, &[]);
    frames(&mut shell, 2, &["Enter"]);
    frames(&mut shell, 100, &["ArrowLeft", "KeyZ"]);
    let start = shell.console().unwrap().vblanks() as usize;
    shell.toggle_recording();
    frames(&mut shell, 90, &["ArrowUp", "KeyZ"]);
    frames(&mut shell, 60, &["ArrowRight"]);
    let end = hash(&shell);
    let total = shell.console().unwrap().vblanks() as usize;
    shell.toggle_recording();

    let files = movies(&shell, &data);
    let movie = Movie::load(&files[0]).unwrap();
    assert_eq!((movie.start, movie.ticks.len()), (start, total));
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.starts_with("kairo-movie 3\n"), "{text}");
    assert_eq!(headless_hash("carts/shmup", &files[0], total), end);

    shell.play_movie(&files[0]);
    assert_eq!(
        shell.console().unwrap().vblanks() as usize,
        start,
        "the way to the start runs unseen"
    );
    frames(&mut shell, total - start, &[]);
    assert_eq!(hash(&shell), end);
    frames(&mut shell, 1, &[]);
    assert!(matches!(&shell.screen, Screen::Paused(m) if m.title == "PLAYBACK FINISHED"));
}

#[test]
fn rewinding_while_recording_cuts_the_movie_back() {
    let data = temp_dir("movies-rewind");
    let mut shell = shell_on("carts/platformer", &data);
    frames(&mut shell, 20, &[]);
    frames(&mut shell, 2, &["Enter"]);
    shell.toggle_recording();
    let start = shell.console().unwrap().vblanks() as usize;
    frames(&mut shell, 90, &["ArrowRight"]);
    shell.set_rewind_held(true);
    frames(&mut shell, 30, &[]);
    shell.set_rewind_held(false);
    frames(&mut shell, 40, &["ArrowLeft", "KeyZ"]);
    let end = hash(&shell);
    let total = shell.console().unwrap().vblanks() as usize;
    assert_eq!(total, start + 90 - 30 + 40);
    shell.toggle_recording();
    let file = &movies(&shell, &data)[0];
    assert_eq!(Movie::load(file).unwrap().ticks.len(), total);
    assert_eq!(headless_hash("carts/platformer", file, total), end);
}

#[test]
fn a_playback_never_stores_the_movies_save_ram_over_the_players() {
    const COUNTER: &str = "tests/carts/state_save_counter";
    const ID: &str = "kairo-test-save-counter";
    let data = temp_dir("movies-saves");
    let mut now = Instant::now();
    let mut shell = shell_on(COUNTER, &data);
    shell.record(false);
    for _ in 0..40 {
        now += Duration::from_millis(17);
        shell.vblank(now);
    }
    shell.stop_recording();
    let file = movies(&shell, &data)[0].clone();
    // The player's file: two runs counted (the recording's and this one).
    shell.retry();
    now += Duration::from_secs(2);
    shell.vblank(now);
    let players = kairo::savefile::load(&data, ID).data;
    assert_eq!(
        kairo::saveram::SaveRam::from_bytes(&players).slot(0),
        Ok(2.0)
    );

    shell.play_movie(&file);
    for _ in 0..120 {
        now += Duration::from_millis(17);
        shell.vblank(now);
    }
    let movie_ram = &shell.console().unwrap().machine().save();
    assert_eq!(
        movie_ram.slot(0),
        Ok(1.0),
        "the movie's game counts from its own"
    );
    assert_eq!(
        kairo::savefile::load(&data, ID).data,
        players,
        "nothing of the playback was stored"
    );
    shell.stop_playback();
    shell.vblank(now + Duration::from_secs(2));
    assert_eq!(
        kairo::saveram::SaveRam::from_bytes(&kairo::savefile::load(&data, ID).data).slot(0),
        Ok(3.0),
        "the player's game goes on from the player's save RAM"
    );
}

#[test]
fn movies_need_a_data_folder_and_a_movie_of_another_cart_is_refused() {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.open(&root().join("carts/platformer"));
    shell.toggle_recording();
    assert_eq!(
        shell.toast_text(),
        Some("No data folder: movies cannot be kept")
    );
    let data = temp_dir("movies-other-cart");
    shell.set_data_dir(Some(data.to_path_buf()));
    let other = data.join("other.kmv");
    std::fs::write(&other, "kairo-movie 2\ncart Shmup\n0000 *10\n").unwrap();
    let before = hash(&shell);
    shell.play_movie(&other);
    assert_eq!(shell.toast_text(), Some("That movie is of Shmup"));
    assert_eq!(hash(&shell), before, "the game was left as it was");
    assert!(movies(&shell, &data).is_empty());
    let broken = data.join("broken.kmv");
    std::fs::write(&broken, "kairo-movie 2\nnope\n").unwrap();
    shell.play_movie(&broken);
    assert_eq!(shell.toast_text(), Some("Movie not played: see the log"));
    assert!(matches!(shell.screen, Screen::Playing));
    assert_eq!(hash(&shell), before);
}

#[test]
fn loading_a_state_while_recording_keeps_a_movie_that_replays_from_power_on() {
    let data = temp_dir("movies-slots");
    let mut shell = shell_on("carts/platformer", &data);
    frames(&mut shell, 20, &[]);
    frames(&mut shell, 2, &["Enter"]);
    frames(&mut shell, 30, &["ArrowRight"]);
    shell.save_slot(0);
    frames(&mut shell, 40, &["ArrowRight", "KeyZ"]);
    shell.toggle_recording();
    frames(&mut shell, 30, &["ArrowRight"]);
    shell.load_slot(0);
    frames(&mut shell, 70, &["ArrowLeft"]);
    assert_eq!(movies_title(&mut shell), "MOVIES  REC 0:01");
    let end = hash(&shell);
    let total = shell.console().unwrap().vblanks() as usize;
    shell.toggle_recording();
    let file = &movies(&shell, &data)[0];
    let movie = Movie::load(file).unwrap();
    assert_eq!(movie.ticks.len(), total);
    assert_eq!(
        movie.start,
        total - 70,
        "the start went back with the state"
    );
    assert_eq!(headless_hash("carts/platformer", file, total), end);
}

#[test]
fn closing_the_window_or_switching_carts_writes_the_recording() {
    let data = temp_dir("movies-close");
    let mut shell = shell_on("carts/platformer", &data);
    shell.toggle_recording();
    frames(&mut shell, 30, &["ArrowRight"]);
    shell.store_saves();
    assert_eq!(
        movies(&shell, &data).len(),
        1,
        "written when the window closes"
    );
    shell.toggle_recording();
    frames(&mut shell, 30, &["ArrowLeft"]);
    let folder = movie_folder(&data, shell.console().unwrap());
    shell.open(&root().join("carts/shmup"));
    assert_eq!(
        movie_list(&folder).len(),
        2,
        "written when another cart opens"
    );
}
