//! Palette RAM being filled at cart load: fixed colours from `cart.toml`, sheets that keep one
//! palette, and tiles whose colours are grouped automatically into palettes of 15 colours
//! (colour 0 stays transparent).
//!
//! Grouping, deterministic: the distinct colour sets of the tiles, largest first, each go to
//! the open automatic palette that already shares most of its colours and still has room, or
//! else open the lowest-numbered palette nothing uses yet. Later sheets can add colours to the
//! automatic palettes earlier ones opened, so tilesets drawn with one set of colours share.
//! A grouping never reaches below its floor: a sheet's declared palette, or palette 1 for
//! imported tilesets, so palette 0 (text and HUD colours) is written only by a sheet that
//! declares it.

use std::collections::BTreeMap;

use crate::spec::{PALETTE_COLORS, PALETTES};
use crate::video::palette::PaletteRam;

/// Colours one palette holds besides transparent.
pub(crate) const USABLE: usize = PALETTE_COLORS - 1;

/// Palette RAM under construction.
#[derive(Clone, Debug, Default)]
pub struct PaletteBuilder {
    pub ram: PaletteRam,
    taken: [[bool; PALETTE_COLORS]; PALETTES],
    /// Palettes opened by automatic grouping (more tiles may be added to them).
    automatic: [bool; PALETTES],
}

/// Why tiles could not get palettes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoRoom {
    /// Tiles (indices into the caller's list) that found no palette.
    pub tiles: Vec<usize>,
    /// Palettes in use by the grouping when it ran out.
    pub opened: Vec<u8>,
}

impl PaletteBuilder {
    /// Sets colour `color` of palette `palette` and marks it taken.
    pub fn set(&mut self, palette: usize, color: usize, rgb: u32) {
        self.ram.set((palette * PALETTE_COLORS + color) as u8, rgb);
        self.taken[palette][color] = true;
    }

    /// The colours of `palette` that are taken, by index.
    fn colours(&self, palette: usize) -> Vec<(u8, u32)> {
        (1..PALETTE_COLORS)
            .filter(|&c| self.taken[palette][c])
            .map(|c| (c as u8, self.ram.get((palette * PALETTE_COLORS + c) as u8)))
            .collect()
    }

    fn is_free(&self, palette: usize) -> bool {
        self.taken[palette][1..].iter().all(|t| !t)
    }

    /// The colour index of `rgb` in `palette`, taking a free slot when it is new.
    pub(crate) fn find_or_take(&mut self, palette: usize, rgb: u32) -> Option<u8> {
        if let Some((c, _)) = self.colours(palette).into_iter().find(|&(_, v)| v == rgb) {
            return Some(c);
        }
        let free = (1..PALETTE_COLORS).find(|&c| !self.taken[palette][c])?;
        self.set(palette, free, rgb);
        Some(free as u8)
    }

    /// Whether all of `colours` fit in `palette` (present already or free slots for them).
    pub fn fits(&self, palette: usize, colours: &[u32]) -> bool {
        let have = self.colours(palette);
        let new = colours
            .iter()
            .filter(|c| !have.iter().any(|(_, v)| v == *c))
            .count();
        have.len() + new <= USABLE
    }

    /// Gives each colour set (one per tile, at most [`USABLE`] colours each) a palette, and
    /// writes the colours into palette RAM. `first`, if given, is tried before automatic
    /// palettes and may already hold colours; no palette below it is used (below palette 1
    /// when there is no `first`). Returns each set's palette.
    pub fn group(&mut self, sets: &[Vec<u32>], first: Option<u8>) -> Result<Vec<u8>, NoRoom> {
        let floor = usize::from(first.unwrap_or(1));
        // Identical sets share one decision.
        let mut distinct: BTreeMap<Vec<u32>, Vec<usize>> = BTreeMap::new();
        for (i, set) in sets.iter().enumerate() {
            let mut key = set.clone();
            key.sort_unstable();
            distinct.entry(key).or_default().push(i);
        }
        let mut order: Vec<(&Vec<u32>, &Vec<usize>)> = distinct.iter().collect();
        order.sort_by_key(|(set, users)| (std::cmp::Reverse(set.len()), users[0]));

        let mut candidates: Vec<usize> = first.map(usize::from).into_iter().collect();
        candidates
            .extend((floor..PALETTES).filter(|&p| self.automatic[p] && Some(p as u8) != first));
        let mut result = vec![0u8; sets.len()];
        let mut unplaced = Vec::new();
        for (set, users) in order {
            let best = candidates
                .iter()
                .copied()
                .filter(|&p| self.fits(p, set))
                .max_by_key(|&p| {
                    let have = self.colours(p);
                    let shared = set.iter().filter(|c| have.iter().any(|(_, v)| v == *c));
                    (shared.count(), std::cmp::Reverse(p))
                });
            let palette = match best {
                Some(p) => p,
                None => {
                    match (floor..PALETTES).find(|&p| !candidates.contains(&p) && self.is_free(p)) {
                        Some(p) => {
                            self.automatic[p] = true;
                            candidates.push(p);
                            p
                        }
                        None => {
                            unplaced.extend(users.iter().copied());
                            continue;
                        }
                    }
                }
            };
            // Colours in the order the tile first uses them.
            let first_use = &sets[users[0]];
            for &rgb in first_use {
                self.find_or_take(palette, rgb);
            }
            for &i in users {
                result[i] = palette as u8;
            }
        }
        if unplaced.is_empty() {
            Ok(result)
        } else {
            unplaced.sort_unstable();
            let mut opened: Vec<u8> = candidates.iter().map(|&p| p as u8).collect();
            opened.sort_unstable();
            Err(NoRoom {
                tiles: unplaced,
                opened,
            })
        }
    }

