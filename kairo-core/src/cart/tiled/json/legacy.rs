//! Tiled's JSON as it was before Tiled 1.2 (`"version": 1` or `1.1`), and as Tiled's
//! "JSON map files [Tiled 1.1]" export (the `json1` plugin) still writes it, read the way
//! Tiled's own reader (libtiled's `VariantToMapConverter`) reads it:
//!
//! - properties are one object `{"name": value}`, with their types in a sibling object
//!   `propertytypes` (`{"name": "bool"}`, written since Tiled 0.16; older files have none, and
//!   the type is then the JSON value's own);
//! - a tileset's tile properties are in `tileproperties` and `tilepropertytypes`, objects keyed
//!   by tile id (`{"17": {"solid": true}}`);
//! - a tileset's `tiles` is an object keyed by tile id (`{"17": {"animation": [...]}}`) rather
//!   than an array of tiles with an `id`.
//!
//! Kairo keeps every property as text (see `Properties`): a typed value becomes the text a
//! current Tiled saves for it (`true`/`false`, `3`, `0.5`), converted as Tiled converts it.
//! What Tiled would silently turn into something else (a `bool` property holding `"maybe"`, an
//! `int` holding `2.5`, a tile id `"abc"`) is refused, naming the file, the place and the
//! property.

use serde_json::{Map as JsonObject, Value};

use super::At;
use crate::cart::CartError;
use crate::cart::tiled::{Properties, TileData};

/// The types Tiled writes in `propertytypes` (`object` since 1.4, `class` since 1.8, `list`
/// since 1.11, all only from the `json1` export).
const TYPES: &str = "string, bool, int, float, color, file, object or class";

/// Reads properties written as one object, typed by `types` (the sibling `propertytypes`, if
/// any). `what` names them in errors (`properties`, `tileproperties["17"]`).
pub(super) fn properties(
    at: &At,
    what: &str,
    values: &JsonObject<String, Value>,
    types: Option<&Value>,
) -> Result<Properties, CartError> {
    let types = match types {
        None => None,
        Some(Value::Object(types)) => Some(types),
        Some(other) => {
            return Err(at.error(format!(
                "the property types of {what} are {other}, not an object of type names"
            )));
        }
    };
    let mut out = Properties::new();
    for (name, value) in values {
        let kind = match types.and_then(|t| t.get(name)) {
            None | Some(Value::Null) => None,
            Some(Value::String(kind)) => Some(kind.as_str()),
            Some(other) => {
                return Err(at.error(format!(
                    "{what}: the type of property `{name}` is {other}, not a type name"
                )));
            }
        };
        typed(value, kind, name, &mut out).map_err(|problem| {
            at.error(format!(
                "{what}: property `{name}` {problem}: fix it in the file, or open the file in Tiled and save it"
            ))
        })?;
    }
    Ok(out)
}

/// Puts property `name` of type `kind` (`None`: the JSON value's own) into `out`, or says
/// what is wrong with it.
fn typed(
    value: &Value,
    kind: Option<&str>,
    name: &str,
    out: &mut Properties,
) -> Result<(), String> {
    let text = match (kind, value) {
        // A class (Tiled 1.8+ through `json1`): its members, their types lost by the format,
        // as `name.member`; the class's own name is not in the file.
        (None | Some("class"), Value::Object(members)) => {
            out.insert(name.to_string(), String::new());
            for (member, value) in members {
                typed(value, None, &format!("{name}.{member}"), out)?;
            }
            return Ok(());
        }
        (Some("class"), other) => return Err(format!("is a class but holds {other}")),
        (_, Value::Array(_)) => {
            return Err(
                "is a list, whose items' types this form of the file does not keep".to_string(),
            );
        }
        (_, Value::Object(_)) => {
            return Err(format!(
                "is typed {} but holds an object",
                kind.unwrap_or("")
            ));
        }
        (None, value) => inferred(value),
        (Some("string"), Value::Null) => String::new(),
        (Some("string"), value) => inferred(value),
        (Some("bool"), value) => boolean(value)?.to_string(),
        (Some("int" | "object"), value) => integer(value)?.to_string(),
        (Some("float"), value) => float(value)?,
        (Some("color" | "file"), Value::String(text)) => text.clone(),
        (Some(kind @ ("color" | "file")), other) => {
            return Err(format!("is typed {kind} but holds {other}, not a string"));
        }
        (Some(kind), _) => {
            return Err(format!(
                "has type `{kind}`, which is not one Tiled writes ({TYPES})"
            ));
        }
    };
    out.insert(name.to_string(), text);
    Ok(())
}

