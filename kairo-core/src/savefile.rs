//! Save RAM on disk: one file per `save_id` (`<id>.ksav`) with a header (magic, version, id,
//! length) and a CRC-32, written atomically (temporary file, fsync, rename), with the previous
//! good copy kept beside it (`<id>.ksav.bak`). A damaged or cut file falls back to that copy,
//! or to empty save RAM, with one warning; the damaged file is kept (`<id>.ksav.damaged`, or
//! `.damaged-2`... when that name is taken) so nothing is lost silently.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::spec::SAVE_BYTES;

const MAGIC: &[u8; 8] = b"KAIROSAV";
/// The file format version this build writes and reads.
pub const SAVE_FILE_VERSION: u16 = 1;

/// Shortest time between two stores of a running cart's save RAM (the window's and the
/// libretro core's files alike).
pub const STORE_EVERY: Duration = Duration::from_secs(1);

/// When a running cart's changed save RAM may be stored: at once the first time, then at
/// most every [`STORE_EVERY`] while the game keeps changing it; a final store (closing,
/// unloading: `now` is `None`) whatever the time. The one pacing every front end keeping
/// save files uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct StorePacing {
    last: Option<Instant>,
}

impl StorePacing {
    /// Whether a store may happen at `now` (`None`: a final store).
    pub fn due(&self, now: Option<Instant>) -> bool {
        match (now, self.last) {
            (Some(now), Some(last)) => now.duration_since(last) >= STORE_EVERY,
            _ => true,
        }
    }

    /// A store happened at `now` (`None`: a final store, counted as now).
    pub fn stored(&mut self, now: Option<Instant>) {
        self.last = Some(now.unwrap_or_else(Instant::now));
    }
}
/// Longest `save_id`.
pub(crate) const MAX_ID_LEN: usize = 64;
/// Largest file read: the header, the longest id, all of save RAM and the CRC.
const MAX_FILE_BYTES: u64 = (8 + 2 + 1 + MAX_ID_LEN + 4 + SAVE_BYTES + 4) as u64;

