//! `kairo headless ... --dump-vram DIR`: the hardware views written as PNG files after the
//! run's last frame, with `index.txt` naming each file and what it shows. Files are written
//! atomically; the folder is made if missing. The files:
//!
//! - `tiles-pN.png`: the tile sheet (tile rows up to the last non-blank one) in palette N,
//!   one file for each palette in use (by a non-empty cell of an enabled layer, a visible
//!   sprite or a live bullet's type; palette 0 when none is), drawn twice the size;
//! - `palettes.png`: palette RAM, twice the size;
//! - `layer0.png` .. `layer3.png`: each background layer whole, with the screen marked;
//! - `oam.png`: the 256 sprites as a list; `sprites.png`: the picture with sprite outlines;
//! - `bullets.png`: the bullet table.

use std::path::{Path, PathBuf};

use super::image::Image;
use super::{bullets, layers, palette, sprites, tiles};
use crate::console::Console;
use crate::error::{Result, ToolError};
use crate::machine::Machine;
use crate::spec::{BG_LAYERS, OAM_ENTRIES, PALETTES};

/// How much larger the tile sheets and the palette picture are written.
pub const ENLARGE: usize = 2;

/// The palettes in use: by a non-empty cell of an enabled layer (as shown now), a visible
/// sprite on screen, or the type of a live bullet. Palette 0 when none is.
pub(crate) fn palettes_in_use(machine: &Machine) -> Vec<u8> {
    let video = &machine.video();
    let mut used = [false; PALETTES];
    for layer in video.layers().iter().filter(|l| l.enabled) {
        for row in 0..layer.rows() {
            for col in 0..layer.cols() {
                if let Ok(cell) = layer.cell(col as i64, row as i64)
                    && !cell.is_empty()
                {
                    used[usize::from(video.anims().apply(cell).palette())] = true;
                }
            }
        }
    }
    for sprite in video.oam().iter().filter(|s| s.on_screen()) {
        used[usize::from(sprite.palette & 0xF)] = true;
    }
    for &kind in &machine.bullets().table().kind {
        let look = machine.bullets().types()[usize::from(kind) % machine.bullets().types().len()];
        used[usize::from(look.palette & 0xF)] = true;
    }
    let list: Vec<u8> = (0..PALETTES as u8)
        .filter(|&p| used[usize::from(p)])
        .collect();
    if list.is_empty() { vec![0] } else { list }
}

/// Every file a dump writes, as (file name, picture, what it shows).
pub fn pictures(console: &Console) -> Vec<(String, Image, String)> {
    let machine = console.machine();
    let rows = tiles::rows_in_use(machine);
    let mut out = Vec::new();
    for p in palettes_in_use(machine) {
        out.push((
            format!("tiles-p{p:X}.png"),
            tiles::tile_sheet(machine, p, rows).scaled(ENLARGE),
            format!(
                "pattern VRAM tiles 000-{:03X} in palette {p:X} (x{ENLARGE})",
                rows * 16 - 1
            ),
        ));
    }
    out.push((
        "palettes.png".into(),
        palette::palette_view(machine, 0).scaled(ENLARGE),
        format!("palette RAM, 16 palettes of 16 colours (x{ENLARGE})"),
    ));
    for n in 0..BG_LAYERS {
        let [first, second] = layers::caption(machine, n);
        out.push((
            format!("layer{n}.png"),
            layers::layer_view(machine, n),
            format!("{first}, {second}"),
        ));
    }
    out.push((
        "oam.png".into(),
        sprites::oam_list(machine, 0..OAM_ENTRIES),
        "the 256 OAM entries (hidden ones grey)".into(),
    ));
    out.push((
        "sprites.png".into(),
        sprites::sprite_outlines(machine, &console.rgba()),
        "the picture with visible sprites outlined by priority".into(),
    ));
    let summary = bullets::BulletSummary::of(machine);
    out.push((
        "bullets.png".into(),
        bullets::bullet_view(machine),
        format!(
            "bullet table: {} live, {} free, {} sources",
            summary.live,
            summary.free(),
            summary.sources.len()
        ),
    ));
    out
}

/// Writes every view of `console`'s machine into `dir` (made if missing), then `index.txt`;
/// returns the paths written, the index last.
pub fn dump_vram(console: &Console, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(ToolError::write(dir))?;
    let mut written = Vec::new();
    let mut index = format!(
        "kairo --dump-vram: {} after machine frame {}\n",
        console.cart().name(),
        console.machine().frame()
    );
    for (name, image, what) in pictures(console) {
        let path = dir.join(&name);
        let bytes = crate::views::screenshot::encode_png_sized(
            &image.rgba,
            image.width as u32,
            image.height as u32,
        )
        .map_err(|e| ToolError::Write {
            path: path.clone(),
            source: std::io::Error::other(e),
        })?;
        crate::fsutil::write_atomic(&path, &bytes).map_err(ToolError::write(&path))?;
        index += &format!("{name}: {what}\n");
        written.push(path);
    }
    let path = dir.join("index.txt");
    crate::fsutil::write_atomic(&path, index.as_bytes()).map_err(ToolError::write(&path))?;
    written.push(path);
    Ok(written)
}
