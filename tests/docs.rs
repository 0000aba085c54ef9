//! The docs are part of the product: these tests keep them in step with the code. Each
//! number is checked where it is stated (its table row or its sentence), against the constant
//! or the code it documents, so a number that is right somewhere else does not pass.

mod common;

use common::root;
use kairo::input::Button;
use kairo::spec::*;

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

fn read(doc: &str) -> String {
    std::fs::read_to_string(root().join(doc)).unwrap()
}

/// The text with every run of whitespace (line breaks included) made one space, so that
/// sentences wrapped in the markdown source can be searched for.
fn flowed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The cells of the table rows (lines starting with `|`, the `|---|` line left out) of the
/// section under `heading`.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no section `{heading}`"));
    text[start..]
        .lines()
        .skip(2)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// `a, b or c` for a list of numbers.
fn or_list(values: &[usize]) -> String {
    let (last, rest) = values.split_last().unwrap();
    let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
    format!("{} or {last}", rest.join(", "))
}

#[test]
fn every_cycle_cost_is_in_the_hardware_manual_and_profiling_guide_with_its_value() {
    let costs = cost_constants();
    assert!(costs.len() >= 10, "found {costs:?}");
    for doc in ["docs/hardware.md", "docs/profiling.md"] {
        let text = read(doc);
        for (name, value) in &costs {
            let row = format!("| `{name}` | {value} |");
            assert!(text.contains(&row), "{doc} lacks the row `{row}`");
        }
    }
    // And the manual's cost table has no row for a cost that is gone.
    let rows = table_rows(
        &read("docs/hardware.md"),
        "## Cycle budget and the cost table",
    );
    assert_eq!(rows[0], ["Cost", "Cycles", "Unit", "When"]);
    let mut documented: Vec<&str> = rows[1..].iter().map(|r| r[0].trim_matches('`')).collect();
    let mut names: Vec<&str> = costs.iter().map(|(n, _)| n.as_str()).collect();
    documented.sort_unstable();
    names.sort_unstable();
    assert_eq!(
        documented, names,
        "the cost table's rows against spec::cost"
    );
}

