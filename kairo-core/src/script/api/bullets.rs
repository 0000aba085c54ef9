//! Cart API: the bullet unit — bullet types, emitters, the player, shots, targets, events.

use mlua::MultiValue;

use crate::bullets::angle::{self, atan};
use crate::bullets::unit::{BulletType, Event, Player, Shot, TYPES, Target, bullet, shot_velocity};
use crate::fixed::{Fx, fx_from_f64, fx_to_f64};
use crate::meter::Unit;
use crate::script::api::common::{PALETTE, TILE, name};
use crate::script::args::{Arg, Default, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::script::stack::Plain;
use crate::spec::{BULLET_CULL_MARGIN_MAX, PRIORITY_LEVELS, cost};

const X: Arg = Arg::num("x");
const Y: Arg = Arg::num("y");
/// An angle in 256ths of a turn (fractions allowed).
const ANGLE: Arg = Arg::num("angle");
const SPEED: Arg = Arg::new("speed", Kind::Num(-256.0, 256.0));
const TYPE: Arg = Arg::int("type", 0, TYPES as i64 - 1);
/// Most bullets one emitter call fires.
const MAX_COUNT: i64 = 4096;
const COUNT: Arg = Arg::int("n", 0, MAX_COUNT);
const START: Arg = Arg::num("start").or(Default::Num(0.0));
const SOURCE: Arg = Arg::new("source", Kind::Integer);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Bullets",
    intro: "The bullet unit moves, culls, draws and hit-tests bullets itself; a cart only \
            fires them and reads what happened. Positions are screen pixels (fractions \
            allowed; kept in 16.16). Angles are steps of a 256-step turn: 0 right, 64 down, \
            128 left, 192 up (fractions allowed). Speeds are pixels per frame. Bullet types \
            0-63 give a bullet its look and hit size: `bu_type` sets one, and firing \
            bullets of a type it has not set is an error naming the type (such bullets \
            would be invisible and still hit). The unit runs once a frame between \
            `update()` and `draw()`: bullets fired in `update` move in the same frame, and \
            `bu_events()` returns what the last run found.",
    functions: &[
        ApiFn {
            name: "bu_type",
            args: &[
                TYPE,
                TILE,
                Arg::int("size", 1, 2).or_int(1),
                PALETTE,
                Arg::num("hit_w").or(Default::Num(2.0)),
                Arg::num("hit_h").optional("hit_w"),
            ],
            returns: "",
            doc: "Defines bullet type `type`: drawn as the `size` x `size` tile block from \
                  `tile` with `palette`, centred on the bullet; `hit_w` and `hit_h` are its hit \
                  box's half sizes in pixels.",
            cost: &[],
            call: bu_type,
        },
        ApiFn {
            name: "bu_fire",
            args: &[
                X,
                Y,
                ANGLE,
                SPEED,
                TYPE,
                Arg::new("options", Kind::Table("{accel, turn, frames, ax, ay}")).optional("none"),
            ],
            returns: "fired",
            doc: "Fires one bullet. `options` may hold `accel` (speed change per frame) and \
                  `turn` (angle change per frame) for `frames` frames, and `ax`, `ay` \
                  (acceleration in pixels per frame per frame). False when the table is full \
                  (the frame report counts it).",
            cost: &[Cost::each(cost::BULLET_SPAWN, "per bullet", Unit::Bullets)],
            call: bu_fire,
        },
        ApiFn {
            name: "bu_aim",
            args: &[X, Y, SPEED, TYPE, Arg::num("offset").or(Default::Num(0.0))],
            returns: "fired",
            doc: "Fires one bullet toward the player, turned by `offset` steps.",
            cost: &[Cost::each(cost::BULLET_SPAWN, "per bullet", Unit::Bullets)],
            call: bu_aim,
        },
        ApiFn {
            name: "bu_nway",
            args: &[
                X,
                Y,
                ANGLE.optional("aimed at the player"),
                COUNT,
                Arg::num("spread"),
                SPEED,
                TYPE,
            ],
            returns: "fired",
            doc: "Fires `n` bullets in a fan centred on `angle` (nil: toward the player), \
                  `spread` steps apart. Returns how many fired.",
            cost: &[Cost::each(cost::BULLET_SPAWN, "per bullet", Unit::Bullets)],
            call: bu_nway,
        },
        ApiFn {
            name: "bu_ring",
            args: &[X, Y, COUNT, SPEED, TYPE, START],
            returns: "fired",
            doc: "Fires `n` bullets evenly around a circle, the first at angle `start`.",
            cost: &[Cost::each(cost::BULLET_SPAWN, "per bullet", Unit::Bullets)],
            call: bu_ring,
        },
        ApiFn {
            name: "bu_spiral",
            args: &[
                X,
                Y,
                Arg::int("arms", 0, MAX_COUNT),
                SPEED,
                TYPE,
                Arg::num("turn"),
            ],
            returns: "fired",
            doc: "Fires `arms` bullets evenly around a circle whose first arm points at \
                  `frame() * turn` steps: called every few frames, it draws a spiral.",
            cost: &[Cost::each(cost::BULLET_SPAWN, "per bullet", Unit::Bullets)],
            call: bu_spiral,
        },
        ApiFn {
            name: "bu_burst",
            args: &[X, Y, COUNT, SPEED, TYPE, Arg::int("frames", 1, 600), START],
            returns: "",
            doc: "A ring of `n` spread over `frames` frames (the X68000 shmups' 16 + 16): bullet i is \
                  the bullet `bu_ring` would fire, fired i % frames frames later from the same \
                  place, so the cost of a big ring is spread too.",
            cost: &[
                Cost::each(cost::BULLET_SPAWN, "per bullet fired now", Unit::Bullets),
                Cost::later(
                    cost::BULLET_SPAWN,
                    "per other bullet",
                    Unit::Bullets,
                    "in the frame it appears",
                ),
            ],
            call: bu_burst,
        },
        ApiFn {
            name: "bu_player",
            args: &[
                X.optional("no player"),
                Y.optional("no player"),
                Arg::num("hit").or(Default::Num(1.0)),
                Arg::num("graze").or(Default::Num(12.0)),
            ],
            returns: "",
            doc: "Sets the player the bullets test against: its centre, the half size of its \
                  hit box (0 is a point) and of its graze box. Without \
                  arguments, no player (no hit tests, aimed bullets fire straight down).",
            cost: &[],
            call: bu_player,
        },
        ApiFn {
            name: "bu_shot",
            args: &[X, Y, ANGLE, SPEED, TYPE],
            returns: "fired",
            doc: "Fires a player shot (256 at most). Shots are tested along their whole path \
                  each frame against the targets, so none passes through.",
            cost: &[Cost::later(
                cost::BULLET_LIVE,
                "per frame alive",
                Unit::Bullets,
                "",
            )],
            call: bu_shot,
        },
        ApiFn {
            name: "bu_target",
            args: &[
                Arg::new("id", Kind::Integer),
                X,
                Y,
                Arg::num("w"),
                Arg::num("h"),
                Arg::num("dx").or(Default::Num(0.0)),
                Arg::num("dy").or(Default::Num(0.0)),
            ],
            returns: "",
            doc: "Registers an enemy box (top-left and size) for this frame's shot tests, and \
                  how far it moved this frame. Register targets in `update()`.",
            cost: &[Cost::later(
                cost::HIT_TEST,
                "per shot tested",
                Unit::Bullets,
                "in the bullet step",
            )],
            call: bu_target,
        },
        ApiFn {
            name: "bu_events",
            args: &[],
            returns: "events",
            doc: "What the last bullet run found: an array of `{kind, type, x, y, target}` \
                  tables with `kind` `\"hit\"` (a bullet hit the player and vanished), \
                  `\"graze\"` (once per bullet) or `\"shot\"` (a shot hit `target` and \
                  vanished).",
            cost: &[],
            call: bu_events,
        },
        ApiFn {
            name: "bu_cancel",
            args: &[
                X.optional("everywhere"),
                Y.optional("everywhere"),
                Arg::num("w").optional("everywhere"),
                Arg::num("h").optional("everywhere"),
            ],
            returns: "n, positions",
            doc: "Removes every bullet (or those whose centre is in the rectangle) and returns \
                  how many, and their positions as a flat array `{x1, y1, x2, y2, ...}` to \
                  turn into items or score.",
            cost: &[],
            call: bu_cancel,
        },
        ApiFn {
            name: "bu_count",
            args: &[],
            returns: "live, capacity",
            doc: "Live bullets, and the table's capacity (4096).",
            cost: &[],
            call: bu_count,
        },
        ApiFn {
            name: "bu_clear",
            args: &[],
            returns: "",
            doc: "Removes every bullet, shot and pending burst, without events.",
            cost: &[],
            call: bu_clear,
        },
        ApiFn {
            name: "bu_layer",
            args: &[
                Arg::int("priority", 0, PRIORITY_LEVELS as i64 - 1),
                Arg::int("margin", 0, BULLET_CULL_MARGIN_MAX as i64).optional("unchanged"),
            ],
            returns: "",
            doc: "Sets the bullet layer's priority (2 at power-on) and, given `margin`, how far \
                  off-screen bullets may fly before they are removed (32 px at power-on).",
            cost: &[],
            call: bu_layer,
        },
        ApiFn {
            name: "bu_pattern",
            args: &[
                name("name"),
                X,
                Y,
                TYPE.or_int(0),
                Arg::new("loop", Kind::Bool).or(Default::Bool(false)),
            ],
            returns: "source",
            doc: "Starts the cart's BulletML pattern `name` (the file `name.xml`) from an \
                  enemy at (x, y); its bullets are of type `type` (default 0). Returns the \
                  source's id. Move it each frame with `bu_source`. With `loop` true the \
                  pattern starts again the frame after it ends or vanishes, keeping the \
                  enemy's heading and speed, as the games do with their bosses.",
            cost: &[Cost::later(
                cost::BULLETML_STEP,
                "per BulletML command run",
                Unit::Bullets,
                "in the bullet step",
            )],
            call: bu_pattern,
        },
        ApiFn {
            name: "bu_source",
            args: &[SOURCE, X.optional("unmoved"), Y.optional("unmoved")],
            returns: "running",
            doc: "Moves a pattern's source and tells whether the pattern still runs (it ends \
                  when one of its top actions has ended).",
            cost: &[],
            call: bu_source,
        },
        ApiFn {
            name: "bu_source_stop",
            args: &[SOURCE],
            returns: "",
            doc: "Stops a pattern; the bullets it fired fly on.",
            cost: &[],
            call: bu_source_stop,
        },
        ApiFn {
            name: "bu_rank",
            args: &[Arg::num("rank")],
            returns: "",
            doc: "Sets BulletML's `$rank`, kept within 0-1 (0.5 at power-on).",
            cost: &[],
            call: bu_rank,
        },
        ApiFn {
            name: "bu_atan",
            args: &[Arg::num("dx"), Arg::num("dy")],
            returns: "angle",
            doc: "The angle (0-255, rounded) from the origin toward (dx, dy), from the table.",
            cost: &[],
            call: bu_atan,
        },
        ApiFn {
            name: "bu_sin",
            args: &[Arg::new("angle", Kind::Integer)],
            returns: "s, c",
            doc: "The sine and cosine of an angle (in 256ths of a turn, taken modulo 256) \
                  from the 16.16 tables.",
            cost: &[],
            call: bu_sin,
        },
    ],
    constants: &[],
};

