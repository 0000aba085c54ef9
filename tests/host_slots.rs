//! Save-state slots in the window's shell, driven off-screen: the pause menu saves into a
//! slot and loads it back, the hot-key methods do the same, the slot list shows each slot's
//! age and thumbnail, and a loaded state goes on exactly as the game did after saving.
#![cfg(feature = "host")]

mod common;

use std::time::Instant;

use common::shell::{frames, tap};
use common::{root, temp_dir};
use kairo::host::shell::{Screen, Shell};
use kairo::saving::slots;
use kairo::session::Route;

fn playing_platformer(data: &std::path::Path) -> Shell {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.set_data_dir(Some(data.to_path_buf()));
    shell.open(&root().join("carts/platformer"));
    assert!(matches!(shell.screen, Screen::Playing));
    shell
}

fn picture(shell: &Shell) -> Vec<u8> {
    shell.console().unwrap().rgba()
}

#[test]
fn a_slot_saved_mid_stage_loads_back_and_goes_on_identically() {
    let data = temp_dir("slots-hotkeys");
    let mut shell = playing_platformer(&data);
    frames(&mut shell, 20, &[]);
    frames(&mut shell, 2, &["Enter"]);
    frames(&mut shell, 90, &["ArrowRight"]);
    shell.save_slot(2);
    let saved = picture(&shell);
    let vblanks = shell.console().unwrap().vblanks();
    frames(&mut shell, 60, &["ArrowRight", "KeyZ"]);
    let later = picture(&shell);
    assert_ne!(later, saved, "the hero moved on");

    shell.load_slot(2);
    assert_eq!(
        shell.last_load(),
        Some(Route::Memory),
        "saved by this process"
    );
    assert_eq!(shell.slot(), 2);
    assert_eq!(shell.console().unwrap().vblanks(), vblanks);
    assert_eq!(picture(&shell), saved);
    frames(&mut shell, 60, &["ArrowRight", "KeyZ"]);
    assert_eq!(
        picture(&shell),
        later,
        "the loaded game went on exactly as before"
    );

    // The slot has its thumbnail and time; the others are empty.
    let folder = slots::folder(&data, shell.console().unwrap().cart());
    let info = slots::info(&folder, 2);
    assert_eq!(slots::age(info.saved.unwrap()), "just now");
    assert_eq!(info.thumbnail.unwrap(), slots::thumbnail(&saved));
    assert_eq!(slots::info(&folder, 0), slots::SlotInfo::default());

    // Another window (another process, as far as memory goes) that played otherwise plays
    // the state's history again; the same window after a reset plays it on from power-on.
    let mut other = playing_platformer(&data);
    frames(&mut other, 10, &["ArrowLeft"]);
    other.load_slot(2);
    assert_eq!(other.last_load(), Some(Route::FullReplay));
    assert_eq!(picture(&other), saved);
    shell.escape();
    let Screen::Paused(menu) = &shell.screen else {
        panic!("paused");
    };
    let reset = menu.items.iter().position(|(l, _)| l == "Reset").unwrap();
    for _ in 0..reset {
        tap(&mut shell, "ArrowDown");
    }
    tap(&mut shell, "KeyZ");
    assert!(matches!(shell.screen, Screen::Playing));
    assert!(shell.console().unwrap().vblanks() < 5, "powered on again");
    shell.load_slot(2);
    assert_eq!(shell.last_load(), Some(Route::ThisRun));
    assert_eq!(picture(&shell), saved);
}

#[test]
fn the_pause_menu_saves_and_loads_through_the_slot_list() {
    let data = temp_dir("slots-menu");
    let mut shell = playing_platformer(&data);
    frames(&mut shell, 30, &[]);
    let saved = picture(&shell);
    // Escape, down to "Save state", A; the list starts at the hot keys' slot (1).
    shell.escape();
    tap(&mut shell, "ArrowDown");
    tap(&mut shell, "KeyZ");
    let Screen::Slots { menu, saving, .. } = &shell.screen else {
        panic!("the save list is shown");
    };
    assert!(*saving);
    assert_eq!(menu.items[0].0, "Slot 1  empty");
    shell.key("KeyZ", true);
    shell.vblank(Instant::now());
    shell.key("KeyZ", false);
    assert!(matches!(shell.screen, Screen::Playing));
    frames(&mut shell, 45, &[]);
    shell.escape();
    tap(&mut shell, "ArrowDown");
    tap(&mut shell, "ArrowDown");
    tap(&mut shell, "KeyZ");
    let Screen::Slots {
        menu,
        saving,
        infos,
    } = &shell.screen
    else {
        panic!("the load list is shown");
    };
    assert!(!*saving);
    assert_eq!(menu.items[0].0, "Slot 1  just now");
    let thumb = infos[0].thumbnail.clone().expect("a thumbnail");
    // The list draws the slot's thumbnail under it.
    let mut rgba = vec![0; 256 * 256 * 4];
    shell.draw(&mut rgba);
    let at = ((12 * 8 + 10) * 256 + 96 + 10) * 4;
    assert_eq!(
        &rgba[at..at + 3],
        &thumb[(10 * 64 + 10) * 3..(10 * 64 + 10) * 3 + 3]
    );
    shell.key("KeyZ", true);
    shell.vblank(Instant::now());
    shell.key("KeyZ", false);
    assert!(matches!(shell.screen, Screen::Playing));
    assert_eq!(picture(&shell), saved);
}

#[test]
fn without_a_data_folder_slots_say_so_and_nothing_breaks() {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.open(&root().join("carts/platformer"));
    frames(&mut shell, 5, &[]);
    let before = picture(&shell);
    shell.save_slot(0);
    shell.load_slot(0);
    assert_eq!(picture(&shell), before);
    assert!(matches!(shell.screen, Screen::Playing));
}