#[test]
fn the_manual_overview_gives_each_spec_value_in_its_own_row() {
    let mib = LUA_MEMORY_LIMIT / (1024 * 1024);
    assert_eq!(mib * 1024 * 1024, LUA_MEMORY_LIMIT, "a whole number of MiB");
    for cap in [RUNAWAY_CAP, INIT_CAP] {
        assert_eq!(cap % FRAME_BUDGET, 0, "a whole number of budgets");
    }
    // Keyed by the row's constants cell; the value cell must read exactly this.
    let expected: Vec<(&str, String)> = vec![
        (
            "`SCREEN_W`, `SCREEN_H`, `SCREEN_PIXELS`",
            format!("{SCREEN_W} x {SCREEN_H} pixels ({SCREEN_PIXELS}), indexed colour"),
        ),
        ("`FRAME_RATE`", format!("{FRAME_RATE} vblanks per second")),
        (
            "`PALETTES`, `PALETTE_COLORS`, `PALETTE_ENTRIES`",
            format!(
                "{PALETTES} palettes x {PALETTE_COLORS} colours = {PALETTE_ENTRIES} entries, \
                 RGB888"
            ),
        ),
        (
            "`PATTERN_TILES`, `TILE_SIZE`, `TILE_BPP`, `TILE_BYTES`, `PATTERN_VRAM_BYTES`",
            format!(
                "{PATTERN_TILES} tiles of {TILE_SIZE} x {TILE_SIZE} px at {TILE_BPP} bpp, \
                 {TILE_BYTES} bytes each = {} KiB",
                PATTERN_VRAM_BYTES / 1024
            ),
        ),
        (
            "`PATTERN_SHEET_TILES_W`, `PATTERN_SHEET_TILES_H`",
            format!(
                "{PATTERN_SHEET_TILES_W} x {PATTERN_SHEET_TILES_H} tiles ({} x {} px)",
                PATTERN_SHEET_TILES_W * TILE_SIZE,
                PATTERN_SHEET_TILES_H * TILE_SIZE
            ),
        ),
        (
            "`BG_LAYERS`, `BG_MAX_CELLS`, `BG_CELL_SIZES`",
            format!(
                "{BG_LAYERS}, each up to {BG_MAX_CELLS} x {BG_MAX_CELLS} cells of {} px",
                or_list(&BG_CELL_SIZES)
            ),
        ),
        (
            "`TILE_ANIMS`, `TILE_ANIM_FRAMES`",
            format!("{TILE_ANIMS} animated tiles, up to {TILE_ANIM_FRAMES} frames each"),
        ),
        (
            "`OAM_ENTRIES`, `SPRITE_SIZES`",
            format!(
                "{OAM_ENTRIES} OAM entries, {} tiles per side",
                or_list(&SPRITE_SIZES)
            ),
        ),
        (
            "`PRIORITY_LEVELS`",
            format!(
                "{PRIORITY_LEVELS} (0 = back, {} = front)",
                PRIORITY_LEVELS - 1
            ),
        ),
        (
            "`FONT_SIZE`, `FONT_FIRST_CHAR`, `FONT_LAST_CHAR`",
            format!("{FONT_SIZE} x {FONT_SIZE} glyphs, ASCII {FONT_FIRST_CHAR}-{FONT_LAST_CHAR}"),
        ),
        (
            "`PLAYERS`",
            format!("{PLAYERS} players, {} buttons each", Button::ALL.len()),
        ),
        (
            "`BTNP_REPEAT_DELAY`, `BTNP_REPEAT_PERIOD`",
            format!("after {BTNP_REPEAT_DELAY} frames held, then every {BTNP_REPEAT_PERIOD}"),
        ),
        (
            "`FRAME_BUDGET`",
            format!(
                "{FRAME_BUDGET} cycles per vblank (a virtual {} MHz CPU)",
                FRAME_BUDGET * u64::from(FRAME_RATE) / 1_000_000
            ),
        ),
        (
            "`RUNAWAY_CAP`",
            format!(
                "{RUNAWAY_CAP} cycles per machine frame ({} budgets)",
                RUNAWAY_CAP / FRAME_BUDGET
            ),
        ),
        (
            "`INIT_CAP`",
            format!(
                "{INIT_CAP} cycles for the main chunk and `init()` ({} budgets)",
                INIT_CAP / FRAME_BUDGET
            ),
        ),
        (
            "`LUA_MEMORY_LIMIT`",
            format!("{mib} MiB ({LUA_MEMORY_LIMIT} bytes)"),
        ),
        (
            "`LUA_HOOK_INTERVAL`",
            format!("every {LUA_HOOK_INTERVAL} Lua VM instructions"),
        ),
        (
            "`LOG_LINE_BYTES`, `LOG_FRAME_LINES`, `LOG_FRAME_BYTES`",
            format!(
                "{LOG_LINE_BYTES} bytes a line, {LOG_FRAME_LINES} lines and {LOG_FRAME_BYTES} \
                 bytes a frame"
            ),
        ),
        (
            "`COLLISION_CELL_SIZES`, `COLLISION_CELL`, `BODY_MAX_SPEED`, `BODY_MAX_COORD`",
            format!(
                "cells of {} px ({COLLISION_CELL} by default); bodies at most {BODY_MAX_SPEED} px \
                 a frame per axis, within {BODY_MAX_COORD} px of (0, 0)",
                or_list(&COLLISION_CELL_SIZES.map(|s| s as usize))
            ),
        ),
        (
            "`HITBOX_CAPACITY`, `PLATFORM_CAPACITY`",
            format!("{HITBOX_CAPACITY} hitboxes and {PLATFORM_CAPACITY} moving platforms a frame"),
        ),
        (
            "`BULLET_CAPACITY`, `BULLET_TYPES`, `SHOT_CAPACITY`, `SHOT_MAX_SPEED`, \
             `TARGET_CAPACITY`",
            format!(
                "{BULLET_CAPACITY} bullets, {BULLET_TYPES} types, {SHOT_CAPACITY} player shots \
                 (at most {SHOT_MAX_SPEED} px a frame), {TARGET_CAPACITY} targets a frame"
            ),
        ),
        (
            "`BULLETML_SOURCES`, `BULLETML_COMMANDS_PER_FRAME`",
            format!(
                "{BULLETML_SOURCES} sources at once; {BULLETML_COMMANDS_PER_FRAME} commands a \
                 frame"
            ),
        ),
        (
            "`AUDIO_CHANNELS`, `SAMPLE_RATE`, `FRAMES_PER_VBLANK`",
            format!(
                "{AUDIO_CHANNELS} channels, {SAMPLE_RATE} Hz stereo, {FRAMES_PER_VBLANK} sample \
                 frames a vblank"
            ),
        ),
        (
            "`SAVE_BYTES`, `SAVE_SLOTS`, `SAVE_VALUE_BYTES`",
            format!(
                "{SAVE_BYTES} bytes, battery-backed: {SAVE_SLOTS} number slots, then \
                 {SAVE_VALUE_BYTES} bytes for one value"
            ),
        ),
    ];
    let rows = table_rows(&read("docs/hardware.md"), "## Overview");
    assert_eq!(rows[0], ["Part", "Value", "Constant in `spec.rs`"]);
    let documented: Vec<&str> = rows[1..].iter().map(|r| r[2].as_str()).collect();
    let wanted: Vec<&str> = expected.iter().map(|(c, _)| *c).collect();
    assert_eq!(documented, wanted, "the overview table's rows, by constant");
    let wrong: Vec<String> = rows[1..]
        .iter()
        .zip(&expected)
        .filter(|(row, (_, value))| row[1] != *value)
        .map(|(row, (constants, value))| {
            format!(
                "{constants}: the manual says `{}`, spec.rs gives `{value}`",
                row[1]
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "docs/hardware.md's overview table:\n{}",
        wrong.join("\n")
    );
}

/// The value a spec constant named in prose may be given with, as "`NAME` (value".
fn prose_constant(name: &str) -> Option<u64> {
    Some(match name {
        "FRAME_BUDGET" => FRAME_BUDGET,
        "RUNAWAY_CAP" => RUNAWAY_CAP,
        "INIT_CAP" => INIT_CAP,
        "LUA_HOOK_INTERVAL" => u64::from(LUA_HOOK_INTERVAL),
        "FRAME_RATE" => u64::from(FRAME_RATE),
        "LUA_MEMORY_LIMIT" => LUA_MEMORY_LIMIT as u64,
        "WORK_CHARGE_EVERY" => WORK_CHARGE_EVERY,
        _ => return None,
    })
}

#[test]
fn the_manuals_sentences_state_the_budget_caps_and_hook_of_the_spec() {
    let hook = u64::from(LUA_HOOK_INTERVAL);
    let mib = LUA_MEMORY_LIMIT / (1024 * 1024);
    let sentences = [
        (
            "docs/hardware.md",
            format!("vblanks = ceil(cycles / {FRAME_BUDGET}) (at least 1)"),
        ),
        (
            "docs/hardware.md",
            format!(
                "a frame of 250000 cycles takes {} vblanks",
                kairo::meter::vblanks_for(250_000)
            ),
        ),
        (
            "docs/hardware.md",
            format!(
                "run under the larger `INIT_CAP` ({INIT_CAP} cycles, together) instead of \
                 `RUNAWAY_CAP`"
            ),
        ),
        (
            "docs/hardware.md",
            format!("each Lua VM instruction, charged in steps of {hook} by the instruction hook"),
        ),
        (
            "docs/hardware.md",
            format!("each enabled layer adds {}", cost::LAYER),
        ),
        (
            "docs/hardware.md",
            format!("`budget()` returns {FRAME_BUDGET}."),
        ),
        (
            "docs/hardware.md",
            format!(
                "The Lua count hook fires every `LUA_HOOK_INTERVAL` ({hook}) VM instructions and \
                 counts {} cycles (`{hook} * LUA_INSTRUCTION`), inside Kairo's Lua, together \
                 with the library's work (below). Once `WORK_CHARGE_EVERY` ({WORK_CHARGE_EVERY}) \
                 cycles are counted, the hook charges them to the script unit",
                hook * cost::LUA_INSTRUCTION
            ),
        ),
        (
            "docs/hardware.md",
            format!(
                "A runaway is therefore stopped at most {} cycles past the cap",
                hook * cost::LUA_INSTRUCTION + WORK_CHARGE_EVERY
            ),
        ),
        (
            "docs/hardware.md",
            format!(
                "`RUNAWAY_CAP` ({RUNAWAY_CAP}) for `update()` and `draw()` together, \
                 `INIT_CAP` ({INIT_CAP}) for the main chunk and `init()` together."
            ),
        ),
        (
            "docs/hardware.md",
            "every later charge (each API call, and the hook each time it charges) raises the \
             error again"
                .to_string(),
        ),
        (
            "docs/hardware.md",
            format!("`LUA_MEMORY_LIMIT` = {mib} MiB."),
        ),
        (
            "docs/hardware.md",
            format!(
                "`btnp` is true again `BTNP_REPEAT_DELAY` = {BTNP_REPEAT_DELAY} frames after the \
                 button went down and then every `BTNP_REPEAT_PERIOD` = {BTNP_REPEAT_PERIOD} \
                 frames (frames 0, {BTNP_REPEAT_DELAY}, {}, {}, ... of a hold)",
                BTNP_REPEAT_DELAY + BTNP_REPEAT_PERIOD,
                BTNP_REPEAT_DELAY + 2 * BTNP_REPEAT_PERIOD
            ),
        ),
        (
            "docs/profiling.md",
            format!("Every Kairo frame has a budget of {FRAME_BUDGET} virtual cycles."),
        ),
        (
            "docs/profiling.md",
            format!(
                "The instruction hook counts every {hook} Lua instructions \
                 (`LUA_HOOK_INTERVAL`). With the profiler on, it charges each batch of {hook} to \
                 the function running"
            ),
        ),
    ];
    for (doc, sentence) in &sentences {
        assert!(
            flowed(&read(doc)).contains(&flowed(sentence)),
            "{doc} does not say: {sentence}"
        );
    }
    // Any "`NAME` (number" in the manual gives that constant's value.
    let manual = flowed(&read("docs/hardware.md"));
    let mut checked = 0;
    for (at, _) in manual.match_indices("` (") {
        let Some(open) = manual[..at].rfind('`') else {
            continue;
        };
        let Some(value) = prose_constant(&manual[open + 1..at]) else {
            continue;
        };
        let digits: String = manual[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if digits.is_empty() {
            continue;
        }
        assert_eq!(
            digits.parse::<u64>().unwrap(),
            value,
            "docs/hardware.md: `{}` ({digits}...",
            &manual[open + 1..at]
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} constants given in prose");
}

#[test]
fn the_manual_quotes_the_faults_as_the_console_reports_them() {
    let manual = flowed(&read("docs/hardware.md"));
    let mut c =
        common::console("function update()\n  local n = 0\n  while true do n = n + 1 end\nend");
    let err = c.run_frame(kairo::input::InputFrame::NONE).unwrap_err();
    let runaway = format!("The fault reads `{}`", err.headline());
    assert!(
        manual.contains(&flowed(&runaway)),
        "docs/hardware.md does not say: {runaway}"
    );
    let oom = format!(
        "the cart faults with `{}`",
        kairo::script::ScriptError::OutOfMemory
    );
    assert!(
        manual.contains(&flowed(&oom)),
        "docs/hardware.md does not say: {oom}"
    );
}

/// The commands of the README's first `sh` block, comments removed.
fn readme_commands(readme: &str) -> Vec<(String, String)> {
    let start = readme.find("```sh\n").expect("an sh block") + 6;
    let end = start + readme[start..].find("```").unwrap();
    readme[start..end]
        .lines()
        .map(|l| {
            let (command, comment) = l.split_once('#').unwrap_or((l, ""));
            (command.trim().to_string(), comment.trim().to_string())
        })
        .collect()
}

#[test]
fn readme_and_ci_run_the_same_test_command() {
    let readme = read("README.md");
    let commands = readme_commands(&readme);
    assert_eq!(
        commands,
        [
            (
                "cargo run --release -- carts/platformer".to_string(),
                "play the bundled cart in the console window".to_string()
            ),
            ("cargo test".to_string(), "run the tests".to_string()),
        ]
    );
    assert!(root().join("carts/platformer/cart.toml").is_file());
    // CI runs the README's test command as a line of its own, after the gates and with
    // KAIRO_CI set, so that the tests that need system tools fail there instead of skipping.
    let ci = read(".ci/run");
    let lines: Vec<&str> = ci.lines().map(str::trim).collect();
    let line = |wanted: &str| {
        lines
            .iter()
            .position(|l| *l == wanted)
            .unwrap_or_else(|| panic!(".ci/run has no line `{wanted}`"))
    };
    let test = line(&commands[1].0);
    assert!(line("cargo fmt --check") < test);
    assert!(line("cargo clippy --all-targets -- -D warnings") < test);
    let ci_flag = lines
        .iter()
        .position(|l| l.starts_with("export KAIRO_CI=") && !l.ends_with("=\"\""))
        .expect(".ci/run exports KAIRO_CI");
    assert!(ci_flag < test, "KAIRO_CI is exported before the tests run");
}

#[test]
fn the_gif_guide_states_the_recorders_defaults_and_limits() {
    use kairo::tools::clip::{ClipOptions, MAX_SECONDS, RATES};
    let guide = flowed(&read("docs/gifs.md"));
    let defaults = ClipOptions::default();
    let side = 256 * usize::from(defaults.scale);
    for sentence in [
        format!("the last **{} seconds** of play", defaults.seconds),
        format!("**twice the console's size** ({side}x{side})"),
        format!("**{} frames per second**", defaults.fps),
        format!("at most {MAX_SECONDS};"),
        format!("at {} fps and {side}x{side}", defaults.fps),
        format!("The recorder also does {} fps", RATES[1]),
    ] {
        assert!(guide.contains(&sentence), "docs/gifs.md lacks `{sentence}`");
    }
    assert_eq!(defaults.scale, 2, "the guide says twice");
    assert_eq!(RATES, [30, 50]);
    let readme = flowed(&read("README.md"));
    assert!(readme.contains(&format!(
        "| GIF of the last {} s | F9 | |",
        defaults.seconds
    )));
}

/// The markdown files of the docs: README.md and every `.md` under docs/.
fn markdown_files() -> Vec<std::path::PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn relative_links_in_the_docs_lead_to_files_that_exist() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let path = target.split('#').next().unwrap();
            checked += 1;
            if !file.parent().unwrap().join(path).exists() {
                broken.push(format!(
                    "{}: {target}",
                    file.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_internals_are_linked_from_the_readme_and_their_index() {
    let readme = read("README.md");
    assert!(readme.contains("](docs/internals/README.md)"));
    let index = read("docs/internals/README.md");
    for entry in std::fs::read_dir(root().join("docs/internals")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name != "README.md" {
            assert!(
                index.contains(&format!("]({name})")),
                "docs/internals/README.md does not link {name}"
            );
        }
    }
}

#[test]
fn the_collision_guides_cost_table_gives_the_specs_costs() {
    let rows = table_rows(&read("docs/collision.md"), "## Costs");
    let first_number = |request: &str| -> u64 {
        let row = rows
            .iter()
            .find(|r| r[0] == request)
            .unwrap_or_else(|| panic!("no row for {request}"));
        let digits: String = row[1].chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap()
    };
    assert_eq!(first_number("`move_body`"), cost::MOVE_BODY);
    assert_eq!(first_number("`col_set`, `col_get`"), cost::TILE_PROBE);
    assert_eq!(first_number("`col_platform`"), cost::PLATFORM);
    assert_eq!(first_number("`hb_add`"), cost::HITBOX);
    assert_eq!(first_number("`hb_query`"), cost::HITBOX_QUERY);
    assert_eq!(first_number("`rect_hit`, `point_in`"), cost::HITBOX_TEST);
}
