//! Helpers shared by the integration tests: in-memory carts and console runs.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::Console;

pub mod gifs;
pub mod lobby;

/// A cart with only `main.lua` = `source`.
pub fn lua_cart(source: &str) -> Cart {
    cart_with(&[("main.lua", source.as_bytes())])
}

/// A cart named "test" with extra files.
pub fn cart_with(files: &[(&str, &[u8])]) -> Cart {
    let mut map = BTreeMap::new();
    map.insert("cart.toml".to_string(), b"name = \"test\"\n".to_vec());
    // A cart.toml among `files` replaces the default one.
    for (path, bytes) in files {
        map.insert(path.to_string(), bytes.to_vec());
    }
    Cart::from_files(CartFiles::from_map("test", map)).expect("test cart loads")
}

/// A console running `source`.
pub fn console(source: &str) -> Console {
    Console::new(lua_cart(source)).expect("test cart boots")
}

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A bundled cart's folder.
pub fn bundled(name: &str) -> PathBuf {
    root().join("carts").join(name)
}

/// A fresh temporary folder for one test.
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("kairo-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir {
        root: dir.clone(),
        path: dir,
    }
}

/// A test's temporary folder. It is removed when the value goes out of scope, unless the test
/// is failing (then it stays, so its files can be looked at). Keep the value while the folder
/// is used: `temp_dir(x).join(..)` drops it at once (and the folder with it); write
/// `temp_dir(x).within(..)` for a path inside that keeps it.
#[derive(Debug)]
pub struct TempDir {
    /// The folder removed on drop.
    root: PathBuf,
    /// The path this value stands for: `root` or a path inside it.
    path: PathBuf,
}

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path `child` inside this folder (not created), still removing the whole folder on
    /// drop.
    pub fn within(self, child: &str) -> TempDir {
        let inner = TempDir {
            root: self.root.clone(),
            path: self.path.join(child),
        };
        // The folder now belongs to `inner`.
        std::mem::forget(self);
        inner
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        // A program the test stopped (a browser's helpers) may still be writing into it for
        // a moment: try again briefly.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.root).is_ok() || !self.root.exists() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

/// Waits for `child` at most `limit` (killing it past that): exit code, stdout, stderr.
pub fn finish(mut child: std::process::Child, limit: std::time::Duration) -> (i32, String, String) {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The hash a `kairo ... --hash` run printed last.
pub fn hash_line(out: &str) -> &str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("hash "))
        .unwrap_or_else(|| panic!("no hash in {out}"))
}

/// Copies the folder `from` (and everything under it) to `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A free UDP port on loopback (bound and let go: the test's peer takes it next).
pub fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs the `kairo` binary with `args`; returns (exit code, stdout, stderr).
pub fn kairo(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run kairo");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `kairo export CART --web OUT` from the repository root: exit code, stdout, stderr.
pub fn export_web(cart: &Path, out: &Path) -> (i32, String, String) {
    kairo(
        &[
            "export",
            cart.to_str().unwrap(),
            "--web",
            out.to_str().unwrap(),
        ],
        &root(),
    )
}

/// Driving the window's shell off-screen.
#[cfg(feature = "host")]
pub mod shell {
    use std::time::Instant;

    use kairo::host::shell::Shell;

    /// Runs `n` vblanks with `held` keys down, then lets them go.
    pub fn frames(shell: &mut Shell, n: usize, held: &[&str]) {
        for key in held {
            shell.key(key, true);
        }
        for _ in 0..n {
            shell.vblank(Instant::now());
        }
        for key in held {
            shell.key(key, false);
        }
    }

    /// Presses and releases `key` with a vblank after each, as a player's tap in a menu is
    /// seen.
    pub fn tap(shell: &mut Shell, key: &str) {
        shell.key(key, true);
        shell.vblank(Instant::now());
        shell.key(key, false);
        shell.vblank(Instant::now());
    }
}

/// Compares `pictures` (name, 256x256 RGBA) with the hashes in `tests/golden/<golden>`
/// (`UPDATE_GOLDEN=1` rewrites them); a mismatch saves the picture as a PNG and names it.
pub fn check_golden_pictures(golden: &str, pictures: &[(&str, Vec<u8>)]) {
    let path = root().join("tests/golden").join(golden);
    let lines: Vec<String> = pictures
        .iter()
        .map(|(name, rgba)| format!("{name} {}", kairo::hash::frame_hash_hex(rgba)))
        .collect();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("tests/golden/{golden} (UPDATE_GOLDEN=1 writes it)"));
    let expected: Vec<&str> = expected.lines().collect();
    for (i, ((name, rgba), line)) in pictures.iter().zip(&lines).enumerate() {
        if expected.get(i) != Some(&line.as_str()) {
            // Kept: the folder stays when its guard drops during the panic below.
            let dir = temp_dir(golden);
            let saved = dir.join(format!("{name}.png"));
            kairo::views::screenshot::save_png(&saved, rgba).unwrap();
            panic!(
                "{name} differs from tests/golden/{golden} (UPDATE_GOLDEN=1 rewrites it); see {}",
                saved.display()
            );
        }
    }
}

/// Compares (or with `KAIRO_UPDATE_DOCS=1` rewrites) `docs/img/<file>`, a picture the docs
/// show, with `png`.
pub fn docs_picture_is_current(file: &str, png: &[u8]) {
    let path = root().join("docs/img").join(file);
    if std::env::var_os("KAIRO_UPDATE_DOCS").is_some() {
        std::fs::write(&path, png).unwrap();
    }
    let shown = std::fs::read(&path).unwrap_or_else(|_| panic!("docs/img/{file}"));
    assert!(
        shown == png,
        "docs/img/{file} is stale (KAIRO_UPDATE_DOCS=1 rewrites it)"
    );
}
