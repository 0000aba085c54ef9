//! Cart API: the audio unit — music and sound effects written in MML.

use mlua::MultiValue;

use crate::audio::CHANNELS;
use crate::meter::Unit;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::cost;

/// What a playing sound costs the audio unit, whichever call started it.
const SOUNDING: &[Cost] = &[
    Cost::later(
        cost::AUDIO_VOICE,
        "per sounding voice",
        Unit::Audio,
        "per vblank",
    ),
    Cost::later(
        cost::AUDIO_COMMAND,
        "per MML command run",
        Unit::Audio,
        "as it plays",
    ),
];

const CHANNEL: Arg = Arg::int("channel", 0, CHANNELS as i64 - 1);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Audio",
    intro: "Music and sound effects are written in MML and declared in `cart.toml` as \
            `[[music]]` and `[[sfx]]` (see `docs/audio.md`). Eight channels are mixed at \
            48 kHz once per vblank, so music keeps its tempo while the game slows down. A \
            sound effect takes a channel and gives it back when it ends; the music on that \
            channel is silent meanwhile.",
    functions: &[
        ApiFn {
            name: "sfx",
            args: &[
                Arg::new("effect", Kind::Any("name, or number from 0")),
                CHANNEL.optional("one the music leaves free"),
            ],
            returns: "channel",
            doc: "Plays a sound effect, named or numbered (0 is the first `[[sfx]]`), on \
                  `channel` (0-7) or on a channel the music leaves free. Returns the channel.",
            cost: SOUNDING,
            call: sfx,
        },
        ApiFn {
            name: "music",
            args: &[Arg::str("name").optional("stops the music")],
            returns: "",
            doc: "Starts the song `name` from its beginning; without a name, stops the music.",
            cost: SOUNDING,
            call: music,
        },
        ApiFn {
            name: "stop",
            args: &[CHANNEL.optional("all sound")],
            returns: "",
            doc: "Stops the sound effect on `channel`; without a channel, stops all sound.",
            cost: &[],
            call: stop,
        },
        ApiFn {
            name: "playing",
            args: &[CHANNEL.optional("the music")],
            returns: "name",
            doc: "The name of the song playing, or with `channel`, of the sound effect on it; \
                  nil when none.",
            cost: &[],
            call: playing,
        },
    ],
    constants: &[],
};

fn sfx(c: &mut Call) -> LuaResult<MultiValue> {
    let index = match c.str_bytes(0) {
        Some(name) => {
            let name = String::from_utf8_lossy(&name);
            c.cart
                .audio
                .sound_index(&name)
                .ok_or_else(|| c.error(format!("the cart has no sound effect \"{name}\"")))?
        }
        _ => {
            let count = c.cart.audio.sounds.len() as i64;
            if count == 0 {
                return Err(c.error("the cart has no sound effects"));
            }
            let n = c.int(0, "effect")?;
            if !(0..count).contains(&n) {
                let range = format!("0..{}", count - 1);
                return Err(c.error(format!("argument 1 (effect) is {n}, must be {range}")));
            }
            n as usize
        }
    };
    let channel = c.opt_int_arg(1)?.map(|n| n as usize);
    let used =
        c.m.audio
            .play_sound(&c.cart.audio, index, channel)
            .map_err(|e| c.error(e))?;
    c.ret(used as i64)
}

fn music(c: &mut Call) -> LuaResult<MultiValue> {
    if let Some(name) = c.opt_str_arg(0)? {
        c.m.audio
            .play_music(&c.cart.audio, &name)
            .map_err(|e| c.error(e))?;
    } else {
        c.m.audio.stop_music();
    }
    c.ret(())
}

fn stop(c: &mut Call) -> LuaResult<MultiValue> {
    match c.opt_int_arg(0)? {
        Some(channel) => c.m.audio.stop_sound(channel as usize),
        None => c.m.audio.stop_all(),
    }
    c.ret(())
}

fn playing(c: &mut Call) -> LuaResult<MultiValue> {
    let name = match c.opt_int_arg(0)? {
        Some(channel) => {
            c.m.audio
                .sound_playing(channel as usize)
                .map(str::to_string)
        }
        None => c.m.audio.music_playing().map(str::to_string),
    };
    c.ret(name)
}
