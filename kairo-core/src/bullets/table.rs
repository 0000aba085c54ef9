//! The bullet table: a fixed capacity of bullets kept as a structure of arrays, dense (live
//! bullets first; removal swaps the last one in), so the per-frame loop runs over plain
//! slices.

use crate::fixed::Fx;

/// No program attached to a bullet.
pub const NO_PROGRAM: u32 = u32::MAX;

/// Motion flags.
pub mod motion {
    /// Direction or speed changes every frame: velocity is recomputed from them.
    pub(crate) const POLAR: u8 = 1;
    /// Already counted as a graze.
    pub(crate) const GRAZED: u8 = 2;
}

/// A bullet to add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Spawn {
    pub x: Fx,
    pub y: Fx,
    /// Fine angle (65536 per turn) and speed: the initial velocity.
    pub angle: u16,
    pub speed: Fx,
    /// Cartesian acceleration per frame.
    pub ax: Fx,
    pub ay: Fx,
    /// Speed change per frame and turn per frame (fine units), for `frames` frames.
    pub accel: Fx,
    pub turn: i32,
    pub frames: u16,
    pub kind: u8,
    pub program: u32,
}

/// The live bullets.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BulletTable {
    pub x: Vec<Fx>,
    pub y: Vec<Fx>,
    pub vx: Vec<Fx>,
    pub vy: Vec<Fx>,
    pub(crate) ax: Vec<Fx>,
    pub(crate) ay: Vec<Fx>,
    /// Fine direction and speed, kept for polar motion and BulletML.
    pub(crate) angle: Vec<u16>,
    pub speed: Vec<Fx>,
    pub accel: Vec<Fx>,
    pub turn: Vec<i32>,
    pub(crate) change_frames: Vec<u16>,
    pub kind: Vec<u8>,
    pub flags: Vec<u8>,
    pub age: Vec<u32>,
    pub program: Vec<u32>,
    capacity: usize,
}

impl BulletTable {
    pub fn with_capacity(capacity: usize) -> BulletTable {
        let mut table = BulletTable {
            capacity,
            ..BulletTable::default()
        };
        table.reserve(capacity);
        table
    }

    fn reserve(&mut self, n: usize) {
        self.x.reserve(n);
        self.y.reserve(n);
        self.vx.reserve(n);
        self.vy.reserve(n);
        self.ax.reserve(n);
        self.ay.reserve(n);
        self.angle.reserve(n);
        self.speed.reserve(n);
        self.accel.reserve(n);
        self.turn.reserve(n);
        self.change_frames.reserve(n);
        self.kind.reserve(n);
        self.flags.reserve(n);
        self.age.reserve(n);
        self.program.reserve(n);
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Adds a bullet; `None` when the table is full.
    pub fn push(&mut self, s: Spawn) -> Option<usize> {
        if self.len() >= self.capacity {
            return None;
        }
        let (vx, vy) = super::angle::velocity(s.angle, s.speed);
        let polar = s.frames > 0 && (s.accel != 0 || s.turn != 0);
        self.x.push(s.x);
        self.y.push(s.y);
        self.vx.push(vx);
        self.vy.push(vy);
        self.ax.push(s.ax);
        self.ay.push(s.ay);
        self.angle.push(s.angle);
        self.speed.push(s.speed);
        self.accel.push(s.accel);
        self.turn.push(s.turn);
        self.change_frames.push(s.frames);
        self.kind.push(s.kind);
        self.flags.push(if polar { motion::POLAR } else { 0 });
        self.age.push(0);
        self.program.push(s.program);
        Some(self.len() - 1)
    }

    /// Removes bullet `i`; the last bullet takes its index.
    pub(crate) fn swap_remove(&mut self, i: usize) {
        self.x.swap_remove(i);
        self.y.swap_remove(i);
        self.vx.swap_remove(i);
        self.vy.swap_remove(i);
        self.ax.swap_remove(i);
        self.ay.swap_remove(i);
        self.angle.swap_remove(i);
        self.speed.swap_remove(i);
        self.accel.swap_remove(i);
        self.turn.swap_remove(i);
        self.change_frames.swap_remove(i);
        self.kind.swap_remove(i);
        self.flags.swap_remove(i);
        self.age.swap_remove(i);
        self.program.swap_remove(i);
    }

    /// Sets bullet `i`'s direction and speed and its velocity from them.
    pub(crate) fn set_polar(&mut self, i: usize, angle: u16, speed: Fx) {
        self.angle[i] = angle;
        self.speed[i] = speed;
        let (vx, vy) = super::angle::velocity(angle, speed);
        self.vx[i] = vx;
        self.vy[i] = vy;
    }

    /// Removes every bullet.
    pub fn clear(&mut self) {
        while !self.is_empty() {
            let last = self.len() - 1;
            self.swap_remove(last);
        }
    }
}
