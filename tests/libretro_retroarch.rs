//! RetroArch itself runs the built libretro core: under a virtual X display it loads the
//! bundled platformer's folder, runs 300 vblanks, takes a screenshot (`--max-frames-ss`) and
//! keeps the cart's save RAM as a `.srm`. The screenshot must show the picture
//! `kairo headless` gives at that vblank. Needs `retroarch xvfb xauth dbus` (`.ci/run`
//! installs them; RetroArch's GameMode client aborts without a D-Bus session, so the run
//! gets one from `dbus-run-session`). Without them the test fails when `KAIRO_CI` is set and
//! otherwise skips, saying why.
#![cfg(all(
    feature = "host",
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod common;
mod libretro_support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{bundled, root, temp_dir};

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// An RGB image: width, height, 3 bytes per pixel.
struct Image(u32, u32, Vec<u8>);

fn read_png(path: &Path) -> Image {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Image(info.width, info.height, rgb)
}

impl Image {
    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.0 + x) * 3) as usize;
        [self.2[i], self.2[i + 1], self.2[i + 2]]
    }
}

/// The share of the console's 256x256 pixels that `shot` (the picture scaled up by a whole
/// factor) shows in the same colour, sampled at the middle of each scaled pixel.
fn agreement(shot: &Image, console: &Image) -> f64 {
    let scale = shot.0 / console.0;
    let same = (0..console.1)
        .flat_map(|y| (0..console.0).map(move |x| (x, y)))
        .filter(|&(x, y)| shot.at(x * scale + scale / 2, y * scale + scale / 2) == console.at(x, y))
        .count();
    same as f64 / f64::from(console.0 * console.1)
}

#[test]
fn retroarch_runs_the_core_and_its_screenshot_shows_the_cart() {
    let missing: Vec<&str> = ["retroarch", "xvfb-run", "xauth", "dbus-run-session"]
        .into_iter()
        .filter(|tool| !have(tool))
        .collect();
    if !missing.is_empty() {
        let why = format!("RetroArch smoke test: missing {}", missing.join(", "));
        assert!(std::env::var_os("KAIRO_CI").is_none(), "{why}");
        eprintln!("SKIPPED: {why}");
        return;
    }
    let core = libretro_support::core_path();
    let dir = temp_dir("retroarch");
    for sub in ["saves", "states", "screenshots", "system", "config"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let config = dir.join("config/retroarch.cfg");
    let d = |sub: &str| dir.join(sub).display().to_string();
    std::fs::write(
        &config,
        format!(
            "config_save_on_exit = \"false\"\naudio_driver = \"null\"\nvideo_driver = \"gl\"\n\
             video_scale = \"3.000000\"\nvideo_smooth = \"false\"\ngamemode_enable = \"false\"\n\
             savefile_directory = \"{}\"\nsavestate_directory = \"{}\"\n\
             screenshot_directory = \"{}\"\nsystem_directory = \"{}\"\n",
            d("saves"),
            d("states"),
            d("screenshots"),
            d("system")
        ),
    )
    .unwrap();
    let shot_path = dir.join("retroarch-platformer.png");
    let log_path = dir.join("retroarch.log");
    let mut child = Command::new("dbus-run-session")
        .args([
            "--",
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1024x800x24",
            "retroarch",
        ])
        .arg(format!("--config={}", config.display()))
        .arg("--verbose")
        .arg(format!("--log-file={}", log_path.display()))
        .arg("-L")
        .arg(core)
        .arg(bundled("platformer"))
        .args(["--max-frames=300", "--max-frames-ss"])
        .arg(format!("--max-frames-ss-path={}", shot_path.display()))
        .env("HOME", &dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start retroarch");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("RetroArch did not finish 300 frames in 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    assert!(status.success(), "retroarch exited with {status}:\n{log}");
    assert!(log.contains("[Kairo] loaded Platformer"), "{log}");
    assert!(shot_path.exists(), "no screenshot:\n{log}");

    // The picture kairo headless gives after the same 300 vblanks (no input).
    let console_path = dir.join("headless-platformer.png");
    let (code, _, err) = common::kairo(
        &[
            "headless",
            &bundled("platformer").to_string_lossy(),
            "--frames",
            "300",
            "--screenshot",
            &console_path.to_string_lossy(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let shot = read_png(&shot_path);
    let console = read_png(&console_path);
    assert_eq!((shot.0, shot.1), (768, 768), "the window at 3x");
    let share = agreement(&shot, &console);
    assert!(
        share > 0.95,
        "only {:.1}% of the screenshot's pixels are the console's ({})",
        share * 100.0,
        shot_path.display()
    );
    let srm = dir.join("saves/platformer.srm");
    let srm_len = std::fs::metadata(&srm).map(|m| m.len());
    assert_eq!(
        srm_len.ok(),
        Some(4096),
        "RetroArch keeps the cart's save RAM:\n{log}"
    );
    eprintln!("RetroArch screenshot: {}", shot_path.display());
}