/// A fine angle (65536 per turn) from a number of steps (256 per turn).
fn fine(steps: f64) -> u16 {
    ((steps * 256.0).round() as i64).rem_euclid(65536) as u16
}

fn type_arg(c: &Call, i: usize) -> LuaResult<u8> {
    Ok(c.int_arg(i)? as u8)
}

/// A type to fire bullets of: one `bu_type` has set (an unset type would draw nothing and
/// still hit).
fn fired_type_arg(c: &Call, i: usize) -> LuaResult<u8> {
    let kind = type_arg(c, i)?;
    defined_type(c, kind)
}

/// `kind` if `bu_type` has set it, else the error naming it.
fn defined_type(c: &Call, kind: u8) -> LuaResult<u8> {
    if c.m.bullets.is_type_defined(usize::from(kind)) {
        Ok(kind)
    } else {
        Err(c.error(format!(
            "bullet type {kind} is not set: call bu_type({kind}, tile, ...) before firing bullets of it"
        )))
    }
}

fn position(c: &Call, i: usize) -> LuaResult<(Fx, Fx)> {
    Ok((fx_from_f64(c.num_arg(i)?), fx_from_f64(c.num_arg(i + 1)?)))
}

fn speed_arg(c: &Call, i: usize) -> LuaResult<Fx> {
    Ok(fx_from_f64(c.num_arg(i)?))
}

