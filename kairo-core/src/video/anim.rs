//! The tile animation table: up to [`TILE_ANIMS`] pattern tiles that background layers show
//! as a loop of other tiles, each frame shown for a number of machine frames. A cell whose tile
//! is animated shows the current frame's tile and palette instead; nothing in the cell map
//! changes, so animating costs no cell writes. Tiled's tile animations are loaded into this
//! table by `map_load`; carts can also set entries with `tanim`.
//!
//! The clock is the machine frame counter, so animations slow down with the game, as they do
//! when a game's own code swaps tiles.

use crate::spec::{PATTERN_TILES, TILE_ANIM_FRAMES, TILE_ANIMS};
use crate::video::cell::Cell;

/// One frame of a tile animation: the tile shown, its palette (`None`: the cell's own), and
/// for how many machine frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AnimFrame {
    pub tile: u16,
    pub palette: Option<u8>,
    pub frames: u16,
}

/// One animated tile.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TileAnim {
    pub tile: u16,
    pub frames: Vec<AnimFrame>,
}

impl TileAnim {
    /// Length of one loop, in machine frames.
    fn period(&self) -> u64 {
        self.frames.iter().map(|f| u64::from(f.frames)).sum()
    }

    /// The frame shown at machine frame `now`.
    fn frame_at(&self, now: u64) -> AnimFrame {
        let mut t = now % self.period().max(1);
        for frame in &self.frames {
            if t < u64::from(frame.frames) {
                return *frame;
            }
            t -= u64::from(frame.frames);
        }
        self.frames[0]
    }
}

/// Why an animation entry was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnimError {
    #[error("the tile animation table is full ({TILE_ANIMS} tiles)")]
    Full,
    #[error("an animation needs 1 to {TILE_ANIM_FRAMES} frames, not {0}")]
    FrameCount(usize),
    #[error("tile {0} is outside pattern VRAM (0-2047)")]
    Tile(usize),
}

/// The table, and the remapping it gives at the current frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TileAnimations {
    anims: Vec<TileAnim>,
    /// Per pattern tile, the frame shown now (empty while no entry exists).
    shown: Vec<Option<AnimFrame>>,
}

impl TileAnimations {
    /// Sets (or replaces) the animation of `anim.tile`.
    pub fn set(&mut self, anim: TileAnim) -> Result<(), AnimError> {
        if anim.frames.is_empty() || anim.frames.len() > TILE_ANIM_FRAMES {
            return Err(AnimError::FrameCount(anim.frames.len()));
        }
        let tiles = std::iter::once(anim.tile).chain(anim.frames.iter().map(|f| f.tile));
        if let Some(bad) = tiles.map(usize::from).find(|&t| t >= PATTERN_TILES) {
            return Err(AnimError::Tile(bad));
        }
        match self.anims.iter().position(|a| a.tile == anim.tile) {
            Some(i) => self.anims[i] = anim,
            None if self.anims.len() >= TILE_ANIMS => return Err(AnimError::Full),
            None => self.anims.push(anim),
        }
        Ok(())
    }

    /// Removes the animation of `tile`, if any.
    pub fn remove(&mut self, tile: u16) {
        self.anims.retain(|a| a.tile != tile);
        if self.anims.is_empty() {
            self.shown = Vec::new();
        }
    }

    /// Removes every animation.
    pub fn clear(&mut self) {
        self.anims.clear();
        self.shown = Vec::new();
    }

    pub fn len(&self) -> usize {
        self.anims.len()
    }

    pub fn is_empty(&self) -> bool {
        self.anims.is_empty()
    }

    /// Works out what each animated tile shows at machine frame `now`.
    pub fn update(&mut self, now: u64) {
        if self.anims.is_empty() {
            self.shown = Vec::new();
            return;
        }
        self.shown.clear();
        self.shown.resize(PATTERN_TILES, None);
        for anim in &self.anims {
            self.shown[usize::from(anim.tile)] = Some(anim.frame_at(now));
        }
    }

    /// The cell a layer shows for `cell`: its flips with the animated tile and palette.
    #[inline]
    pub fn apply(&self, cell: Cell) -> Cell {
        match self.shown.get(cell.tile()) {
            Some(Some(frame)) if !cell.is_empty() => cell.with_tile(
                u32::from(frame.tile),
                frame.palette.unwrap_or(cell.palette()),
            ),
            _ => cell,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(tile: u16, frames: u16) -> AnimFrame {
        AnimFrame {
            tile,
            palette: Some(3),
            frames,
        }
    }

    #[test]
    fn frames_follow_their_durations_and_loop() {
        let mut anims = TileAnimations::default();
        anims
            .set(TileAnim {
                tile: 5,
                frames: vec![frame(5, 2), frame(9, 1), frame(12, 3)],
            })
            .unwrap();
        let cell = Cell::new(5, 0, true, false);
        let shown: Vec<usize> = (0..8)
            .map(|now| {
                anims.update(now);
                anims.apply(cell).tile()
            })
            .collect();
        assert_eq!(shown, [5, 5, 9, 12, 12, 12, 5, 5]);
        anims.update(2);
        let out = anims.apply(cell);
        assert!(out.flip_x(), "flips are the cell's");
        assert_eq!(out.palette(), 3, "palette is the frame's");
        anims
            .set(TileAnim {
                tile: 5,
                frames: vec![AnimFrame {
                    palette: None,
                    ..frame(7, 1)
                }],
            })
            .unwrap();
        anims.update(0);
        assert_eq!(anims.apply(cell).palette(), 0, "or the cell's own");
        assert_eq!(anims.apply(Cell::new(6, 1, false, false)).tile(), 6);
        assert!(anims.apply(Cell::EMPTY).is_empty());
    }

    #[test]
    fn the_table_is_bounded() {
        let mut anims = TileAnimations::default();
        for t in 0..TILE_ANIMS as u16 {
            anims
                .set(TileAnim {
                    tile: t,
                    frames: vec![frame(t, 1)],
                })
                .unwrap();
        }
        let more = TileAnim {
            tile: 2000,
            frames: vec![frame(1, 1)],
        };
        assert_eq!(anims.set(more), Err(AnimError::Full));
        let replace = TileAnim {
            tile: 3,
            frames: vec![frame(1, 1)],
        };
        assert_eq!(anims.set(replace), Ok(()), "replacing needs no new entry");
        let none = TileAnim {
            tile: 3,
            frames: vec![],
        };
        assert_eq!(anims.set(none), Err(AnimError::FrameCount(0)));
        let outside = TileAnim {
            tile: 3,
            frames: vec![frame(2048, 1)],
        };
        assert_eq!(anims.set(outside), Err(AnimError::Tile(2048)));
    }
}
