//! `kairo import SRC.p8|SRC.p8.png [-o DIR]`: a PICO-8 cart as a Kairo cart folder.
//!
//! Written: `cart.toml` (`[pico8]`, the canvas plane), `gfx.png` and `map.tmx`
//! ([`super::folder`]), `main.lua` — the code translated line for line and moved down so
//! that its line N is the `.p8` file's line N (an error at `main.lua:37` is at `cart.p8:37`)
//! — and each file the code `#include`s, translated as a module of its own and loaded where
//! the `#include` was (`require`, on the same line). Nothing is overwritten: the folder
//! must not exist or be empty. What cannot be brought over stops the import, naming the
//! file, the line and the feature; what is not brought over yet (sound) is said in the
//! report.

use std::fmt;
use std::path::{Component, Path, PathBuf};

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
    let main = module_source(&cart.lua, source, base, &mut files)?;
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
    let toml = format!(
        "# Imported from {source_name} by `kairo import`.\nname = {}\nplane = \"canvas\"\nbackdrop = \"#000000\"\n\n[pico8]\ngfx = \"gfx.png\"\nmap = \"map.tmx\"\nsource = {}\nlua_line = {}\n",
        toml_string(&title),
        toml_string(&source_name),
        cart.lua_line
    );
    let sheet = folder::sheet_png(&cart).map_err(|e| fail(source, None, e.to_string()))?;
    files.push(("cart.toml".into(), toml.into_bytes()));
    files.push(("main.lua".into(), main_lua.into_bytes()));
    files.push(("gfx.png".into(), sheet));
    files.push(("map.tmx".into(), folder::map_tmx(&cart).into_bytes()));
    let mut report = Report::default();
    for (path, bytes) in &files {
        let target = out.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, None, e.to_string()))?;
        }
        kairo_core::fsutil::write_atomic(&target, bytes)
            .map_err(|e| fail(&target, None, e.to_string()))?;
        report.written.push(path.clone());
    }
    let sounds = (0..p8::SFX_COUNT).filter(|&n| cart.sfx_used(n)).count();
    let patterns = cart
        .music
        .iter()
        .filter(|p| p.channels.iter().any(Option::is_some))
        .count();
    if sounds > 0 || patterns > 0 {
        report.not_imported.push(format!(
            "{sounds} sound effects and {patterns} music patterns: PICO-8 sound is not imported yet (sfx() and music() stop the cart with an error)"
        ));
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

/// `code` (of `file`) translated, each `#include` replaced on its line by the `require` of
/// the included file, which is translated into `files` too (includes nested as deep as
/// they go, each file once).
fn module_source(
    code: &str,
    file: &Path,
    base: &Path,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Result<String, ImportError> {
    let mut lines: Vec<String> = Vec::new();
    let mut plain = String::new();
    // Translate the code with the include lines blanked (lines stay where they are), then
    // put each `require` on its line.
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
    let translated = lua::translate(&plain).map_err(|e| fail(file, Some(e.line), e.message))?;
    lines.extend(translated.lines().map(str::to_string));
    for (i, path) in includes {
        let included = base.join(&path);
        let module = module_path(Path::new(&path)).ok_or_else(|| {
            fail(
                file,
                Some(i + 1),
                format!("`#include {path}`: not a file path"),
            )
        })?;
        if !files.iter().any(|(p, _)| *p == format!("{module}.lua")) {
            let text = std::fs::read_to_string(&included).map_err(|e| {
                fail(
                    file,
                    Some(i + 1),
                    format!("`#include {path}`: {}: {e}", included.display()),
                )
            })?;
            // Reserve the name first: a file that includes itself stops here.
            files.push((format!("{module}.lua"), Vec::new()));
            let inner_base = included.parent().unwrap_or(base).to_path_buf();
            let source = module_source(&text, &included, &inner_base, files)?;
            let at = files
                .iter()
                .position(|(p, _)| *p == format!("{module}.lua"))
                .expect("reserved above");
            files[at].1 = (source + "\n").into_bytes();
        }
        let line = lines.get_mut(i).expect("the include's own line");
        *line = format!("require(\"{}\")", module.replace('/', "."));
    }
    Ok(lines.join("\n"))
}

/// Where an included file goes in the cart, without `.lua`: its path with `..` as `up`,
/// and dots in names as `_` (module names are dotted paths).
fn module_path(path: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::ParentDir => parts.push("up".to_string()),
            Component::CurDir => {}
            Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
            _ => return None,
        }
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".lua").unwrap_or(&last);
    parts.push(stem.to_string());
    let clean: Vec<String> = parts
        .iter()
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        })
        .collect();
    Some(clean.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn included_files_become_modules_with_paths_inside_the_cart() {
        assert_eq!(module_path(Path::new("objects.lua")).unwrap(), "objects");
        assert_eq!(
            module_path(Path::new("../core/a.b.lua")).unwrap(),
            "up/core/a_b"
        );
        assert_eq!(
            module_path(Path::new("testinclude.blah")).unwrap(),
            "testinclude_blah"
        );
        assert!(module_path(Path::new("/etc/x.lua")).is_none());
    }
}
