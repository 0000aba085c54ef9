//! Cartridges: a folder (or `.kcart`) with `cart.toml`, PNG sheets, Tiled maps and Lua
//! sources, loaded into the power-on contents of palette RAM and pattern VRAM plus the maps
//! and scripts the cart can use. Every problem found is reported as `file:line: message`.
//!
//! Adding an asset kind: declare it in `manifest.rs`, load it in [`Cart::from_files`]
//! (collecting errors, not stopping at the first), document it in `docs/cart-format.md`.

pub mod art;
pub mod files;
mod folder;
pub mod fonts;
pub mod kcart;
pub mod manifest;
pub mod map;
pub mod paths;
pub mod pico8;
pub mod tiled;
pub mod tilesets;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::audio::mml::{self, MmlError, Pos};
use crate::audio::{AudioLibrary, Song};
use crate::bullets::bulletml::{self, PatternLibrary};

use art::{Art, SheetRequest};
use files::CartFiles;
use manifest::{Locator, MANIFEST, Manifest, parse_color};
use map::MapAsset;

use crate::spec::{PALETTE_COLORS, PALETTES};
use crate::video::palette::PaletteRam;
use crate::video::patterns::PatternVram;

/// One problem with a cart, located in one of its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartError {
    pub file: String,
    pub line: Option<usize>,
    /// The column within the line, where the format knows it (MML).
    pub column: Option<usize>,
    pub message: String,
}

