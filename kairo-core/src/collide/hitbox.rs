//! Hitbox lists: boxes registered each frame in groups (player, enemy, shot, item, ... up to
//! 32), each with a mask of the groups it tests; the unit reports every overlapping pair
//! where one box's mask names the other's group.
//!
//! Edge convention: a box covers x..x+w and y..y+h with the right and bottom edges open, so
//! boxes that only touch do not overlap. The overlap test is seed 003's branch-free one: the
//! four edge differences are OR-ed and one sign test decides. Above [`GRID_FROM`] boxes a
//! uniform grid finds the candidate pairs.

use thiserror::Error;

pub use crate::spec::HITBOX_CAPACITY as CAPACITY;
/// From this many boxes on, pairs are found through the grid.
pub(crate) const GRID_FROM: usize = 48;
/// Grid cells along each axis, at most.
const GRID_CELLS: i32 = 32;
/// Coordinates are clamped to +-this, so edge sums never overflow.
const LIMIT: i32 = 1 << 24;

/// A problem with a hitbox request.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum HitboxError {
    #[error("the hitbox list is full ({CAPACITY} boxes a frame)")]
    Full,
    #[error("group {0} is outside 0..31")]
    BadGroup(i64),
    #[error("size {0}x{1} must be at least 1x1")]
    BadSize(i64, i64),
}

/// One registered box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hitbox {
    /// The cart's name for it, returned in pairs.
    pub id: i64,
    pub group: u8,
    /// Bit g set: this box tests boxes of group g.
    pub mask: u32,
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Hitbox {
    /// A box, validated and clamped.
    pub fn new(
        id: i64,
        group: i64,
        mask: i64,
        x: i64,
        y: i64,
        w: i64,
        h: i64,
    ) -> Result<Hitbox, HitboxError> {
        if !(0..32).contains(&group) {
            return Err(HitboxError::BadGroup(group));
        }
        if w < 1 || h < 1 {
            return Err(HitboxError::BadSize(w, h));
        }
        let clamp = |v: i64| v.clamp(-i64::from(LIMIT), i64::from(LIMIT)) as i32;
        Ok(Hitbox {
            id,
            group: group as u8,
            mask: mask as u32,
            x: clamp(x),
            y: clamp(y),
            w: clamp(w),
            h: clamp(h),
        })
    }

    /// Whether this box tests boxes of `other`'s group.
    pub fn tests(&self, other: &Hitbox) -> bool {
        self.mask & (1 << other.group) != 0
    }
}

/// Whether two boxes overlap (half-open edges), without branches.
#[inline(always)]
pub fn overlap(a: &Hitbox, b: &Hitbox) -> bool {
    overlap_rects((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h))
}

/// Whether rectangles (x, y, w, h) overlap, right and bottom edges open.
#[inline(always)]
pub(crate) fn overlap_rects(a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)) -> bool {
    let d = (b.0 + b.2 - 1 - a.0)
        | (a.0 + a.2 - 1 - b.0)
        | (b.1 + b.3 - 1 - a.1)
        | (a.1 + a.3 - 1 - b.1);
    d >= 0
}

/// This frame's boxes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hitboxes {
    boxes: Vec<Hitbox>,
}

/// Pairs found, and the candidate pairs tested (for the cycle cost).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pairs {
    /// (tester id, tested id), ordered by registration of the first, then the second box.
    pub pairs: Vec<(i64, i64)>,
    pub tests: u64,
}

impl Hitboxes {
    /// Forgets every box (start of a frame).
    pub fn clear(&mut self) {
        self.boxes.clear();
    }

    /// Registers a box.
    pub fn add(&mut self, hitbox: Hitbox) -> Result<(), HitboxError> {
        if self.boxes.len() >= CAPACITY {
            return Err(HitboxError::Full);
        }
        self.boxes.push(hitbox);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// The boxes in registration order.
    pub fn boxes(&self) -> &[Hitbox] {
        &self.boxes
    }

    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Every overlapping pair where a box tests the other: (a, b) means a's mask names b's
    /// group; when both test each other both orders are reported.
    pub fn pairs(&self) -> Pairs {
        let mut found = Vec::new();
        let tests = if self.boxes.len() < GRID_FROM {
            self.brute_force(&mut found)
        } else {
            self.grid(&mut found)
        };
        found.sort_unstable();
        let mut pairs = Vec::with_capacity(found.len() * 2);
        for (i, j) in found {
            let (a, b) = (&self.boxes[i as usize], &self.boxes[j as usize]);
            if a.tests(b) {
                pairs.push((a.id, b.id));
            }
            if b.tests(a) {
                pairs.push((b.id, a.id));
            }
        }
        Pairs { pairs, tests }
    }

    /// Whether boxes i and j could form a pair at all.
    fn interested(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.boxes[i], &self.boxes[j]);
        a.tests(b) || b.tests(a)
    }

