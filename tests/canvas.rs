//! The canvas (`plane = "canvas"` in cart.toml), rule by rule, pixel by pixel: drawings land
//! in call order whatever their priority, stay until `cls`, go through the draw palette,
//! the clip and the camera; blits scale and flip as docs/hardware.md says (checked against a
//! reference written here from that rule); where nothing is drawn what is behind shows; the
//! frame plane is as it was.

mod common;

use common::cart_with;
use kairo::console::Console;
use kairo::input::InputFrame;

/// A console running `source` on a cart with a canvas.
fn canvas_console(source: &str) -> Console {
    let cart = cart_with(&[
        ("cart.toml", b"name = \"canvas\"\nplane = \"canvas\"\n"),
        ("main.lua", source.as_bytes()),
    ]);
    Console::new(cart).expect("the canvas cart boots")
}

fn frames(console: &mut Console, n: usize) {
    for _ in 0..n {
        console.run_frame(InputFrame::NONE).expect("the frame runs");
    }
}

fn pixel(console: &Console, x: usize, y: usize) -> u8 {
    console.framebuffer().get(x, y)
}

/// Tiles 1 and 2 hold a picture: pixel (x, y) of tile t is colour (x + y + t) % 16, and
/// row 0 of tile 1 is colour 0 (transparent for blits at power-on).
const SHEET: &str = r#"
for t = 1, 2 do
  for y = 0, 7 do
    for x = 0, 7 do tset(t, x, y, (x + y + t) % 16) end
  end
end
for x = 0, 7 do tset(1, x, 0, 0) end
"#;

/// The colour the sheet pixel (sx, sy) has, as SHEET draws it (tiles 1 and 2 only).
fn sheet_pixel(sx: usize, sy: usize) -> u8 {
    let tile = sy / 8 * 16 + sx / 8;
    let (x, y) = (sx % 8, sy % 8);
    match tile {
        1 if y == 0 => 0,
        1 | 2 => ((x + y + tile) % 16) as u8,
        _ => 0,
    }
}

#[test]
fn drawings_land_in_call_order_whatever_their_priority() {
    let mut console = canvas_console(&format!(
        r#"{SHEET}
function draw()
  cls(1)
  draw_prio(4) rectfill(0, 0, 31, 31, 7)
  draw_prio(0) sprite(1, 0, 0)        -- over the rectangle though at priority 0
  draw_prio(4) pset(2, 2, 9)          -- over the sprite
  draw_prio(2) print("A", 16, 0, 12)  -- over the rectangle
end"#
    ));
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 7, "row 0 of tile 1 is transparent");
    assert_eq!(pixel(&console, 1, 1), 3, "the sprite: (1 + 1 + 1) % 16");
    assert_eq!(pixel(&console, 2, 2), 9, "pset came last");
    assert_eq!(pixel(&console, 8, 8), 7, "the rectangle beyond the sprite");
    assert_eq!(pixel(&console, 40, 40), 1, "cls(1)");
    // The system font's A: its top row is lit in the middle.
    let top_row: Vec<u8> = (16..24).map(|x| pixel(&console, x, 0)).collect();
    assert!(top_row.contains(&12), "{top_row:?}");
}

#[test]
fn the_canvas_keeps_what_was_drawn_until_cls() {
    let mut console = canvas_console(
        r#"
rectfill(0, 0, 3, 3, 5)   -- the main chunk draws
local t = 0
function update() t = t + 1 end
function draw()
  if t == 2 then pset(10, 10, 6) end
  if t == 5 then cls() end
  if t == 6 then cls(2) end
end"#,
    );
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 5, "drawn at power-on, shown");
    frames(&mut console, 2);
    assert_eq!(pixel(&console, 10, 10), 6);
    assert_eq!(pixel(&console, 0, 0), 5, "frames that draw nothing keep it");
    frames(&mut console, 1);
    assert_eq!(
        (pixel(&console, 10, 10), pixel(&console, 0, 0)),
        (6, 5),
        "still there a frame later"
    );
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 10, 10), 0, "cls(): the backdrop shows");
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 200, 200), 2, "cls(2) fills");
}

#[test]
fn where_nothing_is_drawn_the_layers_behind_show() {
    let mut console = canvas_console(
        r#"
for x = 0, 7 do for y = 0, 7 do tset(3, x, y, 4) end end
layer_size(0, 32, 32)
fill(0, 3)
layer_on(0, true)
function draw()
  cls()
  rectfill(0, 0, 7, 7, 8)
end"#,
    );
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 8, "drawn");
    assert_eq!(pixel(&console, 9, 9), 4, "the layer shows through");
}