fn count_arg(c: &Call, i: usize) -> LuaResult<u32> {
    Ok(c.int_arg(i)? as u32)
}

fn bu_type(c: &mut Call) -> LuaResult<MultiValue> {
    let index = usize::from(type_arg(c, 0)?);
    let tile = c.int_arg(1)? as u16;
    let size = c.int_arg(2)? as u8;
    let palette = c.int_arg(3)? as u8;
    let hit_w = c.num_arg(4)?;
    let hit_h = c.opt_num_arg(5)?.unwrap_or(hit_w);
    let kind = BulletType {
        tile,
        size,
        palette,
        hit_w: fx_from_f64(hit_w),
        hit_h: fx_from_f64(hit_h),
    };
    c.m.bullets.set_type(index, kind).map_err(|e| c.error(e))?;
    c.ret(())
}

fn bu_fire(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let angle = fine(c.num_arg(2)?);
    let speed = speed_arg(c, 3)?;
    let kind = fired_type_arg(c, 4)?;
    let mut spawn = bullet(x, y, angle, speed, kind);
    // Read raw: a metatable on the options cannot run code here.
    if let Some(fields) = c.table_fields(5, [c"accel", c"turn", c"frames", c"ax", c"ay"])? {
        let [accel, turn, frames, ax, ay] = fields;
        let number = |key: &str, value: Plain| -> LuaResult<f64> {
            Ok(c.field_num("options", key, &value)?.unwrap_or(0.0))
        };
        spawn.accel = fx_from_f64(number("accel", accel)?);
        spawn.turn = (number("turn", turn)? * 256.0)
            .round()
            .clamp(-32768.0, 32768.0) as i32;
        spawn.frames = number("frames", frames)?.clamp(0.0, 65535.0) as u16;
        spawn.ax = fx_from_f64(number("ax", ax)?);
        spawn.ay = fx_from_f64(number("ay", ay)?);
    }
    c.charge(Unit::Bullets, cost::BULLET_SPAWN)?;
    let fired = c.m.bullets.spawn(spawn);
    c.ret(fired)
}

