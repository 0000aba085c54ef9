//! `kairo export CART --web OUT_DIR`: a folder that plays the cart in a web browser, from any
//! static web server or a zip upload (itch.io and the like).
//!
//! The folder holds the page (`index.html`, `kairo.js`), the WebAssembly machine
//! (`kairo_web.js`, `kairo_web.wasm`: built from this crate by `web/build.sh` and shipped in
//! `web/dist/`, so exporting needs no web toolchain) and the cart packed as `cart.kcart`. The
//! page's `index.html#hash=N` logs `hash <16 hex>` as `kairo headless --frames N --hash` does.

use std::path::{Path, PathBuf};

use crate::cart::files::CartFiles;
use crate::cart::{CartErrors, kcart};
use crate::error::{Result, ToolError};

/// The page, with `{{TITLE}}` and `{{SAVE_ID}}` to fill in.
const PAGE: &str = include_str!("../../web/page/index.html");
/// The page's host script: canvas, keys, pads, sound, pacing, storage.
const HOST_JS: &[u8] = include_bytes!("../../web/page/kairo.js");
/// The machine compiled to WebAssembly, and its loader.
pub const RUNTIME_JS: &[u8] = include_bytes!("../../web/dist/kairo_web.js");
pub const RUNTIME_WASM: &[u8] = include_bytes!("../../web/dist/kairo_web.wasm");

/// What an export wrote: each file with its size in bytes.
#[derive(Debug, Default)]
pub struct Exported {
    pub files: Vec<(PathBuf, usize)>,
}

impl Exported {
    /// Bytes a browser downloads to play the cart.
    pub fn total(&self) -> usize {
        self.files.iter().map(|(_, n)| n).sum()
    }
}

/// Exports the cart at `cart` (a folder or a `.kcart`) into `out`, creating the folder and
/// replacing the files it writes there. A cart with problems is refused, as `kairo pack`
/// refuses it.
pub fn export_web(cart: &Path, out: &Path) -> Result<Exported> {
    let files = CartFiles::open(cart)?;
    let loaded = crate::commands::check::static_check(files.clone())
        .map_err(|problems| ToolError::NotPacked(CartErrors(problems)))?;
    let packed = kcart::pack(files.iter())?;
    let page = PAGE
        .replace("{{TITLE}}", &html_escape(loaded.name()))
        .replace(
            "{{SAVE_ID}}",
            &html_escape(loaded.manifest.save_id.as_deref().unwrap_or("")),
        );
    std::fs::create_dir_all(out).map_err(ToolError::write(out))?;
    let mut exported = Exported::default();
    for (name, bytes) in [
        ("index.html", page.as_bytes()),
        ("kairo.js", HOST_JS),
        ("kairo_web.js", RUNTIME_JS),
        ("kairo_web.wasm", RUNTIME_WASM),
        ("cart.kcart", &packed[..]),
    ] {
        let path = out.join(name);
        crate::fsutil::write_atomic(&path, bytes).map_err(ToolError::write(&path))?;
        exported.files.push((path, bytes.len()));
    }
    Ok(exported)
}

/// `text` safe inside HTML text and double-quoted attributes.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_for_the_page() {
        assert_eq!(
            html_escape("<b>\"Tom & Jerry's\"</b>"),
            "&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"
        );
    }

    #[test]
    fn the_page_has_the_places_export_fills_and_loads_what_export_writes() {
        assert!(PAGE.contains("{{TITLE}}") && PAGE.contains("{{SAVE_ID}}"));
        for file in ["kairo.js", "kairo_web.js"] {
            assert!(PAGE.contains(&format!("src=\"{file}\"")), "{file}");
        }
        let host = std::str::from_utf8(HOST_JS).expect("UTF-8");
        assert!(host.contains("fetch('cart.kcart')"));
        let runtime = std::str::from_utf8(RUNTIME_JS).expect("UTF-8");
        assert!(runtime.contains("\"kairo_web.wasm\""));
        assert_eq!(&RUNTIME_WASM[..4], b"\0asm");
    }
}
