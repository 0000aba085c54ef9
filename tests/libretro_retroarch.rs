//! RetroArch itself runs the built libretro core, installed with its info file as RetroArch
//! installs cores: under a virtual X display it plays 300 frames of the bundled platformer's
//! folder and takes a screenshot (`--max-frames-ss`), which must show the picture
//! `kairo headless` gives at that vblank; then it plays the shmup with its run-ahead and
//! rewind on, restoring a state through the core every frame. A second test plays both
//! bundled carts from one folder whose name has a dot (`my.games/`, where RetroArch names
//! both carts' `.srm` and states `my`): each writes its save data (the platformer's stage
//! record, the shmup's high score) to its own file in the core's folder of RetroArch's save
//! folder, and the shmup shows its high score when it starts again. Nothing depends on where
//! the checkout lives: the carts RetroArch loads are copied under temporary folders.
//! Needs `retroarch xvfb xauth dbus-daemon` (`.ci/run` installs them; RetroArch's
//! GameMode client aborts without a D-Bus session, so the runs get one from
//! `dbus-run-session`). Without them the tests fail when `KAIRO_CI` is set and otherwise
//! skip, saying why.
//!
//! Each run is read only once RetroArch and every process it started (the D-Bus session,
//! the X server, `xdg-screensaver`...) have ended, so its screenshot, log and save files are
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
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{bundled, copy_dir, root, temp_dir};

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
    shot_path: PathBuf,
}

/// Runs RetroArch on `cart` for 300 frames in folder `dir`, with the core installed as
/// RetroArch installs cores (`cores/kairo_libretro.so` beside `info/kairo_libretro.info`),
/// save files in `saves`, states in `dir/states` and `settings` added to its configuration.
fn retroarch(dir: &Path, cart: &Path, saves: &Path, settings: &str) -> Run {
    std::fs::create_dir_all(saves).unwrap();
    for sub in ["states", "screenshots", "system", "config", "cores", "info"] {
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
            saves.display(),
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
    }
}

/// The picture `kairo headless` gives after `frames` vblanks of `cart` with no input.
fn headless_picture(cart: &Path, frames: u32, dir: &Path) -> Image {
    headless_picture_with(cart, frames, dir, &[])
}

/// The picture `kairo headless CART --frames N ARGS...` gives.
fn headless_picture_with(cart: &Path, frames: u32, dir: &Path, args: &[&str]) -> Image {
    let path = dir.join(format!("headless-{frames}-{}.png", args.len()));
    let frames = frames.to_string();
    let path_text = path.to_string_lossy();
    let cart_text = cart.to_string_lossy();
    let mut all = vec![
        "headless",
        &cart_text,
        "--frames",
        &frames,
        "--screenshot",
        &path_text,
    ];
    all.extend_from_slice(args);
    let (code, _, err) = common::kairo(&all, &root());
    assert_eq!(code, 0, "{err}");
    read_png(&path)
}

/// Whether the tools are here; if not, fails under `KAIRO_CI`, else says the test skips.
fn tools_missing() -> bool {
    let missing: Vec<&str> = ["retroarch", "xvfb-run", "xauth", "dbus-run-session"]
        .into_iter()
        .filter(|tool| !have(tool))
        .collect();
    if missing.is_empty() {
        return false;
    }
    let why = format!("RetroArch smoke test: missing {}", missing.join(", "));
    assert!(std::env::var_os("KAIRO_CI").is_none(), "{why}");
    eprintln!("SKIPPED: {why}");
    true
}

/// Every file name under `dir`, folders included, relative to it, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn retroarch_plays_carts_through_the_core_with_run_ahead_and_rewind() {
    if tools_missing() {
        return;
    }
    let dir = temp_dir("retroarch");

    // The platformer's folder as content, RetroArch's defaults, in a checkout whose path has
    // a dot (RetroArch would name its `.srm` `kairo.srm`).
    let cart = dir.join("kairo.checkout/carts/platformer");
    copy_dir(&bundled("platformer"), &cart);
    let saves = dir.join("plain/saves");
    let run = retroarch(&dir.join("plain"), &cart, &saves, "");
    assert!(run.log.contains("[Kairo] loaded Platformer"), "{}", run.log);
    assert_eq!((run.shot.0, run.shot.1), (768, 768), "the window at 3x");
    let share = agreement(&run.shot, &headless_picture(&cart, 300, &dir));
    assert!(
        share > 0.95,
        "only {:.1}% of the screenshot's pixels are the console's ({})",
        share * 100.0,
        run.shot_path.display()
    );
    // The core keeps the cart's save RAM in its own file (written once the game writes save
    // RAM, which 300 frames on the title do not) and shows RetroArch no SAVE_RAM to write.
    let file = saves.join("kairo/kairo.platformer.ksav");
    assert!(
        run.log
            .contains(&format!("[Kairo] save data: {}", file.display())),
        "{}",
        run.log
    );
    assert!(
        files(&saves).iter().all(|f| !f.ends_with(".srm")),
        "no .srm: {:?}",
        files(&saves)
    );
    eprintln!("RetroArch screenshot: {}", run.shot_path.display());

    // The shmup with RetroArch's run-ahead (2 frames, one instance) and rewind on: RetroArch
    // saves and loads a state through the core every frame (it allows both only because the
    // info file says states are deterministic).
    let cart = bundled("shmup");
    let settings = "run_ahead_enabled = \"true\"\nrun_ahead_frames = \"2\"\n\
                    run_ahead_secondary_instance = \"false\"\nrewind_enable = \"true\"\n";
    let run = retroarch(
        &dir.join("run-ahead"),
        &cart,
        &dir.join("run-ahead/saves"),
        settings,
    );
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