fn bu_aim(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let speed = speed_arg(c, 2)?;
    let kind = fired_type_arg(c, 3)?;
    let offset = c.num_arg(4)?;
    let angle = c.m.bullets.aim_from(x, y).wrapping_add(fine(offset));
    c.charge(Unit::Bullets, cost::BULLET_SPAWN)?;
    let fired = c.m.bullets.spawn(bullet(x, y, angle, speed, kind));
    c.ret(fired)
}

fn bu_nway(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let angle = match c.opt_num_arg(2)? {
        Some(angle) => fine(angle),
        None => c.m.bullets.aim_from(x, y),
    };
    let n = count_arg(c, 3)?;
    let spread = (c.num_arg(4)? * 256.0).round().clamp(-65536.0, 65536.0) as i32;
    let speed = speed_arg(c, 5)?;
    let kind = fired_type_arg(c, 6)?;
    c.charge(Unit::Bullets, u64::from(n) * cost::BULLET_SPAWN)?;
    let fired =
        c.m.bullets
            .nway(bullet(x, y, angle, speed, kind), n, spread);
    c.ret(i64::from(fired))
}

fn bu_ring(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let n = count_arg(c, 2)?;
    let speed = speed_arg(c, 3)?;
    let kind = fired_type_arg(c, 4)?;
    let start = fine(c.num_arg(5)?);
    c.charge(Unit::Bullets, u64::from(n) * cost::BULLET_SPAWN)?;
    let fired = c.m.bullets.ring(bullet(x, y, start, speed, kind), n);
    c.ret(i64::from(fired))
}

