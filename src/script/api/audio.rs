//! Cart API: the audio unit — music and sound effects written in MML.

use mlua::{MultiValue, Value};

use crate::audio::CHANNELS;
use crate::meter::Unit;
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

pub const GROUP: ApiGroup = ApiGroup {
    title: "Audio",
    intro: "Music and sound effects are written in MML and declared in `cart.toml` as \
            `[[music]]` and `[[sfx]]` (see `docs/audio.md`). Eight channels are mixed at \
            48 kHz once per vblank, so music keeps its tempo while the game slows down. A \
            sound effect takes a channel and gives it back when it ends; the music on that \
            channel is silent meanwhile.",
    functions: &[
        ApiFn {
            name: "sfx",
            args: "effect, [channel]",
            returns: "channel",
            doc: "Plays a sound effect, named or numbered (0 is the first `[[sfx]]`), on \
                  `channel` (0-7) or on a channel the music leaves free. Returns the channel.",
            cost: SOUNDING,
            call: sfx,
        },
        ApiFn {
            name: "music",
            args: "[name]",
            returns: "",
            doc: "Starts the song `name` from its beginning; without a name, stops the music.",
            cost: SOUNDING,
            call: music,
        },
        ApiFn {
            name: "stop",
            args: "[channel]",
            returns: "",
            doc: "Stops the sound effect on `channel`; without a channel, stops all sound.",
            cost: &[],
            call: stop,
        },
        ApiFn {
            name: "playing",
            args: "[channel]",
            returns: "name",
            doc: "The name of the song playing, or with `channel`, of the sound effect on it; \
                  nil when none.",
            cost: &[],
            call: playing,
        },
    ],
    constants: &[],
};

fn channel_arg(c: &Call, i: usize) -> LuaResult<usize> {
    Ok(c.int_in(i, "channel", 0, CHANNELS as i64 - 1)? as usize)
}

fn sfx(c: &mut Call) -> LuaResult<MultiValue> {
    let index = match c.args.front() {
        Some(Value::String(name)) => {
            let name = name.to_string_lossy();
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
            c.int_in(0, "effect", 0, count - 1)? as usize
        }
    };
    let channel = if c.is_nil(1) {
        None
    } else {
        Some(channel_arg(c, 1)?)
    };
    let used =
        c.m.audio
            .play_sound(&c.cart.audio, index, channel)
            .map_err(|e| c.error(e))?;
    c.ret(used as i64)
}

fn music(c: &mut Call) -> LuaResult<MultiValue> {
    if c.is_nil(0) {
        c.m.audio.stop_music();
    } else {
        let name = c.string(0, "name")?;
        c.m.audio
            .play_music(&c.cart.audio, &name)
            .map_err(|e| c.error(e))?;
    }
    c.ret(())
}

fn stop(c: &mut Call) -> LuaResult<MultiValue> {
    if c.is_nil(0) {
        c.m.audio.stop_all();
    } else {
        let channel = channel_arg(c, 0)?;
        c.m.audio.stop_sound(channel);
    }
    c.ret(())
}

fn playing(c: &mut Call) -> LuaResult<MultiValue> {
    let name = if c.is_nil(0) {
        c.m.audio.music_playing().map(str::to_string)
    } else {
        let channel = channel_arg(c, 0)?;
        c.m.audio.sound_playing(channel).map(str::to_string)
    };
    c.ret(name)
}
