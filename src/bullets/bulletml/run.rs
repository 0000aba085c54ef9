//! Running BulletML, with the reference implementation's timing (libbulletml):
//!
//! - every runner keeps a turn cursor set on its first run; commands execute while the
//!   cursor is not past the current turn, and `<wait>N` moves the cursor N turns on (a wait
//!   of 0 or less does nothing), so `[fire, wait 10, fire]` fires on turns T and T+10;
//! - `changeDirection`, `changeSpeed` and `accel` interpolate from the turn they run: nothing
//!   changes that turn, the final value lands exactly `term` turns later; directions turn the
//!   short way round; `sequence` adds its value every turn;
//! - a `<fire>` without a direction aims, without a speed uses 1; a `<bullet>`'s own
//!   direction and speed override its `<fire>`'s; the first `sequence` of a runner aims (and
//!   uses speed 1);
//! - `repeat` evaluates `times` when reached and runs at least once; a reference without
//!   `<param>` reads every `$n` as 1;
//! - a bullet's several actions run one after another; a source's `top` actions run in
//!   parallel and the source ends when one of them has ended.

use super::expr::{Context, Expr};
use super::pattern::{Command, DirKind, Id, Link, Pattern, Speed, SpeedKind};

/// What a script runs on: an enemy (a source) or a bullet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Object {
    /// Heading in BulletML degrees (0 up, clockwise) and speed in pixels per frame.
    pub direction: f64,
    pub speed: f64,
    /// The extra velocity `accel` sets, pixels per frame (y down).
    pub accel_x: f64,
    pub accel_y: f64,
    pub vanished: bool,
}

/// What a running script asks of the bullet unit.
pub trait Host {
    /// The direction (BulletML degrees) from the object toward the player.
    fn aim(&self) -> f64;
    /// A random number in [0, 1) from the machine RNG.
    fn rand(&mut self) -> f64;
    fn rank(&self) -> f64;
    /// Creates a bullet at the object's position.
    fn fire(&mut self, direction: f64, speed: f64, bullet: Id, params: Vec<f64>);
}

/// A value moving in a straight line from (x0, y0) to (x1, y1) over turns.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Linear {
    x0: i64,
    x1: i64,
    y0: f64,
    y1: f64,
}

impl Linear {
    /// The value at turn `now`, and whether the change is over.
    fn at(&self, now: i64) -> (f64, bool) {
        if now >= self.x1 {
            (self.y1, true)
        } else {
            let t = (now - self.x0) as f64 / (self.x1 - self.x0) as f64;
            (self.y0 + (self.y1 - self.y0) * t, false)
        }
    }
}

/// One level of the execution stack: an action being run, its parameters, its repeats.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    action: Id,
    pc: usize,
    params: Vec<f64>,
    /// Runs done and runs wanted, for a `<repeat>`.
    repeat: Option<(u32, u32)>,
}

/// One thread of a script (the reference's `BulletMLRunnerImpl`).
#[derive(Clone, Debug, PartialEq)]
struct Thread {
    /// Actions run one after another.
    actions: Vec<Id>,
    next_action: usize,
    params: Vec<f64>,
    stack: Vec<Frame>,
    cursor: Option<i64>,
    previous_direction: Option<f64>,
    previous_speed: Option<f64>,
    change_direction: Option<Linear>,
    change_speed: Option<Linear>,
    accel_x: Option<Linear>,
    accel_y: Option<Linear>,
    ended: bool,
}

/// Most times a `<repeat>` runs.
pub const MAX_REPEAT: u32 = 100_000;

/// A script: one thread per top action of a source, or one thread for a bullet's actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Runner {
    threads: Vec<Thread>,
    /// Ends when any thread ends (sources) or when its only thread ends (bullets).
    pub ended: bool,
}

impl Runner {
    /// The runner of a source: every top action of `pattern`, in parallel.
    pub fn source(pattern: &Pattern) -> Runner {
        Runner {
            threads: pattern
                .tops
                .iter()
                .map(|&top| Thread::new(vec![top], Vec::new()))
                .collect(),
            ended: false,
        }
    }

