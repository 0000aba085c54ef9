//! The traps a cart maker fell into, each made again the way it was found: a small cart
//! folder written here and driven through the `kairo` command line.

mod common;

use std::path::Path;

use common::{TempDir, kairo, temp_dir};

/// Writes a cart folder `name` with `files` (a `cart.toml` among them replaces the default).
fn cart_folder(name: &str, files: &[(&str, &[u8])]) -> TempDir {
    let dir = temp_dir(name).within("cart");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cart.toml"), format!("name = \"{name}\"\n")).unwrap();
    for (path, bytes) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

/// The RGB pixels of a 256x256 screenshot.
fn screenshot(path: &Path) -> Vec<[u8; 3]> {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.color_type.samples();
    assert_eq!((info.width, info.height), (256, 256));
    pixels[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

fn run(args: &[&str], cwd: &Path) -> (i32, String, String) {
    kairo(args, cwd)
}

/// A cart whose `init` calls each line of `calls` under `pcall` and logs what it said.
fn logged_errors(name: &str, calls: &[&str]) -> Vec<String> {
    let mut main = String::from("function init()\n");
    for call in calls {
        main += &format!(
            "  log(select(2, pcall(function() {call} end)) or \"accepted: {}\")\n",
            call.replace('"', "'")
        );
    }
    main += "end\nfunction update() end\nfunction draw() end\n";
    let cart = cart_folder(name, &[("main.lua", main.as_bytes())]);
    let (code, out, err) = run(
        &["headless", cart.to_str().unwrap(), "--frames", "1"],
        &cart,
    );
    assert_eq!(code, 0, "{out}{err}");
    out.lines().take(calls.len()).map(str::to_string).collect()
}

#[test]
fn nan_and_infinities_are_refused_by_every_function_that_reads_numbers() {
    let calls = [
        "spr(0, 0/0, 10, 0)",
        "print('x', 1/0, 3)",
        "rectfill(0, 0, -1/0, 3, 1)",
        "scroll(0, 0/0, 0)",
        "move_body({x = 0/0, y = 0, w = 8, h = 8, vx = 0, vy = 0})",
        "bu_fire(0/0, 0, 0, 1, 0)",
        "bu_type(0, 1) bu_fire(0, 0, 0, 1, 0, {accel = 1/0})",
        "bu_player(0/0, 10)",
        "bu_player(10, 10, 1/0)",
        "sd_set(0, 0/0)",
        "sd_write({score = 0/0})",
        "math.random(1/0)",
        "rnd(0/0)",
    ];
    let lines = logged_errors("nan", &calls);
    let expected = [
        "spr: argument 2 (x) must be a finite number, got nan",
        "print: argument 2 (x) must be a finite number, got inf",
        "rectfill: argument 3 (x1) must be a finite number, got -inf",
        "scroll: argument 2 (x) must be a finite number, got nan",
        "move_body: body.x must be a finite number, got nan",
        "bu_fire: argument 1 (x) must be a finite number, got nan",
        "bu_fire: options.accel must be a finite number, got inf",
        "bu_player: argument 1 (x) must be a finite number, got nan",
        "bu_player: argument 3 (hit) must be a finite number, got inf",
        "sd_set: argument 2 (n) must be a finite number, got nan",
        "sd_write stores finite numbers, not nan",
        "math.random: argument 1 (m) must be a finite number, got inf",
        "rnd: argument 1 (n) must be a finite number, got nan",
    ];
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(line.ends_with(want), "{line:?} should end with {want:?}");
    }
}

#[test]
fn bullets_of_a_type_never_set_are_refused_naming_the_type() {
    let calls = [
        "bu_ring(128, 128, 8, 1, 3)",
        "bu_fire(128, 128, 0, 1, 5)",
        "bu_aim(128, 128, 1, 7)",
        "bu_pattern('p', 128, 40)",
        "bu_type(3, 1) return bu_ring(128, 128, 8, 1, 3)",
    ];
    let main = format!(
        "function init()\n{}end\nfunction update() end\nfunction draw() end\n",
        calls
            .iter()
            .map(|c| format!("  log(pcall(function() {c} end))\n"))
            .collect::<String>()
    );
    let pattern = br#"<?xml version="1.0" ?>
<bulletml><action label="top"><fire><bullet/></fire></action></bulletml>"#;
    let cart = cart_folder(
        "untyped",
        &[("main.lua", main.as_bytes()), ("p.xml", pattern)],
    );
    let (code, out, err) = run(
        &["headless", cart.to_str().unwrap(), "--frames", "1"],
        &cart,
    );
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    for (line, (function, kind)) in lines.iter().zip([
        ("bu_ring", 3),
        ("bu_fire", 5),
        ("bu_aim", 7),
        ("bu_pattern", 0),
    ]) {
        assert!(
            line.starts_with("false")
                && line.contains(&format!(
                    "{function}: bullet type {kind} is not set: call bu_type({kind}, tile, ...)"
                )),
            "{line}"
        );
    }
    assert_eq!(lines[4], "true 8", "a set type fires");
}

/// A cart whose high score is 600 when A is held on vblank 5, else 100; it stores the score
/// in save slot 0 at frame 20 when it beats the stored one.
const HIGH_SCORE: &str = r#"
local best, score = 0, 100
function init() best = sd_get(0) end
function update()
  if btn("a") then score = 600 end
  if frame() == 20 and score > best then sd_set(0, score) best = score end
end
function draw() print("BEST " .. best, 8, 8) end
"#;

fn stored_score(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("hiscore.ksav")).expect("the save file")
}

