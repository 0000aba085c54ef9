//! Cart API: the latched buttons of up to four players.

use mlua::{MultiValue, Value};

use crate::input::Button;
use crate::script::call::{ApiFn, ApiGroup, Call, LuaResult};
use crate::spec::PLAYERS;

pub const GROUP: ApiGroup = ApiGroup {
    title: "Input",
    intro: "Buttons are latched once at the start of each machine frame. A button is named by \
            its number or its name: 0 `\"left\"`, 1 `\"right\"`, 2 `\"up\"`, 3 `\"down\"`, \
            4 `\"a\"`, 5 `\"b\"`, 6 `\"x\"`, 7 `\"y\"`, 8 `\"l\"`, 9 `\"r\"`, 10 `\"start\"`, \
            11 `\"select\"`. Players are numbered 0-3 (default 0).",
    functions: &[
        ApiFn {
            name: "btn",
            args: "button, [player]",
            returns: "held",
            doc: "Whether the button is held this frame.",
            cost: &[],
            call: btn,
        },
        ApiFn {
            name: "btnp",
            args: "button, [player]",
            returns: "pressed",
            doc: "Whether the button went down this frame (held now, not in the previous frame).",
            cost: &[],
            call: btnp,
        },
        ApiFn {
            name: "btnword",
            args: "[player]",
            returns: "bits",
            doc: "All buttons of a player as one integer, bit n = button n.",
            cost: &[],
            call: btnword,
        },
    ],
    constants: &[],
};

fn button_and_player(c: &Call) -> LuaResult<(Button, usize)> {
    let button = match c.args.front() {
        Some(Value::String(name)) => {
            let name = name.to_string_lossy();
            Button::from_name(&name)
                .ok_or_else(|| c.error(format!("no button named \"{name}\"")))?
        }
        _ => {
            let index = c.int(0, "button")?;
            Button::from_index(index).ok_or_else(|| c.error(format!("no button {index} (0-11)")))?
        }
    };
    let player = c.opt_int_in(1, "player", 0, PLAYERS as i64 - 1, 0)? as usize;
    Ok((button, player))
}

fn btn(c: &mut Call) -> LuaResult<MultiValue> {
    let (button, player) = button_and_player(c)?;
    c.ret(c.m.input.held(player, button))
}

fn btnp(c: &mut Call) -> LuaResult<MultiValue> {
    let (button, player) = button_and_player(c)?;
    c.ret(c.m.input.pressed(player, button))
}

fn btnword(c: &mut Call) -> LuaResult<MultiValue> {
    let player = c.opt_int_in(0, "player", 0, PLAYERS as i64 - 1, 0)? as usize;
    c.ret(i64::from(c.m.input.current.0[player]))
}
