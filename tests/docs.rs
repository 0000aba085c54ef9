//! The docs are part of the product: these tests keep them in step with the code.

mod common;

use common::root;

/// `(name, value)` of every `pub const` in `spec::cost`, read from the source.
fn cost_constants() -> Vec<(String, String)> {
    let spec = std::fs::read_to_string(root().join("src/spec.rs")).unwrap();
    let start = spec.find("pub mod cost {").expect("cost module");
    let end = start + spec[start..].find("\n}").expect("end of cost module");
    spec[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .map(|l| {
            let (name, rest) = l.split_once(':').unwrap();
            let value = rest.split('=').nth(1).unwrap().trim().trim_end_matches(';');
            (name.trim().to_string(), value.replace('_', ""))
        })
        .collect()
}

#[test]
fn every_cycle_cost_is_in_the_hardware_manual_and_profiling_guide_with_its_value() {
    let costs = cost_constants();
    assert!(costs.len() >= 10, "found {costs:?}");
    for doc in ["docs/hardware.md", "docs/profiling.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for (name, value) in &costs {
            let row = format!("| `{name}` | {value} |");
            assert!(text.contains(&row), "{doc} lacks the row `{row}`");
        }
    }
}

#[test]
fn the_manual_states_the_budget_and_caps_of_the_spec() {
    use kairo::spec::*;
    let manual = std::fs::read_to_string(root().join("docs/hardware.md")).unwrap();
    for number in [
        FRAME_BUDGET,
        RUNAWAY_CAP,
        INIT_CAP,
        u64::from(LUA_HOOK_INTERVAL),
    ] {
        assert!(
            manual.contains(&number.to_string()),
            "docs/hardware.md does not mention {number}"
        );
    }
}

#[test]
fn readme_and_ci_run_the_same_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(readme.contains("cargo run --release -- carts/platformer"));
    assert!(readme.contains("cargo test"));
    assert!(ci.contains("cargo test"));
    assert!(ci.contains("cargo fmt") && ci.contains("cargo clippy --all-targets -- -D warnings"));
}
