//! The user's settings in their config folder (crate `directories`): input bindings per
//! device model, the recently opened carts and the display filter. Files are written atomically; a file that does
//! not parse is kept aside as `NAME.bad` (never silently lost) and defaults are used.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::HostError;
use super::input_map::{Bindings, InputMapper};
use crate::input::Button;
use crate::views::display_filter::DisplayFilter;

/// Most recent carts remembered.
pub const RECENT_MAX: usize = 8;

/// The folder Kairo's settings live in, if the platform has one.
pub(crate) fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KAIRO_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "kairo").map(|d| d.config_dir().to_path_buf())
}

/// `input.toml`: bindings for the keyboard and for each pad model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InputConfig {
    /// Key name -> console button name.
    #[serde(default)]
    pub keyboard: BTreeMap<String, String>,
    /// Pad model (gilrs UUID) -> its bindings.
    #[serde(default)]
    pub pads: BTreeMap<String, PadProfile>,
}

/// The bindings of one pad model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PadProfile {
    /// The model's name, for people reading the file.
    pub name: String,
    /// Control name -> console button name.
    pub bindings: BTreeMap<String, String>,
}

fn to_names(bindings: &Bindings) -> BTreeMap<String, String> {
    bindings
        .pairs()
        .map(|(c, b)| (c.to_string(), b.name().to_string()))
        .collect()
}

fn from_names(names: &BTreeMap<String, String>) -> Bindings {
    Bindings::from_pairs(
        names
            .iter()
            .filter_map(|(c, b)| Some((c.as_str(), Button::from_name(b)?))),
    )
}

impl InputConfig {
    /// The config describing `mapper`'s bindings; `names` gives pad model names.
    pub(crate) fn from_mapper(
        mapper: &InputMapper,
        names: &BTreeMap<String, String>,
    ) -> InputConfig {
        InputConfig {
            keyboard: to_names(&mapper.keyboard),
            pads: mapper
                .pad_bindings
                .iter()
                .map(|(uuid, b)| {
                    let profile = PadProfile {
                        name: names.get(uuid).cloned().unwrap_or_default(),
                        bindings: to_names(b),
                    };
                    (uuid.clone(), profile)
                })
                .collect(),
        }
    }

    /// Installs these bindings into `mapper` (an empty keyboard table keeps the defaults).
    pub fn apply(&self, mapper: &mut InputMapper) {
        if !self.keyboard.is_empty() {
            mapper.keyboard = from_names(&self.keyboard);
        }
        mapper.pad_bindings = self
            .pads
            .iter()
            .map(|(uuid, p)| (uuid.clone(), from_names(&p.bindings)))
            .collect();
    }
}

/// `recent.toml`: recently opened carts, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recent {
    #[serde(default)]
    pub carts: Vec<PathBuf>,
}

impl Recent {
    /// Puts `cart` first, dropping duplicates and the oldest beyond [`RECENT_MAX`].
    pub(crate) fn touch(&mut self, cart: &Path) {
        let cart = cart.canonicalize().unwrap_or_else(|_| cart.to_path_buf());
        self.carts.retain(|c| *c != cart);
        self.carts.insert(0, cart);
        self.carts.truncate(RECENT_MAX);
    }
}

/// The file the display filter is kept in.
pub const DISPLAY_FILE: &str = "display.toml";

/// `display.toml`: how the window shows the picture (F10 and the pause menu's "Display"
/// change it; `--filter` overrides it for one run without saving).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DisplayConfig {
    #[serde(default)]
    pub filter: DisplayFilter,
}

/// Reads `dir/name` as TOML. A missing file gives the default; an unreadable one is renamed
/// to `name.bad` and reported in the returned warning.
pub fn load<T: Default + for<'de> Deserialize<'de>>(dir: &Path, name: &str) -> (T, Option<String>) {
    let path = dir.join(name);
    // A settings file is small; a FIFO or a huge file there must not hang or fill memory.
    let text = crate::fsutil::read_capped(&path, 1024 * 1024).ok();
    let Some(text) = text.and_then(|bytes| String::from_utf8(bytes).ok()) else {
        return (T::default(), None);
    };
    match toml::from_str(&text) {
        Ok(value) => (value, None),
        Err(e) => {
            let bad = dir.join(format!("{name}.bad"));
            let kept = std::fs::rename(&path, &bad).is_ok();
            let warning = format!(
                "{}: {} — using defaults{}",
                path.display(),
                e.message(),
                if kept {
                    format!(" (kept as {})", bad.display())
                } else {
                    String::new()
                }
            );
            (T::default(), Some(warning))
        }
    }
}

