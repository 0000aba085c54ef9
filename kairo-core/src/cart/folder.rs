//! Reading a cart folder into a map of its files by cart path: every regular file under it, hidden names
//! skipped. What it refuses, each as one error naming the entry: a FIFO, device or socket; a
//! symlink whose target leaves the cart folder (or cannot be resolved, a loop of links
//! included); a symlinked folder that leads back into a folder being read; a file over
//! [`MAX_FILE_BYTES`] or a path over [`MAX_PATH_BYTES`]; past [`MAX_FILES`] files,
//! [`MAX_FOLDERS`] folders or [`MAX_BYTES`] in all, the cart. Sizes are checked on the
//! metadata before a file is read, and reads are capped (see [`fsutil::read_capped`]).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::CartError;
use super::paths::{MAX_BYTES, MAX_FILE_BYTES, MAX_FILES, MAX_FOLDERS, MAX_PATH_BYTES, cart_path};
use crate::fsutil::{self, ReadError};

/// A folder waiting to be listed.
struct Pending {
    /// The folder as reached from the cart root (links not resolved): names the files.
    listed: PathBuf,
    /// The folder itself (links resolved): what is listed.
    real: PathBuf,
    /// The real paths of the folders entered on the way here, to catch symlink loops.
    chain: Vec<PathBuf>,
}

/// The state of one folder read.
pub(super) struct FolderReader<'a> {
    root: &'a Path,
    real_root: PathBuf,
    files: BTreeMap<String, Vec<u8>>,
    total: u64,
    folders: usize,
}

impl<'a> FolderReader<'a> {
    /// Reads the cart folder `root`.
    pub(super) fn read(root: &'a Path) -> Result<BTreeMap<String, Vec<u8>>, CartError> {
        let real_root = fs::canonicalize(root)
            .map_err(|e| CartError::file(root.display(), format!("cannot open cart: {e}")))?;
        let mut reader = FolderReader {
            root,
            real_root: real_root.clone(),
            files: BTreeMap::new(),
            total: 0,
            folders: 0,
        };
        let mut pending = vec![Pending {
            listed: root.to_path_buf(),
            real: real_root.clone(),
            chain: vec![real_root],
        }];
        while let Some(dir) = pending.pop() {
            reader.list(dir, &mut pending)?;
        }
        Ok(reader.files)
    }

    fn too_big(&self) -> CartError {
        CartError::file(
            self.root.display(),
            format!(
                "cart is too big (over {MAX_FILES} files, {MAX_FOLDERS} folders or {MAX_BYTES} \
                 bytes): remove files from the cart folder"
            ),
        )
    }

    /// Reads the files of `dir` and queues its subfolders.
    fn list(&mut self, dir: Pending, pending: &mut Vec<Pending>) -> Result<(), CartError> {
        let cannot_list = |e: std::io::Error| {
            CartError::file(dir.listed.display(), format!("cannot list folder: {e}"))
        };
        for entry in fs::read_dir(&dir.real).map_err(cannot_list)? {
            let entry = entry.map_err(cannot_list)?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let listed = dir.listed.join(&name);
            let key = cart_path(self.root, &listed).ok_or_else(|| {
                CartError::file(
                    listed.display(),
                    "file name is not valid UTF-8: rename it or move it out of the cart",
                )
            })?;
            if key.len() > MAX_PATH_BYTES {
                return Err(CartError::file(
                    &key,
                    format!("path longer than {MAX_PATH_BYTES} bytes: use shorter names"),
                ));
            }
            let kind = entry
                .file_type()
                .map_err(|e| CartError::file(&key, format!("cannot read: {e}")))?;
            let real = if kind.is_symlink() {
                self.link_target(&key, &entry.path())?
            } else {
                dir.real.join(&name)
            };
            let meta = fs::metadata(&real)
                .map_err(|e| CartError::file(&key, format!("cannot read: {e}")))?;
            if meta.is_dir() {
                if dir.chain.contains(&real) {
                    return Err(CartError::file(
                        &key,
                        "a symlink back into a folder that contains it (a loop): remove the link",
                    ));
                }
                self.folders += 1;
                if self.folders > MAX_FOLDERS {
                    return Err(self.too_big());
                }
                let mut chain = dir.chain.clone();
                chain.push(real.clone());
                pending.push(Pending {
                    listed,
                    real,
                    chain,
                });
            } else {
                self.read_file(key, &real, &meta)?;
            }
        }
        Ok(())
    }

    /// Where the symlink `path` leads, if it stays inside the cart.
    fn link_target(&self, key: &str, path: &Path) -> Result<PathBuf, CartError> {
        let target = fs::canonicalize(path).map_err(|e| {
            CartError::file(
                key,
                format!("a symlink that cannot be followed ({e}): fix or remove the link"),
            )
        })?;
        if !target.starts_with(&self.real_root) {
            return Err(CartError::file(
                key,
                format!(
                    "a symlink to {}, outside the cart folder: copy what it points to into the cart instead",
                    target.display()
                ),
            ));
        }
        Ok(target)
    }

    /// Reads one file (`real`, described by `meta`) into the cart as `key`.
    fn read_file(
        &mut self,
        key: String,
        real: &Path,
        meta: &fs::Metadata,
    ) -> Result<(), CartError> {
        if !meta.is_file() {
            return Err(CartError::file(
                &key,
                format!(
                    "{}, not a regular file: remove it from the cart folder",
                    fsutil::kind_of(meta)
                ),
            ));
        }
        let file_too_big = |size: u64| {
            CartError::file(
                &key,
                format!(
                    "file too big ({size} bytes, the most is {MAX_FILE_BYTES}): make it smaller"
                ),
            )
        };
        if meta.len() > MAX_FILE_BYTES {
            return Err(file_too_big(meta.len()));
        }
        if self.files.len() >= MAX_FILES || self.total + meta.len() > MAX_BYTES {
            return Err(self.too_big());
        }
        let cap = MAX_FILE_BYTES.min(MAX_BYTES - self.total);
        let bytes = fsutil::read_capped(real, cap).map_err(|e| match e {
            ReadError::TooBig { size, .. } if size > MAX_FILE_BYTES => file_too_big(size),
            ReadError::TooBig { .. } | ReadError::Grew { .. } if cap < MAX_FILE_BYTES => {
                self.too_big()
            }
            e => CartError::file(&key, e.to_string()),
        })?;
        self.total += bytes.len() as u64;
        self.files.insert(key, bytes);
        Ok(())
    }
}
