//! The exported web page in a real browser: both bundled carts are exported with `kairo
//! export`, served by a small HTTP server in the test, and opened in headless Chromium driven
//! through the DevTools protocol (over `--remote-debugging-pipe`). Checked: the page's
//! `#hash=N` logs the same `hash` line as `kairo headless --frames N --hash`; keys pressed
//! through the protocol start a game (the cart logs it) and change the picture; sound starts
//! on the first key; nothing throws; each display filter draws the frame as it should (`none`
//! exactly nearest-neighbour, `crt`'s scanlines and `lcd`'s grid one console pixel apart,
//! `smooth` crisp at a fractional scale), the menu entry and F10 cycle them, the choice
//! outlives a reload, and without WebGL the page draws in 2D. Screenshots go to
//! `target/web-shots/`.
//!
//! Needs Debian's `chromium` (`.ci/run` installs it). Without it the tests fail when
//! `KAIRO_CI` is set and otherwise skip, saying why on stderr.
#![cfg(unix)]

mod common;
mod web_support;

use std::path::Path;
use std::time::Duration;

use common::{TempDir, bundled, export_web, kairo, root, temp_dir};
use web_support::picture::{Picture, chromaticity, phase_profile};
use web_support::{Browser, Server};

/// Vblanks the hash contract is checked over.
const HASH_FRAMES: u64 = 300;

fn chromium() -> Option<String> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            std::process::Command::new("sh")
                .args(["-c", &format!("command -v {name}")])
                .stdout(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
    if found.is_none() {
        let reason = "no chromium in PATH (apt-get install chromium)";
        if std::env::var_os("KAIRO_CI").is_some() {
            panic!("KAIRO_CI is set, so this fails instead of skipping: {reason}");
        }
        eprintln!("SKIPPED: {reason}");
    }
    found.map(str::to_string)
}

fn export(cart: &str, out: &Path) {
    let (code, stdout, stderr) = export_web(&bundled(cart), out);
    assert_eq!(code, 0, "export {cart}: {stderr}");
    assert!(stdout.contains("bytes in all"), "{stdout}");
}

