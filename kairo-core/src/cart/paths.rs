//! Paths and limits of a cart's files, shared by the folder reader and the `.kcart` codec:
//! cart paths are `/`-separated and relative to the cart's root, and never leave it.

use std::path::{Component, Path};

/// Most files a cart may hold.
pub(crate) const MAX_FILES: usize = 4096;
/// Most folders a cart folder may hold (a folder reached through a symlink counts each time).
pub(crate) const MAX_FOLDERS: usize = 4096;
/// Most bytes a cart may hold in all.
pub(crate) const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Most bytes one file of a cart may hold.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Longest cart path, in bytes of UTF-8.
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// `path` relative to `root`, `/`-separated.
pub(crate) fn cart_path(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    Some(parts?.join("/"))
}

/// Resolves `relative` against the folder of `from` (both cart paths), folding `.` and `..`.
/// Returns `None` when the result would leave the cart.
pub(crate) fn resolve(from: &str, relative: &str) -> Option<String> {
    let base = Path::new(from).parent().unwrap_or(Path::new(""));
    normalize(&base.join(relative))
}

/// Folds `.` and `..` out of a cart path; `None` if it is absolute or leaves the cart.
pub(crate) fn normalize(path: &Path) -> Option<String> {
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
