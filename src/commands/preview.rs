//! The BulletML pattern previewer behind `kairo pattern FILE.xml [--loop] [--rank R]`: a
//! cart built in memory from the pattern file and a small script (`preview.lua`) with a
//! player marker to dodge with.

use std::collections::BTreeMap;
use std::path::Path;

use crate::cart::files::CartFiles;
use crate::cart::{Cart, CartErrors};
use crate::error::{Result, ToolError};

const SCRIPT: &str = include_str!("preview.lua");

/// How a pattern is previewed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preview {
    /// Start the pattern again the frame after it ends (`--loop`).
    pub looping: bool,
    /// BulletML's `$rank`, 0-1 (`--rank`; by default the rank a cart has until it calls
    /// `bu_rank`).
    pub rank: f64,
}

impl Default for Preview {
    fn default() -> Self {
        Preview {
            looping: false,
            rank: crate::bullets::unit::BulletUnit::default().rank(),
        }
    }
}

impl Preview {
    /// `rank` if it is a rank BulletML knows (0 to 1), else the message refusing it.
    pub fn check_rank(rank: f64) -> std::result::Result<f64, String> {
        if (0.0..=1.0).contains(&rank) {
            Ok(rank)
        } else {
            Err(format!(
                "--rank must be 0 to 1 (BulletML's $rank), got {rank}"
            ))
        }
    }
}

/// The previewer cart for the pattern in `xml`, as `preview` asks.
pub fn previewer_cart(xml: &Path, preview: Preview) -> Result<Cart> {
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
    let script = SCRIPT
        .replacen(
            "local LOOP = false",
            &format!("local LOOP = {}", preview.looping),
            1,
        )
        .replacen(
            "local RANK = 0.5",
            &format!("local RANK = {:?}", preview.rank),
            1,
        );
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
