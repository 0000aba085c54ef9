//! `cart.toml`, the cart manifest: name, author, version, entry script, RNG seed, save id,
//! palettes, PNG sheets and Tiled maps. Unknown keys are errors, so typos do not pass silently.

use serde::Deserialize;

use crate::cart::CartError;

/// The manifest's file name at the cart's root.
pub const MANIFEST: &str = "cart.toml";

/// A parsed `cart.toml`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    #[serde(default)]
    pub author: String,
    #[serde(default = "default_version")]
    pub version: String,
    /// The Lua file run at start (default `main.lua`).
    #[serde(default = "default_entry")]
    pub entry: String,
    /// Seed of the machine RNG at power-on.
    #[serde(default)]
    pub seed: u64,
    /// Names the cart's save RAM on disk, so it survives edits to the cart (1-64 of
    /// `A-Z a-z 0-9 . _ -`); without it save RAM is not kept between runs.
    #[serde(default)]
    pub save_id: Option<String>,
    /// Backdrop colour, `#rrggbb` (palette 0, colour 0).
    #[serde(default)]
    pub backdrop: Option<String>,
    #[serde(default, rename = "palette")]
    pub palettes: Vec<PaletteDecl>,
    #[serde(default, rename = "sheet")]
    pub sheets: Vec<SheetDecl>,
    #[serde(default, rename = "map")]
    pub maps: Vec<MapDecl>,
    #[serde(default, rename = "music")]
    pub music: Vec<SoundDecl>,
    #[serde(default, rename = "sfx")]
    pub sfx: Vec<SoundDecl>,
    #[serde(default, rename = "font")]
    pub fonts: Vec<FontDecl>,
    /// Where drawings go: `"frame"` (the default: drawn for one frame, each at its priority)
    /// or `"canvas"` (painted in call order into a picture kept until `cls`).
    #[serde(default)]
    pub plane: Plane,
    /// `[pico8]`: the cart runs on the PICO-8 layer (PICO-8's API, memory and screen).
    #[serde(default)]
    pub pico8: Option<Pico8Decl>,
}

/// `[pico8]`: a cart `kairo import` brought over from PICO-8 (or written for its API).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Pico8Decl {
    /// The sprite sheet: an indexed 128 x 128 PNG whose palette indices are PICO-8's colours.
    #[serde(default)]
    pub gfx: Option<String>,
    /// The map: a Tiled map 128 cells wide over the sheet, sprite flags as tile properties.
    #[serde(default)]
    pub map: Option<String>,
    /// The sound effects and music: the `__sfx__` and `__music__` sections of a `.p8`
    /// (see `pico8::sound::file`).
    #[serde(default)]
    pub sound: Option<String>,
    /// The `.p8` file the cart was imported from, and the line of its code's first line:
    /// errors are told at that file's lines too.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub lua_line: Option<usize>,
}

/// The drawing plane a cart draws on (`plane` in `cart.toml`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Plane {
    /// Drawings last one frame, each composited at its own priority.
    #[default]
    Frame,
    /// Drawings are painted in call order into the canvas, which keeps them until `cls`.
    Canvas,
}

/// `[[font]]`: a PNG grid of glyphs `print` can draw with, by name.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FontDecl {
    pub name: String,
    pub file: String,
    /// Width and height of a glyph cell in pixels: the advance and the line height.
    pub glyph: [usize; 2],
    /// Character code of the first glyph (default 32, the space).
    #[serde(default = "default_first_char")]
    pub first: u8,
}

fn default_first_char() -> u8 {
    32
}

/// `[[music]]` or `[[sfx]]`: MML inline (`mml`) or in a file (`file`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SoundDecl {
    pub name: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub mml: Option<String>,
}

/// `[[palette]]`: colours 1.. of one palette, fixed by the cart.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PaletteDecl {
    pub index: u8,
    /// `#rrggbb` strings for colours 1, 2, ... (colour 0 is transparent).
    pub colors: Vec<String>,
}

/// `[[sheet]]`: a PNG loaded into pattern VRAM at power-on.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SheetDecl {
    pub file: String,
    /// First tile the sheet's top-left 8x8 block lands on.
    #[serde(default)]
    pub tile: u32,
    /// Palette the sheet's colours belong to (the first one, when they need several).
    #[serde(default)]
    pub palette: u8,
    /// The tile size the sheet is drawn in (8, 16 or 32): a sheet wider than 128 px is cut
    /// into tiles of this size, and colours are split into palettes per tile of this size.
    #[serde(default = "default_tile_size")]
    pub tile_size: usize,
    /// What is transparent besides what the PNG says: a palette index of an indexed PNG
    /// (`transparent = 0`) or a colour (`transparent = "#ff00ff"`).
    #[serde(default)]
    pub transparent: Option<Transparent>,
}

/// A `[[sheet]]`'s `transparent` value.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Transparent {
    Index(i64),
    Color(String),
}

fn default_tile_size() -> usize {
    8
}

