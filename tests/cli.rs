//! The command line as users and scripts call it: headless runs with screenshots and hashes,
//! movies, packing and running packed carts.

mod common;

use common::{kairo, root, temp_dir};

fn hash_line(stdout: &str) -> String {
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("hash ") && last.len() == 21,
        "last line: {last}"
    );
    last.to_string()
}

#[test]
fn headless_gives_a_screenshot_and_the_same_hash_twice() {
    let dir = temp_dir("headless");
    let shot = dir.join("s.png");
    let args = [
        "headless",
        "carts/platformer",
        "--frames",
        "120",
        "--screenshot",
        shot.to_str().unwrap(),
        "--hash",
    ];
    let (code, first, err) = kairo(&args, &root());
    assert_eq!(code, 0, "{err}");
    assert!(
        first.contains("frames 120 (vblanks 120), slowdown frames 0"),
        "{first}"
    );
    let (_, second, _) = kairo(&args, &root());
    assert_eq!(hash_line(&first), hash_line(&second));

    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (256, 256));
}

#[test]
fn record_then_replay_gives_the_same_hash() {
    let dir = temp_dir("movie");
    let movie = dir.join("walk.kmv");
    // Start on the title, then walk right and press up.
    std::fs::write(
        &movie,
        "kairo-movie 1\n0000 *10\n0400 *2\n0002 *80\n0004 *28\n",
    )
    .unwrap();
    let recorded = dir.join("recorded.kmv");
    let (code, played, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "120",
            "--input",
            movie.to_str().unwrap(),
            "--record",
            recorded.to_str().unwrap(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let (_, replayed, _) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "120",
            "--input",
            recorded.to_str().unwrap(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(hash_line(&played), hash_line(&replayed));
    let (_, idle, _) = kairo(
        &["headless", "carts/platformer", "--frames", "120", "--hash"],
        &root(),
    );
    assert_ne!(
        hash_line(&played),
        hash_line(&idle),
        "the movie's input must matter"
    );
}

#[test]
fn a_packed_cart_runs_identically_and_a_corrupt_one_is_refused() {
    let dir = temp_dir("pack");
    let packed = dir.join("platformer.kcart");
    let (code, out, err) = kairo(
        &["pack", "carts/platformer", "-o", packed.to_str().unwrap()],
        &root(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let args = |cart: &str| {
        vec![
            "headless".to_string(),
            cart.to_string(),
            "--frames".into(),
            "90".into(),
            "--hash".into(),
        ]
    };
    let run = |cart: &str| {
        let a = args(cart);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        kairo(&a, &root())
    };
    let (_, folder, _) = run("carts/platformer");
    let (code, kcart, err) = run(packed.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    assert_eq!(hash_line(&folder), hash_line(&kcart));

    let mut bytes = std::fs::read(&packed).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    let corrupt = dir.join("corrupt.kcart");
    std::fs::write(&corrupt, &bytes).unwrap();
    let (code, _, err) = run(corrupt.to_str().unwrap());
    assert_ne!(code, 0);
    assert!(err.contains("corrupt: checksum mismatch"), "{err}");
}

#[test]
fn pack_refuses_a_broken_cart() {
    let dir = temp_dir("pack-broken");
    let out = dir.join("x.kcart");
    let (code, _, err) = kairo(
        &[
            "pack",
            "tests/carts/lua_syntax",
            "-o",
            out.to_str().unwrap(),
        ],
        &root(),
    );
    assert_ne!(code, 0);
    assert!(err.contains("main.lua:2:"), "{err}");
    assert!(!out.exists());
}

#[test]
fn check_passes_the_bundled_cart() {
    let (code, out, err) = kairo(&["check", "carts/platformer"], &root());
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_bad_movie_is_a_located_error() {
    let dir = temp_dir("bad-movie");
    let movie = dir.join("bad.kmv");
    std::fs::write(&movie, "kairo-movie 1\n0000\nnope\n").unwrap();
    let (code, _, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--input",
            movie.to_str().unwrap(),
        ],
        &root(),
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.kmv:3: `nope` is not an input word"),
        "{err}"
    );
}

#[test]
fn bench_prints_plain_integer_figures() {
    let (code, out, err) = kairo(&["bench", "platformer"], &root());
    assert_eq!(code, 0, "{err}");
    let line = out.trim();
    let value = line
        .strip_prefix("platformer: ")
        .and_then(|r| r.strip_suffix(" frames/s"))
        .unwrap_or("");
    assert!(value.parse::<u64>().is_ok(), "{line}");
}

#[test]
fn headless_wav_holds_exactly_the_frames_of_audio_and_is_not_silent() {
    let dir = temp_dir("wav");
    let wav = dir.join("a.wav");
    let (code, _, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "90",
            "--wav",
            wav.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (2, 48_000, 32)
    );
    assert_eq!(reader.duration(), 90 * 800, "frames / 60 seconds");
    let samples: Vec<f32> = reader.samples::<f32>().map(Result::unwrap).collect();
    let rms =
        (samples.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt();
    assert!(rms > 0.02, "the music plays: rms {rms}");
}

#[test]
fn scripted_input_drives_the_players_and_records_a_movie_that_replays() {
    let dir = temp_dir("press");
    let movie = dir.join("pressed.kmv");
    let args = [
        "headless",
        "carts/platformer",
        "--frames",
        "240",
        "--press",
        "start*1,-*40,right+a*20,right*150",
        "--record",
        movie.to_str().unwrap(),
        "--hash",
    ];
    let (code, pressed, err) = kairo(&args, &root());
    assert_eq!(code, 0, "{err}");
    // The hero moved: the picture differs from a run with no input.
    let (_, idle, _) = kairo(
        &["headless", "carts/platformer", "--frames", "240", "--hash"],
        &root(),
    );
    assert_ne!(hash_line(&pressed), hash_line(&idle));
    // The recorded movie replays to the same picture.
    let (code, replayed, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "240",
            "--input",
            movie.to_str().unwrap(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(hash_line(&pressed), hash_line(&replayed));
    // A movie written as readable steps plays the same too.
    let readable = dir.join("readable.kmv");
    std::fs::write(
        &readable,
        "kairo-movie 3\n# the same steps, as lines\nstart *1\n- *40\nright+a *20\nright *150\n",
    )
    .unwrap();
    let (code, read, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "240",
            "--input",
            readable.to_str().unwrap(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(hash_line(&pressed), hash_line(&read));
}

#[test]
fn each_press_option_drives_its_own_player_and_bad_scripts_are_refused() {
    let dir = temp_dir("press-players");
    std::fs::write(dir.join("cart.toml"), "name = 'players'\n").unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "function update() if frame() < 3 then log(btnword(0), btnword(1), btnword(2), btnword(3)) end end",
    )
    .unwrap();
    let cart = dir.to_str().unwrap();
    let (code, out, err) = kairo(
        &[
            "headless",
            cart,
            "--frames",
            "3",
            "--press",
            "a*2",
            "--press2",
            "-,left+START",
            "--press4",
            "select*3",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    // a = bit 4, left = bit 0, start = bit 10, select = bit 11.
    let lines: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(lines, ["16 0 0 2048", "16 1025 0 2048", "0 0 0 2048"]);
    for (script, expected) in [
        (
            "jump*20",
            "--press step 1 (`jump*20`): `jump` is not a button (buttons: left, right, up, down, a, b, x, y, l, r, start, select; `menu1`-`menu5` for a PICO-8 cart's pause-menu items; `-` for none; join them with `+`)",
        ),
        (
            "a*0",
            "--press step 1 (`a*0`): `0` is not a count of vblanks (1 or more)",
        ),
        (
            "a*2,b*x",
            "--press step 2 (`b*x`): `x` is not a count of vblanks (1 or more)",
        ),
    ] {
        let (code, _, err) = kairo(&["headless", cart, "--press", script], &root());
        assert_eq!(code, 1, "{script}");
        assert!(err.contains(expected), "{script}: {err}");
    }
    let (code, _, err) = kairo(
        &["headless", cart, "--press", "a", "--input", "m.kmv"],
        &root(),
    );
    assert_ne!(code, 0);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn a_held_button_repeats_btnp_after_15_frames_then_every_4() {
    let dir = temp_dir("btnp-repeat");
    std::fs::write(dir.join("cart.toml"), "name = 'repeat'\n").unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "local n = 0\nfunction update() if btnp('a') then n = n + 1 log('btnp ' .. frame()) end \
         if frame() == 59 then log('count ' .. n) end end",
    )
    .unwrap();
    let cart = dir.to_str().unwrap();
    // A held from the 11th frame for 40 frames, released, then tapped once.
    let (code, out, err) = kairo(
        &[
            "headless",
            cart,
            "--frames",
            "60",
            "--press",
            "-*10,a*40,-*5,a*1",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    let frames: Vec<&str> = out.lines().filter(|l| l.starts_with("btnp ")).collect();
    assert_eq!(
        frames,
        [
            "btnp 10", "btnp 25", "btnp 29", "btnp 33", "btnp 37", "btnp 41", "btnp 45", "btnp 49",
            "btnp 55"
        ],
        "{out}"
    );
    assert!(out.contains("count 9"), "{out}");
}

/// The WAV `kairo sound` wrote: 16-bit stereo at 48 kHz; its samples.
fn sound_wav(path: &std::path::Path) -> Vec<i16> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..16], b"WAVEfmt ");
    let mut reader = hound::WavReader::open(path).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (2, 48_000, 16)
    );
    assert_eq!(spec.sample_format, hound::SampleFormat::Int);
    reader.samples::<i16>().map(Result::unwrap).collect()
}

#[test]
fn sound_writes_a_music_file_as_a_wav_and_locates_its_mistakes() {
    let dir = temp_dir("sound");
    let mml = dir.join("tune.mml");
    // Two tracks; at t120 a half note is a second: two seconds of notes, then the release.
    std::fs::write(&mml, "# a tune\nA t120 @2 v12 c2 e2\nB t120 @4 v15 o3 c1\n").unwrap();
    let wav = dir.join("tune.wav");
    let (code, out, err) = kairo(
        &[
            "sound",
            mml.to_str().unwrap(),
            "--wav",
            wav.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("tune.wav: ") && out.contains(" s"), "{out}");
    let samples = sound_wav(&wav);
    let seconds = samples.len() as f64 / 2.0 / 48_000.0;
    assert!((2.0..2.5).contains(&seconds), "{seconds} s");
    let loud = samples.iter().filter(|s| s.unsigned_abs() > 1000).count();
    assert!(loud > samples.len() / 4, "it sounds: {loud} loud samples");

    // A mistake on a track's second line: its own line and column, no file written.
    let bad = dir.join("bad.mml");
    std::fs::write(&bad, "A t120 c d\nB e f\n  A g k\n").unwrap();
    let out_wav = dir.join("bad.wav");
    let (code, _, err) = kairo(
        &[
            "sound",
            bad.to_str().unwrap(),
            "--wav",
            out_wav.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!("kairo: {}:3:7: unknown command `k`", bad.display())
    );
    assert!(!out_wav.exists());
    // A file that is not music.
    std::fs::write(&bad, "hello\n").unwrap();
    let (code, _, err) = kairo(&["sound", bad.to_str().unwrap()], &root());
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.mml:1:1: a music line starts with a track letter A-H, not `h`"),
        "{err}"
    );
}

#[test]
fn sound_plays_a_carts_music_by_name_once_through_its_loop() {
    let dir = temp_dir("sound-cart");
    let wav = dir.join("stage1.wav");
    let (code, out, err) = kairo(
        &[
            "sound",
            "carts/platformer",
            "--music",
            "stage1",
            "--wav",
            wav.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("music \"stage1\" of Platformer") && out.contains("it loops"),
        "{out}"
    );
    let samples = sound_wav(&wav);
    let seconds = samples.len() as f64 / 2.0 / 48_000.0;
    assert!((5.0..60.0).contains(&seconds), "{seconds} s");
    assert!(samples.iter().any(|s| s.unsigned_abs() > 1000));
    // The last samples have faded out.
    assert!(
        samples[samples.len() - 200..]
            .iter()
            .all(|s| s.unsigned_abs() < 200)
    );

    let (code, out, err) = kairo(
        &[
            "sound",
            "carts/platformer",
            "--sfx",
            "coin",
            "--wav",
            wav.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sound effect \"coin\" of Platformer"), "{out}");

    // Unknown names list what the cart has.
    let (code, _, err) = kairo(&["sound", "carts/platformer", "--music", "nope"], &root());
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        "kairo: Platformer has no music named \"nope\" (its music: stage1, title, tower)"
    );
    let (code, _, err) = kairo(&["sound", "carts/platformer"], &root());
    assert_eq!(code, 1);
    assert!(
        err.contains("name a tune with --music NAME (its music: stage1, title, tower)"),
        "{err}"
    );
}

#[test]
fn sound_without_a_sound_card_warns_once_and_exits_0() {
    let dir = temp_dir("sound-play");
    let mml = dir.join("short.mml");
    std::fs::write(&mml, "A t240 c8\n").unwrap();
    let (code, _, err) = kairo(&["sound", mml.to_str().unwrap()], &root());
    assert_eq!(code, 0, "{err}");
    // On a machine with sound the tune plays; on one without, one warning says so.
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.is_empty() || (lines.len() == 1 && lines[0].starts_with("kairo: warning: no sound")),
        "{err}"
    );
}
