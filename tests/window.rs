//! The console window for real: under a virtual X display (Xvfb, software Vulkan) the window
//! opens on a cart, shows its picture at 3x, and answers keys. Needs `xvfb xdotool imagemagick
//! mesa-vulkan-drivers` (`.ci/run` installs them); without them the test says so and passes.
#![cfg(feature = "host")]

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{root, temp_dir};

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
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgba = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    (info.width, rgba)
}

fn pixel(shot: &(u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let at = ((y * shot.0 + x) * 4) as usize;
    [shot.1[at], shot.1[at + 1], shot.1[at + 2]]
}

#[test]
fn the_window_shows_the_cart_at_3x_and_pauses_on_escape() {
    if !["Xvfb", "xdotool", "import"].iter().all(|t| have(t)) {
        eprintln!("skipped: needs Xvfb, xdotool and imagemagick (see .ci/run)");
        return;
    }
    let display = format!(":{}", 500 + std::process::id() % 400);
    let _xvfb = Guard(
        Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1024x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb"),
    );
    std::thread::sleep(Duration::from_millis(800));
    let dir = temp_dir("window");
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    let _app = Guard(
        Command::new(env!("CARGO_BIN_EXE_kairo"))
            .arg("carts/platformer")
            .current_dir(root())
            .env("DISPLAY", &display)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("KAIRO_CONFIG_DIR", dir.join("config"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start kairo"),
    );
    let start = Instant::now();
    while xdotool(&display, &["search", "--name", "Platformer - Kairo"])
        .trim()
        .is_empty()
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no window within 30 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));

    // The window sits at the top-left of the screen: 768x768 for 256x256 at scale 3.
    let shot = screenshot(&display, &dir.join("game.png"));
    let hud = [0x1c, 0x1a, 0x2e];
    let sky = [0x6e, 0xc6, 0xf5];
    assert_eq!(pixel(&shot, 3 * 120, 3 * 5), hud, "HUD bar at (120, 5)");
    assert_eq!(
        pixel(&shot, 3 * 120 + 2, 3 * 5 + 2),
        hud,
        "each machine pixel is 3x3"
    );
    assert_eq!(pixel(&shot, 3 * 128, 3 * 60), sky, "sky at (128, 60)");
    assert_ne!(pixel(&shot, 3 * 128, 3 * 250), sky, "ground at the bottom");

    xdotool(&display, &["key", "--delay", "100", "Escape"]);
    std::thread::sleep(Duration::from_millis(600));
    let paused = screenshot(&display, &dir.join("paused.png"));
    assert_eq!(
        pixel(&paused, 3 * 128, 3 * 30),
        [0x6e / 3, 0xc6 / 3, 0xf5 / 3],
        "game dimmed"
    );
    let menu_panel = pixel(&paused, 3 * 200, 3 * 50);
    assert_eq!(menu_panel, [0x10, 0x14, 0x24], "pause menu panel");
}