fn bu_spiral(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let arms = count_arg(c, 2)?;
    let speed = speed_arg(c, 3)?;
    let kind = fired_type_arg(c, 4)?;
    let turn = c.num_arg(5)?;
    let start = fine(c.m.frame as f64 * turn);
    c.charge(Unit::Bullets, u64::from(arms) * cost::BULLET_SPAWN)?;
    let fired = c.m.bullets.ring(bullet(x, y, start, speed, kind), arms);
    c.ret(i64::from(fired))
}

fn bu_burst(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let n = count_arg(c, 2)?;
    let speed = speed_arg(c, 3)?;
    let kind = fired_type_arg(c, 4)?;
    let frames = c.int_arg(5)? as u32;
    let start = fine(c.num_arg(6)?);
    // The first of every `frames` bullets flies now; the rest are paid when they appear.
    c.charge(
        Unit::Bullets,
        u64::from(n.div_ceil(frames)) * cost::BULLET_SPAWN,
    )?;
    c.m.bullets
        .burst(bullet(x, y, start, speed, kind), n, frames);
    c.ret(())
}

fn bu_player(c: &mut Call) -> LuaResult<MultiValue> {
    let (Some(x), Some(y)) = (c.opt_num_arg(0)?, c.opt_num_arg(1)?) else {
        c.m.bullets.set_player(None).map_err(|e| c.error(e))?;
        return c.ret(());
    };
    let (x, y) = (fx_from_f64(x), fx_from_f64(y));
    let (hit, graze) = (c.num_arg(2)?, c.num_arg(3)?);
    let (hit, graze) = (fx_from_f64(hit), fx_from_f64(graze));
    let player = Player {
        x,
        y,
        hit_w: hit,
        hit_h: hit,
        graze_w: graze,
        graze_h: graze,
    };
    c.m.bullets
        .set_player(Some(player))
        .map_err(|e| c.error(e))?;
    c.ret(())
}

fn bu_shot(c: &mut Call) -> LuaResult<MultiValue> {
    let (x, y) = position(c, 0)?;
    let angle = fine(c.num_arg(2)?);
    let speed = speed_arg(c, 3)?;
    let kind = fired_type_arg(c, 4)?;
    let (vx, vy) = shot_velocity(angle, speed);
    let fired = c.m.bullets.shoot(Shot { x, y, vx, vy, kind });
    c.ret(fired)
}

fn bu_target(c: &mut Call) -> LuaResult<MultiValue> {
    let id = c.int_arg(0)?;
    let (x, y) = position(c, 1)?;
    let (w, h) = (fx_from_f64(c.num_arg(3)?), fx_from_f64(c.num_arg(4)?));
    if w <= 0 || h <= 0 {
        return Err(c.error("w and h must be positive"));
    }
    let (dx, dy) = (fx_from_f64(c.num_arg(5)?), fx_from_f64(c.num_arg(6)?));
    if !c.m.bullets.add_target(Target {
        id,
        x,
        y,
        w,
        h,
        dx,
        dy,
    }) {
        return Err(c.error("too many targets this frame (256)"));
    }
    c.ret(())
}

fn bu_events(c: &mut Call) -> LuaResult<MultiValue> {
    let list = c
        .lua
        .create_table_with_capacity(c.m.bullets.events.len(), 0)?;
    for event in &c.m.bullets.events {
        let entry = c.lua.create_table_with_capacity(0, 5)?;
        let (kind, t, x, y) = match *event {
            Event::Hit { kind, x, y } => ("hit", kind, x, y),
            Event::Graze { kind, x, y } => ("graze", kind, x, y),
            Event::ShotHit { target, kind, x, y } => {
                entry.raw_set("target", target)?;
                ("shot", kind, x, y)
            }
        };
        entry.raw_set("kind", kind)?;
        entry.raw_set("type", i64::from(t))?;
        entry.raw_set("x", fx_to_f64(x))?;
        entry.raw_set("y", fx_to_f64(y))?;
        list.push(entry)?;
    }
    c.ret(list)
}

