//! The console shell driven the way a player drives it: keys and pad events, vblank by
//! vblank — browser, pause menu, error screen, hot reload and the remap screen.
#![cfg(feature = "host")]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::shell::tap;
use common::{TempDir, root, temp_dir};
use kairo::host::input_map::PadEvent;
use kairo::host::shell::{Screen, Shell};
use kairo::input::Button;

/// A shell on the bundled carts, with a fresh config folder (removed when the folder's guard
/// drops).
fn shell(name: &str) -> (Shell, TempDir) {
    let config = temp_dir(name).within("config");
    (
        Shell::new(root().join("carts"), Some(config.to_path_buf())),
        config,
    )
}

fn menu_labels(shell: &Shell) -> Vec<String> {
    match &shell.screen {
        Screen::Browser(m) | Screen::Paused(m) | Screen::RemapPick(m) => {
            m.items.iter().map(|i| i.0.clone()).collect()
        }
        Screen::Error { menu, .. } => menu.items.iter().map(|i| i.0.clone()).collect(),
        _ => Vec::new(),
    }
}

/// Moves the menu selection to `label` and chooses it.
fn choose(shell: &mut Shell, label: &str) {
    let labels = menu_labels(shell);
    let index = labels
        .iter()
        .position(|l| l == label)
        .unwrap_or_else(|| panic!("no `{label}` in {labels:?}"));
    let selected = match &shell.screen {
        Screen::Browser(m) | Screen::Paused(m) | Screen::RemapPick(m) => m.selected,
        Screen::Error { menu, .. } => menu.selected,
        _ => panic!("no menu"),
    };
    for _ in selected..index {
        tap(shell, "ArrowDown");
    }
    tap(shell, "KeyZ");
}

#[test]
fn the_browser_opens_a_cart_and_the_pause_menu_resets_it() {
    let (mut shell, _config) = shell("browser");
    assert!(matches!(shell.screen, Screen::Browser(_)));
    assert!(
        menu_labels(&shell)
            .iter()
            .any(|l| l.starts_with("Platformer"))
    );
    choose(&mut shell, "Platformer - Kairo team");
    assert!(matches!(shell.screen, Screen::Playing));
    assert_eq!(shell.title(), "Platformer - Kairo");

    for _ in 0..30 {
        shell.key("ArrowRight", true);
        shell.vblank(Instant::now());
    }
    shell.key("ArrowRight", false);
    let moved = shell.console().unwrap().machine().video().oam()[0].x;
    shell.escape();
    assert!(matches!(shell.screen, Screen::Paused(_)));
    let frame = shell.console().unwrap().machine().frame();
    shell.vblank(Instant::now());
    assert_eq!(
        shell.console().unwrap().machine().frame(),
        frame,
        "paused: the game does not run"
    );
    choose(&mut shell, "Reset");
    assert!(matches!(shell.screen, Screen::Playing));
    shell.vblank(Instant::now());
    assert!(
        shell.console().unwrap().machine().video().oam()[0].x < moved,
        "reset puts the hero back"
    );

    let mut rgba = vec![0; 256 * 256 * 4];
    shell.draw(&mut rgba);
    assert!(
        rgba.chunks(4).any(|p| p[..3] != [0, 0, 0]),
        "the game is drawn"
    );
}

#[test]
fn a_faulting_cart_shows_the_error_screen_and_goes_back_to_the_browser() {
    let (mut shell, _config) = shell("fault");
    shell.open(&root().join("tests/carts/runtime_error"));
    shell.vblank(Instant::now());
    let Screen::Error { message, .. } = &shell.screen else {
        panic!("expected the error screen");
    };
    assert!(
        message.starts_with("main.lua:3: attempt to index a nil value"),
        "{message}"
    );
    assert_eq!(
        menu_labels(&shell),
        ["Retry", "Run last good version", "Back to browser", "Quit"]
    );
    let mut rgba = vec![0; 256 * 256 * 4];
    shell.draw(&mut rgba);
    choose(&mut shell, "Back to browser");
    assert!(matches!(shell.screen, Screen::Browser(_)));
    choose(&mut shell, "Quit");
    assert!(shell.quit_requested());
}

