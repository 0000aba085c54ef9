//! PICO-8's system functions on a `[pico8]` cart: `stat`, `cstore`, and `rnd`/`srand` on
//! PICO-8's own generator. (`flip` is the
//! layer's frame driver, in `pico8_prelude.lua`.) Everything `stat` answers is the machine's:
//! nothing is read from the host, so movies, replays and netplay see the same answers.

use mlua::MultiValue;

use super::pico8::{address, length, opt_int, opt_num, p8, range};
use crate::meter::Unit;
use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiFn, ApiGroup, Call, Cost, LuaResult};
use crate::spec::{FRAME_BUDGET, FRAME_RATE, cost};

/// What `stat(5)` reports: the cart format version of PICO-8 0.2.6, whose manual the layer
/// follows.
pub const PICO8_VERSION: i64 = 42;

/// The date and time `stat(80)`-`stat(85)` (UTC) and `stat(90)`-`stat(95)` (local, the same)
/// read: 2000-01-01 00:00:00 at power-on, then the machine's own time (`time()`), so every
/// run of a cart sees the same clock.
pub const CLOCK_START: (i64, i64, i64) = (2000, 1, 1);

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "PICO-8: system",
    intro: "On a `[pico8]` cart only. `flip()` shows the screen and waits for the next PICO-8 \
            frame, for carts that loop on their own (it is Lua, in the layer's frame driver).",
    functions: &[
        ApiFn {
            name: "stat",
            args: &[Arg::new("n", Kind::Integer)],
            returns: "value",
            doc: "The machine's state: 0 Lua memory in KiB; 1 cycles used so far this frame, as \
                  a fraction of the budget; 2 the part of them not charged to the script; 4 the \
                  clipboard (\"\"); 5 the PICO-8 version (42); 6 the parameter string (\"\"); 7, \
                  8, 9 the frame rate (30, or 60 with `_update60`); 16-26 and 46-57 sound \
                  (nothing plays: -1, or 0 and false); 30-39 keyboard and mouse (devkit mode \
                  is off: false, \"\", 0); 80-85 and 90-95 the date and time, UTC and local \
                  alike: 2000-01-01 00:00:00 at power-on, then counted in machine time. Any \
                  other `n` is an error.",
            cost: &[],
            call: stat,
        },
        ApiFn {
            name: "rnd",
            args: &[Arg::new("x", Kind::Value("number (default 1) or table")).optional("1")],
            returns: "value",
            doc: "A random number from 0 up to (not including) `x`, from PICO-8's generator                   (its state at 0x5f44-0x5f4b, seeded at power-on from the cart's `seed`);                   for a table, one of its items (nil when it is empty).",
            cost: &[],
            call: rnd,
        },
        ApiFn {
            name: "srand",
            args: &[Arg::new("x", Kind::Integer).or_int(0)],
            returns: "",
            doc: "Seeds PICO-8's generator with `x`: the same seed gives the same numbers as                   PICO-8's.",
            cost: &[],
            call: srand,
        },
        ApiFn {
            name: "cstore",
            args: &[
                Arg::new("dest", Kind::Integer).or_int(0),
                Arg::new("src", Kind::Integer).or_int(0),
                Arg::new("len", Kind::Integer).or_int(0x4300),
                Arg::new("filename", Kind::Str).optional("this cart"),
            ],
            returns: "",
            doc: "Copies `len` bytes of PICO-8's memory from `src` into the cart's data at \
                  `dest` (0x0000-0x42ff), where `reload` reads it. In memory only: the cart's \
                  files are never written (PICO-8 writes its .p8). A `filename` is an error.",
            cost: &[Cost::each(cost::DRAW_SPAN, "per 8 bytes", Unit::Video)],
            call: cstore,
        },
    ],
    constants: &[],
};

fn stat(c: &mut Call) -> LuaResult<MultiValue> {
    let Some(n) = opt_int(c, 0) else {
        return Err(c.error("give the number of what to read, e.g. stat(1)"));
    };
    let fraction = |cycles: u64| cycles as f64 / FRAME_BUDGET as f64;
    match n {
        0 => c.ret(c.lua.used_memory() as f64 / 1024.0),
        1 => {
            let total = c.context(|ctx| ctx.meter.total())?;
            c.ret(fraction(total))
        }
        2 => {
            let cycles = c.context(|ctx| ctx.meter.cycles())?;
            c.ret(fraction(cycles.total() - cycles.get(Unit::Script)))
        }
        4 | 6 => c.ret(""),
        5 => c.ret(PICO8_VERSION),
        7..=9 => {
            let sixty = matches!(
                c.lua.globals().get::<mlua::Value>("_update60"),
                Ok(mlua::Value::Function(_))
            );
            c.ret(if sixty { 60 } else { 30 })
        }
        16..=26 | 46..=57 => sound_stat(c, n),
        30 => c.ret(false),
        31 => c.ret(""),
        32..=39 => c.ret(0),
        80..=85 | 90..=95 => {
            let seconds = c.m.frame as i64 / FRAME_RATE as i64;
            c.ret(clock(seconds)[(n % 10) as usize])
        }
        _ => Err(c.error(format!(
            "stat({n}) is not in Kairo's PICO-8 layer (it has 0-2, 4-9, 16-26, 30-39, 46-57, \
             80-85 and 90-95)"
        ))),
    }
}

