//! Cart API: save RAM, the cart's battery-backed memory (`docs/state.md`). Number slots for
//! scores and flags, and one plain Lua value (a table of settings, a list of records) encoded
//! compactly. The tables given are read raw: no metamethod runs.

use mlua::{MultiValue, Table, Value};

use crate::meter::Unit;
use crate::saveram::value::{self, MAX_DEPTH, Plain};
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult, type_name};
use crate::spec::{SAVE_SLOTS, SAVE_VALUE_BYTES, cost};

const SLOT: Arg = Arg::int("slot", 0, SAVE_SLOTS as i64 - 1);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Save RAM",
    intro: "Battery-backed memory kept between runs under the cart's `save_id` (see \
            `docs/state.md`): 64 number slots and one plain value. It survives a reset; \
            without a `save_id` it lasts until the console is closed. Headless runs start \
            with it empty unless given `--data DIR`.",
    functions: &[
        ApiFn {
            name: "sd_get",
            args: &[SLOT],
            returns: "n",
            doc: "The number in slot 0-63 (0 if never set). Slots hold 64-bit floats: \
                  integers up to 2^53 come back exactly, as integers.",
            cost: &[Cost::call(cost::SAVE_SLOT, Unit::System)],
            call: sd_get,
        },
        ApiFn {
            name: "sd_set",
            args: &[SLOT, Arg::num("n")],
            returns: "",
            doc: "Stores number `n` in slot 0-63.",
            cost: &[Cost::call(cost::SAVE_SLOT, Unit::System)],
            call: sd_set,
        },
        ApiFn {
            name: "sd_write",
            args: &[Arg::new(
                "value",
                Kind::Value("nil, boolean, number, string or table of them"),
            )],
            returns: "",
            doc: "Stores one plain value after the slots: `nil` (clears it), a boolean, \
                  number, string, or a table of them (keys booleans, numbers or strings; \
                  nested up to 16 deep; no cycles), in at most 3584 bytes encoded (a string \
                  takes its length plus 2, a number up to 10 bytes). An error, storing \
                  nothing, if it does not fit.",
            cost: &[Cost::each(
                cost::SAVE_BYTES,
                "per 8 bytes stored",
                Unit::System,
            )],
            call: sd_write,
        },
        ApiFn {
            name: "sd_read",
            args: &[],
            returns: "value",
            doc: "The value last stored with `sd_write` (a fresh copy), or nil. If the \
                  bytes there are not a value (written by an older cart, say), nil and a \
                  message saying what is wrong.",
            cost: &[Cost::each(
                cost::SAVE_BYTES,
                "per 8 bytes read",
                Unit::System,
            )],
            call: sd_read,
        },
        ApiFn {
            name: "sd_clear",
            args: &[],
            returns: "",
            doc: "Zeroes all of save RAM: every slot and the stored value.",
            cost: &[Cost::call(cost::SAVE_SLOT, Unit::System)],
            call: sd_clear,
        },
    ],
    constants: &[],
};

/// A number as Lua should see it: whole numbers within 2^53 as integers.
fn number_value(n: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if n.fract() == 0.0 && n.abs() <= EXACT {
        Value::Integer(n as i64)
    } else {
        Value::Number(n)
    }
}

fn sd_get(c: &mut Call) -> LuaResult<MultiValue> {
    let slot = c.int_arg(0)?;
    let n = c.m.save.slot(slot).map_err(|e| c.error(e))?;
    c.charge(Unit::System, cost::SAVE_SLOT)?;
    c.ret(number_value(n))
}

fn sd_set(c: &mut Call) -> LuaResult<MultiValue> {
    let slot = c.int_arg(0)?;
    let n = c.num_arg(1)?;
    c.charge(Unit::System, cost::SAVE_SLOT)?;
    c.m.save.set_slot(slot, n).map_err(|e| c.error(e))?;
    c.ret(())
}

fn sd_clear(c: &mut Call) -> LuaResult<MultiValue> {
    c.charge(Unit::System, cost::SAVE_SLOT)?;
    c.m.save.clear();
    c.ret(())
}

/// Cycles for `bytes` of encoded value.
fn bytes_cost(bytes: usize) -> u64 {
    cost::SAVE_BYTES * bytes.div_ceil(8) as u64
}

