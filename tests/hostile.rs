//! Hostile carts: each gives its clear, located error from `kairo check` and exit code 1 —
//! never a panic or a hang.

mod common;

use common::{kairo, root};

/// (cart under tests/carts, text the first problem line must contain)
const CASES: &[(&str, &str)] = &[
    ("bad_toml", "cart.toml:3: unclosed array table"),
    ("lua_syntax", "main.lua:2: unexpected symbol near '='"),
    (
        "runtime_error",
        "main.lua:3: attempt to index a nil value (local 'player')",
    ),
    (
        "missing_asset",
        "cart.toml:4: missing file `gfx/missing.png`",
    ),
    (
        "odd_png",
        "odd.png: 12x10 px: a sheet of 8 px tiles must be a non-zero multiple of 8 px",
    ),
    (
        "oversize_png",
        "tall.png: 1040 px tall from tile 0 (row 0) runs past tile 2047",
    ),
    (
        "rgba_too_many_colours",
        "colours.png: 1 of its tiles use more than 15 colours: tile 0 (32 colours)",
    ),
    (
        "io_open",
        "main.lua:1: attempt to index a nil value (global 'io')",
    ),
    (
        "memory_bomb",
        "out of memory: the cart's Lua state reached its limit",
    ),
    ("runaway", "main.lua:2: the script ran past the runaway cap"),
    ("bad_map", "broken.tmx:4: malformed XML"),
    (
        "deep_map",
        "deep.tmx:3: elements nest deeper than 64 levels",
    ),
    (
        "short_layer",
        "maps/short.tmx:4: layer `ground`: it holds 5 tile ids but the map has 4x2 = 8 cells",
    ),
    (
        "gid_past_end",
        "far.tmx:4: layer `ground`: cell (2, 1): tile 8 is past the end of tileset `ground` (4 tiles)",
    ),
    (
        "stale_tileset",
        "ground.tsx:3: tileset `ground`: image `ground.png` is 32x32 px but the tileset says 64x64",
    ),
    (
        "image_outside",
        "ground.tsx:3: image `../../../etc/ground.png` is outside the cart",
    ),
    ("bad_mml", "cart.toml:9:14: unknown command `k`"),
    ("bad_mml", "theme.mml:3:8: a `[` is not closed"),
    (
        "cyclic_pattern",
        "loop.xml:1: references loop: action[a] -> action[b] -> action[a]",
    ),
    ("truncated.kcart", "truncated.kcart: truncated"),
    ("newer.kcart", "made by a newer Kairo: format version 2"),
];

#[test]
fn every_hostile_cart_fails_check_with_its_located_error() {
    for (cart, expected) in CASES {
        let path = root().join("tests/carts").join(cart);
        let (code, stdout, stderr) = kairo(&["check", path.to_str().unwrap()], &root());
        assert_eq!(
            code, 1,
            "{cart}: exit code; stdout {stdout} stderr {stderr}"
        );
        assert!(
            stdout.contains(expected),
            "{cart}: expected `{expected}` in:\n{stdout}"
        );
        assert!(!stderr.contains("panicked"), "{cart} panicked: {stderr}");
    }
}

#[test]
fn hostile_carts_fail_headless_too_with_a_non_zero_exit() {
    for cart in ["runtime_error", "runaway", "io_open", "lua_syntax"] {
        let path = root().join("tests/carts").join(cart);
        let (code, _, stderr) = kairo(
            &["headless", path.to_str().unwrap(), "--frames", "10"],
            &root(),
        );
        assert_ne!(code, 0, "{cart}");
        assert!(stderr.contains("main.lua:"), "{cart}: {stderr}");
        assert!(!stderr.contains("panicked"), "{cart}: {stderr}");
    }
}

#[test]
fn every_listed_hostile_cart_exists_and_is_tested() {
    let listed: Vec<String> = std::fs::read_dir(root().join("tests/carts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    for name in &listed {
        assert!(
            CASES.iter().any(|(c, _)| c == name),
            "{name} has no test case"
        );
    }
}
