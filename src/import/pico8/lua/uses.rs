//! Where a cart's code uses names the PICO-8 layer does not have: every reference to one of
//! them that is not a field (`t.stat`) and not the cart's own (a name the cart defines as a
//! function, assigns, or declares local is its own everywhere). `kairo import` reports them
//! and `kairo check` lists them, each at its line.

use super::LuaError;
use super::lex::{Kind, tokenize};

/// Each use of a name of `missing` in `source` (PICO-8's Lua or standard Lua), with its
/// line, in order.
pub fn missing_uses(source: &str, missing: &[&str]) -> Result<Vec<(String, usize)>, LuaError> {
    let tokens: Vec<_> = tokenize(source)?
        .into_iter()
        .filter(|t| !matches!(t.kind, Kind::Space | Kind::Comment | Kind::Newline))
        .collect();
    let text = |i: usize| tokens.get(i).map_or("", |t| t.text.as_str());
    let is_field = |i: usize| i > 0 && matches!(text(i - 1), "." | ":");
    // The cart's own: `function name`, `local name`, `local function name`, `name =`, and
    // names in a `local a, name =` list.
    let mut own = std::collections::BTreeSet::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Name || is_field(i) {
            continue;
        }
        let before = if i > 0 { text(i - 1) } else { "" };
        let declared = matches!(before, "function" | "local")
            || (text(i + 1) == "=" && !matches!(before, "=" | "==" | "~=" | "!="))
            || (before == "," && tokens[..i].iter().rev().any(|p| p.text == "local"));
        if declared {
            own.insert(t.text.clone());
        }
    }
    Ok(tokens
        .iter()
        .enumerate()
        .filter(|&(i, t)| {
            t.kind == Kind::Name
                && !is_field(i)
                && missing.contains(&t.text.as_str())
                && !own.contains(&t.text)
        })
        .map(|(_, t)| (t.text.clone(), t.line))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uses_are_found_at_their_lines_and_the_carts_own_names_are_not() {
        let code = "x = stat(1)\n-- stat(2) in a comment\nlocal s = \"stat(3)\"\nr = lshr\n\
                    t.stat(4)\nfunction flip() end\nflip()\n";
        let found = missing_uses(code, &["stat", "lshr", "flip"]).unwrap();
        assert_eq!(found, [("stat".to_string(), 1), ("lshr".to_string(), 4)]);
    }
}
