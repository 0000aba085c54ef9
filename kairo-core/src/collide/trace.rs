//! What the collision unit did this frame, kept for the debug overlays: every body
//! `move_body` moved, with its rectangle after the move and the flags the move reported.
//! Not machine state: never saved in a state, never compared, never charged for, and a cart
//! cannot read it; it changes nothing the game sees.

use crate::fixed::Fx;

/// Moves remembered per frame (later ones in a frame are not shown).
pub(crate) const TRACED_MOVES: usize = 256;

/// One body as a move left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TracedMove {
    /// Top-left after the move, 16.16, and size in pixels.
    pub x: Fx,
    pub y: Fx,
    pub w: i32,
    pub h: i32,
    /// The move's flags (`mover::flag`).
    pub flags: u32,
}

/// This frame's moves.
#[derive(Clone, Debug, Default)]
pub struct MoveTrace {
    moves: Vec<TracedMove>,
}

impl MoveTrace {
    /// Remembers a move (up to [`TRACED_MOVES`] a frame).
    pub fn push(&mut self, traced: TracedMove) {
        if self.moves.len() < TRACED_MOVES {
            self.moves.push(traced);
        }
    }

    pub fn clear(&mut self) {
        self.moves.clear();
    }

    pub fn moves(&self) -> &[TracedMove] {
        &self.moves
    }
}

/// The trace is not machine state: two machines are equal whatever their traces hold.
impl PartialEq for MoveTrace {
    fn eq(&self, _: &MoveTrace) -> bool {
        true
    }
}

impl Eq for MoveTrace {}
