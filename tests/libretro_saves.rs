//! The libretro core's save data (`libretro/src/saves.rs`), driven through its C ABI by the
//! test frontend ([`libretro_support`]): with a save folder from the frontend, each cart keeps
//! its own `kairo/<save_id>.ksav` there (the window's format, which `kairo headless --data`
//! reads) whatever its path, stored at once, then at most every second and at unload, never
//! by a state's replay; a damaged file is kept aside; an earlier core's `.srm` is imported
//! only when it can be this cart's alone; without a save folder the frontend's `SAVE_RAM` is
//! used, as before. The core is built (release) on first use, as for `tests/libretro.rs`.
#![cfg(all(
    feature = "host",
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod common;
mod libretro_support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{root, temp_dir};
use kairo::input::{Button, InputFrame};
use libretro_support::Frontend;

/// A cart that counts its power-ons in save RAM slot 0 and logs the count.
fn counting_cart(dir: &Path, save_id: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("cart.toml"),
        format!("name = \"Counter\"\nsave_id = \"{save_id}\"\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "local n = sd_get(0)\nlog('power-ons before: ' .. n)\nsd_set(0, n + 1)\n\
         function draw() print('count ' .. n, 8, 8, 7) end\n",
    )
    .unwrap();
    dir.to_path_buf()
}

/// Save RAM whose slot 0 holds `value`, as the frontend's 4096-byte `.srm` held it.
fn srm_with(value: f64) -> Vec<u8> {
    let mut bytes = vec![0; 4096];
    bytes[..8].copy_from_slice(&value.to_le_bytes());
    bytes
}

/// Slot 0 of the core's save file for `id` under the frontend's `saves` folder.
fn stored(saves: &Path, id: &str) -> Option<f64> {
    let bytes = std::fs::read(saves.join("kairo").join(format!("{id}.ksav"))).ok()?;
    let data = kairo::savefile::decode(id, &bytes).expect("a good save file");
    let mut slot = [0; 8];
    slot[..data.len().min(8)].copy_from_slice(&data[..data.len().min(8)]);
    Some(f64::from_le_bytes(slot))
}

/// Loads `cart`, runs a vblank and returns the count the counting cart logged, with the log.
fn power_ons(frontend: &Frontend, cart: &Path) -> (u32, Vec<String>) {
    assert!(frontend.load_game(cart), "{:?}", frontend.take_log());
    frontend.run(InputFrame::NONE);
    let log = frontend.take_log();
    let count = log
        .iter()
        .find_map(|l| l.strip_prefix("[Kairo] power-ons before: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count logged: {log:?}"));
    (count, log)
}

/// Every file name under `dir`, folders included, relative to it.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn each_cart_keeps_its_own_file_in_the_save_folder_whatever_its_path() {
    let dir = temp_dir("libretro-own-saves");
    // Two carts under a folder with a dot, where RetroArch names both `.srm`s `my.srm`.
    let first = counting_cart(&dir.join("my.games/first"), "test.first");
    let second = counting_cart(&dir.join("my.games/second"), "test.second");
    let saves = dir.join("saves");
    let frontend = Frontend::open();
    frontend.set_save_directory(Some(&saves));

    let (count, log) = power_ons(&frontend, &first);
    assert_eq!(count, 0);
    let file = saves.join("kairo/test.first.ksav");
    assert!(
        log.iter()
            .any(|l| l == &format!("[Kairo] save data: {}", file.display())),
        "{log:?}"
    );
    assert!(
        frontend.save_ram().is_none(),
        "no SAVE_RAM for the frontend"
    );
    // Stored at once, atomically: the file and nothing else (no temporary file left).
    assert_eq!(stored(&saves, "test.first"), Some(1.0));
    assert_eq!(files(&saves), ["kairo", "kairo/test.first.ksav"]);
    frontend.unload_game();

    assert_eq!(power_ons(&frontend, &second.join("cart.toml")).0, 0);
    frontend.unload_game();
    assert_eq!(power_ons(&frontend, &first).0, 1);
    frontend.unload_game();
    assert_eq!(stored(&saves, "test.first"), Some(2.0));
    assert_eq!(stored(&saves, "test.second"), Some(1.0));
    assert!(
        files(&saves).iter().all(|f| !f.ends_with(".srm")),
        "{:?}",
        files(&saves)
    );

    // The window's file and format: `kairo headless --data` reads it.
    let (code, out, err) = common::kairo(
        &[
            "headless",
            &first.to_string_lossy(),
            "--data",
            &saves.join("kairo").to_string_lossy(),
            "--frames",
            "1",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("power-ons before: 2"), "{out}");

    // A cart without a save_id keeps nothing.
    let plain = dir.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::write(plain.join("cart.toml"), "name = \"Plain\"\n").unwrap();
    std::fs::write(plain.join("main.lua"), "sd_set(0, 1)\n").unwrap();
    assert!(frontend.load_game(&plain));
    frontend.run(InputFrame::NONE);
    frontend.unload_game();
    assert!(frontend.save_ram().is_none());
    assert_eq!(
        files(&saves),
        [
            "kairo",
            "kairo/test.first.ksav",
            "kairo/test.first.ksav.bak",
            "kairo/test.second.ksav"
        ]
    );
}

