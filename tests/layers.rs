//! The layers of `kairo-core/src/` (the machine) and `src/` (the command's tools and the
//! window), checked: each top-level module may import (`crate::name`, where the command's
//! crate names the core's modules through its re-exports) only from layers below its own, so
//! nothing imports upward and no circle can form between modules. Test code (`#[cfg(test)]`
//! onwards, `tests.rs`, `tests/` folders) is left out.

use std::collections::BTreeSet;
use std::path::Path;

/// Lowest first. A module not listed here fails the test: place it when you add it.
const LAYERS: &[&[&str]] = &[
    // Plain building blocks with no imports from the crate.
    &[
        "spec",
        "fixed",
        "math",
        "hash",
        "rng",
        "fsutil",
        "out",
        "serde_array",
    ],
    // The cycle meter, the pads' input words and save files.
    &["meter", "input", "savefile"],
    // The hardware units.
    &["video", "collide", "bullets", "audio", "saveram"],
    // PICO-8's memory and drawing, shown on the video unit's canvas.
    &["pico8"],
    // The machine, cart data, movies and the profiler's collector.
    &["machine", "cart", "movie", "profile"],
    // The cart's Lua state and its API.
    &["script"],
    // The console: the machine run by the script, frame by frame.
    &["console"],
    // Rewind over the console's snapshots, save states of its runs.
    &["rewind", "savestate"],
    // The session every front end drives: console, history, fault, rewind, states.
    &["session"],
    // Rollback netplay over the session; the session as the web page drives it.
    &["netplay", "web"],
    // (The `kairo` crate from here.) GIF clips of what the screen showed.
    &["clip"],
    // Its typed errors.
    &["error"],
    // Netplay's rooms: the lobby server and the WebRTC links peers meet through.
    &["rooms"],
    // What the window and headless runs show of the hardware: overlays, viewers, dumps,
    // the UI canvas, PNG writing.
    &["views"],
    // The profiler's reports, charts and live overlay; the files kept for players (save RAM,
    // save-state slots).
    &["profiling", "saving"],
    // Carts of other consoles brought over (PICO-8).
    &["import"],
    // The user commands: headless runs, check, export, pattern previewer, sound, a netplay
    // peer.
    &["commands"],
    // The developer harness: bench, calibration, fuzz bodies, the relay.
    &["harness"],
    // The window, pads and sound.
    &["host"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The crate modules `text` names through `crate::`, including grouped imports
/// (`crate::{a, b::c}`).
fn imports(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// The file's code before its tests, without `//` comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The last layer of `kairo-core`: the modules above it are the `kairo` crate's.
const LAST_CORE_LAYER: usize = 9;

#[test]
fn nothing_imports_upward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for src in [root.join("kairo-core/src"), root.join("src")] {
        let mut found = Vec::new();
        rust_files(&src, &mut found);
        files.extend(found.into_iter().map(|f| (src.clone(), f)));
    }
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (src, file) in &files {
        let in_core = src.ends_with("kairo-core/src");
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy();
        let module = first.trim_end_matches(".rs");
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(module) else {
            wrong.push(format!(
                "{}/{module} is in no layer: add it to LAYERS",
                src.display()
            ));
            continue;
        };
        if in_core != (own <= LAST_CORE_LAYER) {
            wrong.push(format!(
                "{}/{module} is in the other crate's layers",
                src.display()
            ));
        }
        for import in imports(&code_of(file)) {
            if import == module {
                continue;
            }
            checked += 1;
            match layer_of(&import) {
                Some(layer) if layer < own => {}
                Some(_) => wrong.push(format!(
                    "{} imports crate::{import}, which is not in a lower layer",
                    rel.display()
                )),
                None => wrong.push(format!(
                    "{} imports crate::{import}, which is in no layer",
                    rel.display()
                )),
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        checked > 100,
        "only {checked} imports seen: is the parser broken?"
    );
}

#[test]
fn the_import_reader_sees_grouped_and_single_imports() {
    let found = imports("use crate::{spec::X, video};\nlet a = crate::cart::Cart::open(p);");
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["cart", "spec", "video"]
    );
}

#[test]
fn the_core_depends_on_no_window_sound_or_pad_crate() {
    // `cargo tree -p kairo-core` shows none of these anywhere below it either: its direct
    // dependencies (checked here) are data and script crates that pull in no display stack.
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("kairo-core/Cargo.toml"),
    )
    .unwrap();
    let dependencies: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
        .collect();
    for forbidden in [
        "winit",
        "pixels",
        "wgpu",
        "cpal",
        "gilrs",
        "notify",
        "directories",
        "ringbuf",
        "clap",
    ] {
        assert!(
            !dependencies.contains(&forbidden),
            "kairo-core depends on {forbidden}"
        );
    }
    assert!(
        dependencies.contains(&"mlua"),
        "the manifest was read: {dependencies:?}"
    );
}
