//! The bundled carts played from their recorded movies: the run reaches its milestones (the
//! log lines each cart writes), stays within the cycle budget, matches the golden frame
//! hashes at its checkpoints (`UPDATE_GOLDEN=1` rewrites them; a mismatch saves the PNG of
//! the first checkpoint that differs, under the target directory, and names it), and runs
//! identically from its packed `.kcart`.

mod common;

use std::path::{Path, PathBuf};

use common::{bundled, root, temp_dir};
use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::{Console, Tick};
use kairo::movie::Movie;

/// A bundled cart with its movie and what the movie must achieve.
struct Demo {
    cart: &'static str,
    movie: &'static str,
    vblanks: u64,
    /// Vblanks at which the picture is hashed.
    checkpoints: &'static [u64],
    /// Log lines (prefixes) that must appear, in this order.
    milestones: &'static [&'static str],
    /// Log lines (prefixes) that must not appear.
    never: &'static [&'static str],
}

const PLATFORMER: Demo = Demo {
    cart: "platformer",
    movie: "platformer.kmv",
    vblanks: 3800,
    checkpoints: &[10, 300, 601, 900, 1500, 2100, 2700, 3290, 3800],
    milestones: &[
        "platformer: new game",
        "platformer: stage 1 clear",
        "platformer: stage 2 start",
        "platformer: stage 2 clear",
        "platformer: stage 3 start",
        "platformer: stage 3 clear",
        "platformer: all stages clear",
    ],
    never: &["platformer: life lost", "platformer: game over"],
};

const SHMUP: Demo = Demo {
    cart: "shmup",
    movie: "shmup.kmv",
    vblanks: 7000,
    checkpoints: &[30, 760, 2050, 2930, 4520, 4650, 5400, 6100, 7000],
    milestones: &[
        "shmup: start",
        "shmup: midboss",
        "shmup: boss",
        "shmup: boss phase 1",
        "shmup: boss phase 2",
        "shmup: boss phase 3",
        "shmup: clear",
    ],
    never: &["shmup: life lost", "shmup: game over"],
};

/// The picture at one checkpoint.
struct Checkpoint {
    vblank: u64,
    hash: String,
    rgba: Vec<u8>,
}

impl Checkpoint {
    fn new(vblank: u64, rgba: Vec<u8>) -> Checkpoint {
        Checkpoint {
            vblank,
            hash: kairo::hash::frame_hash_hex(&rgba),
            rgba,
        }
    }
}

/// What a movie run produced.
struct Played {
    log: Vec<String>,
    checkpoints: Vec<Checkpoint>,
    peak_load: f64,
    slow_frames: Vec<u64>,
}

impl Played {
    fn hashes(&self) -> Vec<(u64, &str)> {
        self.checkpoints
            .iter()
            .map(|c| (c.vblank, c.hash.as_str()))
            .collect()
    }
}

fn play(cart: Cart, demo: &Demo) -> Played {
    let movie = Movie::load(&root().join("tests/movies").join(demo.movie)).expect("movie");
    let mut console = Console::new(cart).expect("the cart boots");
    let mut played = Played {
        log: console.take_log(),
        checkpoints: Vec::new(),
        peak_load: 0.0,
        slow_frames: Vec::new(),
    };
    for n in 0..demo.vblanks {
        let tick = console
            .tick(movie.input(n as usize))
            .unwrap_or_else(|e| panic!("{} faulted at vblank {n}: {e}", demo.cart));
        if let Tick::Frame(report) = tick {
            played.peak_load = played.peak_load.max(report.load());
            if report.slowed_down() {
                played.slow_frames.push(report.frame);
            }
        }
        played.log.extend(console.take_log());
        console.take_audio();
        if demo.checkpoints.contains(&(n + 1)) {
            played
                .checkpoints
                .push(Checkpoint::new(n + 1, console.rgba()));
        }
    }
    played
}

