//! The bullet unit's state and its frame: emitters, spread bursts, moving and culling the
//! table, the player's hit and graze tests, player shots swept against enemy boxes, cancels,
//! and the events the cart reads. Its BulletML side (sources, scripts) is in `scripts`.

use super::angle::{atan_fine, velocity};
use super::table::{BulletTable, NO_PROGRAM, Spawn, motion};
use crate::bullets::bulletml::Pattern;
use crate::bullets::error::{BulletError, Result};
use crate::fixed::{Fx, fx};
use crate::rng::Rng;
use crate::spec::{SCREEN_H, SCREEN_W, cost};

mod scripts;

use scripts::Program;
pub use scripts::Source;

// The unit's limits, declared in `spec`.
pub use crate::spec::{
    BULLET_CAPACITY as CAPACITY, BULLET_CULL_MARGIN_MAX, BULLET_HIT_MAX, BULLET_TYPES as TYPES,
    BULLETML_COMMANDS_PER_FRAME as COMMANDS_PER_FRAME, BULLETML_SOURCES as SOURCE_CAPACITY,
    GRAZE_MAX, SHOT_CAPACITY, SHOT_MAX_SPEED, TARGET_CAPACITY,
};

/// How a bullet type looks and how big it is to hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BulletType {
    pub tile: u16,
    /// Tiles per side: 1 or 2.
    pub size: u8,
    pub palette: u8,
    /// Half width and half height of the hit box, 16.16.
    pub hit_w: Fx,
    pub hit_h: Fx,
}

impl Default for BulletType {
    fn default() -> Self {
        BulletType {
            tile: 0,
            size: 1,
            palette: 0,
            hit_w: fx(2),
            hit_h: fx(2),
        }
    }
}

/// The player as the bullets see it: a centre, a hit box (half sizes; 0 = a point) and a
/// graze box around it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub x: Fx,
    pub y: Fx,
    pub hit_w: Fx,
    pub hit_h: Fx,
    pub graze_w: Fx,
    pub graze_h: Fx,
}

/// A player shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shot {
    pub x: Fx,
    pub y: Fx,
    pub vx: Fx,
    pub vy: Fx,
    pub kind: u8,
}

/// An enemy box shots are tested against this frame: top-left, size, and how far it moved
/// this frame (for the swept test).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Target {
    pub id: i64,
    pub x: Fx,
    pub y: Fx,
    pub w: Fx,
    pub h: Fx,
    pub dx: Fx,
    pub dy: Fx,
}

/// Something that happened in the last bullet step.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    /// An enemy bullet of this type hit the player at (x, y); the bullet is gone.
    Hit { kind: u8, x: Fx, y: Fx },
    /// A bullet grazed the player (once per bullet).
    Graze { kind: u8, x: Fx, y: Fx },
    /// A shot of this type hit target `target` at (x, y); the shot is gone.
    ShotHit { target: i64, kind: u8, x: Fx, y: Fx },
}

/// What the bullet unit did in its last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BulletStats {
    pub live: u32,
    pub spawned: u32,
    /// Spawns refused because the table was full.
    pub dropped: u32,
    pub grazes: u32,
    pub hits: u32,
    pub(crate) hit_tests: u64,
    pub program_steps: u64,
}

/// A bullet waiting to be spawned by a spread burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Pending {
    due: u64,
    spawn: Spawn,
}

