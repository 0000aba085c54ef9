//! Cart API: immediate drawing — `cls`, text, shapes and sprites drawn for one frame, through
//! a camera and a clip rectangle, at a priority among the layers.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::script::api::common::{COLOR, FLAGS, PALETTE, PRIORITY, TILE};
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::{BLIT_MAX_SIDE, PATTERN_SHEET_TILES_H, SPRITE_MAX_TILES, TILE_SIZE, cost};
use crate::video::fonts::{self, Font};
use crate::video::plane::{Blit, FRONT, FillPattern, SHEET_W};
use crate::video::raster::Clip;
use crate::video::sprite::Sprite;

/// Largest radius a circle is drawn with; larger ones cover the screen all the same.
const MAX_RADIUS: i64 = 1 << 18;

const X: Arg = Arg::coord("x");
const Y: Arg = Arg::coord("y");
const TWO_CORNERS: &[Arg] = &[
    Arg::coord("x0"),
    Arg::coord("y0"),
    Arg::coord("x1"),
    Arg::coord("y1"),
    COLOR,
];
const THREE_CORNERS: &[Arg] = &[
    Arg::coord("x0"),
    Arg::coord("y0"),
    Arg::coord("x1"),
    Arg::coord("y1"),
    Arg::coord("x2"),
    Arg::coord("y2"),
    COLOR,
];
const CIRCLE: &[Arg] = &[X, Y, Arg::new("r", Kind::Integer), COLOR];
const TEXT: Arg = Arg::new("text", Kind::Any("string or number"));
const FONT: Arg = Arg::str("font").optional("\"system\"");