/// The text of a golden file: one `vblank hash` line per checkpoint.
fn golden_text(checkpoints: &[Checkpoint]) -> String {
    checkpoints
        .iter()
        .map(|c| format!("{} {}\n", c.vblank, c.hash))
        .collect()
}

/// Where a golden mismatch leaves its picture: under the target directory, never in the
/// source tree.
fn mismatch_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden-mismatch")
}

/// Compares the checkpoints with the golden text `golden` (from `source`). On a mismatch
/// saves the picture of the first checkpoint that differs as `dir/CART-vblank-N.png` and
/// returns the failure message, which names that file.
fn golden_mismatch(
    cart: &str,
    source: &Path,
    golden: &str,
    checkpoints: &[Checkpoint],
    dir: &Path,
) -> Option<String> {
    let text = golden_text(checkpoints);
    if text == golden {
        return None;
    }
    let expected: Vec<(u64, &str)> = golden
        .lines()
        .map(|l| {
            let (n, hash) = l.split_once(' ').unwrap_or((l, ""));
            (n.parse().unwrap_or(u64::MAX), hash)
        })
        .collect();
    let first = checkpoints
        .iter()
        .enumerate()
        .find(|(i, c)| expected.get(*i) != Some(&(c.vblank, c.hash.as_str())));
    let picture = match first {
        Some((i, c)) => {
            std::fs::create_dir_all(dir).unwrap();
            let path = dir.join(format!("{cart}-vblank-{}.png", c.vblank));
            kairo::views::screenshot::save_png(&path, &c.rgba)
                .unwrap_or_else(|e| panic!("saving {}: {e}", path.display()));
            let wanted = expected.get(i).map_or("no line", |(_, h)| *h);
            format!(
                "first difference at vblank {} (golden: {wanted}, got: {}); its picture: {}",
                c.vblank,
                c.hash,
                path.display()
            )
        }
        None => "every checkpoint of the run matches its line; the golden file has other lines"
            .to_string(),
    };
    Some(format!(
        "{cart}: frame hashes differ from {} (UPDATE_GOLDEN=1 rewrites them)\n{picture}\n\
         expected:\n{golden}got:\n{text}",
        source.display()
    ))
}

fn golden_path(demo: &Demo) -> PathBuf {
    root()
        .join("tests/golden")
        .join(format!("{}.hashes", demo.cart))
}

fn check_demo(demo: &Demo) {
    let cart = Cart::open(&bundled(demo.cart)).expect("the bundled cart loads");
    let played = play(cart, demo);

    let mut at = 0;
    for milestone in demo.milestones {
        let found = played.log[at..]
            .iter()
            .position(|l| l.starts_with(milestone))
            .unwrap_or_else(|| {
                panic!(
                    "{}: `{milestone}` missing (in order) from the log:\n{}",
                    demo.cart,
                    played.log.join("\n")
                )
            });
        at += found + 1;
    }
    for bad in demo.never {
        assert!(
            !played.log.iter().any(|l| l.starts_with(bad)),
            "{}: `{bad}` in the log:\n{}",
            demo.cart,
            played.log.join("\n")
        );
    }
    assert!(
        played.slow_frames.is_empty(),
        "{}: frames over budget in normal play: {:?} (peak {:.1}%)",
        demo.cart,
        played.slow_frames,
        played.peak_load
    );

    let path = golden_path(demo);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, golden_text(&played.checkpoints)).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} (UPDATE_GOLDEN=1 writes it)", path.display()));
    let dir = mismatch_dir();
    if let Some(message) = golden_mismatch(demo.cart, &path, &expected, &played.checkpoints, &dir) {
        panic!("{message}");
    }
}

