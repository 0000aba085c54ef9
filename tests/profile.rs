//! The profiler: attribution that sums exactly, sections with known costs, function sampling,
//! the `kairo profile` outputs (report, SVG, JSON, Perfetto trace), the `--max-load` gate on
//! the worked example of docs/profiling.md, and a golden picture of the overlay.

mod common;

use std::path::{Path, PathBuf};

use common::{TempDir, bundled, console, kairo, root, temp_dir};
use kairo::console::{Console, Tick};
use kairo::input::InputFrame;
use kairo::meter::Unit;
use kairo::profile::FrameProfile;
use kairo::profiling::history::History;
use kairo::profiling::overlay::{self, OverlayMode, OverlayView};
use kairo::spec::{LUA_HOOK_INTERVAL, cost};

/// Runs `console` profiled for `vblanks`; returns the frames with their reports' totals.
fn profiled(console: &mut Console, vblanks: usize) -> Vec<(FrameProfile, u64)> {
    console.set_profiling(true);
    let mut frames = Vec::new();
    for _ in 0..vblanks {
        let tick = console.tick(InputFrame::NONE).expect("no fault");
        let profile = console.take_profile();
        if let Tick::Frame(report) = tick {
            frames.push((profile.expect("a profile per frame"), report.total()));
        } else {
            assert!(profile.is_none(), "busy vblanks leave no profile");
        }
    }
    frames
}

/// The worked example cart of docs/profiling.md.
fn example() -> PathBuf {
    root().join("docs/examples/slowdown")
}