/// All state of the bullet unit.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BulletUnit {
    pub(crate) table: BulletTable,
    #[serde(with = "crate::serde_array")]
    pub(crate) types: [BulletType; TYPES],
    /// Bit `k` is set once type `k` was set: bullets of an unset type are refused when fired
    /// (they would be invisible and still hit).
    defined: u64,
    pub(crate) player: Option<Player>,
    pub(crate) shots: Vec<Shot>,
    pub(crate) targets: Vec<Target>,
    pending: Vec<Pending>,
    /// Events of the last step.
    pub(crate) events: Vec<Event>,
    /// Counters since the last step (spawns) and of the last step (the rest).
    pub(crate) stats: BulletStats,
    /// Bullets this far outside the screen are removed.
    pub(crate) cull_margin: i32,
    /// Priority of the bullet layer against background layers and sprites.
    pub(crate) priority: u8,
    /// Steps run: the unit's clock for spread bursts.
    pub(crate) frame: u64,
    /// Bullets spawned during the current step (spread bursts, BulletML fires): the step
    /// pays for them.
    step_spawns: u64,
    programs: Vec<Option<Program>>,
    free_programs: Vec<u32>,
    /// Program slots in the order the programs were made, with their serials (an entry
    /// whose slot now holds another serial is stale and dropped).
    program_order: Vec<(u32, u64)>,
    next_serial: u64,
    pub(crate) sources: Vec<Source>,
    next_source: i64,
    /// BulletML's `$rank`, 0-1.
    pub(crate) rank: f64,
    /// Scratch list of bullets to look at again (kept to avoid an allocation per frame).
    marked: Vec<u32>,
}

impl Default for BulletUnit {
    fn default() -> Self {
        BulletUnit {
            table: BulletTable::with_capacity(CAPACITY),
            types: [BulletType::default(); TYPES],
            defined: 0,
            player: None,
            shots: Vec::with_capacity(SHOT_CAPACITY),
            targets: Vec::with_capacity(TARGET_CAPACITY),
            pending: Vec::new(),
            events: Vec::new(),
            stats: BulletStats::default(),
            cull_margin: 32,
            priority: 2,
            frame: 0,
            step_spawns: 0,
            programs: Vec::new(),
            free_programs: Vec::new(),
            program_order: Vec::new(),
            next_serial: 0,
            sources: Vec::new(),
            next_source: 1,
            rank: 0.5,
            marked: Vec::new(),
        }
    }
}

impl BulletUnit {
    /// The bullet table, for tools and tests that set the unit up directly.
    pub fn table_mut(&mut self) -> &mut BulletTable {
        &mut self.table
    }

    /// The bullet types (sprite and hit size of each).
    pub fn types(&self) -> &[BulletType; TYPES] {
        &self.types
    }

    /// The player's shots.
    pub fn shots(&self) -> &[Shot] {
        &self.shots
    }

    /// The enemy boxes shots are tested against.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// The emitters still firing (bursts spread over frames, BulletML programs).
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The bullet table: every live bullet's position, motion, type and flags.
    pub fn table(&self) -> &BulletTable {
        &self.table
    }

