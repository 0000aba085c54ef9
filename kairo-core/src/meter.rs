//! The cycle meter: every piece of work a frame does is charged here, in virtual cycles, to
//! the unit that caused it. The frame report and the profiler read it.

use serde::Serialize;

use crate::spec::FRAME_BUDGET;

/// The units cycles are charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Lua VM instructions and API call entry.
    Script,
    /// Layers, sprites, the overlay, cell and pattern writes.
    Video,
    /// The collision unit.
    Collision,
    /// The bullet unit.
    Bullets,
    /// The audio unit.
    Audio,
    /// Fixed per-frame work of the machine itself (output conversion).
    System,
}

impl Unit {
    /// Every unit, in report order.
    pub const ALL: [Unit; 6] = [
        Unit::Script,
        Unit::Video,
        Unit::Collision,
        Unit::Bullets,
        Unit::Audio,
        Unit::System,
    ];

    /// Lower-case name used in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Script => "script",
            Unit::Video => "video",
            Unit::Collision => "collision",
            Unit::Bullets => "bullets",
            Unit::Audio => "audio",
            Unit::System => "system",
        }
    }
}

/// Cycles charged per unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UnitCycles([u64; Unit::ALL.len()]);

impl UnitCycles {
    /// Cycles charged to `unit`.
    pub fn get(&self, unit: Unit) -> u64 {
        self.0[unit as usize]
    }

    /// Sum over all units.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds `cycles` to `unit`.
    pub fn add(&mut self, unit: Unit, cycles: u64) {
        self.0[unit as usize] = self.0[unit as usize].saturating_add(cycles);
    }

    /// Takes `cycles` from `unit` (not below zero).
    pub fn sub(&mut self, unit: Unit, cycles: u64) {
        self.0[unit as usize] = self.0[unit as usize].saturating_sub(cycles);
    }

    /// `(unit, cycles)` for every unit, in report order.
    pub fn iter(&self) -> impl Iterator<Item = (Unit, u64)> + '_ {
        Unit::ALL.into_iter().map(|u| (u, self.get(u)))
    }
}

/// The meter of the frame being run.
#[derive(Clone, Debug, Default)]
pub struct CycleMeter {
    cycles: UnitCycles,
}

impl CycleMeter {
    /// Charges `cycles` to `unit`.
    #[inline]
    pub fn charge(&mut self, unit: Unit, cycles: u64) {
        self.cycles.add(unit, cycles);
    }

    /// Cycles charged so far, in all units.
    pub fn total(&self) -> u64 {
        self.cycles.total()
    }

    /// Cycles charged so far, per unit.
    pub fn cycles(&self) -> UnitCycles {
        self.cycles
    }

    /// Starts a new frame: returns what the old one was charged and clears the meter.
    pub fn take(&mut self) -> UnitCycles {
        std::mem::take(&mut self.cycles)
    }
}

/// Vblanks a frame of `cycles` occupies: one per started budget, at least one.
pub fn vblanks_for(cycles: u64) -> u32 {
    let vblanks = cycles.div_ceil(FRAME_BUDGET).max(1);
    u32::try_from(vblanks).unwrap_or(u32::MAX)
}

/// Load of a frame in percent of one budget (100 = exactly the budget).
pub fn load_percent(cycles: u64) -> f64 {
    cycles as f64 * 100.0 / FRAME_BUDGET as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vblanks_round_up_per_budget() {
        assert_eq!(vblanks_for(0), 1);
        assert_eq!(vblanks_for(FRAME_BUDGET), 1);
        assert_eq!(vblanks_for(FRAME_BUDGET + 1), 2);
        assert_eq!(vblanks_for(3 * FRAME_BUDGET), 3);
    }

    #[test]
    fn meter_sums_units_and_resets() {
        let mut meter = CycleMeter::default();
        meter.charge(Unit::Script, 10);
        meter.charge(Unit::Video, 5);
        meter.charge(Unit::Script, 1);
        assert_eq!(meter.total(), 16);
        let taken = meter.take();
        assert_eq!(taken.get(Unit::Script), 11);
        assert_eq!(taken.get(Unit::Video), 5);
        assert_eq!(meter.total(), 0);
    }
}
