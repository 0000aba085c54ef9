//! Hostile carts: each gives its clear, located error from `kairo check` and exit code 1 —
//! never a panic or a hang. Also hostile files the tests build (FIFOs, symlinks, devices,
//! sparse giants) and a standard output closed early.

mod common;

use std::path::{Path, PathBuf};

use common::{TempDir, kairo, root, temp_dir};

/// One test per hostile cart (`cargo test --test hostile cart_`): `kairo check` exits 1 and
/// its report holds the located error; `CASES` lists them all.
macro_rules! hostile_carts {
    ($($test:ident: $cart:literal => $expected:literal;)*) => {
        /// (cart under tests/carts, text the first problem line must contain)
        const CASES: &[(&str, &str)] = &[$(($cart, $expected)),*];
        mod cart {
            $(
                #[test]
                fn $test() {
                    super::check_reports($cart, $expected);
                }
            )*
        }
    };
}

hostile_carts! {
    bad_toml: "bad_toml" => "cart.toml:3: unclosed array table";
    lua_syntax: "lua_syntax" => "main.lua:2: unexpected symbol near '='";
    runtime_error: "runtime_error" => "main.lua:3: attempt to index a nil value (local 'player')";
    missing_asset: "missing_asset" => "cart.toml:4: missing file `gfx/missing.png`";
    odd_png: "odd_png" => "odd.png: 12x10 px: a sheet of 8 px tiles must be a non-zero multiple of 8 px";
    oversize_png: "oversize_png" => "tall.png: 1040 px tall from tile 0 (row 0) runs past tile 2047";
    rgba_too_many_colours: "rgba_too_many_colours" => "colours.png: 1 of its tiles use more than 15 colours: tile 0 (32 colours)";
    io_open: "io_open" => "main.lua:1: attempt to index a nil value (global 'io')";
    memory_bomb: "memory_bomb" => "out of memory: the cart's Lua state reached its limit";
    runaway: "runaway" => "main.lua:2: the script ran past the runaway cap";
    bad_map: "bad_map" => "broken.tmx:4: malformed XML";
    deep_map: "deep_map" => "deep.tmx:3: elements nest deeper than 64 levels";
    short_layer: "short_layer" => "maps/short.tmx:4: layer `ground`: it holds 5 tile ids but the map has 4x2 = 8 cells";
    gid_past_end: "gid_past_end" => "far.tmx:4: layer `ground`: cell (2, 1): tile 8 is past the end of tileset `ground` (4 tiles)";
    stale_tileset: "stale_tileset" => "ground.tsx:3: tileset `ground`: image `ground.png` is 32 px wide but the tileset says 64: its columns changed since the tileset was saved, which moves the tiles";
    image_outside: "image_outside" => "ground.tsx:3: image `../../../etc/ground.png` is outside the cart";
    bad_mml: "bad_mml" => "cart.toml:9:14: unknown command `k`";
    bad_mml_2: "bad_mml" => "theme.mml:3:8: a `[` is not closed";
    cyclic_pattern: "cyclic_pattern" => "loop.xml:1: references loop: action[a] -> action[b] -> action[a]";
    truncated_kcart: "truncated.kcart" => "truncated.kcart: truncated";
    newer_kcart: "newer.kcart" => "made by a newer Kairo: format version 2";
    huge_entry_kcart: "huge_entry.kcart" => "corrupt: `main.lua` holds 4294967280 bytes (most is 16777216)";
}

/// `kairo check` on the hostile cart `cart` exits 1, reports `expected`, and does not panic.
fn check_reports(cart: &str, expected: &str) {
    let path = root().join("tests/carts").join(cart);
    let (code, stdout, stderr) = kairo(&["check", path.to_str().unwrap()], &root());
    assert_eq!(
        code, 1,
        "{cart}: exit code; stdout {stdout} stderr {stderr}"
    );
    assert!(
        stdout.contains(expected),
        "{cart}: expected `{expected}` in:\n{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{cart} panicked: {stderr}");
}

#[test]
fn the_runaway_cart_reports_the_exact_update_cap() {
    let path = root().join("tests/carts/runaway");
    let (code, stdout, _) = kairo(&["check", path.to_str().unwrap()], &root());
    assert_eq!(code, 1, "{stdout}");
    let wanted = format!(
        "main.lua:2: the script ran past the runaway cap of {} cycles without returning",
        kairo::spec::RUNAWAY_CAP
    );
    assert!(
        stdout.contains(&wanted),
        "expected `{wanted}` in:\n{stdout}"
    );
}

