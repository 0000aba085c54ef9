//! The PICO-8 API's sound (`sfx`, `music`) on PICO-8's sound chip ([`crate::pico8::sound`]):
//! the sound effects and patterns in PICO-8's memory, which the cart's `[pico8] sound` file
//! fills at power-on and `poke` can change.

use mlua::MultiValue;

use super::pico8::{int, p8};
use crate::meter::Unit;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::cost;

/// What a playing channel costs the audio unit, whichever call started it.
const SOUNDING: &[Cost] = &[Cost::later(
    cost::PICO8_SOUND_CHANNEL,
    "per sounding channel",
    Unit::Audio,
    "per vblank",
)];

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "PICO-8: sound",
    intro: "On a `[pico8]` cart only. PICO-8's sound chip: 4 channels playing the 64 sound \
            effects at 0x3200 and the 64 music patterns at 0x3100 at 22,050 Hz, mixed into \
            Kairo's audio each vblank (see `docs/hardware.md`, \"The PICO-8 sound chip\").",
    functions: &[
        ApiFn {
            name: "sfx",
            args: &[
                Arg::new("n", Kind::Integer),
                Arg::new("channel", Kind::Integer).or_int(-1),
                Arg::new("offset", Kind::Integer).or_int(0),
                Arg::new("length", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Plays sound effect `n` (0-63) on `channel` (0-3; -1: the first silent one \
                  outside the music's mask), from note `offset`, for `length` notes (0: to its \
                  end). `n` -1 stops `channel` (-1: every sound effect); -2 lets its loop run \
                  out; `channel` -2 stops `n` wherever it plays. Other `n` play nothing.",
            cost: SOUNDING,
            call: sfx,
        },
        ApiFn {
            name: "music",
            args: &[
                Arg::new("n", Kind::Integer).or_int(0),
                Arg::new("fade_ms", Kind::Integer).or_int(0),
                Arg::new("mask", Kind::Integer).or_int(0),
            ],
            returns: "",
            doc: "Plays the music from pattern `n` (0-63), fading in over `fade_ms`, keeping \
                  the channels of `mask` (bit c: channel c) from sound effects without a \
                  channel. `n` -1 stops it, fading out over `fade_ms`.",
            cost: SOUNDING,
            call: music,
        },
    ],
    constants: &[],
};

fn sfx(c: &mut Call) -> LuaResult<MultiValue> {
    let (n, channel, offset, length) = (int(c, 0), int(c, 1), int(c, 2), int(c, 3));
    p8(c)?.sfx(n, channel, offset, length);
    c.ret(())
}

fn music(c: &mut Call) -> LuaResult<MultiValue> {
    let (n, fade, mask) = (int(c, 0), int(c, 1), int(c, 2));
    p8(c)?.music(n, fade, mask);
    c.ret(())
}