fn headless_hash(cart: &str, frames: u64) -> String {
    let cart_dir = bundled(cart);
    let (code, stdout, stderr) = kairo(
        &[
            "headless",
            cart_dir.to_str().unwrap(),
            "--frames",
            &frames.to_string(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("hash "))
        .expect("hash line")
        .to_string()
}

#[test]
fn the_page_logs_the_hash_kairo_headless_prints() {
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-hash");
    for cart in ["platformer", "shmup"] {
        export(cart, &dir.join(cart));
    }
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    for cart in ["platformer", "shmup"] {
        let expected = headless_hash(cart, HASH_FRAMES);
        let url = format!("{}/{cart}/index.html#hash={HASH_FRAMES}", server.url());
        browser.open(&url);
        let line = browser.wait_console(Duration::from_secs(120), |l| l.starts_with("hash "));
        assert_eq!(
            line, expected,
            "{cart}: the page's hash differs from headless"
        );
        assert!(
            line.len() == 21 && line[5..].bytes().all(|b| b.is_ascii_hexdigit()),
            "{line}"
        );
        browser.assert_no_errors();
    }
}

#[test]
fn pairs_order_over_tables_and_functions_is_the_same_as_natively() {
    // Lua hashes tables and functions used as keys; addresses differ between WebAssembly and
    // native builds, so Kairo's Lua hashes them by creation number (lua/src). The cart logs
    // the order over keys of every kind and what `tostring` shows for tables and functions.
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-pairs");
    let folder = root().join("tests/carts/determinism_pairs");
    let (code, _, stderr) = export_web(&folder, &dir.join("pairs"));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = kairo(
        &["headless", folder.to_str().unwrap(), "--frames", "1"],
        &root(),
    );
    assert_eq!(code, 0, "{stderr}");
    let native: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("order ") || l.starts_with("ids "))
        .collect();
    assert_eq!(native.len(), 2, "{stdout}");
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    browser.open(&format!("{}/pairs/index.html", server.url()));
    for expected in native {
        let prefix = expected.split(' ').next().unwrap();
        let line = browser.wait_console(Duration::from_secs(60), |l| {
            l.starts_with(&format!("{prefix} "))
        });
        assert_eq!(
            line, expected,
            "the page's {prefix} line differs from native"
        );
    }
    browser.assert_no_errors();
}

#[test]
fn library_work_costs_the_same_cycles_as_natively() {
    // Lua's library and VM count their work in lengths and counts (lua/README.md), never in
    // allocation sizes, which differ on WebAssembly: the cart logs what each piece cost.
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-library-work");
    let folder = root().join("tests/carts/determinism_library_work");
    let (code, _, stderr) = export_web(&folder, &dir.join("work"));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = kairo(
        &["headless", folder.to_str().unwrap(), "--frames", "1"],
        &root(),
    );
    assert_eq!(code, 0, "{stderr}");
    let native: Vec<&str> = stdout.lines().filter(|l| l.starts_with("work ")).collect();
    assert_eq!(native.len(), 22, "{stdout}");
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    browser.open(&format!("{}/work/index.html", server.url()));
    for expected in native {
        let name: String = expected.split(' ').take(2).collect::<Vec<_>>().join(" ") + " ";
        let line = browser.wait_console(Duration::from_secs(60), |l| l.starts_with(&name));
        assert_eq!(line, expected, "the page's cost differs from native");
    }
    browser.assert_no_errors();
}

/// Opens `cart`'s page, presses Enter (Start) and checks the cart logs `started`; the
/// picture before and after is saved and must differ. `hold_shift` holds Select too.
/// Returns the browser and server with the folder they use (last, so it goes after them).
fn play(cart: &str, started: &str, hold_shift: bool) -> (Browser, Server, TempDir) {
    let chromium = chromium().expect("checked by the caller");
    let dir = temp_dir(&format!("web-play-{cart}"));
    export(cart, &dir.join(cart));
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    browser.open(&format!("{}/{cart}/index.html", server.url()));
    browser.wait_for(
        "window.kairo && kairo.frameMs().length > 30",
        Duration::from_secs(30),
    );
    std::thread::sleep(Duration::from_millis(500));
    let shots = root().join("target/web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let before = browser.screenshot(&shots.join(format!("{cart}-title.png")));
    assert_eq!(browser.eval("kairo.audio()"), "off", "sound before any key");
    if hold_shift {
        browser.key("ShiftLeft", "Shift", 16, true);
        std::thread::sleep(Duration::from_millis(100));
    }
    browser.key("Enter", "Enter", 13, true);
    std::thread::sleep(Duration::from_millis(100));
    browser.key("Enter", "Enter", 13, false);
    if hold_shift {
        browser.key("ShiftLeft", "Shift", 16, false);
    }
    browser.wait_console(Duration::from_secs(10), |l| l == started);
    browser.wait_for("kairo.audio() === 'running'", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(700));
    let after = browser.screenshot(&shots.join(format!("{cart}-started.png")));
    assert_ne!(
        before, after,
        "{cart}: the picture did not change after Start"
    );
    (browser, server, dir)
}

#[test]
fn keys_start_the_platformer_and_move_the_hero() {
    if chromium().is_none() {
        return;
    }
    let (mut browser, _server, _dir) = play("platformer", "platformer: new game", false);
    let shots = root().join("target/web-shots");
    let standing = browser.screenshot(&shots.join("platformer-standing.png"));
    browser.key("ArrowRight", "ArrowRight", 39, true);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.eval("String(kairo.input()[0])"), "2", "Right held");
    std::thread::sleep(Duration::from_millis(700));
    let walked = browser.screenshot(&shots.join("platformer-walked.png"));
    browser.key("ArrowRight", "ArrowRight", 39, false);
    assert_ne!(standing, walked, "holding Right changed nothing");

    // Two keys on one button (W and R are both R): it stays held while either is.
    browser.key("KeyW", "w", 87, true);
    browser.key("KeyR", "r", 82, true);
    browser.key("KeyR", "r", 82, false);
    assert_eq!(
        browser.eval("String(kairo.input()[0])"),
        (1 << 9).to_string()
    );
    browser.key("KeyW", "w", 87, false);
    assert_eq!(browser.eval("String(kairo.input()[0])"), "0");

    // Gamepads (standard mapping): a pad at index 1 holding Start and the bottom face
    // button with its stick pushed left plays player 2. Headless Chromium has no pads, so
    // the page is handed one.
    browser.eval(
        "navigator.getGamepads = () => [null, { index: 1, connected: true, axes: [-0.9, 0.1], \
         buttons: Array.from({ length: 17 }, (_, i) => ({ pressed: i === 9 || i === 0, value: 0 })) }]",
    );
    let start_a_left = (1 << 10) | (1 << 4) | 1;
    assert_eq!(
        browser.eval("String(kairo.input())"),
        format!("0,{start_a_left},0,0")
    );
    browser.assert_no_errors();
}

#[test]
fn the_shmup_runs_stress_mode_in_the_browser() {
    if chromium().is_none() {
        return;
    }
    let (mut browser, _server, _dir) = play("shmup", "shmup: start", true);
    // Stress mode reaches its top level after about 16 s of play; the frame time reported
    // is the host time of a machine frame in the page (docs/web.md records it).
    std::thread::sleep(Duration::from_secs(18));
    let shots = root().join("target/web-shots");
    browser.screenshot(&shots.join("shmup-stress.png"));
    let cycles: f64 = browser.eval("String(kairo.cycles())").parse().unwrap();
    assert!(
        cycles > kairo::console::Console::budget() as f64,
        "stress mode should run over budget, charged {cycles} cycles"
    );
    let ms = browser.eval(
        "(() => { const t = kairo.frameMs().slice(-60); t.sort((a, b) => a - b); \
         return t[t.length >> 1].toFixed(2) + ' median, ' + t[t.length - 1].toFixed(2) + ' max'; })()",
    );
    eprintln!("shmup stress mode in Chromium: {ms} ms of host time per machine frame");
    browser.assert_no_errors();
}

#[test]
fn save_data_outlives_a_reload_and_a_fault_shows_the_error_screen() {
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-keeper");
    let cart = dir.join("keeper-cart");
    std::fs::create_dir_all(&cart).unwrap();
    std::fs::write(
        cart.join("cart.toml"),
        "name = \"Keeper\"\nsave_id = \"test.keeper\"\n",
    )
    .unwrap();
    std::fs::write(
        cart.join("main.lua"),
        "local n = sd_get(0) + 1\nlog('boots ' .. n)\nsd_set(0, n)\n\
         function update() if btnp('start') then error('start pressed') end end\n",
    )
    .unwrap();
    let out = dir.join("keeper");
    let (code, _, stderr) = export_web(&cart, &out);
    assert_eq!(code, 0, "{stderr}");
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    browser.open(&format!("{}/keeper/index.html", server.url()));
    browser.wait_console(Duration::from_secs(30), |l| l == "boots 1");
    browser.wait_for(
        "localStorage.getItem('kairo.save.test.keeper') !== null",
        Duration::from_secs(10),
    );
    browser.reload();
    browser.wait_console(Duration::from_secs(30), |l| l == "boots 2");
    browser.assert_no_errors();

    browser.wait_for("kairo.frameMs().length > 10", Duration::from_secs(10));
    browser.key("Enter", "Enter", 13, true);
    browser.wait_for("kairo.faulted()", Duration::from_secs(10));
    browser.key("Enter", "Enter", 13, false);
    let panel = browser.eval("document.getElementById('fault').hidden ? '' : document.getElementById('fault').textContent");
    assert!(panel.contains("start pressed"), "error screen: {panel:?}");
    let shots = root().join("target/web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    browser.screenshot(&shots.join("keeper-fault.png"));
    let errors = browser.take_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("start pressed"),
        "{errors:?}"
    );
}

/// A clock the test moves: `performance.now()` reads it and `requestAnimationFrame` queues
/// callbacks until `__paint(hz, seconds)` plays that many display refreshes at once.
const SIMULATED_DISPLAY: &str = r#"(() => {
  let now = 0;
  let queue = [];
  Object.defineProperty(performance, 'now', { value: () => now, configurable: true });
  window.requestAnimationFrame = (callback) => { queue.push(callback); return queue.length; };
  window.__waitingForPaint = () => queue.length;
  window.__paint = (hz, seconds) => {
    for (let i = 0; i < Math.round(hz * seconds); i++) {
      now += 1000 / hz;
      const due = queue;
      queue = [];
      for (const callback of due) callback(now);
    }
    return kairo.vblanks();
  };
})();"#;