fn check_packed_runs_identically(demo: &Demo) {
    let files = CartFiles::open(&bundled(demo.cart)).unwrap();
    let bytes = kairo::cart::kcart::pack(files.iter()).unwrap();
    let path = temp_dir(&format!("packed-{}", demo.cart)).within("cart.kcart");
    std::fs::write(&path, bytes).unwrap();
    let short = Demo {
        vblanks: demo.checkpoints[demo.checkpoints.len() / 2],
        ..*demo
    };
    let packed = play(Cart::open(&path).expect("the packed cart loads"), &short);
    let folder = play(Cart::open(&bundled(demo.cart)).unwrap(), &short);
    assert_eq!(packed.hashes(), folder.hashes(), "{}", demo.cart);
    assert_eq!(packed.log, folder.log, "{}", demo.cart);
}

#[test]
fn the_platformer_movie_plays_all_three_stages_within_budget() {
    check_demo(&PLATFORMER);
}

#[test]
fn the_packed_platformer_runs_like_the_folder() {
    check_packed_runs_identically(&PLATFORMER);
}

#[test]
fn the_shmup_movie_survives_to_the_boss_and_clears_the_stage_within_budget() {
    check_demo(&SHMUP);
}

#[test]
fn the_packed_shmup_runs_like_the_folder() {
    check_packed_runs_identically(&SHMUP);
}

#[test]
fn the_bundled_carts_pass_check() {
    for cart in ["platformer", "shmup"] {
        let problems = kairo::commands::check::check_cart(&bundled(cart), 120);
        assert!(problems.is_empty(), "{cart}: {problems:?}");
    }
}

/// A picture that differs from the others of the test: a gradient tinted by `tint`.
fn test_picture(tint: u8) -> Vec<u8> {
    (0..256 * 256)
        .flat_map(|i: usize| [(i % 256) as u8, (i / 256) as u8, tint, 255])
        .collect()
}

fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn a_golden_mismatch_saves_the_picture_of_the_first_checkpoint_that_differs() {
    let checkpoints: Vec<Checkpoint> = [(10, 0), (20, 100), (30, 200)]
        .into_iter()
        .map(|(n, tint)| Checkpoint::new(n, test_picture(tint)))
        .collect();
    let right = golden_text(&checkpoints);
    let source = Path::new("tests/golden/selftest.hashes");
    let dir = mismatch_dir();
    assert!(
        dir.starts_with(env!("CARGO_TARGET_TMPDIR")) && !dir.starts_with(root().join("tests")),
        "{}",
        dir.display()
    );
    assert_eq!(
        golden_mismatch("selftest", source, &right, &checkpoints, &dir),
        None
    );

    // Checkpoints 20 and 30 differ: the picture of 20 is saved, and only that one.
    let wrong = right
        .replace(&checkpoints[1].hash, "0123456789abcdef")
        .replace(&checkpoints[2].hash, "fedcba9876543210");
    let first = dir.join("selftest-vblank-20.png");
    let later = dir.join("selftest-vblank-30.png");
    for path in [&first, &later] {
        let _ = std::fs::remove_file(path);
    }
    let message = golden_mismatch("selftest", source, &wrong, &checkpoints, &dir)
        .expect("a wrong hash is a mismatch");
    assert!(
        message.contains(&format!(
            "first difference at vblank 20 (golden: 0123456789abcdef, got: {}); its picture: {}",
            checkpoints[1].hash,
            first.display()
        )),
        "{message}"
    );
    assert!(
        message.contains("tests/golden/selftest.hashes"),
        "{message}"
    );
    let (width, height, rgba) = decode_png(&first);
    assert_eq!((width, height), (256, 256));
    assert!(
        rgba == checkpoints[1].rgba,
        "the PNG is checkpoint 20's picture"
    );
    assert!(
        !later.exists(),
        "only the first differing checkpoint is saved"
    );

    // A golden file with a checkpoint more than the run: a mismatch, with no picture to show.
    let longer = format!("{right}40 0000000000000000\n");
    let message = golden_mismatch("selftest", source, &longer, &checkpoints, &dir)
        .expect("a missing checkpoint is a mismatch");
    assert!(
        message.contains("the golden file has other lines"),
        "{message}"
    );
}
