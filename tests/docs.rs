//! The docs are part of the product: these tests keep them in step with the code. Each
//! number is checked where it is stated (its table row or its sentence), against the constant
//! or the code it documents, so a number that is right somewhere else does not pass.

mod common;

use common::root;
use kairo::input::Button;
use kairo::spec::*;

/// `(name, value)` of every `pub const` in `spec::cost`, read from the source.
fn cost_constants() -> Vec<(String, String)> {
    let spec = std::fs::read_to_string(root().join("kairo-core/src/spec.rs")).unwrap();
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
            "`COLLISION_CELL_SIZES`, `COLLISION_CELL`, `BODY_MAX_SIZE`, `BODY_MAX_SPEED`, \
             `BODY_MAX_COORD`, `COLLISION_MARGIN_MAX`",
            format!(
                "cells of {} px ({COLLISION_CELL} by default); bodies 1-{BODY_MAX_SIZE} px a \
                 side, at most {BODY_MAX_SPEED} px a frame per axis, within {BODY_MAX_COORD} px \
                 of (0, 0); ground-mode snap margin 0-{COLLISION_MARGIN_MAX} px",
                or_list(&COLLISION_CELL_SIZES.map(|s| s as usize))
            ),
        ),
        (
            "`HITBOX_CAPACITY`, `PLATFORM_CAPACITY`",
            format!("{HITBOX_CAPACITY} hitboxes and {PLATFORM_CAPACITY} moving platforms a frame"),
        ),
        (
            "`BULLET_CAPACITY`, `BULLET_TYPES`, `BULLET_HIT_MAX`, `SHOT_CAPACITY`, \
             `SHOT_MAX_SPEED`, `TARGET_CAPACITY`, `GRAZE_MAX`, `BULLET_CULL_MARGIN_MAX`",
            format!(
                "{BULLET_CAPACITY} bullets, {BULLET_TYPES} types (hit boxes up to \
                 {BULLET_HIT_MAX} px a side), {SHOT_CAPACITY} player shots (at most \
                 {SHOT_MAX_SPEED} px a frame), {TARGET_CAPACITY} targets a frame; the player's \
                 graze box up to {GRAZE_MAX} px; culled up to {BULLET_CULL_MARGIN_MAX} px \
                 off-screen"
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
    use kairo::clip::{ClipOptions, MAX_SECONDS, RATES};
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

// ---------------------------------------------------------------------------------------------
// Draw order: the numbered rules of docs/api.md ("Video") and docs/hardware.md ("Draw order"),
// each checked by the pixels of small carts run in the machine.

/// The numbered list after `<!-- draw order rules -->` in `text`: (number, rule) with the
/// rule's wrapped lines joined.
fn draw_order_rules(doc: &str) -> Vec<(usize, String)> {
    let text = read(doc);
    let marker = "<!-- draw order rules -->\n";
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("{doc} has no `{}`", marker.trim()))
        + marker.len();
    let mut rules: Vec<(usize, String)> = Vec::new();
    for line in text[start..].lines() {
        if line.trim().is_empty() {
            break;
        }
        let numbered = line
            .split_once(". ")
            .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?, rest)));
        match numbered {
            Some((n, rest)) if !line.starts_with(' ') => rules.push((n, rest.to_string())),
            _ => {
                let (_, last) = rules
                    .last_mut()
                    .unwrap_or_else(|| panic!("{doc}: `{line}` before the first rule"));
                last.push(' ');
                last.push_str(line.trim());
            }
        }
    }
    let numbers: Vec<usize> = rules.iter().map(|(n, _)| *n).collect();
    let expected: Vec<usize> = (1..=rules.len()).collect();
    assert_eq!(numbers, expected, "{doc}: the rules are numbered 1, 2, ...");
    rules.into_iter().map(|(n, r)| (n, flowed(&r))).collect()
}

/// One thing that can cover another on screen, as a test cart makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Thing {
    /// Background layer `number`, every cell a solid tile, at `layer_prio` `prio`.
    Layer { number: u8, prio: u8 },
    /// A sprite set with `spr` in OAM entry `entry`.
    Spr { entry: u16, prio: u8 },
    /// A sprite drawn with `sprite` in `draw()`.
    Lent { prio: u8 },
    /// A `rectfill` made at `draw_prio` `prio` in `draw()`.
    Drawing { prio: u8 },
    /// A bullet on the bullet layer, at `bu_layer` `prio`.
    Bullets { prio: u8 },
    /// The backdrop (nothing drawn).
    Backdrop,
    /// `cls(color)`, first thing in `draw()`.
    ClsColour,
}

