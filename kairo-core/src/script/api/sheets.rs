//! Cart API: the frames and tags of sheets read from Aseprite files, and a helper that plays
//! a tag at the file's frame durations.

use mlua::MultiValue;

use crate::cart::art::SheetAnimation;
use crate::cart::art::aseprite::{Direction, Tag};
use crate::cart::map::frames_of_ms;
use crate::meter::Unit;
use crate::script::api::common::name;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::cost;

const FILE: Arg = name("file");

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Aseprite sheets",
    intro: "A `[[sheet]]` read from an Aseprite file (`.aseprite` or `.ase`, see \
            `docs/cart-format.md`) keeps its frames and tags. `file` is the sheet's `file` \
            as `cart.toml` gives it. Frames are numbered from 0, left to right, as Aseprite \
            shows them from 1. Durations become machine frames as Tiled's tile animations \
            do: milliseconds x 60 / 1000, rounded, at least 1.",
    functions: &[
        ApiFn {
            name: "sheet_tags",
            args: &[FILE],
            returns: "tags",
            doc: "A new array of the file's tags, each `{name, from, to, direction, times}`: \
                  frames `from`-`to` (0-based, inclusive), `direction` `\"forward\"`, \
                  `\"reverse\"`, `\"pingpong\"` or `\"pingpong_reverse\"`, `times` how many \
                  times it plays (Aseprite's Repeat; 0: for ever).",
            cost: &[Cost::each(cost::MAP_OBJECT, "per tag", Unit::Script)],
            call: sheet_tags,
        },
        ApiFn {
            name: "sheet_frames",
            args: &[FILE],
            returns: "frames, w, h",
            doc: "A new array of the file's frames, each `{tile, pal, ms, frames}`: the \
                  pattern tile its top-left 8x8 pixels landed on and their palette (what \
                  `spr` takes), its duration in milliseconds and in machine frames; and the \
                  size of every frame in pixels, padded to the tile grid (a 12x14 sprite \
                  gives 16, 16: `spr(i, x, y, f.tile, 2, f.pal)`).",
            cost: &[Cost::each(cost::MAP_OBJECT, "per frame", Unit::Script)],
            call: sheet_frames,
        },
        ApiFn {
            name: "sheet_anim",
            args: &[FILE, Arg::str("tag"), Arg::new("t", Kind::Integer)],
            returns: "tile, pal, frame, done",
            doc: "The frame tag `tag` shows `t` machine frames after it started, at the \
                  file's durations and in the tag's direction: its pattern tile, palette, \
                  frame number, and whether the tag has finished its `times` plays (then it \
                  holds its last frame). A tag that repeats for ever loops; ping-pong tags go \
                  there and back without showing the end frames twice. Count `t` yourself \
                  (0 when the animation starts) so it stops with your game.",
            cost: &[Cost::each(
                cost::ANIM_FRAME,
                "per frame of the tag",
                Unit::Script,
            )],
            call: sheet_anim,
        },
    ],
    constants: &[],
};

/// Names joined by commas, or "none".
fn listed<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

fn sheet_arg<'c>(c: &Call<'c>) -> LuaResult<&'c SheetAnimation> {
    let file = c.str_arg(0)?;
    let cart = c.cart;
    cart.sheets.get(&file).ok_or_else(|| {
        let known = listed(cart.sheets.keys().map(String::as_str));
        c.error(format!(
            "the cart has no Aseprite [[sheet]] \"{file}\" (its Aseprite sheets: {known})"
        ))
    })
}

fn sheet_tags(c: &mut Call) -> LuaResult<MultiValue> {
    let sheet = sheet_arg(c)?;
    let list = c.lua.create_table_with_capacity(sheet.tags.len(), 0)?;
    for tag in &sheet.tags {
        let entry = c.lua.create_table_with_capacity(0, 5)?;
        entry.raw_set("name", tag.name.as_str())?;
        entry.raw_set("from", tag.from as i64)?;
        entry.raw_set("to", tag.to as i64)?;
        entry.raw_set("direction", tag.direction.name())?;
        entry.raw_set("times", i64::from(tag.repeat))?;
        list.raw_push(entry)?;
    }
    c.charge(Unit::Script, cost::MAP_OBJECT * sheet.tags.len() as u64)?;
    c.ret(list)
}

fn sheet_frames(c: &mut Call) -> LuaResult<MultiValue> {
    let sheet = sheet_arg(c)?;
    let list = c.lua.create_table_with_capacity(sheet.frames.len(), 0)?;
    for frame in &sheet.frames {
        let entry = c.lua.create_table_with_capacity(0, 4)?;
        entry.raw_set("tile", i64::from(frame.tile))?;
        entry.raw_set("pal", i64::from(frame.palette))?;
        entry.raw_set("ms", i64::from(frame.ms))?;
        entry.raw_set("frames", i64::from(frames_of_ms(u32::from(frame.ms))))?;
        list.raw_push(entry)?;
    }
    c.charge(Unit::Script, cost::MAP_OBJECT * sheet.frames.len() as u64)?;
    c.ret((list, sheet.cell.0 as i64, sheet.cell.1 as i64))
}