/// Whether `id` can name a save file: 1-64 of `A-Z a-z 0-9 . _ -`, not starting with `.`.
pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The save file of `id` in `dir`.
pub fn path_for(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.ksav"))
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Whether `dir` holds a save file of `id` or its previous copy (so there is save data to
/// read, good or damaged).
pub fn exists(dir: &Path, id: &str) -> bool {
    let main = path_for(dir, id);
    let backup = sibling(&main, ".bak");
    [main, backup].iter().any(|p| p.symlink_metadata().is_ok())
}

/// A name beside `main` for its damaged copy that no file has yet: `<id>.ksav.damaged`, else
/// `<id>.ksav.damaged-2`, `-3`... (an older damaged copy is never replaced).
fn damaged_name(main: &Path) -> Option<PathBuf> {
    (1..1000)
        .map(|n| match n {
            1 => sibling(main, ".damaged"),
            n => sibling(main, &format!(".damaged-{n}")),
        })
        .find(|p| p.symlink_metadata().is_err())
}

/// The bytes of a save file holding `data` for `id`.
pub fn encode(id: &str, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 32);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&SAVE_FILE_VERSION.to_le_bytes());
    out.push(id.len() as u8);
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The save RAM bytes in a save file for `id`, or what is wrong with it.
pub fn decode(id: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Kairo save file".into());
    }
    if bytes.len() < MAGIC.len() + 4 + 4 {
        return Err("cut short".into());
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    let crc = u32::from_le_bytes(crc.try_into().expect("four bytes"));
    let version = u16::from_le_bytes([body[8], body[9]]);
    if version != SAVE_FILE_VERSION {
        return Err(format!(
            "save file version {version}, this build reads {SAVE_FILE_VERSION}"
        ));
    }
    if crc32fast::hash(body) != crc {
        return Err("its checksum does not match (damaged or cut short)".into());
    }
    let id_len = usize::from(body[10]);
    let rest = &body[11..];
    if rest.len() < id_len + 4 {
        return Err("cut short".into());
    }
    let (stored_id, rest) = rest.split_at(id_len);
    if stored_id != id.as_bytes() {
        return Err(format!(
            "it belongs to save id `{}`",
            String::from_utf8_lossy(stored_id)
        ));
    }
    let (len, data) = rest.split_at(4);
    let len = u32::from_le_bytes(len.try_into().expect("four bytes")) as usize;
    if len != data.len() || len > SAVE_BYTES {
        return Err(format!(
            "its length field says {len} bytes, it holds {}",
            data.len()
        ));
    }
    Ok(data.to_vec())
}

/// Reads and checks one save file: `Ok(None)` when there is none.
fn read(path: &Path, id: &str) -> Result<Option<Vec<u8>>, String> {
    match crate::fsutil::read_capped(path, MAX_FILE_BYTES) {
        Ok(bytes) => decode(id, &bytes).map(Some),
        Err(crate::fsutil::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}

/// What [`load`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Save RAM as stored (empty when there was nothing usable).
    pub data: Vec<u8>,
    /// Said once to the user when a file was damaged and something else was used.
    pub warning: Option<String>,
}

/// Reads the save RAM of `id` from `dir`: the save file, else its previous copy, else
/// nothing. Never fails: a damaged file gives a warning, and is renamed so the next store
/// does not overwrite it.
pub fn load(dir: &Path, id: &str) -> Loaded {
    let main = path_for(dir, id);
    let backup = sibling(&main, ".bak");
    let main_error = match read(&main, id) {
        Ok(Some(data)) => {
            return Loaded {
                data,
                warning: None,
            };
        }
        Ok(None) => None,
        Err(why) => Some(why),
    };
    let kept = main_error.as_ref().and_then(|_| {
        let damaged = damaged_name(&main)?;
        std::fs::rename(&main, &damaged).ok().map(|()| damaged)
    });
    let kept_note = kept
        .map(|p| format!(" (the damaged file is kept as {})", p.display()))
        .unwrap_or_default();
    match (read(&backup, id), main_error) {
        (Ok(Some(data)), None) => Loaded {
            data,
            warning: Some(format!(
                "{} is missing; using the previous copy {}",
                main.display(),
                backup.display()
            )),
        },
        (Ok(Some(data)), Some(why)) => Loaded {
            data,
            warning: Some(format!(
                "{}: {why}; using the previous copy {}{kept_note}",
                main.display(),
                backup.display()
            )),
        },
        (Ok(None), None) => Loaded::default(),
        (Ok(None), Some(why)) => Loaded {
            data: Vec::new(),
            warning: Some(format!(
                "{}: {why}; no previous copy, so save RAM starts empty{kept_note}",
                main.display()
            )),
        },
        (Err(backup_why), why) => Loaded {
            data: Vec::new(),
            warning: Some(format!(
                "{}: {}; {}: {backup_why}; save RAM starts empty{kept_note}",
                main.display(),
                why.as_deref().unwrap_or("missing"),
                backup.display()
            )),
        },
    }
}

/// Stores `data` as the save RAM of `id` in `dir` (created if needed). The file being
/// replaced, if good, first becomes the previous copy; each write is atomic, so at every
/// moment a good copy is on disk.
pub fn store(dir: &Path, id: &str, data: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let main = path_for(dir, id);
    if let Ok(Some(previous)) = read(&main, id) {
        if previous == data {
            return Ok(());
        }
        crate::fsutil::write_atomic(&sibling(&main, ".bak"), &encode(id, &previous))?;
    }
    crate::fsutil::write_atomic(&main, &encode(id, data))
}

#[cfg(test)]
mod tests {
    #[test]
    fn stores_come_at_once_then_at_most_every_second_and_always_at_the_end() {
        let mut pacing = StorePacing::default();
        let start = Instant::now();
        assert!(pacing.due(Some(start)), "the first store is at once");
        pacing.stored(Some(start));
        assert!(!pacing.due(Some(start + Duration::from_millis(400))));
        assert!(pacing.due(None), "a final store whatever the time");
        assert!(pacing.due(Some(start + STORE_EVERY)));
    }

    use super::*;

    /// A path in a fresh folder (the path itself not made yet), removed when the guard drops.
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let (guard, dir) = crate::fsutil::test_dir(&format!("save-{name}"));
        (guard, dir.join("folder"))
    }

    #[test]
    fn ids_are_file_names_that_stay_in_the_folder() {
        for good in ["shmup", "kairo.platformer-1", "A_b"] {
            assert!(valid_id(good), "{good}");
        }
        for bad in ["", ".hidden", "../x", "a/b", "a b", "é", &"x".repeat(65)] {
            assert!(!valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn stores_load_back_and_keep_the_previous_copy() {
        let (_guard, dir) = temp("roundtrip");
        assert_eq!(load(&dir, "g"), Loaded::default());
        store(&dir, "g", &[1, 2, 3]).unwrap();
        store(&dir, "g", &[4, 5]).unwrap();
        assert_eq!(load(&dir, "g").data, [4, 5]);
        let backup = std::fs::read(dir.join("g.ksav.bak")).unwrap();
        assert_eq!(decode("g", &backup).unwrap(), [1, 2, 3]);
        // Another cart's file is refused.
        std::fs::copy(dir.join("g.ksav"), dir.join("h.ksav")).unwrap();
        let other = load(&dir, "h");
        assert!(other.data.is_empty());
        assert!(other.warning.unwrap().contains("belongs to save id `g`"));
    }

    #[test]
    fn a_damaged_file_falls_back_to_the_previous_copy_and_is_kept() {
        let (_guard, dir) = temp("damaged");
        store(&dir, "g", &[1; 100]).unwrap();
        store(&dir, "g", &[2; 100]).unwrap();
        let main = dir.join("g.ksav");
        // Every cut and every flipped byte is caught.
        let good = std::fs::read(&main).unwrap();
        for end in 0..good.len() {
            assert!(decode("g", &good[..end]).is_err(), "cut at {end}");
        }
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x40;
            assert!(decode("g", &bad).is_err(), "flip at {i}");
        }
        std::fs::write(&main, &good[..good.len() / 2]).unwrap();
        let loaded = load(&dir, "g");
        assert_eq!(loaded.data, [1; 100]);
        let warning = loaded.warning.unwrap();
        assert!(warning.contains("using the previous copy"), "{warning}");
        assert!(warning.contains("g.ksav.damaged"), "{warning}");
        assert_eq!(
            std::fs::read(dir.join("g.ksav.damaged")).unwrap().len(),
            good.len() / 2
        );
        // The next store writes a fresh file and leaves the good copy as it was.
        store(&dir, "g", &[3; 10]).unwrap();
        assert_eq!(
            load(&dir, "g"),
            Loaded {
                data: vec![3; 10],
                warning: None
            }
        );
    }

    #[test]
    fn a_second_damaged_file_does_not_replace_the_first() {
        let (_guard, dir) = temp("damaged-twice");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!exists(&dir, "g"));
        std::fs::write(dir.join("g.ksav"), b"first").unwrap();
        assert!(exists(&dir, "g"));
        assert!(load(&dir, "g").warning.unwrap().contains("g.ksav.damaged"));
        std::fs::write(dir.join("g.ksav"), b"second").unwrap();
        let warning = load(&dir, "g").warning.unwrap();
        assert!(warning.contains("g.ksav.damaged-2"), "{warning}");
        assert_eq!(std::fs::read(dir.join("g.ksav.damaged")).unwrap(), b"first");
        assert_eq!(
            std::fs::read(dir.join("g.ksav.damaged-2")).unwrap(),
            b"second"
        );
    }

    #[test]
    fn with_both_copies_damaged_save_ram_starts_empty_with_a_warning() {
        let (_guard, dir) = temp("both");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("g.ksav"), b"garbage").unwrap();
        std::fs::write(dir.join("g.ksav.bak"), b"KAIROSAV and more garbage").unwrap();
        let loaded = load(&dir, "g");
        assert!(loaded.data.is_empty());
        let warning = loaded.warning.unwrap();
        assert!(warning.contains("not a Kairo save file"), "{warning}");
        assert!(warning.contains("starts empty"), "{warning}");
    }
}
