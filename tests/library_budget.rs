//! Lua's own library is charged by the work it does (issue: "every cycle counted"): long
//! strings, many values and full collections cost cycles in proportion, the same in every
//! run, and a library function past the runaway cap stops part way instead of stalling the
//! host at a low reported load. Timing is never asserted here: `kairo bench calibration`
//! measures host time per cycle (see docs/internals/calibration.md).

mod common;

use common::{console, kairo, root, temp_dir};
use kairo::input::InputFrame;
use kairo::script::ScriptError;
use kairo::spec::{WORK_FREE_BYTES, WORK_LIBRARY_ITEMS, WORK_SCAN_BYTES, WORK_STRING_BYTES, cost};

/// The cycles `body` (a Lua chunk run in `init`) is charged, measured with `cycles()`.
fn charged(setup: &str, body: &str) -> u64 {
    let mut c = console(&format!(
        "{setup}\nfunction init() local before = cycles() {body} log(cycles() - before) end"
    ));
    c.take_log()[0].parse().unwrap()
}

#[test]
fn long_strings_cost_their_bytes() {
    let setup = "local S = string.rep('Kairo abc 12345!', 4096)"; // 65536 bytes
    let n = 65536 - WORK_FREE_BYTES;
    // upper: each byte transformed, then the result made.
    let upper = charged(setup, "local u = S:upper()");
    let floor = n / WORK_SCAN_BYTES * cost::SCAN_BYTES + n / WORK_STRING_BYTES * cost::STRING_BYTES;
    assert!(
        (floor..floor + 64).contains(&upper),
        "upper: {upper}, at least {floor}"
    );
    // A short string costs what its instructions (and the measuring `cycles()`) cost.
    let short = charged("local s = 'Kairo'", "local u = s:upper()");
    assert!(short < 64, "{short}");
    // Concatenation, comparison and a first use as a key each pay for the bytes.
    let concat = charged(setup, "local c = S .. S");
    let made = (2 * 65536 - WORK_FREE_BYTES) / WORK_STRING_BYTES;
    assert!((made..made + 64).contains(&concat), "concat: {concat}");
    let key = charged(setup, "local k = S:sub(2) local t = {} t[k] = 1");
    assert!(
        key > (65535 - WORK_FREE_BYTES) / WORK_SCAN_BYTES,
        "hashing a key: {key}"
    );
}

#[test]
fn values_cost_what_moves_them() {
    let setup = "local T = {} for i = 1, 20000 do T[i] = i end";
    let moved = charged(setup, "local c = table.move(T, 1, #T, 1, {})");
    let floor = 2 * 20000 / WORK_LIBRARY_ITEMS * cost::LIBRARY_ITEMS;
    assert!((floor..floor + 64).contains(&moved), "table.move: {moved}");
    let unpacked = charged(setup, "local n = select('#', table.unpack(T))");
    assert!(unpacked > 20000 / WORK_LIBRARY_ITEMS, "unpack: {unpacked}");
    // Inserting at the front shifts every element; at the end, none.
    let front = charged(setup, "table.insert(T, 1, 0)");
    let back = charged(setup, "table.insert(T, 0)");
    assert!(front > 20000 && back < 64, "front {front}, back {back}");
}

#[test]
fn next_costs_the_slots_it_looks_at() {
    // 30000 keys put in, all but one taken out: the table keeps its 32768 slots, and
    // `pairs` passes over every empty one to find the last key and then the end.
    let setup = "local E = {} for i = 1, 30000 do E['k' .. i] = i end \
                 for i = 1, 29999 do E['k' .. i] = nil end";
    let emptied = charged(setup, "for k, v in pairs(E) do end");
    let slots = 32768 / WORK_LIBRARY_ITEMS * cost::LIBRARY_ITEMS;
    assert!(
        (slots..slots + 64).contains(&emptied),
        "pairs over an emptied table: {emptied}, at least {slots}"
    );
    // The same one key in a table of its own costs what its instructions cost.
    let alone = charged("local E = {k30000 = 30000}", "for k, v in pairs(E) do end");
    assert!(alone < 32, "pairs over one key: {alone}");
    // A full table: each step gets a key and a value, looks at one slot and finds the key
    // again in the hash part (one of these steps charges less: `pairs` starts at no key).
    let full = charged(
        "local H = {} for i = 1, 1000 do H['k' .. i] = i end",
        "for k, v in pairs(H) do end",
    );
    let items = (2 + 1 + 4) * 1000 - 4;
    let floor = items / WORK_LIBRARY_ITEMS * cost::LIBRARY_ITEMS;
    assert!(
        (floor..floor + 2 * 1000 + 64).contains(&full),
        "pairs over 1000 keys: {full}, at least {floor}"
    );
}