#[test]
fn replaying_a_movie_never_changes_the_players_save_files() {
    let cart = cart_folder(
        "replay-save",
        &[
            (
                "cart.toml",
                b"name = \"replay-save\"\nsave_id = \"hiscore\"\n",
            ),
            ("main.lua", HIGH_SCORE.as_bytes()),
        ],
    );
    let c = cart.to_str().unwrap();
    let data = cart.parent().unwrap().join("data");
    let d = data.to_str().unwrap();
    let work = cart.parent().unwrap();
    // The player scores 600 (A held), and it is stored.
    let press_a = work.join("a.kmv");
    std::fs::write(&press_a, "kairo-movie 1\n0010 *30\n").unwrap();
    let (code, _, err) = run(&["headless", c, "--frames", "30", "--data", d], work);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--input",
            press_a.to_str().unwrap(),
            "--data",
            d,
            "--write-save",
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    let six_hundred = stored_score(&data);
    // A movie recorded elsewhere, on empty save RAM: it scores 100.
    let movie = work.join("short.kmv");
    let (code, _, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--record",
            movie.to_str().unwrap(),
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    // Replaying it with the player's data folder leaves the file as it was, and says so.
    let (code, out, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--input",
            movie.to_str().unwrap(),
            "--data",
            d,
            "--hash",
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        stored_score(&data),
        six_hundred,
        "the high score of 600 is kept"
    );
    assert!(
        err.contains("not stored") && err.contains("--write-save"),
        "{err}"
    );
    // The replay itself ran on the movie's save RAM: the same picture as its recording.
    let (_, recorded, _) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--input",
            movie.to_str().unwrap(),
            "--hash",
        ],
        work,
    );
    assert_eq!(out.lines().last(), recorded.lines().last());
    // Continuing a state is a replay too.
    let state = work.join("s.kstate");
    let (code, _, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "10",
            "--save-state",
            state.to_str().unwrap(),
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--load-state",
            state.to_str().unwrap(),
            "--data",
            d,
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        stored_score(&data),
        six_hundred,
        "a state's run keeps it too"
    );
    // Asked for explicitly, the replay's save RAM is stored.
    let (code, _, err) = run(
        &[
            "headless",
            c,
            "--frames",
            "30",
            "--input",
            movie.to_str().unwrap(),
            "--data",
            d,
            "--write-save",
        ],
        work,
    );
    assert_eq!(code, 0, "{err}");
    assert_ne!(
        stored_score(&data),
        six_hundred,
        "--write-save stores the replay's 100"
    );
}

