//! The PICO-8 API's `menuitem`: a cart's own items in the window's pause menu. The labels
//! are PICO-8 state ([`crate::pico8::Pico8::menu_items`], for the window to list); the
//! callbacks stay in the Lua state, in a registry table, so states and rewind keep both.
//! A choice reaches the cart through its input (see [`crate::input::menu_choice`]).

use mlua::{MultiValue, Table, Value};

use super::pico8::{opt_int, p8};
use crate::pico8::MENU_ITEMS;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, LuaResult};

/// The registry key of the table of callbacks, by item number.
pub(crate) const CALLBACKS: &str = "kairo.pico8.menu";
/// The longest label PICO-8 shows.
const LABEL_CHARS: usize = 16;

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "PICO-8: pause menu",
    intro: "On a `[pico8]` cart only. Items 1-5 of the window's pause menu, under Resume.",
    functions: &[ApiFn {
        name: "menuitem",
        args: &[
            Arg::new("index", Kind::Integer),
            Arg::new("label", Kind::Value("string, or nil to remove the item")).optional("nil"),
            Arg::new("callback", Kind::Value("function")).optional("nil"),
        ],
        returns: "",
        doc: "Adds item `index` (1-5; higher bits are PICO-8's button flags, ignored) to the \
              pause menu with `label` (its first 16 characters), or removes it when `label` is \
              nil. Choosing it calls `callback(b)` before the next `_update`, with `b` = 32 \
              (chosen with a button). The choice is part of the input: movies and netplay \
              replay it (`--press menu1`).",
        cost: &[],
        call: menuitem,
    }],
    constants: &[],
};

fn menuitem(c: &mut Call) -> LuaResult<MultiValue> {
    let index = opt_int(c, 0).unwrap_or(0) & 0xFF;
    if !(1..=MENU_ITEMS as i64).contains(&index) {
        return c.ret(());
    }
    let label = match c.value(1) {
        Value::Nil => None,
        Value::String(s) => Some(s.to_string_lossy()),
        other => Some(crate::script::stack::type_name(&other).to_string()),
    };
    let label = label.map(|l| l.chars().take(LABEL_CHARS).collect::<String>());
    let callback = match (&label, c.value(2)) {
        (Some(_), Value::Function(f)) => Value::Function(f),
        _ => Value::Nil,
    };
    let callbacks = match c.lua.named_registry_value::<Option<Table>>(CALLBACKS)? {
        Some(table) => table,
        None => {
            let table = c.lua.create_table()?;
            c.lua.set_named_registry_value(CALLBACKS, &table)?;
            table
        }
    };
    callbacks.raw_set(index, callback)?;
    p8(c)?.menu[index as usize - 1] = label;
    c.ret(())
}
