//! The files of a cart, read into memory from a folder or a `.kcart`, keyed by their path
//! inside the cart (`/`-separated). Everything else in the cart loader reads from here, so a
//! folder and its packed form behave identically.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::cart::CartError;
use crate::cart::kcart;

/// Most files a cart may hold.
pub const MAX_FILES: usize = 4096;
/// Most bytes a cart may hold in all.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

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

    /// Reads a cart folder or a `.kcart` file.
    pub fn open(path: &Path) -> Result<CartFiles, CartError> {
        let meta = fs::metadata(path)
            .map_err(|e| CartError::file(path.display(), format!("cannot open cart: {e}")))?;
        if meta.is_dir() {
            Self::read_folder(path)
        } else {
            let bytes = fs::read(path)
                .map_err(|e| CartError::file(path.display(), format!("cannot read: {e}")))?;
            let files = kcart::unpack(&bytes)
                .map_err(|e| CartError::file(path.display(), e.to_string()))?;
            Ok(CartFiles {
                origin: path.to_path_buf(),
                files,
            })
        }
    }

    fn read_folder(root: &Path) -> Result<CartFiles, CartError> {
        let mut files = BTreeMap::new();
        let mut total = 0u64;
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let entries = fs::read_dir(&dir)
                .map_err(|e| CartError::file(dir.display(), format!("cannot list: {e}")))?;
            for entry in entries {
                let entry = entry
                    .map_err(|e| CartError::file(dir.display(), format!("cannot list: {e}")))?;
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let kind = entry
                    .file_type()
                    .map_err(|e| CartError::file(path.display(), e.to_string()))?;
                if kind.is_dir() {
                    pending.push(path);
                    continue;
                }
                let key = cart_path(root, &path).ok_or_else(|| {
                    CartError::file(path.display(), "file name is not valid UTF-8")
                })?;
                let bytes = fs::read(&path)
                    .map_err(|e| CartError::file(&key, format!("cannot read: {e}")))?;
                total += bytes.len() as u64;
                if files.len() >= MAX_FILES || total > MAX_BYTES {
                    return Err(CartError::file(
                        root.display(),
                        format!("cart is too big (over {MAX_FILES} files or {MAX_BYTES} bytes)"),
                    ));
                }
                files.insert(key, bytes);
            }
        }
        Ok(CartFiles {
            origin: root.to_path_buf(),
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
fn cart_path(root: &Path, path: &Path) -> Option<String> {
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