#[test]
fn the_page_runs_at_60_hz_whatever_the_display_rate() {
    // Pacing is judged on a simulated clock (a headless browser's real frame timing is not
    // the page's to keep): the page is shown displays of several rates and a stall.
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-pacing");
    export("platformer", &dir.join("platformer"));
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    browser.before_each_page(SIMULATED_DISPLAY);
    for hz in [144.0, 120.0, 75.0, 60.0, 50.0, 30.0] {
        browser.open(&format!("{}/platformer/index.html", server.url()));
        browser.wait_for(
            "window.kairo && window.__waitingForPaint() > 0",
            Duration::from_secs(30),
        );
        // Ten seconds of display: 600 vblanks (the first falls at the first paint).
        let vblanks: f64 = browser
            .eval(&format!("String(__paint({hz}, 10))"))
            .parse()
            .unwrap();
        assert!(
            (599.0..=601.0).contains(&vblanks),
            "{vblanks} vblanks in 10 s on a {hz} Hz display"
        );
        browser.assert_no_errors();
    }
    // A stall (the tab busy for a second): the page starts again from now instead of racing
    // through the 60 vblanks it missed.
    let before: f64 = browser.eval("String(kairo.vblanks())").parse().unwrap();
    let after: f64 = browser.eval("String(__paint(1, 1))").parse().unwrap();
    assert_eq!(after - before, 1.0, "vblanks run after a 1 s stall");
    let resumed: f64 = browser.eval("String(__paint(60, 1))").parse().unwrap();
    assert!((59.0..=61.0).contains(&(resumed - after)), "{resumed}");
}

