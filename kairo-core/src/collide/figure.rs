//! The tile catalogue figure of `docs/collision.md` (`docs/img/collision-tiles.svg`), drawn
//! from the catalogue itself; a test keeps the file current
//! (`KAIRO_UPDATE_DOCS=1 cargo test collision_figure` rewrites it).

use std::fmt::Write;

use super::tile::{PLAIN, SLOPES, Tile};

const SCALE: i32 = 4;
const SIDE: i32 = 16 * SCALE;
const PER_ROW: usize = 6;
const GAP_X: i32 = 56;
const GAP_Y: i32 = 40;

/// The figure as SVG text.
pub(crate) fn catalogue_svg() -> String {
    let mut tiles: Vec<(String, Tile)> = PLAIN
        .iter()
        .filter(|(_, t)| *t != Tile::Empty && *t != Tile::OneWayUp)
        .map(|(n, t)| (n.to_string(), *t))
        .collect();
    tiles.extend(SLOPES.iter().map(|(n, l, r)| {
        (
            n.to_string(),
            Tile::Slope {
                left: *l,
                right: *r,
            },
        )
    }));
    tiles.push((
        "ceiling_1_2_up_a".into(),
        Tile::CeilingSlope { left: 0, right: 8 },
    ));
    tiles.push(("oneway_up".into(), Tile::OneWayUp));
    let rows = tiles.len().div_ceil(PER_ROW) as i32;
    let (width, height) = (
        PER_ROW as i32 * (SIDE + GAP_X) + 20,
        rows * (SIDE + GAP_Y) + 20,
    );
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    );
    for (i, (name, tile)) in tiles.iter().enumerate() {
        let x = 10 + (i % PER_ROW) as i32 * (SIDE + GAP_X) + GAP_X / 2;
        let y = 10 + (i / PER_ROW) as i32 * (SIDE + GAP_Y);
        let _ = writeln!(svg, "<g transform=\"translate({x},{y})\">");
        let _ = writeln!(
            svg,
            "<rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"#eef4fb\" stroke=\"#8aa0b8\"/>"
        );
        svg += &shape(*tile);
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{name}</text>",
            SIDE / 2,
            SIDE + 14
        );
        svg += "</g>\n";
    }
    svg += "</svg>\n";
    svg
}

/// The solid part of one tile, in a `SIDE` x `SIDE` box.
fn shape(tile: Tile) -> String {
    let solid = "#7a5230";
    match tile {
        Tile::Solid => format!("<rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"{solid}\"/>\n"),
        Tile::Ice => format!("<rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"#9cdcf6\"/><path d=\"M8 40 L24 24 M20 52 L44 28\" stroke=\"#ffffff\" stroke-width=\"3\"/>\n"),
        Tile::Ladder => {
            let mut s = "<path d=\"M14 0 V64 M50 0 V64".to_string();
            for rung in [8, 24, 40, 56] {
                let _ = write!(s, " M14 {rung} H50");
            }
            s + "\" stroke=\"#a0622d\" stroke-width=\"4\"/>\n"
        }
        Tile::Hazard => "<path d=\"M0 64 L8 40 L16 64 L24 40 L32 64 L40 40 L48 64 L56 40 L64 64 Z\" fill=\"#c8ccd8\" stroke=\"#5a5e70\"/>\n".into(),
        Tile::OneWay => format!("<rect width=\"{SIDE}\" height=\"8\" fill=\"#c8864e\"/><path d=\"M32 56 V20 M24 28 L32 20 L40 28\" stroke=\"#3a7fd4\" stroke-width=\"3\" fill=\"none\"/>\n"),
        Tile::OneWayUp => format!("<rect y=\"{}\" width=\"{SIDE}\" height=\"8\" fill=\"#c8864e\"/><path d=\"M32 8 V44 M24 36 L32 44 L40 36\" stroke=\"#3a7fd4\" stroke-width=\"3\" fill=\"none\"/>\n", SIDE - 8),
        Tile::Slope { left, right } => {
            let (l, r) = (SIDE - i32::from(left) * SCALE, SIDE - i32::from(right) * SCALE);
            format!("<path d=\"M0 {SIDE} L0 {l} L{SIDE} {r} L{SIDE} {SIDE} Z\" fill=\"{solid}\"/>\n")
        }
        Tile::CeilingSlope { left, right } => {
            let (l, r) = (i32::from(left) * SCALE, i32::from(right) * SCALE);
            format!("<path d=\"M0 0 L0 {l} L{SIDE} {r} L{SIDE} 0 Z\" fill=\"{solid}\"/>\n")
        }
        Tile::Empty => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collision_figure_is_current() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/img/collision-tiles.svg"
        );
        let svg = catalogue_svg();
        assert!(
            roxmltree::Document::parse(&svg).is_ok(),
            "the figure is well-formed XML"
        );
        if std::env::var_os("KAIRO_UPDATE_DOCS").is_some() {
            std::fs::write(path, &svg).expect("write the figure");
        }
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == svg,
            "docs/img/collision-tiles.svg is stale: run `KAIRO_UPDATE_DOCS=1 cargo test collision_figure`"
        );
    }
}