/// The save RAM in the save file of `id` in `dir` (the window's format).
fn save_data(dir: &Path, id: &str) -> Vec<u8> {
    let path = dir.join(format!("{id}.ksav"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    kairo::savefile::decode(id, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Among the pixels where `a` and `b` differ, the share that `shot` (scaled up by a whole
/// factor) shows in `a`'s colour.
fn agreement_where_they_differ(shot: &Image, a: &Image, b: &Image) -> f64 {
    let scale = shot.0 / a.0;
    let differ: Vec<(u32, u32)> = (0..a.1)
        .flat_map(|y| (0..a.0).map(move |x| (x, y)))
        .filter(|&(x, y)| a.at(x, y) != b.at(x, y))
        .collect();
    assert!(!differ.is_empty(), "the two pictures are the same");
    let same = differ
        .iter()
        .filter(|&&(x, y)| shot.at(x * scale + scale / 2, y * scale + scale / 2) == a.at(x, y))
        .count();
    same as f64 / differ.len() as f64
}

#[test]
fn retroarch_keeps_each_carts_save_data_apart_under_a_dotted_folder() {
    if tools_missing() {
        return;
    }
    let dir = temp_dir("retroarch-saves");
    let games = dir.join("my.games");
    let saves = dir.join("saves");
    // Each cart starts (RetroArch's auto-load of `my.state.auto`) from a state of its test
    // movie a moment before the game writes save RAM, then plays on with no input: the
    // platformer clears stage 1 (its stage record) on the next vblank, the shmup clears its
    // stage, whose bonus makes a new high score, 44 vblanks later.
    for (name, id, vblanks, written) in [
        (
            "platformer",
            "kairo.platformer",
            600,
            "platformer: stage 1 clear",
        ),
        ("shmup", "kairo.nova-lance", 6800, "shmup: clear"),
    ] {
        let cart = games.join(name);
        copy_dir(&bundled(name), &cart);
        let run_dir = dir.join(name);
        let state = run_dir.join("states/my.state.auto");
        std::fs::create_dir_all(state.parent().unwrap()).unwrap();
        let movie = root().join(format!("tests/movies/{name}.kmv"));
        let (code, _, err) = common::kairo(
            &[
                "headless",
                &cart.to_string_lossy(),
                "--input",
                &movie.to_string_lossy(),
                "--frames",
                &vblanks.to_string(),
                "--save-state",
                &state.to_string_lossy(),
            ],
            &root(),
        );
        assert_eq!(code, 0, "{err}");
        let run = retroarch(&run_dir, &cart, &saves, "savestate_auto_load = \"true\"\n");
        let file = saves.join(format!("kairo/{id}.ksav"));
        for line in [
            format!("[Kairo] save data: {}", file.display()),
            format!("[Kairo] {written}"),
        ] {
            assert!(run.log.contains(&line), "{line}:\n{}", run.log);
        }
        // What the game wrote is what `kairo headless` writes from the same state, in the
        // window's format and name.
        let headless_saves = run_dir.join("headless-saves");
        let (code, _, err) = common::kairo(
            &[
                "headless",
                &cart.to_string_lossy(),
                "--load-state",
                &state.to_string_lossy(),
                "--frames",
                "100",
                "--data",
                &headless_saves.to_string_lossy(),
                "--write-save",
            ],
            &root(),
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            save_data(&saves.join("kairo"), id),
            save_data(&headless_saves, id),
            "{name}'s save data"
        );
    }
    // Two files of their own, and no `my.srm` shared by both.
    assert_eq!(
        files(&saves),
        [
            "kairo",
            "kairo/kairo.nova-lance.ksav",
            "kairo/kairo.platformer.ksav"
        ]
    );
    let shmup_data = save_data(&saves.join("kairo"), "kairo.nova-lance");
    let high_score = f64::from_le_bytes(shmup_data[..8].try_into().unwrap());
    assert!(high_score > 20000.0, "a new high score: {high_score}");

    // The shmup starts again and shows its high score on the title, as the window would.
    let cart = games.join("shmup");
    let run = retroarch(&dir.join("shmup-again"), &cart, &saves, "");
    let with_data = headless_picture_with(
        &cart,
        300,
        &dir,
        &["--data", &saves.join("kairo").to_string_lossy()],
    );
    let without = headless_picture(&cart, 300, &dir);
    let share = agreement_where_they_differ(&run.shot, &with_data, &without);
    assert!(
        share > 0.9,
        "only {:.1}% of the pixels the high score changes show it ({})",
        share * 100.0,
        run.shot_path.display()
    );
    assert_eq!(
        save_data(&saves.join("kairo"), "kairo.nova-lance"),
        shmup_data,
        "unchanged by a run that wrote nothing"
    );
}
