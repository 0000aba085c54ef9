//! Immediate drawing as a cart uses it: shapes, text and sprites through the camera and the
//! clip, at priorities among the layers, with fonts of the cart's own; each picture checked
//! pixel by pixel in the composed framebuffer (full palette indices).

mod common;

use kairo::console::Console;
use kairo::input::InputFrame;
use kairo::video::framebuffer::Framebuffer;

/// Runs `frames` frames of a cart with `main.lua` = `source` (and `files`); returns the
/// console.
fn run(source: &str, files: &[(&str, &[u8])], frames: usize) -> Console {
    let mut all = vec![("main.lua", source.as_bytes())];
    all.extend_from_slice(files);
    let mut console = Console::new(common::cart_with(&all)).expect("boots");
    for _ in 0..frames {
        console.run_frame(InputFrame::NONE).expect("runs");
    }
    console
}

/// The rows `y0..=y1`, columns `x0..=x1` of `fb` as text: `.` for 0, else the index in hex
/// (one digit: the colour within its palette).
fn rows(fb: &Framebuffer, (x0, y0): (usize, usize), (x1, y1): (usize, usize)) -> String {
    (y0..=y1)
        .map(|y| {
            (x0..=x1)
                .map(|x| match fb.get(x, y) {
                    0 => '.',
                    c => char::from_digit(u32::from(c & 0xF), 16).unwrap(),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shapes_draw_where_the_docs_say() {
    let console = run(
        "function draw()
           circfill(10, 10, 2, 7)
           circ(30, 10, 3, 8)
           ovalfill(40, 8, 46, 12, 9)
           trifill(60, 8, 64, 8, 60, 12, 10)
           tri(70, 8, 74, 8, 70, 12, 11)
           rect(80, 8, 83, 11, 12)
           line(90, 8, 93, 11, 13)
           pset(100, 8, 14)
         end",
        &[],
        1,
    );
    let fb = console.framebuffer();
    assert_eq!(
        rows(fb, (8, 8), (12, 12)),
        ".777.\n77777\n77777\n77777\n.777."
    );
    assert_eq!(
        rows(fb, (27, 7), (33, 13)),
        "..888..\n.8...8.\n8.....8\n8.....8\n8.....8\n.8...8.\n..888.."
    );
    assert_eq!(
        rows(fb, (40, 8), (46, 12)),
        "..999..\n9999999\n9999999\n9999999\n..999.."
    );
    assert_eq!(
        rows(fb, (60, 8), (64, 12)),
        "aaaaa\naaaa.\naaa..\naa...\na...."
    );
    assert_eq!(
        rows(fb, (70, 8), (74, 12)),
        "bbbbb\nb..b.\nb.b..\nbb...\nb...."
    );
    assert_eq!(rows(fb, (80, 8), (83, 11)), "cccc\nc..c\nc..c\ncccc");
    assert_eq!(rows(fb, (90, 8), (93, 11)), "d...\n.d..\n..d.\n...d");
    assert_eq!(fb.get(100, 8), 14);
}

#[test]
fn the_camera_and_the_clip_apply_to_every_drawing() {
    let console = run(
        "function draw()
           camera(100, 50)
           clip(4, 4, 6, 3)
           rectfill(100, 50, 120, 70, 3)
           print('A', 90, 40, 4)
           local old = camera()
           assert(old == 100, 'camera returns the old x')
           clip()
           pset(2, 2, 5)
         end",
        &[],
        1,
    );
    let fb = console.framebuffer();
    // The fill moved to (0, 0) and cut to x 4..10, y 4..7.
    let lit: Vec<(usize, usize)> = (0..20)
        .flat_map(|y| (0..20).map(move |x| (x, y)))
        .filter(|&(x, y)| fb.get(x, y) == 3)
        .collect();
    let expected: Vec<(usize, usize)> = (4..7).flat_map(|y| (4..10).map(move |x| (x, y))).collect();
    assert_eq!(lit, expected);
    assert_eq!(fb.get(2, 2), 5, "camera() and clip() reset them");
    // The text went to (-10, -10): outside the clip, so nothing of it shows.
    assert!((0..256).all(|x| (0..256).all(|y| fb.get(x, y) != 4)));
}

#[test]
fn drawings_sit_at_their_priority_between_layers_and_sprites() {
    // A layer of solid tile 1 (colour 2) at priority 1; a sprite of tile 1 in palette 1 at
    // priority 1; a drawing at priority 1 covers the layer but not the sprite; one at 0 is
    // behind the layer; the default (4) covers all.
    let console = run(
        "for y = 0, 7 do for x = 0, 7 do tset(1, x, y, 2) end end
         layer_size(0, 32, 32) fill(0, 1) layer_prio(0, 1) layer_on(0)
         function draw()
           spr(0, 0, 0, 1, 1, 1, 0, 1)
           draw_prio(1) rectfill(0, 0, 15, 0, 0x35)
           draw_prio(0) rectfill(0, 1, 15, 1, 0x36)
           draw_prio(4) rectfill(0, 2, 15, 2, 0x37)
         end",
        &[],
        1,
    );
    let fb = console.framebuffer();
    assert_eq!(
        fb.get(0, 0),
        0x12,
        "the sprite is in front of its priority's drawings"
    );
    assert_eq!(fb.get(10, 0), 0x35);
    assert_eq!(fb.get(10, 1), 0x02, "behind the layer");
    assert_eq!(fb.get(0, 2), 0x37, "in front of everything");
}

#[test]
fn immediate_sprites_last_one_frame_and_overflow_is_dropped_and_counted() {
    let mut console = run(
        "for y = 0, 7 do for x = 0, 7 do tset(1, x, y, 6) tset(2, x, y, 7) end end
         n = 0
         function draw()
           n = n + 1
           if n == 1 then
             local e = sprite(1, 10, 10, 2, 1)
             assert(e == 255, 'lends from 255 down, got ' .. tostring(e))
             camera(-20, 0)
             sprite(1, 0, 40, 1, 1, 0, 1)
           elseif n == 2 then
             for i = 1, 300 do sprite(1, 0, 100) end
             assert(sprite(1, 0, 100) == nil)
           end
         end",
        &[],
        1,
    );
    let fb = console.framebuffer();
    assert_eq!(
        rows(fb, (9, 10), (26, 10)),
        ".6666666677777777.",
        "tiles 1 and 2"
    );
    assert_eq!(fb.get(20, 40), 6, "the camera moves sprites too");
    let report = console.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(report.sprites_dropped, 300 - 256 + 1);
    assert_eq!(
        console.framebuffer().get(10, 10),
        0,
        "gone the next frame: no ghosts"
    );
    let report = console.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(report.sprites_dropped, 0);
    assert!(console.machine().video().oam().iter().all(|s| !s.visible));
}

#[test]
fn fill_patterns_leave_holes_or_draw_a_second_colour() {
    let console = run(
        "function draw()
           fillp(0x5a5a)
           rectfill(0, 0, 3, 3, 1)
           fillp(0x5a5a, 2)
           rectfill(4, 0, 7, 3, 1)
           fillp()
           rectfill(8, 0, 11, 3, 1)
         end",
        &[],
        1,
    );
    assert_eq!(
        rows(console.framebuffer(), (0, 0), (11, 3)),
        "1.1.1212\n.1.1\n1.1.\n.1.1"
            .lines()
            .zip([
                "1.1.12121111",
                ".1.121211111",
                "1.1.12121111",
                ".1.121211111"
            ])
            .map(|(_, full)| full)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A PNG of 2 glyphs of 3x2 px, black ink on white: "A" = `#.#/.#.`, "B" = `.#./...`.
fn font_png() -> Vec<u8> {
    let ink = [
        [1, 0, 1, 0, 1, 0], //
        [0, 1, 0, 0, 0, 0],
    ];
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 6, 2);
    encoder.set_color(png::ColorType::Grayscale);
    let data: Vec<u8> = ink
        .iter()
        .flatten()
        .map(|&i| if i == 1 { 0 } else { 255 })
        .collect();
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
    bytes
}

#[test]
fn print_draws_with_the_small_font_and_the_carts_fonts() {
    let manifest =
        b"name = 'fonts'\n[[font]]\nname = 'tiny'\nfile = 'tiny.png'\nglyph = [3, 2]\nfirst = 65\n";
    let png = font_png();
    let console = run(
        "function draw()
           local x = print('AB', 0, 0, 5, 'tiny')
           assert(x == 6, 'print returns the x after the text: ' .. x)
           assert(text_width('AB\\nA', 'tiny') == 6)
           assert(text_width('hello', 'small') == 20)
           print('Az', 0, 4, 6, 'tiny')
           print('T', 20, 0, 7, 'small')
         end",
        &[("cart.toml", manifest), ("tiny.png", &png)],
        1,
    );
    let fb = console.framebuffer();
    assert_eq!(rows(fb, (0, 0), (5, 1)), "5.5.5.\n.5....");
    // A lacks nothing; z is not in the font and the font has no `?`: nothing drawn.
    assert_eq!(rows(fb, (0, 4), (5, 5)), "6.6...\n.6....");
    assert_eq!(
        rows(fb, (20, 0), (23, 5)),
        "777.\n.7..\n.7..\n.7..\n.7..\n...."
    );
    assert!(
        console
            .cart()
            .notes
            .iter()
            .any(|n| n.contains("font `tiny`, 2 glyphs of 3x2"))
    );
}

#[test]
fn bad_drawing_arguments_are_refused_or_cut_and_never_hang() {
    for (call, error) in [
        (
            "circfill(0, 0, 0/0, 1)",
            Some("must be a finite number, got nan"),
        ),
        ("circ(10, 10, 1e300, 1)", None),
        ("circ(128, 128, 100000, 1) assert(cycles() > 256)", None),
        ("circfill(10, 10, -5, 1)", None),
        ("rectfill(300, 300, -300, -300, 1)", None),
        ("trifill(-1e9, -1e9, 1e9, -1e9, 0, 1e9, 1)", None),
        ("ovalfill(1e12, 0, -1e12, 10, 1)", None),
        ("clip(10, 10, -5, -5) rectfill(0, 0, 255, 255, 1)", None),
        ("camera(1/0, 0)", Some("must be a finite number, got inf")),
        (
            "print('x', 0, 0, 7, 'nope')",
            Some("no font named \"nope\" (fonts: system, small)"),
        ),
        (
            "sprite(0, 0, 0, 9, 1)",
            Some("argument 4 (w) is 9, must be 1..8"),
        ),
        ("fillp(0x10000)", Some("must be 0..65535")),
        ("draw_prio(5)", Some("must be 0..4")),
        ("rectfill(0, 0, 1, 1, 256)", Some("must be 0..255")),
    ] {
        let cart = common::lua_cart(&format!("function draw() {call} end"));
        let mut console = Console::new(cart).unwrap();
        let result = console.run_frame(InputFrame::NONE);
        match (error, result) {
            (Some(want), Err(e)) => assert!(e.to_string().contains(want), "{call}: {e}"),
            (None, Ok(report)) => assert!(!report.slowed_down(), "{call}: one frame's work"),
            (want, got) => panic!("{call}: expected {want:?}, got {got:?}"),
        }
    }
}

#[test]
fn the_profile_report_names_the_frames_that_dropped_sprites() {
    let dir = common::temp_dir("drawing-drops");
    std::fs::write(dir.join("cart.toml"), "name = 'drops'\n").unwrap();
    std::fs::write(
        dir.join("main.lua"),
        "function draw() if frame() % 2 == 1 then for i = 1, 260 do sprite(0, 0, 0) end end end",
    )
    .unwrap();
    let (code, out, err) =
        common::kairo(&["profile", dir.to_str().unwrap(), "--frames", "6"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("sprites dropped (all 256 OAM entries showing): 12 in 3 frames: 1, 3, 5"),
        "{out}"
    );
}

#[test]
fn cls_with_a_colour_is_this_frames_background_behind_sprites_and_drawings() {
    let mut console = run(
        "for y = 0, 7 do for x = 0, 7 do tset(1, x, y, 6) end end
         function draw()
           if frame() > 0 then return end
           rectfill(0, 0, 50, 50, 3)
           cls(0x21)
           sprite(1, 8, 8)
           pset(0, 0, 4)
         end",
        &[],
        1,
    );
    let fb = console.framebuffer();
    assert_eq!(fb.get(100, 100), 0x21, "the background");
    assert_eq!(fb.get(8, 8), 0x06, "a sprite is in front of it");
    assert_eq!(fb.get(0, 0), 4, "so is what is drawn after");
    assert_eq!(fb.get(20, 20), 0x21, "what was drawn before is forgotten");
    console.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(console.framebuffer().get(100, 100), 0, "for one frame");
}

/// What `text` (byte codes) looks like in the font sheet `png` of `cw` x `ch` cells from
/// code 0, 16 cells a row, in colour 7: ink is what `is_ink` says of a pixel.
fn expected_text(
    png: &[u8],
    (cw, ch): (usize, usize),
    text: &[u8],
    is_ink: impl Fn(u32) -> bool,
) -> String {
    let sheet = kairo::cart::art::picture::decode("font.png", png, Default::default()).unwrap();
    (0..ch)
        .map(|y| {
            text.iter()
                .flat_map(|&code| {
                    let (cx, cy) = (usize::from(code) % 16 * cw, usize::from(code) / 16 * ch);
                    let sheet = &sheet;
                    let is_ink = &is_ink;
                    (0..cw).map(move |x| {
                        if is_ink(sheet.at(cx + x, cy + y)) {
                            '7'
                        } else {
                            '.'
                        }
                    })
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn real_font_sheets_draw_their_glyphs_exactly() {
    // byackley/pixelfonts (MIT, tests/fonts/pixelfonts): 256-glyph Latin-1 sheets from code 0,
    // one RGB with black paper, one RGBA with transparent paper.
    let root = common::root().join("tests/fonts/pixelfonts");
    for (file, (cw, ch), note) in [
        (
            "8x8.png",
            (8, 8),
            "ink = every colour but the most common one",
        ),
        ("8x12.png", (8, 12), "ink = the opaque pixels"),
    ] {
        let png = std::fs::read(root.join(file)).unwrap();
        let manifest = format!(
            "name = 'fonts'\n[[font]]\nname = 'px'\nfile = '{file}'\nglyph = [{cw}, {ch}]\nfirst = 0\n"
        );
        let console = run(
            "function draw() print('Ka\\233!', 0, 0, 7, 'px') end",
            &[("cart.toml", manifest.as_bytes()), (file, &png)],
            1,
        );
        let cart = console.cart();
        assert!(
            cart.notes.iter().any(|n| n.contains(&format!(
                "font `px`, 256 glyphs of {cw}x{ch} px for codes 0-255, {note}"
            ))),
            "{:?}",
            cart.notes
        );
        let paper = kairo::cart::art::picture::decode(file, &png, Default::default())
            .unwrap()
            .at(0, 0);
        let text = b"Ka\xe9!";
        let want = expected_text(&png, (cw, ch), text, |p| p != paper);
        let got = rows(console.framebuffer(), (0, 0), (cw * text.len() - 1, ch - 1));
        assert_eq!(got, want, "{file}");
        assert!(got.contains('7'), "{file}: something is drawn");
    }
}