#[test]
fn a_cart_that_cannot_load_offers_no_last_good_version() {
    let (mut shell, _config) = shell("noload");
    shell.open(&root().join("tests/carts/bad_toml"));
    assert_eq!(menu_labels(&shell), ["Retry", "Back to browser", "Quit"]);
}

fn write_cart(dir: &Path, main: &str) {
    std::fs::write(dir.join("cart.toml"), "name = \"Reload\"\n").unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
}

fn wait_for(shell: &mut Shell, done: impl Fn(&Shell) -> bool) {
    let start = Instant::now();
    while !done(shell) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no reload within 10 s"
        );
        std::thread::sleep(Duration::from_millis(30));
        shell.vblank(Instant::now());
    }
}

#[test]
fn a_folder_cart_reloads_when_saved_and_a_bad_save_keeps_the_last_good_one() {
    let dir = temp_dir("reload").within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    write_cart(&dir, "function draw() print('one', 0, 0) end");
    let (mut shell, _config) = shell("reload-config");
    shell.open(&dir);
    assert!(matches!(shell.screen, Screen::Playing));

    std::thread::sleep(Duration::from_millis(100));
    write_cart(&dir, "function draw( print('broken' end");
    wait_for(&mut shell, |s| matches!(s.screen, Screen::Error { .. }));
    let Screen::Error { message, .. } = &shell.screen else {
        unreachable!()
    };
    assert!(message.contains("main.lua:1:"), "{message}");

    choose(&mut shell, "Run last good version");
    assert!(matches!(shell.screen, Screen::Playing));

    write_cart(&dir, "function init() log('two') end");
    wait_for(&mut shell, |s| {
        s.console()
            .is_some_and(|c| c.cart().scripts["main.lua"].contains("two"))
    });
    assert!(matches!(shell.screen, Screen::Playing));
}

#[test]
fn remapping_the_keyboard_is_saved_and_used() {
    let base = temp_dir("remap");
    let config = base.join("config");
    let mut shell = Shell::new(root().join("carts"), Some(config.clone()));
    shell.open(&root().join("carts/platformer"));
    shell.escape();
    choose(&mut shell, "Remap controls");
    assert_eq!(menu_labels(&shell)[0], "Keyboard");
    tap(&mut shell, "KeyZ");
    assert!(matches!(shell.screen, Screen::Remap(_)));
    // One key per console button, in button order; Escape keeps the old binding of `up`.
    let keys = [
        "KeyJ", "KeyL", "Escape", "KeyK", "KeyN", "KeyM", "KeyU", "KeyI", "KeyO", "KeyP", "Space",
        "Tab",
    ];
    for key in keys {
        if key == "Escape" {
            shell.escape();
        } else {
            shell.key(key, true);
            shell.key(key, false);
        }
    }
    assert!(
        matches!(shell.screen, Screen::Paused(_)),
        "back to the pause menu"
    );
    let saved = std::fs::read_to_string(config.join("input.toml")).unwrap();
    assert!(saved.contains("KeyJ = \"left\""), "{saved}");
    assert!(saved.contains("ArrowUp = \"up\""), "{saved}");

    assert_eq!(shell.mapper.keyboard.button("KeyN"), Some(Button::A));
    assert_eq!(shell.mapper.keyboard.button("KeyZ"), None);
    // A new shell reads the saved bindings.
    let again = Shell::new(root().join("carts"), Some(config));
    assert_eq!(again.mapper.keyboard.button("KeyN"), Some(Button::A));
}

#[test]
fn a_pad_plugged_in_mid_game_plays_the_next_player_and_pauses_with_start_select() {
    let (mut shell, _config) = shell("pads");
    shell.open(&root().join("carts/platformer"));
    shell.pad_event(PadEvent::Connected {
        pad: 4,
        uuid: "u".into(),
        name: "Test Pad".into(),
    });
    shell.pad_event(PadEvent::Connected {
        pad: 5,
        uuid: "u".into(),
        name: "Test Pad".into(),
    });
    assert_eq!(shell.mapper.pads()[1].0, 1, "second pad is player 2");
    for control in ["Start", "Select"] {
        shell.pad_event(PadEvent::Button {
            pad: 5,
            control: control.into(),
            down: true,
        });
    }
    shell.vblank(Instant::now());
    assert!(matches!(shell.screen, Screen::Paused(_)));
}