#[test]
fn hostile_carts_fault_on_the_web_as_they_do_natively() {
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-hostile");
    let carts = [
        "runaway",
        "runtime_error",
        "memory_bomb",
        "escape_recursion",
        "escape_sort_comparator",
    ];
    for cart in carts {
        let folder = root().join("tests/carts").join(cart);
        let out = dir.join(cart);
        let (code, _, stderr) = export_web(&folder, &out);
        assert_eq!(code, 0, "{cart}: {stderr}");
    }
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    for cart in carts {
        let folder = root().join("tests/carts").join(cart);
        let (code, _, stderr) = kairo(
            &["headless", folder.to_str().unwrap(), "--frames", "300"],
            &root(),
        );
        assert_eq!(code, 1, "{cart} should fault natively");
        // Headless names the frame after the message (` at frame N`); the page shows the
        // message itself.
        let native = stderr
            .lines()
            .find_map(|l| l.strip_prefix("kairo: "))
            .expect("an error line");
        let native = match native.rfind(" at frame ") {
            Some(at) => native[..at].to_string(),
            None => native.to_string(),
        };
        browser.open(&format!("{}/{cart}/index.html", server.url()));
        browser.wait_for("window.kairo && kairo.faulted()", Duration::from_secs(60));
        let panel = browser.eval("document.getElementById('fault').textContent");
        assert!(
            panel.contains(&native),
            "{cart}: the page says {panel:?}, kairo headless {native:?}"
        );
        let errors = browser.take_errors();
        assert!(
            errors.iter().all(|e| e.starts_with("kairo: ")),
            "{cart}: {errors:?}"
        );
    }
}

