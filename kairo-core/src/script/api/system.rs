//! Cart API: the machine itself — logging, frame counter and machine time, cycle budget, random
//! numbers.

use mlua::{Function, LuaString, MultiValue, Value};

use crate::script::context::escape_line;
use crate::script::sandbox::TOSTRING;

use crate::meter::Unit;
use crate::script::args::{Arg, Default, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::{FRAME_BUDGET, FRAME_RATE, cost};

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "System",
    intro: "The machine itself: host log, frame counter and machine time, the cycle budget \
            and the machine's deterministic random numbers (`math.random` uses the same generator).",
    functions: &[
        ApiFn {
            name: "log",
            args: &[Arg::new("...", Kind::Value("any values")).optional("an empty line")],
            returns: "",
            doc: "Writes its arguments, converted like `tostring` and separated by spaces, as one \
                  line on the host's standard output (also in headless runs).",
            cost: &[
                Cost::call(cost::LOG_LINE, Unit::Script),
                Cost::each(cost::LOG_BYTES, "per 8 bytes kept", Unit::Script),
            ],
            call: log,
        },
        ApiFn {
            name: "frame",
            args: &[],
            returns: "n",
            doc: "Machine frames run since power-on (0 during `init`). A frame that slows down \
                  still counts once.",
            cost: &[],
            call: frame,
        },
        ApiFn {
            name: "time",
            args: &[],
            returns: "seconds",
            doc: "Seconds of machine time since power-on: `frame() / 60` as a float (0 during \
                  `init`), like PICO-8's `time()`. It is counted in machine frames, not read \
                  from the host's clock, so it is the same on every run and replay, and it runs \
                  slow when frames slow down.",
            cost: &[],
            call: time,
        },
        ApiFn {
            name: "cycles",
            args: &[],
            returns: "n",
            doc: "Cycles this frame has used so far, all units together.",
            cost: &[],
            call: cycles,
        },
        ApiFn {
            name: "budget",
            args: &[],
            returns: "n",
            doc: "Cycles a frame may use before it takes a second vblank (100000).",
            cost: &[],
            call: budget,
        },
        ApiFn {
            name: "rnd",
            args: &[Arg::num("n").or(Default::Num(1.0))],
            returns: "x",
            doc: "A random float in [0, n).",
            cost: &[],
            call: rnd,
        },
        ApiFn {
            name: "rndi",
            args: &[Arg::new("lo", Kind::Integer), Arg::new("hi", Kind::Integer)],
            returns: "n",
            doc: "A random integer in lo..hi, both included.",
            cost: &[],
            call: rndi,
        },
        ApiFn {
            name: "srand",
            args: &[Arg::new("seed", Kind::Integer)],
            returns: "",
            doc: "Restarts the machine's random numbers from `seed` (an integer).",
            cost: &[],
            call: srand,
        },
        ApiFn {
            name: "math.random",
            args: &[
                Arg::new("m", Kind::Any("integer")).optional("a float in [0, 1)"),
                Arg::new("n", Kind::Any("integer")).optional("1..m"),
            ],
            returns: "x",
            doc: "Lua's `math.random` with its argument rules, on the machine's generator: a \
                  float in [0, 1), an integer in 1..m, or one in m..n.",
            cost: &[],
            call: math_random,
        },
        ApiFn {
            name: "math.randomseed",
            args: &[Arg::new("x", Kind::Integer).or_int(0)],
            returns: "",
            doc: "Restarts the machine's random numbers from integer `x`, like `srand`.",
            cost: &[],
            call: math_randomseed,
        },
    ],
    constants: &[],
};

fn log(c: &mut Call) -> LuaResult<MultiValue> {
    // Numbers as Rust writes them (`48`, `0.5`); anything else through Lua's own `tostring`
    // (a `__tostring` runs as metered Lua code), read in place: only what the line keeps is
    // copied.
    let tostring: Function = c.lua.named_registry_value(TOSTRING)?;
    let mut pieces = Vec::with_capacity(c.arg_count());
    for value in c.values().iter() {
        let piece = match value {
            Value::Integer(n) => c.lua.create_string(n.to_string())?,
            Value::Number(n) => c.lua.create_string(n.to_string())?,
            other => tostring.call::<LuaString>(other)?,
        };
        pieces.push(piece);
    }
    let bytes: Vec<_> = pieces.iter().map(|p| p.as_bytes()).collect();
    // A line keeps at most LOG_LINE_BYTES bytes, and each byte read adds at least one: the
    // rest of a long value is never looked at.
    let line = escape_line(
        bytes
            .iter()
            .map(|b| &b[..b.len().min(crate::spec::LOG_LINE_BYTES + 4)]),
    );
    c.charge(
        Unit::Script,
        cost::LOG_LINE + line.len().div_ceil(8) as u64 * cost::LOG_BYTES,
    )?;
    c.context(|ctx| ctx.log.push(line))?;
    c.ret(())
}

fn frame(c: &mut Call) -> LuaResult<MultiValue> {
    c.ret(c.m.frame as i64)
}

fn time(c: &mut Call) -> LuaResult<MultiValue> {
    c.ret(c.m.frame as f64 / FRAME_RATE as f64)
}

fn cycles(c: &mut Call) -> LuaResult<MultiValue> {
    // The call itself charged the library work counted before it.
    let total = c.context(|ctx| ctx.meter.total())?;
    c.ret(total as i64)
}

fn budget(c: &mut Call) -> LuaResult<MultiValue> {
    c.ret(FRAME_BUDGET as i64)
}

fn rnd(c: &mut Call) -> LuaResult<MultiValue> {
    let n = c.num_arg(0)?;
    let x = c.m.rng.next_f64() * n;
    c.ret(x)
}

fn rndi(c: &mut Call) -> LuaResult<MultiValue> {
    let (lo, hi) = (c.int_arg(0)?, c.int_arg(1)?);
    if lo > hi {
        return Err(c.error(format!("empty range {lo}..{hi}")));
    }
    let n = c.m.rng.range_inclusive(lo, hi);
    c.ret(n)
}

fn srand(c: &mut Call) -> LuaResult<MultiValue> {
    let seed = c.int_arg(0)?;
    c.m.rng.reseed(seed as u64);
    c.ret(())
}

/// `math.random` on the machine RNG, with Lua 5.4's argument rules.
fn math_random(c: &mut Call) -> LuaResult<MultiValue> {
    match c.arg_count() {
        0 => {
            let x = c.m.rng.next_f64();
            c.ret(x)
        }
        1 if c.exact_int(0, "m")? == 0 => {
            let n = c.m.rng.next_u64() as i64;
            c.ret(n)
        }
        1 | 2 => {
            let (lo, hi) = if c.arg_count() == 1 {
                (1, c.exact_int(0, "m")?)
            } else {
                (c.exact_int(0, "m")?, c.exact_int(1, "n")?)
            };
            if lo > hi {
                return Err(c.error("interval is empty"));
            }
            let n = c.m.rng.range_inclusive(lo, hi);
            c.ret(n)
        }
        _ => Err(c.error("wrong number of arguments")),
    }
}

/// `math.randomseed` on the machine RNG.
fn math_randomseed(c: &mut Call) -> LuaResult<MultiValue> {
    let seed = c.int_arg(0)?;
    c.m.rng.reseed(seed as u64);
    c.ret(())
}
