//! Running BulletML with libbulletml's timing and evaluation order (checked against the
//! library itself by `tests/bulletml_reference.rs`):
//!
//! - every thread keeps a turn cursor set on its first run; commands execute while the
//!   cursor is not past the current turn, and `<wait>N` moves it N turns on (a wait of 0 or
//!   less does nothing), so `[fire, wait 10, fire]` fires on turns T and T+10;
//! - `changeDirection`, `changeSpeed` and `accel` interpolate from the turn they run: nothing
//!   changes that turn, the final value lands exactly `term` turns later; directions turn the
//!   short way round; `sequence` adds its value every turn;
//! - a `<fire>` without a direction aims, without a speed uses 1; a `<bullet>`'s own
//!   direction and speed override its `<fire>`'s; the first `sequence` of a thread aims (and
//!   uses speed 1); every direction worked out, a `changeDirection`'s target included,
//!   becomes the previous one for `sequence`, and every speed the previous speed;
//! - a reference's `<param>`s are evaluated each time execution reaches the reference: a
//!   `<repeat>` of an `<actionRef>` evaluates them again for every iteration, on the turn the
//!   iteration begins; a bullet evaluates its `<actionRef>`s' params itself, against the
//!   params it was fired with, when it starts each of them; a reference without `<param>`
//!   reads every `$n` as 1;
//! - `repeat` evaluates `times` when reached and runs at least once;
//! - a bullet's actions (inline ones first) run one after another, the next starting the
//!   turn after the previous ends; a source's `top` actions run in parallel and the source
//!   ends when one of them has ended.

use std::sync::Arc;

use super::expr::{Context, Expr};
use super::pattern::{Command, DirKind, Direction, Id, Link, Pattern, Speed, SpeedKind};

/// The values of `$1`, `$2`, ...
pub(crate) type Params = Arc<[f64]>;

/// What a script runs on: an enemy (a source) or a bullet.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Object {
    /// Heading in BulletML degrees (0 up, clockwise) and speed in pixels per frame.
    pub direction: f64,
    pub speed: f64,
    /// The extra velocity `accel` sets, pixels per frame (y down).
    pub accel_x: f64,
    pub accel_y: f64,
    pub(crate) vanished: bool,
}

/// What a running script asks of the bullet unit.
pub trait Host {
    /// Takes `work` from the frame's budget of BulletML work (a command is 1; see
    /// [`Expr::work`]), or what is left of it; true when there was enough. Scripts pause
    /// where the budget runs out and catch up on later frames.
    fn spend(&mut self, work: u64) -> bool;
    /// The direction (BulletML degrees, in [0, 360)) from the object toward the player.
    fn aim(&self) -> f64;
    /// A random number in [0, 1) from the machine RNG.
    fn rand(&mut self) -> f64;
    fn rank(&self) -> f64;
    /// Creates bullet `bullet` of the pattern at the object's position, with `params`.
    fn fire(&mut self, direction: f64, speed: f64, bullet: Id, params: Params);
}

/// A value moving in a straight line from (x0, y0) to (x1, y1) over turns, computed as
/// libbulletml's `LinearFunc` does (so the two agree to the last bit).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Linear {
    x0: i64,
    x1: i64,
    y0: f64,
    y1: f64,
    gradient: f64,
}

impl Linear {
    fn new(x0: i64, x1: i64, y0: f64, y1: f64) -> Linear {
        Linear {
            x0,
            x1,
            y0,
            y1,
            gradient: (y1 - y0) / (x1 - x0) as f64,
        }
    }

    /// The value at turn `now`, and whether the change is over.
    fn at(&self, now: i64) -> (f64, bool) {
        if now >= self.x1 {
            (self.y1, true)
        } else {
            (self.y0 + self.gradient * (now - self.x0) as f64, false)
        }
    }
}

/// The changes in progress, applied at the start of each turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Changes {
    direction: Option<Linear>,
    speed: Option<Linear>,
    accel_x: Option<Linear>,
    accel_y: Option<Linear>,
}

