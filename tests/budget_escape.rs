//! Carts that try to escape the cycle budget (tests/carts/escape_*): Lua run inside API calls
//! through metamethods, finalizers, message handlers, string callbacks, sort comparators,
//! a backtracking pattern match,
//! coroutines, one C call that never returns, an API call that costs more than the cap, a log
//! flood. Each is a test of its own (a macro per cart), run through `kairo check` and
//! `kairo headless`; each must end with its located error, never hang: a run still going
//! after [`WATCHDOG`] is killed and fails the test (a hang detector, not a speed test).

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::root;
use kairo::spec::{LOG_FRAME_BYTES, LOG_LINE_BYTES, RUNAWAY_CAP};

/// Far longer than any of these runs takes, even in a debug build on a loaded machine.
const WATCHDOG: Duration = Duration::from_secs(120);

/// Runs `kairo args`; `None` when it had to be killed.
fn run(args: &[&str]) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kairo");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Some((
        status.code().unwrap_or(-1),
        text(out.join().expect("stdout")),
        text(err.join().expect("stderr")),
    ))
}

/// `kairo check` and `kairo headless` on `cart` both end with `expected`.
fn escapes_are_stopped(cart: &str, expected: impl AsRef<str>) {
    let expected = expected.as_ref();
    let path = root().join("tests/carts").join(cart);
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) =
        run(&["check", path]).unwrap_or_else(|| panic!("{cart}: `kairo check` hung"));
    assert_eq!(code, 1, "{cart}: check's exit code\n{stdout}{stderr}");
    assert!(
        stdout.contains(expected),
        "{cart}: check should report `{expected}`:\n{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{cart}: {stderr}");
    let (code, _, stderr) = run(&["headless", path, "--frames", "5"])
        .unwrap_or_else(|| panic!("{cart}: `kairo headless` hung"));
    assert_ne!(code, 0, "{cart}: headless's exit code\n{stderr}");
    assert!(
        stderr.contains(expected),
        "{cart}: headless should report `{expected}`:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{cart}: {stderr}");
}

fn runaway_at(line: &str) -> String {
    format!("{line}: the script ran past the runaway cap of {RUNAWAY_CAP} cycles")
}

macro_rules! escape {
    ($($test:ident: $cart:literal => $expected:expr;)*) => {
        $(
            #[test]
            fn $test() {
                escapes_are_stopped($cart, $expected);
            }
        )*

        /// Every `escape_*` cart under tests/carts has its test here.
        const CARTS: &[&str] = &[$($cart),*];
    };
}

escape! {
    metamethods_of_api_options_never_run: "escape_options_index" =>
        "main.lua:5: bu_fire read the options without their metatable";
    metamethods_of_a_moved_body_never_run: "escape_body_index" =>
        "main.lua:5: move_body: body.x must be a number, got nil";
    finalizers_are_refused: "escape_finalizer" =>
        "main.lua:2: setmetatable: __gc finalizers are not available on Kairo";
    a_runaway_skips_the_message_handler: "escape_xpcall_handler" => runaway_at("main.lua:3");
    tostring_metamethods_are_metered: "escape_tostring" => runaway_at("main.lua:4");
    an_api_call_past_the_cap_stops_at_once: "escape_api_cost" => runaway_at("main.lua:4");
    the_log_is_bounded: "escape_log_flood" => "main.lua:5: the flood was bounded";
    gsub_callbacks_are_metered: "escape_gsub_callback" => runaway_at("main.lua:4");
    pattern_matching_is_metered: "escape_pattern" => runaway_at("main.lua:3");
    sort_comparisons_are_metered: "escape_sort_comparator" => runaway_at("main.lua:4");
    coroutines_are_metered: "escape_coroutine" => runaway_at("main.lua:4");
    deep_recursion_is_lua_s_error: "escape_recursion" => "main.lua:3: C stack overflow";
    giant_strings_hit_the_memory_limit: "escape_concat_giant" =>
        "out of memory: the cart's Lua state reached its limit";
}

#[test]
fn every_escape_cart_has_its_test() {
    for entry in std::fs::read_dir(root().join("tests/carts")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.starts_with("escape_") {
            assert!(CARTS.contains(&name.as_str()), "{name} has no test");
        }
    }
}

#[test]
fn a_log_flood_prints_bounded_escaped_lines() {
    let path = root().join("tests/carts/escape_log_flood");
    let (_, stdout, _) =
        run(&["headless", path.to_str().unwrap(), "--frames", "1"]).expect("headless hung");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        stdout.len() < LOG_FRAME_BYTES + 4096,
        "{} bytes printed",
        stdout.len()
    );
    assert!(
        lines[0].starts_with("\\x1B[2J\\x07\\x1B[2J"),
        "{}",
        lines[0]
    );
    assert!(lines[0].len() <= LOG_LINE_BYTES + 3, "{}", lines[0].len());
    assert!(
        !stdout.contains('\u{1b}'),
        "no raw escape reaches the terminal"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("log line(s) dropped this frame")),
        "the dropped lines are reported"
    );
}