impl Thing {
    fn prio(self) -> Option<u8> {
        match self {
            Thing::Layer { prio, .. }
            | Thing::Spr { prio, .. }
            | Thing::Lent { prio }
            | Thing::Drawing { prio }
            | Thing::Bullets { prio } => Some(prio),
            Thing::Backdrop | Thing::ClsColour => None,
        }
    }

    fn is_sprite(self) -> bool {
        matches!(self, Thing::Spr { .. } | Thing::Lent { .. })
    }

    fn is_layer(self) -> bool {
        matches!(self, Thing::Layer { .. })
    }

    fn is_drawing(self) -> bool {
        matches!(self, Thing::Drawing { .. })
    }

    /// Made by a call in `draw()`, so the order of the calls may matter.
    fn drawn_in_draw(self) -> bool {
        matches!(
            self,
            Thing::Lent { .. } | Thing::Drawing { .. } | Thing::ClsColour
        )
    }

    /// Whether the two cannot be in one cart as two things (one layer, one bullet layer,
    /// one OAM entry, one backdrop).
    fn clashes(self, other: Thing) -> bool {
        match (self, other) {
            (Thing::Layer { number: a, .. }, Thing::Layer { number: b, .. }) => a == b,
            (Thing::Spr { entry: a, .. }, Thing::Spr { entry: b, .. }) => a == b,
            (Thing::Bullets { .. }, Thing::Bullets { .. }) => true,
            (Thing::Backdrop | Thing::ClsColour, Thing::Backdrop | Thing::ClsColour) => true,
            _ => false,
        }
    }
}

/// Everything the rules can speak of: every kind at every priority, layers 0, 1 and 3, `spr`
/// entries 10, 20 and 255.
fn things() -> Vec<Thing> {
    let mut all = Vec::new();
    for prio in 0..4u8 {
        for number in [0, 1, 3] {
            all.push(Thing::Layer { number, prio });
        }
        for entry in [10, 20, 255] {
            all.push(Thing::Spr { entry, prio });
        }
        all.extend([
            Thing::Lent { prio },
            Thing::Drawing { prio },
            Thing::Bullets { prio },
        ]);
    }
    all.extend([
        Thing::Drawing { prio: 4 },
        Thing::Backdrop,
        Thing::ClsColour,
    ]);
    all
}

/// Two things in one cart: `front` drawn in slot 1 (tile 1, palette 1, colour 0x11), `back`
/// in slot 2 (0x22), both covering pixel (3, 3); of the calls made in `draw()`, `back`'s
/// comes first when `back_first`.
#[derive(Clone, Copy, Debug)]
struct Overlap {
    front: Thing,
    back: Thing,
    back_first: bool,
}

impl Overlap {
    /// The things in the order their calls are made.
    fn in_order(&self) -> [(Thing, u8); 2] {
        if self.back_first {
            [(self.back, 2), (self.front, 1)]
        } else {
            [(self.front, 1), (self.back, 2)]
        }
    }

    /// The OAM entry of each thing that is a sprite (front, back): `spr` entries as set,
    /// `sprite` calls borrowing the highest entry `spr` does not show, from 255 down.
    fn entries(&self) -> (Option<u16>, Option<u16>) {
        let shown: Vec<u16> = [self.front, self.back]
            .iter()
            .filter_map(|t| match t {
                Thing::Spr { entry, .. } => Some(*entry),
                _ => None,
            })
            .collect();
        let mut next = 255u16;
        let mut lent = [None, None];
        for (thing, slot) in self.in_order() {
            match thing {
                Thing::Spr { entry, .. } => lent[usize::from(slot - 1)] = Some(entry),
                Thing::Lent { .. } => {
                    while shown.contains(&next) {
                        next -= 1;
                    }
                    lent[usize::from(slot - 1)] = Some(next);
                    next -= 1;
                }
                _ => {}
            }
        }
        (lent[0], lent[1])
    }