impl Changes {
    fn apply(&mut self, object: &mut Object, now: i64) {
        let slots: [(&mut Option<Linear>, &mut f64); 4] = [
            (&mut self.direction, &mut object.direction),
            (&mut self.speed, &mut object.speed),
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

    fn idle(&self) -> bool {
        self.direction.is_none()
            && self.speed.is_none()
            && self.accel_x.is_none()
            && self.accel_y.is_none()
    }
}

/// One level of a thread's call stack.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Frame {
    /// An action being run, with its parameters.
    Action {
        action: Id,
        pc: usize,
        params: Params,
    },
    /// A `<repeat>` (command `at.1` of action `at.0`): its body has run `done` of `wanted`
    /// times. When this frame is on top, the next iteration is due.
    Repeat {
        at: (Id, usize),
        done: u32,
        wanted: u32,
        params: Params,
    },
}

/// What a thread runs: one top action, or a bullet's actions.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Script {
    Top(Id),
    Bullet(Id),
}

/// One thread of a script (libbulletml's `BulletMLRunnerImpl`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Thread {
    script: Script,
    /// The next of the script's actions to start.
    next_action: usize,
    params: Params,
    stack: Vec<Frame>,
    cursor: Option<i64>,
    previous_direction: Option<f64>,
    previous_speed: Option<f64>,
    changes: Changes,
    ended: bool,
}

/// Most times a `<repeat>` runs.
pub(crate) const MAX_REPEAT: u32 = 100_000;
/// Longest `<wait>` and `<term>`, in turns.
pub(crate) const MAX_TURNS: f64 = 1e9;