#[test]
fn a_headless_fault_names_its_frame_and_still_writes_what_was_asked() {
    let main = r#"
function update() if frame() == 100 then local t = nil; t.x = 1 end end
function draw() print("FRAME " .. frame(), 8, 8) end
"#;
    let cart = cart_folder("fault", &[("main.lua", main.as_bytes())]);
    let work = cart.parent().unwrap();
    let (shot, movie, gif) = (work.join("s.png"), work.join("m.kmv"), work.join("g.gif"));
    let (code, out, err) = run(
        &[
            "headless",
            cart.to_str().unwrap(),
            "--frames",
            "300",
            "--screenshot",
            shot.to_str().unwrap(),
            "--record",
            movie.to_str().unwrap(),
            "--gif",
            gif.to_str().unwrap(),
            "--hash",
        ],
        work,
    );
    assert_eq!(code, 1, "{out}{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("kairo: main.lua:2: attempt to index a nil value")
            && first.ends_with(" at frame 100"),
        "{err}"
    );
    assert!(err.contains("stack traceback"), "{err}");
    // The summary so far: 100 frames ran before the one that failed.
    assert!(out.contains("frames 100 (vblanks 100)"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("hash "), "{out}");
    // The screenshot is the error screen, naming the fault.
    let pixels = screenshot(&shot);
    assert_eq!(
        pixels[0],
        [0x10, 0x14, 0x24],
        "the error screen's panel colour"
    );
    let red = pixels.iter().filter(|p| **p == [0xF0, 0x50, 0x48]).count();
    assert!(red >= 40, "the CART ERROR title is drawn ({red} px)");
    // The movie holds every vblank up to and with the fault, and replays to the same fault.
    let text = std::fs::read_to_string(&movie).unwrap();
    assert!(text.contains("*101"), "{text}");
    let (code, _, again) = run(
        &[
            "headless",
            cart.to_str().unwrap(),
            "--frames",
            "300",
            "--input",
            movie.to_str().unwrap(),
        ],
        work,
    );
    assert_eq!(code, 1);
    assert_eq!(again.lines().next(), Some(first));
    assert!(
        std::fs::metadata(&gif).unwrap().len() > 1000,
        "the GIF is written"
    );
}

#[test]
fn real_bulletml_with_a_label_used_twice_runs() {
    let file = common::root().join("tests/bulletml/noiz2sa/1tonway.xml");
    let (code, out, err) = run(
        &[
            "pattern",
            file.to_str().unwrap(),
            "--headless",
            "--frames",
            "240",
            "--stats",
        ],
        &common::root(),
    );
    assert_eq!(code, 0, "{err}");
    let peak: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("peak bullets "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(peak >= 10, "{out}");
}

/// Runs `kairo` under `ulimit -v` of `kib` KiB (as containers and CI runners limit it).
fn kairo_limited(kib: u64, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_kairo"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("run sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn carts_run_identically_in_a_limited_address_space() {
    for args in [
        &["headless", "carts/platformer", "--frames", "300", "--hash"][..],
        &["headless", "carts/shmup", "--frames", "300", "--hash"][..],
        &["headless", "tests/carts/determinism_pairs", "--frames", "2"][..],
    ] {
        let (code, free, err) = run(args, &common::root());
        assert_eq!(code, 0, "{err}");
        // 2 GiB: far less than the 4 GiB-aligned reservation the heap prefers.
        let (code, limited, err) = kairo_limited(2 * 1024 * 1024, args);
        assert_eq!(code, 0, "{args:?} under ulimit -v: {err}");
        assert_eq!(free, limited, "{args:?}");
    }
}

#[test]
fn the_pattern_previewer_takes_a_rank() {
    let file = common::root().join("tests/bulletml/rrootage/normal/88way.xml");
    let peak = |rank: &str| -> u32 {
        let (code, out, err) = run(
            &[
                "pattern",
                file.to_str().unwrap(),
                "--headless",
                "--frames",
                "120",
                "--stats",
                "--rank",
                rank,
            ],
            &common::root(),
        );
        assert_eq!(code, 0, "{err}");
        out.lines()
            .find_map(|l| l.strip_prefix("peak bullets "))
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    // 88way fires more bullets the higher the rank ($rank in its <times>).
    assert!(peak("1") > peak("0"), "rank 1 fires more than rank 0");
    let (code, _, err) = run(
        &[
            "pattern",
            file.to_str().unwrap(),
            "--headless",
            "--rank",
            "2",
        ],
        &common::root(),
    );
    assert_ne!(code, 0);
    assert!(err.contains("--rank must be 0 to 1"), "{err}");
}

/// A PNG of `cols` x `rows` solid 16 px tiles (RGB), tile k in its own grey.
fn tiles_png(cols: u32, rows: u32) -> Vec<u8> {
    let (w, h) = (cols * 16, rows * 16);
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let k = (y / 16) * cols + x / 16;
            let v = (40 + k * 12) as u8;
            data.extend_from_slice(&[v, v, 255 - v]);
        }
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

/// A hand-written 4x2 TMX map of 16 px cells with an inline tileset of `tiles.png`
/// (2 columns, `rows` rows as saved) whose tile 1 says `collide = "<collide>"`, and one layer
/// `csv` (its own width and height given).
fn hand_map(rows: u32, collide: &str, (w, h): (u32, u32), csv: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="ground" tilewidth="16" tileheight="16" tilecount="{count}" columns="2">
  <image source="tiles.png" width="32" height="{height}"/>
  <tile id="1"><properties><property name="collide" value="{collide}"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{w}" height="{h}">
  <data encoding="csv">
{csv}
</data>
 </layer>
</map>
"#,
        count = 2 * rows,
        height = 16 * rows
    )
}

#[test]
fn check_reports_every_problem_of_a_map_at_once() {
    // A layer of the wrong size, and a misspelt collide value in its tileset.
    let map = hand_map(2, "soild", (3, 2), "1,2,1,\n2,1,2");
    let cart = cart_folder(
        "every-problem",
        &[
            (
                "cart.toml",
                b"name = 'every'\n[[map]]\nfile = 'maps/m.tmx'\n",
            ),
            ("maps/m.tmx", map.as_bytes()),
            ("maps/tiles.png", &tiles_png(2, 2)),
            ("main.lua", b""),
        ],
    );
    let (code, out, _) = run(&["check", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("maps/m.tmx:7: layer `ground`: it is 3x2 cells but the map is 4x2"),
        "{out}"
    );
    assert!(
        out.contains(
            "maps/m.tmx:3: tileset `ground` tile 1: collide = \"soild\" is not a collision tile"
        ),
        "{out}"
    );
}

#[test]
fn a_tileset_image_that_gained_rows_loads_with_a_note() {
    // Saved when the image had 2 rows; it has 3 now (same 2 columns): tiles keep their ids.
    let map = hand_map(2, "solid", (4, 2), "1,2,3,4,\n5,6,1,2");
    let files: [(&str, &[u8]); 4] = [
        ("cart.toml", b"name = 'rows'\n[[map]]\nfile = 'm.tmx'\n"),
        ("m.tmx", map.as_bytes()),
        ("tiles.png", &tiles_png(2, 3)),
        (
            "main.lua",
            b"function init() map_load('m', 'ground', 0) layer_on(0) end",
        ),
    ];
    let cart = cart_folder("rows", &files);
    let (code, out, _) = run(&["check", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("note: m.tmx: tileset `ground`: its image `tiles.png` has 3 rows of tiles now, 2 when the tileset was saved"),
        "{out}"
    );
    // Columns that changed move every tile: refused, naming the tileset.
    let (code, out, _) = {
        std::fs::write(cart.join("tiles.png"), tiles_png(3, 2)).unwrap();
        run(&["check", cart.to_str().unwrap()], &cart)
    };
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "m.tmx:4: tileset `ground`: image `tiles.png` is 48 px wide but the tileset says 32"
        ),
        "{out}"
    );
}

/// An RGB sheet of two 8 px tiles, each of 15 colours of its own (30 in all).
fn two_palette_sheet() -> Vec<u8> {
    let mut data = Vec::new();
    for y in 0..8u32 {
        for x in 0..16u32 {
            let tile = x / 8;
            let c = ((x % 8) + y * 8) % 15;
            // Tile 0 in greens, tile 1 in reds.
            let v = (60 + c * 12) as u8;
            data.extend_from_slice(&if tile == 0 { [0, v, 0] } else { [v, 0, 0] });
        }
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 16, 8);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

#[test]
fn a_sheet_needing_two_palettes_leaves_palette_0_alone_and_says_so() {
    let main = "function draw()
                  print('HUD', 8, 8)
                  spr(0, 100, 100, 0, 1, tpal(0))
                  spr(1, 120, 100, 1, 1, tpal(1))
                  log(tpal(0), tpal(1))
                end";
    let cart = cart_folder(
        "spill",
        &[
            (
                "cart.toml",
                b"name = 'spill'\n[[sheet]]\nfile = 'gfx/s.png'\npalette = 2\n",
            ),
            ("gfx/s.png", &two_palette_sheet()),
            ("main.lua", main.as_bytes()),
        ],
    );
    let (code, out, _) = run(&["check", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning: gfx/s.png: its 30 colours do not fit in palette 2 (its [[sheet]]'s palette): its tiles were split over palettes 2, 3"),
        "{out}"
    );
    let shot = cart.parent().unwrap().join("s.png");
    let (code, out, err) = run(
        &[
            "headless",
            cart.to_str().unwrap(),
            "--frames",
            "2",
            "--screenshot",
            shot.to_str().unwrap(),
        ],
        &cart,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2 3\n"), "{out}");
    assert!(
        err.contains("kairo: warning: gfx/s.png: its 30 colours"),
        "{err}"
    );
    let pixels = screenshot(&shot);
    let at = |x: usize, y: usize| -> [u8; 3] { pixels[y * 256 + x] };
    // print's default colour 15 of palette 0 is still the power-on white.
    let text: Vec<[u8; 3]> = (8..16)
        .flat_map(|y| (8..32).map(move |x| (x, y)))
        .map(|(x, y)| at(x, y))
        .filter(|p| *p != [0, 0, 0])
        .collect();
    assert!(
        !text.is_empty() && text.iter().all(|p| *p == [255, 255, 255]),
        "{text:?}"
    );
    // Both tiles show their own colours through their own palettes.
    assert!(
        at(100, 100)[1] > 0 && at(100, 100)[0] == 0,
        "tile 0 green: {:?}",
        at(100, 100)
    );
    assert!(
        at(120, 100)[0] > 0 && at(120, 100)[1] == 0,
        "tile 1 red: {:?}",
        at(120, 100)
    );
}

#[test]
fn what_a_second_new_user_trial_found() {
    // Tile properties of a JSON tileset saved before Tiled 1.2 (`tileproperties`) are read as
    // Tiled reads them: tile 0 collides.
    let json = r#"{"width": 1, "height": 1, "tilewidth": 16, "tileheight": 16,
      "orientation": "orthogonal", "type": "map",
      "tilesets": [{"firstgid": 1, "name": "old", "tilewidth": 16, "tileheight": 16,
        "image": "t.png", "imagewidth": 32, "imageheight": 32, "tilecount": 4, "columns": 2,
        "tileproperties": {"0": {"collide": "solid"}}}],
      "layers": [{"type": "tilelayer", "name": "l", "width": 1, "height": 1, "data": [1]}]}"#;
    let main = b"function init() log('collide', map_prop('m', 'l', 0, 0, 'collide')) end";
    let cart = cart_folder(
        "pre12-props",
        &[
            ("cart.toml", b"name = 'old'\n[[map]]\nfile = 'm.json'\n"),
            ("m.json", json.as_bytes()),
            ("t.png", &tiles_png(2, 2)),
            ("main.lua", main),
        ],
    );
    let (code, out, _) = run(&["check", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(
        &["headless", cart.to_str().unwrap(), "--frames", "1"],
        &cart,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("collide solid"), "{out}");

    // An MML declaration with neither `file` nor `mml` is located on its line.
    let cart = cart_folder(
        "sfx-line",
        &[
            ("cart.toml", b"name = 'sfx'\n\n[[sfx]]\nname = \"jump\"\n"),
            ("main.lua", b""),
        ],
    );
    let (code, out, _) = run(&["check", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("cart.toml:4: sfx `jump` needs exactly one of `file` and `mml`"),
        "{out}"
    );

    // An API error's traceback starts at the API function, not at a nameless C frame.
    let cart = cart_folder(
        "traceback",
        &[(
            "main.lua",
            b"function update()\n  bu_ring(1, 1, 8, 1, 7)\nend\n",
        )],
    );
    let (code, _, err) = run(&["headless", cart.to_str().unwrap()], &cart);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "stack traceback:\n\t[C]: in function 'bu_ring'\n\tmain.lua:2: in function 'update'"
        ),
        "{err}"
    );

    // The previewer's rank is a cart's until it calls bu_rank (0.5).
    let file = common::root().join("tests/bulletml/rrootage/normal/88way.xml");
    let stats = |extra: &[&str]| {
        let mut args = vec![
            "pattern",
            file.to_str().unwrap(),
            "--headless",
            "--frames",
            "90",
            "--stats",
        ];
        args.extend_from_slice(extra);
        run(&args, &common::root()).1
    };
    assert_eq!(stats(&[]), stats(&["--rank", "0.5"]));
}

#[test]
fn a_blank_quarter_of_a_sheets_16_px_tile_does_not_split_its_palette() {
    // A 32x16 indexed sheet (8 px tile size, the default) of two 16 px Tiled tiles: tile 0
    // in bank 1; tile 1 a plank whose bottom half is transparent (index 0, tRNS), in bank 2.
    let mut indices = vec![0u8; 32 * 16];
    for y in 0..16 {
        for x in 0..16 {
            indices[y * 32 + x] = 16 + 1 + ((x + y) % 3) as u8;
        }
        for x in 16..32 {
            indices[y * 32 + x] = if y < 8 { 32 + 1 + (x % 2) as u8 } else { 0 };
        }
    }
    let mut palette = vec![0u8; 48 * 3];
    for (i, rgb) in palette.chunks_exact_mut(3).enumerate() {
        rgb.copy_from_slice(&[(i * 5) as u8, (255 - i * 5) as u8, 90]);
    }
    let mut sheet = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut sheet, 32, 16);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette);
        encoder.set_trns(vec![0u8]);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&indices)
            .unwrap();
    }
    let tmx = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="2" columns="2">
  <image source="s.png" width="32" height="16"/>
 </tileset>
 <layer id="1" name="l" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#;
    let cart = cart_folder(
        "blank-quarter",
        &[
            (
                "cart.toml",
                b"name = 'q'\n[[sheet]]\nfile = 's.png'\npalette = 4\n[[map]]\nfile = 'm.tmx'\n",
            ),
            ("s.png", &sheet),
            ("m.tmx", tmx.as_bytes()),
            ("main.lua", b"local t, p = map_tile('m', 2) log(t, p)"),
        ],
    );
    let (code, out, err) = run(
        &["headless", cart.to_str().unwrap(), "--frames", "1"],
        &cart,
    );
    assert_eq!(code, 0, "{out}{err}");
    // Tile 1 starts at pattern tile 2 and keeps bank 2's palette: 4 + 2.
    assert!(out.starts_with("2 6\n"), "{out}");
}