#[test]
fn debug_pause_steps_single_frames_and_fast_forward_runs_four() {
    let (mut shell, _config) = shell("debug");
    shell.open(&root().join("carts/platformer"));
    let frame = |s: &Shell| s.console().unwrap().machine().frame();
    shell.vblank(Instant::now());
    assert_eq!(frame(&shell), 1);
    shell.toggle_debug_pause();
    shell.vblank(Instant::now());
    shell.vblank(Instant::now());
    assert_eq!(frame(&shell), 1, "debug pause holds the game");
    shell.step();
    shell.vblank(Instant::now());
    shell.vblank(Instant::now());
    assert_eq!(frame(&shell), 2, "one step, one frame");
    shell.toggle_debug_pause();
    shell.set_fast_forward(true);
    shell.vblank(Instant::now());
    assert_eq!(frame(&shell), 6);
}

#[test]
fn screenshots_are_saved_as_png_in_the_screenshot_folder() {
    let (mut shell, _config) = shell("shots");
    let dir = temp_dir("shots-out").within("pictures");
    shell.set_screenshot_dir(dir.to_path_buf());
    shell.open(&root().join("carts/platformer"));
    shell.vblank(Instant::now());
    shell.screenshot();
    shell.screenshot();
    for n in [1, 2] {
        let path = dir.join(format!("kairo-platformer-{n}.png"));
        let bytes = std::fs::read(&path).unwrap_or_else(|_| panic!("{} missing", path.display()));
        assert_eq!(&bytes[1..4], b"PNG");
    }
}

#[test]
fn f3_cycles_the_profiler_and_a_frozen_graph_has_a_cursor() {
    use kairo::profiling::overlay::OverlayMode;
    let (mut shell, _config) = shell("profiler");
    shell.open(&root().join("carts/platformer"));
    let profiling = |s: &Shell| s.console().unwrap().profiling();
    assert!(!profiling(&shell));
    shell.cycle_profiler();
    assert_eq!(shell.profiler().unwrap().mode, OverlayMode::Full);
    assert!(profiling(&shell));
    for _ in 0..10 {
        shell.vblank(Instant::now());
    }
    let profiler = shell.profiler().unwrap();
    assert_eq!(profiler.history.len(), 10, "one profile per frame");
    assert_eq!(profiler.history.last().unwrap().frame, 9);

    // F5 freezes the graph; Left/Right move the cursor over the frames kept.
    shell.toggle_debug_pause();
    tap(&mut shell, "ArrowLeft");
    tap(&mut shell, "ArrowLeft");
    let profiler = shell.profiler().unwrap();
    assert_eq!(profiler.history.len(), 10, "frozen");
    assert_eq!(profiler.cursor, Some(7));
    for _ in 0..20 {
        tap(&mut shell, "ArrowLeft");
    }
    assert_eq!(
        shell.profiler().unwrap().cursor,
        Some(0),
        "stops at the oldest"
    );
    // The picture shows the cursor's frame: drawn differently from the newest frame's.
    let mut at_cursor = vec![0; 256 * 256 * 4];
    shell.draw(&mut at_cursor);
    // F6 runs one more frame and the cursor follows the newest again.
    shell.step();
    shell.vblank(Instant::now());
    let profiler = shell.profiler().unwrap();
    assert_eq!(profiler.history.len(), 11);
    assert_eq!(profiler.cursor, None);
    let mut newest = vec![0; 256 * 256 * 4];
    shell.draw(&mut newest);
    assert_ne!(at_cursor, newest);
    shell.toggle_debug_pause();

    shell.cycle_profiler();
    assert_eq!(shell.profiler().unwrap().mode, OverlayMode::Compact);
    shell.cycle_profiler();
    assert!(shell.profiler().is_none());
    assert!(!profiling(&shell), "profiling stops with the overlay");

    // The pause menu turns it on too, and a reset keeps it on.
    shell.escape();
    choose(&mut shell, "Profiler on/off");
    assert!(matches!(shell.screen, Screen::Playing));
    assert!(shell.profiler().is_some() && profiling(&shell));
    shell.escape();
    choose(&mut shell, "Reset");
    assert!(profiling(&shell), "reset keeps profiling");
}