const SPANS: &[Cost] = &[Cost::each(
    cost::DRAW_SPAN,
    "per 8 pixels of a row drawn inside the clip, and per row of the clip crossed that draws none",
    Unit::Video,
)];
const BLIT_COST: &[Cost] = &[
    Cost::call(cost::BLIT, Unit::Video),
    Cost::each(
        cost::DRAW_SPAN,
        "per 8 pixels of a row drawn inside the clip",
        Unit::Video,
    ),
];
/// Pixels down the pattern sheet.
const SHEET_H: usize = PATTERN_SHEET_TILES_H * TILE_SIZE;
const LENGTH: &[Cost] = &[Cost::each(
    cost::DRAW_SPAN,
    "per 8 pixels of length",
    Unit::Video,
)];

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Drawing",
    intro: "Text, shapes, blits and sprites drawn for one frame only: call them from `draw()` \
            every frame. On a cart with a canvas (`plane = \"canvas\"` in `cart.toml`) they are \
            painted into it in call order and kept until `cls` instead (see \"The canvas\" in \
            docs/hardware.md). Colours are full palette indices 0-255 (palette * 16 + colour) of palette \
            RAM, so `7` is colour 7 of palette 0 and `0x17` colour 7 of palette 1; drawn \
            colours are opaque, colour 0 included (it shows palette 0 colour 0, the backdrop). \
            Coordinates are screen pixels moved by the camera (`camera`); everything is cut \
            to the clip rectangle (`clip`). `draw_prio` sets the priority of drawings (see \
            the draw order rules under \"Video\"); rule 9: a drawing at `draw_prio` 4 (the \
            default) is in front of every layer, sprite and bullet, whenever it is drawn. \
            Coordinates are integers \
            (floats are floored) and are clamped to -32768..32767; NaN and infinities are \
            errors.",
    functions: &[
        ApiFn {
            name: "cls",
            args: &[COLOR.optional("none: the layers show")],
            returns: "",
            doc: "Forgets everything drawn this frame (shapes, text and `sprite` sprites) and \
                  resets the clip. With a colour, the screen is filled with it for this \
                  frame, in place of the backdrop, as after PICO-8's `cls`. Draw order rule \
                  10: everything is in front of the backdrop and of the colour of \
                  `cls(color)`. On a cart with a canvas, `cls(color)` fills the canvas and \
                  `cls()` leaves nothing drawn on it (the layers, sprites and backdrop show \
                  through).",
            cost: &[],
            call: cls,
        },
        ApiFn {
            name: "print",
            args: &[TEXT, X, Y, COLOR.or_int(15), FONT],
            returns: "x_end",
            doc: "Draws `text` at (x, y). `\\n` starts a new line. `font` is `\"system\"` (8x8, the default), `\"small\"` (3x5 glyphs in 4x6 \
                  cells) or the name of a `[[font]]` of `cart.toml`; characters a font lacks \
                  draw as `?`. Each byte of `text` is one character code (0-255, as the font's \
                  cells are numbered): text beyond ASCII typed in a UTF-8 source draws as its \
                  bytes (`\"é\"` is two characters), so write codes with escapes \
                  (`\"caf\\233\"`) for a font with Latin-1 glyphs. Returns the x after the \
                  last character.",
            cost: &[Cost::each(
                cost::GLYPH,
                "per character, per 8x8 block of the font's cell",
                Unit::Video,
            )],
            call: print,
        },
        ApiFn {
            name: "text_width",
            args: &[TEXT, FONT],
            returns: "width",
            doc: "The width in pixels of the widest line of `text` in `font`.",
            cost: &[Cost::each(
                cost::SCAN_BYTES,
                "per 8 bytes of text",
                Unit::Script,
            )],
            call: text_width,
        },
        ApiFn {
            name: "rectfill",
            args: TWO_CORNERS,
            returns: "",
            doc: "Fills a rectangle, corners included, in either order.",
            cost: SPANS,
            call: rectfill,
        },
        ApiFn {
            name: "rect",
            args: TWO_CORNERS,
            returns: "",
            doc: "Draws a rectangle's outline, corners included.",
            cost: SPANS,
            call: rect,
        },
        ApiFn {
            name: "line",
            args: TWO_CORNERS,
            returns: "",
            doc: "Draws a line, both ends included.",
            cost: LENGTH,
            call: line,
        },
        ApiFn {
            name: "pset",
            args: &[X, Y, COLOR],
            returns: "",
            doc: "Sets one pixel.",
            cost: &[Cost::each(cost::DRAW_SPAN, "if shown", Unit::Video)],
            call: pset,
        },
        ApiFn {
            name: "circfill",
            args: CIRCLE,
            returns: "",
            doc: "Fills a circle of radius `r` around (x, y): the pixels whose centres lie \
                  within r + 0.4 px, so radius 0 is a pixel and radius 1 a plus. A negative \
                  radius draws nothing.",
            cost: SPANS,
            call: circfill,
        },
        ApiFn {
            name: "circ",
            args: CIRCLE,
            returns: "",
            doc: "Draws a circle's outline: the pixels of `circfill` that touch a pixel \
                  outside it (left, right, above or below).",
            cost: SPANS,
            call: circ,
        },
        ApiFn {
            name: "ovalfill",
            args: TWO_CORNERS,
            returns: "",
            doc: "Fills the oval inscribed in the rectangle with corners (x0, y0) and (x1, y1), \
                  in either order; a box one pixel wide is a line.",
            cost: SPANS,
            call: ovalfill,
        },
        ApiFn {
            name: "oval",
            args: TWO_CORNERS,
            returns: "",
            doc: "Draws the outline of the oval `ovalfill` fills.",
            cost: SPANS,
            call: oval,
        },
        ApiFn {
            name: "trifill",
            args: THREE_CORNERS,
            returns: "",
            doc: "Fills a triangle: the pixels whose centres lie inside it or on its edges. \
                  Three points on one line draw that line.",
            cost: SPANS,
            call: trifill,
        },
        ApiFn {
            name: "tri",
            args: THREE_CORNERS,
            returns: "",
            doc: "Draws a triangle's three edges as lines.",
            cost: LENGTH,
            call: tri,
        },
        ApiFn {
            name: "fillp",
            args: &[
                Arg::int("pattern", 0, 0xFFFF).or_int(0),
                Arg::int("color2", 0, 255).optional("none: holes"),
            ],
            returns: "old_pattern",
            doc: "Sets the 4x4 fill pattern of the shapes drawn after it, as on PICO-8: bit 15 \
                  (0x8000) is the top-left pixel, bits run along rows, bit 0 is the \
                  bottom-right pixel; the pattern is aligned to the screen. Pixels of set bits \
                  are drawn in `color2` (0-255) if given, else left out. `fillp()` or \
                  `fillp(0)` draws solid again. Text, `cls` and sprites ignore it.",
            cost: &[],
            call: fillp,
        },
        ApiFn {
            name: "camera",
            args: &[Arg::coord("x").or_int(0), Arg::coord("y").or_int(0)],
            returns: "old_x, old_y",
            doc: "Moves the camera: drawings at (x, y) show at (x - camera x, y - camera y), \
                  for every drawing function and `sprite` (not `spr` sprites, layers or \
                  bullets). `camera()` resets it to (0, 0). It lasts until changed.",
            cost: &[],
            call: camera,
        },
        ApiFn {
            name: "clip",
            args: &[
                Arg::new("x", Kind::Integer).optional("the whole screen"),
                Arg::new("y", Kind::Integer).optional("the whole screen"),
                Arg::new("w", Kind::Integer).optional("the whole screen"),
                Arg::new("h", Kind::Integer).optional("the whole screen"),
            ],
            returns: "old_x, old_y, old_w, old_h",
            doc: "Restricts drawings and `sprite` sprites to the screen rectangle of `w` x `h` \
                  px at (x, y) (not moved by the camera; cut to the screen; a negative size is \
                  empty). `clip()` resets it to the whole screen; so does `cls`. It lasts until \
                  changed.",
            cost: &[],
            call: clip,
        },
        ApiFn {
            name: "draw_prio",
            args: &[Arg::int("priority", 0, FRONT as i64).optional("only reads it")],
            returns: "old_priority",
            doc: "Sets the priority of the drawings made after it (4 at power-on), until it \
                  is changed; without an argument, only reads it. Draw order rule 3: a \
                  drawing made at `draw_prio` 0-3 is in front of the layers of its priority; \
                  rule 2: a sprite is in front of the layers and drawings of its priority; \
                  rule 8: the bullet layer is in front of the sprites, layers and drawings of \
                  its priority; rule 9: a drawing at `draw_prio` 4 (the default) is in front \
                  of every layer, sprite and bullet, whenever it is drawn.",
            cost: &[],
            call: draw_prio,
        },
        ApiFn {
            name: "sprite",
            args: &[
                TILE,
                X,
                Y,
                Arg::int("w", 1, SPRITE_MAX_TILES as i64).or_int(1),
                Arg::int("h", 1, SPRITE_MAX_TILES as i64).or_int(1),
                PALETTE,
                FLAGS,
                PRIORITY,
            ],
            returns: "entry",
            doc: "Draws a block of `w` x `h` tiles (up to 64x64 px) from `tile` at (x, y) for \
                  this frame only, through the camera and the clip. It borrows an \
                  OAM entry no `spr` sprite shows, from 255 down, and returns its number; the \
                  entry is free again at the next frame or `cls`. When all 256 entries are \
                  showing, the sprite is not drawn, nil is returned and the profiler counts it \
                  as dropped. `spr` on a borrowed entry takes it over. Draw order rule 6: a \
                  sprite drawn with `sprite` is in front of the sprites of its priority drawn \
                  with `sprite` before it in the frame (so the last call shows on top); rule \
                  5: a sprite is in front of the sprites of its priority in higher OAM \
                  entries (a `spr` sprite in an entry below the borrowed one covers it); rule \
                  9: a drawing at `draw_prio` 4 (the default) is in front of every layer, \
                  sprite and bullet, whenever it is drawn (text and shapes cover `sprite` \
                  sprites even when drawn before them). On a cart with a canvas, `sprite` is \
                  a `blit` of the block instead (through the draw palette, in call order, \
                  kept until `cls`; `priority` is not used) and returns nothing.",
            cost: &[
                Cost::later(cost::SPRITE, "", Unit::Video, "when drawn"),
                Cost::later(
                    cost::SPRITE_ROW,
                    "per 8 pixels drawn",
                    Unit::Video,
                    "when drawn",
                ),
                Cost::each(
                    cost::BLIT,
                    "call on a cart with a canvas (instead of the above), plus `DRAW_SPAN` per 8 \
                     pixels of a row drawn inside the clip",
                    Unit::Video,
                ),
            ],
            call: sprite,
        },
        ApiFn {
            name: "blit",
            args: &[
                Arg::int("sx", 0, SHEET_W as i64 - 1),
                Arg::int("sy", 0, SHEET_H as i64 - 1),
                Arg::int("sw", 1, SHEET_W as i64),
                Arg::int("sh", 1, SHEET_H as i64),
                X,
                Y,
                Arg::int("w", 1, BLIT_MAX_SIDE as i64).optional("sw"),
                Arg::int("h", 1, BLIT_MAX_SIDE as i64).optional("sh"),
                PALETTE,
                FLAGS,
            ],
            returns: "",
            doc: "Draws the `sw` x `sh` px rectangle at (sx, sy) of the pattern sheet (pattern                   VRAM seen as a picture 16 tiles, 128 px, wide and 1024 px down: tile `t` at                   (t % 16 * 8, t // 16 * 8)) into the `w` x `h` px rectangle at (x, y), scaled                   to fit (each pixel shows the sheet pixel its position scales to, from the                   top-left; no smoothing), through the camera and the clip, with palette                   `palette` and the flips of `flags` (1: horizontal, 2: vertical). Tile colours                   `draw_transparent` leaves out (colour 0 at power-on) are not drawn; the others                   are drawn through the draw palette (`draw_pal`). It is a drawing: drawn at                   `draw_prio`, in the order drawings are made. The rectangle must lie on the                   sheet.",
            cost: BLIT_COST,
            call: blit,
        },
        ApiFn {
            name: "draw_pal",
            args: &[
                Arg::int("color", 0, 255).optional("resets every colour"),
                Arg::int("to", 0, 255).optional("only reads it"),
            ],
            returns: "old_to",
            doc: "Draw palette: drawings made after it in `color` (a full palette index) are                   drawn in `to` instead — shapes, text, `cls` and the pixels of `blit` and of                   `sprite` on a canvas (the palette index a tile pixel has with its palette).                   Returns what `color` was drawn as; `draw_pal(color)` only reads it;                   `draw_pal()` draws every colour as itself again. Layers, `spr` sprites,                   bullets and the frame's `sprite` sprites are not affected. It lasts until                   changed.",
            cost: &[],
            call: draw_pal,
        },
        ApiFn {
            name: "draw_transparent",
            args: &[
                Arg::int("color", 0, 15).optional("resets: only colour 0 is left out"),
                Arg::new("transparent", Kind::Bool).optional("only reads it"),
            ],
            returns: "was_transparent",
            doc: "Makes `blit` (and `sprite` on a canvas) leave out the pixels of tile colour                   `color` (0-15), or draw them. At power-on only colour 0 is left out. Returns                   whether it was left out; `draw_transparent(color)` only reads it;                   `draw_transparent()` resets. It lasts until changed.",
            cost: &[],
            call: draw_transparent,
        },
        ApiFn {
            name: "pget",
            args: &[X, Y],
            returns: "color",
            doc: "The colour (full palette index) of the canvas at (x, y) through the camera,                   with this frame's drawings so far; nil where nothing is drawn or off the                   screen. Only a cart with a canvas (`plane = \"canvas\"` in `cart.toml`)                   has one to read: on another it is an error.",
            cost: &[Cost::call(cost::PGET, Unit::Video)],
            call: pget,
        },
    ],
    constants: &[],
};