fn sd_write(c: &mut Call) -> LuaResult<MultiValue> {
    let arg = c.value(0);
    let plain = match arg {
        Value::Nil => None,
        other => {
            let mut room = SAVE_VALUE_BYTES;
            Some(to_plain(&other, 0, &mut room).map_err(|e| c.error(e))?)
        }
    };
    let encoded = value::encode(plain.as_ref());
    if encoded.len() > SAVE_VALUE_BYTES {
        return Err(c.error(crate::saveram::SaveError::TooBig(encoded.len())));
    }
    c.charge(Unit::System, bytes_cost(encoded.len()))?;
    c.m.save.set_value_area(&encoded).map_err(|e| c.error(e))?;
    c.ret(())
}

fn sd_read(c: &mut Call) -> LuaResult<MultiValue> {
    let area = c.m.save.value_area();
    let decoded = value::decode(area);
    let used = match &decoded {
        Ok(Some(plain)) => plain.encoded_len(),
        _ => 1,
    };
    c.charge(Unit::System, bytes_cost(used))?;
    match decoded {
        Ok(None) => c.ret(Value::Nil),
        Ok(Some(plain)) => {
            let value = to_lua(c.lua, &plain)?;
            c.ret(value)
        }
        Err(why) => c.ret((Value::Nil, format!("save RAM holds no value: {why}"))),
    }
}

/// Converts a Lua value, counting down `room` (bytes left) so a huge or cyclic table stops
/// early; tables are read raw.
fn to_plain(value: &Value, depth: usize, room: &mut usize) -> Result<Plain, String> {
    let plain = match value {
        Value::Boolean(b) => Plain::Bool(*b),
        Value::Integer(i) => Plain::Int(*i),
        Value::Number(n) if n.is_finite() => Plain::Float(*n),
        Value::Number(n) => {
            return Err(format!(
                "sd_write stores finite numbers, not {}",
                crate::script::call::non_finite_name(*n)
            ));
        }
        Value::String(s) => Plain::Str(s.as_bytes().to_vec()),
        Value::Table(t) => return table_to_plain(t, depth, room),
        other => {
            return Err(format!(
                "sd_write stores booleans, numbers, strings and tables, not a {}",
                type_name(other)
            ));
        }
    };
    take_room(room, plain.encoded_len())?;
    Ok(plain)
}

fn take_room(room: &mut usize, bytes: usize) -> Result<(), String> {
    *room = room.checked_sub(bytes).ok_or_else(|| {
        format!("the value does not fit in the {SAVE_VALUE_BYTES} bytes of save RAM for it")
    })?;
    Ok(())
}

fn table_to_plain(table: &Table, depth: usize, room: &mut usize) -> Result<Plain, String> {
    if depth >= MAX_DEPTH {
        return Err(format!(
            "tables nested deeper than {MAX_DEPTH} (a table that holds itself?)"
        ));
    }
    take_room(room, 2)?;
    let mut pairs = Vec::new();
    let mut failure = None;
    let walked = table.for_each(|k: Value, v: Value| {
        let pair = (|| {
            if matches!(k, Value::Table(_)) {
                return Err("table keys must be booleans, numbers or strings".to_string());
            }
            let key = to_plain(&k, depth + 1, room)?;
            let value = to_plain(&v, depth + 1, room)?;
            Ok((key, value))
        })();
        match pair {
            Ok(pair) => {
                pairs.push(pair);
                Ok(())
            }
            Err(why) => {
                failure = Some(why);
                Err(mlua::Error::runtime("stop"))
            }
        }
    });
    if let Some(why) = failure {
        return Err(why);
    }
    walked.map_err(|e| e.to_string())?;
    Ok(Plain::Table(pairs))
}

fn to_lua(lua: &mlua::Lua, plain: &Plain) -> LuaResult<Value> {
    Ok(match plain {
        Plain::Bool(b) => Value::Boolean(*b),
        Plain::Int(i) => Value::Integer(*i),
        Plain::Float(f) => Value::Number(*f),
        Plain::Str(s) => Value::String(lua.create_string(s)?),
        Plain::Table(pairs) => {
            let table = lua.create_table_with_capacity(0, pairs.len())?;
            for (k, v) in pairs {
                table.raw_set(to_lua(lua, k)?, to_lua(lua, v)?)?;
            }
            Value::Table(table)
        }
    })
}