/// A value with no declared type, as text: its JSON type is its type.
fn inferred(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => n.as_f64().map(number).unwrap_or_default(),
        Value::Number(n) => n.to_string(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A floating-point number as Tiled saves it: `3` for 3.0, `0.5`.
fn number(value: f64) -> String {
    format!("{value}")
}

/// A `bool` property: JSON booleans, and the text and numbers Qt converts unambiguously.
fn boolean(value: &Value) -> Result<bool, String> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) => match n.as_f64() {
            Some(0.0) => Ok(false),
            Some(1.0) => Ok(true),
            _ => Err(format!("is typed bool but holds {n}, not 0 or 1")),
        },
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" | "" => Ok(false),
            _ => Err(format!(
                "is typed bool but holds \"{s}\", not true or false"
            )),
        },
        other => Err(format!("is typed bool but holds {other}")),
    }
}

/// An `int` (or `object`, an object id) property: a whole number that fits 32 bits.
fn integer(value: &Value) -> Result<i64, String> {
    let whole = match value {
        Value::Bool(b) => Some(i64::from(*b)),
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    whole
        .filter(|n| i32::try_from(*n).is_ok())
        .ok_or_else(|| format!("is typed int but holds {value}, not a whole number (32-bit)"))
}

/// A `float` property, as Tiled saves the number.
fn float(value: &Value) -> Result<String, String> {
    let f = match value {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Number(n) if !n.is_f64() => return Ok(n.to_string()),
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    f.filter(|f| f.is_finite())
        .map(number)
        .ok_or_else(|| format!("is typed float but holds {value}, not a number"))
}

/// A tile id written as an object key (`"17"`).
fn tile_id(at: &At, what: &str, key: &str) -> Result<u32, CartError> {
    key.parse::<u32>().map_err(|_| {
        at.error(format!(
            "{what} has an entry \"{key}\", which is not a tile id (a whole number from 0)"
        ))
    })
}

/// Reads `tiles` written as an object keyed by tile id: each tile read by `read_tile`.
pub(super) fn tiles(
    at: At,
    tiles: &JsonObject<String, Value>,
    read_tile: impl Fn(At) -> Result<TileData, CartError>,
    out: &mut std::collections::BTreeMap<u32, TileData>,
) -> Result<(), CartError> {
    for (key, value) in tiles {
        let id = tile_id(&at, "`tiles`", key)?;
        let place = format!("{}tiles[\"{key}\"]", super::prefix(at.place));
        let tile = at.item(value, &place)?;
        out.insert(id, read_tile(tile)?);
    }
    Ok(())
}

/// Reads `tileproperties` (typed by `tilepropertytypes`) into the tiles they name. A tile's
/// properties from here win over those of the same name it already has (from its implicit
/// object group, which Tiled before 1.1 let users give properties, see `json::tile_from`).
pub(super) fn tile_properties(
    at: At,
    out: &mut std::collections::BTreeMap<u32, TileData>,
) -> Result<(), CartError> {
    let values = match at.get("tileproperties") {
        None => return Ok(()),
        Some(Value::Object(values)) => values,
        Some(other) => {
            return Err(at.error(format!(
                "`tileproperties` is {}, not an object keyed by tile id",
                kind_of(other)
            )));
        }
    };
    let types = match at.get("tilepropertytypes") {
        None => None,
        Some(Value::Object(types)) => Some(types),
        Some(other) => {
            return Err(at.error(format!(
                "`tilepropertytypes` is {}, not an object keyed by tile id",
                kind_of(other)
            )));
        }
    };
    for (key, props) in values {
        let id = tile_id(&at, "`tileproperties`", key)?;
        let what = format!("tileproperties[\"{key}\"]");
        let Value::Object(props) = props else {
            return Err(at.error(format!(
                "{what} is {}, not an object of properties",
                kind_of(props)
            )));
        };
        let props = properties(&at, &what, props, types.and_then(|t| t.get(key)))?;
        out.entry(id).or_default().properties.extend(props);
    }
    Ok(())
}

/// What kind of JSON value `value` is, for messages.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