// ---- Display filters ----------------------------------------------------------------------

/// Vblanks the display filters are judged after: the platformer's title screen.
const FILTER_FRAMES: u64 = 120;

/// Where the picture goes for `filter` in a `width` x `height` page: (left, top, side). none
/// and lcd: the largest whole multiple of 256; crt and smooth: the shorter side; centred.
fn placement(filter: &str, width: usize, height: usize) -> (usize, usize, usize) {
    let room = width.min(height);
    let side = match filter {
        "none" | "lcd" => room / 256 * 256,
        _ => room,
    };
    ((width - side) / 2, (height - side) / 2, side)
}

/// Opens the exported platformer with `fragment`; `n` makes each URL a new document.
fn open_platformer(browser: &mut Browser, server: &Server, n: &mut u32, fragment: &str) {
    *n += 1;
    let url = format!("{}/platformer/index.html?{n}#{fragment}", server.url());
    browser.open(&url);
}

/// The page's picture in a `width` x `height` viewport (saved under `target/web-shots/`),
/// checked to be black around the place the filter puts it; that place, cropped.
fn filtered_shot(browser: &mut Browser, filter: &str, width: usize, height: usize) -> Picture {
    filtered_shot_scaled(browser, filter, width, height, 1)
}

/// [`filtered_shot`] on a screen of `dpr` device pixels per CSS pixel: `width` and `height`
/// are in device pixels.
fn filtered_shot_scaled(
    browser: &mut Browser,
    filter: &str,
    width: usize,
    height: usize,
    dpr: usize,
) -> Picture {
    browser.viewport_scaled((width / dpr) as u32, (height / dpr) as u32, dpr as u32);
    let (left, top, side) = placement(filter, width, height);
    browser.wait_for(
        &format!("kairo.display().width === {side} && kairo.display().filter === '{filter}'"),
        Duration::from_secs(10),
    );
    let shots = root().join("target/web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let path = shots.join(format!("filter-{filter}-{width}x{height}-dpr{dpr}.png"));
    let shot = Picture::decode(&browser.screenshot(&path));
    assert_eq!(
        (shot.width, shot.height),
        (width, height),
        "{}",
        path.display()
    );
    assert!(
        shot.black_outside(left, top, side),
        "{filter} at {width}x{height}: the picture should be a {side}-pixel square at \
         ({left}, {top}) on black: {}",
        path.display()
    );
    shot.crop(left, top, side, side)
}

/// How many pixels differ, and the largest difference of a channel.
fn difference(a: &Picture, b: &Picture) -> (usize, u8) {
    let mut count = 0;
    let mut most = 0;
    for (pa, pb) in a.rgb.chunks(3).zip(b.rgb.chunks(3)) {
        let d = pa
            .iter()
            .zip(pb)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap();
        count += usize::from(d > 0);
        most = most.max(d);
    }
    (count, most)
}

/// `none` and `lcd` at whole scales; `lcd`: the console pixels as `none` draws them but for
/// the last row and column of each, which are darker.
fn check_lcd(lcd: &Picture, plain: &Picture, scale: usize) {
    let side = lcd.width;
    let mut off_grid_changed = 0;
    for y in 0..side {
        for x in 0..side {
            let on_grid = x % scale == scale - 1 || y % scale == scale - 1;
            off_grid_changed += usize::from(!on_grid && lcd.at(x, y) != plain.at(x, y));
        }
    }
    assert_eq!(
        off_grid_changed, 0,
        "lcd at {scale}x: pixels off the grid changed"
    );
    for rows in [true, false] {
        let profile = phase_profile(lcd, plain, scale, rows, (0, 0, side, side));
        let line = profile[scale - 1];
        let rest = profile[..scale - 1]
            .iter()
            .cloned()
            .fold(f64::MAX, f64::min);
        assert!(
            line < 0.9 * rest && line > 0.4,
            "lcd at {scale}x: the grid's {} should be darker: {profile:?}",
            if rows { "rows" } else { "columns" }
        );
    }
}

/// `crt`: rows one console row apart darken between the rows, columns do not, colours keep
/// their hue, and the bulging picture leaves the corners black.
fn check_crt(crt: &Picture, plain: &Picture, scale: usize) {
    let side = crt.width;
    // A stripe down the middle, where the bulge moves rows by far less than a pixel.
    let stripe = (side * 2 / 5, side / 4, side / 5, side / 2);
    let rows = phase_profile(crt, plain, scale, true, stripe);
    let columns = phase_profile(crt, plain, scale, false, stripe);
    let darkest = (0..scale)
        .min_by(|&a, &b| rows[a].total_cmp(&rows[b]))
        .unwrap();
    let brightest = (0..scale)
        .max_by(|&a, &b| rows[a].total_cmp(&rows[b]))
        .unwrap();
    assert!(
        (darkest == 0 || darkest == scale - 1) && brightest != 0 && brightest != scale - 1,
        "crt at {scale}x: the rows between console rows should be the darkest: {rows:?}"
    );
    assert!(
        rows[brightest] / rows[darkest] > 1.15,
        "crt at {scale}x: scanlines too faint: {rows:?}"
    );
    let spread = columns.iter().cloned().fold(f64::MIN, f64::max)
        / columns.iter().cloned().fold(f64::MAX, f64::min);
    assert!(
        spread < 1.08,
        "crt at {scale}x: columns should not darken: {columns:?}"
    );
    let centre = (side / 4, side / 4, side / 2, side / 2);
    let (hue, plain_hue) = (
        chromaticity(crt, plain, centre),
        chromaticity(plain, plain, centre),
    );
    for c in 0..3 {
        assert!(
            (hue[c] - plain_hue[c]).abs() < 0.03,
            "crt at {scale}x: colours changed: {hue:?} against {plain_hue:?}"
        );
    }
    let level = phase_profile(crt, plain, 1, true, centre)[0];
    assert!(
        (0.75..1.25).contains(&level),
        "crt at {scale}x: the picture's brightness changed to {level:.2} of it"
    );
    for (x, y) in [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1)] {
        assert_eq!(
            crt.at(x, y),
            [0, 0, 0],
            "crt at {scale}x: corner ({x}, {y})"
        );
    }
}