/// A script: one thread per top action of a source, or one thread for a bullet's actions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Runner {
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
                .map(|&top| Thread::new(Script::Top(top), Arc::from([])))
                .collect(),
            ended: false,
        }
    }

    /// The runner of a fired bullet `bullet`, with the params it was fired with.
    pub fn bullet(bullet: Id, params: Params) -> Runner {
        Runner {
            threads: vec![Thread::new(Script::Bullet(bullet), params)],
            ended: false,
        }
    }

    /// Runs turn `now`, within the host's budget. Returns the commands executed.
    pub fn run(
        &mut self,
        pattern: &Pattern,
        object: &mut Object,
        host: &mut dyn Host,
        now: i64,
    ) -> u64 {
        let mut steps = 0;
        for thread in &mut self.threads {
            steps += thread.run(pattern, object, host, now);
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

/// A value that is not finite (a division by zero) reads as 0. A long expression takes its
/// work from the budget (what is left, if that is less: it is evaluated anyway, and the
/// script pauses after this command).
fn eval(expr: &Expr, params: &[f64], host: &mut dyn Host) -> f64 {
    host.spend(expr.work());
    let value = expr.eval(&mut Eval { params, host });
    if value.is_finite() { value } else { 0.0 }
}

/// A count of turns: truncated toward zero, bounded.
fn turns(expr: &Expr, params: &[f64], host: &mut dyn Host) -> i64 {
    eval(expr, params, host)
        .trunc()
        .clamp(-MAX_TURNS, MAX_TURNS) as i64
}

/// The parameters execution enters `link` with: a reference's own, evaluated now against
/// `params`; an inline element's are `params`.
fn link_params(link: &Link, params: &Params, host: &mut dyn Host) -> Params {
    match link {
        Link::Inline(_) => params.clone(),
        Link::Ref { params: exprs, .. } => exprs.iter().map(|e| eval(e, params, host)).collect(),
    }
}

/// Wraps a direction into [0, 360] by whole turns, as libbulletml does (360 stays 360).
fn wrap(mut degrees: f64) -> f64 {
    if !degrees.is_finite() {
        return 0.0;
    }
    if degrees.abs() > 360.0 * 64.0 {
        degrees = degrees.rem_euclid(360.0);
    }
    while degrees > 360.0 {
        degrees -= 360.0;
    }
    while degrees < 0.0 {
        degrees += 360.0;
    }
    degrees
}

impl Thread {
    fn new(script: Script, params: Params) -> Thread {
        Thread {
            script,
            next_action: 0,
            params,
            stack: Vec::new(),
            cursor: None,
            previous_direction: None,
            previous_speed: None,
            changes: Changes::default(),
            ended: false,
        }
    }

    fn action_count(&self, pattern: &Pattern) -> usize {
        match self.script {
            Script::Top(_) => 1,
            Script::Bullet(bullet) => pattern.bullets[bullet].actions.len(),
        }
    }

    fn run(
        &mut self,
        pattern: &Pattern,
        object: &mut Object,
        host: &mut dyn Host,
        now: i64,
    ) -> u64 {
        // Each thread's turn costs one unit of work, so that any number of threads is
        // bounded too.
        if self.ended || !host.spend(1) {
            return 0;
        }
        self.changes.apply(object, now);
        if self.stack.is_empty() && self.next_action >= self.action_count(pattern) {
            if self.cursor.is_none_or(|c| c <= now) && self.changes.idle() {
                self.ended = true;
            }
            return 0;
        }
        self.cursor.get_or_insert(now);
        let mut steps = 0;
        while self.cursor.is_some_and(|c| c <= now) && host.spend(1) {
            steps += 1;
            self.step(pattern, object, host);
            if self.unwind(pattern) {
                // The action is over; the next one starts on the next turn.
                self.next_action += 1;
                break;
            }
        }
        steps
    }

    /// Executes what is next: starting the script's next action, the next iteration of a
    /// repeat, or a command.
    fn step(&mut self, pattern: &Pattern, object: &mut Object, host: &mut dyn Host) {
        match self.stack.last_mut() {
            None => {
                let (action, params) = match self.script {
                    Script::Top(top) => (top, self.params.clone()),
                    Script::Bullet(bullet) => {
                        let link = &pattern.bullets[bullet].actions[self.next_action];
                        (link.id(), link_params(link, &self.params, host))
                    }
                };
                self.stack.push(Frame::Action {
                    action,
                    pc: 0,
                    params,
                });
            }
            Some(Frame::Repeat { at, params, .. }) => {
                let Command::Repeat { action: link, .. } = &pattern.actions[at.0].commands[at.1]
                else {
                    unreachable!("a repeat frame points at a <repeat>")
                };
                let params = link_params(link, params, host);
                self.stack.push(Frame::Action {
                    action: link.id(),
                    pc: 0,
                    params,
                });
            }
            Some(Frame::Action { action, pc, params }) => {
                let at = (*action, *pc);
                *pc += 1;
                let params = params.clone();
                let command = &pattern.actions[at.0].commands[at.1];
                self.execute(pattern, command, at, &params, object, host);
            }
        }
    }

    /// Leaves finished actions, as libbulletml does right after a command: a finished body
    /// counts an iteration of its repeat, a finished repeat or action returns to its caller.
    /// Returns true when the script's current action is over.
    fn unwind(&mut self, pattern: &Pattern) -> bool {
        loop {
            match self.stack.last_mut() {
                None => return true,
                Some(Frame::Action { action, pc, .. }) => {
                    if *pc < pattern.actions[*action].commands.len() {
                        return false;
                    }
                    self.stack.pop();
                    if let Some(Frame::Repeat { done, .. }) = self.stack.last_mut() {
                        *done += 1;
                    }
                }
                Some(Frame::Repeat { done, wanted, .. }) => {
                    if done < wanted {
                        return false;
                    }
                    self.stack.pop();
                }
            }
        }
    }

    fn execute(
        &mut self,
        pattern: &Pattern,
        command: &Command,
        at: (Id, usize),
        params: &Params,
        object: &mut Object,
        host: &mut dyn Host,
    ) {
        let now = self.cursor.unwrap_or(0);
        match command {
            Command::Wait(expr) => {
                let turns = turns(expr, params, host);
                if turns > 0 {
                    self.cursor = Some(now + turns);
                }
            }
            Command::Vanish => object.vanished = true,
            Command::Action(link) => {
                let params = link_params(link, params, host);
                self.stack.push(Frame::Action {
                    action: link.id(),
                    pc: 0,
                    params,
                });
            }
            Command::Repeat { times, .. } => {
                let wanted = eval(times, params, host)
                    .trunc()
                    .clamp(1.0, f64::from(MAX_REPEAT)) as u32;
                self.stack.push(Frame::Repeat {
                    at,
                    done: 0,
                    wanted,
                    params: params.clone(),
                });
            }
            Command::Fire(link) => self.fire(pattern, link, params, object, host),
            Command::ChangeDirection { direction, term } => {
                let term = turns(term, params, host);
                let first = object.direction;
                let last = if direction.kind == DirKind::Sequence {
                    first + eval(&direction.value, params, host) * term as f64
                } else {
                    let target = self.direction(pattern, direction, params, object, host);
                    let d1 = target - first;
                    let d2 = if d1 > 0.0 { d1 - 360.0 } else { d1 + 360.0 };
                    first + if d1.abs() < d2.abs() { d1 } else { d2 }
                };
                self.changes.direction = Some(Linear::new(now, now + term, first, last));
            }
            Command::ChangeSpeed { speed, term } => {
                let term = turns(term, params, host);
                let last = if speed.kind == SpeedKind::Sequence {
                    eval(&speed.value, params, host) * term as f64 + object.speed
                } else {
                    self.speed(speed, params, object, host)
                };
                self.changes.speed = Some(Linear::new(now, now + term, object.speed, last));
            }
            Command::Accel {
                horizontal,
                vertical,
                term,
            } => {
                let term = turns(term, params, host);
                // In a horizontal pattern the axes turn: x follows <vertical>, y minus
                // <horizontal>.
                let (x_source, y_source, y_sign) = if pattern.horizontal {
                    (vertical, horizontal, -1.0)
                } else {
                    (horizontal, vertical, 1.0)
                };
                let mut target = |s: &Speed, first: f64, sign: f64| {
                    let v = sign * eval(&s.value, params, host);
                    let last = match s.kind {
                        SpeedKind::Absolute => v,
                        SpeedKind::Relative => first + v,
                        SpeedKind::Sequence => first + v * term as f64,
                    };
                    Linear::new(now, now + term, first, last)
                };
                if let Some(s) = x_source {
                    self.changes.accel_x = Some(target(s, object.accel_x, 1.0));
                }
                if let Some(s) = y_source {
                    self.changes.accel_y = Some(target(s, object.accel_y, y_sign));
                }
            }
        }
    }

    /// A direction in BulletML degrees wrapped to [0, 360]; it becomes the previous
    /// direction for `sequence`.
    fn direction(
        &mut self,
        pattern: &Pattern,
        direction: &Direction,
        params: &[f64],
        object: &Object,
        host: &mut dyn Host,
    ) -> f64 {
        let v = eval(&direction.value, params, host);
        let degrees = match direction.kind {
            DirKind::Aim => v + host.aim(),
            DirKind::Absolute if pattern.horizontal => v - 90.0,
            DirKind::Absolute => v,
            DirKind::Relative => v + object.direction,
            DirKind::Sequence => match self.previous_direction {
                Some(previous) => v + previous,
                None => host.aim(),
            },
        };
        let degrees = wrap(degrees);
        self.previous_direction = Some(degrees);
        degrees
    }

    /// A speed; it becomes the previous speed for `sequence`.
    fn speed(
        &mut self,
        speed: &Speed,
        params: &[f64],
        object: &Object,
        host: &mut dyn Host,
    ) -> f64 {
        let v = eval(&speed.value, params, host);
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

    /// A `<fire>`: the fire's speed and direction, then the bullet's (which override them),
    /// each evaluated in the order libbulletml does.
    fn fire(
        &mut self,
        pattern: &Pattern,
        link: &Link,
        params: &Params,
        object: &Object,
        host: &mut dyn Host,
    ) {
        let fire_params = link_params(link, params, host);
        let fire = &pattern.fires[link.id()];
        let mut speed = fire
            .speed
            .as_ref()
            .map(|s| self.speed(s, &fire_params, object, host));
        let mut direction = fire
            .direction
            .as_ref()
            .map(|d| self.direction(pattern, d, &fire_params, object, host));
        let bullet_params = link_params(&fire.bullet, &fire_params, host);
        let bullet = &pattern.bullets[fire.bullet.id()];
        if let Some(s) = &bullet.speed {
            speed = Some(self.speed(s, &bullet_params, object, host));
        }
        if let Some(d) = &bullet.direction {
            direction = Some(self.direction(pattern, d, &bullet_params, object, host));
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
