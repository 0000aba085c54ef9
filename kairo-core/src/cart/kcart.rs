//! The `.kcart` one-file cart: a versioned, checksummed archive of a cart's files.
//!
//! Layout (little-endian):
//! `b"KCART\x1a\r\n"` magic, `u16` format version, `u16` flags (0), `u32` file count, then per
//! file `u16` path length, UTF-8 path, `u32` data length, data; last, a `u32` CRC-32 of every
//! byte before it. Readers refuse versions newer than [`FORMAT_VERSION`] by name.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::cart::paths::{MAX_BYTES, MAX_FILE_BYTES, MAX_FILES, MAX_PATH_BYTES, normalize};

/// The magic bytes a `.kcart` starts with.
pub(crate) const MAGIC: &[u8; 8] = b"KCART\x1a\r\n";
/// The format version this build writes and the newest it reads.
pub const FORMAT_VERSION: u16 = 1;
/// Largest `.kcart` file a cart within the limits can make: the header, the checksum, and
/// [`MAX_FILES`] entries with the longest names holding [`MAX_BYTES`] of data in all. Larger
/// files are refused before they are read.
pub(crate) const MAX_KCART_BYTES: u64 =
    16 + 4 + MAX_FILES as u64 * (2 + MAX_PATH_BYTES as u64 + 4) + MAX_BYTES;