    /// The runner of a bullet with `actions`, run one after another with `params`.
    pub fn bullet(actions: Vec<Id>, params: Vec<f64>) -> Runner {
        Runner {
            threads: vec![Thread::new(actions, params)],
            ended: false,
        }
    }

    /// Runs turn `now`; `budget` counts commands down and stops the runner's turn at 0.
    /// Returns the commands executed.
    pub fn run(
        &mut self,
        pattern: &Pattern,
        object: &mut Object,
        host: &mut dyn Host,
        now: i64,
        budget: &mut u64,
    ) -> u64 {
        let mut steps = 0;
        for thread in &mut self.threads {
            steps += thread.run(pattern, object, host, now, budget);
            if thread.ended {
                self.ended = true;
            }
        }
        steps
    }
}

/// Expression context of one evaluation.
struct Eval<'a> {
    params: &'a [f64],
    host: &'a mut dyn Host,
}

impl Context for Eval<'_> {
    fn param(&self, n: u8) -> f64 {
        self.params.get(usize::from(n) - 1).copied().unwrap_or(1.0)
    }
    fn rand(&mut self) -> f64 {
        self.host.rand()
    }
    fn rank(&self) -> f64 {
        self.host.rank()
    }
}

/// Wraps a direction into [0, 360] by whole turns, as the reference does.
fn wrap(mut degrees: f64) -> f64 {
    if !degrees.is_finite() {
        return 0.0;
    }
    degrees %= 360.0;
    if degrees < 0.0 {
        degrees += 360.0;
    }
    degrees
}

impl Thread {
    fn new(actions: Vec<Id>, params: Vec<f64>) -> Thread {
        Thread {
            actions,
            next_action: 0,
            params,
            stack: Vec::new(),
            cursor: None,
            previous_direction: None,
            previous_speed: None,
            change_direction: None,
            change_speed: None,
            accel_x: None,
            accel_y: None,
            ended: false,
        }
    }

    fn eval(&self, expr: &Expr, params: &[f64], host: &mut dyn Host) -> f64 {
        let value = expr.eval(&mut Eval { params, host });
        if value.is_finite() { value } else { 0.0 }
    }

    /// Applies the running changes for turn `now`.
    fn changes(&mut self, object: &mut Object, now: i64) {
        let slots: [(&mut Option<Linear>, &mut f64); 4] = [
            (&mut self.change_direction, &mut object.direction),
            (&mut self.change_speed, &mut object.speed),
            (&mut self.accel_x, &mut object.accel_x),
            (&mut self.accel_y, &mut object.accel_y),
        ];
        for (change, value) in slots {
            if let Some(linear) = change {
                let (v, done) = linear.at(now);
                *value = v;
                if done {
                    *change = None;
                }
            }
        }
    }

    fn changing(&self) -> bool {
        self.change_direction.is_some()
            || self.change_speed.is_some()
            || self.accel_x.is_some()
            || self.accel_y.is_some()
    }

    fn run(
        &mut self,
        pattern: &Pattern,
        object: &mut Object,
        host: &mut dyn Host,
        now: i64,
        budget: &mut u64,
    ) -> u64 {
        if self.ended {
            return 0;
        }
        self.changes(object, now);
        if self.stack.is_empty() && self.next_action >= self.actions.len() {
            if self.cursor.is_none_or(|c| c <= now) && !self.changing() {
                self.ended = true;
            }
            return 0;
        }
        let cursor = *self.cursor.get_or_insert(now);
        if self.stack.is_empty() {
            if cursor > now {
                return 0;
            }
            self.stack.push(Frame {
                action: self.actions[self.next_action],
                pc: 0,
                params: self.params.clone(),
                repeat: None,
            });
        }
        let mut steps = 0;
        // An empty action finishes at once.
        if self.unwind(pattern) {
            return 0;
        }
        while self.cursor.is_some_and(|c| c <= now) && *budget > 0 {
            let Some(frame) = self.stack.last_mut() else {
                break;
            };
            let command = &pattern.actions[frame.action].commands[frame.pc];
            frame.pc += 1;
            let params = frame.params.clone();
            *budget -= 1;
            steps += 1;
            self.execute(pattern, command, &params, object, host);
            if self.unwind(pattern) {
                break;
            }
        }
        steps
    }