/// `smooth` (sharp-bilinear) at any scale: every device pixel more than half a device pixel
/// from an edge between console pixels is that console pixel's colour exactly; only those
/// near an edge blend.
fn check_smooth(smooth: &Picture, frame: &Picture) {
    let side = smooth.width;
    let scale = side as f64 / 256.0;
    let edge = 0.5 - 0.5 / scale - 1e-3;
    let (mut crisp_changed, mut blended) = (0, 0);
    for y in 0..side {
        let py = (y as f64 + 0.5) / scale;
        for x in 0..side {
            let px = (x as f64 + 0.5) / scale;
            let own = frame.at(px as usize, py as usize);
            let got = smooth.at(x, y);
            let crisp = (px.fract() - 0.5).abs() < edge && (py.fract() - 0.5).abs() < edge;
            let close = own.iter().zip(got).all(|(a, b)| a.abs_diff(b) <= 1);
            if crisp {
                crisp_changed += usize::from(!close);
            } else {
                blended += usize::from(!close);
            }
        }
    }
    assert_eq!(
        crisp_changed, 0,
        "smooth at {side}: pixels inside console pixels changed"
    );
    let whole = side.is_multiple_of(256);
    assert!(
        whole == (blended == 0),
        "smooth at {side}: {blended} pixels blended at console pixels' edges"
    );
}

