//! The web runtime shipped in `web/dist/` is current: the digest of the sources it is built
//! from, recorded by `web/build.sh` in `web/dist/SOURCES`, equals the working tree's. Users
//! and CI have no emscripten, so `kairo export` copies the shipped build; a change to the
//! machine core must come with a rebuilt runtime (`web/build.sh`).
//!
//! With `KAIRO_WEB_DIGEST=write` (which `web/build.sh` sets right after building) the test
//! records the digest instead of checking it.

use std::path::{Path, PathBuf};

/// What the runtime is built from: the machine (`kairo-core`, which the web console is part
/// of), its C ABI, Kairo's Lua (`lua/src`), the core's build script, the manifests and lock
/// file, and the script that builds it. The `kairo` crate's own modules (`src/`: `tools`,
/// `host`, the CLI) are left out: `web` cannot import them, so editing them cannot change
/// what the runtime does.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    walk(&root.join("kairo-core/src"), &mut files);
    walk(&root.join("web/runtime"), &mut files);
    walk(&root.join("lua/src"), &mut files);
    for name in [
        "kairo-core/build.rs",
        "kairo-core/Cargo.toml",
        "Cargo.toml",
        "Cargo.lock",
        "web/build.sh",
    ] {
        files.push(root.join(name));
    }
    files.sort();
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// FNV-1a 64 over each file's path and contents (line ends as `\n`).
fn digest(root: &Path) -> (String, usize) {
    let files = sources(root);
    let mut bytes = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        bytes.extend_from_slice(rel.as_bytes());
        bytes.push(0);
        let text = std::fs::read(file).unwrap();
        let mut last = 0u8;
        for &b in &text {
            if b == b'\n' && last == b'\r' {
                bytes.pop();
            }
            bytes.push(b);
            last = b;
        }
        bytes.push(0);
    }
    (kairo::hash::frame_hash_hex(&bytes), files.len())
}

#[test]
fn the_shipped_web_runtime_was_built_from_these_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (digest, count) = digest(root);
    assert!(count > 50, "only {count} source files found");
    let record = root.join("web/dist/SOURCES");
    if std::env::var("KAIRO_WEB_DIGEST").as_deref() == Ok("write") {
        std::fs::write(&record, format!("sources {digest}\n")).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&record).expect("web/dist/SOURCES");
    let recorded = recorded
        .lines()
        .find_map(|line| line.strip_prefix("sources "))
        .expect("a `sources <digest>` line");
    assert_eq!(
        recorded, digest,
        "web/dist/ was built from other sources than these: run web/build.sh (needs emscripten, see docs/internals/web-runtime.md) and commit web/dist/"
    );
}
