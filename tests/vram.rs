//! The hardware views (`kairo::views::vram`) on the bundled carts: golden hashes of every
//! picture at a fixed vblank of each cart's movie (`UPDATE_GOLDEN=1` rewrites
//! `tests/golden/vram.txt`; a mismatch saves the PNG under the target directory and names
//! it), the lookups against what the pictures show, dumping leaving the game untouched, the
//! pictures in `docs/debugging.md` (`KAIRO_UPDATE_DOCS=1` rewrites them), and
//! `kairo headless --dump-vram`.

mod common;

use std::path::{Path, PathBuf};

use common::{bundled, docs_picture_is_current, kairo, root, temp_dir};
use kairo::cart::Cart;
use kairo::console::{Console, Tick};
use kairo::movie::Movie;
use kairo::views::vram::{dump, layers, tiles};

/// A bundled cart played from its movie for `vblanks` vblanks.
fn played(cart: &str, vblanks: u64) -> Console {
    let movie = Movie::load(&root().join("tests/movies").join(format!("{cart}.kmv"))).unwrap();
    let mut console = Console::new(Cart::open(&bundled(cart)).unwrap()).unwrap();
    for n in 0..vblanks {
        console.tick(movie.input(n as usize)).unwrap();
        console.take_log();
        console.take_audio();
    }
    console
}

/// The carts and the vblank of their movie the goldens are taken at: the platformer's
/// first stage scrolled, the shmup's boss with bullets in flight.
const GOLDEN_POINTS: &[(&str, u64)] = &[("platformer", 601), ("shmup", 4520)];

fn mismatch_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("vram-mismatch")
}

#[test]
fn every_view_matches_its_golden_hash() {
    let golden = root().join("tests/golden/vram.txt");
    let mut lines = Vec::new();
    let mut pictures = Vec::new();
    for &(cart, vblank) in GOLDEN_POINTS {
        let console = played(cart, vblank);
        for (name, image, _) in dump::pictures(&console) {
            lines.push(format!(
                "{cart}@{vblank} {name} {}x{} {}",
                image.width,
                image.height,
                kairo::hash::frame_hash_hex(&image.rgba)
            ));
            pictures.push(image);
        }
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, lines.join("\n") + "\n").unwrap();
    }
    let expected = std::fs::read_to_string(&golden)
        .expect("tests/golden/vram.txt (UPDATE_GOLDEN=1 writes it)");
    let expected: Vec<&str> = expected.lines().collect();
    for (i, (line, image)) in lines.iter().zip(&pictures).enumerate() {
        if expected.get(i) != Some(&line.as_str()) {
            std::fs::create_dir_all(mismatch_dir()).unwrap();
            let file = line.split(' ').take(2).collect::<Vec<_>>().join("-");
            let path = mismatch_dir().join(file.replace('@', "-"));
            let png = kairo::views::screenshot::encode_png_sized(
                &image.rgba,
                image.width as u32,
                image.height as u32,
            )
            .unwrap();
            std::fs::write(&path, png).unwrap();
            panic!(
                "got `{line}`, golden has `{}`; the picture: {}",
                expected.get(i).unwrap_or(&"nothing"),
                path.display()
            );
        }
    }
    assert_eq!(
        lines.len(),
        expected.len(),
        "the golden file has other lines"
    );
}

#[test]
fn lookups_name_what_the_pictures_show_on_the_platformer() {
    let console = played("platformer", 601);
    let machine = console.machine();
    // The tile under a point of the sheet is the one whose pixels are drawn there.
    let sheet = tiles::tile_sheet(machine, 1, tiles::rows_in_use(machine));
    let (x, y) = tiles::tile_origin(0x21);
    assert_eq!(tiles::tile_at(x + 3, y + 4), Some(0x21));
    let palette = machine.video().palette().palette(1);
    let index = machine.video().patterns().pixel(0x21, 3, 4);
    let drawn = sheet.get(x + 3, y + 4);
    if index == 0 {
        assert_eq!(drawn, kairo::views::vram::image::Image::checker(3, 4));
    } else {
        assert_eq!(drawn, palette[usize::from(index)]);
    }
    // The ground row of layer 0 is solid in the collision unit; the sky above is empty.
    let layer = &machine.video().layers()[0];
    let size = layer.cell_size();
    let ground = (0..layer.rows())
        .rev()
        .find(|&row| layer.cell(0, row as i64).is_ok_and(|c| c.is_empty()))
        .map_or(layer.rows() - 1, |row| row + 1)
        .min(layer.rows() - 1);
    let info = layers::cell_at(machine, 0, 2, layers::CAPTION_H + ground * size + 2).unwrap();
    assert_eq!((info.col, info.row), (0, ground));
    assert!(!info.stored.is_empty(), "{}", info.describe());
    assert_eq!(
        info.collision.map(|t| t.name()),
        Some("solid".to_string()),
        "{}",
        info.describe()
    );
    let sky = layers::cell_at(machine, 0, 2, layers::CAPTION_H + 2).unwrap();
    assert_eq!(sky.collision.map(|t| t.name()), Some("empty".to_string()));
    assert!(
        sky.describe().starts_with("cell 0,0 "),
        "{}",
        sky.describe()
    );
}