    /// How many palettes have no colour taken.
    pub(crate) fn free_count(&self) -> usize {
        (0..PALETTES).filter(|&p| self.is_free(p)).count()
    }

    /// The lowest palettes from `floor` up that have no colour taken, at most `count`.
    pub(crate) fn free_from(&self, floor: usize, count: usize) -> Vec<u8> {
        (floor..PALETTES)
            .filter(|&p| self.is_free(p))
            .take(count)
            .map(|p| p as u8)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(colours: std::ops::Range<u32>) -> Vec<u32> {
        colours.collect()
    }

    #[test]
    fn sets_share_palettes_when_they_fit_and_open_new_ones_when_not() {
        let mut b = PaletteBuilder::default();
        b.set(0, 1, 0x123456); // palette 0 is in use
        let sets = vec![set(0..10), set(5..15), set(100..110), set(0..3)];
        let palettes = b.group(&sets, None).unwrap();
        // 0..10 and 5..15 make 15 colours together: one palette. 100..110 needs another.
        assert_eq!(palettes, [1, 1, 2, 1]);
        assert_eq!(b.colours(1).len(), 15);
        assert_eq!(b.colours(2).len(), 10);
        // A later sheet with the same colours reuses the automatic palettes.
        let again = b.group(&[set(100..104)], None).unwrap();
        assert_eq!(again, [2]);
    }

    #[test]
    fn a_given_first_palette_is_filled_before_new_ones() {
        let mut b = PaletteBuilder::default();
        b.set(4, 1, 7);
        let palettes = b.group(&[set(7..17), set(20..30)], Some(4)).unwrap();
        assert_eq!(
            palettes,
            [4, 5],
            "the first set joins palette 4's colour 7; the second opens the next palette up"
        );
    }

    #[test]
    fn groupings_never_reach_below_their_floor() {
        let mut b = PaletteBuilder::default();
        // A sheet declared at palette 2 needing two palettes takes 2 and 3, never 0 or 1.
        let sets: Vec<Vec<u32>> = (0..2).map(|i| set(i * 100..i * 100 + 15)).collect();
        assert_eq!(b.group(&sets, Some(2)).unwrap(), [2, 3]);
        // An import (no declared palette) starts above palette 0 and may share palette 3
        // (an automatic palette above its floor), but never the lower free ones.
        assert_eq!(
            b.group(&[set(100..103), set(500..510)], None).unwrap(),
            [3, 1]
        );
        // A sheet declared at 5 cannot join the automatic palette 3 below it.
        assert_eq!(b.group(&[set(100..103)], Some(5)).unwrap(), [5]);
        // Palette 0 is used only when declared.
        assert_eq!(b.group(&[set(900..905)], Some(0)).unwrap(), [0]);
    }

    #[test]
    fn running_out_names_the_tiles() {
        let mut b = PaletteBuilder::default();
        for p in 0..14 {
            b.set(p, 1, 0xABCDEF);
        }
        let sets: Vec<Vec<u32>> = (0..4).map(|i| set(i * 100..i * 100 + 15)).collect();
        let e = b.group(&sets, None).unwrap_err();
        assert_eq!(e.tiles, [2, 3]);
        assert_eq!(e.opened, [14, 15]);
        // Palette 0 stays out of imports even when it is the last free one.
        let mut b = PaletteBuilder::default();
        for p in 1..16 {
            b.set(p, 1, 0xABCDEF);
        }
        assert!(b.group(&[set(0..3)], None).is_err());
    }
}