    /// The player the bullets test against, if one is set ([`BulletUnit::set_player`]).
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }

    /// This frame's counts (spawned, dropped, program steps, live).
    pub fn stats(&self) -> &BulletStats {
        &self.stats
    }

    /// BulletML's `$rank` ([`BulletUnit::set_rank`]).
    pub fn rank(&self) -> f64 {
        self.rank
    }

    /// Pixels past the screen's edge a bullet lives on ([`BulletUnit::set_layer`]).
    pub fn cull_margin(&self) -> i32 {
        self.cull_margin
    }

    /// The bullet layer's priority ([`BulletUnit::set_layer`]).
    pub fn priority(&self) -> u8 {
        self.priority
    }

    /// Removes bullet `i` and frees its program; the last bullet takes its index.
    fn remove(&mut self, i: usize) {
        let program = self.table.program[i];
        if program != NO_PROGRAM {
            self.programs[program as usize] = None;
            self.free_programs.push(program);
        }
        self.table.swap_remove(i);
        if let Some(&moved) = self.table.program.get(i)
            && let Some(Some(p)) = self.programs.get_mut(moved as usize)
        {
            p.bullet = i as u32;
        }
    }

    /// Sets bullet type `index`: its look and its hit box. Refuses hit sizes outside 0-64
    /// px and types past [`TYPES`].
    pub(crate) fn set_type(&mut self, index: usize, kind: BulletType) -> Result<()> {
        let limit = fx(BULLET_HIT_MAX);
        if !(0..=limit).contains(&kind.hit_w) || !(0..=limit).contains(&kind.hit_h) {
            return Err(BulletError::HitSize);
        }
        let slot = self
            .types
            .get_mut(index)
            .ok_or(BulletError::NoSuchType(index))?;
        *slot = kind;
        self.defined |= 1 << index;
        Ok(())
    }

    /// Whether type `index` was set with [`BulletUnit::set_type`].
    pub(crate) fn is_type_defined(&self, index: usize) -> bool {
        index < TYPES && self.defined & (1 << index) != 0
    }

    /// Sets (or with `None` removes) the player bullets are tested against. Refuses a hit
    /// box over 64 px or a graze box over 128 px.
    pub fn set_player(&mut self, player: Option<Player>) -> Result<()> {
        if let Some(p) = &player {
            let (hit, graze) = (0..=fx(BULLET_HIT_MAX), 0..=fx(GRAZE_MAX));
            let sizes_ok = hit.contains(&p.hit_w)
                && hit.contains(&p.hit_h)
                && graze.contains(&p.graze_w)
                && graze.contains(&p.graze_h);
            if !sizes_ok {
                return Err(BulletError::PlayerBoxes);
            }
        }
        self.player = player;
        Ok(())
    }

    /// Sets the bullet layer's priority (clamped to the levels there are) and, if given, the
    /// cull margin (clamped to 0-1024 px).
    pub fn set_layer(&mut self, priority: i64, cull_margin: Option<i64>) {
        self.priority = priority.clamp(0, crate::spec::PRIORITY_LEVELS as i64 - 1) as u8;
        if let Some(margin) = cull_margin {
            self.cull_margin = margin.clamp(0, i64::from(BULLET_CULL_MARGIN_MAX)) as i32;
        }
    }

    /// Sets BulletML's `$rank`, clamped to 0-1 (a NaN is 0).
    pub fn set_rank(&mut self, rank: f64) {
        self.rank = if rank.is_nan() {
            0.0
        } else {
            rank.clamp(0.0, 1.0)
        };
    }

    /// Adds one bullet now; false (and counted as dropped) when the table is full.
    pub fn spawn(&mut self, spawn: Spawn) -> bool {
        self.spawn_at(spawn).is_some()
    }

    /// Adds one bullet now and returns its index; `None` (counted as dropped) when the table
    /// is full.
    fn spawn_at(&mut self, spawn: Spawn) -> Option<usize> {
        self.step_spawns += 1;
        let index = self.table.push(spawn);
        if index.is_some() {
            self.stats.spawned += 1;
        } else {
            self.stats.dropped += 1;
        }
        index
    }

    /// The fine angle from (x, y) toward the player (straight down without a player).
    pub(crate) fn aim_from(&self, x: Fx, y: Fx) -> u16 {
        match self.player {
            Some(p) => atan_fine(i64::from(p.x) - i64::from(x), i64::from(p.y) - i64::from(y)),
            None => 16384,
        }
    }

    /// `n` bullets centred on `angle`, `spread` apart (fine units). Returns how many spawned.
    pub(crate) fn nway(&mut self, base: Spawn, n: u32, spread: i32) -> u32 {
        let first = i64::from(base.angle) - i64::from(spread) * i64::from(n.saturating_sub(1)) / 2;
        (0..n)
            .filter(|&i| {
                let angle = (first + i64::from(spread) * i64::from(i)).rem_euclid(65536) as u16;
                self.spawn(Spawn { angle, ..base })
            })
            .count() as u32
    }

    /// The angle of bullet `i` of a ring of `n` starting at `start` (fine units).
    fn ring_angle(start: u16, i: u32, n: u32) -> u16 {
        (i64::from(start) + i64::from(i) * 65536 / i64::from(n.max(1))).rem_euclid(65536) as u16
    }

    /// `n` bullets evenly around a circle from `base.angle`. Returns how many spawned.
    pub fn ring(&mut self, base: Spawn, n: u32) -> u32 {
        (0..n)
            .filter(|&i| {
                self.spawn(Spawn {
                    angle: Self::ring_angle(base.angle, i, n),
                    ..base
                })
            })
            .count() as u32
    }

    /// A ring of `n` spread over `frames` frames (seed 004's 16 + 16): bullet i is the one a
    /// one-frame ring would fire, fired i % frames frames later from the same place.
    pub fn burst(&mut self, base: Spawn, n: u32, frames: u32) {
        let frames = frames.max(1);
        for i in 0..n {
            let spawn = Spawn {
                angle: Self::ring_angle(base.angle, i, n),
                ..base
            };
            let delay = u64::from(i % frames);
            if delay == 0 {
                self.spawn(spawn);
            } else {
                self.pending.push(Pending {
                    due: self.frame + delay,
                    spawn,
                });
            }
        }
    }

    /// Fires a player shot; false when the shot list is full.
    pub fn shoot(&mut self, shot: Shot) -> bool {
        if self.shots.len() >= SHOT_CAPACITY {
            return false;
        }
        let cap = fx(SHOT_MAX_SPEED);
        self.shots.push(Shot {
            vx: shot.vx.clamp(-cap, cap),
            vy: shot.vy.clamp(-cap, cap),
            ..shot
        });
        true
    }

    /// Registers an enemy box for this frame's shot tests; false when the list is full.
    pub(crate) fn add_target(&mut self, target: Target) -> bool {
        if self.targets.len() >= TARGET_CAPACITY {
            return false;
        }
        self.targets.push(target);
        true
    }

    /// Removes the bullets whose centre lies in the rectangle (all bullets for `None`) and
    /// returns their positions and types, for items or score.
    pub fn cancel(&mut self, area: Option<(Fx, Fx, Fx, Fx)>) -> Vec<(Fx, Fx, u8)> {
        let mut removed = Vec::new();
        let mut i = 0;
        while i < self.table.len() {
            let (x, y) = (self.table.x[i], self.table.y[i]);
            let inside =
                area.is_none_or(|(ax, ay, w, h)| x >= ax && x < ax + w && y >= ay && y < ay + h);
            if inside {
                removed.push((x, y, self.table.kind[i]));
                self.remove(i);
            } else {
                i += 1;
            }
        }
        removed
    }

    /// Removes every bullet, shot, target and pending burst.
    pub fn clear(&mut self) {
        self.table.clear();
        self.programs.clear();
        self.free_programs.clear();
        self.program_order.clear();
        self.sources.clear();
        self.shots.clear();
        self.targets.clear();
        self.pending.clear();
    }

    /// Releases spread-burst bullets due now (the first part of a step).
    pub fn release_pending(&mut self) {
        let frame = self.frame;
        let due: Vec<Spawn> = self
            .pending
            .iter()
            .filter(|p| p.due <= frame)
            .map(|p| p.spawn)
            .collect();
        self.pending.retain(|p| p.due > frame);
        for spawn in due {
            self.spawn(spawn);
        }
    }

    /// Moves, culls and hit-tests every bullet and shot: the body of a step, after programs
    /// ran. Returns the cycles of the whole step, the spawns counted since the step began
    /// included.
    pub fn advance(&mut self) -> u64 {
        self.events.clear();
        let before = self.stats;
        self.stats = BulletStats {
            spawned: before.spawned,
            dropped: before.dropped,
            program_steps: before.program_steps,
            ..BulletStats::default()
        };
        self.move_bullets();
        self.cull_and_hit();
        self.move_shots();
        self.targets.clear();
        self.frame += 1;
        self.stats.live = self.table.len() as u32;
        let spawns = std::mem::take(&mut self.step_spawns);
        spawns * cost::BULLET_SPAWN
            + u64::from(self.stats.live) * cost::BULLET_LIVE
            + self.shots.len() as u64 * cost::BULLET_LIVE
            + self.stats.hit_tests * cost::HIT_TEST
            + self.stats.program_steps * cost::BULLETML_STEP
    }

    /// The unit's frame: spread bursts due now, programs, then moving, culling and hit
    /// tests. Returns the cycles of the whole step, spawns made during it included (bullets
    /// spawned by API calls are paid for by the call).
    pub fn step(&mut self, rng: &mut Rng, patterns: &[Pattern]) -> u64 {
        self.step_spawns = 0;
        self.release_pending();
        self.run_programs(rng, patterns);
        self.advance()
    }

    /// Starts the counters of a new frame (spawns made during the cart's update count in it).
    pub fn begin_frame(&mut self) {
        self.stats.spawned = 0;
        self.stats.dropped = 0;
        self.stats.program_steps = 0;
    }

    fn move_bullets(&mut self) {
        let t = &mut self.table;
        for i in 0..t.len() {
            if t.flags[i] & motion::POLAR != 0 {
                let angle = (i64::from(t.angle[i]) + i64::from(t.turn[i])).rem_euclid(65536) as u16;
                let speed = t.speed[i] + t.accel[i];
                t.set_polar(i, angle, speed);
                t.change_frames[i] -= 1;
                if t.change_frames[i] == 0 {
                    t.flags[i] &= !motion::POLAR;
                }
            }
        }
        // The hot loop: plain slices, no branches.
        let n = t.len();
        let (x, y, vx, vy, ax, ay, age) = (
            &mut t.x[..n],
            &mut t.y[..n],
            &mut t.vx[..n],
            &mut t.vy[..n],
            &t.ax[..n],
            &t.ay[..n],
            &mut t.age[..n],
        );
        for i in 0..n {
            vx[i] = vx[i].wrapping_add(ax[i]);
            vy[i] = vy[i].wrapping_add(ay[i]);
            x[i] = x[i].wrapping_add(vx[i]);
            y[i] = y[i].wrapping_add(vy[i]);
            age[i] = age[i].wrapping_add(1);
        }
    }

    /// Culls bullets off-screen by the margin and tests the rest against the player. A tight
    /// first pass over the position arrays marks the few bullets that are off-screen or near
    /// the player; only those are looked at again, from the highest index down so that
    /// removals keep the lower indices valid.
    fn cull_and_hit(&mut self) {
        let margin = fx(self.cull_margin);
        let (left, top) = (-margin, -margin);
        let (right, bottom) = (fx(SCREEN_W as i32) + margin, fx(SCREEN_H as i32) + margin);
        let n = self.table.len();
        // How near (per axis) a bullet of each type must come to the player to be looked at.
        let mut reach = [(0u32, 0u32); TYPES];
        let player = self.player;
        if let Some(p) = player {
            for (r, t) in reach.iter_mut().zip(&self.types) {
                *r = (
                    (t.hit_w + p.hit_w.max(p.graze_w)) as u32,
                    (t.hit_h + p.hit_h.max(p.graze_h)) as u32,
                );
            }
        }
        let (px, py) = player.map_or((0, 0), |p| (p.x, p.y));
        let mut marked = std::mem::take(&mut self.marked);
        marked.clear();
        {
            let (xs, ys, kinds) = (
                &self.table.x[..n],
                &self.table.y[..n],
                &self.table.kind[..n],
            );
            let testing = player.is_some();
            for i in 0..n {
                let (x, y) = (xs[i], ys[i]);
                let off = (x < left) | (x > right) | (y < top) | (y > bottom);
                let (rx, ry) = reach[usize::from(kinds[i]) % TYPES];
                let near = testing & (x.abs_diff(px) <= rx) & (y.abs_diff(py) <= ry);
                if off | near {
                    marked.push(i as u32);
                }
            }
        }
        if player.is_some() {
            self.stats.hit_tests += n as u64;
        }
        for &i in marked.iter().rev() {
            let i = i as usize;
            let (x, y) = (self.table.x[i], self.table.y[i]);
            if x < left || x > right || y < top || y > bottom {
                self.remove(i);
                continue;
            }
            let Some(p) = player else { continue };
            let kind = self.table.kind[i];
            let t = self.types[usize::from(kind)];
            let (dx, dy) = ((x - p.x).unsigned_abs(), (y - p.y).unsigned_abs());
            if dx <= (t.hit_w + p.hit_w) as u32 && dy <= (t.hit_h + p.hit_h) as u32 {
                self.events.push(Event::Hit { kind, x, y });
                self.stats.hits += 1;
                self.remove(i);
                continue;
            }
            let grazing = dx <= (t.hit_w + p.graze_w) as u32 && dy <= (t.hit_h + p.graze_h) as u32;
            if grazing && self.table.flags[i] & motion::GRAZED == 0 {
                self.table.flags[i] |= motion::GRAZED;
                self.events.push(Event::Graze { kind, x, y });
                self.stats.grazes += 1;
            }
        }
        self.marked = marked;
    }

    /// Moves the shots, tests each along its whole path this frame against every target
    /// (so nothing passes through), and culls those off-screen.
    fn move_shots(&mut self) {
        let margin = fx(self.cull_margin);
        let mut i = 0;
        while i < self.shots.len() {
            let shot = self.shots[i];
            let kind = self.types[usize::from(shot.kind)];
            let mut first: Option<(f64, i64)> = None;
            for target in &self.targets {
                self.stats.hit_tests += 1;
                if let Some(t) = swept_hit(&shot, (kind.hit_w, kind.hit_h), target)
                    && first.is_none_or(|(best, _)| t < best)
                {
                    first = Some((t, target.id));
                }
            }
            let (x, y) = (shot.x + shot.vx, shot.y + shot.vy);
            if let Some((t, target)) = first {
                let at = |from: Fx, v: Fx| from + (f64::from(v) * t) as Fx;
                self.events.push(Event::ShotHit {
                    target,
                    kind: shot.kind,
                    x: at(shot.x, shot.vx),
                    y: at(shot.y, shot.vy),
                });
                self.shots.swap_remove(i);
                continue;
            }
            let off = x < -margin
                || y < -margin
                || x > fx(SCREEN_W as i32) + margin
                || y > fx(SCREEN_H as i32) + margin;
            if off {
                self.shots.swap_remove(i);
                continue;
            }
            self.shots[i].x = x;
            self.shots[i].y = y;
            i += 1;
        }
    }
}