#[test]
fn hostile_carts_fail_headless_too_with_a_non_zero_exit() {
    for cart in ["runtime_error", "runaway", "io_open", "lua_syntax"] {
        let path = root().join("tests/carts").join(cart);
        let (code, _, stderr) = kairo(
            &["headless", path.to_str().unwrap(), "--frames", "10"],
            &root(),
        );
        assert_ne!(code, 0, "{cart}");
        assert!(stderr.contains("main.lua:"), "{cart}: {stderr}");
        assert!(!stderr.contains("panicked"), "{cart}: {stderr}");
    }
}

#[test]
fn every_listed_hostile_cart_exists_and_is_tested() {
    let listed: Vec<String> = std::fs::read_dir(root().join("tests/carts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        // The budget escapes have their own test per cart (tests/budget_escape.rs), and the
        // state, GIF, determinism and window carts are not broken (tests/save_data.rs, the
        // state tests, the GIF tests, tests/determinism.rs and tests/window.rs use them).
        .filter(|n| {
            ![
                "escape_",
                "state_",
                "gif_",
                "determinism_",
                "netplay_",
                "window_",
            ]
            .iter()
            .any(|p| n.starts_with(p))
        })
        .collect();
    for name in &listed {
        assert!(
            CASES.iter().any(|(c, _)| c == name),
            "{name} has no test case"
        );
    }
}

// Carts that git cannot hold (FIFOs, symlinks, devices, huge sparse files) are built here, in
// a temporary folder, and must give their error quickly: `run` fails the test after 60 s.

/// Runs kairo with `args` and a 60 s limit; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run kairo");
    // Drain both pipes while waiting, so a long output cannot block the child.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).unwrap();
            text
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 60 {
            child.kill().unwrap();
            panic!("kairo {args:?} hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, out.join().unwrap(), err.join().unwrap())
}

/// A fresh cart folder `name` whose script logs a long line every frame.
fn plain_cart(name: &str) -> TempDir {
    let dir = temp_dir(name).within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cart.toml"), "name = \"plain\"\n").unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "function update() log(string.rep(\"x\", 1000)) end\n",
    )
    .unwrap();
    dir
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

fn check_fails_with(cart: &Path, expected: &str) {
    let (code, stdout, stderr) = run(&["check", cart.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains(expected),
        "expected `{expected}` in {stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn special_files_in_a_cart_folder_are_errors_not_hangs() {
    let cart = plain_cart("fifo");
    mkfifo(&cart.join("music.mml"));
    check_fails_with(
        &cart,
        "music.mml: a FIFO (named pipe), not a regular file: remove it from the cart folder",
    );
    let (code, _, stderr) = run(&["headless", cart.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("music.mml: a FIFO"), "{stderr}");

    let cart = plain_cart("urandom");
    symlink("/dev/urandom", &cart.join("noise.png"));
    check_fails_with(
        &cart,
        "noise.png: a symlink to /dev/urandom, outside the cart folder",
    );
    let (code, _, stderr) = run(&["headless", cart.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("noise.png: a symlink"), "{stderr}");

    let cart = plain_cart("zero");
    symlink("/dev/zero", &cart.join("zero.lua"));
    check_fails_with(&cart, "zero.lua: a symlink to /dev/zero, outside the cart");
}

#[test]
fn symlinks_are_followed_inside_the_cart_only() {
    let cart = plain_cart("links");
    std::fs::create_dir(cart.join("lib")).unwrap();
    std::fs::write(cart.join("lib/util.lua"), "return 1\n").unwrap();
    symlink("lib/util.lua", &cart.join("util.lua"));
    symlink("lib", &cart.join("lib2"));
    let (code, stdout, stderr) = run(&["check", cart.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");

    let outside = temp_dir("links-secret").within("secret.txt");
    std::fs::write(&outside, "secret").unwrap();
    symlink(outside.to_str().unwrap(), &cart.join("lib/secret.txt"));
    let packed = cart.with_file_name("out.kcart");
    let (code, _, stderr) = run(&[
        "pack",
        cart.to_str().unwrap(),
        "-o",
        packed.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("lib/secret.txt: a symlink to") && stderr.contains("outside the cart"),
        "{stderr}"
    );
    assert!(!packed.exists(), "nothing is packed");
}

#[test]
fn symlink_loops_are_errors() {
    let cart = plain_cart("loop-self");
    std::fs::create_dir(cart.join("gfx")).unwrap();
    symlink("..", &cart.join("gfx/up"));
    check_fails_with(
        &cart,
        "gfx/up: a symlink back into a folder that contains it",
    );

    let cart = plain_cart("loop-pair");
    symlink("b.lua", &cart.join("a.lua"));
    symlink("a.lua", &cart.join("b.lua"));
    check_fails_with(&cart, "a symlink that cannot be followed");
}

#[test]
fn oversized_files_are_refused_from_their_size_before_reading() {
    // Sparse files: large on paper, nothing on disk.
    let cart = plain_cart("big-file");
    let file = std::fs::File::create(cart.join("huge.png")).unwrap();
    file.set_len(17 * 1024 * 1024).unwrap();
    check_fails_with(
        &cart,
        "huge.png: file too big (17825792 bytes, the most is 16777216): make it smaller",
    );

    let cart = plain_cart("big-cart");
    for i in 0..5 {
        let file = std::fs::File::create(cart.join(format!("part{i}.bin"))).unwrap();
        file.set_len(15 * 1024 * 1024).unwrap();
    }
    check_fails_with(&cart, "cart is too big");
}

#[test]
fn special_files_given_on_the_command_line_are_errors_not_hangs() {
    let dir = temp_dir("cli-fifos");
    let fifo = dir.join("cart.kcart");
    mkfifo(&fifo);
    check_fails_with(&fifo, "cart.kcart: a FIFO (named pipe), not a regular file");

    let cart = plain_cart("cli-movie");
    for input in [dir.join("cart.kcart"), PathBuf::from("/dev/zero")] {
        for command in ["headless", "profile"] {
            let (code, _, stderr) = run(&[
                command,
                cart.to_str().unwrap(),
                "--input",
                input.to_str().unwrap(),
            ]);
            assert_eq!(code, 1, "{command} {input:?}");
            assert!(stderr.contains("not a regular file"), "{stderr}");
        }
    }
    let (code, _, stderr) = run(&["pattern", "--headless", fifo.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("a FIFO (named pipe), not a regular file"),
        "{stderr}"
    );
}

#[test]
fn a_movie_whose_repeat_count_overflows_is_an_error() {
    let dir = temp_dir("overflow-movie");
    let movie = dir.join("m.kmv");
    std::fs::write(&movie, "kairo-movie 1\n0 *10\n0 *18446744073709551615\n").unwrap();
    let cart = plain_cart("overflow-movie-cart");
    let (code, _, stderr) = run(&[
        "headless",
        cart.to_str().unwrap(),
        "--input",
        movie.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("m.kmv:3: longer than 2160000 vblanks"),
        "{stderr}"
    );
}

/// Runs kairo, reads one byte of its output, closes the pipe; returns (exit code, stderr).
fn read_one_byte_then_close(args: &[&str]) -> (i32, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args(args)
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run kairo");
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code().unwrap_or(-1), err)
}

#[test]
fn a_closed_stdout_ends_every_printing_command_quietly() {
    // Each prints far more than a pipe holds (64 KiB), so writes after the close fail.
    let cart = plain_cart("epipe");
    let cart = cart.to_str().unwrap();
    let many_problems = plain_cart("epipe-check");
    for i in 0..3000 {
        std::fs::write(many_problems.join(format!("broken{i:04}.lua")), "x = = 1\n").unwrap();
    }
    let commands: [&[&str]; 4] = [
        &["headless", cart, "--frames", "600", "--hash"],
        &["profile", cart, "--frames", "600"],
        &["check", many_problems.to_str().unwrap()],
        &[
            "pattern",
            "docs/patterns/spiral.xml",
            "--headless",
            "--stats",
            "--frames",
            "6000",
        ],
    ];
    for args in commands {
        let (code, stderr) = read_one_byte_then_close(args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let expected = if args[0] == "check" { 1 } else { 0 };
        assert_eq!(code, expected, "{args:?}: {stderr}");
    }
}

#[test]
fn a_manifest_with_tens_of_thousands_of_problems_is_checked_without_a_hang() {
    // 1 MB of palettes with bad colours: once took a search of the whole text per problem.
    let cart = plain_cart("many-problems");
    let mut manifest = String::from("name = \"many\"\n");
    let mut count = 0;
    while manifest.len() < 1_000_000 {
        let colors: Vec<String> = (0..15)
            .map(|j| format!("\"zz{}\"", count * 15 + j))
            .collect();
        manifest += &format!("[[palette]]\nindex = 1\ncolors = [{}]\n", colors.join(","));
        count += 1;
    }
    std::fs::write(cart.join("cart.toml"), manifest).unwrap();
    let (code, stdout, stderr) = run(&["check", cart.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), count * 15, "{stderr}");
    assert!(
        stdout.contains("cart.toml:4: `zz0` is not a #rrggbb colour"),
        "{stdout:.300}"
    );
}
