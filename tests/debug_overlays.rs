//! The debug overlays: each drawn from what the units used this frame (a test cart with known
//! cells, bodies, boxes, platforms, bullets and player), golden pictures along both bundled
//! movies, `kairo headless --overlay`, and the game untouched by them (same machine, same
//! hashes afterwards).

mod common;

use common::{bundled, console, kairo, root, temp_dir};
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::movie::Movie;
use kairo::views::overlays::{self, Overlay};

/// A cart laying out one of everything at known places: a floor of solid cells on row 10
/// (y 160), a rising slope at cell (4, 9), a one-way floor at (8, 7), a body dropped onto the
/// floor, two overlapping hitboxes and a lone one, a platform, bullets and a player.
const SCENE: &str = r#"
local body = { x = 40, y = 100, w = 12, h = 16, vx = 0, vy = 0 }
function init()
  col_size(16, 16)
  for x = 0, 15 do col_set(x, 10, "solid") end
  col_set(4, 9, "slope_1_1_up")
  col_set(8, 7, "oneway")
  bu_type(0, 0, 1, 0, 3, 3)
  bu_player(200, 200, 2, 12)
end
function update()
  body.vy = 8
  move_body(body, "air")
  hb_add(1, 0, 2, 100, 20, 20, 20)
  hb_add(2, 1, 0, 110, 30, 20, 20)
  hb_add(3, 2, 0, 200, 20, 10, 10)
  col_platform(7, 160, 120, 32, 8, 1, 0)
  if frame() == 0 then bu_fire(60, 60, 64, 0, 0) end
end
function draw() end
"#;

fn pixel(rgba: &[u8], x: usize, y: usize) -> [u8; 3] {
    let at = (y * 256 + x) * 4;
    [rgba[at], rgba[at + 1], rgba[at + 2]]
}

fn scene_after(vblanks: usize) -> Console {
    let mut console = console(SCENE);
    for _ in 0..vblanks {
        console.tick(InputFrame::NONE).expect("the scene runs");
    }
    console
}

#[test]
fn each_overlay_shows_what_its_unit_used_this_frame() {
    let console = scene_after(30);
    let plain = console.rgba();
    let drawn = |list: &[Overlay]| {
        let mut rgba = plain.clone();
        overlays::draw(console.machine(), list, &mut rgba);
        rgba
    };
    // Collision: the floor's cells are tinted and outlined, the slope is its line, the
    // one-way floor its top edge.
    let collision = drawn(&[Overlay::Collision]);
    assert_ne!(
        pixel(&collision, 8, 168),
        pixel(&plain, 8, 168),
        "solid cell"
    );
    assert_eq!(
        pixel(&collision, 64 + 8, 144 + 8),
        [80, 255, 120],
        "slope line"
    );
    assert_eq!(
        pixel(&collision, 128 + 5, 112),
        [255, 230, 60],
        "one-way top"
    );
    assert_eq!(pixel(&collision, 128 + 5, 116), pixel(&plain, 128 + 5, 116));

    // Bodies: the body landed on the floor (its bottom at y 160), with G for ground.
    let bodies = drawn(&[Overlay::Bodies]);
    let moved = console.machine().collide().trace().moves()[0];
    assert_eq!((moved.x >> 16, (moved.y >> 16) + moved.h), (40, 160));
    assert_eq!(pixel(&bodies, 40, 150), [60, 255, 140], "body outline");
    assert_eq!(overlays::flag_letters(moved.flags), "G");

    // Hitboxes: the overlapping pair is filled, the lone box only outlined.
    let boxes = drawn(&[Overlay::Hitboxes]);
    assert_ne!(
        pixel(&boxes, 105, 25),
        pixel(&plain, 105, 25),
        "pair filled"
    );
    assert_eq!(
        pixel(&boxes, 205, 25),
        pixel(&plain, 205, 25),
        "a lone box is not filled"
    );
    assert_eq!(pixel(&boxes, 200, 20), [90, 200, 255], "group 2 colour");

    // Platforms: outlined in magenta.
    let platforms = drawn(&[Overlay::Platforms]);
    assert_eq!(pixel(&platforms, 170, 120), [255, 80, 255]);

    // Bullets and the player (screen space): the bullet's 3 px box, the player's graze box.
    let bullets = drawn(&[Overlay::Bullets, Overlay::Player]);
    let table = &console.machine().bullets().table();
    assert_eq!(table.len(), 1);
    let (bx, by) = ((table.x[0] >> 16) as usize, (table.y[0] >> 16) as usize);
    assert_eq!(
        pixel(&bullets, bx - 3, by),
        [255, 170, 40],
        "bullet hit box"
    );
    assert_eq!(pixel(&bullets, 200 - 12, 200), [255, 230, 60], "graze box");
    assert_eq!(pixel(&bullets, 197, 197), [255, 255, 255], "hit box rim");
    assert_eq!(pixel(&bullets, 199, 199)[0], 200, "hit box filled red");
}

