//! Cart API: the latched buttons of up to four players.

use mlua::MultiValue;

use crate::input::{Button, Repeat};
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, LuaResult};
use crate::spec::PLAYERS;

const PLAYER: Arg = Arg::int("player", 0, PLAYERS as i64 - 1).or_int(0);
const BUTTON_AND_PLAYER: &[Arg] = &[
    Arg::new("button", Kind::Any("button number 0-11 or name")),
    PLAYER,
];

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Input",
    intro: "Buttons are latched once at the start of each machine frame. A button is named by \
            its number or its name: 0 `\"left\"`, 1 `\"right\"`, 2 `\"up\"`, 3 `\"down\"`, \
            4 `\"a\"`, 5 `\"b\"`, 6 `\"x\"`, 7 `\"y\"`, 8 `\"l\"`, 9 `\"r\"`, 10 `\"start\"`, \
            11 `\"select\"`. Players are numbered 0-3 (default 0). `btnp` repeats like \
            PICO-8's: true on the frame a button goes down, then, while it stays held, again \
            15 frames later and every 4 frames after that (on frames 0, 15, 19, 23, ... of \
            the hold), counted in machine frames. `btnp_repeat` changes the two numbers or \
            turns repeat off; `btn` never repeats.",
    functions: &[
        ApiFn {
            name: "btn",
            args: BUTTON_AND_PLAYER,
            returns: "held",
            doc: "Whether the button is held this frame.",
            cost: &[],
            call: btn,
        },
        ApiFn {
            name: "btnp",
            args: BUTTON_AND_PLAYER,
            returns: "pressed",
            doc: "Whether the button went down this frame (held now, not in the previous \
                  frame), or has been held long enough to repeat: after 15 frames, then every 4 \
                  (see `btnp_repeat`).",
            cost: &[],
            call: btnp,
        },
        ApiFn {
            name: "btnp_repeat",
            args: &[
                Arg::int("delay", 0, 255),
                Arg::int("period", 0, 255).or_int(crate::spec::BTNP_REPEAT_PERIOD as i64),
            ],
            returns: "",
            doc: "Sets `btnp`'s auto-repeat for every button and player: a held button reads as \
                  pressed again `delay` frames after it went down, then every `period` frames \
                  (each 0-255; period defaults to 4). 0 for either turns repeat off, so `btnp` \
                  is only the frame the button went down (for a jump or a bomb). Power-on: 15, \
                  4. Part of the machine state, like the buttons.",
            cost: &[],
            call: btnp_repeat,
        },
        ApiFn {
            name: "btnword",
            args: &[PLAYER],
            returns: "bits",
            doc: "All buttons of a player as one integer, bit n = button n.",
            cost: &[],
            call: btnword,
        },
    ],
    constants: &[],
};

fn button_and_player(c: &Call) -> LuaResult<(Button, usize)> {
    let button = match c.str_bytes(0) {
        Some(name) => {
            let name = String::from_utf8_lossy(&name);
            Button::from_name(&name)
                .ok_or_else(|| c.error(format!("no button named \"{name}\"")))?
        }
        _ => {
            let index = c.int(0, "button")?;
            Button::from_index(index).ok_or_else(|| c.error(format!("no button {index} (0-11)")))?
        }
    };
    let player = c.int_arg(1)? as usize;
    Ok((button, player))
}

fn btn(c: &mut Call) -> LuaResult<MultiValue> {
    let (button, player) = button_and_player(c)?;
    c.ret(c.m.input.held(player, button))
}

fn btnp(c: &mut Call) -> LuaResult<MultiValue> {
    let (button, player) = button_and_player(c)?;
    c.ret(c.m.input.pressed_or_repeated(player, button))
}

fn btnp_repeat(c: &mut Call) -> LuaResult<MultiValue> {
    let delay = c.int_arg(0)? as u8;
    let period = c.int_arg(1)? as u8;
    c.m.input.repeat = Repeat { delay, period };
    c.ret(())
}

fn btnword(c: &mut Call) -> LuaResult<MultiValue> {
    let player = c.int_arg(0)? as usize;
    c.ret(i64::from(c.m.input.current.0[player]))
}

#[cfg(test)]
mod tests {
    use crate::spec::{BTNP_REPEAT_DELAY, BTNP_REPEAT_PERIOD};

    #[test]
    fn the_docs_give_the_btnp_repeat_of_the_spec() {
        let (delay, period) = (BTNP_REPEAT_DELAY, BTNP_REPEAT_PERIOD);
        let intro = super::GROUP.intro;
        assert!(intro.contains(&format!(
            "again {delay} frames later and every {period} frames after that (on frames 0, \
             {delay}, {}, {}, ... of the hold)",
            delay + period,
            delay + 2 * period
        )));
        let docs: Vec<&str> = super::GROUP.functions.iter().map(|f| f.doc).collect();
        assert!(docs[1].contains(&format!("after {delay} frames, then every {period}")));
        assert!(docs[2].contains(&format!("Power-on: {delay}, {period}.")));
    }
}