    fn brute_force(&self, found: &mut Vec<(u32, u32)>) -> u64 {
        let mut tests = 0;
        for i in 0..self.boxes.len() {
            for j in i + 1..self.boxes.len() {
                tests += 1;
                if overlap(&self.boxes[i], &self.boxes[j]) && self.interested(i, j) {
                    found.push((i as u32, j as u32));
                }
            }
        }
        tests
    }

    /// Uniform grid over the boxes' extent: each box goes into every cell it covers; a pair
    /// is reported only from the cell holding the top-left corner of its overlap.
    fn grid(&self, found: &mut Vec<(u32, u32)>) -> u64 {
        let min_x = self.boxes.iter().map(|b| b.x).min().unwrap_or(0);
        let min_y = self.boxes.iter().map(|b| b.y).min().unwrap_or(0);
        let max_x = self.boxes.iter().map(|b| b.x + b.w).max().unwrap_or(1);
        let max_y = self.boxes.iter().map(|b| b.y + b.h).max().unwrap_or(1);
        let cell = ((max_x - min_x).max(max_y - min_y) / GRID_CELLS + 1).max(16);
        let cols = ((max_x - min_x) / cell + 1).min(GRID_CELLS + 1);
        let rows = ((max_y - min_y) / cell + 1).min(GRID_CELLS + 1);
        let cell_of = |v: i32, min: i32, n: i32| ((v - min) / cell).clamp(0, n - 1);
        let mut bins: Vec<Vec<u32>> = vec![Vec::new(); (cols * rows) as usize];
        for (i, b) in self.boxes.iter().enumerate() {
            for cy in cell_of(b.y, min_y, rows)..=cell_of(b.y + b.h - 1, min_y, rows) {
                for cx in cell_of(b.x, min_x, cols)..=cell_of(b.x + b.w - 1, min_x, cols) {
                    bins[(cy * cols + cx) as usize].push(i as u32);
                }
            }
        }
        let mut tests = 0;
        for (index, bin) in bins.iter().enumerate() {
            let (cx, cy) = (index as i32 % cols, index as i32 / cols);
            for (k, &i) in bin.iter().enumerate() {
                let a = &self.boxes[i as usize];
                for &j in &bin[k + 1..] {
                    let b = &self.boxes[j as usize];
                    tests += 1;
                    if !overlap(a, b) || !self.interested(i as usize, j as usize) {
                        continue;
                    }
                    let corner = (
                        cell_of(a.x.max(b.x), min_x, cols),
                        cell_of(a.y.max(b.y), min_y, rows),
                    );
                    if corner == (cx, cy) {
                        found.push((i.min(j), i.max(j)));
                    }
                }
            }
        }
        tests
    }