    /// The cart's `main.lua`.
    fn source(&self) -> String {
        let (front_entry, back_entry) = self.entries();
        let mut init = String::from(
            "for y = 0, 7 do for x = 0, 7 do tset(1, x, y, 1) tset(2, x, y, 2) end end\n",
        );
        let mut update = String::new();
        let mut draw = String::new();
        let mut calls = self.in_order().to_vec();
        // `cls` forgets what was drawn before it: it is always the first call.
        calls.sort_by_key(|(t, _)| *t != Thing::ClsColour);
        for (thing, slot) in calls {
            let colour = slot * 0x11;
            let entry = if slot == 1 { front_entry } else { back_entry };
            match thing {
                Thing::Layer { number, prio } => init.push_str(&format!(
                    "layer_size({number}, 32, 32) fill({number}, {slot}, {slot}) \
                     layer_prio({number}, {prio}) layer_on({number})\n"
                )),
                Thing::Spr { entry, prio } => init.push_str(&format!(
                    "spr({entry}, 0, 0, {slot}, 1, {slot}, 0, {prio})\n"
                )),
                Thing::Bullets { prio } => {
                    init.push_str(&format!("bu_type(0, {slot}, 1, {slot}) bu_layer({prio})\n"));
                    update.push_str("if frame() == 0 then bu_fire(4, 4, 0, 0, 0) end\n");
                }
                Thing::Lent { prio } => draw.push_str(&format!(
                    "assert(sprite({slot}, 0, 0, 1, 1, {slot}, 0, {prio}) == {})\n",
                    entry.unwrap()
                )),
                Thing::Drawing { prio } => draw.push_str(&format!(
                    "draw_prio({prio}) rectfill(0, 0, 7, 7, {colour}) draw_prio(4)\n"
                )),
                Thing::ClsColour => draw.push_str(&format!("cls({colour})\n")),
                Thing::Backdrop => {}
            }
        }
        format!("{init}function update()\n{update}end\nfunction draw()\n{draw}end\n")
    }
}

/// The colour index at (3, 3) after two frames of a cart.
fn pixel_of(source: &str) -> u8 {
    let mut console = common::console(source);
    for _ in 0..2 {
        console
            .run_frame(kairo::input::InputFrame::NONE)
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
    }
    console.framebuffer().get(3, 3)
}

/// What the subject of a rule ("X is in front of Y") stands for.
fn rule_front(phrase: &str) -> Option<fn(Thing) -> bool> {
    Some(match phrase {
        "Anything of a higher priority" => |t| t.prio().is_some(),
        "A sprite" => Thing::is_sprite,
        "A drawing made at `draw_prio` 0-3" => |t| matches!(t, Thing::Drawing { prio } if prio < 4),
        "A layer" => Thing::is_layer,
        "A sprite drawn with `sprite`" => |t| matches!(t, Thing::Lent { .. }),
        "A drawing" => Thing::is_drawing,
        "The bullet layer" => |t| matches!(t, Thing::Bullets { .. }),
        "A drawing at `draw_prio` 4 (the default)" => |t| t == Thing::Drawing { prio: 4 },
        "Everything" => |t| t.prio().is_some(),
        _ => return None,
    })
}

/// What the object of a rule stands for, given the subject.
fn rule_back(phrase: &str) -> Option<fn(&Overlap) -> bool> {
    Some(match phrase {
        "anything of a lower priority" => {
            |o| o.back.prio().is_some_and(|b| Some(b) < o.front.prio())
        }
        "the layers and drawings of its priority" => {
            |o| (o.back.is_layer() || o.back.is_drawing()) && o.front.prio() == o.back.prio()
        }
        "the layers of its priority" => |o| o.back.is_layer() && o.front.prio() == o.back.prio(),
        "the layers of its priority with higher numbers" => |o| match (o.front, o.back) {
            (Thing::Layer { number: a, prio: p }, Thing::Layer { number: b, prio: q }) => {
                p == q && b > a
            }
            _ => false,
        },
        "the sprites of its priority in higher OAM entries" => |o| {
            let (a, b) = o.entries();
            o.back.is_sprite() && o.front.prio() == o.back.prio() && b > a && a.is_some()
        },
        "the sprites of its priority drawn with `sprite` before it in the frame" => |o| {
            matches!(o.back, Thing::Lent { .. }) && o.front.prio() == o.back.prio() && o.back_first
        },
        "the drawings of its priority made before it" => {
            |o| o.back.is_drawing() && o.front.prio() == o.back.prio() && o.back_first
        }
        "the sprites, layers and drawings of its priority" => |o| {
            (o.back.is_sprite() || o.back.is_layer() || o.back.is_drawing())
                && o.front.prio() == o.back.prio()
        },
        "every layer, sprite and bullet, whenever it is drawn" => {
            |o| o.back.is_layer() || o.back.is_sprite() || matches!(o.back, Thing::Bullets { .. })
        }
        "the backdrop and of the colour of `cls(color)`" => {
            |o| matches!(o.back, Thing::Backdrop | Thing::ClsColour)
        }
        _ => return None,
    })
}