/// Frame hashes and reports of a platformer run of `vblanks`, dumping VRAM into `dump`
/// after `dump_at` vblanks when given.
fn run_hashes(vblanks: u64, dump_at: Option<(u64, &Path)>) -> Vec<String> {
    let movie = Movie::load(&root().join("tests/movies/platformer.kmv")).unwrap();
    let mut console = Console::new(Cart::open(&bundled("platformer")).unwrap()).unwrap();
    let mut out = Vec::new();
    for n in 0..vblanks {
        if let Some((at, dir)) = dump_at
            && at == n
        {
            dump::dump_vram(&console, dir).unwrap();
        }
        let tick = console.tick(movie.input(n as usize)).unwrap();
        console.take_log();
        console.take_audio();
        if let Tick::Frame(report) = tick {
            out.push(format!(
                "{} {} {}",
                report.frame,
                report.total(),
                kairo::hash::frame_hash_hex(&console.rgba())
            ));
        }
    }
    out
}

#[test]
fn dumping_vram_leaves_the_game_unchanged() {
    let dir = temp_dir("vram-untouched");
    let plain = run_hashes(400, None);
    let dumped = run_hashes(400, Some((200, &dir)));
    assert!(dir.join("layer0.png").is_file());
    assert_eq!(plain.len(), dumped.len());
    for (a, b) in plain.iter().zip(&dumped) {
        assert_eq!(a, b, "frame, cycles and picture hash after a dump");
    }
}

#[test]
fn the_pictures_in_the_docs_are_the_platformer_and_shmup_views() {
    let console = played("platformer", 601);
    let layer = layers::layer_view(console.machine(), 0);
    let png = kairo::views::screenshot::encode_png_sized(
        &layer.rgba,
        layer.width as u32,
        layer.height as u32,
    )
    .unwrap();
    docs_picture_is_current("vram-layer.png", &png);
    let machine = console.machine();
    let sheet = tiles::tile_sheet(machine, 1, tiles::rows_in_use(machine)).scaled(2);
    let png = kairo::views::screenshot::encode_png_sized(
        &sheet.rgba,
        sheet.width as u32,
        sheet.height as u32,
    )
    .unwrap();
    docs_picture_is_current("vram-tiles.png", &png);
    let console = played("shmup", 4520);
    let outlines = kairo::views::vram::sprites::sprite_outlines(console.machine(), &console.rgba());
    let png = kairo::views::screenshot::encode_png(&outlines.rgba).unwrap();
    docs_picture_is_current("vram-sprites.png", &png);
}

#[test]
fn headless_dump_vram_writes_the_views_and_their_index() {
    let dir = temp_dir("cli-dump-vram");
    let out = dir.join("vram");
    let (code, stdout, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "60",
            "--dump-vram",
            out.to_str().unwrap(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.lines().last().unwrap().starts_with("hash "),
        "{stdout}"
    );
    let index = std::fs::read_to_string(out.join("index.txt")).unwrap();
    for file in [
        "palettes.png",
        "layer0.png",
        "layer3.png",
        "oam.png",
        "sprites.png",
        "bullets.png",
    ] {
        assert!(index.contains(&format!("{file}: ")), "{index}");
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(out.join(file)).unwrap(),
        ));
        let info = decoder.read_info().unwrap().info().clone();
        assert!(info.width >= 256 && info.height > 0, "{file}");
    }
    assert!(index.lines().any(|l| l.starts_with("tiles-p")), "{index}");
    // No temporary files are left behind.
    for entry in std::fs::read_dir(&out).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "{name}");
    }
    // The same hash as a run that does not dump.
    let (_, plain, _) = kairo(
        &["headless", "carts/platformer", "--frames", "60", "--hash"],
        &root(),
    );
    assert_eq!(stdout.lines().last(), plain.lines().last());

    // A folder that cannot be made: one line on stderr, no panic.
    let blocker = dir.join("file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let (code, _, err) = kairo(
        &[
            "headless",
            "carts/platformer",
            "--frames",
            "5",
            "--dump-vram",
            blocker.join("sub").to_str().unwrap(),
        ],
        &root(),
    );
    assert_ne!(code, 0);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("kairo: ") && err.contains("cannot write"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
