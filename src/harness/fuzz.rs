//! The bodies of the fuzz targets in `fuzz/` (run with `cargo +nightly fuzz`), one `pub fn`
//! per target taking the fuzzer's bytes. They live here so that `tests/fuzz_regressions.rs`
//! replays every saved crash or timeout input through the same code on stable Rust.
//!
//! A body may return any error for any input; it must not panic, hang or take seconds. Each
//! loads its input the way a user's file is loaded (through [`Cart::from_files`] where the
//! input is a cart file) and, where the format can be written back, checks the round trip.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::audio::AudioUnit;
use crate::bullets::BulletUnit;
use crate::bullets::bulletml;
use crate::cart::Cart;
use crate::cart::files::CartFiles;
use crate::cart::kcart;
use crate::fixed::fx_from_f64;
use crate::movie::Movie;
use crate::rng::Rng;

/// Frames a fuzzed BulletML pattern runs for.
const PATTERN_FRAMES: usize = 120;
/// Vblanks of fuzzed music and sound rendered.
const AUDIO_VBLANKS: usize = 8;

/// A 16x16 indexed PNG with four colours: four 8x8 tiles for the base cart's sheet.
fn tiny_png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 16, 16);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(vec![0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]);
        let mut writer = encoder.write_header().expect("in memory");
        let pixels: Vec<u8> = (0..256u32).map(|i| ((i / 8 + i / 128) % 4) as u8).collect();
        writer.write_image_data(&pixels).expect("in memory");
        writer.finish().expect("in memory");
        bytes
    })
}