#[test]
fn floats_as_text_cost_the_digits_they_work_out() {
    use kairo::spec::{WORK_FLOAT_TEXT_CALL as CALL, WORK_FLOAT_TEXT_DIGIT as DIGIT};
    // Cycles of `units` bytes' worth of scan work, and of a string of `len` bytes made.
    let scan = |units: u64| units * cost::SCAN_BYTES / WORK_SCAN_BYTES;
    let made = |len: u64| (len - WORK_FREE_BYTES) / WORK_STRING_BYTES * cost::STRING_BYTES;
    // `cycles()` sees instructions in steps of the hook interval: a reading is the work, the
    // call of `cycles()` and up to a step of instructions.
    let within = |what: &str, got: u64, floor: u64| {
        assert!(
            (floor..floor + 64).contains(&got),
            "{what}: {got}, expected {floor} to {}",
            floor + 63
        );
    };
    // `%.99f` of 1e308 (below 2^1024: 53 + 1024 bits, 34 words of 32 bits) writes 309 digits
    // before the point and 99 after (409 bytes), every one significant; the item's output
    // counts twice as any format item's does, and the string made its bytes past 64.
    let big = charged("", "local s = string.format('%.99f', 1e308)");
    within(
        "%.99f of 1e308",
        big,
        scan(CALL + 408 * DIGIT + 408 * 34 + 2 * 409) + made(409),
    );
    assert!(big > 2000, "%.99f of 1e308: {big}");
    // 1e154 (below 2^512: 18 words) writes 155 + 99 digits: the cost follows the digits and
    // the words, well under half of 1e308's.
    let half = charged("", "local s = string.format('%.99f', 1e154)");
    within(
        "%.99f of 1e154",
        half,
        scan(CALL + 254 * DIGIT + 254 * 18 + 2 * 255) + made(255),
    );
    assert!(big > 2 * half, "1e308 {big}, 1e154 {half}");
    // 1e-300 writes `0.` and 99 zeros: digits written, none significant.
    let tiny = charged("", "local s = string.format('%.99f', 1e-300)");
    within("%.99f of 1e-300", tiny, scan(CALL + 100 * DIGIT + 2 * 101));
    // `%e` and `%g` work out their precision's digits (6 unless given) over the value's
    // words; a short item's output counts 64 bytes' worth.
    let e = charged("", "local s = string.format('%e', 1e300)");
    within("%e of 1e300", e, scan(CALL + 7 * DIGIT + 7 * 33 + 64));
    let g = charged("", "local s = string.format('%.3g', 1.5)");
    within("%.3g of 1.5", g, scan(CALL + 3 * DIGIT + 3 * 2 + 64));
    // Hexadecimal has nothing to work out: the conversion and its output only.
    let a = charged("", "local s = string.format('%a', 1e300)");
    within("%a of 1e300", a, scan(CALL + 64));

    // `tostring` and `..` write "%.14g": 14 digits over 2 words for 1.5, 33 for 1e300 or
    // 1e-300. Each is measured against the same code turning an integer into text,
    // which costs its instructions only: the difference is the float's work.
    let float_work = |body: &str, float: &str| {
        let integer = charged("", &body.replace('X', "1234567"));
        charged("", &body.replace('X', float)) - integer
    };
    let tostring = "local s = tostring(X)";
    let concat = "local x = X local s = x .. ''";
    let short = scan(CALL + 14 * DIGIT + 14 * 2);
    for (what, body, float, floor) in [
        ("tostring(1.5)", tostring, "1.5", short),
        ("1.5 .. ''", concat, "1.5", short),
        (
            "tostring(1e300)",
            tostring,
            "1e300",
            scan(CALL + 14 * DIGIT + 14 * 33),
        ),
        (
            "1e-300 .. ''",
            concat,
            "1e-300",
            scan(CALL + 14 * DIGIT + 14 * 33),
        ),
        ("tostring(math.huge)", tostring, "math.huge", scan(CALL)),
    ] {
        let work = float_work(body, float);
        assert!(
            (floor..floor + 2).contains(&work),
            "{what}: {work} more than an integer, expected {floor}"
        );
    }
    assert!(short < 40, "a short float as text costs {short}");
    let integer = charged("", "local s = tostring(1234567)");
    assert!(integer < 64, "tostring(1234567): {integer}");
}

