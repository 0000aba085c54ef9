//! The files of a cart, read into memory from a folder or a `.kcart`, keyed by their path
//! inside the cart (`/`-separated). Everything else in the cart loader reads from here, so a
//! folder and its packed form behave identically.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::cart::CartError;
use crate::cart::folder::FolderReader;
use crate::cart::kcart;
use crate::fsutil;

/// Most files a cart may hold.
pub const MAX_FILES: usize = 4096;
/// Most folders a cart folder may hold (a folder reached through a symlink counts each time).
pub const MAX_FOLDERS: usize = 4096;
/// Most bytes a cart may hold in all.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Most bytes one file of a cart may hold.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Longest cart path, in bytes of UTF-8.
pub const MAX_PATH_BYTES: usize = 1024;

/// A cart's files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CartFiles {
    /// Where the cart came from (for messages and reloading).
    pub origin: PathBuf,
    files: BTreeMap<String, Vec<u8>>,
}

impl CartFiles {
    /// A cart from in-memory files (tests, generated carts).
    pub fn from_map(origin: impl Into<PathBuf>, files: BTreeMap<String, Vec<u8>>) -> Self {
        CartFiles {
            origin: origin.into(),
            files,
        }
    }

    /// Reads a cart folder or a `.kcart` file. Only regular files are read: a FIFO, device
    /// or socket, or a symlink that leaves the cart folder, is an error naming it.
    pub fn open(path: &Path) -> Result<CartFiles, CartError> {
        let meta = fs::metadata(path)
            .map_err(|e| CartError::file(path.display(), format!("cannot open cart: {e}")))?;
        if meta.is_dir() {
            return FolderReader::read(path);
        }
        let bytes = fsutil::read_capped(path, kcart::MAX_KCART_BYTES)
            .map_err(|e| CartError::file(path.display(), e.to_string()))?;
        let files =
            kcart::unpack(&bytes).map_err(|e| CartError::file(path.display(), e.to_string()))?;
        Ok(CartFiles {
            origin: path.to_path_buf(),
            files,
        })
    }

    /// The bytes of `path`, if the cart has it.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    /// The bytes of `path`, or a "missing file" error naming `wanted_by`.
    pub fn require(&self, path: &str, wanted_by: &str) -> Result<&[u8], CartError> {
        self.get(path)
            .ok_or_else(|| CartError::file(wanted_by, format!("missing file `{path}`")))
    }

    /// Every file, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// The file map.
    pub fn into_map(self) -> BTreeMap<String, Vec<u8>> {
        self.files
    }
}

/// `path` relative to `root`, `/`-separated.
pub(super) fn cart_path(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    Some(parts?.join("/"))
}

/// Resolves `relative` against the folder of `from` (both cart paths), folding `.` and `..`.
/// Returns `None` when the result would leave the cart.
pub fn resolve(from: &str, relative: &str) -> Option<String> {
    let base = Path::new(from).parent().unwrap_or(Path::new(""));
    normalize(&base.join(relative))
}

/// Folds `.` and `..` out of a cart path; `None` if it is absolute or leaves the cart.
pub fn normalize(path: &Path) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_inside_the_cart_only() {
        assert_eq!(
            resolve("maps/a.tmx", "../gfx/t.png").as_deref(),
            Some("gfx/t.png")
        );
        assert_eq!(resolve("a.tmx", "./t.png").as_deref(), Some("t.png"));
        assert_eq!(resolve("a.tmx", "../../etc/passwd"), None);
        assert_eq!(resolve("a.tmx", "/etc/passwd"), None);
    }
}