/// A small valid map over the base sheet, whose tileset is in `tileset` (embedded when
/// `None`).
fn tiny_map(tileset: Option<&str>) -> String {
    let tileset = match tileset {
        Some(file) => format!(r#"<tileset firstgid="1" source="{file}"/>"#),
        None => TINY_TILESET
            .replace("<?xml version=\"1.0\"?>", "")
            .replace("<tileset ", "<tileset firstgid=\"1\" "),
    };
    format!(
        r#"<?xml version="1.0"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="8" tileheight="8" infinite="0">
 {tileset}
 <layer id="1" name="ground" width="4" height="2">
  <data encoding="csv">1,2,3,4,0,1,2,3</data>
 </layer>
 <objectgroup id="2" name="things"><object id="1" name="spawn" x="8" y="8"/></objectgroup>
</map>
"#
    )
}

const TINY_TILESET: &str = r#"<?xml version="1.0"?>
<tileset name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2">
 <image source="../gfx/tiles.png" width="16" height="16"/>
 <tile id="1"><properties><property name="collide" value="solid"/></properties></tile>
</tileset>
"#;

/// The manifest of the base cart: one sheet, one map, one song, one sound effect.
const BASE_MANIFEST: &str = r#"name = "fuzz"
[[sheet]]
file = "gfx/tiles.png"
tile = 0
palette = 1
[[map]]
file = "maps/m.tmx"
[[music]]
name = "song"
file = "music/song.mml"
[[sfx]]
name = "beep"
mml = "t150 @1 o5 c16 e16 g16"
"#;

/// The base cart's files, every one valid, with `path` = `bytes` put in.
fn cart_with(path: &str, bytes: &[u8]) -> CartFiles {
    let mut files = BTreeMap::new();
    let mut add = |p: &str, b: &[u8]| files.insert(p.to_string(), b.to_vec());
    add("cart.toml", BASE_MANIFEST.as_bytes());
    add("main.lua", b"function update() end\n");
    add("gfx/tiles.png", tiny_png());
    add("maps/m.tmx", tiny_map(None).as_bytes());
    add("music/song.mml", b"A t120 o4 l8 L [cdeg]2\nB o3 @4 c2 g2\n");
    add(path, bytes);
    CartFiles::from_map("fuzz", files)
}

/// `cart.toml`: the base cart with the fuzzed manifest.
pub fn manifest(data: &[u8]) {
    let _ = Cart::from_files(cart_with("cart.toml", data));
}

/// A PNG sheet: the base cart with the fuzzed bytes as its one sheet, then as the image of
/// its map's tileset when no `[[sheet]]` declares it (the importer's path).
pub fn sheet(data: &[u8]) {
    let _ = Cart::from_files(cart_with("gfx/tiles.png", data));
    let _ = Cart::from_files(without_sheet(cart_with("gfx/tiles.png", data)));
}

/// An Aseprite file: read on its own without the loader's panic guard (so a panic the
/// loader's own walk lets through reaches the fuzzer), then as the base cart's one sheet.
pub fn aseprite(data: &[u8]) {
    let _ = crate::cart::art::aseprite::decode_unguarded(data);
    let mut files = cart_with("gfx/tiles.aseprite", data).into_map();
    let manifest = BASE_MANIFEST.replace("gfx/tiles.png", "gfx/tiles.aseprite");
    files.insert("cart.toml".into(), manifest.into_bytes());
    let _ = Cart::from_files(CartFiles::from_map("fuzz", files));
}

/// `files` with the `[[sheet]]` taken out of the manifest, so the map imports its image.
fn without_sheet(files: CartFiles) -> CartFiles {
    let mut files = files.into_map();
    let manifest = BASE_MANIFEST.replace(
        "[[sheet]]\nfile = \"gfx/tiles.png\"\ntile = 0\npalette = 1\n",
        "",
    );
    files.insert("cart.toml".into(), manifest.into_bytes());
    CartFiles::from_map("fuzz", files)
}

/// A Tiled map. The first byte picks the file fuzzed with the rest: the `.tmx` map, a
/// `.tmj` map, the `.tsx` tileset of a valid map, or the `.tmx` map of a cart whose tileset
/// image is imported rather than declared.
pub fn map(data: &[u8]) {
    if let Some(files) = map_cart(data) {
        let _ = Cart::from_files(files);
    }
}

fn map_cart(data: &[u8]) -> Option<CartFiles> {
    let (&pick, rest) = data.split_first()?;
    let files = match pick % 4 {
        0 => cart_with("maps/m.tmx", rest),
        3 => without_sheet(cart_with("maps/m.tmx", rest)),
        1 => {
            let manifest = BASE_MANIFEST.replace("maps/m.tmx", "maps/m.tmj");
            let mut files = cart_with("maps/m.tmj", rest).into_map();
            files.insert("cart.toml".into(), manifest.into_bytes());
            CartFiles::from_map("fuzz", files)
        }
        _ => {
            let mut files = cart_with("maps/t.tsx", rest).into_map();
            files.insert("maps/m.tmx".into(), tiny_map(Some("t.tsx")).into_bytes());
            CartFiles::from_map("fuzz", files)
        }
    };
    Some(files)
}

/// BulletML: parsed, then run from a source for [`PATTERN_FRAMES`] frames with a player to
/// aim at.
pub fn bulletml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pattern) = bulletml::parse("fuzz", text) else {
        return;
    };
    let mut unit = BulletUnit::default();
    unit.set_player(Some(crate::bullets::unit::Player {
        x: fx_from_f64(128.0),
        y: fx_from_f64(200.0),
        ..Default::default()
    }))
    .expect("a player box the unit takes");
    let mut rng = Rng::new(7);
    let patterns = [pattern];
    unit.start_pattern(&patterns, 0, fx_from_f64(128.0), fx_from_f64(48.0), 0);
    for _ in 0..PATTERN_FRAMES {
        unit.begin_frame();
        unit.release_pending();
        unit.run_programs(&mut rng, &patterns);
        unit.advance();
    }
}

/// MML. The first byte picks what the rest is: a music file (tracks `A`-`H`) or a sound
/// effect file of the base cart. It is compiled through the cart loader, then the music and
/// the sound effect play for [`AUDIO_VBLANKS`] vblanks.
pub fn mml(data: &[u8]) {
    let Some(Ok(cart)) = mml_cart(data).map(Cart::from_files) else {
        return;
    };
    let mut unit = AudioUnit::default();
    unit.play_music(&cart.audio, "song")
        .expect("the song was loaded");
    unit.play_sound(&cart.audio, 0, None)
        .expect("the sound was loaded");
    let mut out = vec![0.0; crate::audio::SAMPLES_PER_VBLANK];
    for _ in 0..AUDIO_VBLANKS {
        unit.render_vblank(&cart.audio, &mut out);
        assert!(out.iter().all(|s| s.is_finite()), "audio is not finite");
    }
}

