//! GIF clips, from the library and from `kairo headless --gif`: recorded from a console
//! vblank by vblank, encoded, and read back with the `gif` crate's decoder, which must show
//! every recorded picture in the console's exact colours (palette changes included), for as
//! long as it was on screen.

mod common;

use common::gifs::{colour_at, decode, enlarged, png_rgba};
use common::{console, kairo, root, temp_dir};
use kairo::cart::Cart;
use kairo::clip::{ClipError, ClipOptions, FrameHistory};
use kairo::console::Console;

/// The cart whose palette changes at frames 200 and 450 (and its backdrop every 30).
fn palette_cart() -> Console {
    Console::new(Cart::open(&root().join("tests/carts/gif_palette")).unwrap()).unwrap()
}

/// Runs `console` for `vblanks` vblanks, recording a clip with `options`; returns the
/// history and the picture of every vblank it kept (the vblank's number and its RGBA), of
/// the last `keep` vblanks only.
fn record(
    console: &mut Console,
    vblanks: u64,
    options: ClipOptions,
    keep: u64,
) -> (FrameHistory, Vec<(u64, Vec<u8>)>) {
    let mut history = FrameHistory::new(options).unwrap();
    let mut pictures = Vec::new();
    for n in 0..vblanks {
        console.tick(kairo::input::InputFrame::NONE).unwrap();
        history.capture(console);
        let fps = u64::from(options.fps);
        let starts_frame = n == 0 || (n - 1) * fps / 60 != n * fps / 60;
        if starts_frame && n + keep >= vblanks {
            pictures.push((n, console.rgba()));
        }
    }
    (history, pictures)
}

#[test]
fn thirty_fps_clips_show_every_kept_picture_in_its_colours_across_palette_changes() {
    let mut console = palette_cart();
    let options = ClipOptions {
        seconds: 4.0,
        ..ClipOptions::default()
    };
    // 600 vblanks: the clip holds the last 240 (vblanks 360-599), across the change at 450.
    let (history, pictures) = record(&mut console, 600, options, 240);
    assert_eq!(history.frames(), 120);
    assert_eq!(pictures.len(), 120);
    let bytes = history.clip().encode().unwrap();
    let mut bar = Vec::new();
    let info = decode(&bytes, |i, canvas| {
        let (n, rgba) = &pictures[i];
        assert!(canvas == enlarged(rgba, 2), "GIF frame {i} (vblank {n})");
        // The bar's colour, in its middle (away from where it wraps round).
        let x = *n as usize % 240;
        if (8..220).contains(&x) {
            bar.push((*n, colour_at(canvas, 2, x + 8, 100)));
        }
    });
    assert_eq!((info.width, info.height), (512, 512));
    assert_eq!(info.repeat, gif::Repeat::Infinite);
    assert_eq!(info.delays.len(), 120, "the bar moves, so no frame repeats");
    assert_eq!(info.delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 400);
    assert!(info.delays.iter().all(|&d| d == 3 || d == 4));
    assert_eq!(info.delays.iter().filter(|&&d| d == 4).count(), 40);
    // Palette 1 colour 1 went from green to blue at machine frame 450.
    let green = bar.iter().filter(|(n, _)| *n < 445).collect::<Vec<_>>();
    let blue = bar.iter().filter(|(n, _)| *n > 452).collect::<Vec<_>>();
    assert!(green.len() > 20 && blue.len() > 20);
    assert!(green.iter().all(|(_, c)| *c == [0, 255, 0]), "{green:?}");
    assert!(blue.iter().all(|(_, c)| *c == [0, 0, 255]), "{blue:?}");
}

#[test]
fn fifty_fps_clips_have_delays_of_two_and_scale_one_is_the_console_size() {
    let mut console = palette_cart();
    let options = ClipOptions {
        seconds: 2.0,
        fps: 50,
        scale: 1,
    };
    // 300 vblanks: the clip holds the last 2 s, across the change at frame 200.
    let (history, pictures) = record(&mut console, 300, options, 120);
    assert_eq!(history.frames(), 100);
    let bytes = history.clip().encode().unwrap();
    let info = decode(&bytes, |i, canvas| {
        let (n, rgba) = &pictures[i];
        assert!(canvas == &rgba[..], "GIF frame {i} (vblank {n})");
    });
    assert_eq!((info.width, info.height), (256, 256));
    assert_eq!(info.delays, vec![2; 100]);
}

#[test]
fn a_picture_that_holds_becomes_one_frame_shown_as_long() {
    let mut still = console("function draw() rectfill(10, 10, 20, 20, 7) end");
    let (history, pictures) = record(&mut still, 120, ClipOptions::default(), 120);
    assert_eq!(history.frames(), 60);
    let info = decode(&history.clip().encode().unwrap(), |_, canvas| {
        assert!(canvas == enlarged(&pictures[0].1, 2));
    });
    assert_eq!(info.delays, [200]);
    // Shared pictures are stored once.
    assert!(history.bytes() < 8192, "{} bytes", history.bytes());
}

#[test]
fn ten_seconds_of_the_bundled_carts_fit_in_a_few_megabytes() {
    for cart in ["platformer", "shmup"] {
        let mut console =
            Console::new(Cart::open(&root().join("carts").join(cart)).unwrap()).unwrap();
        let movie =
            kairo::movie::Movie::load(&root().join(format!("tests/movies/{cart}.kmv"))).ok();
        let mut history = FrameHistory::default();
        for n in 0..900 {
            let input = movie
                .as_ref()
                .map_or(kairo::input::InputFrame::NONE, |m| m.input(n));
            console.tick(input).unwrap();
            history.capture(&console);
        }
        assert_eq!(history.frames(), 300);
        let raw = 300 * 256 * 256;
        let bytes = history.bytes();
        println!("{cart}: 10 s of pictures in {bytes} bytes ({raw} unpacked)");
        assert!(bytes < raw / 5, "{cart}: {bytes} bytes");
    }
}

