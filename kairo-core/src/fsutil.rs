//! File helpers for files the user hands us or owns: reads that never hang and never run
//! unbounded ([`read_capped`]: regular files only, opened without blocking, a size cap checked
//! before and while reading), and atomic writes ([`write_atomic`]) so a crash never leaves
//! half a file behind.

use std::fs::{File, Metadata};
use std::io::{Read, Write};
use std::path::Path;

use thiserror::Error;

/// Why [`read_capped`] refused or failed to read a file.
#[derive(Debug, Error)]
pub enum ReadError {
    #[error("{kind}, not a regular file: give a regular file")]
    NotRegular { kind: &'static str },
    #[error("too big ({size} bytes, the most is {cap}): give a smaller file")]
    TooBig { size: u64, cap: u64 },
    #[error("grew past {cap} bytes (the most allowed) while being read: give a smaller file")]
    Grew { cap: u64 },
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

/// What kind of file `meta` describes, as a phrase for messages ("a FIFO (named pipe)").
pub(crate) fn kind_of(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_file() {
        return "a regular file";
    }
    if kind.is_dir() {
        return "a folder";
    }
    if kind.is_symlink() {
        return "a symlink";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// Checks that `meta` is a regular file of at most `cap` bytes.
fn check(meta: &Metadata, cap: u64) -> Result<(), ReadError> {
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            kind: kind_of(meta),
        });
    }
    if meta.len() > cap {
        return Err(ReadError::TooBig {
            size: meta.len(),
            cap,
        });
    }
    Ok(())
}

/// Opens `path` for reading without waiting for a writer (a FIFO swapped in after the check
/// must not hang the open).
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Reads the regular file at `path` (symlinks followed), at most `cap` bytes. FIFOs, devices,
/// sockets and folders are refused without being opened; the size is checked on the metadata
/// before reading, and the read stops after `cap + 1` bytes in case the file grows.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    check(&std::fs::metadata(path)?, cap)?;
    let file = open_nonblocking(path)?;
    // What was opened may not be what was checked (the path can change in between).
    let meta = file.metadata()?;
    check(&meta, cap)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::Grew { cap });
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// A fresh folder for a unit test (`kairo-NAME-...` in the system's temporary folder) and its
/// path; the folder is removed when the guard drops.
#[cfg(test)]
pub(crate) fn test_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let guard = tempfile::Builder::new()
        .prefix(&format!("kairo-{name}-"))
        .tempdir()
        .expect("a temporary folder");
    let dir = guard.path().to_path_buf();
    (guard, dir)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn temp(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        test_dir(&format!("fsutil-{name}"))
    }

    #[test]
    fn regular_files_are_read_up_to_the_cap() {
        let (_guard, dir) = temp("regular");
        let path = dir.join("a.txt");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_capped(&path, 5).unwrap(), b"12345");
        let err = read_capped(&path, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "too big (5 bytes, the most is 4): give a smaller file"
        );
    }

    #[test]
    fn fifos_devices_and_folders_are_refused_without_blocking() {
        let (_guard, dir) = temp("special");
        let fifo = dir.join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_capped(&fifo, 100).unwrap_err().to_string();
        assert!(
            err.starts_with("a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        let err = read_capped(Path::new("/dev/zero"), 100)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("a character device"), "{err}");
        let err = read_capped(&dir, 100).unwrap_err().to_string();
        assert!(err.starts_with("a folder"), "{err}");
    }
}