/// The sound stats, from the PICO-8 sound chip: the sfx and note each channel plays (16-23,
/// 46-53; -1 for none), the music's pattern (24, 54; -1), patterns played and ticks into the
/// pattern (25, 26, 55, 56), whether music plays (57).
fn sound_stat(c: &mut Call, n: i64) -> LuaResult<MultiValue> {
    let value = p8(c)?.sound_stat(n).unwrap_or(-1.0);
    match n {
        57 => c.ret(value != 0.0),
        _ => c.ret(value as i64),
    }
}

/// Year, month, day, hour, minute, second of the machine's clock `seconds` after
/// [`CLOCK_START`].
pub fn clock(seconds: i64) -> [i64; 6] {
    let (year, month, day) = CLOCK_START;
    let days = days_from_civil(year, month, day) + seconds.div_euclid(86_400);
    let second_of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    [
        year,
        month,
        day,
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60,
    ]
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn cstore(c: &mut Call) -> LuaResult<MultiValue> {
    if !c.is_nil(3) {
        return Err(c.error(
            "writing another cart's data (a filename) is not in Kairo's PICO-8 layer: a cart \
             never writes files",
        ));
    }
    let (dest, src) = (address(c, 0)?, address(c, 1)?);
    let len = if c.is_nil(2) {
        crate::pico8::ROM_BYTES as i64
    } else {
        length(c, 2)
    };
    let to = range(c, dest, len)?;
    let from = range(c, src, len)?;
    if to.end > crate::pico8::ROM_BYTES {
        return Err(c.error(format!(
            "cstore writes the cart's data, 0x0000-0x42ff; 0x{:x}..0x{:x} is past it",
            to.start, to.end
        )));
    }
    c.charge(Unit::Video, (to.len() as u64).div_ceil(8) * cost::DRAW_SPAN)?;
    let pico8 = p8(c)?;
    let bytes = pico8.ram[from].to_vec();
    pico8.rom[to].copy_from_slice(&bytes);
    c.ret(())
}

/// The 32 bits PICO-8 holds for `x`: times 65536, truncated toward zero, wrapped.
fn fixed_bits(x: f64) -> u32 {
    if x.is_nan() {
        return 0;
    }
    (x * 65536.0)
        .trunc()
        .clamp(i64::MIN as f64, i64::MAX as f64) as i64 as u32
}

fn rnd(c: &mut Call) -> LuaResult<MultiValue> {
    if let mlua::Value::Table(table) = c.value(0) {
        let n = table.raw_len();
        if n == 0 {
            return c.ret(mlua::Value::Nil);
        }
        let bits = p8(c)?.rnd_bits(fixed_bits(n as f64));
        let item: mlua::Value = table.raw_get(bits as i64 / 65536 + 1)?;
        return c.ret(item);
    }
    let x = opt_num(c, 0).unwrap_or(1.0);
    let bits = p8(c)?.rnd_bits(fixed_bits(x));
    c.ret(f64::from(bits) / 65536.0)
}

fn srand(c: &mut Call) -> LuaResult<MultiValue> {
    let x = opt_num(c, 0).unwrap_or(0.0);
    p8(c)?.srand_bits(fixed_bits(x));
    c.ret(())
}

#[cfg(test)]
mod tests {
    use super::clock;

    #[test]
    fn the_clock_starts_in_2000_and_counts_machine_time() {
        assert_eq!(clock(0), [2000, 1, 1, 0, 0, 0]);
        assert_eq!(clock(3661), [2000, 1, 1, 1, 1, 1]);
        // 2000 is a leap year: day 60 is 29 February; a year of 366 days later, 2001.
        assert_eq!(clock(59 * 86_400), [2000, 2, 29, 0, 0, 0]);
        assert_eq!(clock(366 * 86_400 - 1), [2000, 12, 31, 23, 59, 59]);
        assert_eq!(clock(366 * 86_400), [2001, 1, 1, 0, 0, 0]);
    }
}
