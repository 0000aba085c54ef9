//! RetroArch itself runs the built libretro core, installed with its info file as RetroArch
//! installs cores: under a virtual X display it plays 300 frames of the bundled platformer's
//! folder and takes a screenshot (`--max-frames-ss`), which must show the picture
//! `kairo headless` gives at that vblank, and keeps the cart's save RAM as a `.srm`; then it
//! plays the shmup with its run-ahead and rewind on, restoring a state through the core every
//! frame. Needs `retroarch xvfb xauth dbus-daemon` (`.ci/run` installs them; RetroArch's
//! GameMode client aborts without a D-Bus session, so the runs get one from
//! `dbus-run-session`). Without them the test fails when `KAIRO_CI` is set and otherwise
//! skips, saying why.
//!
//! Each run is read only once RetroArch and every process it started (the D-Bus session,
//! the X server, `xdg-screensaver`...) have ended, so its screenshot, log and `.srm` are
//! final: the wrapper at the top of the tree returning is not enough. The runs are bounded
//! only by a generous time limit that fails the test and ends the whole tree.
#![cfg(all(
    feature = "host",
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod common;
mod libretro_support;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
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

/// How long one RetroArch run of 300 frames may take before the test fails: it takes a few
/// seconds; the bound is only there so that a hung run fails rather than hangs.
const RUN_LIMIT: Duration = Duration::from_secs(300);

/// Whether a process of process group `group` is still running (an ended process waiting to
/// be reaped, a zombie, does not count).
fn group_running(group: u32) -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return false;
    };
    processes.flatten().any(|process| {
        // `pid (comm) state ppid pgrp ...`, where comm may hold spaces and parentheses.
        std::fs::read_to_string(process.path().join("stat")).is_ok_and(|stat| {
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            fields.first().is_some_and(|state| *state != "Z")
                && fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(group)
        })
    })
}