/// The cart's picture with `overlays` drawn after `frames` vblanks of its bundled movie.
fn along_movie(cart: &str, frames: usize, list: &[Overlay]) -> (Vec<u8>, Console) {
    let cart_dir = bundled(cart);
    let movie = Movie::load(&root().join(format!("tests/movies/{cart}.kmv"))).unwrap();
    let mut console = Console::new(Cart::open(&cart_dir).unwrap()).unwrap();
    for n in 0..frames {
        console.tick(movie.input(n)).unwrap();
    }
    let mut rgba = console.rgba();
    overlays::draw(console.machine(), list, &mut rgba);
    (rgba, console)
}

#[test]
fn overlays_change_nothing_in_the_machine() {
    let movie = Movie::load(&root().join("tests/movies/platformer.kmv")).unwrap();
    let (_, mut drawn_on) = along_movie("platformer", 1500, &Overlay::ALL);
    let (_, mut untouched) = along_movie("platformer", 1500, &[]);
    let state = |c: &Console| postcard::to_allocvec(c.machine()).unwrap();
    assert_eq!(state(&drawn_on), state(&untouched));
    for n in 1500..1700 {
        drawn_on.tick(movie.input(n)).unwrap();
        let mut rgba = drawn_on.rgba();
        overlays::draw(drawn_on.machine(), &Overlay::ALL, &mut rgba);
        untouched.tick(movie.input(n)).unwrap();
        assert_eq!(drawn_on.rgba(), untouched.rgba(), "vblank {n}");
    }
}

#[test]
fn the_overlays_match_their_golden_pictures() {
    let pictures = [
        (
            "platformer-all",
            along_movie("platformer", 1500, &Overlay::ALL).0,
        ),
        (
            "platformer-hitboxes",
            along_movie("platformer", 900, &[Overlay::Hitboxes, Overlay::Bodies]).0,
        ),
        (
            "shmup-bullets",
            along_movie("shmup", 1500, &[Overlay::Bullets, Overlay::Player]).0,
        ),
    ];
    common::check_golden_pictures("debug_overlays.txt", &pictures);
    // docs/debugging.md shows two of them.
    for (name, rgba) in [&pictures[0], &pictures[2]] {
        let png = kairo::views::screenshot::encode_png(rgba).unwrap();
        common::docs_picture_is_current(&format!("overlay-{name}.png"), &png);
    }
}

#[test]
fn headless_overlays_draw_on_the_screenshot_and_leave_the_hash() {
    let dir = temp_dir("headless-overlay");
    let shot = dir.join("shot.png");
    let plain = dir.join("plain.png");
    let args = |extra: &[&str]| {
        let mut all = vec![
            "headless",
            "carts/platformer",
            "--input",
            "tests/movies/platformer.kmv",
            "--frames",
            "1500",
            "--hash",
        ];
        all.extend_from_slice(extra);
        kairo(&all, &root())
    };
    let (code, with, err) = args(&["--screenshot", shot.to_str().unwrap(), "--overlay", "all"]);
    assert_eq!(code, 0, "{err}");
    let (code, without, _) = args(&["--screenshot", plain.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(with.lines().last(), without.lines().last(), "same hash");
    assert_ne!(
        std::fs::read(&shot).unwrap(),
        std::fs::read(&plain).unwrap()
    );

    let (code, _, err) = args(&["--screenshot", "x.png", "--overlay", "boxes"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no overlay `boxes` (known: collision, platforms, bodies, hitboxes, bullets, player, all)"),
        "{err}"
    );
    let (code, _, err) = args(&["--overlay", "all"]);
    assert_eq!(code, 2);
    assert!(err.contains("--screenshot"), "{err}");
}