fn color_arg(c: &Call, i: usize) -> LuaResult<u8> {
    Ok(c.int_arg(i)? as u8)
}

fn point(c: &Call, i: usize) -> LuaResult<(i32, i32)> {
    Ok((c.coord_arg(i)?, c.coord_arg(i + 1)?))
}

/// The font named by argument `i` (default: the system font), with its number.
fn font_arg<'a>(c: &'a Call, i: usize) -> LuaResult<(u8, &'a Font)> {
    let Some(name) = c.opt_str_arg(i)? else {
        return Ok((0, fonts::system()));
    };
    let cart_fonts = &c.cart.fonts;
    let number = fonts::number_of(cart_fonts, &name).ok_or_else(|| {
        let mut known: Vec<&str> = fonts::BUILT_IN.to_vec();
        known.extend(cart_fonts.iter().map(|f| f.name.as_str()));
        c.error(format!(
            "no font named \"{name}\" (fonts: {})",
            known.join(", ")
        ))
    })?;
    Ok((number, fonts::by_number(cart_fonts, number)))
}

/// The bytes of argument `i` as text (numbers print as Lua writes them).
fn text_arg(c: &Call, i: usize) -> LuaResult<Vec<u8>> {
    match c.str_bytes(i) {
        Some(bytes) => Ok(bytes.into_owned()),
        None => Ok(c.string(i, "text")?.into_bytes()),
    }
}