#[test]
fn display_filters_the_menu_and_the_fallback_without_webgl() {
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-filters");
    export("platformer", &dir.join("platformer"));
    let frame_png = dir.join("frame.png");
    let (code, stdout, stderr) = kairo(
        &[
            "headless",
            bundled("platformer").to_str().unwrap(),
            "--frames",
            &FILTER_FRAMES.to_string(),
            "--hash",
            "--screenshot",
            frame_png.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{stderr}");
    let hash = stdout.lines().rfind(|l| l.starts_with("hash ")).unwrap();
    let frame = Picture::decode(&std::fs::read(&frame_png).unwrap());
    let server = Server::start(&dir);
    let mut browser = Browser::launch(&chromium, &dir.join("profile"));
    let mut n = 0;

    // Each filter on the frame after FILTER_FRAMES vblanks (the page stops there), at 4x and
    // 3x and a size of its own; `none` is the frame scaled by nearest neighbour, exactly.
    let sizes: [(&str, &[(usize, usize)]); 4] = [
        ("none", &[(1024, 1024), (768, 768), (1001, 800)]),
        ("crt", &[(1024, 1024), (768, 768)]),
        ("lcd", &[(1024, 1024), (768, 768)]),
        ("smooth", &[(900, 700), (1024, 1024)]),
    ];
    for (filter, sizes) in sizes {
        let fragment = format!("hash={FILTER_FRAMES}&filter={filter}");
        open_platformer(&mut browser, &server, &mut n, &fragment);
        let line = browser.wait_console(Duration::from_secs(60), |l| l.starts_with("hash "));
        assert_eq!(line, hash, "the page's frame is headless's");
        assert_eq!(browser.eval("String(kairo.display().webgl)"), "true");
        for &(width, height) in sizes {
            let shot = filtered_shot(&mut browser, filter, width, height);
            let side = shot.width;
            let plain = frame.nearest(side);
            match filter {
                "none" => assert_eq!(
                    difference(&shot, &plain),
                    (0, 0),
                    "none at {width}x{height}: pixels that differ from nearest neighbour"
                ),
                "lcd" => check_lcd(&shot, &plain, side / 256),
                "crt" => check_crt(&shot, &plain, side / 256),
                _ => check_smooth(&shot, &frame),
            }
        }
        if filter == "none" {
            // On a HiDPI screen (2 device pixels per CSS pixel) the canvas has the device's
            // pixels: 3x in a 1024x800 screen is still exact.
            let shot = filtered_shot_scaled(&mut browser, filter, 1024, 800, 2);
            assert_eq!(
                difference(&shot, &frame.nearest(768)),
                (0, 0),
                "none at 2 dppx"
            );
        }
        browser.assert_no_errors();
    }

    // What each filter costs: the frame's upload, the pass and the wait for it, at 4x.
    browser.viewport(1024, 1024);
    for (filter, webgl) in [
        ("none", 1),
        ("crt", 1),
        ("lcd", 1),
        ("smooth", 1),
        ("none", 0),
    ] {
        let fragment = format!("bench=20&filter={filter}&webgl={webgl}");
        open_platformer(&mut browser, &server, &mut n, &fragment);
        let renderer =
            browser.wait_console(Duration::from_secs(60), |l| l.starts_with("display: "));
        let line = browser.wait_console(Duration::from_secs(60), |l| l.starts_with("bench "));
        eprintln!("{line} ({})", renderer.trim_start_matches("display: "));
    }

    // The menu entry and F10 cycle the filters, live, and the choice outlives a reload; the
    // fragment's filter= wins over it for the visit, and an unknown name is reported.
    browser.viewport(900, 700);
    open_platformer(&mut browser, &server, &mut n, "");
    let ready = "window.kairo && kairo.display().frames > 0 && \
                 !document.getElementById('display-button').hidden";
    browser.wait_for(ready, Duration::from_secs(30));
    let shown = |browser: &mut Browser| {
        browser.eval(
            "kairo.display().filter + ' ' + kairo.display().width + ' ' + \
             document.getElementById('display-next').textContent + ' ' + \
             localStorage.getItem('kairo.filter')",
        )
    };
    assert_eq!(shown(&mut browser), "none 512 Display: none null");
    let click = "document.getElementById('display-next').click()";
    browser.eval(click);
    assert_eq!(shown(&mut browser), "crt 700 Display: crt crt");
    browser.key("F10", "F10", 121, true);
    browser.key("F10", "F10", 121, false);
    assert_eq!(shown(&mut browser), "lcd 512 Display: lcd lcd");
    browser.key("F10", "F10", 121, true);
    browser.key("F10", "F10", 121, false);
    assert_eq!(shown(&mut browser), "smooth 700 Display: smooth smooth");
    browser.eval(click);
    assert_eq!(shown(&mut browser), "none 512 Display: none none");
    browser.eval(click);
    assert_eq!(shown(&mut browser), "crt 700 Display: crt crt");
    std::thread::sleep(Duration::from_millis(300));
    let shots = root().join("target/web-shots");
    browser.screenshot(&shots.join("filter-menu-crt.png"));
    browser.reload();
    browser.wait_for(ready, Duration::from_secs(30));
    assert_eq!(shown(&mut browser), "crt 700 Display: crt crt");
    open_platformer(&mut browser, &server, &mut n, "filter=lcd");
    browser.wait_for(ready, Duration::from_secs(30));
    assert_eq!(shown(&mut browser), "lcd 512 Display: lcd crt");
    open_platformer(&mut browser, &server, &mut n, "filter=blur");
    let line = browser.wait_console(Duration::from_secs(30), |l| l.starts_with("display: "));
    assert!(
        line.contains("unknown filter \"blur\"") && line.ends_with("showing crt"),
        "{line}"
    );
    browser.wait_for(ready, Duration::from_secs(30));
    assert_eq!(shown(&mut browser), "crt 700 Display: crt crt");
    browser.assert_no_errors();

    // Without WebGL the page draws as before (a 2D canvas, scaled by CSS), says so once, and
    // offers no filter.
    browser.before_each_page(
        "if (location.hash.includes('hide-webgl')) { const get = \
         HTMLCanvasElement.prototype.getContext; HTMLCanvasElement.prototype.getContext = \
         function (kind, options) { return /webgl/.test(kind) ? null : \
         get.call(this, kind, options); }; } \
         if (location.hash.includes('break-shaders')) { for (const gl of \
         [WebGLRenderingContext, WebGL2RenderingContext]) { \
         gl.prototype.getShaderParameter = () => false; } }",
    );
    browser.viewport(1024, 1024);
    let fragment = format!("hash={FILTER_FRAMES}&filter=crt&hide-webgl");
    open_platformer(&mut browser, &server, &mut n, &fragment);
    let first = browser.wait_console(Duration::from_secs(60), |l| l.starts_with("display: "));
    assert!(first.starts_with("display: no WebGL"), "{first}");
    let second = browser.wait_console(Duration::from_secs(60), |l| l.starts_with("display: "));
    assert!(
        second.contains("filter=crt needs WebGL: showing none"),
        "{second}"
    );
    browser.wait_console(Duration::from_secs(60), |l| l == hash);
    assert_eq!(browser.eval("String(kairo.display().webgl)"), "false");
    let shot = filtered_shot(&mut browser, "none", 1024, 1024);
    assert_eq!(
        difference(&shot, &frame.nearest(1024)),
        (0, 0),
        "the 2D canvas at 4x"
    );
    browser.assert_no_errors();
    // WebGL that refuses the shaders: the same, on a fresh canvas.
    let fragment = format!("hash={FILTER_FRAMES}&break-shaders");
    open_platformer(&mut browser, &server, &mut n, &fragment);
    let first = browser.wait_console(Duration::from_secs(60), |l| l.starts_with("display: "));
    assert!(first.starts_with("display: no WebGL (shader: "), "{first}");
    browser.wait_console(Duration::from_secs(60), |l| l == hash);
    let shot = filtered_shot(&mut browser, "none", 768, 768);
    assert_eq!(
        difference(&shot, &frame.nearest(768)),
        (0, 0),
        "the 2D canvas at 3x"
    );
    browser.assert_no_errors();
}