#[test]
fn save_ram_is_stored_at_once_then_at_most_every_second_and_at_unload() {
    let dir = temp_dir("libretro-store-pace");
    let cart = dir.join("ticker");
    std::fs::create_dir_all(&cart).unwrap();
    std::fs::write(
        cart.join("cart.toml"),
        "name = \"Ticker\"\nsave_id = \"test.ticker\"\n",
    )
    .unwrap();
    // Writes save RAM every frame: slot 0 = frames since power-on.
    std::fs::write(
        cart.join("main.lua"),
        "local n = 0\nfunction update() n = n + 1 sd_set(0, n) end\n",
    )
    .unwrap();
    let saves = dir.join("saves");
    let frontend = Frontend::open();
    frontend.set_save_directory(Some(&saves));
    assert!(frontend.load_game(&cart));
    let started = Instant::now();
    frontend.run(InputFrame::NONE);
    assert_eq!(stored(&saves, "test.ticker"), Some(1.0), "stored at once");
    for _ in 1..30 {
        frontend.run(InputFrame::NONE);
    }
    if started.elapsed() < Duration::from_millis(900) {
        assert_eq!(
            stored(&saves, "test.ticker"),
            Some(1.0),
            "not again within a second"
        );
    }
    std::thread::sleep(Duration::from_millis(1100));
    frontend.run(InputFrame::NONE);
    assert_eq!(stored(&saves, "test.ticker"), Some(31.0), "a second later");
    for _ in 0..5 {
        frontend.run(InputFrame::NONE);
    }
    frontend.unload_game();
    assert_eq!(stored(&saves, "test.ticker"), Some(36.0), "at unload");
    assert!(
        frontend
            .take_log()
            .iter()
            .all(|l| !l.contains("cannot store")),
        "stores succeed"
    );
}

#[test]
fn a_damaged_save_file_is_kept_aside_and_the_cart_starts_with_empty_save_ram() {
    let dir = temp_dir("libretro-damaged-save");
    let cart = counting_cart(&dir.join("counter"), "test.damaged");
    let saves = dir.join("saves");
    std::fs::create_dir_all(saves.join("kairo")).unwrap();
    let file = saves.join("kairo/test.damaged.ksav");
    std::fs::write(&file, b"KAIROSAV, cut short").unwrap();
    let frontend = Frontend::open();
    frontend.set_save_directory(Some(&saves));
    let (count, log) = power_ons(&frontend, &cart);
    assert_eq!(count, 0);
    let note = log
        .iter()
        .find(|l| l.starts_with("note:") && l.contains("test.damaged.ksav"))
        .unwrap_or_else(|| panic!("a note on screen: {log:?}"));
    assert!(
        note.contains("save RAM starts empty") && note.contains("test.damaged.ksav.damaged"),
        "{note}"
    );
    let kept = saves.join("kairo/test.damaged.ksav.damaged");
    assert_eq!(std::fs::read(&kept).unwrap(), b"KAIROSAV, cut short");
    // The game's next write makes a good file; the damaged one stays as it was.
    assert_eq!(stored(&saves, "test.damaged"), Some(1.0));
    frontend.unload_game();
    assert_eq!(power_ons(&frontend, &cart).0, 1);
    assert_eq!(std::fs::read(&kept).unwrap(), b"KAIROSAV, cut short");
}