fn mml_cart(data: &[u8]) -> Option<CartFiles> {
    let (&pick, rest) = data.split_first()?;
    let mut files = if pick % 2 == 0 {
        cart_with("music/song.mml", rest).into_map()
    } else {
        cart_with("music/beep.mml", rest).into_map()
    };
    let manifest = BASE_MANIFEST.replace(
        "mml = \"t150 @1 o5 c16 e16 g16\"",
        "file = \"music/beep.mml\"",
    );
    files.insert("cart.toml".into(), manifest.into_bytes());
    files
        .entry("music/beep.mml".into())
        .or_insert_with(|| b"t150 @1 o5 c16 e16 g16".to_vec());
    Some(CartFiles::from_map("fuzz", files))
}

/// A `.kcart`: unpacked as it is; then, with its checksum made right (random bytes almost
/// never carry a right CRC-32, which would stop every input at the check), unpacked, packed
/// again (the same files come back) and loaded as a cart.
pub fn kcart(data: &[u8]) {
    let _ = kcart::unpack(data);
    let mut fixed = data.to_vec();
    if let Some(body) = fixed.len().checked_sub(4) {
        let crc = crc32fast::hash(&fixed[..body]);
        fixed[body..].copy_from_slice(&crc.to_le_bytes());
    }
    let Ok(files) = kcart::unpack(&fixed) else {
        return;
    };
    let repacked = kcart::pack(files.iter().map(|(p, d)| (p.as_str(), d.as_slice())))
        .expect("an unpacked cart packs again");
    let again = kcart::unpack(&repacked).expect("a packed cart unpacks");
    assert!(again == files, "unpack(pack(files)) != files");
    let _ = Cart::from_files(CartFiles::from_map("fuzz.kcart", files));
}

/// A `.kmv` movie: parsed, and if it parses, written and parsed back to the same movie.
pub fn movie(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(movie) = Movie::parse(text, "fuzz.kmv") else {
        return;
    };
    let again = Movie::parse(&movie.to_text(), "again.kmv").expect("a written movie parses");
    assert_eq!(again, movie, "movie text does not round-trip");
}

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target by name, for the regression test and the fuzz crate.
pub const TARGETS: &[(&str, Target)] = &[
    ("manifest", manifest),
    ("sheet", sheet),
    ("aseprite", aseprite),
    ("map", map),
    ("bulletml", bulletml),
    ("mml", mml),
    ("kcart", kcart),
    ("movie", movie),
];

#[cfg(test)]
mod tests {
    use super::*;

    // The fuzzed file is the only broken one: everything around it loads, so the fuzzer
    // reaches deep into each loader instead of stopping at a missing file.

    #[test]
    fn the_base_cart_loads() {
        let cart = Cart::from_files(cart_with("extra.txt", b"")).unwrap();
        assert_eq!(cart.maps["m"].layers.len(), 1);
        assert!(cart.audio.songs.contains_key("song"));
    }

    #[test]
    fn each_map_pick_loads_a_valid_file() {
        let tmx = [&[0u8][..], tiny_map(None).as_bytes()].concat();
        assert!(Cart::from_files(map_cart(&tmx).unwrap()).is_ok());
        let tsx = [&[2u8][..], TINY_TILESET.as_bytes()].concat();
        let cart = Cart::from_files(map_cart(&tsx).unwrap()).unwrap();
        assert_eq!(cart.maps["m"].cols, 4);
        let imported = [&[3u8][..], tiny_map(None).as_bytes()].concat();
        let cart = Cart::from_files(map_cart(&imported).unwrap()).unwrap();
        assert!(
            cart.manifest.sheets.is_empty(),
            "the image is imported, not declared"
        );
        assert!(cart.notes[0].contains("gfx/tiles.png"), "{:?}", cart.notes);
    }

    #[test]
    fn each_mml_pick_loads_a_valid_file() {
        let music = b"\0A o4 c d e\nB o3 c2";
        let cart = Cart::from_files(mml_cart(music).unwrap()).unwrap();
        assert_eq!(cart.audio.songs["song"].tracks.len(), 2);
        let sfx = b"\x01o5 c16 e16";
        let cart = Cart::from_files(mml_cart(sfx).unwrap()).unwrap();
        assert_eq!(cart.audio.sounds.len(), 1);
        mml(music);
    }

    #[test]
    fn round_trip_targets_accept_their_own_output() {
        let packed = kcart::pack([("cart.toml", &b"name = 'x'"[..])]).unwrap();
        kcart(&packed);
        movie(b"kairo-movie 1\ncart x\n0002 *3\n");
    }
}