fn cls(c: &mut Call) -> LuaResult<MultiValue> {
    let color = c.opt_int_arg(0)?.map(|n| n as u8);
    c.m.video.cls(color);
    c.ret(())
}

fn print(c: &mut Call) -> LuaResult<MultiValue> {
    let at = point(c, 1)?;
    let color = color_arg(c, 3)?;
    let (number, font) = font_arg(c, 4)?;
    let (glyph_cost, advance) = (font.glyph_cost(), font.width as i64);
    // Charged before the text is copied or drawn: a text too long for the cap stops here.
    let glyphs = match c.str_bytes(0) {
        Some(bytes) => glyph_count(&bytes),
        None => glyph_count(c.string(0, "text")?.as_bytes()),
    };
    c.charge(Unit::Video, glyphs * glyph_cost)?;
    let text = text_arg(c, 0)?;
    c.m.video.plane.print(number, &text, at, color);
    let last_line = text.rsplit(|&b| b == b'\n').next().unwrap_or(&[]);
    c.ret(i64::from(at.0) + last_line.len() as i64 * advance)
}

/// The glyphs `print` draws for `text` (every byte but line breaks), what it costs.
pub(crate) fn glyph_count(text: &[u8]) -> u64 {
    text.iter().filter(|&&b| b != b'\n').count() as u64
}

