//! Collision tiles: what one cell of the collision layer is made of, the catalogue of
//! slopes, and the names carts and Tiled maps use for them (`collide = "slope_1_2_up_a"`).
//!
//! A floor slope is solid below a line given by the floor height at its left and right edge,
//! in sixteenths of the cell from its bottom (0-16: pixels in a 16 px cell, half-pixels in an
//! 8 px one, pairs of pixels in a 32 px one), so a shape is the same at every cell size. A
//! ceiling slope is the same shape mirrored vertically (solid above the line, heights
//! measured from the cell's top): what a floor slope is to a body whose gravity points up.
//!
//! Adding a tile attribute: add a variant here with its name in [`Tile::name`] and
//! [`Tile::from_name`], give it a meaning in `mover.rs` (floors, walls, ceilings) and its
//! vertical mirror in [`Tile::mirrored`], and document it in `docs/collision.md`.

/// The height of a full slope edge: heights are in sixteenths of a cell, at every cell size.
pub const FULL: u8 = 16;

/// One cell of the collision layer.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Tile {
    #[default]
    Empty,
    /// A full block.
    Solid,
    /// A full block you stand on with low friction (reported by the `ON_ICE` flag). As in
    /// seed 000, ice is a floor surface: it does not stop sideways movement or jumps from
    /// below — build walls and ceilings from `Solid`.
    Ice,
    /// A ladder: climbable; its top (a ladder cell with no ladder above) is a floor in
    /// ground mode only.
    Ladder,
    /// Not solid; touching it sets the `HAZARD` flag.
    Hazard,
    /// A platform at the top of the cell: landed on from above, passed from below and from
    /// the sides, dropped through on request.
    OneWay,
    /// A one-way platform at the bottom of the cell, for bodies whose gravity points up.
    OneWayUp,
    /// A floor slope with these heights (sixteenths of the cell from its bottom) at its left
    /// and right edge.
    Slope { left: u8, right: u8 },
    /// A ceiling slope: depths (sixteenths of the cell from its top) of its solid part at
    /// each edge.
    CeilingSlope { left: u8, right: u8 },
}

/// The named slopes: (name, left height, right height). Rising slopes go up to the right.
pub(crate) const SLOPES: &[(&str, u8, u8)] = &[
    ("slope_1_1_up", 0, 16),
    ("slope_1_1_down", 16, 0),
    ("slope_1_2_up_a", 0, 8),
    ("slope_1_2_up_b", 8, 16),
    ("slope_1_2_down_a", 16, 8),
    ("slope_1_2_down_b", 8, 0),
    ("slope_1_4_up_a", 0, 4),
    ("slope_1_4_up_b", 4, 8),
    ("slope_1_4_up_c", 8, 12),
    ("slope_1_4_up_d", 12, 16),
    ("slope_1_4_down_a", 16, 12),
    ("slope_1_4_down_b", 12, 8),
    ("slope_1_4_down_c", 8, 4),
    ("slope_1_4_down_d", 4, 0),
];

/// Every plain tile name.
pub(crate) const PLAIN: &[(&str, Tile)] = &[
    ("empty", Tile::Empty),
    ("solid", Tile::Solid),
    ("ice", Tile::Ice),
    ("ladder", Tile::Ladder),
    ("hazard", Tile::Hazard),
    ("oneway", Tile::OneWay),
    ("oneway_up", Tile::OneWayUp),
];

impl Tile {
    /// The tile called `name`: a plain name, a catalogue slope (`slope_1_4_up_a`), its
    /// ceiling form (`ceiling_1_4_up_a`), or a custom slope `slope:L:R` / `ceiling:L:R`.
    pub fn from_name(name: &str) -> Option<Tile> {
        if let Some(&(_, tile)) = PLAIN.iter().find(|(n, _)| *n == name) {
            return Some(tile);
        }
        if let Some(rest) = name.strip_prefix("ceiling_") {
            let (_, left, right) = SLOPES
                .iter()
                .find(|(n, _, _)| n.strip_prefix("slope_") == Some(rest))?;
            return Some(Tile::CeilingSlope {
                left: *left,
                right: *right,
            });
        }
        if let Some(&(_, left, right)) = SLOPES.iter().find(|(n, _, _)| *n == name) {
            return Some(Tile::Slope { left, right });
        }
        let (kind, rest) = name.split_once(':')?;
        let (left, right) = rest.split_once(':')?;
        let (left, right) = (left.parse::<u8>().ok()?, right.parse::<u8>().ok()?);
        if left > FULL || right > FULL {
            return None;
        }
        match kind {
            "slope" => Some(Tile::Slope { left, right }),
            "ceiling" => Some(Tile::CeilingSlope { left, right }),
            _ => None,
        }
    }

    /// The tile's name (a catalogue name when it has one).
    pub fn name(self) -> String {
        match self {
            Tile::Slope { left, right } | Tile::CeilingSlope { left, right } => {
                let catalogue = SLOPES.iter().find(|(_, l, r)| (*l, *r) == (left, right));
                match (self, catalogue) {
                    (Tile::Slope { .. }, Some((n, _, _))) => n.to_string(),
                    (_, Some((n, _, _))) => n.replacen("slope_", "ceiling_", 1),
                    (Tile::Slope { .. }, None) => format!("slope:{left}:{right}"),
                    _ => format!("ceiling:{left}:{right}"),
                }
            }
            other => PLAIN
                .iter()
                .find(|(_, t)| *t == other)
                .map(|(n, _)| n.to_string())
                .unwrap_or_default(),
        }
    }

    /// The same cell seen upside down (for bodies whose gravity points up).
    pub(crate) fn mirrored(self) -> Tile {
        match self {
            Tile::Slope { left, right } => Tile::CeilingSlope { left, right },
            Tile::CeilingSlope { left, right } => Tile::Slope { left, right },
            Tile::OneWay => Tile::OneWayUp,
            Tile::OneWayUp => Tile::OneWay,
            other => other,
        }
    }

    /// Whether this is a floor slope.
    pub(crate) fn is_slope(self) -> bool {
        matches!(self, Tile::Slope { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for (name, _) in PLAIN {
            assert_eq!(Tile::from_name(name).unwrap().name(), *name);
        }
        for (name, left, right) in SLOPES {
            let tile = Tile::from_name(name).unwrap();
            assert_eq!(
                tile,
                Tile::Slope {
                    left: *left,
                    right: *right
                }
            );
            assert_eq!(tile.name(), *name);
            let ceiling = name.replacen("slope_", "ceiling_", 1);
            assert_eq!(Tile::from_name(&ceiling).unwrap(), tile.mirrored());
            assert_eq!(tile.mirrored().name(), ceiling);
        }
        assert_eq!(
            Tile::from_name("slope:3:9"),
            Some(Tile::Slope { left: 3, right: 9 })
        );
        assert_eq!(Tile::from_name("slope:3:9").unwrap().name(), "slope:3:9");
        assert_eq!(Tile::from_name("slope:3:17"), None);
        assert_eq!(Tile::from_name("lava"), None);
    }

    #[test]
    fn mirroring_twice_is_the_identity() {
        for (name, _, _) in SLOPES {
            let tile = Tile::from_name(name).unwrap();
            assert_eq!(tile.mirrored().mirrored(), tile);
        }
        assert_eq!(Tile::OneWay.mirrored(), Tile::OneWayUp);
        assert_eq!(Tile::Solid.mirrored(), Tile::Solid);
    }
}
