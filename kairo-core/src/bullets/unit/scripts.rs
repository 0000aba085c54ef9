//! The BulletML side of the bullet unit: sources (enemies running a pattern), the scripts
//! attached to bullets and run in the order they were made, and the unit as a running script
//! sees it (aim, `$rand`, `$rank`, firing, the frame's work budget).

use super::{BulletUnit, COMMANDS_PER_FRAME, SOURCE_CAPACITY, bullet};
use crate::bullets::angle::{aim_degrees, fine_from_degrees, unit_vector};
use crate::bullets::bulletml::Pattern;
use crate::bullets::bulletml::pattern::Id;
use crate::bullets::bulletml::run::{Host, Object, Params, Runner};
use crate::bullets::table::NO_PROGRAM;
use crate::fixed::{Fx, fx_from_f64};
use crate::rng::Rng;

/// A pattern's number in the cart's pattern library.
pub(crate) type PatternId = usize;

/// A BulletML script attached to a bullet.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct Program {
    pattern: PatternId,
    runner: Runner,
    object: Object,
    /// The bullet's index in the table (kept up to date when the table moves it).
    pub(super) bullet: u32,
    /// When it was made: scripts run in this order, whatever the table's order.
    serial: u64,
}

/// An enemy running a BulletML pattern: the cart moves it, the pattern fires from it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Source {
    pub id: i64,
    pub x: Fx,
    pub y: Fx,
    /// Bullet type of the bullets it fires.
    pub kind: u8,
    /// Starts its pattern again the frame after it ends or vanishes (keeping its heading
    /// and speed), as the games do with their bosses.
    pub looping: bool,
    pattern: PatternId,
    runner: Runner,
    object: Object,
}

impl Source {
    /// The enemy as its pattern sees it: heading, speed, `accel` velocity.
    pub fn object(&self) -> &Object {
        &self.object
    }
}

impl BulletUnit {
    /// Attaches a new program to bullet `bullet`.
    fn add_program(&mut self, bullet: usize, pattern: PatternId, runner: Runner, object: Object) {
        let serial = self.next_serial;
        self.next_serial += 1;
        let program = Program {
            pattern,
            runner,
            object,
            bullet: bullet as u32,
            serial,
        };
        let slot = match self.free_programs.pop() {
            Some(slot) => {
                self.programs[slot as usize] = Some(program);
                slot
            }
            None => {
                self.programs.push(Some(program));
                (self.programs.len() - 1) as u32
            }
        };
        self.program_order.push((slot, serial));
        self.table.program[bullet] = slot;
    }

    /// Starts pattern `pattern` of `patterns` at (x, y) firing bullets of type `kind`;
    /// returns the source's id, or `None` when 64 sources already run (or there is no such
    /// pattern).
    pub fn start_pattern(
        &mut self,
        patterns: &[Pattern],
        pattern: PatternId,
        x: Fx,
        y: Fx,
        kind: u8,
    ) -> Option<i64> {
        let script = patterns.get(pattern)?;
        if self.sources.len() >= SOURCE_CAPACITY {
            return None;
        }
        let id = self.next_source;
        self.next_source += 1;
        self.sources.push(Source {
            id,
            x,
            y,
            kind,
            looping: false,
            runner: Runner::source(script),
            pattern,
            object: Object {
                direction: 180.0,
                ..Object::default()
            },
        });
        Some(id)
    }