fn text_width(c: &mut Call) -> LuaResult<MultiValue> {
    let (number, _) = font_arg(c, 1)?;
    // Charged before the text is read: a text too long for the cap stops here.
    let bytes = match c.str_bytes(0) {
        Some(bytes) => bytes.len(),
        None => c.string(0, "text")?.len(),
    };
    c.charge(Unit::Script, (bytes as u64).div_ceil(8) * cost::SCAN_BYTES)?;
    let text = text_arg(c, 0)?;
    let width = fonts::by_number(&c.cart.fonts, number).text_width(&text);
    c.ret(width as i64)
}

/// Draws a shape given two corners and a colour; returns the runs it covers.
type TwoCornerShape = fn(&mut crate::video::plane::DrawingPlane, (i32, i32), (i32, i32), u8) -> u64;

/// Draws a two-corner shape with arguments (x0, y0, x1, y1, color) and charges its runs.
fn two_corners(c: &mut Call, draw: TwoCornerShape) -> LuaResult<MultiValue> {
    let (a, b) = (point(c, 0)?, point(c, 2)?);
    let color = color_arg(c, 4)?;
    let runs = draw(&mut c.m.video.plane, a, b, color);
    c.charge(Unit::Video, runs * cost::DRAW_SPAN)?;
    c.ret(())
}

fn rectfill(c: &mut Call) -> LuaResult<MultiValue> {
    two_corners(c, |p, a, b, color| p.rect_fill(a, b, color))
}

fn rect(c: &mut Call) -> LuaResult<MultiValue> {
    two_corners(c, |p, a, b, color| p.rect(a, b, color))
}

fn line(c: &mut Call) -> LuaResult<MultiValue> {
    two_corners(c, |p, a, b, color| p.line(a, b, color))
}

fn ovalfill(c: &mut Call) -> LuaResult<MultiValue> {
    two_corners(c, |p, a, b, color| p.oval(a, b, true, color))
}

fn oval(c: &mut Call) -> LuaResult<MultiValue> {
    two_corners(c, |p, a, b, color| p.oval(a, b, false, color))
}

fn pset(c: &mut Call) -> LuaResult<MultiValue> {
    let at = point(c, 0)?;
    let color = color_arg(c, 2)?;
    let runs = c.m.video.plane.pixel(at, color);
    c.charge(Unit::Video, runs * cost::DRAW_SPAN)?;
    c.ret(())
}