impl CartError {
    /// A problem with a whole file.
    pub fn file(file: impl fmt::Display, message: impl Into<String>) -> CartError {
        CartError {
            file: file.to_string(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// A problem at a line of a file.
    pub fn at(file: impl fmt::Display, line: usize, message: impl Into<String>) -> CartError {
        CartError {
            file: file.to_string(),
            line: Some(line),
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for CartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "{}:{line}:{column}: {}", self.file, self.message)
            }
            (Some(line), None) => write!(f, "{}:{line}: {}", self.file, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for CartError {}

/// Every problem found while loading a cart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartErrors(pub Vec<CartError>);

impl fmt::Display for CartErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CartErrors {}

impl From<CartError> for CartErrors {
    fn from(e: CartError) -> Self {
        CartErrors(vec![e])
    }
}

/// A loaded cart: what the machine holds at power-on, and what the script may load later.
#[derive(Clone, Debug)]
pub struct Cart {
    pub manifest: Manifest,
    pub palette: PaletteRam,
    pub patterns: PatternVram,
    pub maps: BTreeMap<String, MapAsset>,
    /// The palette the loader gave each pattern tile it filled (`None` for others).
    pub(crate) tile_palettes: Vec<Option<u8>>,
    /// What the loader converted, one line each (`note:` lines of `kairo check`).
    pub notes: Vec<String>,
    /// What the loader did that may not be what the cart meant (`warning:` lines of
    /// `kairo check`, a note in the window): colours split or spilled over palettes,
    /// transparency decided by the PNG.
    pub warnings: Vec<String>,
    /// Lua sources by cart path (`main.lua`, `lib/util.lua`, ...).
    pub scripts: BTreeMap<String, String>,
    /// BulletML patterns (every `.xml` file whose root is `<bulletml>`), by file stem.
    pub(crate) bullet_patterns: PatternLibrary,
    /// Music and sound effects, compiled.
    pub audio: Arc<AudioLibrary>,
    /// Fonts from `[[font]]`, in manifest order (font numbers 2, 3, ...).
    pub fonts: Vec<crate::video::fonts::Font>,
    /// The frames and tags of each `[[sheet]]` read from an Aseprite file, by its file.
    pub sheets: BTreeMap<String, art::SheetAnimation>,
    /// A PICO-8 cart's data, as the memory it powers on with (`[pico8]`).
    pub pico8: Option<Arc<crate::pico8::Rom>>,
    pub files: CartFiles,
}

impl Cart {
    /// Reads and loads the cart at `path` (folder or `.kcart`).
    pub fn open(path: &Path) -> Result<Cart, CartErrors> {
        Cart::from_files(CartFiles::open(path)?)
    }

    /// Loads a cart from its files, collecting every problem.
    pub fn from_files(files: CartFiles) -> Result<Cart, CartErrors> {
        let manifest_bytes = files.require(MANIFEST, &files.origin.display().to_string())?;
        let text = std::str::from_utf8(manifest_bytes)
            .map_err(|_| CartError::file(MANIFEST, "not UTF-8 text"))?;
        let mut manifest = Manifest::parse(text)?;
        let mut problems = Vec::new();
        let locator = Locator::new(text);
        let at_line = |needle: &str, message: String| match locator.line_of(needle) {
            Some(line) => CartError::at(MANIFEST, line, message),
            None => CartError::file(MANIFEST, message),
        };

        // Paths in the manifest may be written `./gfx/a.png` or `gfx/../gfx/a.png`.
        let paths = std::iter::once(&mut manifest.entry)
            .chain(manifest.sheets.iter_mut().map(|s| &mut s.file))
            .chain(manifest.maps.iter_mut().map(|m| &mut m.file))
            .chain(manifest.fonts.iter_mut().map(|f| &mut f.file));
        for path in paths {
            match paths::normalize(Path::new(path.as_str())) {
                Some(clean) => *path = clean,
                None => problems.push(at_line(path, format!("`{path}` is outside the cart"))),
            }
        }

        let mut art = Art::default();
        if let Some(backdrop) = &manifest.backdrop {
            match parse_color(backdrop) {
                Some(rgb) => art.palettes.ram.set(0, rgb),
                None => problems.push(at_line(
                    "backdrop",
                    format!("backdrop `{backdrop}` is not a #rrggbb colour"),
                )),
            }
        }
        for decl in &manifest.palettes {
            if usize::from(decl.index) >= PALETTES || decl.colors.len() >= PALETTE_COLORS {
                problems.push(at_line(
                    "[[palette]]",
                    format!(
                        "palette {}: index must be 0-15 and colours at most 15",
                        decl.index
                    ),
                ));
                continue;
            }
            for (i, color) in decl.colors.iter().enumerate() {
                match parse_color(color) {
                    Some(rgb) => art.palettes.set(usize::from(decl.index), i + 1, rgb),
                    None => {
                        problems.push(at_line(color, format!("`{color}` is not a #rrggbb colour")))
                    }
                }
            }
        }

        // Maps are read first: a tileset's colour key (`trans`) applies to its image when
        // the image is also a [[sheet]].
        let mut tiled_maps = Vec::new();
        for decl in &manifest.maps {
            let name = decl.name.clone().unwrap_or_else(|| {
                Path::new(&decl.file)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
            if files.get(&decl.file).is_none() {
                problems.push(at_line(&decl.file, format!("missing file `{}`", decl.file)));
                continue;
            }
            match tiled::read_map(&files, &decl.file) {
                Ok(m) => {
                    art.notes.extend(m.notes.iter().cloned());
                    problems.extend(map::check_tilesets(&m));
                    match map::check_shape(&m) {
                        Ok(_) => tiled_maps.push((name, m)),
                        Err(e) => problems.push(e),
                    }
                }
                Err(e) => problems.push(e),
            }
        }
        let models: Vec<&tiled::Map> = tiled_maps.iter().map(|(_, m)| m).collect();

        let mut declared = Vec::new();
        for decl in &manifest.sheets {
            let Some(bytes) = files.get(&decl.file) else {
                problems.push(at_line(&decl.file, format!("missing file `{}`", decl.file)));
                continue;
            };
            let clear = match sheet_clear(decl, &models) {
                Ok(clear) => clear,
                Err(message) => {
                    problems.push(at_line(&decl.file, message));
                    continue;
                }
            };
            let request = SheetRequest {
                tile: decl.tile,
                palette: decl.palette,
                tile_size: decl.tile_size,
                clear,
            };
            match art.load_sheet(&decl.file, bytes, request) {
                Ok(sheet) => declared.push(sheet),
                Err(e) => problems.push(e),
            }
        }
        let layouts = tilesets::place(&files, &models, &declared, &mut art, &mut problems);
        let sheets: BTreeMap<String, art::SheetAnimation> = declared
            .iter()
            .filter_map(|d| Some((d.file.clone(), d.animation.clone()?)))
            .collect();
        let mut maps = BTreeMap::new();
        for ((name, model), (layouts, failed)) in tiled_maps.iter().zip(layouts) {
            match map::build(model, name, &layouts, &failed) {
                Ok(asset) => {
                    if maps.insert(name.clone(), asset).is_some() {
                        let file = &model.origin.file;
                        problems.push(at_line(file, format!("two maps are named `{name}`")));
                    }
                }
                Err(found) => problems.extend(found),
            }
        }

        let mut scripts = BTreeMap::new();
        for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".lua")) {
            match std::str::from_utf8(bytes) {
                Ok(source) => {
                    scripts.insert(path.to_string(), source.to_string());
                }
                Err(_) => problems.push(CartError::file(path, "not UTF-8 text")),
            }
        }
        let mut bullet_patterns = PatternLibrary::default();
        for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".xml")) {
            let Ok(text) = std::str::from_utf8(bytes) else {
                problems.push(CartError::file(path, "not UTF-8 text"));
                continue;
            };
            if !bulletml::is_pattern_document(text) {
                continue;
            }
            let name = Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            match bulletml::parse(&name, text) {
                Ok(pattern) => {
                    if !bullet_patterns.insert(name.clone(), pattern) {
                        problems.push(CartError::file(
                            path,
                            format!("two patterns are named `{name}`"),
                        ));
                    }
                }
                Err(e) if e.path.is_empty() => {
                    problems.push(CartError::at(path, e.line, e.message))
                }
                Err(e) => problems.push(CartError::at(
                    path,
                    e.line,
                    format!("{}: {}", e.path, e.message),
                )),
            }
        }

        let audio = load_audio(&manifest, &locator, &files, &mut problems);

        let mut cart_fonts: Vec<crate::video::fonts::Font> = Vec::new();
        for decl in &manifest.fonts {
            let Some(bytes) = files.get(&decl.file) else {
                problems.push(at_line(&decl.file, format!("missing file `{}`", decl.file)));
                continue;
            };
            if cart_fonts.iter().any(|f| f.name == decl.name) {
                let message = format!("two fonts are named `{}`", decl.name);
                problems.push(at_line(&decl.file, message));
                continue;
            }
            match fonts::load(decl, bytes) {
                Ok((font, note)) => {
                    art.notes.push(note);
                    cart_fonts.push(font);
                }
                Err(message) => problems.push(at_line(&decl.file, message)),
            }
        }

        let mut pico8 = None;
        if let Some(decl) = &manifest.pico8 {
            match pico8::load(&files, decl) {
                Ok(rom) => pico8 = Some(Arc::new(rom)),
                Err(e) => problems.push(e),
            }
            if manifest.plane != manifest::Plane::Canvas {
                problems.push(at_line(
                    "[pico8]",
                    "a [pico8] cart draws on the canvas: add plane = \"canvas\"".into(),
                ));
            }
        }

        if !scripts.contains_key(&manifest.entry) {
            problems.push(at_line(
                "entry",
                format!("missing file `{}` (the entry script)", manifest.entry),
            ));
        }

        if !problems.is_empty() {
            // A tileset two maps share is told once.
            let mut seen = std::collections::BTreeSet::new();
            problems.retain(|p| seen.insert(p.to_string()));
            return Err(CartErrors(problems));
        }
        Ok(Cart {
            palette: art.palettes.ram,
            patterns: art.vram.vram,
            maps,
            tile_palettes: art.vram.palettes,
            notes: once_each(art.notes),
            warnings: once_each(art.warnings),
            scripts,
            bullet_patterns,
            audio: Arc::new(audio),
            fonts: cart_fonts,
            sheets,
            pico8,
            manifest,
            files,
        })
    }

    /// The cart's display name.
    pub fn name(&self) -> &str {
        &self.manifest.name
    }
}

/// Lines in their first order, each once (an image several tilesets use is told once).
fn once_each(lines: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    lines
        .into_iter()
        .filter(|line| seen.insert(line.clone()))
        .collect()
}

/// What a `[[sheet]]` makes transparent: its own `transparent` value, and the colour key of
/// every Tiled tileset whose image it is (all of which must agree).
fn sheet_clear(
    decl: &manifest::SheetDecl,
    maps: &[&tiled::Map],
) -> Result<art::picture::Clear, String> {
    let mut clear = art::picture::Clear::default();
    match &decl.transparent {
        None => {}
        Some(manifest::Transparent::Index(i)) => match u8::try_from(*i) {
            Ok(index) => clear.index = Some(index),
            Err(_) => return Err(format!("transparent = {i}: a palette index is 0-255")),
        },
        Some(manifest::Transparent::Color(text)) => match parse_color(text) {
            Some(rgb) => clear.key = Some(rgb),
            None => {
                return Err(format!(
                    "transparent = \"{text}\": give a palette index (0-255) or a \"#rrggbb\" colour"
                ));
            }
        },
    }
    let own = clear.key;
    for map in maps {
        for ts in &map.tilesets {
            let Some(image) = &ts.tileset.image else {
                continue;
            };
            let (Some(trans), true) = (image.trans, image.source == decl.file) else {
                continue;
            };
            match clear.key {
                None => clear.key = Some(trans),
                Some(key) if key == trans => {}
                Some(key) => {
                    let other = if own == Some(key) {
                        format!("its [[sheet]] says transparent = \"#{key:06x}\"")
                    } else {
                        format!("another tileset makes #{key:06x} transparent")
                    };
                    return Err(format!(
                        "{}: the tileset `{}` ({}) makes #{trans:06x} transparent, but {other}; an image has one colour key: make them the same",
                        decl.file, ts.tileset.name, map.origin.file
                    ));
                }
            }
        }
    }
    Ok(clear)
}

/// Where MML given inline in `cart.toml` starts, for error positions: the line and column of
/// the first occurrence of the text (or of the declaration's name when the text is escaped);
/// `None` when neither is found (or the locator's budget is spent).
fn inline_position(locator: &Locator, mml: &str, name: &str) -> Option<Pos> {
    let at = locator.find(mml).or_else(|| locator.find(name))?;
    let (line, column) = locator.position(at);
    Some(Pos { line, column })
}

/// Compiles the manifest's `[[music]]` and `[[sfx]]`, collecting problems as
/// `file:line:column: message`.
fn load_audio(
    manifest: &Manifest,
    locator: &Locator,
    files: &CartFiles,
    problems: &mut Vec<CartError>,
) -> AudioLibrary {
    let mut library = AudioLibrary::default();
    // An error in text whose start is known (`start` is `Some`) carries its position.
    let located = |file: &str, start: Option<Pos>, e: MmlError| match start {
        Some(_) => CartError {
            column: Some(e.pos.column),
            ..CartError::at(file, e.pos.line, e.message)
        },
        None => CartError::file(file, e.message),
    };
    // The text of a declaration and where it starts.
    type Source = (String, String, Option<Pos>);
    let source = |decl: &manifest::SoundDecl, kind: &str| -> Result<Source, CartError> {
        match (&decl.file, &decl.mml) {
            (Some(file), None) => {
                let bytes = files.require(file, MANIFEST)?;
                let text = std::str::from_utf8(bytes)
                    .map_err(|_| CartError::file(file, "not UTF-8 text"))?;
                let start = Some(Pos { line: 1, column: 1 });
                Ok((file.clone(), text.to_string(), start))
            }
            (None, Some(mml)) => Ok((
                MANIFEST.to_string(),
                mml.clone(),
                inline_position(locator, mml, &decl.name),
            )),
            _ => {
                let message = format!(
                    "{kind} `{}` needs exactly one of `file` and `mml`",
                    decl.name
                );
                // The line of its name (`name = "a"`), where the declaration is.
                Err(match locator.find(&format!("\"{}\"", decl.name)) {
                    Some(at) => CartError::at(MANIFEST, locator.position(at).0, message),
                    None => CartError::file(MANIFEST, message),
                })
            }
        }
    };
    for decl in &manifest.music {
        let (file, text, start) = match source(decl, "music") {
            Ok(s) => s,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let pieces = if decl.mml.is_some() {
            // Inline music: tracks separated by `|`.
            let mut pieces = Vec::new();
            let mut offset = 0;
            let start_or_top = start.unwrap_or(Pos { line: 1, column: 1 });
            for (channel, piece) in text.split('|').enumerate() {
                pieces.push((
                    channel,
                    piece.to_string(),
                    Pos {
                        line: start_or_top.line,
                        column: start_or_top.column + offset,
                    },
                ));
                offset += piece.chars().count() + 1;
            }
            Ok(pieces)
        } else {
            mml::split_tracks(&text)
        };
        let pieces = match pieces {
            Ok(p) => p,
            Err(e) => {
                problems.push(located(&file, start, e));
                continue;
            }
        };
        if pieces.len() > crate::audio::CHANNELS {
            problems.push(CartError::file(
                &file,
                format!("music `{}` has more than 8 tracks", decl.name),
            ));
            continue;
        }
        let mut tracks = Vec::new();
        for (channel, body, pos) in pieces {
            match mml::compile(&body, pos) {
                Ok(cmds) => tracks.push((channel, Arc::new(cmds))),
                Err(e) => problems.push(located(&file, start, e)),
            }
        }
        if library
            .songs
            .insert(decl.name.clone(), Song { tracks })
            .is_some()
        {
            problems.push(CartError::file(
                MANIFEST,
                format!("two [[music]] are named `{}`", decl.name),
            ));
        }
    }
    let mut sound_names = std::collections::BTreeSet::new();
    for decl in &manifest.sfx {
        match source(decl, "sfx") {
            Ok((file, text, start)) => {
                match mml::compile(&text, start.unwrap_or(Pos { line: 1, column: 1 })) {
                    Ok(cmds) => {
                        if !sound_names.insert(decl.name.as_str()) {
                            problems.push(CartError::file(
                                MANIFEST,
                                format!("two [[sfx]] are named `{}`", decl.name),
                            ));
                        }
                        library.sounds.push((decl.name.clone(), Arc::new(cmds)));
                    }
                    Err(e) => problems.push(located(&file, start, e)),
                }
            }
            Err(e) => problems.push(e),
        }
    }
    library
}
