//! The bullet unit as a cart uses it: emitters, events, cancel, patterns, the frame report,
//! and the `kairo pattern` command.

mod common;

use common::{cart_with, console, kairo, root, temp_dir};
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::meter::Unit;
use kairo::spec::cost;

#[test]
fn emitters_fire_the_expected_counts_and_the_report_counts_them() {
    let mut c = console(
        "function init() bu_type(0, 1) bu_player(128, 200) end
         function update()
           if frame() == 0 then
             log(bu_fire(128, 40, 64, 2, 0), bu_aim(128, 40, 2, 0), bu_nway(128, 40, nil, 5, 8, 2, 0),
                 bu_ring(128, 40, 12, 1, 0), bu_spiral(128, 40, 3, 1, 0, 7))
             bu_burst(128, 40, 8, 1, 0, 2)
           end
           log((bu_count()))
         end",
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    // 22 from the emitters and half of the burst now; its other half waits a frame.
    assert_eq!(c.take_log(), ["true true 5 12 3", "26"]);
    assert_eq!(report.bullets_live, 26);
    assert_eq!(
        report.cycles.get(Unit::Bullets),
        26 * cost::BULLET_SPAWN + 26 * cost::BULLET_LIVE + 26 * cost::HIT_TEST
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["26"]);
    assert_eq!(report.bullets_live, 30, "the burst's second half");
}

#[test]
fn hits_grazes_and_shot_hits_reach_lua_as_events() {
    let mut c = console(
        "function init() bu_type(0, 1) bu_type(1, 1) bu_player(100, 100, 1, 12) end
         local seen = {}
         function update()
           if frame() == 0 then
             bu_fire(100, 60, 64, 4, 0)           -- straight at the player
             bu_fire(108, 60, 64, 4, 0)           -- 8 px beside it: a graze
             bu_shot(10, 150, 0, 40, 1)            -- a fast shot at an enemy box
           end
           bu_target(77, 200, 146, 8, 8)
           for _, e in ipairs(bu_events()) do
             seen[#seen + 1] = e.kind .. (e.target or '')
             if e.kind == 'shot' then log(e.x, e.y) end
           end
           if frame() == 20 then table.sort(seen) log(table.concat(seen, ' ')) end
         end",
    );
    for _ in 0..21 {
        c.run_frame(InputFrame::NONE).unwrap();
    }
    // The bullet that hits also grazed on its way in; the one beside only grazes. The shot
    // (type 1: 2 px either side of its centre) hits where its front edge first reaches the
    // box's left side at x = 200: with its centre at x = 198, on its line y = 150.
    assert_eq!(c.take_log(), ["198 150", "graze graze hit shot77"]);
}

#[test]
fn cancel_returns_the_positions_and_clears_the_table() {
    let mut c = console(
        "function init() bu_type(0, 1) end
         function update()
           if frame() == 0 then bu_ring(128, 128, 8, 0, 0) end
           if frame() == 1 then
             local n, p = bu_cancel(120, 0, 100, 256)
             log(n, #p, (bu_count()))
             local m = bu_cancel()
             log(m, (bu_count()))
           end
         end",
    );
    c.run_frame(InputFrame::NONE).unwrap();
    c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["8 16 0", "0 0"]);
}

#[test]
fn a_full_table_drops_spawns_visibly_in_the_frame_report() {
    let mut c = console(
        "function init() bu_type(0, 1) end function update() if frame() == 0 then for i = 1, 4100 do bu_fire(128, 128, 0, 0, 0) end end end",
    );
    let report = c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!((report.bullets_live, report.bullets_dropped), (4096, 4));
    assert!(
        report.slowed_down(),
        "4100 spawns in one frame is a slowdown"
    );
}

const SPIRAL: &[u8] = br#"<bulletml><action label="top"><repeat><times>50</times><action>
<fire><direction type="sequence">23</direction><speed>1.5</speed><bullet/></fire><wait>2</wait>
</action></repeat></action></bulletml>"#;

#[test]
fn patterns_run_from_a_source_the_cart_moves() {
    let cart = cart_with(&[
        ("main.lua", b"local s function init() bu_type(0, 1) s = bu_pattern('spiral', 128, 40) end
                       function update() bu_source(s, 100 + frame(), 40) if frame() % 50 == 49 then log((bu_count()), bu_source(s)) end end"),
        ("patterns/spiral.xml", SPIRAL),
    ]);
    let mut c = Console::new(cart).unwrap();
    for _ in 0..150 {
        c.run_frame(InputFrame::NONE).unwrap();
    }
    // 50 fires, one every 2 frames; the source ends after the last wait (turn 100); the
    // first bullets have flown off-screen by then.
    let log = c.take_log();
    assert_eq!(log[0], "25 true");
    let count = |line: &str| line.split(' ').next().unwrap().parse::<u32>().unwrap();
    assert!(log[1].ends_with(" true") && count(&log[1]) <= 50, "{log:?}");
    assert!(
        log[2].ends_with(" false") && count(&log[2]) < count(&log[1]),
        "{log:?}"
    );
}

#[test]
fn a_looping_pattern_from_an_aba_file_keeps_firing() {
    // An rRootage file as shipped: DOCTYPE, namespace, CRLF line ends.
    let aba = std::fs::read(root().join("tests/bulletml/rrootage/normal/22way.xml")).unwrap();
    let cart = cart_with(&[
        ("main.lua", b"local once, looping function init() bu_type(0, 1) once = bu_pattern('way', 60, 40) looping = bu_pattern('way', 190, 40, 0, true) end
                       function update() if frame() == 299 then log(bu_source(once), bu_source(looping)) end end"),
        ("patterns/way.xml", &aba),
    ]);
    let mut c = Console::new(cart).unwrap();
    for _ in 0..300 {
        c.run_frame(InputFrame::NONE).unwrap();
    }
    assert_eq!(c.take_log(), ["false true"]);
    assert!(
        !c.machine().bullets().table().is_empty(),
        "the loop still fires"
    );
}

#[test]
fn a_broken_pattern_is_a_cart_error_with_line_and_path() {
    let files = [
        ("main.lua", &b"function update() end"[..]),
        ("patterns/bad.xml", b"<bulletml>\n<action label=\"top\">\n<fireRef label=\"missing\"/>\n</action>\n</bulletml>"),
    ];
    let mut map = std::collections::BTreeMap::new();
    map.insert("cart.toml".to_string(), b"name = \"t\"\n".to_vec());
    for (p, b) in files {
        map.insert(p.to_string(), b.to_vec());
    }
    let err = kairo::cart::Cart::from_files(kairo::cart::files::CartFiles::from_map("t", map))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "patterns/bad.xml:3: bulletml/action[top]/fireRef[missing]: no <fire> labelled \"missing\""
    );
}

#[test]
fn kairo_pattern_headless_prints_per_frame_counts_and_a_screenshot() {
    let dir = temp_dir("pattern");
    let shot = dir.join("spiral.png");
    let (code, out, err) = kairo(
        &[
            "pattern",
            "docs/patterns/spiral.xml",
            "--headless",
            "--frames",
            "120",
            "--screenshot",
            shot.to_str().unwrap(),
            "--stats",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "frame bullets dropped cycles");
    assert!(lines[1].starts_with("0 4 0 "), "{}", lines[1]);
    let peak: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("peak bullets "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(peak > 100, "{peak}");
    assert!(std::fs::metadata(&shot).unwrap().len() > 0);
    // --loop keeps an ABA pattern that fires once and ends firing to the last frame.
    let aim = "tests/bulletml/rrootage/simple/aim.xml";
    let last_count = |extra: &[&str]| {
        let mut args = vec!["pattern", aim, "--headless", "--frames", "300", "--stats"];
        args.extend(extra);
        let (code, out, err) = kairo(&args, &root());
        assert_eq!(code, 0, "{err}");
        let line = out
            .lines()
            .find(|l| l.starts_with("299 "))
            .unwrap()
            .to_string();
        line.split(' ').nth(1).unwrap().parse::<u32>().unwrap()
    };
    assert_eq!(last_count(&[]), 0, "fired once, long gone");
    assert!(last_count(&["--loop"]) > 0);
    let bad = dir.join("bad.xml");
    std::fs::write(
        &bad,
        "<bulletml><action label=\"top\"><wait>$x</wait></action></bulletml>",
    )
    .unwrap();
    let (code, _, err) = kairo(&["pattern", bad.to_str().unwrap(), "--headless"], &root());
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.xml:1: bulletml/action[top]/wait:"),
        "{err}"
    );
}