    /// Moves past finished actions right after a command, as the reference does: a repeat
    /// loops back, a finished action returns to its caller. Returns true when the current
    /// top-level action is done (the next one starts on the next turn).
    fn unwind(&mut self, pattern: &Pattern) -> bool {
        while let Some(frame) = self.stack.last_mut() {
            if frame.pc < pattern.actions[frame.action].commands.len() {
                return false;
            }
            if let Some((done, wanted)) = &mut frame.repeat {
                *done += 1;
                if *done < *wanted {
                    frame.pc = 0;
                    continue;
                }
            }
            self.stack.pop();
        }
        self.next_action += 1;
        true
    }

    /// The parameters a link runs with: its own (evaluated here) for a reference, the current
    /// ones for an inline element.
    fn link_params(&self, link: &Link, params: &[f64], host: &mut dyn Host) -> Vec<f64> {
        match link {
            Link::Inline(_) => params.to_vec(),
            Link::Ref { params: exprs, .. } => {
                exprs.iter().map(|e| self.eval(e, params, host)).collect()
            }
        }
    }

    fn execute(
        &mut self,
        pattern: &Pattern,
        command: &Command,
        params: &[f64],
        object: &mut Object,
        host: &mut dyn Host,
    ) {
        let now = self.cursor.unwrap_or(0);
        match command {
            Command::Wait(expr) => {
                let turns = self.eval(expr, params, host).trunc();
                if turns > 0.0 {
                    self.cursor = Some(now + turns.min(1e9) as i64);
                }
            }
            Command::Vanish => object.vanished = true,
            Command::Action(link) => {
                let params = self.link_params(link, params, host);
                self.stack.push(Frame {
                    action: link.id(),
                    pc: 0,
                    params,
                    repeat: None,
                });
            }
            Command::Repeat { times, action } => {
                let wanted = self
                    .eval(times, params, host)
                    .trunc()
                    .clamp(1.0, f64::from(MAX_REPEAT)) as u32;
                let params = self.link_params(action, params, host);
                self.stack.push(Frame {
                    action: action.id(),
                    pc: 0,
                    params,
                    repeat: Some((0, wanted)),
                });
            }
            Command::Fire(link) => self.fire(pattern, link, params, object, host),
            Command::ChangeDirection { direction, term } => {
                let term = self.eval(term, params, host).trunc().clamp(-1e9, 1e9) as i64;
                let current = object.direction;
                let end = if direction.kind == DirKind::Sequence {
                    current + self.eval(&direction.value, params, host) * term as f64
                } else {
                    let target = self.direction(
                        pattern,
                        direction.kind,
                        &direction.value,
                        params,
                        object,
                        host,
                        false,
                    );
                    let d1 = target - current;
                    let d2 = if d1 > 0.0 { d1 - 360.0 } else { d1 + 360.0 };
                    current + if d1.abs() < d2.abs() { d1 } else { d2 }
                };
                self.change_direction = Some(Linear {
                    x0: now,
                    x1: now + term,
                    y0: current,
                    y1: end,
                });
            }
            Command::ChangeSpeed { speed, term } => {
                let term = self.eval(term, params, host).trunc().clamp(-1e9, 1e9) as i64;
                let current = object.speed;
                let end = if speed.kind == SpeedKind::Sequence {
                    current + self.eval(&speed.value, params, host) * term as f64
                } else {
                    self.speed(speed, params, object, host)
                };
                self.change_speed = Some(Linear {
                    x0: now,
                    x1: now + term,
                    y0: current,
                    y1: end,
                });
            }
            Command::Accel {
                horizontal,
                vertical,
                term,
            } => {
                let term = self.eval(term, params, host).trunc().clamp(-1e9, 1e9) as i64;
                // In a horizontal pattern the axes turn: x follows <vertical>, y minus <horizontal>.
                let (x_source, y_source, y_sign) = if pattern.horizontal {
                    (vertical, horizontal, -1.0)
                } else {
                    (horizontal, vertical, 1.0)
                };
                let target =
                    |thread: &Thread, host: &mut dyn Host, s: &Speed, first: f64, sign: f64| {
                        let v = sign * thread.eval(&s.value, params, host);
                        match s.kind {
                            SpeedKind::Absolute => v,
                            SpeedKind::Relative => first + v,
                            SpeedKind::Sequence => first + v * term as f64,
                        }
                    };
                if let Some(s) = x_source {
                    let end = target(self, host, s, object.accel_x, 1.0);
                    self.accel_x = Some(Linear {
                        x0: now,
                        x1: now + term,
                        y0: object.accel_x,
                        y1: end,
                    });
                }
                if let Some(s) = y_source {
                    let end = target(self, host, s, object.accel_y, y_sign);
                    self.accel_y = Some(Linear {
                        x0: now,
                        x1: now + term,
                        y0: object.accel_y,
                        y1: end,
                    });
                }
            }
        }
    }

