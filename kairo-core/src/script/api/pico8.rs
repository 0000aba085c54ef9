//! The PICO-8 API of carts with a `[pico8]` table (`kairo import` writes them): PICO-8's
//! names over its memory and 128 x 128 screen ([`crate::pico8`]). Kairo's own API is in the
//! global table `kairo` there (`kairo.bu_fire(...)`). Numbers are Lua's: coordinates and
//! colours are floored as PICO-8 does, but arithmetic is not 16.16 fixed point.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::pico8::Pico8;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::script::stack::Plain;
use crate::spec::cost;

const X: Arg = Arg::coord("x");
const Y: Arg = Arg::coord("y");
const COL: Arg = Arg::new("col", Kind::Integer).optional("the pen colour");
const PIXELS: &[Cost] = &[Cost::each(
    cost::DRAW_SPAN,
    "per 8 screen pixels examined",
    Unit::Video,
)];

/// PICO-8's memory: every PICO-8 function runs on a cart that has it.
pub(super) fn p8<'a>(c: &'a mut Call) -> LuaResult<&'a mut Pico8> {
    // Checked before borrowing: the error needs `c` too.
    if c.m.pico8.is_none() {
        return Err(c.error("this cart has no PICO-8 memory ([pico8] in cart.toml)"));
    }
    Ok(c.m.pico8.as_deref_mut().expect("checked"))
}

/// Argument `i` as PICO-8 reads a number: a number, or a string that reads as one; nil
/// (or none) is `None`; anything else 0.
pub(super) fn opt_num(c: &Call, i: usize) -> Option<f64> {
    let text = |bytes: &[u8]| {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0.0)
    };
    match c.plain(i) {
        Plain::Nil => None,
        Plain::Integer(n) => Some(n as f64),
        Plain::Number(n) if n.is_finite() => Some(n),
        Plain::String(s) => Some(text(&s.as_bytes())),
        Plain::Bytes(bytes) => Some(text(bytes)),
        _ => Some(0.0),
    }
}

/// Argument `i` floored (to the 32-bit range), `None` when nil.
pub(super) fn opt_int(c: &Call, i: usize) -> Option<i64> {
    opt_num(c, i).map(|n| n.floor().clamp(-2_147_483_648.0, 2_147_483_647.0) as i64)
}

/// Argument `i` floored and held to PICO-8's integers (-32768..32767), its declared default
/// when nil (else 0).
pub(super) fn int(c: &Call, i: usize) -> i32 {
    let n = opt_int(c, i).unwrap_or_else(|| match c.declared_default(i) {
        crate::script::args::Default::Int(n) => n,
        _ => 0,
    });
    n.clamp(-32768, 32767) as i32
}

/// Argument `i` as Lua's truth: nil and false are false.
fn truthy(c: &Call, i: usize) -> bool {
    !matches!(c.plain(i), Plain::Nil | Plain::Boolean(false))
}

/// Charges the pixels a drawing examined.
fn pixels(c: &mut Call, n: u64) -> LuaResult<()> {
    c.charge(Unit::Video, n.div_ceil(8) * cost::DRAW_SPAN)
}