/// Writes `value` as TOML to `dir/name` atomically, creating `dir`.
pub fn save<T: Serialize>(dir: &Path, name: &str, value: &T) -> Result<(), HostError> {
    let path = dir.join(name);
    let failed = |source| HostError::SaveSettings {
        path: path.clone(),
        source,
    };
    let text = toml::to_string_pretty(value).map_err(|e| failed(std::io::Error::other(e)))?;
    std::fs::create_dir_all(dir).map_err(failed)?;
    crate::fsutil::write_atomic(&path, text.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path in a fresh folder (the path itself not made yet), removed when the guard drops.
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let (guard, dir) = {
            let guard = tempfile::Builder::new()
                .prefix(&format!("kairo-{}-", &format!("config-{name}")))
                .tempdir()
                .expect("a temporary folder");
            let dir = guard.path().to_path_buf();
            (guard, dir)
        };
        (guard, dir.join("folder"))
    }

    #[test]
    fn bindings_survive_a_save_and_load() {
        let (_guard, dir) = temp("roundtrip");
        let mut mapper = InputMapper::default();
        mapper.keyboard.bind("KeyJ", Button::A);
        let mut pad = Bindings::default_pad();
        pad.bind("East", Button::A);
        mapper.pad_bindings.insert("uuid-1".into(), pad);
        let names = BTreeMap::from([("uuid-1".to_string(), "Test Pad".to_string())]);
        save(
            &dir,
            "input.toml",
            &InputConfig::from_mapper(&mapper, &names),
        )
        .unwrap();

        let (config, warning): (InputConfig, _) = load(&dir, "input.toml");
        assert_eq!(warning, None);
        assert_eq!(config.pads["uuid-1"].name, "Test Pad");
        let mut restored = InputMapper::default();
        config.apply(&mut restored);
        assert_eq!(restored.keyboard, mapper.keyboard);
        assert_eq!(restored.pad_bindings, mapper.pad_bindings);
    }

    #[test]
    fn a_corrupt_file_is_kept_aside_and_defaults_used() {
        let (_guard, dir) = temp("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("input.toml"), "keyboard = [[[").unwrap();
        let (config, warning): (InputConfig, _) = load(&dir, "input.toml");
        assert_eq!(config, InputConfig::default());
        assert!(warning.unwrap().contains("using defaults"));
        assert_eq!(
            std::fs::read_to_string(dir.join("input.toml.bad")).unwrap(),
            "keyboard = [[["
        );
    }

    #[test]
    fn the_display_filter_survives_a_save_and_load_and_a_bad_name_gives_the_default() {
        let (_guard, dir) = temp("display");
        for filter in DisplayFilter::ALL {
            save(&dir, DISPLAY_FILE, &DisplayConfig { filter }).unwrap();
            let text = std::fs::read_to_string(dir.join(DISPLAY_FILE)).unwrap();
            assert_eq!(text.trim(), format!("filter = \"{filter}\""));
            let (config, warning): (DisplayConfig, _) = load(&dir, DISPLAY_FILE);
            assert_eq!((config.filter, warning), (filter, None));
        }
        std::fs::write(dir.join(DISPLAY_FILE), "filter = \"blur\"").unwrap();
        let (config, warning): (DisplayConfig, _) = load(&dir, DISPLAY_FILE);
        assert_eq!(config.filter, DisplayFilter::None);
        assert!(warning.unwrap().contains("using defaults"));
        std::fs::write(dir.join(DISPLAY_FILE), "").unwrap();
        let (config, warning): (DisplayConfig, _) = load(&dir, DISPLAY_FILE);
        assert_eq!((config.filter, warning), (DisplayFilter::None, None));
    }

    #[test]
    fn recent_keeps_newest_first_without_duplicates() {
        let mut recent = Recent::default();
        for i in 0..10 {
            recent.touch(Path::new(&format!("/nowhere/cart{i}")));
        }
        recent.touch(Path::new("/nowhere/cart5"));
        assert_eq!(recent.carts.len(), RECENT_MAX);
        assert_eq!(recent.carts[0], Path::new("/nowhere/cart5"));
        assert_eq!(
            recent.carts.iter().filter(|c| c.ends_with("cart5")).count(),
            1
        );
    }
}