#[test]
fn an_earlier_cores_srm_is_imported_once_when_it_can_only_be_this_carts() {
    let dir = temp_dir("libretro-import");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let frontend = Frontend::open();
    frontend.set_save_directory(Some(&saves));

    // A packed cart: RetroArch named its save after the file (`counter.srm`), dots in the
    // folders above or not.
    let source = counting_cart(&dir.join("source"), "test.import");
    let kcart = dir.join("carts.v2/counter.kcart");
    std::fs::create_dir_all(kcart.parent().unwrap()).unwrap();
    let (code, _, err) = common::kairo(
        &[
            "pack",
            &source.to_string_lossy(),
            "-o",
            &kcart.to_string_lossy(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let srm = saves.join("counter.srm");
    std::fs::write(&srm, srm_with(5.0)).unwrap();
    let (count, log) = power_ons(&frontend, &kcart);
    assert_eq!(count, 5, "{log:?}");
    assert!(
        log.iter()
            .any(|l| l.contains("imported") && l.contains("counter.srm")),
        "{log:?}"
    );
    frontend.unload_game();
    assert_eq!(
        std::fs::read(&srm).unwrap(),
        srm_with(5.0),
        "left as it was"
    );
    // Once: the core's own file is read from now on.
    std::fs::write(&srm, srm_with(9.0)).unwrap();
    assert_eq!(power_ons(&frontend, &kcart).0, 6);
    frontend.unload_game();

    // Under `my.games/`, RetroArch named every cart's save `my.srm`: not imported.
    let shared = counting_cart(&dir.join("my.games/counter"), "test.shared");
    let my_srm = saves.join("my.srm");
    std::fs::write(&my_srm, srm_with(7.0)).unwrap();
    let (count, log) = power_ons(&frontend, &shared);
    assert_eq!(count, 0);
    let line = log
        .iter()
        .find(|l| l.contains("my.srm was not imported"))
        .unwrap_or_else(|| panic!("{log:?}"));
    assert!(
        line.contains("my.games") && line.contains("kairo/test.shared.srm"),
        "{line}"
    );
    frontend.unload_game();
    assert_eq!(std::fs::read(&my_srm).unwrap(), srm_with(7.0));

    // Every cart loaded through its cart.toml saved as `cart.srm`: not imported either.
    let by_toml = counting_cart(&dir.join("bytoml"), "test.bytoml");
    std::fs::write(saves.join("cart.srm"), srm_with(3.0)).unwrap();
    let (count, log) = power_ons(&frontend, &by_toml.join("cart.toml"));
    assert_eq!(count, 0);
    assert!(
        log.iter().any(|l| l.contains("cart.srm was not imported")),
        "{log:?}"
    );
    frontend.unload_game();

    // The player copied the file to `kairo/<save_id>.srm`: imported, whatever the path.
    let copied = counting_cart(&dir.join("my.games/copied"), "test.copied");
    std::fs::create_dir_all(saves.join("kairo")).unwrap();
    std::fs::write(saves.join("kairo/test.copied.srm"), srm_with(7.0)).unwrap();
    assert_eq!(power_ons(&frontend, &copied).0, 7);
}

#[test]
fn a_states_replay_never_writes_the_save_file() {
    let dir = temp_dir("libretro-replay-file");
    let cart = dir.join("best");
    std::fs::create_dir_all(&cart).unwrap();
    std::fs::write(
        cart.join("cart.toml"),
        "name = \"Best\"\nsave_id = \"test.best-file\"\n",
    )
    .unwrap();
    // 600 when A is held, else 100; stored in slot 0 at frame 20 when it beats the best.
    std::fs::write(
        cart.join("main.lua"),
        "local best, score = sd_get(0), 100\n\
         function update()\n\
           if btn('a') then score = 600 end\n\
           if frame() == 20 and score > best then sd_set(0, score) best = score end\n\
         end\n",
    )
    .unwrap();
    let saves = dir.join("saves");
    let frontend = Frontend::open();
    frontend.set_save_directory(Some(&saves));
    assert!(frontend.load_game(&cart));
    for _ in 0..5 {
        frontend.run(InputFrame::NONE);
    }
    // A state from before any score was stored: its run powered on with empty save RAM.
    let state = frontend.serialize().expect("a state");
    for _ in 5..30 {
        frontend.run(InputFrame::player1(Button::A.bit()));
    }
    assert_eq!(stored(&saves, "test.best-file"), Some(600.0));
    // Run-ahead's pattern over it: save, run ahead, load back, every vblank.
    for _ in 0..30 {
        let here = frontend.serialize().expect("a state");
        frontend.run(InputFrame::NONE);
        frontend.run(InputFrame::NONE);
        assert!(frontend.unserialize(&here));
        frontend.run(InputFrame::NONE);
    }
    // The old state, in this session and in a new one (played again from power-on).
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    frontend.run(InputFrame::NONE);
    frontend.unload_game();
    assert_eq!(stored(&saves, "test.best-file"), Some(600.0));
    assert!(frontend.load_game(&cart));
    frontend.run(InputFrame::NONE);
    assert!(frontend.unserialize(&state), "{:?}", frontend.take_log());
    for _ in 0..3 {
        frontend.run(InputFrame::NONE);
    }
    frontend.unload_game();
    assert_eq!(stored(&saves, "test.best-file"), Some(600.0));
}

#[test]
fn without_a_save_folder_the_frontends_save_ram_holds_the_data_and_the_log_says_so() {
    let dir = temp_dir("libretro-no-save-folder");
    let cart = counting_cart(&dir.join("counter"), "test.fallback");
    let frontend = Frontend::open();
    frontend.set_save_directory(None);
    let (count, log) = power_ons(&frontend, &cart);
    assert_eq!(count, 0);
    assert!(
        log.iter().any(|l| l.contains("gives no save folder")),
        "{log:?}"
    );
    let ram = frontend.save_ram().expect("the frontend's SAVE_RAM");
    assert_eq!(ram, srm_with(1.0));
    frontend.unload_game();
    assert_eq!(
        files(&dir),
        ["counter", "counter/cart.toml", "counter/main.lua"]
    );
}