pub(super) fn color(c: &mut Call, i: usize) -> LuaResult<u8> {
    let given = opt_int(c, i);
    Ok(p8(c)?.pen(given))
}

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "PICO-8: drawing",
    intro: "On a `[pico8]` cart only. The screen is PICO-8's, 128 x 128 in 16 colours, shown \
            at 2x after each `_draw`; it keeps what was drawn until `cls`.",
    functions: &[
        ApiFn {
            name: "cls",
            args: &[Arg::new("col", Kind::Integer).or_int(0)],
            returns: "",
            doc: "Fills the screen with `col` (default 0), homes the cursor and resets the clip.",
            cost: &[Cost::call(cost::PICO8_CLS, Unit::Video)],
            call: cls,
        },
        ApiFn {
            name: "pset",
            args: &[X, Y, COL],
            returns: "",
            doc: "Draws a pixel.",
            cost: PIXELS,
            call: pset,
        },
        ApiFn {
            name: "pget",
            args: &[X, Y],
            returns: "col",
            doc: "The screen's colour at (x, y); 0 off the screen.",
            cost: &[],
            call: pget,
        },
        ApiFn {
            name: "rectfill",
            args: &[
                Arg::coord("x0"),
                Arg::coord("y0"),
                Arg::coord("x1"),
                Arg::coord("y1"),
                COL,
            ],
            returns: "",
            doc: "A filled rectangle, both corners included.",
            cost: PIXELS,
            call: rectfill,
        },
        ApiFn {
            name: "rect",
            args: &[
                Arg::coord("x0"),
                Arg::coord("y0"),
                Arg::coord("x1"),
                Arg::coord("y1"),
                COL,
            ],
            returns: "",
            doc: "A rectangle's outline.",
            cost: PIXELS,
            call: rect,
        },
        ApiFn {
            name: "line",
            args: &[
                Arg::coord("x0"),
                Arg::coord("y0"),
                Arg::coord("x1"),
                Arg::coord("y1"),
                COL,
            ],
            returns: "",
            doc: "A line, both ends included.",
            cost: PIXELS,
            call: line,
        },
        ApiFn {
            name: "circfill",
            args: &[X, Y, Arg::coord("r").or_int(4), COL],
            returns: "",
            doc: "A filled circle.",
            cost: PIXELS,
            call: circfill,
        },
        ApiFn {
            name: "circ",
            args: &[X, Y, Arg::coord("r").or_int(4), COL],
            returns: "",
            doc: "A circle's outline.",
            cost: PIXELS,
            call: circ,
        },
        ApiFn {
            name: "ovalfill",
            args: &[
                Arg::coord("x0"),
                Arg::coord("y0"),
                Arg::coord("x1"),
                Arg::coord("y1"),
                COL,
            ],
            returns: "",
            doc: "A filled oval that fits the box (x0, y0)-(x1, y1), both corners included.",
            cost: PIXELS,
            call: ovalfill,
        },
        ApiFn {
            name: "oval",
            args: &[
                Arg::coord("x0"),
                Arg::coord("y0"),
                Arg::coord("x1"),
                Arg::coord("y1"),
                COL,
            ],
            returns: "",
            doc: "An oval's outline, fitting the box (x0, y0)-(x1, y1).",
            cost: PIXELS,
            call: oval,
        },
        ApiFn {
            name: "spr",
            args: &[
                Arg::new("n", Kind::Integer),
                X,
                Y,
                Arg::num("w").optional("1"),
                Arg::num("h").optional("1"),
                Arg::new("flip_x", Kind::Bool).optional("false"),
                Arg::new("flip_y", Kind::Bool).optional("false"),
            ],
            returns: "",
            doc: "Draws `w` x `h` sprites from sprite `n`; colours `palt` marks are left out.",
            cost: PIXELS,
            call: spr,
        },
        ApiFn {
            name: "sspr",
            args: &[
                Arg::coord("sx"),
                Arg::coord("sy"),
                Arg::coord("sw"),
                Arg::coord("sh"),
                Arg::coord("dx"),
                Arg::coord("dy"),
                Arg::coord("dw").optional("sw"),
                Arg::coord("dh").optional("sh"),
                Arg::new("flip_x", Kind::Bool).optional("false"),
                Arg::new("flip_y", Kind::Bool).optional("false"),
            ],
            returns: "",
            doc: "Draws a rectangle of the sprite sheet, scaled to `dw` x `dh`.",
            cost: PIXELS,
            call: sspr,
        },
        ApiFn {
            name: "map",
            args: &[
                Arg::coord("cx").or_int(0),
                Arg::coord("cy").or_int(0),
                Arg::coord("sx").or_int(0),
                Arg::coord("sy").or_int(0),
                Arg::coord("cw").or_int(128),
                Arg::coord("ch").or_int(32),
                Arg::new("layers", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Draws map cells from (cx, cy) at (sx, sy); with `layers`, only sprites whose \
                  flags share a bit with it. Sprite 0 is not drawn.",
            cost: PIXELS,
            call: map,
        },
        ApiFn {
            name: "mget",
            args: &[X, Y],
            returns: "n",
            doc: "The sprite of map cell (x, y); 0 outside the map.",
            cost: &[],
            call: mget,
        },
        ApiFn {
            name: "mset",
            args: &[X, Y, Arg::new("n", Kind::Integer)],
            returns: "",
            doc: "Sets map cell (x, y).",
            cost: &[],
            call: mset,
        },
        ApiFn {
            name: "fget",
            args: &[
                Arg::new("n", Kind::Integer),
                Arg::new("f", Kind::Integer).optional("all flags"),
            ],
            returns: "flags",
            doc: "Sprite `n`'s flags, or whether flag `f` (0-7) is set.",
            cost: &[],
            call: fget,
        },
        ApiFn {
            name: "fset",
            args: &[
                Arg::new("n", Kind::Integer),
                Arg::new("f", Kind::Value("a flag 0-7, or all flags as a number")),
                Arg::new("v", Kind::Value("a boolean")).optional("sets all flags to f"),
            ],
            returns: "",
            doc: "Sets sprite `n`'s flag `f` to `v`, or all its flags to `f`.",
            cost: &[],
            call: fset,
        },
        ApiFn {
            name: "sget",
            args: &[X, Y],
            returns: "col",
            doc: "The sprite sheet's colour at (x, y).",
            cost: &[],
            call: sget,
        },
        ApiFn {
            name: "sset",
            args: &[X, Y, COL],
            returns: "",
            doc: "Sets the sprite sheet's colour at (x, y).",
            cost: &[],
            call: sset,
        },
        ApiFn {
            name: "pal",
            args: &[
                Arg::new("c0", Kind::Value("colour, or table of colour = colour"))
                    .optional("resets the draw and screen palettes"),
                Arg::new("c1", Kind::Integer).optional("resets palette c0"),
                Arg::new("p", Kind::Integer).or_int(0),
            ],
            returns: "old",
            doc: "Draws colour `c0` as `c1` from now on (`p` 0, the draw palette), shows it as \
                  `c1` (`p` 1, the screen palette; 128-143 are the extra colours) or sets the \
                  secondary palette (`p` 2); returns the colour `c0` had. `pal(t, p)` sets every \
                  `c0 = c1` of table `t`; `pal(p)` resets palette `p`; `pal()` the draw and \
                  screen palettes.",
            cost: &[],
            call: pal,
        },
        ApiFn {
            name: "palt",
            args: &[
                Arg::new("c", Kind::Integer).optional("resets: only colour 0"),
                Arg::new("t", Kind::Bool).optional("false"),
            ],
            returns: "",
            doc: "Makes sprites leave colour `c` out (`t` true) or draw it.",
            cost: &[],
            call: palt,
        },
        ApiFn {
            name: "camera",
            args: &[X.or_int(0), Y.or_int(0)],
            returns: "",
            doc: "Moves everything drawn by (-x, -y).",
            cost: &[],
            call: camera,
        },
        ApiFn {
            name: "clip",
            args: &[
                Arg::coord("x").optional("the whole screen"),
                Arg::coord("y").optional("the whole screen"),
                Arg::coord("w").optional("the whole screen"),
                Arg::coord("h").optional("the whole screen"),
            ],
            returns: "",
            doc: "Draws only inside the screen rectangle (x, y, w, h).",
            cost: &[],
            call: clip,
        },
        ApiFn {
            name: "color",
            args: &[Arg::new("col", Kind::Integer).or_int(6)],
            returns: "",
            doc: "Sets the pen colour.",
            cost: &[],
            call: set_color,
        },
        ApiFn {
            name: "btn",
            args: &[
                Arg::new("i", Kind::Integer).optional("all buttons as bits"),
                Arg::new("p", Kind::Integer).or_int(0),
            ],
            returns: "held",
            doc: "Whether button `i` (0 left, 1 right, 2 up, 3 down, 4 O = Kairo's A, 5 X = \
                  Kairo's B) of player `p` is held.",
            cost: &[],
            call: btn,
        },
        ApiFn {
            name: "btnp",
            args: &[
                Arg::new("i", Kind::Integer).optional("all buttons as bits"),
                Arg::new("p", Kind::Integer).or_int(0),
            ],
            returns: "pressed",
            doc: "Whether button `i` went down this PICO-8 frame, or repeats (15 frames, then \
                  every 4).",
            cost: &[],
            call: btnp,
        },
        ApiFn {
            name: "print",
            args: &[
                Arg::new("text", Kind::Value("a string, number or boolean")),
                Arg::new("x", Kind::Value("a number (or the colour, given alone)"))
                    .optional("the cursor"),
                Arg::new("y", Kind::Value("a number")).optional("the cursor"),
                Arg::new("col", Kind::Value("a number")).optional("the pen colour"),
            ],
            returns: "x",
            doc: "Prints `text` in PICO-8's font at (x, y), or at the cursor, which then goes a \
                  line down (the screen scrolls at the bottom). `print(text, col)` prints at the \
                  cursor in `col`. Returns the right-most x reached.",
            cost: PIXELS,
            call: print,
        },
        ApiFn {
            name: "cursor",
            args: &[X.or_int(0), Y.or_int(0), COL],
            returns: "",
            doc: "Moves the cursor `print` prints at (and sets the pen colour if given).",
            cost: &[],
            call: cursor,
        },
        ApiFn {
            name: "fillp",
            args: &[Arg::num("p").optional("0: no pattern")],
            returns: "",
            doc: "The 4 x 4 fill pattern of shapes: bit 15 the top-left pixel; set bits draw the \
                  colour's high nibble, or nothing when `p` has `.5`.",
            cost: &[],
            call: fillp,
        },
        ApiFn {
            name: "memcpy",
            args: &[
                Arg::new("dest", Kind::Integer),
                Arg::new("src", Kind::Integer),
                Arg::new("len", Kind::Integer),
            ],
            returns: "",
            doc: "Copies `len` bytes of PICO-8's memory from `src` to `dest`.",
            cost: &[Cost::each(cost::DRAW_SPAN, "per 8 bytes", Unit::Video)],
            call: memcpy,
        },
        ApiFn {
            name: "memset",
            args: &[
                Arg::new("dest", Kind::Integer),
                Arg::new("value", Kind::Integer),
                Arg::new("len", Kind::Integer),
            ],
            returns: "",
            doc: "Sets `len` bytes of PICO-8's memory from `dest` to `value`.",
            cost: &[Cost::each(cost::DRAW_SPAN, "per 8 bytes", Unit::Video)],
            call: memset,
        },
        ApiFn {
            name: "reload",
            args: &[
                Arg::new("dest", Kind::Integer).or_int(0),
                Arg::new("src", Kind::Integer).or_int(0),
                Arg::new("len", Kind::Integer).or_int(0x4300),
            ],
            returns: "",
            doc: "Copies `len` bytes of the cart's data (as it powered on, or as `cstore` \
                  changed it) from `src` to `dest`.",
            cost: &[Cost::each(cost::DRAW_SPAN, "per 8 bytes", Unit::Video)],
            call: reload,
        },
        ApiFn {
            name: "peek",
            args: &[Arg::new("addr", Kind::Integer)],
            returns: "value",
            doc: "A byte of PICO-8's memory.",
            cost: &[],
            call: peek,
        },
        ApiFn {
            name: "peek2",
            args: &[Arg::new("addr", Kind::Integer)],
            returns: "value",
            doc: "Two bytes of PICO-8's memory as a signed 16-bit number (the low byte first).",
            cost: &[],
            call: peek2,
        },
        ApiFn {
            name: "poke2",
            args: &[
                Arg::new("addr", Kind::Integer),
                Arg::new("value", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Writes a number's low 16 bits as two bytes (the low byte first).",
            cost: &[],
            call: poke2,
        },
        ApiFn {
            name: "peek4",
            args: &[Arg::new("addr", Kind::Integer)],
            returns: "value",
            doc: "Four bytes of PICO-8's memory as a 16.16 number (the low byte first).",
            cost: &[],
            call: peek4,
        },
        ApiFn {
            name: "poke4",
            args: &[
                Arg::new("addr", Kind::Integer),
                Arg::num("value").optional("0"),
            ],
            returns: "",
            doc: "Writes a number as 16.16 in four bytes (the low byte first).",
            cost: &[],
            call: poke4,
        },
        ApiFn {
            name: "poke",
            args: &[
                Arg::new("addr", Kind::Integer),
                Arg::new("value", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Writes a byte of PICO-8's memory.",
            cost: &[],
            call: poke,
        },
    ],
    constants: &[],
};

/// Argument `i` as an address of PICO-8's 64 KiB: the number floored, modulo 0x10000 — its
/// low 16 bits, as PICO-8's 16.16 numbers wrap. 0x8000, which PICO-8 reads as -32768, is
/// the upper memory's first byte, and `6^13` (13060694016 in Lua's floats; it wraps to
/// 0x6000 in PICO-8's arithmetic) is the screen.
pub(super) fn address(c: &Call, i: usize) -> LuaResult<usize> {
    let n = opt_num(c, i).unwrap_or(0.0).floor();
    Ok(n.rem_euclid(crate::pico8::RAM_BYTES as f64) as usize)
}

fn cls(c: &mut Call) -> LuaResult<MultiValue> {
    let col = int(c, 0) as u8;
    c.charge(Unit::Video, cost::PICO8_CLS)?;
    p8(c)?.cls(col);
    c.ret(())
}

fn pset(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let col = color(c, 2)?;
    let n = p8(c)?.pset(x, y, col);
    pixels(c, n)?;
    c.ret(())
}

fn pget(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let col = p8(c)?.pget(x, y);
    c.ret(i64::from(col))
}

type Shape = fn(&mut Pico8, (i32, i32), (i32, i32), u8) -> u64;

fn two_points(c: &mut Call, draw: Shape) -> LuaResult<MultiValue> {
    let a = (int(c, 0), int(c, 1));
    let b = (int(c, 2), int(c, 3));
    let col = color(c, 4)?;
    let n = draw(p8(c)?, a, b, col);
    pixels(c, n)?;
    c.ret(())
}

fn rectfill(c: &mut Call) -> LuaResult<MultiValue> {
    two_points(c, Pico8::rectfill)
}

fn rect(c: &mut Call) -> LuaResult<MultiValue> {
    two_points(c, Pico8::rect)
}

fn line(c: &mut Call) -> LuaResult<MultiValue> {
    two_points(c, Pico8::line)
}

fn circle(c: &mut Call, filled: bool) -> LuaResult<MultiValue> {
    let centre = (int(c, 0), int(c, 1));
    let r = int(c, 2);
    let col = color(c, 3)?;
    let n = p8(c)?.circle(centre, r, filled, col);
    pixels(c, n)?;
    c.ret(())
}

fn circfill(c: &mut Call) -> LuaResult<MultiValue> {
    circle(c, true)
}

fn circ(c: &mut Call) -> LuaResult<MultiValue> {
    circle(c, false)
}

fn ovalfill(c: &mut Call) -> LuaResult<MultiValue> {
    two_points(c, |p, a, b, col| p.oval(a, b, true, col))
}

fn oval(c: &mut Call) -> LuaResult<MultiValue> {
    two_points(c, |p, a, b, col| p.oval(a, b, false, col))
}

fn spr(c: &mut Call) -> LuaResult<MultiValue> {
    let n = int(c, 0);
    let at = (int(c, 1), int(c, 2));
    let w = opt_num(c, 3).unwrap_or(1.0).clamp(0.0, 16.0);
    let h = opt_num(c, 4).unwrap_or(1.0).clamp(0.0, 16.0);
    let flip = (truthy(c, 5), truthy(c, 6));
    let drawn = p8(c)?.spr(n, at, (w, h), flip);
    pixels(c, drawn)?;
    c.ret(())
}

fn sspr(c: &mut Call) -> LuaResult<MultiValue> {
    let (sx, sy, sw, sh) = (int(c, 0), int(c, 1), int(c, 2), int(c, 3));
    let (dx, dy) = (int(c, 4), int(c, 5));
    let dw = opt_int(c, 6).map_or(sw, |v| v as i32);
    let dh = opt_int(c, 7).map_or(sh, |v| v as i32);
    let flip = (truthy(c, 8), truthy(c, 9));
    let drawn = p8(c)?.sspr(
        (sx, sy, sw, sh),
        (dx, dy, dw.min(1024), dh.min(1024)),
        flip.0,
        flip.1,
    );
    pixels(c, drawn)?;
    c.ret(())
}

fn map(c: &mut Call) -> LuaResult<MultiValue> {
    let cell = (int(c, 0), int(c, 1));
    let at = (int(c, 2), int(c, 3));
    let size = (int(c, 4), int(c, 5));
    let layers = int(c, 6) as u8;
    let drawn = p8(c)?.map(cell, at, size, layers);
    pixels(c, drawn)?;
    c.ret(())
}

fn mget(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let n = p8(c)?.mget(x, y);
    c.ret(i64::from(n))
}

fn mset(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let n = int(c, 2) as u8;
    p8(c)?.mset(x, y, n);
    c.ret(())
}

fn fget(c: &mut Call) -> LuaResult<MultiValue> {
    let n = int(c, 0);
    let flag = opt_int(c, 1);
    let flags = p8(c)?.fget(n);
    match flag {
        Some(f) => c.ret(flags & (1 << (f & 7)) != 0),
        None => c.ret(i64::from(flags)),
    }
}

fn fset(c: &mut Call) -> LuaResult<MultiValue> {
    let n = int(c, 0);
    let f = int(c, 1);
    let set = (!c.is_nil(2)).then(|| truthy(c, 2));
    let pico8 = p8(c)?;
    let flags = match set {
        Some(on) => {
            let bit = 1u8 << (f & 7);
            let old = pico8.fget(n);
            if on { old | bit } else { old & !bit }
        }
        None => f as u8,
    };
    pico8.fset(n, flags);
    c.ret(())
}

fn sget(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let inside = (0..128).contains(&x) && (0..128).contains(&y);
    let col = p8(c)?.sheet_pixel(x.max(0) as usize, y.max(0) as usize);
    c.ret(if inside { i64::from(col) } else { 0 })
}

fn sset(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let col = color(c, 2)?;
    if (0..128).contains(&x) && (0..128).contains(&y) {
        p8(c)?.sset(x as usize, y as usize, col);
    }
    c.ret(())
}

fn pal(c: &mut Call) -> LuaResult<MultiValue> {
    use crate::pico8::{DRAW_PALETTE, SCREEN_PALETTE, SECONDARY_PALETTE};
    /// Sets entry `c0` of palette `p` to `c1`; returns what it held (a colour).
    fn set(pico8: &mut Pico8, p: i64, c0: i64, c1: i64) -> i64 {
        let at = |base: usize| base + (c0 & 15) as usize;
        match p {
            1 => {
                let old = pico8.peek(at(SCREEN_PALETTE));
                pico8.poke(at(SCREEN_PALETTE), (c1 & 0x8F) as u8);
                i64::from(old)
            }
            2 => {
                let old = pico8.peek(at(SECONDARY_PALETTE));
                pico8.poke(at(SECONDARY_PALETTE), c1 as u8);
                i64::from(old)
            }
            _ => {
                let old = pico8.peek(at(DRAW_PALETTE));
                pico8.poke(at(DRAW_PALETTE), (c1 & 15) as u8 | old & 0x10);
                i64::from(old & 15)
            }
        }
    }
    /// Palette `p` as at power-on (the draw palette keeps its transparency).
    fn reset(pico8: &mut Pico8, p: i64) {
        for i in 0..16i64 {
            match p {
                1 | 2 => {
                    set(pico8, p, i, i);
                }
                _ => {
                    set(pico8, 0, i, i);
                }
            }
        }
    }
    match c.value(0) {
        mlua::Value::Table(table) => {
            let p = opt_int(c, 1).unwrap_or(0);
            let pairs: Vec<(i64, i64)> = table
                .pairs::<mlua::Value, mlua::Value>()
                .filter_map(|pair| {
                    let (k, v) = pair.ok()?;
                    let number = |v: &mlua::Value| match v {
                        mlua::Value::Integer(n) => Some(*n),
                        mlua::Value::Number(n) if n.is_finite() => Some(n.floor() as i64),
                        _ => None,
                    };
                    Some((number(&k)?, number(&v)?))
                })
                .collect();
            let pico8 = p8(c)?;
            for (c0, c1) in pairs {
                set(pico8, p, c0, c1);
            }
            c.ret(())
        }
        _ => {
            let (c0, c1, p) = (opt_int(c, 0), opt_int(c, 1), int(c, 2));
            let pico8 = p8(c)?;
            match (c0, c1) {
                (None, _) => {
                    reset(pico8, 0);
                    reset(pico8, 1);
                    c.ret(())
                }
                // One number: that palette reset.
                (Some(which), None) => {
                    reset(pico8, which);
                    c.ret(())
                }
                (Some(c0), Some(c1)) => {
                    let old = set(pico8, i64::from(p), c0, c1);
                    c.ret(old)
                }
            }
        }
    }
}

fn palt(c: &mut Call) -> LuaResult<MultiValue> {
    let col = opt_int(c, 0);
    let on = truthy(c, 1);
    let pico8 = p8(c)?;
    match col {
        None => {
            for i in 0..16usize {
                let at = crate::pico8::DRAW_PALETTE + i;
                let keep = pico8.peek(at) & 0x0F;
                pico8.poke(at, keep | if i == 0 { 0x10 } else { 0 });
            }
        }
        Some(col) => {
            let at = crate::pico8::DRAW_PALETTE + (col & 15) as usize;
            let keep = pico8.peek(at) & 0x0F;
            pico8.poke(at, keep | if on { 0x10 } else { 0 });
        }
    }
    c.ret(())
}

fn camera(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    p8(c)?.set_camera(x, y);
    c.ret(())
}

fn clip(c: &mut Call) -> LuaResult<MultiValue> {
    let rect = match [0, 1, 2, 3].map(|i| opt_int(c, i)) {
        [Some(x), Some(y), Some(w), Some(h)] => Some((x as i32, y as i32, w as i32, h as i32)),
        [None, None, None, None] => None,
        _ => return Err(c.error("give all of x, y, w and h, or none to reset the clip")),
    };
    p8(c)?.set_clip(rect);
    c.ret(())
}

fn set_color(c: &mut Call) -> LuaResult<MultiValue> {
    let col = int(c, 0);
    p8(c)?.pen(Some(i64::from(col)));
    c.ret(())
}

fn buttons(c: &mut Call, pressed: bool) -> LuaResult<MultiValue> {
    let i = opt_int(c, 0);
    let player = int(c, 1).clamp(0, 3) as usize;
    let pico8 = p8(c)?;
    let state = |b: usize| {
        if pressed {
            pico8.btnp(player, b)
        } else {
            pico8.btn(player, b)
        }
    };
    match i {
        Some(b) if (0..6).contains(&b) => {
            let value = state(b as usize);
            c.ret(value)
        }
        Some(_) => c.ret(false),
        None => {
            let bits = (0..6).fold(0i64, |bits, b| bits | i64::from(state(b)) << b);
            c.ret(bits)
        }
    }
}

fn btn(c: &mut Call) -> LuaResult<MultiValue> {
    buttons(c, false)
}

fn btnp(c: &mut Call) -> LuaResult<MultiValue> {
    buttons(c, true)
}

/// A number as PICO-8 prints it: integers bare, fractions to 4 decimals without trailing
/// zeros.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        return format!("{}", n as i64);
    }
    let text = format!("{n:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn print(c: &mut Call) -> LuaResult<MultiValue> {
    let text = match c.value(0) {
        mlua::Value::String(s) => crate::pico8::charset::to_p8scii(&s.as_bytes()),
        mlua::Value::Integer(n) => n.to_string().into_bytes(),
        mlua::Value::Number(n) => number_text(n).into_bytes(),
        mlua::Value::Boolean(b) => b.to_string().into_bytes(),
        mlua::Value::Nil => b"[nil]".to_vec(),
        other => format!("[{}]", other.type_name()).into_bytes(),
    };
    let number = |c: &Call, i: usize| match c.value(i) {
        mlua::Value::Integer(n) => Some(n as f64),
        mlua::Value::Number(n) if n.is_finite() => Some(n),
        _ => None,
    };
    let (x, y) = (number(c, 1), number(c, 2));
    let (at, col) = match (x, y) {
        (Some(x), Some(y)) => (
            Some((
                x.floor().clamp(-32768.0, 32767.0) as i32,
                y.floor().clamp(-32768.0, 32767.0) as i32,
            )),
            number(c, 3),
        ),
        (Some(col), None) => (None, Some(col)),
        _ => (None, None),
    };
    let glyphs = text.len() as u64;
    c.charge(Unit::Video, glyphs * cost::GLYPH)?;
    let pico8 = p8(c)?;
    let pen = pico8.pen(col.map(|v| v.floor() as i64));
    let (right, _) = pico8.print(&text, at, pen);
    let notes = pico8.take_print_notes();
    for note in notes {
        c.context(|context| context.log.push_system(format!("kairo: {note}")))?;
    }
    c.ret(i64::from(right))
}

fn cursor(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (int(c, 0), int(c, 1));
    let col = opt_int(c, 2);
    let pico8 = p8(c)?;
    pico8.set_cursor(x, y);
    if col.is_some() {
        pico8.pen(col);
    }
    c.ret(())
}

fn fillp(c: &mut Call) -> LuaResult<MultiValue> {
    let pattern = opt_num(c, 0).unwrap_or(0.0);
    p8(c)?.fillp(pattern);
    c.ret(())
}

/// A range of PICO-8's memory for `memcpy`/`memset`/`reload`: refused past 0xffff.
pub(super) fn range(c: &Call, start: usize, len: i64) -> LuaResult<std::ops::Range<usize>> {
    if len <= 0 {
        return Ok(0..0);
    }
    let end = start as i64 + len;
    if end > crate::pico8::RAM_BYTES as i64 {
        return Err(c.error(format!(
            "0x{start:x}..0x{end:x} is outside PICO-8's memory (0x0000-0xffff)"
        )));
    }
    Ok(start..end as usize)
}

/// Argument `i` as a length (`memcpy`'s, ...): 0 when nil.
pub(super) fn length(c: &Call, i: usize) -> i64 {
    opt_int(c, i).unwrap_or(0)
}

fn memcpy(c: &mut Call) -> LuaResult<MultiValue> {
    let (dest, src, len) = (address(c, 0)?, address(c, 1)?, length(c, 2));
    let (to, from) = (range(c, dest, len)?, range(c, src, len)?);
    c.charge(Unit::Video, (to.len() as u64).div_ceil(8) * cost::DRAW_SPAN)?;
    let pico8 = p8(c)?;
    pico8.ram.copy_within(from, to.start);
    c.ret(())
}

fn memset(c: &mut Call) -> LuaResult<MultiValue> {
    let (dest, value, len) = (address(c, 0)?, int(c, 1), length(c, 2));
    let to = range(c, dest, len)?;
    c.charge(Unit::Video, (to.len() as u64).div_ceil(8) * cost::DRAW_SPAN)?;
    p8(c)?.ram[to].fill(value as u8);
    c.ret(())
}

fn reload(c: &mut Call) -> LuaResult<MultiValue> {
    let (dest, src) = (address(c, 0)?, address(c, 1)?);
    let len = opt_int(c, 2).unwrap_or(crate::pico8::ROM_BYTES as i64);
    let to = range(c, dest, len)?;
    let from = range(c, src, len)?;
    if from.end > crate::pico8::ROM_BYTES {
        return Err(c.error(format!(
            "reload reads the cart's data, 0x0000-0x42ff; 0x{:x}..0x{:x} is past it",
            from.start, from.end
        )));
    }
    c.charge(Unit::Video, (to.len() as u64).div_ceil(8) * cost::DRAW_SPAN)?;
    let pico8 = p8(c)?;
    let rom = pico8.rom[from].to_vec();
    pico8.ram[to].copy_from_slice(&rom);
    c.ret(())
}

fn peek(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let value = p8(c)?.peek(at);
    c.ret(i64::from(value))
}

fn peek2(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let pico8 = p8(c)?;
    let bytes = [pico8.peek(at), pico8.peek((at + 1) & 0xFFFF)];
    c.ret(i64::from(i16::from_le_bytes(bytes)))
}

fn poke2(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let value = opt_int(c, 1).unwrap_or(0) as i16;
    let pico8 = p8(c)?;
    for (i, b) in value.to_le_bytes().into_iter().enumerate() {
        pico8.poke((at + i) & 0xFFFF, b);
    }
    c.ret(())
}

fn peek4(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let pico8 = p8(c)?;
    let bytes: [u8; 4] = std::array::from_fn(|i| pico8.peek((at + i) & 0xFFFF));
    c.ret(f64::from(i32::from_le_bytes(bytes)) / 65536.0)
}

fn poke4(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let value = opt_num(c, 1).unwrap_or(0.0);
    let fixed = (value * 65536.0).floor() as i64 as i32;
    let pico8 = p8(c)?;
    for (i, b) in fixed.to_le_bytes().into_iter().enumerate() {
        pico8.poke((at + i) & 0xFFFF, b);
    }
    c.ret(())
}

fn poke(c: &mut Call) -> LuaResult<MultiValue> {
    let at = address(c, 0)?;
    let value = int(c, 1) as u8;
    p8(c)?.poke(at, value);
    c.ret(())
}
