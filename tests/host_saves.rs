//! The window's shell keeps a cart's save RAM: read when the cart starts, stored soon after it
//! changes (at most once a second) and when the cart is closed, so the shmup's high score
//! survives a restart, a retry and a damaged file. Driven off-screen, with a simulated clock.
#![cfg(feature = "host")]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{root, temp_dir};
use kairo::host::shell::{Screen, Shell};
use kairo::saveram::SaveRam;

const COUNTER: &str = "tests/carts/state_save_counter";

fn shell(data: &Path) -> Shell {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.set_data_dir(Some(data.to_path_buf()));
    shell
}

fn slot0(shell: &Shell) -> f64 {
    shell
        .console()
        .expect("a cart runs")
        .machine()
        .save()
        .slot(0)
        .unwrap()
}

fn stored(data: &Path, id: &str) -> SaveRam {
    SaveRam::from_bytes(&kairo::savefile::load(data, id).data)
}

#[test]
fn save_ram_is_stored_soon_after_it_changes_and_read_at_the_next_start() {
    let data = temp_dir("host-saves");
    let mut now = Instant::now();
    let mut first = shell(&data);
    first.open(&root().join(COUNTER));
    assert!(matches!(first.screen, Screen::Playing));
    assert_eq!(slot0(&first), 1.0, "init counted the first run");
    // The first change is stored at the next vblank, without waiting for the cart to close.
    first.vblank(now);
    assert_eq!(stored(&data, "kairo-test-save-counter").slot(0), Ok(1.0));
    // Frame 29 writes the record table: stored within a second of simulated time.
    for _ in 0..90 {
        now += Duration::from_micros(16_667);
        first.vblank(now);
    }
    let record = stored(&data, "kairo-test-save-counter");
    assert_eq!(
        record.value_area(),
        first.console().unwrap().machine().save().value_area()
    );
    assert_ne!(record.value_area()[0], 0, "the record table is on disk");
    drop(first);

    let mut second = shell(&data);
    second.open(&root().join(COUNTER));
    assert_eq!(
        slot0(&second),
        2.0,
        "the second start read the first one's save RAM"
    );
    drop(second);
    assert_eq!(stored(&data, "kairo-test-save-counter").slot(0), Ok(2.0));
}

#[test]
fn the_shmup_high_score_survives_a_restart_and_a_damaged_file() {
    let data = temp_dir("host-hiscore");
    // An earlier session's high score (tests/save_data.rs shows the cart writing it).
    let mut earlier = SaveRam::default();
    earlier.set_slot(0, 123_450.0).unwrap();
    kairo::savefile::store(&data, "kairo.nova-lance", earlier.used()).unwrap();
    let mut first = shell(&data);
    first.open(&root().join("carts/shmup"));
    assert_eq!(slot0(&first), 123_450.0);
    drop(first);

    // A later store, then damage: the previous good copy comes back.
    let mut later = SaveRam::default();
    later.set_slot(0, 150_000.0).unwrap();
    kairo::savefile::store(&data, "kairo.nova-lance", later.used()).unwrap();
    let file = data.join("kairo.nova-lance.ksav");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
    let mut second = shell(&data);
    second.open(&root().join("carts/shmup"));
    assert_eq!(slot0(&second), 123_450.0, "the previous copy came back");
    assert!(data.join("kairo.nova-lance.ksav.damaged").exists());
}

#[test]
fn a_retry_keeps_save_ram_without_a_data_folder_too() {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.open(&root().join(COUNTER));
    assert_eq!(slot0(&shell), 1.0);
    // Reopening the same cart in the same session (a retry, a reload) powers on again with
    // the RAM it had: the counter goes on.
    shell.retry();
    assert_eq!(slot0(&shell), 2.0);
}

#[test]
fn a_write_not_yet_stored_is_stored_before_a_slot_loads_and_the_states_past_is_not() {
    let data = temp_dir("host-saves-slot");
    let mut now = Instant::now();
    let mut shell = shell(&data);
    shell.open(&root().join(COUNTER));
    shell.vblank(now);
    for _ in 0..4 {
        now += Duration::from_micros(16_667);
        shell.vblank(now);
    }
    shell.save_slot(0);
    // Frame 29 writes the record table; within a second of the first store, so it waits.
    for _ in 0..30 {
        now += Duration::from_micros(16_667);
        shell.vblank(now);
    }
    let id = "kairo-test-save-counter";
    assert_eq!(stored(&data, id).value_area()[0], 0, "the write is paced");
    let written = shell
        .console()
        .unwrap()
        .machine()
        .save()
        .value_area()
        .to_vec();
    shell.load_slot(0);
    assert_eq!(
        stored(&data, id).value_area(),
        &written[..],
        "the player's write was stored before the state came back"
    );
    // The state's save RAM (before frame 29) is not stored over it, however long it runs
    // before the game writes again.
    assert_eq!(shell.console().unwrap().machine().save().value_area()[0], 0);
    for _ in 0..10 {
        now += Duration::from_millis(500);
        shell.vblank(now);
    }
    assert_eq!(stored(&data, id).value_area(), &written[..]);
}
