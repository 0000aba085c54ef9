//! Pattern VRAM being filled at cart load: which 8x8 tiles are taken, which palette the
//! importer gave each, and where blocks of 1x1, 2x2 or 4x4 tiles (8, 16 or 32 px) can go.
//!
//! VRAM is a sheet 16 tiles wide. A block of `b` x `b` tiles sits on a grid of `b`-tile
//! slots, numbered left to right, top to bottom, so block slots keep an image's tile order.

use crate::spec::{PATTERN_SHEET_TILES_W, PATTERN_TILES};
use crate::video::patterns::PatternVram;

/// Pattern VRAM under construction.
#[derive(Clone, Debug)]
pub struct VramBuilder {
    pub vram: PatternVram,
    used: Vec<bool>,
    /// The palette the loader gave each pattern tile, when it gave one.
    pub palettes: Vec<Option<u8>>,
}

impl Default for VramBuilder {
    fn default() -> Self {
        VramBuilder {
            vram: PatternVram::default(),
            used: vec![false; PATTERN_TILES],
            palettes: vec![None; PATTERN_TILES],
        }
    }
}

/// The pattern tile at the top-left of block slot `slot` for blocks `b` tiles a side.
pub(crate) fn slot_tile(slot: usize, b: usize) -> usize {
    let per_row = PATTERN_SHEET_TILES_W / b;
    (slot / per_row) * b * PATTERN_SHEET_TILES_W + (slot % per_row) * b
}

/// The pattern tiles of the block whose top-left is `tile`.
pub(crate) fn block_tiles(tile: usize, b: usize) -> impl Iterator<Item = usize> {
    (0..b).flat_map(move |j| (0..b).map(move |i| tile + i + j * PATTERN_SHEET_TILES_W))
}

impl VramBuilder {
    /// Block slots there are for blocks `b` tiles a side.
    pub fn slots(b: usize) -> usize {
        PATTERN_TILES / (b * b)
    }

    fn slot_free(&self, slot: usize, b: usize) -> bool {
        block_tiles(slot_tile(slot, b), b).all(|t| !self.used[t])
    }

    /// The first slot from which `count` consecutive slots are free.
    pub(crate) fn find_run(&self, count: usize, b: usize) -> Option<usize> {
        let slots = Self::slots(b);
        let mut start = 0;
        while start + count <= slots {
            match (start..start + count).find(|&s| !self.slot_free(s, b)) {
                None => return Some(start),
                Some(taken) => start = taken + 1,
            }
        }
        None
    }

    /// Free slots, lowest first, at most `count` of them.
    pub(crate) fn free_slots(&self, count: usize, b: usize) -> Vec<usize> {
        (0..Self::slots(b))
            .filter(|&s| self.slot_free(s, b))
            .take(count)
            .collect()
    }

    /// Marks the tiles of the block at `tile` taken, with `palette`.
    pub fn take(&mut self, tile: usize, b: usize, palette: Option<u8>) {
        for t in block_tiles(tile, b) {
            self.used[t % PATTERN_TILES] = true;
            self.palettes[t % PATTERN_TILES] = palette;
        }
    }

    /// Pattern tiles not taken.
    pub(crate) fn free_tiles(&self) -> usize {
        self.used.iter().filter(|u| !**u).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_the_sheet_grid() {
        assert_eq!(slot_tile(0, 2), 0);
        assert_eq!(slot_tile(7, 2), 14);
        assert_eq!(slot_tile(8, 2), 32);
        assert_eq!(slot_tile(5, 4), 64 + 4);
        assert_eq!(block_tiles(34, 2).collect::<Vec<_>>(), [34, 35, 50, 51]);
        assert_eq!(VramBuilder::slots(4), 128);
    }

    #[test]
    fn runs_skip_taken_blocks() {
        let mut v = VramBuilder::default();
        v.take(0, 4, Some(1)); // slot 0 of 4x4, tiles 0-3 of rows 0-3
        v.take(slot_tile(3, 2), 2, None); // a 2x2 block at tile 6
        assert_eq!(v.find_run(2, 2), Some(4), "2x2 slots 0-3 touch taken tiles");
        assert_eq!(v.find_run(4, 4), Some(2), "4x4 slot 1 holds the 2x2 block");
        assert_eq!(v.free_slots(3, 1), [4, 5, 8]);
        assert_eq!(v.palettes[16 * 3 + 3], Some(1));
        assert_eq!(v.free_tiles(), 2048 - 16 - 4);
        assert_eq!(v.find_run(129, 4), None);
    }
}