#[test]
fn bad_options_and_empty_histories_are_refused() {
    for seconds in [0.0, -1.0, 60.5, f64::NAN] {
        let options = ClipOptions {
            seconds,
            ..ClipOptions::default()
        };
        assert!(matches!(
            FrameHistory::new(options),
            Err(ClipError::Seconds(_))
        ));
    }
    let at = |fps, scale| ClipOptions {
        fps,
        scale,
        ..ClipOptions::default()
    };
    assert!(matches!(
        FrameHistory::new(at(60, 2)),
        Err(ClipError::Rate(60))
    ));
    assert!(matches!(
        FrameHistory::new(at(30, 0)),
        Err(ClipError::Scale(0))
    ));
    assert!(matches!(
        FrameHistory::default().clip().encode(),
        Err(ClipError::Empty)
    ));
    assert_eq!(
        ClipError::Seconds(0.0).to_string(),
        "--gif-seconds must be more than 0 and at most 60, got 0"
    );
}

/// `kairo headless` on the palette cart for `frames` vblanks with `extra` arguments.
fn headless(frames: u64, extra: &[&str]) -> (i32, String, String) {
    let frames = frames.to_string();
    let mut args = vec![
        "headless",
        "tests/carts/gif_palette",
        "--frames",
        frames.as_str(),
    ];
    args.extend_from_slice(extra);
    kairo(&args, &root())
}

#[test]
fn headless_gif_holds_the_runs_last_seconds_as_the_screen_showed_them() {
    let dir = temp_dir("gif-cli");
    let gif_path = dir.join("clip.gif");
    let gif_arg = gif_path.to_str().unwrap();
    let (code, out, err) = headless(600, &["--gif", gif_arg, "--gif-seconds", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("frames 600"), "{out}");
    // GIF frame j shows the picture after vblank 360 + 2j, which is what a run of
    // 361 + 2j vblanks ends on: before the palette change (j = 40), after it, and the last.
    let mut shots = Vec::new();
    for j in [40usize, 60, 119] {
        let shot = dir.join(format!("{j}.png"));
        let vblanks = 361 + 2 * j as u64;
        let (code, _, err) = headless(vblanks, &["--screenshot", shot.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        shots.push((j, enlarged(&png_rgba(&shot), 2)));
    }
    let mut compared = 0;
    let info = decode(&std::fs::read(&gif_path).unwrap(), |i, canvas| {
        if let Some((_, expected)) = shots.iter().find(|(j, _)| *j == i) {
            assert!(canvas == &expected[..], "GIF frame {i}");
            compared += 1;
        }
    });
    assert_eq!(compared, 3);
    assert_eq!((info.width, info.height), (512, 512));
    assert_eq!(info.delays.len(), 120);
    assert_eq!(info.delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 400);
}

#[test]
fn headless_gif_defaults_to_ten_seconds_and_short_runs_give_all_they_have() {
    let dir = temp_dir("gif-cli-default");
    let long = dir.join("long.gif");
    let (code, _, err) = headless(720, &["--gif", long.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let info = decode(&std::fs::read(&long).unwrap(), |_, _| {});
    assert_eq!(info.delays.len(), 300);
    assert_eq!(info.delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 1000);
    let short = dir.join("short.gif");
    let (code, _, err) = headless(90, &["--gif", short.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let info = decode(&std::fs::read(&short).unwrap(), |_, _| {});
    assert_eq!(info.delays.len(), 45);
    assert_eq!(info.delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 150);
    // --gif-scale 1: the console's own size.
    let small = dir.join("small.gif");
    let (code, _, err) = headless(90, &["--gif", small.to_str().unwrap(), "--gif-scale", "1"]);
    assert_eq!(code, 0, "{err}");
    let info = decode(&std::fs::read(&small).unwrap(), |_, _| {});
    assert_eq!((info.width, info.height), (256, 256));
}

#[test]
fn headless_gif_errors_are_one_line_and_leave_no_file() {
    let dir = temp_dir("gif-cli-errors");
    let path = dir.join("no.gif");
    let (code, _, err) = headless(60, &["--gif", path.to_str().unwrap(), "--gif-seconds", "0"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "kairo: --gif-seconds must be more than 0 and at most 60, got 0\n"
    );
    assert!(!path.exists());
    let (code, _, err) = headless(60, &["--gif", path.to_str().unwrap(), "--gif-scale", "5"]);
    assert_eq!(
        (code, err.as_str()),
        (1, "kairo: --gif-scale must be 1 to 4, got 5\n")
    );
    assert!(!path.exists());
    let inside_a_file = dir.join("no.gif/clip.gif");
    std::fs::write(&path, b"not a folder").unwrap();
    let (code, _, err) = headless(30, &["--gif", inside_a_file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("kairo: ") && err.contains("cannot write"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"));

    // A cart that stops with a fault still leaves the GIF of what led up to it.
    let faulted = dir.join("fault.gif");
    let (code, _, err) = kairo(
        &[
            "headless",
            "tests/carts/runtime_error",
            "--frames",
            "60",
            "--gif",
            faulted.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 1);
    assert!(err.contains("attempt to index a nil value"), "{err}");
    let info = decode(&std::fs::read(&faulted).unwrap(), |_, _| {});
    assert_eq!(info.delays.len(), 1);
}