fn circle(c: &mut Call, filled: bool) -> LuaResult<MultiValue> {
    let centre = point(c, 0)?;
    let r = c.int_arg(2)?;
    let color = color_arg(c, 3)?;
    if r < 0 {
        return c.ret(());
    }
    let runs =
        c.m.video
            .plane
            .circle(centre, r.min(MAX_RADIUS), filled, color);
    c.charge(Unit::Video, runs * cost::DRAW_SPAN)?;
    c.ret(())
}

fn circfill(c: &mut Call) -> LuaResult<MultiValue> {
    circle(c, true)
}

fn circ(c: &mut Call) -> LuaResult<MultiValue> {
    circle(c, false)
}

fn triangle(c: &mut Call, filled: bool) -> LuaResult<MultiValue> {
    let points = [point(c, 0)?, point(c, 2)?, point(c, 4)?];
    let color = color_arg(c, 6)?;
    let runs = c.m.video.plane.triangle(points, filled, color);
    c.charge(Unit::Video, runs * cost::DRAW_SPAN)?;
    c.ret(())
}

fn trifill(c: &mut Call) -> LuaResult<MultiValue> {
    triangle(c, true)
}

fn tri(c: &mut Call) -> LuaResult<MultiValue> {
    triangle(c, false)
}

fn fillp(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.plane.state.fill.bits;
    let bits = c.int_arg(0)? as u16;
    let alt = c.opt_int_arg(1)?.map(|n| n as u8);
    c.m.video.plane.state.fill = FillPattern { bits, alt };
    c.ret(i64::from(old))
}

fn camera(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.plane.state.camera;
    let (x, y) = point(c, 0)?;
    c.m.video.plane.state.camera = (x, y);
    c.ret((i64::from(old.0), i64::from(old.1)))
}

fn clip(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.plane.state.clip;
    let new = match [0, 1, 2, 3].map(|i| c.opt_int_arg(i)) {
        [Ok(None), Ok(None), Ok(None), Ok(None)] => Clip::SCREEN,
        [Ok(Some(x)), Ok(Some(y)), Ok(Some(w)), Ok(Some(h))] => Clip::new(x, y, w, h),
        read => {
            read.into_iter().collect::<LuaResult<Vec<_>>>()?;
            return Err(c.error("give all of x, y, w and h, or none to reset the clip"));
        }
    };
    c.m.video.plane.state.clip = new;
    let (x, y) = (i64::from(old.x0), i64::from(old.y0));
    c.ret((x, y, i64::from(old.x1) - x, i64::from(old.y1) - y))
}

fn draw_prio(c: &mut Call) -> LuaResult<MultiValue> {
    let old = c.m.video.plane.state.priority;
    if let Some(priority) = c.opt_int_arg(0)? {
        c.m.video.plane.state.priority = priority as u8;
    }
    c.ret(i64::from(old))
}

/// Draws `blit` (target through the camera) with `palette`, and charges it.
fn draw_blit(c: &mut Call, mut blit: Blit, palette: u8) -> LuaResult<()> {
    let (x, y) = c.m.video.plane.to_screen((blit.target[0], blit.target[1]));
    // Far off the screen is as good as the clamp: nothing shows.
    let near = |v: i64| v.clamp(-(1 << 20), 1 << 20) as i32;
    blit.target[0] = near(x);
    blit.target[1] = near(y);
    let runs = c.m.video.plane.blit(blit, palette);
    c.charge(Unit::Video, cost::BLIT + runs * cost::DRAW_SPAN)
}

fn blit(c: &mut Call) -> LuaResult<MultiValue> {
    let (sx, sy, sw, sh) = (c.int_arg(0)?, c.int_arg(1)?, c.int_arg(2)?, c.int_arg(3)?);
    let at = point(c, 4)?;
    let w = c.opt_int_arg(6)?.unwrap_or(sw);
    let h = c.opt_int_arg(7)?.unwrap_or(sh);
    let palette = c.int_arg(8)? as u8;
    let flags = c.int_arg(9)?;
    if sx + sw > SHEET_W as i64 || sy + sh > SHEET_H as i64 {
        return Err(c.error(format!(
            "the rectangle {sw} x {sh} at ({sx}, {sy}) runs off the pattern sheet ({SHEET_W} x {SHEET_H} px)"
        )));
    }
    if w > BLIT_MAX_SIDE as i64 || h > BLIT_MAX_SIDE as i64 {
        return Err(c.error(format!("w and h are 1..{BLIT_MAX_SIDE}")));
    }
    let blit = Blit {
        source: [sx, sy, sw, sh].map(|v| v as u16),
        target: [at.0, at.1, w as i32, h as i32],
        flip_x: flags & 1 != 0,
        flip_y: flags & 2 != 0,
    };
    draw_blit(c, blit, palette)?;
    c.ret(())
}

