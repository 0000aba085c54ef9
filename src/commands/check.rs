//! `kairo check`: every problem of a cart as `file:line: message`. Static checks first (the
//! manifest, PNGs, maps, Lua syntax), then, if those pass, the cart is powered on and run
//! headless for a while without input so that runtime errors in `init`, `update` and `draw`
//! show up too.

use std::path::Path;

use crate::cart::files::CartFiles;
use crate::cart::{Cart, CartError};
use crate::commands::headless;
use crate::console::Console;
use crate::script::syntax_problems;
use crate::session::Session;

/// Checks the cart at `path`, running it for `vblanks` vblanks; returns every problem.
pub fn check_cart(path: &Path, vblanks: u64) -> Vec<String> {
    check_cart_report(path, vblanks).problems
}

/// What `kairo check` found: the problems, and what the loader converted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    pub problems: Vec<String>,
    /// One line per conversion the loader made (art cut, tiles rotated, indices kept).
    pub notes: Vec<String>,
    /// One line per conversion that may not be what the cart meant (colours split or
    /// spilled over palettes, transparency the PNG decides).
    pub warnings: Vec<String>,
}

/// Checks the cart at `path`, running it for `vblanks` vblanks.
pub fn check_cart_report(path: &Path, vblanks: u64) -> CheckReport {
    let failed = |problems: Vec<String>| CheckReport {
        problems,
        ..CheckReport::default()
    };
    let files = match CartFiles::open(path) {
        Ok(files) => files,
        Err(e) => return failed(vec![e.to_string()]),
    };
    let cart = match static_check(files) {
        Ok(cart) => cart,
        Err(problems) => return failed(problems.iter().map(ToString::to_string).collect()),
    };
    let (notes, warnings) = (cart.notes.clone(), cart.warnings.clone());
    let mut session = match Console::new(cart) {
        Ok(console) => Session::new(console),
        Err(e) => return failed(vec![e.to_string()]),
    };
    let run = headless::run(&mut session, vblanks, None, &mut |_| {});
    CheckReport {
        problems: run
            .fault_error()
            .map(|e| vec![e.to_string()])
            .unwrap_or_default(),
        notes,
        warnings,
    }
}

/// Loads a cart and compiles its scripts, collecting every problem.
pub fn static_check(files: CartFiles) -> Result<Cart, Vec<CartError>> {
    let lua_sources = files
        .iter()
        .filter(|(p, _)| p.ends_with(".lua"))
        .filter_map(|(p, b)| Some((p.to_string(), String::from_utf8(b.to_vec()).ok()?)))
        .collect();
    let mut problems = syntax_problems(&lua_sources);
    match Cart::from_files(files) {
        Ok(cart) if cart.pico8.is_some() && problems.is_empty() => {
            let problems = pico8_problems(&lua_sources);
            if problems.is_empty() {
                Ok(cart)
            } else {
                Err(problems)
            }
        }
        Ok(cart) if problems.is_empty() => Ok(cart),
        Ok(_) => Err(problems),
        Err(errors) => {
            problems.extend(errors.0);
            problems.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
            Err(problems)
        }
    }
}

/// In a `[pico8]` cart, every use of a PICO-8 function the layer does not have, at its line.
fn pico8_problems(lua_sources: &std::collections::BTreeMap<String, String>) -> Vec<CartError> {
    let mut problems = Vec::new();
    for (file, source) in lua_sources {
        let uses = crate::import::pico8::lua::missing_uses(source, kairo_core::pico8::MISSING);
        for (name, line) in uses.unwrap_or_default() {
            problems.push(CartError::at(
                file,
                line,
                format!(
                    "`{name}` is not in Kairo's PICO-8 layer yet: the cart stops with an error here"
                ),
            ));
        }
    }
    problems
}