    /// Ids of boxes whose group is in `mask` and that overlap rectangle (x, y, w, h), in
    /// registration order; and the number of boxes tested.
    pub fn query(&self, x: i32, y: i32, w: i32, h: i32, mask: u32) -> (Vec<i64>, u64) {
        let ids = self
            .boxes
            .iter()
            .filter(|b| {
                mask & (1 << b.group) != 0 && overlap_rects((x, y, w, h), (b.x, b.y, b.w, b.h))
            })
            .map(|b| b.id)
            .collect();
        (ids, self.boxes.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(id: i64, group: i64, mask: i64, x: i64, y: i64, w: i64, h: i64) -> Hitbox {
        Hitbox::new(id, group, mask, x, y, w, h).unwrap()
    }

    #[test]
    fn edges_that_touch_do_not_overlap() {
        let a = boxed(0, 0, 1, 0, 0, 10, 10);
        assert!(overlap(&a, &boxed(1, 0, 1, 9, 9, 5, 5)));
        assert!(!overlap(&a, &boxed(1, 0, 1, 10, 0, 5, 5)));
        assert!(!overlap(&a, &boxed(1, 0, 1, 0, 10, 5, 5)));
        assert!(!overlap(&a, &boxed(1, 0, 1, -5, 0, 5, 5)));
        assert!(overlap(&a, &boxed(1, 0, 1, -5, -5, 6, 6)));
        assert!(overlap(&a, &boxed(1, 0, 1, 2, 2, 1, 1)), "inside");
        assert_eq!(
            Hitbox::new(0, 32, 0, 0, 0, 1, 1),
            Err(HitboxError::BadGroup(32))
        );
        assert_eq!(
            Hitbox::new(0, 0, 0, 0, 0, 0, 1),
            Err(HitboxError::BadSize(0, 1))
        );
    }

    #[test]
    fn pairs_follow_the_masks_in_both_directions() {
        let mut list = Hitboxes::default();
        list.add(boxed(10, 0, 0b10, 0, 0, 10, 10)).unwrap(); // player tests enemies
        list.add(boxed(20, 1, 0b01, 5, 5, 10, 10)).unwrap(); // enemy tests the player
        list.add(boxed(30, 1, 0, 5, 5, 10, 10)).unwrap(); // enemy testing nothing
        list.add(boxed(40, 2, 0, 0, 0, 10, 10)).unwrap(); // an item nobody tests
        assert_eq!(list.pairs().pairs, vec![(10, 20), (20, 10), (10, 30)]);
    }

    /// Brute force over ordered pairs, straight from the definition.
    fn expected(boxes: &[Hitbox]) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate() {
                let (x_in, y_in) = (
                    a.x < b.x + b.w && b.x < a.x + a.w,
                    a.y < b.y + b.h && b.y < a.y + a.h,
                );
                if i != j && x_in && y_in && a.tests(b) {
                    out.push((a.id, b.id));
                }
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn pairs_equal_brute_force_on_random_sets_of_every_size() {
        let mut seed = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move |n: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as i64
        };
        for round in 0..60 {
            let count = [0, 1, 2, 5, 20, 47, 48, 49, 100, 300, 700, CAPACITY as i64][round % 12];
            let spread = [64, 256, 2000][round % 3];
            let mut list = Hitboxes::default();
            let mut boxes = Vec::new();
            for id in 0..count {
                let size = if next(10) == 0 { 200 } else { 24 };
                let b = boxed(
                    id,
                    next(4),
                    next(16),
                    next(spread) - spread / 4,
                    next(spread) - 30,
                    1 + next(size),
                    1 + next(size),
                );
                list.add(b).unwrap();
                boxes.push(b);
            }
            let mut got = list.pairs().pairs;
            got.sort_unstable();
            assert_eq!(
                got,
                expected(&boxes),
                "round {round}: {count} boxes over {spread} px"
            );
        }
    }

    #[test]
    fn the_grid_tests_far_fewer_pairs_than_brute_force() {
        let mut list = Hitboxes::default();
        for id in 0..512 {
            list.add(boxed(
                id,
                id % 4,
                0b1111,
                (id * 37) % 1000,
                (id * 91) % 1000,
                16,
                16,
            ))
            .unwrap();
        }
        let tests = list.pairs().tests;
        assert!(tests < 512 * 511 / 2 / 10, "{tests} candidate pairs");
        assert_eq!(list.add(boxed(0, 0, 0, 0, 0, 1, 1)), Ok(()));
    }

    #[test]
    fn queries_find_boxes_by_point_and_rect() {
        let mut list = Hitboxes::default();
        list.add(boxed(1, 0, 0, 0, 0, 10, 10)).unwrap();
        list.add(boxed(2, 3, 0, 5, 5, 10, 10)).unwrap();
        assert_eq!(list.query(7, 7, 1, 1, u32::MAX).0, vec![1, 2]);
        assert_eq!(list.query(7, 7, 1, 1, 1 << 3).0, vec![2]);
        assert_eq!(list.query(10, 10, 5, 5, u32::MAX).0, vec![2]);
        let mut full = Hitboxes::default();
        for i in 0..CAPACITY as i64 {
            full.add(boxed(i, 0, 0, 0, 0, 1, 1)).unwrap();
        }
        assert_eq!(full.add(boxed(0, 0, 0, 0, 0, 1, 1)), Err(HitboxError::Full));
    }
}