    /// A direction of `kind` with `value`, in BulletML degrees wrapped to [0, 360]. Fire
    /// directions (`remember`) also become the previous direction for `sequence`.
    #[allow(clippy::too_many_arguments)]
    fn direction(
        &mut self,
        pattern: &Pattern,
        kind: DirKind,
        value: &Expr,
        params: &[f64],
        object: &Object,
        host: &mut dyn Host,
        remember: bool,
    ) -> f64 {
        let v = self.eval(value, params, host);
        let degrees = match kind {
            DirKind::Aim => v + host.aim(),
            DirKind::Absolute => {
                if pattern.horizontal {
                    v - 90.0
                } else {
                    v
                }
            }
            DirKind::Relative => v + object.direction,
            DirKind::Sequence => match self.previous_direction {
                Some(previous) => v + previous,
                None => host.aim(),
            },
        };
        let degrees = wrap(degrees);
        if remember {
            self.previous_direction = Some(degrees);
        }
        degrees
    }

    /// A speed; every speed evaluated becomes the previous speed for `sequence`.
    fn speed(
        &mut self,
        speed: &Speed,
        params: &[f64],
        object: &Object,
        host: &mut dyn Host,
    ) -> f64 {
        let v = self.eval(&speed.value, params, host);
        let value = match speed.kind {
            SpeedKind::Absolute => v,
            SpeedKind::Relative => v + object.speed,
            SpeedKind::Sequence => match self.previous_speed {
                Some(previous) => v + previous,
                None => 1.0,
            },
        };
        self.previous_speed = Some(value);
        value
    }

    fn fire(
        &mut self,
        pattern: &Pattern,
        link: &Link,
        params: &[f64],
        object: &Object,
        host: &mut dyn Host,
    ) {
        let fire_params = self.link_params(link, params, host);
        let fire = &pattern.fires[link.id()];
        let mut speed = fire
            .speed
            .as_ref()
            .map(|s| self.speed(s, &fire_params, object, host));
        let mut direction = fire
            .direction
            .as_ref()
            .map(|d| self.direction(pattern, d.kind, &d.value, &fire_params, object, host, true));
        let bullet_params = self.link_params(&fire.bullet, &fire_params, host);
        let bullet = &pattern.bullets[fire.bullet.id()];
        if let Some(s) = &bullet.speed {
            speed = Some(self.speed(s, &bullet_params, object, host));
        }
        if let Some(d) = &bullet.direction {
            direction = Some(self.direction(
                pattern,
                d.kind,
                &d.value,
                &bullet_params,
                object,
                host,
                true,
            ));
        }
        let speed = speed.unwrap_or_else(|| {
            self.previous_speed = Some(1.0);
            1.0
        });
        let direction = direction.unwrap_or_else(|| {
            let aim = host.aim();
            self.previous_direction = Some(aim);
            aim
        });
        host.fire(direction, speed, fire.bullet.id(), bullet_params);
    }
}