    /// The running source `id`.
    pub fn source(&self, id: i64) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }

    /// The running source `id`, to move it.
    pub fn source_mut(&mut self, id: i64) -> Option<&mut Source> {
        self.sources.iter_mut().find(|s| s.id == id)
    }

    /// Stops source `id` (its bullets fly on).
    pub(crate) fn stop_source(&mut self, id: i64) {
        self.sources.retain(|s| s.id != id);
    }

    /// Runs every BulletML script for this turn: sources first, then the scripts of the
    /// bullets that were alive when the turn began, oldest first (bullets fired now start
    /// next turn). A script whose pattern `patterns` lacks ends.
    pub fn run_programs(&mut self, rng: &mut Rng, patterns: &[Pattern]) {
        let now = self.frame as i64;
        let mut budget = COMMANDS_PER_FRAME;
        let mut steps = 0;
        // The scripts of bullets alive now; those fired this turn (by sources too) wait.
        let existing = self.program_order.len();
        let mut sources = std::mem::take(&mut self.sources);
        for source in &mut sources {
            let Some(pattern) = patterns.get(source.pattern) else {
                source.runner.ended = true;
                source.looping = false;
                continue;
            };
            if source.looping && (source.runner.ended || source.object.vanished) {
                source.runner = Runner::source(pattern);
                source.object.vanished = false;
            }
            let mut host = FireHost {
                unit: self,
                rng,
                budget: &mut budget,
                x: source.x,
                y: source.y,
                kind: source.kind,
                pattern_id: source.pattern,
                pattern,
            };
            steps += source
                .runner
                .run(pattern, &mut source.object, &mut host, now);
        }
        sources.retain(|s| s.looping || (!s.runner.ended && !s.object.vanished));
        sources.append(&mut self.sources);
        self.sources = sources;

        let mut vanished = Vec::new();
        for k in 0..existing {
            let (slot, serial) = self.program_order[k];
            let Some(mut program) = self.programs[slot as usize].take_if(|p| p.serial == serial)
            else {
                continue;
            };
            let i = program.bullet as usize;
            let (x, y, kind) = (self.table.x[i], self.table.y[i], self.table.kind[i]);
            let Some(pattern) = patterns.get(program.pattern) else {
                self.table.program[i] = NO_PROGRAM;
                self.free_programs.push(slot);
                continue;
            };
            let mut host = FireHost {
                unit: self,
                rng,
                budget: &mut budget,
                x,
                y,
                kind,
                pattern_id: program.pattern,
                pattern,
            };
            steps += program
                .runner
                .run(pattern, &mut program.object, &mut host, now);
            let o = program.object;
            let (vx, vy) = bulletml_velocity(&o);
            self.table.vx[i] = vx;
            self.table.vy[i] = vy;
            self.table.angle[i] = fine_from_degrees(o.direction);
            self.table.speed[i] = fx_from_f64(o.speed);
            if o.vanished {
                vanished.push(i);
            }
            if program.runner.ended {
                self.table.program[i] = NO_PROGRAM;
                self.free_programs.push(slot);
            } else {
                self.programs[slot as usize] = Some(program);
            }
        }
        let programs = &self.programs;
        self.program_order.retain(|&(slot, serial)| {
            programs[slot as usize]
                .as_ref()
                .is_some_and(|p| p.serial == serial)
        });
        // Highest index first, so that each removal moves only bullets already looked at.
        vanished.sort_unstable();
        for &i in vanished.iter().rev() {
            self.remove(i);
        }
        self.stats.program_steps += steps;
    }
}

/// The bullet unit as a running script sees it.
struct FireHost<'a> {
    unit: &'a mut BulletUnit,
    rng: &'a mut Rng,
    /// BulletML work left this frame.
    budget: &'a mut u64,
    x: Fx,
    y: Fx,
    kind: u8,
    pattern_id: PatternId,
    pattern: &'a Pattern,
}

impl Host for FireHost<'_> {
    fn spend(&mut self, work: u64) -> bool {
        let taken = work.min(*self.budget);
        *self.budget -= taken;
        taken == work
    }

    fn aim(&self) -> f64 {
        match self.unit.player {
            Some(p) => aim_degrees(
                i64::from(p.x) - i64::from(self.x),
                i64::from(p.y) - i64::from(self.y),
            ),
            None => 180.0,
        }
    }

    fn rand(&mut self) -> f64 {
        self.rng.next_f64()
    }

    fn rank(&self) -> f64 {
        self.unit.rank
    }

    fn fire(&mut self, direction: f64, speed: f64, bullet_id: Id, params: Params) {
        let spawn = bullet(
            self.x,
            self.y,
            fine_from_degrees(direction),
            fx_from_f64(speed),
            self.kind,
        );
        let Some(i) = self.unit.spawn_at(spawn) else {
            return;
        };
        let object = Object {
            direction,
            speed,
            ..Object::default()
        };
        // The table's velocity comes from the rounded angle; BulletML's is exact.
        let (vx, vy) = bulletml_velocity(&object);
        self.unit.table.vx[i] = vx;
        self.unit.table.vy[i] = vy;
        if !self.pattern.bullets[bullet_id].actions.is_empty() {
            let runner = Runner::bullet(bullet_id, params);
            self.unit.add_program(i, self.pattern_id, runner, object);
        }
    }
}

/// The 16.16 velocity of a BulletML object: its speed along its heading plus what `accel`
/// added, rounded once.
fn bulletml_velocity(o: &Object) -> (Fx, Fx) {
    let (ux, uy) = unit_vector(o.direction);
    (
        fx_from_f64(ux * o.speed + o.accel_x),
        fx_from_f64(uy * o.speed + o.accel_y),
    )
}