/// Why a `.kcart` was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum KcartError {
    #[error("not a Kairo cart (no KCART header)")]
    NotACart,
    #[error(
        "made by a newer Kairo: format version {0}, this build reads version {FORMAT_VERSION} and older"
    )]
    NewerVersion(u16),
    #[error("truncated: the file ends inside {0}")]
    Truncated(&'static str),
    #[error("corrupt: checksum mismatch (stored {stored:08x}, computed {computed:08x})")]
    Checksum { stored: u32, computed: u32 },
    #[error("corrupt: {0}")]
    Corrupt(String),
    #[error("cannot pack `{0}`: {1}")]
    Unpackable(String, &'static str),
    #[error("cannot pack: more than {MAX_FILES} files or {MAX_BYTES} bytes in all")]
    TooBig,
}

/// Packs `files` into `.kcart` bytes.
pub fn pack<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<Vec<u8>, KcartError> {
    let files: Vec<_> = files.into_iter().collect();
    if files.len() > MAX_FILES {
        return Err(KcartError::TooBig);
    }
    // Refuse here what `unpack` would refuse, so a packed cart always loads.
    let mut seen = std::collections::BTreeSet::new();
    let mut total = 0u64;
    for &(path, data) in &files {
        let unpackable = |why| Err(KcartError::Unpackable(path.into(), why));
        if normalize(std::path::Path::new(path)).as_deref() != Some(path) || path.is_empty() {
            return unpackable("not a cart path");
        }
        if path.len() > MAX_PATH_BYTES {
            return unpackable("path too long");
        }
        if data.len() as u64 > MAX_FILE_BYTES {
            return unpackable("file too big");
        }
        if !seen.insert(path) {
            return unpackable("given twice");
        }
        total += data.len() as u64;
    }
    if total > MAX_BYTES {
        return Err(KcartError::TooBig);
    }
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(files.len() as u32).to_le_bytes());
    for (path, data) in files {
        let path_len = u16::try_from(path.len())
            .map_err(|_| KcartError::Unpackable(path.into(), "path too long"))?;
        let data_len = u32::try_from(data.len())
            .map_err(|_| KcartError::Unpackable(path.into(), "file too big"))?;
        out.extend_from_slice(&path_len.to_le_bytes());
        out.extend_from_slice(path.as_bytes());
        out.extend_from_slice(&data_len.to_le_bytes());
        out.extend_from_slice(data);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// Reads `.kcart` bytes back into files.
pub fn unpack(bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, KcartError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(KcartError::NotACart);
    }
    let mut reader = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = reader.u16("the header")?;
    if version > FORMAT_VERSION {
        return Err(KcartError::NewerVersion(version));
    }
    if version == 0 {
        return Err(KcartError::Corrupt("format version 0".into()));
    }
    let body_end = bytes
        .len()
        .checked_sub(4)
        .filter(|&end| end >= reader.at)
        .ok_or(KcartError::Truncated("the header"))?;
    let stored = u32::from_le_bytes(bytes[body_end..].try_into().expect("4 bytes"));
    let computed = crc32fast::hash(&bytes[..body_end]);
    let flags = reader.u16("the header")?;
    if flags != 0 {
        return Err(KcartError::Corrupt(format!("unknown flags {flags:#06x}")));
    }
    let count = reader.u32("the header")? as usize;
    if count > MAX_FILES {
        return Err(KcartError::Corrupt(format!(
            "{count} files (most is {MAX_FILES})"
        )));
    }
    let mut files = BTreeMap::new();
    let mut total = 0u64;
    for _ in 0..count {
        let path_len = reader.u16("a file entry")? as usize;
        if path_len > MAX_PATH_BYTES {
            return Err(KcartError::Corrupt(format!(
                "a file name of {path_len} bytes (most is {MAX_PATH_BYTES})"
            )));
        }
        let path = std::str::from_utf8(reader.take(path_len, "a file name", body_end)?)
            .map_err(|_| KcartError::Corrupt("a file name is not UTF-8".into()))?;
        let clean = normalize(std::path::Path::new(path))
            .filter(|p| p == path && !p.is_empty())
            .ok_or_else(|| KcartError::Corrupt(format!("bad file name `{path}`")))?;
        let len = reader.u32("a file entry")? as usize;
        if len as u64 > MAX_FILE_BYTES {
            return Err(KcartError::Corrupt(format!(
                "`{path}` holds {len} bytes (most is {MAX_FILE_BYTES})"
            )));
        }
        total += len as u64;
        if total > MAX_BYTES {
            return Err(KcartError::Corrupt(format!(
                "more than {MAX_BYTES} bytes of files"
            )));
        }
        let data = reader.take(len, "file data", body_end)?.to_vec();
        if files.insert(clean, data).is_some() {
            return Err(KcartError::Corrupt(format!("`{path}` is stored twice")));
        }
    }
    if reader.at < body_end {
        return Err(KcartError::Corrupt("data after the last file".into()));
    }
    if stored != computed {
        return Err(KcartError::Checksum { stored, computed });
    }
    Ok(files)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str, end: usize) -> Result<&'a [u8], KcartError> {
        let stop = self.at.checked_add(n).filter(|&s| s <= end);
        let stop = stop.ok_or(if self.at.saturating_add(n) <= self.bytes.len() {
            KcartError::Corrupt(format!("{what} runs into the checksum"))
        } else {
            KcartError::Truncated(what)
        })?;
        let slice = &self.bytes[self.at..stop];
        self.at = stop;
        Ok(slice)
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, KcartError> {
        let end = self.bytes.len();
        let b = self.take(2, what, end)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, KcartError> {
        let end = self.bytes.len();
        let b = self.take(4, what, end)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        pack([
            ("cart.toml", &b"name = 'x'"[..]),
            ("main.lua", &b"log(1)"[..]),
        ])
        .unwrap()
    }

    #[test]
    fn pack_then_unpack_round_trips() {
        let files = unpack(&sample()).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files["main.lua"], b"log(1)");
    }

    #[test]
    fn every_truncation_is_refused_without_panic() {
        let bytes = sample();
        for len in 0..bytes.len() {
            assert!(unpack(&bytes[..len]).is_err(), "length {len}");
        }
    }

    #[test]
    fn flipped_bytes_fail_the_checksum() {
        let mut bytes = sample();
        let last_data = bytes.len() - 5;
        bytes[last_data] ^= 1;
        assert!(matches!(unpack(&bytes), Err(KcartError::Checksum { .. })));
    }

    #[test]
    fn newer_versions_are_refused_by_name() {
        let mut bytes = sample();
        bytes[8] = 9;
        let err = unpack(&bytes).unwrap_err();
        assert_eq!(err, KcartError::NewerVersion(9));
        assert!(err.to_string().contains("newer Kairo"));
    }

    #[test]
    fn paths_leaving_the_cart_are_refused() {
        assert!(matches!(
            pack([("../evil.lua", &b""[..])]),
            Err(KcartError::Unpackable(..))
        ));
        let mut bytes = pack([("aa/evil.lua", &b""[..])]).unwrap();
        bytes[18..20].copy_from_slice(b"..");
        let body = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(unpack(&bytes), Err(KcartError::Corrupt(_))));
    }

    #[test]
    fn oversized_entries_are_refused_before_their_data() {
        // A header that claims a 4 GiB file, with no data: refused by size, not truncation.
        let mut bytes = pack([("a", &b""[..])]).unwrap();
        let len_at = 16 + 2 + 1;
        bytes[len_at..len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = unpack(&bytes).unwrap_err().to_string();
        assert!(err.contains("`a` holds 4294967295 bytes"), "{err}");
        let long = "x".repeat(MAX_PATH_BYTES + 1);
        assert!(pack([(long.as_str(), &b""[..])]).is_err());
    }
}