/// Waits until `child`, started as the leader of its own process group, and every process
/// of that group have ended; returns `child`'s status. Past [`RUN_LIMIT`], ends the whole
/// group and fails with `log`'s contents.
fn wait_for_the_whole_run(child: &mut std::process::Child, log: &Path) -> ExitStatus {
    let group = child.id();
    let started = Instant::now();
    let mut status = None;
    loop {
        if status.is_none() {
            status = child.try_wait().unwrap();
        }
        if let Some(status) = status
            && !group_running(group)
        {
            return status;
        }
        if started.elapsed() > RUN_LIMIT {
            // SAFETY: signals the process group this test started, and nothing else.
            unsafe { libc::kill(-(group as libc::pid_t), libc::SIGKILL) };
            let _ = child.wait();
            let log = std::fs::read_to_string(log).unwrap_or_default();
            panic!(
                "RetroArch had not finished 300 frames and exited after {} s (top process {}):\n{log}",
                RUN_LIMIT.as_secs(),
                match status {
                    Some(status) => format!("exited with {status}"),
                    None => "still running".to_string(),
                }
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What one RetroArch run left: its log and its screenshot.
struct Run {
    log: String,
    shot: Image,
    shot_path: std::path::PathBuf,
    saves: std::path::PathBuf,
}

/// Runs RetroArch on `cart` for 300 frames in a folder of its own under `dir`, with the core
/// installed as RetroArch installs cores (`cores/kairo_libretro.so` beside
/// `info/kairo_libretro.info`) and `settings` added to its configuration.
fn retroarch(dir: &Path, cart: &Path, settings: &str) -> Run {
    for sub in [
        "saves",
        "states",
        "screenshots",
        "system",
        "config",
        "cores",
        "info",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let core = dir.join("cores/kairo_libretro.so");
    std::fs::copy(libretro_support::core_path(), &core).unwrap();
    std::fs::copy(
        root().join("libretro/kairo_libretro.info"),
        dir.join("info/kairo_libretro.info"),
    )
    .unwrap();
    let config = dir.join("config/retroarch.cfg");
    let d = |sub: &str| dir.join(sub).display().to_string();
    std::fs::write(
        &config,
        format!(
            "config_save_on_exit = \"false\"\naudio_driver = \"null\"\nvideo_driver = \"gl\"\n\
             video_scale = \"3.000000\"\nvideo_smooth = \"false\"\ngamemode_enable = \"false\"\n\
             libretro_log_level = \"0\"\nmenu_enable_widgets = \"false\"\n\
             menu_show_load_content_animation = \"false\"\nvideo_font_enable = \"false\"\nlibretro_directory = \"{}\"\nlibretro_info_path = \"{}\"\n\
             savefile_directory = \"{}\"\nsavestate_directory = \"{}\"\n\
             screenshot_directory = \"{}\"\nsystem_directory = \"{}\"\n{settings}",
            d("cores"),
            d("info"),
            d("saves"),
            d("states"),
            d("screenshots"),
            d("system")
        ),
    )
    .unwrap();
    let shot_path = dir.join("retroarch.png");
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
        .arg(&core)
        .arg(cart)
        .args(["--max-frames=300", "--max-frames-ss"])
        .arg(format!("--max-frames-ss-path={}", shot_path.display()))
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // A group of its own: the test waits for all of it, and ends all of it on failure.
        .process_group(0)
        .spawn()
        .expect("start retroarch");
    let status = wait_for_the_whole_run(&mut child, &log_path);
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    assert!(status.success(), "retroarch exited with {status}:\n{log}");
    assert!(shot_path.exists(), "no screenshot:\n{log}");
    Run {
        log,
        shot: read_png(&shot_path),
        shot_path,
        saves: dir.join("saves"),
    }
}

/// The picture `kairo headless` gives after `frames` vblanks of `cart` with no input.
fn headless_picture(cart: &Path, frames: u32, dir: &Path) -> Image {
    let path = dir.join(format!("headless-{frames}.png"));
    let (code, _, err) = common::kairo(
        &[
            "headless",
            &cart.to_string_lossy(),
            "--frames",
            &frames.to_string(),
            "--screenshot",
            &path.to_string_lossy(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    read_png(&path)
}

#[test]
fn retroarch_plays_carts_through_the_core_with_run_ahead_and_rewind() {
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
    let dir = temp_dir("retroarch");

    // The platformer's folder as content, RetroArch's defaults.
    let cart = bundled("platformer");
    let run = retroarch(&dir.join("plain"), &cart, "");
    assert!(run.log.contains("[Kairo] loaded Platformer"), "{}", run.log);
    assert_eq!((run.shot.0, run.shot.1), (768, 768), "the window at 3x");
    let share = agreement(&run.shot, &headless_picture(&cart, 300, &dir));
    assert!(
        share > 0.95,
        "only {:.1}% of the screenshot's pixels are the console's ({})",
        share * 100.0,
        run.shot_path.display()
    );
    let srm = std::fs::metadata(run.saves.join("platformer.srm")).map(|m| m.len());
    let saves: Vec<String> = std::fs::read_dir(&run.saves)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        srm.ok(),
        Some(4096),
        "RetroArch keeps the cart's save RAM (saves: {saves:?}):\n{}",
        run.log
    );
    eprintln!("RetroArch screenshot: {}", run.shot_path.display());

    // The shmup with RetroArch's run-ahead (2 frames, one instance) and rewind on: RetroArch
    // saves and loads a state through the core every frame (it allows both only because the
    // info file says states are deterministic).
    let cart = bundled("shmup");
    let settings = "run_ahead_enabled = \"true\"\nrun_ahead_frames = \"2\"\n\
                    run_ahead_secondary_instance = \"false\"\nrewind_enable = \"true\"\n";
    let run = retroarch(&dir.join("run-ahead"), &cart, settings);
    assert!(!run.log.contains("Run-Ahead unavailable"), "{}", run.log);
    assert!(!run.log.contains("Rewind unavailable"), "{}", run.log);
    assert!(!run.log.contains("state refused"), "{}", run.log);
    // Run-ahead loads the state it saved a moment ago: from memory, or along this run.
    let restores = run.log.matches("state restored from memory").count()
        + run.log.matches("state restored along this run").count();
    assert!(
        restores >= 250,
        "{restores} restores in 300 frames:\n{}",
        run.log
    );
    // The frame shown is run ahead: one of the next few vblanks' pictures.
    let best = (300..=303)
        .map(|frames| agreement(&run.shot, &headless_picture(&cart, frames, &dir)))
        .fold(0.0, f64::max);
    assert!(
        best > 0.95,
        "only {:.1}% of the run-ahead screenshot's pixels are the console's ({})",
        best * 100.0,
        run.shot_path.display()
    );
}
