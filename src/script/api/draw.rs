//! Cart API: immediate drawing — text and shapes drawn on the drawing plane for one frame.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::cost;
use crate::video::overlay::glyph_count;

pub const GROUP: ApiGroup = ApiGroup {
    title: "Drawing",
    intro: "Text and shapes drawn for one frame only. Colours are full palette indices \
            (palette * 16 + colour).",
    functions: &[
        ApiFn {
            name: "print",
            args: "text, x, y, [color]",
            returns: "x_end",
            doc: "Draws `text` with the system font on the overlay at (x, y), in front of \
                  everything, for this frame only. `\\n` starts a new line. Colour defaults to \
                  15. Returns the x after the last character.",
            cost: &[Cost::each(cost::GLYPH, "per character", Unit::Video)],
            call: print,
        },
        ApiFn {
            name: "rectfill",
            args: "x0, y0, x1, y1, color",
            returns: "",
            doc: "Fills a rectangle (corners included) on the overlay, for this frame.",
            cost: &[Cost::each(
                cost::OVERLAY_SPAN,
                "per 8 pixels on screen",
                Unit::Video,
            )],
            call: rectfill,
        },
        ApiFn {
            name: "rect",
            args: "x0, y0, x1, y1, color",
            returns: "",
            doc: "Draws a rectangle's outline on the overlay, for this frame.",
            cost: &[Cost::each(
                cost::OVERLAY_SPAN,
                "per 8 pixels on screen",
                Unit::Video,
            )],
            call: rect,
        },
        ApiFn {
            name: "line",
            args: "x0, y0, x1, y1, color",
            returns: "",
            doc: "Draws a line (both ends included) on the overlay, for this frame.",
            cost: &[Cost::each(
                cost::OVERLAY_SPAN,
                "per 8 pixels of length",
                Unit::Video,
            )],
            call: line,
        },
        ApiFn {
            name: "pset",
            args: "x, y, color",
            returns: "",
            doc: "Sets one overlay pixel, for this frame.",
            cost: &[Cost::each(cost::OVERLAY_SPAN, "if on screen", Unit::Video)],
            call: pset,
        },
    ],
    constants: &[],
};

fn color_arg(c: &Call, i: usize) -> LuaResult<u8> {
    Ok(c.int_in(i, "color", 0, 255)? as u8)
}

fn print(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (c.coord(1, "x")?, c.coord(2, "y")?);
    let color = if c.is_nil(3) { 15 } else { color_arg(c, 3)? };
    // Charged before the text is copied or drawn: a text too long for the cap stops here.
    let glyphs = match c.args.front() {
        Some(mlua::Value::String(s)) => glyph_count(&s.as_bytes()),
        _ => glyph_count(c.string(0, "text")?.as_bytes()),
    };
    c.charge(Unit::Video, glyphs * cost::GLYPH)?;
    let text = c.string(0, "text")?;
    c.m.video.overlay.print(&text, x, y, color);
    let last_line = text.rsplit('\n').next().unwrap_or("");
    c.ret(i64::from(x) + last_line.len() as i64 * 8)
}

/// Runs an overlay shape command with arguments (x0, y0, x1, y1, color).
fn shape(
    c: &mut Call,
    draw: fn(&mut crate::video::overlay::Overlay, i32, i32, i32, i32, u8) -> u64,
) -> LuaResult<MultiValue> {
    let (x0, y0) = (c.coord(0, "x0")?, c.coord(1, "y0")?);
    let (x1, y1) = (c.coord(2, "x1")?, c.coord(3, "y1")?);
    let color = color_arg(c, 4)?;
    let spans = draw(&mut c.m.video.overlay, x0, y0, x1, y1, color);
    c.charge(Unit::Video, spans * cost::OVERLAY_SPAN)?;
    c.ret(())
}

fn rectfill(c: &mut Call) -> LuaResult<MultiValue> {
    shape(c, crate::video::overlay::Overlay::fill_rect)
}

fn rect(c: &mut Call) -> LuaResult<MultiValue> {
    shape(c, crate::video::overlay::Overlay::rect)
}

fn line(c: &mut Call) -> LuaResult<MultiValue> {
    shape(c, crate::video::overlay::Overlay::line)
}

fn pset(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = (c.coord(0, "x")?, c.coord(1, "y")?);
    let color = color_arg(c, 2)?;
    let spans = c.m.video.overlay.pixel(x, y, color);
    c.charge(Unit::Video, spans * cost::OVERLAY_SPAN)?;
    c.ret(())
}