/// Whether a shot with half size `half` moving by its velocity this frame meets `target`
/// (which moved by its dx, dy): the shot's path relative to the target, tested against the
/// target's box grown by the shot's half size (slab method). Returns the fraction of the
/// frame at which they first touch. Edges count as touching, as in seed 004.
pub(crate) fn swept_hit(shot: &Shot, half: (Fx, Fx), target: &Target) -> Option<f64> {
    let centre_x = f64::from(target.x) + f64::from(target.w) / 2.0;
    let centre_y = f64::from(target.y) + f64::from(target.h) / 2.0;
    // Relative start (the target where it was when the frame began) and motion.
    let start = (
        f64::from(shot.x) - (centre_x - f64::from(target.dx)),
        f64::from(shot.y) - (centre_y - f64::from(target.dy)),
    );
    let motion = (
        f64::from(shot.vx - target.dx),
        f64::from(shot.vy - target.dy),
    );
    let grown = (
        f64::from(target.w) / 2.0 + f64::from(half.0),
        f64::from(target.h) / 2.0 + f64::from(half.1),
    );
    let (mut enter, mut exit) = (0.0f64, 1.0f64);
    for (s, d, h) in [(start.0, motion.0, grown.0), (start.1, motion.1, grown.1)] {
        if d == 0.0 {
            if s < -h || s > h {
                return None;
            }
        } else {
            let (a, b) = ((-h - s) / d, (h - s) / d);
            let (near, far) = if a < b { (a, b) } else { (b, a) };
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return None;
            }
        }
    }
    Some(enter)
}

/// The spawn of one bullet at (x, y) toward fine angle `angle` at `speed`, of type `kind`.
pub fn bullet(x: Fx, y: Fx, angle: u16, speed: Fx, kind: u8) -> Spawn {
    Spawn {
        x,
        y,
        angle,
        speed,
        kind,
        program: NO_PROGRAM,
        ..Spawn::default()
    }
}

/// The velocity of a shot of `speed` toward `angle` (fine units).
pub(crate) fn shot_velocity(angle: u16, speed: Fx) -> (Fx, Fx) {
    velocity(angle, speed)
}
