//! The window's debug menu, driven off-screen: F8 opens it over the game, A toggles each
//! overlay, the overlays show in the window's picture while the console's own picture, and so
//! its hashes, stay exactly those of a game shown without them.
#![cfg(feature = "host")]

mod common;

use common::root;
use common::shell::{frames, tap};
use kairo::host::shell::{Screen, Shell};
use kairo::views::overlays::Overlay;

fn platformer() -> Shell {
    let mut shell = Shell::new(root().join("carts"), None);
    shell.open(&root().join("carts/platformer"));
    frames(&mut shell, 20, &[]);
    frames(&mut shell, 2, &["Enter"]);
    frames(&mut shell, 40, &["ArrowRight"]);
    shell
}

fn labels(shell: &Shell) -> Vec<String> {
    match &shell.screen {
        Screen::Debug(menu) => menu.items.iter().map(|(l, _)| l.clone()).collect(),
        other => panic!("the debug menu: {other:?}"),
    }
}

#[test]
fn f8_toggles_overlays_that_leave_the_game_untouched() {
    let mut shell = platformer();
    let mut plain = platformer();
    shell.toggle_debug_menu();
    assert_eq!(labels(&shell)[0], "[ ] Collision cells");
    tap(&mut shell, "Enter");
    for _ in 0..3 {
        tap(&mut shell, "ArrowDown");
    }
    tap(&mut shell, "Enter");
    assert_eq!(shell.overlays(), [Overlay::Collision, Overlay::Hitboxes]);
    assert_eq!(labels(&shell)[0], "[x] Collision cells");
    assert_eq!(labels(&shell)[3], "[x] Hitboxes");
    shell.toggle_debug_menu();
    assert!(matches!(shell.screen, Screen::Playing));

    frames(&mut shell, 30, &["ArrowRight", "KeyZ"]);
    frames(&mut plain, 30, &["ArrowRight", "KeyZ"]);
    let game = shell.console().unwrap().rgba();
    assert_eq!(
        game,
        plain.console().unwrap().rgba(),
        "the game is the same"
    );
    let mut shown = vec![0; game.len()];
    shell.draw(&mut shown);
    let changed = shown
        .chunks(4)
        .zip(game.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 2000, "{changed} pixels show the overlays");

    // From the pause menu too; B goes back to it. Toggled off, the picture is the game's.
    shell.escape();
    let Screen::Paused(menu) = &shell.screen else {
        panic!("paused");
    };
    let debug = menu
        .items
        .iter()
        .position(|(l, _)| l == "Debug overlays")
        .unwrap();
    for _ in 0..debug {
        tap(&mut shell, "ArrowDown");
    }
    tap(&mut shell, "Enter");
    tap(&mut shell, "Enter");
    for _ in 0..3 {
        tap(&mut shell, "ArrowDown");
    }
    tap(&mut shell, "Enter");
    assert!(shell.overlays().is_empty());
    tap(&mut shell, "KeyX");
    assert!(matches!(shell.screen, Screen::Paused(_)));
    shell.escape();
    shell.draw(&mut shown);
    assert_eq!(shown, shell.console().unwrap().rgba());
}

/// Chooses the debug menu's item `label`.
fn choose_in_debug(shell: &mut Shell, label: &str) {
    let at = labels(shell)
        .iter()
        .position(|l| l == label)
        .unwrap_or_else(|| panic!("{label} in {:?}", labels(shell)));
    for _ in 0..at {
        tap(shell, "ArrowDown");
    }
    tap(shell, "Enter");
}

#[test]
fn the_viewers_show_each_view_live_while_the_game_runs_untouched() {
    let mut shell = platformer();
    let mut plain = platformer();
    shell.toggle_debug_menu();
    choose_in_debug(&mut shell, "View: Tile sheet");
    let Screen::Viewer(viewer) = &shell.screen else {
        panic!("a viewer: {:?}", shell.screen);
    };
    assert_eq!(viewer.view, kairo::host::shell::View::Tiles);
    let mut pictures = Vec::new();
    let dir = common::temp_dir("viewers");
    for view in kairo::host::shell::View::all() {
        let mut shown = vec![0; 256 * 256 * 4];
        shell.draw(&mut shown);
        assert_ne!(
            shown,
            shell.console().unwrap().rgba(),
            "{view:?} is not the game"
        );
        kairo::views::screenshot::save_png(&dir.join(format!("{view:?}.png")), &shown).unwrap();
        pictures.push(shown);
        let Screen::Viewer(viewer) = &shell.screen else {
            panic!("still a viewer");
        };
        assert_eq!(viewer.view, view);
        tap(&mut shell, "KeyW");
    }
    for (i, a) in pictures.iter().enumerate() {
        for b in &pictures[i + 1..] {
            assert_ne!(a, b, "every view draws its own picture");
        }
    }
    // The cursor moves with the d-pad and stays on the picture.
    let Screen::Viewer(viewer) = &shell.screen else {
        panic!("back at the first view");
    };
    let start = viewer.cursor;
    frames(&mut shell, 10, &["ArrowRight", "ArrowDown"]);
    let Screen::Viewer(viewer) = &shell.screen else {
        panic!("a viewer");
    };
    assert_eq!(viewer.cursor, (start.0 + 20, start.1 + 20));
    // The game went on with no buttons held, exactly as one left alone.
    let ran = shell.console().unwrap().vblanks() - plain.console().unwrap().vblanks();
    frames(&mut plain, ran as usize, &[]);
    assert_eq!(
        shell.console().unwrap().rgba(),
        plain.console().unwrap().rgba()
    );
    // B goes back to the debug menu, Esc there to the pause menu.
    tap(&mut shell, "KeyX");
    assert!(matches!(shell.screen, Screen::Debug(_)));
}