fn bu_cancel(c: &mut Call) -> LuaResult<MultiValue> {
    let area = match [0, 1, 2, 3].map(|i| c.opt_num_arg(i)) {
        [Ok(None), Ok(None), Ok(None), Ok(None)] => None,
        [Ok(Some(x)), Ok(Some(y)), Ok(Some(w)), Ok(Some(h))] => {
            Some([x, y, w, h].map(fx_from_f64).into())
        }
        read => {
            read.into_iter().collect::<LuaResult<Vec<_>>>()?;
            return Err(c.error("give all of x, y, w and h, or none for every bullet"));
        }
    };
    let removed = c.m.bullets.cancel(area);
    let positions = c.lua.create_table_with_capacity(removed.len() * 2, 0)?;
    for (x, y, _) in &removed {
        positions.push(fx_to_f64(*x))?;
        positions.push(fx_to_f64(*y))?;
    }
    c.ret((removed.len() as i64, positions))
}

fn bu_count(c: &mut Call) -> LuaResult<MultiValue> {
    let table = &c.m.bullets.table;
    c.ret((table.len() as i64, table.capacity() as i64))
}

fn bu_clear(c: &mut Call) -> LuaResult<MultiValue> {
    c.m.bullets.clear();
    c.ret(())
}

fn bu_layer(c: &mut Call) -> LuaResult<MultiValue> {
    let priority = c.int_arg(0)?;
    let margin = c.opt_int_arg(1)?;
    c.m.bullets.set_layer(priority, margin);
    c.ret(())
}

fn bu_pattern(c: &mut Call) -> LuaResult<MultiValue> {
    let name = c.str_arg(0)?;
    let patterns = &c.cart.bullet_patterns;
    let pattern = patterns
        .id(&name)
        .ok_or_else(|| c.error(format!("the cart has no pattern named \"{name}\"")))?;
    let (x, y) = position(c, 1)?;
    let kind = defined_type(c, type_arg(c, 3)?)?;
    let looping = c.bool_arg(4);
    let id =
        c.m.bullets
            .start_pattern(patterns.patterns(), pattern, x, y, kind)
            .ok_or_else(|| c.error("64 patterns already run"))?;
    if let Some(source) = c.m.bullets.source_mut(id) {
        source.looping = looping;
    }
    c.ret(id)
}

fn bu_source(c: &mut Call) -> LuaResult<MultiValue> {
    let id = c.int_arg(0)?;
    let position = match (c.opt_num_arg(1)?, c.opt_num_arg(2)?) {
        (Some(x), Some(y)) => Some((fx_from_f64(x), fx_from_f64(y))),
        (None, None) => None,
        _ => return Err(c.error("give both x and y, or neither")),
    };
    let running = match c.m.bullets.source_mut(id) {
        Some(source) => {
            if let Some((x, y)) = position {
                source.x = x;
                source.y = y;
            }
            true
        }
        None => false,
    };
    c.ret(running)
}

fn bu_source_stop(c: &mut Call) -> LuaResult<MultiValue> {
    let id = c.int_arg(0)?;
    c.m.bullets.stop_source(id);
    c.ret(())
}

fn bu_rank(c: &mut Call) -> LuaResult<MultiValue> {
    let rank = c.num_arg(0)?;
    c.m.bullets.set_rank(rank);
    c.ret(())
}

fn bu_atan(c: &mut Call) -> LuaResult<MultiValue> {
    let dx = fx_from_f64(c.num_arg(0)?);
    let dy = fx_from_f64(c.num_arg(1)?);
    c.ret(i64::from(atan(i64::from(dx), i64::from(dy))))
}

fn bu_sin(c: &mut Call) -> LuaResult<MultiValue> {
    let a = c.int_arg(0)?.rem_euclid(256) as u8;
    c.ret((fx_to_f64(angle::sin(a)), fx_to_f64(angle::cos(a))))
}