#[test]
fn the_loaders_warnings_show_on_screen_when_a_cart_starts() {
    // An indexed sheet whose index 0 is opaque (no tRNS): drawn, with a warning.
    let dir = temp_dir("shell-warning-cart").within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, 8, 8);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(vec![255, 0, 255, 10, 200, 30]);
        let data: Vec<u8> = (0..64).map(|i| (i % 2) as u8).collect();
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&data)
            .unwrap();
    }
    std::fs::write(dir.join("s.png"), png_bytes).unwrap();
    std::fs::write(
        dir.join("cart.toml"),
        "name = 'warned'\n[[sheet]]\nfile = 's.png'\npalette = 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), "function draw() end").unwrap();
    let (mut shell, _config) = shell("shell-warning");
    shell.open(&dir);
    assert!(
        matches!(shell.screen, Screen::Playing),
        "{:?}",
        shell.screen
    );
    let toast = shell.toast_text().expect("a note on screen").to_string();
    assert!(
        toast.starts_with("Warning: s.png: palette index 0 (#ff00ff) is opaque"),
        "{toast}"
    );
    // It stays up for a while, then goes.
    for _ in 0..240 {
        shell.vblank(Instant::now());
    }
    assert!(shell.toast_text().is_some(), "still up after 4 s");
    for _ in 0..300 {
        shell.vblank(Instant::now());
    }
    assert!(shell.toast_text().is_none());
}

#[test]
fn saving_an_aseprite_sheet_reloads_the_cart_with_its_new_frames() {
    let dir = temp_dir("reload-aseprite").within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    let art = root().join("tests/aseprite");
    std::fs::write(
        dir.join("cart.toml"),
        "name = \"Reload art\"\n[[sheet]]\nfile = \"hero.aseprite\"\ntile = 0\npalette = 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), "function update() end").unwrap();
    std::fs::copy(
        art.join("bevy-jam-002/enemy.aseprite"),
        dir.join("hero.aseprite"),
    )
    .unwrap();
    let (mut shell, _config) = shell("reload-aseprite-config");
    shell.open(&dir);
    assert!(matches!(shell.screen, Screen::Playing));
    let frames = |s: &Shell| {
        s.console()
            .map(|c| c.cart().sheets["hero.aseprite"].frames.len())
    };
    assert_eq!(frames(&shell), Some(2));

    // The artist saves another sprite over it: 1 frame of 4x5 px.
    std::thread::sleep(Duration::from_millis(100));
    std::fs::copy(
        art.join("pocket_daemons/menu_pointer.aseprite"),
        dir.join("hero.aseprite"),
    )
    .unwrap();
    wait_for(&mut shell, |s| frames(s) == Some(1));
    assert!(matches!(shell.screen, Screen::Playing));
}

#[test]
fn a_pico8_carts_menu_items_are_in_the_pause_menu_and_choosing_one_calls_it() {
    let dir = temp_dir("pico8-menu").within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("cart.toml"),
        "name = \"Menu\"\nplane = \"canvas\"\n[pico8]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "function _init() menuitem(1, \"restart level\", function(b) poke(0x4300, b) end) \
         menuitem(2, \"gone\") menuitem(2) end\n\
         function _update() end\n",
    )
    .unwrap();
    let (mut shell, _config) = shell("pico8-menu-config");
    shell.open(&dir);
    assert!(matches!(shell.screen, Screen::Playing));
    shell.vblank(Instant::now());
    shell.escape();
    assert_eq!(
        menu_labels(&shell)[..3],
        ["Resume", "RESTART LEVEL", "Save state"]
    );
    choose(&mut shell, "RESTART LEVEL");
    assert!(matches!(shell.screen, Screen::Playing));
    let chosen = |shell: &Shell| {
        shell
            .console()
            .unwrap()
            .machine()
            .pico8()
            .unwrap()
            .peek(0x4300)
    };
    assert_eq!(chosen(&shell), 0);
    for _ in 0..2 {
        shell.vblank(Instant::now());
    }
    assert_eq!(chosen(&shell), 32, "the callback ran with b = 32");
}
