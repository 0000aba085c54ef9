//! `kairo export CART --web OUT_DIR` without a browser: what it writes, what it refuses, and
//! that the page's default keys are the window's. (`tests/web.rs` plays the page in
//! Chromium.)

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{bundled, export_web, root, temp_dir};
use kairo::cart::files::CartFiles;
use kairo::cart::kcart;

#[test]
fn export_writes_the_page_the_runtime_and_the_packed_cart() {
    let out = temp_dir("export-files").within("shmup web");
    let cart = bundled("shmup");
    let (code, stdout, stderr) = export_web(&cart, &out);
    assert_eq!(code, 0, "{stderr}");
    let mut total = 0;
    for name in [
        "index.html",
        "kairo.js",
        "kairo_web.js",
        "kairo_web.wasm",
        "cart.kcart",
    ] {
        let size = std::fs::metadata(out.join(name)).expect(name).len();
        assert!(
            stdout.contains(&format!("{name}: {size} bytes")),
            "{stdout}"
        );
        total += size;
    }
    assert!(
        stdout.contains(&format!("{total} bytes in all")),
        "{stdout}"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("<title>Nova Lance - Kairo</title>"), "{page}");
    assert!(page.contains("data-save-id=\"kairo.nova-lance\""), "{page}");
    // The display filters' parameters, one place (FilterParams), as JSON the page reads.
    let params = kairo::views::display_filter::FilterParams::default().to_json();
    let attribute = format!("data-filter-params=\"{}\"", params.replace('"', "&quot;"));
    assert!(page.contains(&attribute), "{page}");
    let packed = kcart::unpack(&std::fs::read(out.join("cart.kcart")).unwrap()).unwrap();
    let folder = CartFiles::open(&cart).unwrap().into_map();
    assert_eq!(packed, folder, "cart.kcart holds the cart's files");
    assert_eq!(
        std::fs::read(out.join("kairo_web.wasm")).unwrap(),
        kairo::commands::export::RUNTIME_WASM
    );
}

#[test]
fn export_refuses_a_cart_with_problems_in_one_line_each() {
    let out = temp_dir("export-refused");
    let (code, stdout, stderr) = export_web(Path::new("tests/carts/lua_syntax"), &out.join("web"));
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.starts_with("kairo: "), "{stderr}");
    assert!(stderr.contains("main.lua:"), "{stderr}");
    assert!(
        !out.join("web").exists(),
        "nothing written for a refused cart"
    );

    let (code, _, stderr) = export_web(Path::new("no/such/cart"), &out);
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// The page's key table (`const KEYS = { Code: bit, ... }` in web/page/kairo.js).
fn page_keys() -> BTreeMap<String, u8> {
    let js = std::fs::read_to_string(root().join("web/page/kairo.js")).unwrap();
    let start = js.find("const KEYS = {").expect("KEYS table") + "const KEYS = {".len();
    let end = start + js[start..].find("};").unwrap();
    js[start..end]
        .split(',')
        .filter_map(|pair| {
            let (code, bit) = pair.split_once(':')?;
            Some((code.trim().to_string(), bit.trim().parse().ok()?))
        })
        .collect()
}

#[cfg(feature = "host")]
#[test]
fn the_page_has_the_windows_default_keys() {
    use kairo::host::input_map::Bindings;
    use kairo::input::Button;
    let keys = page_keys();
    let window = Bindings::default_keyboard();
    let mut expected = BTreeMap::new();
    for button in Button::ALL {
        for control in window.controls(button) {
            expected.insert(control.to_string(), button as u8);
        }
    }
    assert_eq!(keys, expected);
}

#[test]
fn the_page_key_table_names_every_button_once_at_least() {
    let keys = page_keys();
    for bit in 0..12u8 {
        assert!(keys.values().any(|&b| b == bit), "no key for bit {bit}");
    }
}