#[test]
fn the_draw_order_rules_of_the_docs_hold_in_the_machine() {
    let api = draw_order_rules("docs/api.md");
    let manual = draw_order_rules("docs/hardware.md");
    assert_eq!(
        api, manual,
        "docs/api.md and docs/hardware.md give the same rules"
    );
    assert!(api.len() >= 10, "{api:?}");
    let all = things();
    // Each thing alone shows its colour at the pixel the overlaps are read at (so that no
    // rule passes because one of its things draws nothing).
    for &thing in &all {
        let alone = Overlap {
            front: thing,
            back: Thing::Backdrop,
            back_first: true,
        };
        if thing != Thing::Backdrop && thing != Thing::ClsColour {
            assert_eq!(pixel_of(&alone.source()), 0x11, "{thing:?} alone");
        }
    }
    assert_eq!(
        pixel_of(&format!("function draw() cls({}) end", 0x22)),
        0x22,
        "cls(color) alone"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for (number, rule) in &api {
        let sentence = rule.strip_suffix('.').unwrap_or(rule);
        let (front, back) = sentence
            .split_once(" is in front of ")
            .unwrap_or_else(|| panic!("rule {number} is not `X is in front of Y`: {rule}"));
        let front_of = rule_front(front).unwrap_or_else(|| {
            panic!("rule {number}: tests/docs.rs does not know `{front}`: teach it (rule_front)")
        });
        let back_of = rule_back(back).unwrap_or_else(|| {
            panic!("rule {number}: tests/docs.rs does not know `{back}`: teach it (rule_back)")
        });
        let mut cases = 0;
        for &a in all.iter().filter(|&&a| front_of(a)) {
            for &b in &all {
                if a.clashes(b) {
                    continue;
                }
                for back_first in [true, false] {
                    // Order matters only between two calls in `draw()`; `cls` comes first.
                    let both_called = a.drawn_in_draw() && b.drawn_in_draw();
                    if !back_first && (!both_called || b == Thing::ClsColour) {
                        continue;
                    }
                    let overlap = Overlap {
                        front: a,
                        back: b,
                        back_first,
                    };
                    if !back_of(&overlap) {
                        continue;
                    }
                    cases += 1;
                    let shown = pixel_of(&overlap.source());
                    if shown != 0x11 {
                        failures.push(format!(
                            "rule {number} ({rule}): {a:?} over {b:?} ({}): pixel {shown:#04x}, \
                             expected the front's 0x11; cart:\n{}",
                            if back_first {
                                "back called first"
                            } else {
                                "front called first"
                            },
                            overlap.source()
                        ));
                    }
                }
            }
        }
        assert!(cases > 0, "rule {number} found nothing to check: {rule}");
        checked += cases;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} overlaps break the documented draw order:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_draw_order_statement_in_the_docs_is_one_of_the_checked_rules() {
    let rules = draw_order_rules("docs/api.md");
    for doc in ["docs/api.md", "docs/hardware.md"] {
        let text = flowed(&read(doc)).to_lowercase();
        // Where the rules' own words stand in the text (quoted or listed).
        let mut spans = Vec::new();
        for (_, rule) in &rules {
            let words = rule.strip_suffix('.').unwrap_or(rule).to_lowercase();
            for (at, _) in text.match_indices(&words) {
                spans.push(at..at + words.len());
            }
        }
        // "rule N: ..." quotes rule N.
        for (at, _) in text.match_indices("rule ") {
            let rest = &text[at + 5..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let Some(quote) = rest[digits.len()..].strip_prefix(": ") else {
                continue;
            };
            let n: usize = digits.parse().unwrap();
            let (_, rule) = rules
                .get(n.wrapping_sub(1))
                .unwrap_or_else(|| panic!("{doc} quotes rule {n}, which does not exist"));
            let words = rule.strip_suffix('.').unwrap_or(rule).to_lowercase();
            assert!(
                quote.starts_with(&words),
                "{doc}: `rule {n}: {}...` is not rule {n} ({rule})",
                &quote[..quote.len().min(80)]
            );
        }
        // Every "in front" and "behind" is inside one of the rules.
        let mut loose = Vec::new();
        for word in ["in front", "behind"] {
            for (at, _) in text.match_indices(word) {
                if text[at..].starts_with("behind `string.") {
                    continue; // the pattern matcher "behind `string.find`", not a picture
                }
                if !spans.iter().any(|s| s.contains(&at)) {
                    let mut to = (at + 40).min(text.len());
                    while !text.is_char_boundary(to) {
                        to += 1;
                    }
                    let from = text[..at]
                        .char_indices()
                        .rev()
                        .nth(60)
                        .map_or(0, |(i, _)| i);
                    loose.push(format!("...{}...", &text[from..to]));
                }
            }
        }
        assert!(
            loose.is_empty(),
            "{doc} says what is in front of what outside the numbered draw order rules \
             (quote a rule instead, as `rule N: <its words>`):\n{}",
            loose.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// docs/cart-format.md, "Where the tiles go": the formula giving the pattern tile of a Tiled
// tile of a `[[sheet]]`, evaluated as written against the loader on generated sheets; its
// table of examples; and the note `kairo check` prints for a sheet it cuts.

/// The value of an integer expression of `+ - * // %`, parentheses, numbers and `vars`
/// (`//` rounds down, as in the docs).
fn eval(expr: &str, vars: &std::collections::BTreeMap<String, i64>) -> i64 {
    #[derive(Clone, Debug, PartialEq)]
    enum Token {
        Num(i64),
        Name(String),
        Op(&'static str),
    }
    let mut tokens = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let digits: String = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            i += digits.len();
            tokens.push(Token::Num(digits.parse().unwrap()));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let name: String = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                .collect();
            i += name.len();
            tokens.push(Token::Name(name));
        } else if chars[i..].starts_with(&['/', '/']) {
            i += 2;
            tokens.push(Token::Op("//"));
        } else {
            let op = ["+", "-", "*", "%", "(", ")"]
                .into_iter()
                .find(|op| op.starts_with(c))
                .unwrap_or_else(|| panic!("`{c}` in `{expr}`"));
            i += 1;
            tokens.push(Token::Op(op));
        }
    }
    struct Parser<'a> {
        tokens: Vec<Token>,
        at: usize,
        vars: &'a std::collections::BTreeMap<String, i64>,
        expr: &'a str,
    }
    impl Parser<'_> {
        fn peek(&self) -> Option<&Token> {
            self.tokens.get(self.at)
        }
        fn sum(&mut self) -> i64 {
            let mut value = self.product();
            while let Some(Token::Op(op @ ("+" | "-"))) = self.peek().cloned() {
                self.at += 1;
                let rhs = self.product();
                value = if op == "+" { value + rhs } else { value - rhs };
            }
            value
        }
        fn product(&mut self) -> i64 {
            let mut value = self.atom();
            while let Some(Token::Op(op @ ("*" | "//" | "%"))) = self.peek().cloned() {
                self.at += 1;
                let rhs = self.atom();
                value = match op {
                    "*" => value * rhs,
                    "//" => value.div_euclid(rhs),
                    _ => value.rem_euclid(rhs),
                };
            }
            value
        }
        fn atom(&mut self) -> i64 {
            let token = self.peek().cloned();
            self.at += 1;
            match token {
                Some(Token::Num(n)) => n,
                Some(Token::Name(name)) => *self
                    .vars
                    .get(&name)
                    .unwrap_or_else(|| panic!("`{name}` is not known in `{}`", self.expr)),
                Some(Token::Op("(")) => {
                    let value = self.sum();
                    assert_eq!(self.peek(), Some(&Token::Op(")")), "`{}`", self.expr);
                    self.at += 1;
                    value
                }
                other => panic!("{other:?} in `{}`", self.expr),
            }
        }
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        vars,
        expr,
    };
    let value = parser.sum();
    assert_eq!(
        parser.at,
        parser.tokens.len(),
        "trailing tokens in `{expr}`"
    );
    value
}

/// The formula block of docs/cart-format.md: its lines `name = expression` before the cases,
/// and those of the case "up to 128 px wide" and "wider than 128 px".
struct TileFormula {
    common: Vec<(String, String)>,
    narrow: Vec<(String, String)>,
    wide: Vec<(String, String)>,
}

impl TileFormula {
    fn from_docs() -> TileFormula {
        let text = read("docs/cart-format.md");
        let marker = "<!-- formula: Tiled tile to pattern tile";
        let start = text.find(marker).expect("the formula's marker");
        let block = &text[start..];
        let open = block.find("```text\n").expect("the formula's block") + 8;
        let block = &block[open..open + block[open..].find("```").unwrap()];
        let mut formula = TileFormula {
            common: Vec::new(),
            narrow: Vec::new(),
            wide: Vec::new(),
        };
        let mut case: Option<bool> = None; // Some(true): wider than 128 px
        for line in block.lines() {
            let line = line.split('#').next().unwrap().trim();
            if line.is_empty() {
                continue;
            }
            if line.ends_with(':') {
                case = Some(if line.contains("up to 128 px wide") {
                    false
                } else if line.contains("wider than 128 px") {
                    true
                } else {
                    panic!("a case the test does not know: `{line}`")
                });
                continue;
            }
            let (name, expr) = line
                .split_once('=')
                .unwrap_or_else(|| panic!("not `name = expression`: `{line}`"));
            let step = (name.trim().to_string(), expr.trim().to_string());
            match case {
                None => formula.common.push(step),
                Some(false) => formula.narrow.push(step),
                Some(true) => formula.wide.push(step),
            }
        }
        assert!(!formula.narrow.is_empty() && !formula.wide.is_empty());
        formula
    }

    /// `top` for Tiled tile `k` of a sheet `width` px wide of `size` px tiles at `base`.
    fn top(&self, width: usize, size: usize, base: usize, k: usize) -> i64 {
        let mut vars: std::collections::BTreeMap<String, i64> =
            [("width", width), ("size", size), ("base", base), ("k", k)]
                .into_iter()
                .map(|(n, v)| (n.to_string(), v as i64))
                .collect();
        let case = if width > 128 {
            &self.wide
        } else {
            &self.narrow
        };
        for (name, expr) in self.common.iter().chain(case) {
            let value = eval(expr, &vars);
            vars.insert(name.clone(), value);
        }
        vars["top"]
    }
}

/// Colour index (1-15) of pixel (x, y) of tile `k` of a generated sheet: its first row
/// spells `k` in base 15, so every tile differs; the rest varies across the tile so that
/// its 8x8 parts differ too.
fn sheet_index(k: usize, x: usize, y: usize) -> u8 {
    let digit = if y == 0 && x < 4 {
        k / 15usize.pow(x as u32)
    } else {
        x * 7 + y * 3 + x * y + k
    };
    1 + (digit % 15) as u8
}

/// An indexed PNG `w` x `h` of `size` px tiles drawn with `sheet_index` (16 colours, one bank:
/// the loader keeps the indices).
fn generated_sheet(w: usize, h: usize, size: usize) -> Vec<u8> {
    let cols = w / size;
    let mut data = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let k = (y / size) * cols + x / size;
            data.push(sheet_index(k, x % size, y % size));
        }
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(
        (0..16u8)
            .flat_map(|i| [i * 16, 255 - i * 16, i * 7])
            .collect::<Vec<_>>(),
    );
    encoder.set_trns(vec![0u8]);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

/// A cart with the generated sheet `sheet.png` (`w` x `h`, `size` px tiles) at `base`, and a
/// map `m` whose tileset is that image and whose layer shows Tiled tile k in cell k.
fn sheet_cart(w: usize, h: usize, size: usize, base: usize) -> kairo::cart::Cart {
    let (cols, count) = (w / size, (w / size) * (h / size));
    let rows = count.div_ceil(16);
    let cells: Vec<String> = (0..16 * rows)
        .map(|i| if i < count { i + 1 } else { 0 }.to_string())
        .collect();
    let tmx = format!(
        r#"<map orientation="orthogonal" width="16" height="{rows}" tilewidth="{size}" tileheight="{size}">
 <tileset firstgid="1" name="s" tilewidth="{size}" tileheight="{size}" tilecount="{count}" columns="{cols}">
  <image source="sheet.png" width="{w}" height="{h}"/>
 </tileset>
 <layer name="l" width="16" height="{rows}"><data encoding="csv">{}</data></layer>
</map>"#,
        cells.join(",")
    );
    let toml = format!(
        "name = \"t\"\n[[sheet]]\nfile = \"sheet.png\"\ntile = {base}\npalette = 1\n\
         tile_size = {size}\n[[map]]\nfile = \"m.tmx\"\nname = \"m\"\n"
    );
    let png = generated_sheet(w, h, size);
    let files = [
        ("cart.toml", toml.as_bytes()),
        ("sheet.png", png.as_slice()),
        ("m.tmx", tmx.as_bytes()),
        ("main.lua", b""),
    ];
    let map = files
        .iter()
        .map(|(p, b)| (p.to_string(), b.to_vec()))
        .collect();
    kairo::cart::Cart::from_files(kairo::cart::files::CartFiles::from_map("t", map))
        .unwrap_or_else(|e| panic!("{w}x{h} sheet of {size} px tiles at {base}: {e}"))
}

/// Where the loader put each Tiled tile of a sheet cart: the pattern tile of cell k, after
/// checking that its 8x8 parts hold the sheet's pixels.
fn loaded_tops(cart: &kairo::cart::Cart, w: usize, h: usize, size: usize) -> Vec<usize> {
    let (cols, count, n) = (w / size, (w / size) * (h / size), size / 8);
    let cells = &cart.maps["m"].layers[0].cells;
    (0..count)
        .map(|k| {
            let top = cells[k].tile();
            for part in 0..n * n {
                let (px, py) = (part % n, part / n);
                let tile = top + py * 16 + px;
                for y in 0..8 {
                    for x in 0..8 {
                        let (lx, ly) = (px * 8 + x, py * 8 + y);
                        assert_eq!(
                            cart.patterns.pixel(tile, x, y),
                            sheet_index(k, lx, ly),
                            "{w}x{h} of {size} px: Tiled tile {k} (of {cols} a row) is not at \
                             pattern tile {top}"
                        );
                    }
                }
            }
            top
        })
        .collect()
}

/// Checks the note the loader gave a cut sheet against where its tiles went: the ranges of
/// pattern tiles, and the formula (evaluated for every tile).
fn check_cut_note(note: &str, tops: &[usize], size: usize) {
    let n = size / 8;
    let (head, formula) = note
        .split_once("; tile k's top-left is pattern tile ")
        .unwrap_or_else(|| panic!("no formula in `{note}`"));
    let mut vars = std::collections::BTreeMap::new();
    for (k, &top) in tops.iter().enumerate() {
        vars.insert("k".to_string(), k as i64);
        assert_eq!(eval(formula, &vars), top as i64, "`{note}`, tile {k}");
    }
    let ranges = head
        .split_once(" of pattern VRAM from pattern tile ")
        .and_then(|(_, r)| Some(r.split_once(": ")?.1))
        .unwrap_or_else(|| panic!("no ranges in `{note}`"));
    let span = |text: &str| -> (usize, usize) {
        let (a, z) = text.split_once('-').unwrap_or((text, text));
        (a.trim().parse().unwrap(), z.trim().parse().unwrap())
    };
    let mut next = 0;
    for range in ranges.split("; ") {
        let (blocks, runs) = range
            .split_once(" -> pattern tiles ")
            .unwrap_or_else(|| panic!("`{range}` in `{note}`"));
        let blocks = blocks
            .trim_start_matches("tiles ")
            .trim_start_matches("tile ");
        let (first, last) = span(blocks);
        assert_eq!(first, next, "`{note}`: ranges in order, each tile once");
        let mut said: Vec<usize> = runs
            .split(", ")
            .flat_map(|run| {
                let (a, z) = span(run);
                a..=z
            })
            .collect();
        let mut went: Vec<usize> = tops[first..=last]
            .iter()
            .flat_map(|&top| (0..n * n).map(move |p| top + (p / n) * 16 + p % n))
            .collect();
        said.sort_unstable();
        went.sort_unstable();
        assert_eq!(said, went, "`{range}` of `{note}`");
        next = last + 1;
    }
    assert_eq!(next, tops.len(), "`{note}` names every tile");
}

#[test]
fn the_tiled_tile_formula_and_its_examples_give_where_the_loader_puts_tiles() {
    let formula = TileFormula::from_docs();
    // Sheets up to 128 px wide and wider, of each tile size, from the start or the middle of
    // a row of pattern VRAM and lower down.
    let mut sheets: Vec<(usize, usize, usize, usize)> = vec![
        (128, 16, 8, 0),
        (64, 16, 8, 5),
        (136, 16, 8, 3),
        (320, 24, 8, 512),
        (128, 32, 16, 256),
        (96, 32, 16, 2),
        (144, 32, 16, 0),
        (256, 64, 16, 8),
        (272, 48, 16, 100),
        (512, 32, 16, 1024),
        (128, 64, 32, 0),
        (160, 32, 32, 0),
        (256, 64, 32, 8),
        (384, 64, 32, 0),
        (512, 64, 32, 320),
    ];
    // The examples' table: each row loaded as it says.
    let rows = table_rows(
        &read("docs/cart-format.md"),
        "<!-- examples: Tiled tile to pattern tile; tests/docs.rs loads each sheet -->",
    );
    assert_eq!(
        rows[0],
        [
            "sheet (px)",
            "tile size",
            "`tile`",
            "Tiled tile `k`",
            "pattern tile"
        ]
    );
    assert!(rows.len() > 5, "{rows:?}");
    let number = |cell: &str| -> usize {
        cell.trim_matches('`')
            .parse()
            .unwrap_or_else(|_| panic!("`{cell}` is not a number"))
    };
    let mut examples = Vec::new();
    for row in &rows[1..] {
        let (w, h) = row[0].split_once(" x ").expect("sheet as `W x H`");
        let sheet = (number(w), number(h), number(&row[1]), number(&row[2]));
        examples.push((sheet, number(&row[3]), number(&row[4])));
        sheets.push(sheet);
    }
    let mut cut = 0;
    for &(w, h, size, base) in &sheets {
        let cart = sheet_cart(w, h, size, base);
        let tops = loaded_tops(&cart, w, h, size);
        for (k, &top) in tops.iter().enumerate() {
            assert_eq!(
                formula.top(w, size, base, k),
                top as i64,
                "docs/cart-format.md's formula, {w}x{h} sheet of {size} px tiles at {base}, \
                 Tiled tile {k}: the loader put it at pattern tile {top}"
            );
        }
        for &((ew, eh, esize, ebase), k, top) in &examples {
            if (ew, eh, esize, ebase) == (w, h, size, base) {
                assert_eq!(
                    tops[k], top,
                    "docs/cart-format.md's example: {w} x {h}, tile size {size}, `tile` {base}, \
                     Tiled tile {k} is pattern tile {top}; the loader put it at {}",
                    tops[k]
                );
            }
        }
        // A sheet the loader cut has its note, which says the same.
        let notes: Vec<&String> = cart
            .notes
            .iter()
            .filter(|n| n.starts_with(&format!("sheet.png: {w}x{h} px, wider than 128 px")))
            .collect();
        assert_eq!(notes.len(), usize::from(w > 128), "{:?}", cart.notes);
        if let Some(note) = notes.first() {
            check_cut_note(note, &tops, size);
            cut += 1;
        }
    }
    assert!(cut >= 8, "{cut} cut sheets");
}

#[test]
fn kairo_check_prints_the_note_the_cart_format_shows_for_a_cut_sheet() {
    let text = read("docs/cart-format.md");
    let marker = "<!-- example: kairo check on that sheet";
    let block = &text[text.find(marker).expect("the example's marker")..];
    let open = block.find("```text\n").unwrap() + 8;
    let line = block[open..].lines().next().unwrap();
    // "note: FILE: WxH px, wider than 128 px, so cut into N tiles of S px, ... from pattern
    // tile B: ..."
    let rest = line.strip_prefix("note: ").expect("a note line");
    let (file, rest) = rest.split_once(": ").unwrap();
    let (size_px, rest) = rest.split_once(" px, ").unwrap();
    let (w, h) = size_px.split_once('x').unwrap();
    let tile_size = rest
        .split_once(" tiles of ")
        .unwrap()
        .1
        .split_once(" px")
        .unwrap()
        .0;
    let base = rest
        .split_once("from pattern tile ")
        .unwrap()
        .1
        .split_once(':')
        .unwrap()
        .0;
    let (w, h, size): (usize, usize, usize) = (
        w.parse().unwrap(),
        h.parse().unwrap(),
        tile_size.parse().unwrap(),
    );
    let dir = common::temp_dir("cut-note");
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, generated_sheet(w, h, size)).unwrap();
    std::fs::write(dir.join("main.lua"), "").unwrap();
    std::fs::write(
        dir.join("cart.toml"),
        format!(
            "name = \"wide\"\n[[sheet]]\nfile = \"{file}\"\ntile = {base}\ntile_size = {size}\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = common::kairo(&["check", dir.to_str().unwrap()], &root());
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.lines().any(|l| l == line),
        "kairo check does not print the line docs/cart-format.md shows:\n{line}\nit prints:\n{stdout}"
    );
}

#[test]
fn the_testing_guide_names_every_test_file() {
    let guide = std::fs::read_to_string(root().join("docs/internals/testing.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("tests")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".rs") && !guide.contains(&format!("`{name}`")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/internals/testing.md does not name {missing:?}: add each to its table"
    );
}
