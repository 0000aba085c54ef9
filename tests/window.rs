//! The console window for real: under a virtual X display (Xvfb, software Vulkan) the window
//! opens on a cart, shows its picture at 3x and answers keys (F9 saving a GIF), and opens on
//! the browser without a cart. Needs `xvfb xdotool imagemagick mesa-vulkan-drivers` (`.ci/run` installs them).
//! Without the tools each test fails when `KAIRO_CI` is set (as `.ci/run` sets it) and
//! otherwise skips, saying why on stderr (shown in `cargo test`'s output).
#![cfg(feature = "host")]

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{root, temp_dir};
use kairo::profiling::overlay::OverlayMode;

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Kills the child when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// RGBA of the whole virtual screen.
fn screenshot(display: &str, path: &Path) -> (u32, Vec<u8>) {
    let status = Command::new("import")
        .args(["-window", "root", path.to_str().unwrap()])
        .env("DISPLAY", display)
        .status()
        .expect("import");
    assert!(status.success());
    read_png(path)
}

/// A PNG's width and RGBA.
fn read_png(path: &Path) -> (u32, Vec<u8>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    // ImageMagick writes a grey PNG when every pixel is grey (a screen not drawn yet).
    let rgba = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match p {
            [grey] | [grey, _] => [*grey, *grey, *grey, 255],
            [r, g, b, ..] => [*r, *g, *b, 255],
            [] => unreachable!("chunks are never empty"),
        })
        .collect();
    (info.width, rgba)
}

