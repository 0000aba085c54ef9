//! `kairo import SRC.p8|SRC.p8.png [-o DIR]`: a PICO-8 cart as a Kairo cart folder.
//!
//! Written: `cart.toml` (`[pico8]`, the canvas plane), `gfx.png` and `map.tmx`
//! ([`super::folder`]), `sound.p8sfx` (the sfx and music, in the `.p8` text the core's
//! sound chip reads), `main.lua` — the code translated line for line and moved down so
//! that its line N is the `.p8` file's line N (an error at `main.lua:37` is at `cart.p8:37`)
//! — with each file the code `#include`s translated in place of its `#include` line, on
//! that one line (the text PICO-8 includes, locals and all; an error inside it is told at
//! the `#include` line). Nothing is overwritten: the folder
//! must not exist or be empty. What cannot be brought over stops the import, naming the
//! file, the line and the feature; what is not brought over (the label) is said in the
//! report.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{folder, lua, p8, png};

/// Why a cart was not imported.
#[derive(Debug)]
pub struct ImportError {
    /// The file, and the line when known.
    pub file: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for ImportError {}

fn fail(file: &Path, line: Option<usize>, message: impl Into<String>) -> ImportError {
    ImportError {
        file: file.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// What an import wrote and what it left behind.
#[derive(Debug, Default)]
pub struct Report {
    /// The files written, relative to the folder.
    pub written: Vec<String>,
    /// What was not brought over, one line each.
    pub not_imported: Vec<String>,
    /// Where the code uses what the PICO-8 layer does not have: `file:line: what`.
    pub unsupported: Vec<String>,
}

/// The folder `kairo import` writes when none is given: the cart's name beside it.
pub fn default_folder(source: &Path) -> PathBuf {
    let name = source.file_name().unwrap_or_default().to_string_lossy();
    let stem = name
        .strip_suffix(".p8.png")
        .or_else(|| name.strip_suffix(".p8"))
        .unwrap_or(&name);
    PathBuf::from(stem)
}

/// Imports the cart at `source` into the folder `out`.
pub fn import(source: &Path, out: &Path) -> Result<Report, ImportError> {
    let name = source.to_string_lossy();
    if !name.ends_with(".p8.png") && !name.ends_with(".p8") {
        return Err(fail(
            source,
            None,
            "not a PICO-8 cart: give a .p8 or .p8.png file",
        ));
    }
    let bytes = std::fs::read(source).map_err(|e| fail(source, None, e.to_string()))?;
    let cart = if name.ends_with(".p8.png") {
        png::parse(&bytes)
    } else if name.ends_with(".p8") {
        p8::parse(&String::from_utf8_lossy(&bytes))
    } else {
        return Err(fail(
            source,
            None,
            "not a PICO-8 cart: give a .p8 or .p8.png file",
        ));
    }
    .map_err(|e| fail(source, (e.line > 0).then_some(e.line), e.message))?;
    if out.exists()
        && std::fs::read_dir(out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(fail(
            out,
            None,
            "the folder exists and is not empty: nothing is written over (give another -o)",
        ));
    }
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let base = source.parent().unwrap_or(Path::new("."));
    let main = module_source(&cart.lua, source, base, cart.lua_line)?;
    // Line N of main.lua is line N of the .p8 file.
    let lead = cart.lua_line.saturating_sub(1);
    let source_name = source
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let mut main_lua = format!(
        "-- {source_name}, imported by `kairo import`: line N here is line N of {source_name}\n"
    );
    main_lua.push_str(&"\n".repeat(lead.saturating_sub(1)));
    if lead == 0 {
        main_lua.clear();
    }
    main_lua.push_str(&main);
    main_lua.push('\n');
    let title = cart
        .lua
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("--"))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| default_folder(source).display().to_string());
    // cartdata("id") names the persistent data: Kairo keeps it under that save_id.
    let save_id = cart
        .lua
        .split("cartdata(")
        .nth(1)
        .and_then(|rest| {
            let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            rest[1..].split(quote).next().map(str::to_string)
        })
        .map(|id| {
            id.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "._-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
        })
        .filter(|id| !id.is_empty() && !id.starts_with('.'))
        .map(|id| format!("save_id = {}\n", toml_string(&id)))
        .unwrap_or_default();
    let toml = format!(
        "# Imported from {source_name} by `kairo import`.\nname = {}\nplane = \"canvas\"\nbackdrop = \"#000000\"\n{save_id}\n# The sprite sheet in pattern VRAM too (PICO-8 sprite n is tile n), for Kairo's sprites\n# and bullets.\n[[sheet]]\nfile = \"gfx.png\"\n\n[pico8]\ngfx = \"gfx.png\"\nmap = \"map.tmx\"\nsound = \"sound.p8sfx\"\nsource = {}\nlua_line = {}\n",
        toml_string(&title),
        toml_string(&source_name),
        cart.lua_line
    );
    let sheet = folder::sheet_png(&cart).map_err(|e| fail(source, None, e.to_string()))?;
    files.push(("cart.toml".into(), toml.into_bytes()));
    // The code translated, so it reads as Lua: a failure would have stopped the import.
    let unsupported = lua::missing_uses(&main_lua, kairo_core::pico8::MISSING)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, line)| {
            format!(
                "main.lua:{line} ({source_name}:{line}): `{name}` is not in Kairo's PICO-8 layer yet: the cart stops with an error there"
            )
        })
        .collect();
    files.push(("main.lua".into(), main_lua.into_bytes()));
    files.push(("gfx.png".into(), sheet));
    files.push(("map.tmx".into(), folder::map_tmx(&cart).into_bytes()));
    let sound = kairo_core::pico8::sound::file::write(&cart.sound_memory());
    files.push(("sound.p8sfx".into(), sound.into_bytes()));
    let mut report = Report {
        unsupported,
        ..Report::default()
    };
    for (path, bytes) in &files {
        let target = out.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, None, e.to_string()))?;
        }
        kairo_core::fsutil::write_atomic(&target, bytes)
            .map_err(|e| fail(&target, None, e.to_string()))?;
        report.written.push(path.clone());
    }
    if cart.label.is_some() {
        report
            .not_imported
            .push("the label picture (__label__): not used by Kairo".into());
    }
    Ok(report)
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `code` (of `file`) translated line for line, each `#include` line replaced by the file
/// it names, translated on that one line (PICO-8 includes text where the line is: locals
/// and all; the lines after keep their numbers).
fn module_source(
    code: &str,
    file: &Path,
    base: &Path,
    first_line: usize,
) -> Result<String, ImportError> {
    // Line i (0-based) of the code is line `first_line + i` of `file`.
    let at = |i: usize| first_line + i;
    let mut plain = String::new();
    let mut includes = Vec::new();
    for (i, line) in code.lines().enumerate() {
        match line.trim_start().strip_prefix("#include") {
            Some(path) => {
                includes.push((i, path.trim().to_string()));
                plain.push('\n');
            }
            None => {
                plain.push_str(line);
                plain.push('\n');
            }
        }
    }
    let translated =
        lua::translate(&plain).map_err(|e| fail(file, Some(at(e.line - 1)), e.message))?;
    let mut lines: Vec<String> = translated.lines().map(str::to_string).collect();
    for (i, path) in includes {
        let text = included_text(&path, file, at(i), base, 0)?;
        let joined = lua::translate_joined(&text).map_err(|e| {
            fail(
                &base.join(&path),
                Some(e.line),
                format!("{} (included at {}:{})", e.message, file.display(), at(i)),
            )
        })?;
        lines[i] = joined;
    }
    Ok(lines.join("\n"))
}

/// The text of the file `#include path` names (at `file`'s line `line`), its own includes
/// in place, as deep as 16 files.
fn included_text(
    path: &str,
    file: &Path,
    line: usize,
    base: &Path,
    depth: usize,
) -> Result<String, ImportError> {
    if depth > 16 {
        return Err(fail(
            file,
            Some(line),
            "includes nested deeper than 16 files (a cycle?)",
        ));
    }
    let included = base.join(path);
    let text = std::fs::read_to_string(&included).map_err(|e| {
        fail(
            file,
            Some(line),
            format!("`#include {path}`: {}: {e}", included.display()),
        )
    })?;
    let inner_base = included.parent().unwrap_or(base).to_path_buf();
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        match l.trim_start().strip_prefix("#include") {
            Some(inner) => out.push_str(&included_text(
                inner.trim(),
                &included,
                i + 1,
                &inner_base,
                depth + 1,
            )?),
            None => out.push_str(l),
        }
        out.push('\n');
    }
    Ok(out)
}
