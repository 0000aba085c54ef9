//! Generates `docs/api.md` from the API table, so the reference never drifts from the
//! bindings. A test compares the file with this output.

use std::fmt::Write;

use super::api::API;
use super::args::signature;
use super::call::cost_text;
use crate::spec::cost;

/// The full text of `docs/api.md`.
pub(crate) fn api_markdown() -> String {
    let mut out = String::new();
    out.push_str("# Lua API reference\n\n");
    out.push_str(
        "<!-- Generated from kairo-core/src/script/api/*.rs by `KAIRO_UPDATE_DOCS=1 cargo test api_doc`. \
         Do not edit by hand. -->\n\n",
    );
    let _ = writeln!(
        out,
        "Carts are Lua 5.4 programs. The machine calls three global functions the cart may \
         define: `init()` once after the cart's main chunk has run, then every machine frame \
         `update()` followed by `draw()`. Every Lua VM instruction costs {} cycle and every call \
         of a function below costs {} cycles on top of its own cost, and {} more when it \
         raises an error, charged to the script unit (see `docs/hardware.md`).\n",
        cost::LUA_INSTRUCTION,
        cost::API_CALL,
        cost::API_ERROR
    );
    out.push_str(
        "The sandbox has the `table`, `string`, `math`, `utf8` and `coroutine` libraries and \
         the safe base functions. `io`, `os`, `debug`, `package`, `load`, `loadfile`, \
         `dofile` and `string.dump` do not exist; `require(name)` loads `name.lua` (dots become \
         folders) or `name/init.lua` from the cart only; `collectgarbage` accepts `collect`, \
         `count`, `step` and `isrunning`; `setmetatable` refuses metatables with `__gc` \
         (finalizers would run outside the budget). API functions read tables they are \
         given without metamethods.\n\n\
         Numbers: every number argument (and every number field of a table argument) must be \
         finite. NaN and +-inf are refused with an error such as `spr: argument 2 (x) must \
         be a finite number, got nan` (or `inf`, `-inf`); no function below takes them. \
         Where an integer is expected, a float is rounded down (`math.random` follows \
         Lua and refuses fractions).\n\n\
         Out of range, one rule: a count, size, index, id or setting outside its range (a \
         declared argument, a field such as `body.w`) is an error naming it and the range, \
         such as `col_platform: argument 4 (w) is 0, must be 1..4096`; coordinates, \
         positions and speeds, which may run anywhere, are clamped to what the hardware \
         holds (each function says to what). The limits are the hardware's, in \
         `docs/hardware.md`.\n\n",
    );
    out.push_str("## Contents\n\n");
    for group in API {
        let names: Vec<String> = group
            .functions
            .iter()
            .map(|f| format!("`{}`", f.name))
            .chain(group.constants.iter().map(|c| format!("`{}`", c.name)))
            .collect();
        let _ = writeln!(out, "- **{}**: {}", group.title, names.join(", "));
    }
    for group in API {
        let _ = write!(out, "\n## {}\n\n{}\n", group.title, group.intro);
        for f in group.functions {
            let returns = if f.returns.is_empty() {
                String::new()
            } else {
                format!(" -> {}", f.returns)
            };
            let _ = write!(
                out,
                "\n### `{}({})`{}\n\n{}\n",
                f.name,
                signature(f.args),
                returns,
                f.doc,
            );
            if !f.args.is_empty() {
                out.push_str("\n| argument | takes | default |\n|---|---|---|\n");
                for arg in f.args {
                    let _ = writeln!(
                        out,
                        "| `{}` | {} | {} |",
                        arg.name,
                        arg.kind_text(),
                        arg.default_text()
                    );
                }
            }
            let _ = writeln!(out, "\nCost: {}.", cost_text(f.cost));
        }
        for constants in group.constants {
            let _ = write!(out, "\n### `{}`\n\n{}\n\n", constants.name, constants.doc);
            out.push_str("| name | value |\n|---|---|\n");
            for (name, value) in (constants.entries)() {
                let _ = writeln!(out, "| `{}.{name}` | {value} |", constants.name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::api::all_functions;

    #[test]
    fn api_doc_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api.md");
        let generated = api_markdown();
        if std::env::var_os("KAIRO_UPDATE_DOCS").is_some() {
            std::fs::write(path, &generated).expect("write docs/api.md");
        }
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == generated,
            "docs/api.md is stale: run `KAIRO_UPDATE_DOCS=1 cargo test api_doc`"
        );
    }

    #[test]
    fn api_names_are_unique_and_documented() {
        let mut names: Vec<&str> = all_functions().map(|f| f.name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "duplicate API names");
        for f in all_functions() {
            // An empty cost list is allowed: the function costs only the call itself.
            assert!(!f.doc.is_empty(), "{} lacks docs", f.name);
        }
    }
}
