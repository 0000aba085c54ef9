//! The files of a cart, read into memory from a folder or a `.kcart`, keyed by their path
//! inside the cart (`/`-separated). Everything else in the cart loader reads from here, so a
//! folder and its packed form behave identically.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cart::CartError;
use crate::cart::folder::FolderReader;
use crate::cart::kcart;
use crate::fsutil;

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
            return Ok(CartFiles::from_map(path, FolderReader::read(path)?));
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
