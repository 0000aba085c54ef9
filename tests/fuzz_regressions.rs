//! Replays, on stable Rust, every input the fuzzers found a crash or a timeout with
//! (`tests/fuzz/<target>/`) and every committed seed (`fuzz/seeds/<target>/`) through the
//! fuzz targets' bodies in `src/harness/fuzz.rs`. A panic fails the test naming the file.

mod common;

use std::path::Path;

use common::root;

/// The files of `dir`, sorted (none if it does not exist).
fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

fn replay(folder: &str) -> usize {
    let mut count = 0;
    let mut failures = Vec::new();
    for (name, body) in kairo::harness::fuzz::TARGETS {
        for path in inputs(&root().join(folder).join(name)) {
            let data = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| body(&data)).is_err() {
                failures.push(path.display().to_string());
            }
            count += 1;
        }
    }
    assert!(failures.is_empty(), "panicked on: {failures:?}");
    count
}

#[test]
fn inputs_found_by_fuzzing_run_cleanly() {
    // The folder holds at least the movie whose repeat count overflowed.
    assert!(replay("tests/fuzz") > 0);
}

#[test]
fn fuzz_seeds_run_cleanly() {
    assert!(replay("fuzz/seeds") >= kairo::harness::fuzz::TARGETS.len());
}

#[test]
fn every_regression_folder_names_a_target() {
    for dir in inputs(&root().join("tests/fuzz")) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if name == "README.md" {
            continue;
        }
        assert!(
            kairo::harness::fuzz::TARGETS
                .iter()
                .any(|(t, _)| *t == name),
            "tests/fuzz/{name} is not a fuzz target"
        );
    }
}
