//! The BulletML pattern previewer behind `kairo pattern FILE.xml [--loop]`: a cart built in
//! memory from the pattern file and a small script (`preview.lua`) with a player marker to
//! dodge with.

use std::collections::BTreeMap;
use std::path::Path;

use super::error::{Result, ToolError};
use crate::cart::files::CartFiles;
use crate::cart::{Cart, CartErrors};

const SCRIPT: &str = include_str!("preview.lua");

/// The previewer cart for the pattern in `xml` (a path shown in messages); the pattern runs
/// once.
pub fn pattern_cart(xml: &Path) -> Result<Cart> {
    build(xml, false)
}

/// The previewer cart for the pattern in `xml`, which starts again each time it ends
/// (`--loop`).
pub fn looping_pattern_cart(xml: &Path) -> Result<Cart> {
    build(xml, true)
}

fn build(xml: &Path, looping: bool) -> Result<Cart> {
    let bytes =
        crate::fsutil::read_capped(xml, crate::cart::paths::MAX_FILE_BYTES).map_err(|source| {
            ToolError::Read {
                path: xml.into(),
                source,
            }
        })?;
    let text = std::str::from_utf8(&bytes).map_err(|_| ToolError::NotText(xml.into()))?;
    crate::bullets::bulletml::parse("pattern", text).map_err(|source| ToolError::Pattern {
        path: xml.into(),
        source,
    })?;
    let name = xml
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut files = BTreeMap::new();
    files.insert(
        "cart.toml".to_string(),
        format!(
            "name = \"Pattern {}\"\nauthor = \"kairo pattern\"\n",
            name.replace('"', "'")
        )
        .into_bytes(),
    );
    let script = if looping {
        SCRIPT.replacen("local LOOP = false", "local LOOP = true", 1)
    } else {
        SCRIPT.to_string()
    };
    files.insert("main.lua".to_string(), script.into_bytes());
    files.insert("pattern.xml".to_string(), bytes);
    Cart::from_files(CartFiles::from_map(xml, files)).map_err(|errors| {
        // Name the user's file, not the in-memory copy.
        let named = errors.0.into_iter().map(|mut e| {
            if e.file == "pattern.xml" {
                e.file = xml.display().to_string();
            }
            e
        });
        ToolError::Cart(CartErrors(named.collect()))
    })
}