#[test]
fn the_draw_palette_swaps_colours_and_transparency_when_drawing() {
    let mut console = canvas_console(&format!(
        r#"{SHEET}
function draw()
  cls(1)
  draw_pal(7, 9)
  rectfill(0, 0, 7, 7, 7)          -- drawn in 9
  draw_pal()
  rectfill(8, 0, 15, 7, 7)         -- 7 again
  draw_pal(0x13, 0x2A)             -- palette 1's colour 3 ...
  draw_transparent(0, false)       -- ... and colour 0 drawn
  draw_transparent(4, true)        -- colour 4 left out
  sprite(1, 16, 0, 1, 1, 1)
end"#
    ));
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 9);
    assert_eq!(pixel(&console, 8, 0), 7);
    assert_eq!(
        pixel(&console, 16, 0),
        0x10,
        "colour 0 now drawn, with palette 1"
    );
    assert_eq!(
        pixel(&console, 17, 1),
        0x2A,
        "(1+1+1) = 3 of palette 1, swapped"
    );
    // (x + y + 1) % 16 == 4 at (2, 1): left out, the cls colour shows.
    assert_eq!(pixel(&console, 18, 1), 1);
    assert_eq!(pixel(&console, 19, 1), 0x15);
}

#[test]
fn the_clip_cuts_and_the_camera_moves_every_drawing() {
    let mut console = canvas_console(&format!(
        r#"{SHEET}
function draw()
  cls(1)
  clip(4, 4, 8, 8)
  rectfill(0, 0, 20, 20, 7)
  clip()
  camera(-100, -100)
  blit(16, 1, 8, 7, 10, 0)    -- tile 2's rows 1-7 at (110, 100)
  pset(0, 50, 3)
end"#
    ));
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 3, 3), 1, "outside the clip");
    assert_eq!(pixel(&console, 4, 4), 7);
    assert_eq!(pixel(&console, 11, 11), 7);
    assert_eq!(pixel(&console, 12, 12), 1);
    assert_eq!(pixel(&console, 100, 150), 3, "pset through the camera");
    for j in 0..7 {
        for i in 0..8 {
            let want = sheet_pixel(16 + i, 1 + j);
            let got = pixel(&console, 110 + i, 100 + j);
            let want = if want == 0 { 1 } else { want };
            assert_eq!(got, want, "blit pixel ({i}, {j})");
        }
    }
}

#[test]
fn blits_scale_and_flip_by_the_documented_rule() {
    // Tiles 1-2 (16 x 8 px at sheet (8, 0)) drawn into 37 x 19 px, flipped both ways.
    let (sx, sy, sw, sh, w, h) = (8usize, 0usize, 16usize, 8usize, 37usize, 19usize);
    let mut console = canvas_console(&format!(
        r#"{SHEET}
draw_transparent(0, false)
function draw()
  cls(1)
  blit({sx}, {sy}, {sw}, {sh}, 50, 60, {w}, {h}, 0, 3)
end"#
    ));
    frames(&mut console, 1);
    for j in 0..h {
        for i in 0..w {
            let u = sw - 1 - i * sw / w;
            let v = sh - 1 - j * sh / h;
            let want = sheet_pixel(sx + u, sy + v);
            assert_eq!(pixel(&console, 50 + i, 60 + j), want, "({i}, {j})");
        }
    }
    assert_eq!(pixel(&console, 50 + w, 60), 1, "nothing past the target");
}

#[test]
fn pget_reads_the_canvas_with_this_frames_drawings() {
    let mut console = canvas_console(
        r#"
function draw()
  cls()
  pset(5, 5, 11)
  log(tostring(pget(5, 5)) .. " " .. tostring(pget(6, 5)) .. " " .. tostring(pget(-1, 0)))
end"#,
    );
    frames(&mut console, 1);
    assert_eq!(console.take_log(), ["11 nil nil"]);
    let mut frame_plane = common::console("function draw() pget(1, 1) end");
    let error = frame_plane.run_frame(InputFrame::NONE).unwrap_err();
    assert!(error.to_string().contains("no canvas"), "{error}");
}

#[test]
fn the_frame_plane_forgets_drawings_and_keeps_the_draw_palette_rules() {
    let mut console = common::console(
        r#"
local t = 0
function update() t = t + 1 end
function draw()
  if t == 1 then draw_pal(7, 9) rectfill(0, 0, 3, 3, 7) end
end"#,
    );
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 9, "swapped on the frame plane too");
    frames(&mut console, 1);
    assert_eq!(pixel(&console, 0, 0), 0, "forgotten the next frame");
}