fn sheet_anim(c: &mut Call) -> LuaResult<MultiValue> {
    let sheet = sheet_arg(c)?;
    let wanted = c.str_arg(1)?;
    let t = c.int_arg(2)?.max(0) as u64;
    let tag = sheet
        .tags
        .iter()
        .find(|t| t.name == wanted)
        .ok_or_else(|| {
            let known = listed(sheet.tags.iter().map(|t| t.name.as_str()));
            c.error(format!(
                "the sheet has no tag \"{wanted}\" (its tags: {known})"
            ))
        })?;
    let duration = |f: usize| u64::from(frames_of_ms(u32::from(sheet.frames[f].ms)));
    let (frame, done) = tag_frame_at(duration, tag, t);
    c.charge(
        Unit::Script,
        cost::ANIM_FRAME * (tag.to - tag.from + 1) as u64,
    )?;
    let shown = sheet.frames[frame];
    c.ret((
        i64::from(shown.tile),
        i64::from(shown.palette),
        frame as i64,
        done,
    ))
}

/// The frame `tag` shows `t` machine frames after it started, given each frame's duration
/// in machine frames (`duration(frame)`, at least 1), and whether it has finished its plays.
/// The first pass plays the tag in its direction; a ping-pong tag's later passes turn round
/// without showing the turning frame twice; every pass counts as one play of `repeat`.
pub(crate) fn tag_frame_at(duration: impl Fn(usize) -> u64, tag: &Tag, t: u64) -> (usize, bool) {
    let forward: Vec<usize> = (tag.from..=tag.to).collect();
    let backward: Vec<usize> = forward.iter().rev().copied().collect();
    let (first, odd, even): (&[usize], &[usize], &[usize]) = match tag.direction {
        Direction::Forward => (&forward, &forward, &forward),
        Direction::Reverse => (&backward, &backward, &backward),
        Direction::PingPong => (&forward, &backward[1..], &forward[1..]),
        Direction::PingPongReverse => (&backward, &forward[1..], &backward[1..]),
    };
    let length = |pass: &[usize]| pass.iter().map(|&f| duration(f)).sum::<u64>();
    let locate = |pass: &[usize], mut t: u64| {
        for &f in pass {
            if t < duration(f) {
                return f;
            }
            t -= duration(f);
        }
        pass[pass.len() - 1]
    };
    let repeat = u64::from(tag.repeat);
    let last_of = |pass: u64| -> usize {
        let list = match pass {
            0 => first,
            p if p % 2 == 1 => odd,
            _ => even,
        };
        list.last().copied().unwrap_or(first[first.len() - 1])
    };
    if t < length(first) {
        return (locate(first, t), false);
    }
    if repeat == 1 {
        return (last_of(0), true);
    }
    let t = t - length(first);
    let (odd_length, cycle) = (length(odd), length(odd) + length(even));
    if cycle == 0 {
        // A ping-pong over one frame: every pass shows just it.
        return (first[0], repeat > 0);
    }
    let within = t % cycle;
    let pass = 1 + 2 * (t / cycle) + u64::from(within >= odd_length);
    if repeat > 0 && pass >= repeat {
        return (last_of(repeat - 1), true);
    }
    if within < odd_length {
        (locate(odd, within), false)
    } else {
        (locate(even, within - odd_length), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(from: usize, to: usize, direction: Direction, repeat: u16) -> Tag {
        Tag {
            name: "t".into(),
            from,
            to,
            direction,
            repeat,
        }
    }

    /// The frames shown over `n` machine frames.
    fn shown(durations: &[u64], tag: &Tag, n: u64) -> Vec<usize> {
        (0..n).map(|t| at(durations, tag, t).0).collect()
    }

    /// [`tag_frame_at`] over a list of durations.
    fn at(durations: &[u64], tag: &Tag, t: u64) -> (usize, bool) {
        tag_frame_at(|f| durations[f], tag, t)
    }

    #[test]
    fn each_direction_plays_its_frames_in_order_for_their_durations() {
        let d = [1, 2, 1, 1];
        let t = tag(1, 3, Direction::Forward, 0);
        assert_eq!(shown(&d, &t, 8), [1, 1, 2, 3, 1, 1, 2, 3]);
        let t = tag(1, 3, Direction::Reverse, 0);
        assert_eq!(shown(&d, &t, 8), [3, 2, 1, 1, 3, 2, 1, 1]);
        let d = [1; 4];
        let t = tag(0, 3, Direction::PingPong, 0);
        assert_eq!(shown(&d, &t, 10), [0, 1, 2, 3, 2, 1, 0, 1, 2, 3]);
        let t = tag(0, 3, Direction::PingPongReverse, 0);
        assert_eq!(shown(&d, &t, 10), [3, 2, 1, 0, 1, 2, 3, 2, 1, 0]);
        let t = tag(2, 2, Direction::PingPong, 0);
        assert_eq!(shown(&d, &t, 3), [2, 2, 2]);
    }

    #[test]
    fn a_tag_with_repeats_stops_on_its_last_pass_and_says_so() {
        let d = [1; 3];
        let t = tag(0, 2, Direction::Forward, 2);
        assert_eq!(shown(&d, &t, 8), [0, 1, 2, 0, 1, 2, 2, 2]);
        assert!(!at(&d, &t, 5).1);
        assert!(at(&d, &t, 6).1);
        // Ping-pong: there (pass 1) and back (pass 2), then it holds the first frame.
        let t = tag(0, 2, Direction::PingPong, 2);
        assert_eq!(shown(&d, &t, 7), [0, 1, 2, 1, 0, 0, 0]);
        assert!(at(&d, &t, 5).1 && !at(&d, &t, 4).1);
        let t = tag(0, 2, Direction::PingPong, 1);
        assert_eq!(shown(&d, &t, 5), [0, 1, 2, 2, 2]);
        let t = tag(0, 2, Direction::PingPong, 3);
        assert_eq!(shown(&d, &t, 9), [0, 1, 2, 1, 0, 1, 2, 2, 2]);
    }
}
