//! The window's debug menu, driven off-screen: F8 opens it over the game, A toggles each
//! overlay, the overlays show in the window's picture while the console's own picture, and so
//! its hashes, stay exactly those of a game shown without them.
#![cfg(feature = "host")]

mod common;

use common::root;
use common::shell::{frames, tap};
use kairo::host::shell::{Screen, Shell};
use kairo::tools::overlays::Overlay;

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
    assert_eq!(shell.overlays, [Overlay::Collision, Overlay::Hitboxes]);
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
    assert!(shell.overlays.is_empty());
    tap(&mut shell, "KeyX");
    assert!(matches!(shell.screen, Screen::Paused(_)));
    shell.escape();
    shell.draw(&mut shown);
    assert_eq!(shown, shell.console().unwrap().rgba());
}