fn draw_pal(c: &mut Call) -> LuaResult<MultiValue> {
    let Some(color) = c.opt_int_arg(0)? else {
        for i in 0..=255 {
            c.m.video.plane.palette.set(i, i);
        }
        return c.ret(());
    };
    let old = match c.opt_int_arg(1)? {
        Some(to) => c.m.video.plane.palette.set(color as u8, to as u8),
        None => c.m.video.plane.palette.get(color as u8),
    };
    c.ret(i64::from(old))
}

fn draw_transparent(c: &mut Call) -> LuaResult<MultiValue> {
    let Some(color) = c.opt_int_arg(0)? else {
        for i in 0..16 {
            c.m.video.plane.palette.set_transparent(i, i == 0);
        }
        return c.ret(());
    };
    let was = match c.is_nil(1) {
        true => c.m.video.plane.palette.transparent(color as u8),
        false => {
            let transparent = c.bool_arg(1);
            c.m.video
                .plane
                .palette
                .set_transparent(color as u8, transparent)
        }
    };
    c.ret(was)
}

fn pget(c: &mut Call) -> LuaResult<MultiValue> {
    let at = point(c, 0)?;
    if c.m.video.canvas.is_none() {
        return Err(c.error(
            "this cart has no canvas to read (plane = \"canvas\" in cart.toml gives it one)",
        ));
    }
    c.charge(Unit::Video, cost::PGET)?;
    let (x, y) = c.m.video.plane.to_screen(at);
    let video = &mut c.m.video;
    let canvas = video.canvas.as_deref_mut().expect("checked above");
    // This frame's drawings so far are painted first, in their order.
    video.plane.paint(canvas, &video.patterns, &c.cart.fonts);
    let color = canvas.get(x, y).map(i64::from);
    c.ret(color)
}

fn sprite(c: &mut Call) -> LuaResult<MultiValue> {
    let tile = c.int_arg(0)? as u32;
    let at = point(c, 1)?;
    let (w, h) = (c.int_arg(3)? as u8, c.int_arg(4)? as u8);
    let palette = c.int_arg(5)? as u8;
    let flags = c.int_arg(6)?;
    let priority = c.int_arg(7)?;
    if c.m.video.canvas.is_some() {
        // On a canvas, a sprite is a blit of its block, drawn in call order.
        let tile = tile as usize % crate::spec::PATTERN_TILES;
        let sheet_w = crate::spec::PATTERN_SHEET_TILES_W;
        let (sx, sy) = (tile % sheet_w * TILE_SIZE, tile / sheet_w * TILE_SIZE);
        let (pw, ph) = (usize::from(w) * TILE_SIZE, usize::from(h) * TILE_SIZE);
        let blit = Blit {
            source: [sx, sy, pw.min(SHEET_W - sx), ph.min(SHEET_H - sy)].map(|v| v as u16),
            target: [
                at.0,
                at.1,
                pw.min(SHEET_W - sx) as i32,
                ph.min(SHEET_H - sy) as i32,
            ],
            flip_x: flags & 1 != 0,
            flip_y: flags & 2 != 0,
        };
        draw_blit(c, blit, palette)?;
        return c.ret(());
    }
    let plane = &c.m.video.plane;
    let (x, y) = plane.to_screen(at);
    let near = |v: i64| v.clamp(-(1 << 20), 1 << 20) as i32;
    let Some(block) = Sprite::block(near(x), near(y), tile, w, h) else {
        return Err(c.error("sprite sides are 1-8 tiles"));
    };
    let block = Sprite {
        clip: plane.state.clip,
        ..block.with_style(palette, priority, flags & 1 != 0, flags & 2 != 0)
    };
    let entry = c.m.video.lend_sprite(block).map(|i| i as i64);
    c.ret(entry)
}
