//! Every real PICO-8 cart in tests/pico8/ (each with its licence and source) imported with
//! `kairo import` and played with `kairo headless` for 600 vblanks of the same scripted
//! input: its last picture's hash and a digest of its sound are the golden ones in
//! tests/pico8/golden.txt (`UPDATE_GOLDEN=1` rewrites them), or it stops with the error the
//! file names. So a change that moves a pixel or a sample of any real cart is seen, and the
//! runs are the same every time (PICO-8's `rnd` is seeded from the cart).

mod common;

use std::path::{Path, PathBuf};

/// The input every cart gets: wait, O, wait, X, right, O, left, up, down.
const PRESS: &str = "-*60,a*2,-*30,b*2,right*60,a*5,left*40,up*20,down*20";

fn cart_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let name = path.to_string_lossy().to_string();
            if path.is_dir() {
                walk(&path, out);
            } else if name.ends_with(".p8") || name.ends_with(".p8.png") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&common::root().join("tests/pico8"), &mut out);
    out.sort();
    out
}

/// FNV-1a 64 of `bytes`, in hex.
fn digest(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// One cart's line: `name hash picture-hash sound-digest`, or `name error message`.
fn play(file: &Path, dir: &Path) -> String {
    let name = file
        .strip_prefix(common::root().join("tests/pico8"))
        .unwrap()
        .display()
        .to_string();
    let out = dir.join(name.replace(['/', '.'], "_"));
    let (code, stdout, stderr) = common::kairo(
        &[
            "import",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        dir,
    );
    assert_eq!(code, 0, "{name}: import failed: {stdout}{stderr}");
    let wav = out.with_extension("wav");
    let (code, stdout, stderr) = common::kairo(
        &[
            "headless",
            out.to_str().unwrap(),
            "--frames",
            "600",
            "--press",
            PRESS,
            "--hash",
            "--wav",
            wav.to_str().unwrap(),
        ],
        dir,
    );
    if code != 0 {
        let first = stderr
            .lines()
            .find(|l| l.starts_with("kairo:"))
            .unwrap_or("no message");
        return format!("{name} error {first}");
    }
    let sound = std::fs::read(&wav).unwrap();
    format!(
        "{name} hash {} {}",
        common::hash_line(&stdout).trim_start_matches("hash "),
        digest(&sound)
    )
}

#[test]
fn every_real_cart_plays_600_frames_to_its_golden_picture_and_sound() {
    let dir = common::temp_dir("pico8-carts");
    let lines: Vec<String> = cart_files().iter().map(|f| play(f, dir.path())).collect();
    let text = lines.join("\n") + "\n";
    let path = common::root().join("tests/pico8/golden.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} (UPDATE_GOLDEN=1 writes it)", path.display()));
    let differ: Vec<String> = lines
        .iter()
        .filter(|l| !expected.lines().any(|e| e == l.as_str()))
        .cloned()
        .collect();
    assert!(
        differ.is_empty(),
        "these carts played differently from {} (UPDATE_GOLDEN=1 rewrites it):\n{}",
        path.display(),
        differ.join("\n")
    );
    assert_eq!(lines.len(), expected.lines().count(), "carts came or went");
    let running = lines.iter().filter(|l| l.contains(" hash ")).count();
    assert!(
        running * 100 >= lines.len() * 85,
        "{running} of {} run 600 frames",
        lines.len()
    );
}