#[test]
fn a_full_collection_costs_its_marking() {
    let small = charged("", "collectgarbage()");
    let big = charged(
        "keep = {} for i = 1, 20000 do keep[i] = {i} end",
        "collectgarbage()",
    );
    assert!(big > small + 20000 / 2, "small {small}, big {big}");
    // A step is a whole collection on Kairo: it costs as much, and finishes a cycle.
    let step = charged(
        "keep = {} for i = 1, 20000 do keep[i] = {i} end",
        "assert(collectgarbage('step'))",
    );
    assert!(step > 20000 / 2, "step {step}");
}

#[test]
fn library_work_costs_the_same_in_every_process() {
    let cart = root().join("tests/carts/determinism_library_work");
    let run = || {
        let (code, out, err) = kairo(
            &["headless", cart.to_str().unwrap(), "--frames", "1"],
            &root(),
        );
        assert_eq!(code, 0, "{err}");
        out.lines()
            .filter(|l| l.starts_with("work "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let first = run();
    assert_eq!(first.len(), 22, "{first:?}");
    assert_eq!(first, run());
    // Every piece of work costs something beyond its instructions.
    for line in &first {
        let cycles: u64 = line.split(' ').nth(2).unwrap().parse().unwrap();
        assert!(cycles > 300, "{line}");
    }
}

/// Runs `main` headless for a few frames through the command line: exit code and stderr.
fn headless(name: &str, main: &str) -> (i32, String) {
    let dir = temp_dir(name);
    std::fs::write(dir.join("cart.toml"), format!("name = '{name}'\n")).unwrap();
    std::fs::write(dir.join("main.lua"), main).unwrap();
    let (code, _, err) = kairo(
        &["headless", dir.to_str().unwrap(), "--frames", "3"],
        &root(),
    );
    (code, err)
}

#[test]
fn the_carts_that_stalled_the_host_at_a_low_load_now_stop_at_the_cap() {
    // 300 upper() of a 4 MB string a frame: about a second of host time, once reported
    // as 3.4 % load.
    let (code, err) = headless(
        "upper-4mb",
        "local S = string.rep('x', 4 * 1024 * 1024)\n\
         function update() for i = 1, 300 do local u = S:upper() end end",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("main.lua:2: the script ran past the runaway cap"),
        "{err}"
    );
    // A move of a billion values stops at the call, before any is moved.
    let (code, err) = headless(
        "move-billion",
        "function update()\n  table.move({1}, 1, 1000000000, 2)\nend",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("main.lua:2: the script ran past the runaway cap"),
        "{err}"
    );
}

#[test]
fn a_sort_stops_part_way_at_the_cap() {
    // A million values: about 20 million comparisons, far past the cap; the sort stops
    // between two of them with the cap's cycles charged.
    let mut c = console(
        "local T = {} for i = 1, 1000000 do T[i] = (i * 7919) % 1000003 end
         function update() table.sort(T) end",
    );
    match c.run_frame(InputFrame::NONE) {
        Err(ScriptError::Runaway { .. }) => {}
        other => panic!("{other:?}"),
    }
    let charged = c.cycles_charged();
    assert!(
        (kairo::spec::RUNAWAY_CAP..kairo::spec::RUNAWAY_CAP + 4096).contains(&charged),
        "{charged}"
    );
}

#[test]
fn every_calibration_case_runs() {
    // `kairo bench calibration` times these; here each cart is only checked to run.
    for case in kairo::harness::calibrate::CASES
        .iter()
        .chain(kairo::harness::calibrate::API_CASES)
    {
        let mut c = kairo::console::Console::new(case.cart(1))
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        // A case may be stopped at the cap (the calibration times the stop).
        match c.run_frame(InputFrame::NONE) {
            Ok(_) | Err(ScriptError::Runaway { .. }) => {}
            Err(e) => panic!("{}: {e}", case.name),
        }
    }
}