fn pixel(shot: &(u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let at = ((y * shot.0 + x) * 4) as usize;
    [shot.1[at], shot.1[at + 1], shot.1[at + 2]]
}

/// A virtual display with `kairo ARGS` running on it, until dropped.
struct Session {
    display: String,
    _app: Guard,
    _xvfb: Guard,
    /// Last: removed after the programs that write into it are gone.
    dir: common::TempDir,
}

/// Starts Xvfb on a display it picks itself (`-displayfd`: no two tests, nor a stale lock
/// or socket, can make two servers race for one number) and waits until it answers; it keeps
/// serving between clients (`-noreset`).
fn start_xvfb() -> (String, Guard) {
    let mut xvfb = Guard(
        Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1024x800x24",
                "-nolisten",
                "tcp",
                // Without it the server resets when its last client (the readiness probe
                // below) leaves, and a window opened during the reset cannot connect.
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb"),
    );
    let mut number = String::new();
    let stdout = xvfb.0.stdout.take().expect("Xvfb's stdout");
    let mut reader = std::io::BufReader::new(stdout);
    std::io::BufRead::read_line(&mut reader, &mut number).expect("Xvfb names its display");
    // Keep reading, so the server never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let display = format!(":{}", number.trim());
    assert!(number.trim().parse::<u32>().is_ok(), "Xvfb said {number:?}");
    let waiting = Instant::now();
    loop {
        assert!(
            matches!(xvfb.0.try_wait(), Ok(None)),
            "Xvfb on {display} exited"
        );
        let answers = Command::new("xdotool")
            .arg("getmouselocation")
            .env("DISPLAY", &display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if answers {
            return (display, xvfb);
        }
        assert!(
            waiting.elapsed() < Duration::from_secs(20),
            "Xvfb did not start on {display}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The tools the window tests drive the window with: the X server, keys and screenshots.
const TOOLS: [&str; 3] = ["Xvfb", "xdotool", "import"];

/// Whether the test `name` can run: with a tool missing it panics on CI (`KAIRO_CI` set) and
/// otherwise writes why it skips straight to stderr (the harness would swallow an
/// `eprintln!` of a passing test) and returns false.
fn tools_present(name: &str) -> bool {
    let missing: Vec<&str> = TOOLS.into_iter().filter(|t| !have(t)).collect();
    if missing.is_empty() {
        return true;
    }
    let reason = format!(
        "the window test `{name}` needs Xvfb, xdotool and imagemagick (`import`); missing: {} \
         (.ci/run installs them)",
        missing.join(", ")
    );
    if std::env::var_os("KAIRO_CI").is_some() {
        panic!("KAIRO_CI is set, so this fails instead of skipping: {reason}");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED: {reason}");
    false
}

/// Starts Xvfb and `kairo args`, waits for a window titled `title`; `None` if the tools are
/// missing and this is not CI (see [`tools_present`]).
fn start(name: &str, args: &[&str], title: &str) -> Option<Session> {
    start_with_config(name, args, title, None)
}

/// [`start`], with the settings of `config` (a config folder) rather than a fresh one.
fn start_with_config(
    name: &str,
    args: &[&str],
    title: &str,
    config: Option<&Path>,
) -> Option<Session> {
    if !tools_present(name) {
        return None;
    }
    let (display, xvfb) = start_xvfb();
    let dir = temp_dir(&format!("window-{name}"));
    let config = config.map_or_else(|| dir.join("config"), Path::to_path_buf);
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    let mut app = Guard(
        Command::new(env!("CARGO_BIN_EXE_kairo"))
            .args(args)
            .current_dir(root())
            .env("DISPLAY", &display)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("KAIRO_CONFIG_DIR", &config)
            .env("KAIRO_DATA_DIR", dir.join("data"))
            .env("KAIRO_SCREENSHOT_DIR", dir.join("shots"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
            .spawn()
            .expect("start kairo"),
    );
    let started = Instant::now();
    while xdotool(&display, &["search", "--name", title])
        .trim()
        .is_empty()
    {
        let log = || std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
        if let Ok(Some(status)) = app.0.try_wait() {
            panic!(
                "kairo exited ({status}) before its window showed:\n{}",
                log()
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no window `{title}` within 30 s:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));
    let session = Session {
        display,
        _app: app,
        _xvfb: xvfb,
        dir,
    };
    // A loaded machine may map the window before it draws into it: wait for a picture.
    let started = Instant::now();
    loop {
        let (_, rgba) = session.shot("first-picture");
        if rgba.chunks(4).any(|p| p != &rgba[..4]) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the window `{title}` showed nothing but one colour for 30 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    Some(session)
}

impl Session {
    fn shot(&self, name: &str) -> (u32, Vec<u8>) {
        screenshot(&self.display, &self.dir.join(format!("{name}.png")))
    }

    fn hold(&self, key: &str, millis: u64) {
        xdotool(&self.display, &["keydown", key]);
        std::thread::sleep(Duration::from_millis(millis));
        xdotool(&self.display, &["keyup", key]);
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The window's 768x768 client area (at the screen's top-left) scaled back to 256x256, after
/// checking that every machine pixel is a clean 3x3 block.
fn machine_picture(shot: &(u32, Vec<u8>)) -> Vec<[u8; 3]> {
    let mut out = Vec::with_capacity(256 * 256);
    for y in 0..256 {
        for x in 0..256 {
            let p = pixel(shot, x * 3 + 1, y * 3 + 1);
            assert_eq!(pixel(shot, x * 3, y * 3), p, "3x3 block at ({x}, {y})");
            assert_eq!(
                pixel(shot, x * 3 + 2, y * 3 + 2),
                p,
                "3x3 block at ({x}, {y})"
            );
            out.push(p);
        }
    }
    out
}

#[test]
fn the_window_shows_the_cart_at_3x_moves_with_keys_and_pauses_on_escape() {
    let Some(session) = start("game", &["carts/platformer"], "Platformer - Kairo") else {
        return;
    };
    // The title screen: Enter (Start) begins the game.
    let title = machine_picture(&session.shot("title"));
    xdotool(&session.display, &["key", "--delay", "100", "Return"]);
    std::thread::sleep(Duration::from_millis(600));
    let before = machine_picture(&session.shot("game"));
    assert_ne!(title, before, "Start left the title screen");
    let hud = [0x1c, 0x1a, 0x2e];
    let sky = [0x6e, 0xc6, 0xf5];
    assert_eq!(before[5 * 256 + 120], hud, "HUD bar at (120, 5)");
    assert_eq!(before[60 * 256 + 128], sky, "sky at (128, 60)");
    assert_ne!(before[250 * 256 + 128], sky, "ground at the bottom");

    // Holding Right walks the hero: the band of screen he walks in changes.
    session.hold("Right", 500);
    let after = machine_picture(&session.shot("moved"));
    let band = |p: &[[u8; 3]]| p[176 * 256..192 * 256].to_vec();
    assert_ne!(band(&before), band(&after), "the hero moved");

    xdotool(&session.display, &["key", "--delay", "100", "Escape"]);
    std::thread::sleep(Duration::from_millis(600));
    let paused = machine_picture(&session.shot("paused"));
    assert_eq!(
        paused[30 * 256 + 128],
        [0x6e / 3, 0xc6 / 3, 0xf5 / 3],
        "game dimmed"
    );
    assert_eq!(
        paused[50 * 256 + 200],
        [0x10, 0x14, 0x24],
        "pause menu panel"
    );
}

#[test]
fn a_cart_escaping_the_budget_ends_on_the_error_screen_with_its_located_runaway() {
    // One `string.find` that would backtrack for minutes: the window must not hang in it.
    let cart = "tests/carts/escape_pattern";
    let Some(session) = start("escape", &[cart], "Kairo") else {
        return;
    };
    // The same shell, run off-screen until it shows the fault, gives the expected picture.
    let mut shell =
        kairo::host::shell::Shell::new(root().join("carts"), Some(session.dir.join("offscreen")));
    shell.open(Path::new(cart));
    let started = Instant::now();
    while !matches!(shell.screen, kairo::host::shell::Screen::Error { .. }) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the cart never faulted off-screen"
        );
        shell.vblank(Instant::now());
    }
    let kairo::host::shell::Screen::Error { message, .. } = &shell.screen else {
        unreachable!()
    };
    assert!(
        message.starts_with(&format!(
            "main.lua:3: the script ran past the runaway cap of {} cycles",
            kairo::spec::RUNAWAY_CAP
        )),
        "{message}"
    );
    let mut expected = vec![0; 256 * 256 * 4];
    shell.draw(&mut expected);
    let expected: Vec<[u8; 3]> = expected.chunks(4).map(|p| [p[0], p[1], p[2]]).collect();
    let shown = machine_picture(&session.shot("error"));
    assert!(
        shown == expected,
        "the window does not show the error screen (see {})",
        session.dir.display()
    );
}

#[test]
fn kairo_alone_shows_the_browser_listing_the_bundled_carts() {
    let Some(session) = start("browser", &[], "Kairo") else {
        return;
    };
    let shown = machine_picture(&session.shot("browser"));
    // The same shell, drawn off-screen, is the picture the window must show.
    let mut shell =
        kairo::host::shell::Shell::new(root().join("carts"), Some(session.dir.join("config")));
    let kairo::host::shell::Screen::Browser(menu) = &shell.screen else {
        panic!("the shell starts in the browser");
    };
    let labels: Vec<&str> = menu.items.iter().map(|i| i.0.as_str()).collect();
    assert!(labels.contains(&"Platformer - Kairo team"), "{labels:?}");
    let mut expected = vec![0; 256 * 256 * 4];
    shell.draw(&mut expected);
    let expected: Vec<[u8; 3]> = expected.chunks(4).map(|p| [p[0], p[1], p[2]]).collect();
    assert!(shown == expected, "the window does not show the browser");
}

#[test]
fn the_profiler_overlay_shows_with_profile_and_f3_cycles_it() {
    let Some(session) = start(
        "profiler",
        &["run", "carts/platformer", "--profile"],
        "Platformer - Kairo",
    ) else {
        return;
    };
    let full_top = 256 - kairo::profiling::overlay::strip_height(OverlayMode::Full);
    let compact_top = 256 - kairo::profiling::overlay::strip_height(OverlayMode::Compact);
    let sky = [0x6e, 0xc6, 0xf5];
    let dimmed_sky = [0x6e / 3, 0xc6 / 3, 0xf5 / 3];
    let red = [0xff, 0x40, 0x40];
    // The budget line is dashed red across the graph, 32 px above its bottom.
    let budget_y = |top: usize| top + 2 + 9 + 40 - 32;

    let full = machine_picture(&session.shot("full"));
    // High in the sky: the title's hero walks about at y 50-63 and clouds drift at y 35-45.
    assert_eq!(full[16 * 256 + 128], sky, "the game above the strip");
    assert_eq!(
        full[(full_top + 1) * 256 + 250],
        dimmed_sky,
        "translucent strip"
    );
    assert_eq!(full[budget_y(full_top) * 256 + 8], red, "budget line");

    xdotool(&session.display, &["key", "F3"]);
    std::thread::sleep(Duration::from_millis(600));
    let compact = machine_picture(&session.shot("compact"));
    assert_eq!(
        compact[(full_top + 1) * 256 + 250],
        sky,
        "compact strip is lower"
    );
    assert_eq!(compact[budget_y(compact_top) * 256 + 8], red);

    xdotool(&session.display, &["key", "F3"]);
    std::thread::sleep(Duration::from_millis(600));
    let hidden = machine_picture(&session.shot("hidden"));
    assert_ne!(
        hidden[budget_y(compact_top) * 256 + 8],
        red,
        "overlay hidden"
    );
}

#[test]
fn f7_records_a_movie_with_a_badge_and_it_replays_headless() {
    let Some(session) = start("movie", &["carts/platformer"], "Platformer - Kairo") else {
        return;
    };
    xdotool(&session.display, &["key", "--delay", "100", "Return"]);
    std::thread::sleep(Duration::from_millis(600));
    xdotool(&session.display, &["key", "F7"]);
    session.hold("Right", 700);
    let recording = machine_picture(&session.shot("recording"));
    // `REC` in red on a dark box at the bottom right.
    let red = [0xf0, 0x50, 0x48];
    let badge = (248..256)
        .flat_map(|y| (256 - 24..256).map(move |x| (x, y)))
        .filter(|&(x, y)| recording[y * 256 + x] == red)
        .count();
    assert!(badge > 20, "{badge} red badge pixels at the top right");
    assert!(
        (248..256).all(|y| (0..256 - 25).all(|x| recording[y * 256 + x] != red)),
        "the badge keeps to its corner"
    );
    xdotool(&session.display, &["key", "F7"]);
    std::thread::sleep(Duration::from_millis(600));
    let stopped = machine_picture(&session.shot("stopped"));
    assert!(
        (248..256).all(|y| (256 - 24..256).all(|x| stopped[y * 256 + x] != red)),
        "no badge after stopping"
    );

    let folder = session.dir.join("data/movies/kairo.platformer");
    let movies: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(movies.len(), 1, "{movies:?}");
    let movie = kairo::movie::Movie::load(&movies[0]).unwrap();
    assert!(movie.start > 0, "recorded from the middle of the game");
    assert!(
        movie.ticks[movie.start..].iter().any(|f| f.0[0] == 2),
        "Right was recorded"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(["headless", "carts/platformer", "--input"])
        .arg(&movies[0])
        .args(["--frames", &movie.ticks.len().to_string(), "--hash"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn f9_saves_a_gif_of_the_game_two_vblanks_a_frame_in_its_colours() {
    let Some(session) = start("gif", &["tests/carts/gif_palette"], "GIF palette - Kairo") else {
        return;
    };
    xdotool(&session.display, &["key", "F9"]);
    let path = session.dir.join("shots/kairo-gif-palette-1.gif");
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no GIF within 30 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // The cart's colours: its top strip cycles through palette 2 (colour 1 + frame % 15),
    // its backdrop steps every 30 frames, and its bar is red, then green.
    let strip: Vec<[u8; 3]> = (1..=15u32)
        .map(|c| {
            let [_, r, g, b] = (c * 0x101010 + 0x000f00).to_be_bytes();
            [r, g, b]
        })
        .collect();
    let backdrops: Vec<[u8; 3]> = (0..100u32)
        .map(|k| {
            let [_, r, g, b] = ((k * 0x2a1f13) & 0xffffff).to_be_bytes();
            [r, g, b]
        })
        .collect();
    let mut strip_steps = Vec::new();
    let info = common::gifs::decode(&std::fs::read(&path).unwrap(), |i, canvas| {
        let at = |x, y| common::gifs::colour_at(canvas, 2, x, y);
        let step = strip.iter().position(|c| *c == at(0, 0));
        strip_steps.push(step.unwrap_or_else(|| panic!("frame {i}: strip {:?}", at(0, 0))));
        assert!(backdrops.contains(&at(250, 250)), "frame {i}: backdrop");
        for x in 0..256 {
            let c = at(x, 100);
            assert!(
                c == at(250, 250) || c == [255, 0, 0] || c == [0, 255, 0],
                "frame {i}: ({x}, 100) is {c:?}"
            );
        }
    });
    assert_eq!((info.width, info.height), (512, 512));
    assert!(info.delays.len() > 30, "{} frames", info.delays.len());
    assert!(
        info.delays.iter().all(|&d| d == 3 || d == 4),
        "{:?}",
        info.delays
    );
    // Every GIF frame is two vblanks after the one before.
    for pair in strip_steps.windows(2) {
        assert_eq!((pair[0] + 2) % 15, pair[1], "{strip_steps:?}");
    }
}

/// The machine's picture once `ready` holds for it, waiting for the window to get there (a
/// busy machine delays keys and frames); after 15 s, the last picture, for the caller's
/// assertions to fail on.
fn picture_once(session: &Session, name: &str, ready: impl Fn(&[[u8; 3]]) -> bool) -> Vec<[u8; 3]> {
    let until = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let picture = machine_picture(&session.shot(name));
        if ready(&picture) || std::time::Instant::now() > until {
            return picture;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn f8_turns_on_overlays_drawn_over_the_game() {
    let Some(session) = start("overlays", &["carts/platformer"], "Platformer - Kairo") else {
        return;
    };
    xdotool(&session.display, &["key", "--delay", "100", "Return"]);
    std::thread::sleep(Duration::from_millis(600));
    // F8, then: collision on, down to "Bodies moved", on, F8 closes.
    for key in ["F8", "Return", "Down", "Down", "Return", "F8"] {
        xdotool(&session.display, &["key", "--delay", "100", key]);
        std::thread::sleep(Duration::from_millis(150));
    }
    let shown = picture_once(&session, "overlays", |shown| {
        shown.iter().filter(|&&p| p == [60, 255, 140]).count() > 20
            && shown[50 * 256 + 200] == [0x6e, 0xc6, 0xf5]
    });
    let count = |rgb: [u8; 3]| shown.iter().filter(|&&p| p == rgb).count();
    assert!(
        count([80, 255, 120]) > 10,
        "slope lines of the collision layer"
    );
    assert!(
        count([60, 255, 140]) > 20,
        "the hero's body as move_body left it"
    );
    assert_eq!(
        shown[50 * 256 + 200],
        [0x6e, 0xc6, 0xf5],
        "the sky is not dimmed: no menu left"
    );

    // The first viewer, the tile sheet, after the six overlays in the debug menu.
    xdotool(&session.display, &["key", "--delay", "100", "F8"]);
    for _ in 0..6 {
        xdotool(&session.display, &["key", "--delay", "80", "Down"]);
    }
    xdotool(&session.display, &["key", "--delay", "100", "Return"]);
    std::thread::sleep(Duration::from_millis(500));
    let viewer = machine_picture(&session.shot("viewer"));
    let bar = [0x10, 0x14, 0x24];
    assert_eq!(viewer[4 * 256 + 250], bar, "the viewer's title bar");
    assert_eq!(viewer[252 * 256 + 250], bar, "the line under the cursor");
    let grid = viewer[20 * 256..200 * 256]
        .iter()
        .filter(|&&p| p == [0x0a, 0x0a, 0x10])
        .count();
    assert!(grid > 500, "{grid} pixels of the tile sheet's grid");

    // R (W) through every other view: each shows its own picture under the same bars.
    let mut seen = vec![viewer];
    for n in 1..kairo::host::shell::View::all().len() {
        xdotool(&session.display, &["key", "--delay", "100", "w"]);
        std::thread::sleep(Duration::from_millis(300));
        let view = machine_picture(&session.shot(&format!("viewer-{n}")));
        assert_eq!(view[4 * 256 + 250], bar, "view {n}: title bar");
        assert!(seen.iter().all(|v| *v != view), "view {n} differs");
        seen.push(view);
    }

    // Back to the menu (B, the selection at its top) and on with the overlays not on yet.
    xdotool(&session.display, &["key", "--delay", "100", "x"]);
    std::thread::sleep(Duration::from_millis(300));
    for key in [
        "Down", "Return", "Down", "Down", "Return", "Down", "Return", "Down", "Return", "F8",
    ] {
        xdotool(&session.display, &["key", "--delay", "80", key]);
    }
    let all = picture_once(&session, "all-overlays", |all| {
        all.iter().filter(|&&p| p == [255, 255, 255]).count() > 40
    });
    let count = |rgb: [u8; 3]| all.iter().filter(|&&p| p == rgb).count();
    assert!(count([60, 255, 140]) > 20, "bodies still on");
    assert!(
        count([255, 255, 255]) > 40,
        "the hero's hitbox (group 0, white)"
    );
}

/// The test card's picture (a still one) as the headless run saves it.
fn test_card_reference(dir: &Path) -> Vec<[u8; 3]> {
    let path = dir.join("reference.png");
    let out = Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(["headless", "tests/carts/window_test_card", "--frames", "3"])
        .arg("--screenshot")
        .arg(&path)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (width, rgba) = read_png(&path);
    assert_eq!(width, 256);
    rgba.chunks(4).map(|p| [p[0], p[1], p[2]]).collect()
}

/// Console rows above the toast (F10's note) at the bottom of the picture.
const ABOVE_TOAST: u32 = 192;

/// The picture drawn at a whole-number `scale` from (`x0`, `y0`): every console pixel a
/// `scale` x `scale` block of its colour, as the reference has it (rows above the toast).
fn assert_sharp(shot: &(u32, Vec<u8>), reference: &[[u8; 3]], x0: u32, y0: u32, scale: u32) {
    for y in 0..ABOVE_TOAST {
        for x in 0..256 {
            let want = reference[(y * 256 + x) as usize];
            for (dx, dy) in [
                (0, 0),
                (scale - 1, 0),
                (0, scale - 1),
                (scale - 1, scale - 1),
            ] {
                let at = (x0 + x * scale + dx, y0 + y * scale + dy);
                assert_eq!(
                    pixel(shot, at.0, at.1),
                    want,
                    "console ({x}, {y}) at {at:?}"
                );
            }
        }
    }
}

/// The mean green of the screen rows `rows` across the columns `columns`.
fn row_levels(
    shot: &(u32, Vec<u8>),
    rows: std::ops::Range<u32>,
    columns: std::ops::Range<u32>,
) -> Vec<f32> {
    rows.map(|y| {
        let sum: u32 = columns
            .clone()
            .map(|x| u32::from(pixel(shot, x, y)[1]))
            .sum();
        sum as f32 / columns.len() as f32
    })
    .collect()
}

/// A CRT at `scale`: over the test card's flat grey field, the rows repeat every `scale`
/// screen rows, each period with a bright row and one clearly darker, and grey stays grey.
fn assert_scanlines(shot: &(u32, Vec<u8>), scale: u32) {
    // Console rows 100-160, columns 108-148: grey, near the centre where the bulge is nil.
    let levels = row_levels(shot, 100 * scale..160 * scale, 108 * scale..148 * scale);
    let s = scale as usize;
    for (y, pair) in levels.windows(s + 1).enumerate() {
        assert!(
            (pair[0] - pair[s]).abs() <= 2.0,
            "row {y}: period {scale}: {levels:?}"
        );
    }
    for period in levels.chunks(s) {
        let max = period.iter().fold(0.0f32, |a, &b| a.max(b));
        let min = period.iter().fold(255.0f32, |a, &b| a.min(b));
        assert!(max - min >= 20.0, "a dark row in every {scale}: {period:?}");
    }
    let brightest = (0..scale)
        .map(|dy| pixel(shot, 128 * scale, 120 * scale + dy))
        .max_by_key(|p| p[1])
        .unwrap();
    let spread = brightest.iter().max().unwrap() - brightest.iter().min().unwrap();
    assert!(
        spread <= 3 && brightest[1] >= 0xc8,
        "grey kept: {brightest:?}"
    );
    // The red bar (console x 160-191) is still red on its brightest row.
    let red = (0..scale)
        .map(|dy| pixel(shot, 176 * scale, 32 * scale + dy))
        .max_by_key(|p| p[0])
        .unwrap();
    assert!(
        red[0] >= 0xe0 && red[1] < 0x30 && red[2] < 0x30,
        "red kept: {red:?}"
    );
}

/// An LCD at `scale` from (0, 0): inside each console pixel its exact colour, and a dark
/// line along its right and bottom edges (columns and rows of the grid).
fn assert_lcd_grid(shot: &(u32, Vec<u8>), reference: &[[u8; 3]], scale: u32) {
    let luma = |p: [u8; 3]| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]);
    for y in 0..ABOVE_TOAST {
        for x in 0..256 {
            let want = reference[(y * 256 + x) as usize];
            let at = |dx, dy| pixel(shot, x * scale + dx, y * scale + dy);
            assert_eq!(at(0, 0), want, "console ({x}, {y}): body");
            if luma(want) > 60 {
                for (dx, dy) in [(scale - 1, 0), (0, scale - 1), (scale - 1, scale - 1)] {
                    assert!(
                        luma(at(dx, dy)) * 10 < luma(want) * 8,
                        "console ({x}, {y}): grid at +({dx}, {dy}) is {:?}, body {want:?}",
                        at(dx, dy)
                    );
                }
            }
        }
    }
}

fn press(session: &Session, key: &str) {
    xdotool(&session.display, &["key", "--delay", "100", key]);
    std::thread::sleep(Duration::from_millis(700));
}

#[test]
fn f10_cycles_the_display_filters_and_the_window_keeps_the_last_one() {
    let title = "Test card - Kairo";
    let config = temp_dir("window-filters-config");
    let card = ["run", "tests/carts/window_test_card", "--scale", "3"];
    let Some(session) = start_with_config("filters", &card, title, Some(&config)) else {
        return;
    };
    let reference = test_card_reference(&session.dir);
    assert!(reference.iter().any(|p| *p != reference[0]), "a picture");

    // none: the headless screenshot, scaled up 3x with nearest neighbour.
    assert_sharp(&session.shot("none"), &reference, 0, 0, 3);
    press(&session, "F10");
    assert_scanlines(&session.shot("crt"), 3);
    press(&session, "F10");
    assert_lcd_grid(&session.shot("lcd"), &reference, 3);

    // smooth in a window of no whole-number scale: 700x700 in 1000x700, centred, each
    // console pixel's middle its exact colour, black bars left and right.
    press(&session, "F10");
    let window = xdotool(&session.display, &["search", "--name", title]);
    let window = window
        .split_whitespace()
        .next()
        .expect("the window")
        .to_string();
    xdotool(&session.display, &["windowsize", &window, "1000", "700"]);
    std::thread::sleep(Duration::from_millis(800));
    let smooth = session.shot("smooth");
    let scale = 700.0 / 256.0;
    for y in 0..ABOVE_TOAST {
        for x in 0..256 {
            let at = (
                150 + ((x as f32 + 0.5) * scale) as u32,
                ((y as f32 + 0.5) * scale) as u32,
            );
            let want = reference[(y * 256 + x) as usize];
            let got = pixel(&smooth, at.0, at.1);
            let near = (0..3).all(|c| got[c].abs_diff(want[c]) <= 2);
            assert!(near, "console ({x}, {y}) at {at:?}: {got:?}, want {want:?}");
        }
    }
    for x in (0..148).chain(852..1000) {
        assert_eq!(
            pixel(&smooth, x, 350),
            [0, 0, 0],
            "the bars beside, at x {x}"
        );
    }

    // none again there: 2x, letterboxed and centred.
    press(&session, "F10");
    assert_sharp(&session.shot("none-2x"), &reference, 244, 94, 2);

    // crt, kept in display.toml for the next start.
    press(&session, "F10");
    let saved = std::fs::read_to_string(config.join("display.toml")).unwrap();
    assert_eq!(saved.trim(), "filter = \"crt\"");
    drop(session);

    let card = ["run", "tests/carts/window_test_card", "--scale", "4"];
    let session = start_with_config("filters-again", &card, title, Some(&config)).unwrap();
    assert_scanlines(&session.shot("crt-4x"), 4);
    press(&session, "F10");
    assert_lcd_grid(&session.shot("lcd-4x"), &reference, 4);
}

#[test]
fn an_unknown_filter_is_refused_with_the_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(["run", "tests/carts/window_test_card", "--filter", "blur"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'blur'") && err.contains("none, crt, lcd, smooth"),
        "{err}"
    );
}