/// A copy of the worked example with its ring spread over `frames` frames.
fn spread_example(frames: u32) -> TempDir {
    let dir = temp_dir(&format!("spread-{frames}"));
    for file in ["cart.toml", "main.lua"] {
        let text = std::fs::read_to_string(example().join(file)).unwrap();
        let text = text.replace(
            "local SPREAD_FRAMES = 1",
            &format!("local SPREAD_FRAMES = {frames}"),
        );
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn attribution_sums_to_the_frame_total_exactly() {
    for cart in [bundled("platformer"), example()] {
        let open = || Console::new(kairo::cart::Cart::open(&cart).unwrap()).unwrap();
        let mut console = open();
        let frames = profiled(&mut console, 200);
        assert!(frames.len() > 150);
        for (p, total) in &frames {
            assert_eq!(p.total(), *total, "frame {}", p.frame);
            let functions: u64 = p.functions.iter().map(|(_, c)| c).sum();
            assert_eq!(functions, p.unit(Unit::Script), "frame {}", p.frame);
            assert_eq!(p.video.total(), p.unit(Unit::Video), "frame {}", p.frame);
            assert!(
                p.functions.iter().all(|(n, _)| &**n != "(outside Lua)"),
                "every script cycle has a Lua function: {:?}",
                p.functions
            );
        }
        // Profiling changes nothing in the machine: same frames, same cycles.
        let mut plain = open();
        let mut totals = Vec::new();
        for _ in 0..200 {
            if let Tick::Frame(report) = plain.tick(InputFrame::NONE).unwrap() {
                totals.push(report.total());
            }
        }
        let profiled_totals: Vec<u64> = frames.iter().map(|(_, t)| *t).collect();
        assert_eq!(totals, profiled_totals, "{}", cart.display());
        assert_eq!(plain.rgba(), console.rgba());
    }
}

#[test]
fn sections_get_exactly_their_known_costs() {
    let mut c = console(
        r#"
        function init() bu_type(0, 1) end
        function update()
          prof_begin("ring")
          bu_ring(128, 128, 10, 1, 0)
          prof_end()
          prof_begin("text")
          print("HELLO", 0, 0)
          prof_begin("inner")
          print("HI", 0, 8)
          prof_end()
          prof_end()
          prof_begin("loop")
          for i = 1, 1000 do end
          prof_end()
        end
    "#,
    );
    let frames = profiled(&mut c, 3);
    for (p, _) in &frames {
        let section = |name: &str| {
            p.sections
                .iter()
                .find(|s| &*s.name == name)
                .unwrap_or_else(|| panic!("section {name} in {:?}", p.sections))
        };
        // Script: the calls made inside, plus the instructions, which the hook counts in
        // batches of LUA_HOOK_INTERVAL.
        let script_ok = |cycles: u64, calls: u64, instructions: std::ops::RangeInclusive<u64>| {
            let counted = cycles - calls * cost::API_CALL;
            counted.is_multiple_of(u64::from(LUA_HOOK_INTERVAL))
                && counted >= instructions.start().saturating_sub(32)
                && counted <= instructions.end() + 32
        };
        let ring = section("ring");
        assert_eq!(ring.calls, 1);
        assert_eq!(ring.cycles.get(Unit::Bullets), 10 * cost::BULLET_SPAWN);
        assert_eq!(ring.cycles.get(Unit::Video), 0);
        assert!(
            script_ok(ring.cycles.get(Unit::Script), 1, 0..=10),
            "{ring:?}"
        );

        let inner = section("inner");
        assert_eq!(inner.cycles.get(Unit::Video), 2 * cost::GLYPH);
        assert!(script_ok(inner.cycles.get(Unit::Script), 1, 0..=10));
        let text = section("text");
        assert_eq!(
            text.cycles.get(Unit::Video),
            7 * cost::GLYPH,
            "nested included"
        );
        assert!(script_ok(text.cycles.get(Unit::Script), 4, 0..=20));
        assert_eq!(text.cycles.get(Unit::Bullets), 0);

        let looped = section("loop");
        assert!(
            script_ok(looped.cycles.get(Unit::Script), 0, 1000..=1010),
            "{looped:?}"
        );
        assert_eq!(looped.cycles.total(), looped.cycles.get(Unit::Script));
    }
}

#[test]
fn functions_are_named_and_ranked_by_their_own_cycles() {
    let mut c = console(
        r#"
        local function heavy() for i = 1, 3000 do end end
        local function light() for i = 1, 300 do end end
        function update() heavy() light() end
    "#,
    );
    let frames = profiled(&mut c, 2);
    let (p, _) = &frames[1];
    let names: Vec<&str> = p.functions.iter().map(|(n, _)| &**n).collect();
    assert_eq!(names[0], "heavy (main.lua:2)", "{:?}", p.functions);
    assert_eq!(names[1], "light (main.lua:3)", "{:?}", p.functions);
    let heavy = p.functions[0].1;
    assert!((2990..=3040).contains(&heavy), "heavy {heavy}");
}

#[test]
fn section_misuse_is_a_clear_error_or_a_warning() {
    let mut c = console("function update()\n  prof_end()\nend\n");
    let e = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(
        e.contains("main.lua:2") && e.contains("prof_end") && e.contains("no section is open"),
        "{e}"
    );

    let mut c = console("function update() prof_begin(\"open\") end\n");
    for _ in 0..3 {
        c.run_frame(InputFrame::NONE).unwrap();
    }
    let log = c.take_log();
    let warnings: Vec<&String> = log.iter().filter(|l| l.contains("\"open\"")).collect();
    assert_eq!(warnings.len(), 1, "warned once: {log:?}");
    assert!(warnings[0].contains("still open at the end of frame 0"));

    let mut c = console("function update() prof_begin(string.rep('x', 40)) end\n");
    let e = c.run_frame(InputFrame::NONE).unwrap_err().to_string();
    assert!(e.contains("1 to 32 bytes"), "{e}");
}

fn run_profile(cart: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["profile", cart.to_str().unwrap()];
    args.extend_from_slice(extra);
    kairo(&args, &root())
}

#[test]
fn profile_writes_a_report_svg_json_and_trace() {
    let dir = temp_dir("profile-outputs");
    let (svg, json, trace) = (dir.join("p.svg"), dir.join("p.json"), dir.join("t.json"));
    let (code, out, err) = run_profile(
        &example(),
        &[
            "--frames",
            "150",
            "--svg",
            svg.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    // The rings at frames 59 and 119 slow the game down: 150 vblanks hold 148 frames.
    assert!(out.contains("148 frames in 150 vblanks"), "{out}");
    assert!(out.contains("slowdown frames: 2: 59 (2 vblanks"), "{out}");
    assert!(out.contains("move_stars (main.lua:"), "{out}");
    for bucket in [
        "script",
        "video",
        "  layer 0",
        "  sprites",
        "collision",
        "bullets",
    ] {
        assert!(out.contains(&format!("\n{bucket} ")), "{bucket} in {out}");
    }
    assert!(out.contains("draw stars"), "{out}");
    assert!(out.contains("host time (real time"), "{out}");

    // JSON: every frame, units summing to the total.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("the JSON parses");
    assert_eq!(doc["format"], "kairo-profile");
    let frames = doc["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 148);
    for f in frames {
        let units: u64 = f["units"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(units, f["cycles"].as_u64().unwrap());
    }
    assert_eq!(doc["summary"]["frames"], 148);
    assert_eq!(doc["summary"]["slowdowns"].as_array().unwrap().len(), 2);

    // SVG: well-formed, one bar per frame in every unit with cycles, budget line, marks.
    let text = std::fs::read_to_string(&svg).unwrap();
    let svg_doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    let root_el = svg_doc.root_element();
    assert_eq!(root_el.tag_name().name(), "svg");
    let by_class = |class: &str| {
        svg_doc
            .descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect::<Vec<_>>()
    };
    let system = by_class("unit-system");
    assert_eq!(system.len(), 1);
    let bars = system[0].attribute("d").unwrap().matches('M').count();
    assert_eq!(bars, 148, "one system bar per frame");
    assert_eq!(by_class("budget").len(), 1);
    assert_eq!(by_class("slowdown-mark").len(), 2);
    assert!(text.contains("148 frames"));

    // Trace: valid trace-event JSON with a slice per frame and the slowdowns marked.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let events = doc["traceEvents"].as_array().expect("traceEvents");
    for e in events {
        let ph = e["ph"].as_str().expect("ph");
        assert!(["X", "i", "C", "M"].contains(&ph), "{e}");
        assert!(
            e["name"].is_string() && e["pid"].is_u64() && e["tid"].is_u64(),
            "{e}"
        );
        if ph != "M" {
            assert!(e["ts"].as_f64().unwrap() >= 0.0, "{e}");
        }
        if ph == "X" {
            assert!(e["dur"].as_f64().unwrap() >= 0.0, "{e}");
        }
    }
    let frame_slices = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == 0)
        .count();
    assert_eq!(frame_slices, 148);
    let slow = events
        .iter()
        .filter(|e| e["ph"] == "i" && e["name"] == "slowdown")
        .count();
    assert_eq!(slow, 2);
    let tracks: Vec<&str> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    for unit in Unit::ALL {
        assert!(tracks.contains(&unit.name()), "{tracks:?}");
    }
}

#[test]
fn max_load_fails_on_the_spike_and_passes_once_it_is_spread() {
    let (code, out, err) = run_profile(&example(), &["--frames", "130", "--max-load", "100"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("2 frame(s) over the 100% load limit: 59 ("),
        "{err}"
    );
    let spread = spread_example(3);
    let (code, out, err) = run_profile(&spread, &["--frames", "130", "--max-load", "100"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("slowdown frames: none"), "{out}");
    let (code, _, err) = run_profile(&spread, &["--max-load=-5"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--max-load must be a positive percentage"),
        "{err}"
    );
}

/// The overlay drawn over the example's picture after 150 vblanks (host times fixed, as
/// they vary from run to run).
fn overlay_picture(mode: OverlayMode, cursor: Option<usize>) -> Vec<u8> {
    let mut c = Console::new(kairo::cart::Cart::open(&example()).unwrap()).unwrap();
    let mut history = History::new(kairo::profiling::history::OVERLAY_FRAMES);
    for (mut p, _) in profiled(&mut c, 150) {
        p.host = Default::default();
        history.push(p);
    }
    let mut rgba = c.rgba();
    let view = OverlayView {
        mode,
        cursor,
        host_fps: 60.0,
        host_us: 1500.0,
    };
    overlay::draw(&mut rgba, &history, &view);
    rgba
}

#[test]
fn the_overlay_matches_its_golden_pictures() {
    let pictures = [
        ("full", overlay_picture(OverlayMode::Full, None)),
        ("compact", overlay_picture(OverlayMode::Compact, None)),
        ("cursor", overlay_picture(OverlayMode::Full, Some(58))),
    ];
    common::check_golden_pictures("overlay.txt", &pictures);
    // docs/profiling.md shows the full overlay.
    let png = kairo::views::screenshot::encode_png(&pictures[0].1).unwrap();
    common::docs_picture_is_current("profiler-overlay.png", &png);

    // The strip leaves the top of the picture alone.
    let full = &pictures[0].1;
    let plain = {
        let mut c = Console::new(kairo::cart::Cart::open(&example()).unwrap()).unwrap();
        profiled(&mut c, 150);
        c.rgba()
    };
    let top = 256 - overlay::strip_height(OverlayMode::Full);
    assert_eq!(full[..top * 256 * 4], plain[..top * 256 * 4]);
    assert_ne!(full[top * 256 * 4..], plain[top * 256 * 4..]);
}

#[test]
fn the_chart_in_the_docs_is_the_worked_example_run() {
    let chart = temp_dir("docs-chart");
    let options = kairo::profiling::command::ProfileOptions {
        cart: example(),
        vblanks: 300,
        svg: Some(chart.join("p.svg")),
        ..Default::default()
    };
    kairo::profiling::command::profile(&options, &mut |_| {}).unwrap();
    let made = std::fs::read_to_string(options.svg.as_ref().unwrap()).unwrap();
    let docs = root().join("docs/img/slowdown-profile.svg");
    if std::env::var_os("KAIRO_UPDATE_DOCS").is_some() {
        std::fs::write(&docs, &made).unwrap();
    }
    let shown = std::fs::read_to_string(&docs).expect("docs/img/slowdown-profile.svg");
    assert!(
        shown == made,
        "docs/img/slowdown-profile.svg is stale (KAIRO_UPDATE_DOCS=1 rewrites it)"
    );
}