/// `[[map]]`: a Tiled map the cart can load into layers.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MapDecl {
    pub file: String,
    /// Name the cart uses for it (default: the file name without extension).
    #[serde(default)]
    pub name: Option<String>,
}

fn default_version() -> String {
    "0.0.0".into()
}

fn default_entry() -> String {
    "main.lua".into()
}

impl Manifest {
    /// Parses manifest text; errors carry the line of the problem.
    pub fn parse(text: &str) -> Result<Manifest, CartError> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|span| line_of(text, span.start));
            CartError {
                file: MANIFEST.into(),
                line,
                column: None,
                message: e.message().trim().to_string(),
            }
        })?;
        if let Some(id) = &manifest.save_id
            && !crate::savefile::valid_id(id)
        {
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with("save_id"))
                .map(|i| i + 1);
            return Err(CartError {
                file: MANIFEST.into(),
                line,
                column: None,
                message: format!(
                    "save_id `{id}`: use 1-{} of A-Z a-z 0-9 . _ - (not starting with `.`)",
                    crate::savefile::MAX_ID_LEN
                ),
            });
        }
        Ok(manifest)
    }
}

/// Parses `#rrggbb` (or `rrggbb`) into `0xRRGGBB`.
pub(crate) fn parse_color(text: &str) -> Option<u32> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    (hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(hex, 16).ok())
        .flatten()
}

/// Finds text in the manifest for error lines, within a budget of bytes scanned: a hostile
/// manifest with thousands of problems would otherwise take a search through the whole text
/// per problem. Once the budget is spent, problems are reported without a line.
pub(crate) struct Locator<'a> {
    text: &'a str,
    /// Byte offset of the start of every line.
    line_starts: Vec<usize>,
    budget: std::cell::Cell<usize>,
}

impl<'a> Locator<'a> {
    /// Bytes all searches may scan together.
    pub(crate) const BUDGET: usize = 64 * 1024 * 1024;

    /// A locator over `text`.
    pub fn new(text: &'a str) -> Locator<'a> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Locator {
            text,
            line_starts,
            budget: std::cell::Cell::new(Self::BUDGET),
        }
    }

    /// The byte offset of the first `needle`, unless not found or the budget is spent.
    pub fn find(&self, needle: &str) -> Option<usize> {
        if self.budget.get() == 0 {
            return None;
        }
        let found = self.text.find(needle);
        let scanned = found.map_or(self.text.len(), |at| at + needle.len());
        self.budget
            .set(self.budget.get().saturating_sub(scanned.max(1)));
        found
    }

    /// The 1-based line of byte offset `at`.
    pub fn line(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= at)
    }

    /// The 1-based line of the first `needle`.
    pub(crate) fn line_of(&self, needle: &str) -> Option<usize> {
        self.find(needle).map(|at| self.line(at))
    }

    /// The 1-based line and column (in characters) of byte offset `at`.
    pub fn position(&self, at: usize) -> (usize, usize) {
        let line = self.line(at);
        let start = self.line_starts[line - 1];
        (line, self.text[start..at].chars().count() + 1)
    }
}

/// The 1-based line of byte offset `at` in `text`.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_manifest_parses() {
        let m = Manifest::parse(
            "name = 'Demo'\nauthor = 'me'\nseed = 7\n[[sheet]]\nfile = 'a.png'\ntile = 16\npalette = 2\n[[map]]\nfile = 'm.tmx'\n",
        )
        .unwrap();
        assert_eq!(m.entry, "main.lua");
        assert_eq!(m.sheets[0].tile, 16);
        assert_eq!(m.maps[0].name, None);
    }

    #[test]
    fn errors_name_the_line() {
        let err = Manifest::parse("name = 'x'\n\nsheet = 5\n").unwrap_err();
        assert_eq!(err.line, Some(3));
        let err = Manifest::parse("name = 'x'\nbogus = 1\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("bogus"), "{}", err.message);
        let err = Manifest::parse("author = 'x'\n").unwrap_err();
        assert!(err.message.contains("name"), "{}", err.message);
    }

    #[test]
    fn the_locator_finds_lines_and_columns_within_its_budget() {
        let text = "a = 1\nbb = \"é x\"\n";
        let locator = Locator::new(text);
        assert_eq!(locator.line_of("a"), Some(1));
        assert_eq!(locator.line_of("x"), Some(2));
        assert_eq!(locator.position(text.find('x').unwrap()), (2, 9));
        assert_eq!(locator.line_of("zzz"), None);
        // A text searched past the budget gives no more lines.
        let big = "\n".repeat(1024 * 1024);
        let locator = Locator::new(&big);
        for _ in 0..Locator::BUDGET / big.len() {
            assert_eq!(locator.find("x"), None);
        }
        assert_eq!(locator.line_of("\n"), None);
    }

    #[test]
    fn colors_parse() {
        assert_eq!(parse_color("#1a2B3c"), Some(0x1A2B3C));
        assert_eq!(parse_color("123456"), Some(0x123456));
        assert_eq!(parse_color("#12345"), None);
        assert_eq!(parse_color("#12345g"), None);
    }
}
