//! Every BulletML file in `tests/bulletml/` (ABA Games' rRootage and Torus Trooper patterns
//! as shipped, DOCTYPE and all, and Kairo's own) loads, and runs in the bullet unit.

mod common;

use kairo::bullets::BulletUnit;
use kairo::bullets::bulletml::parse;
use kairo::bullets::unit::Player;
use kairo::fixed::fx;
use kairo::rng::Rng;
use std::path::{Path, PathBuf};

/// Every `.xml` file under `dir`, sorted.
fn patterns(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "xml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_real_pattern_loads_and_runs() {
    let files = patterns(&common::root().join("tests/bulletml"));
    assert!(files.len() >= 96, "{} patterns", files.len());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let pattern = parse("p", &text).unwrap_or_else(|e| panic!("{}:{e}", file.display()));
        let mut unit = BulletUnit::default();
        unit.set_player(Some(Player {
            x: fx(128),
            y: fx(220),
            ..Player::default()
        }))
        .unwrap();
        let mut rng = Rng::new(7);
        let patterns = [pattern];
        unit.start_pattern(&patterns, 0, fx(128), fx(60), 0);
        let mut peak = 0;
        let (mut fired, mut steps) = (0, 0);
        for _ in 0..600 {
            unit.release_pending();
            unit.run_programs(&mut rng, &patterns);
            unit.advance();
            fired += unit.stats().spawned;
            steps += unit.stats().program_steps;
            unit.begin_frame();
            peak = peak.max(unit.table().len());
        }
        println!(
            "{}: {steps} commands, fired {fired}, peak {peak}",
            file.display()
        );
        // Morph patterns (rRootage runs them on bullets) steer their object and may fire
        // nothing.
        assert!(steps > 0, "{} ran nothing", file.display());
    }
}
