//! Angles and their tables: a turn is 256 steps (`u8`: 0 right, 64 down, 128 left, 192 up;
//! y grows downward), as in seed 004. `SIN`/`COS` give 16.16 values for the 256 steps; a
//! finer 65536-step angle (`u16`, the top byte is the `u8` angle) serves BulletML, whose
//! directions are real numbers; `atan` turns an offset into the angle toward it.
//!
//! BulletML headings are real numbers of degrees; [`unit_vector`] and [`aim_degrees`] serve
//! them from the same tables with linear interpolation, precise to about 1e-8 (so a bullet
//! drifts less than a thousandth of a pixel from its true path over a screen's width).
//!
//! The tables are computed once at start-up with only IEEE additions, multiplications and
//! divisions (a Taylor series), so they are the same on every machine and compiler.

use std::sync::OnceLock;

use crate::fixed::Fx;
use crate::math::sine;

/// Entries of the fine sine table (a quarter turn has 4096).
const FINE: usize = 16384;

struct Tables {
    /// sin of fine angle i * 65536 / FINE, in 2.30 fixed point.
    fine_sin: Vec<i32>,
    /// 16.16 sin of each u8 angle.
    sin: [Fx; 256],
    /// atan(i / ATAN_STEPS) for i in 0..=ATAN_STEPS, in fine units (0..=8192: an eighth turn).
    atan: Vec<u16>,
    /// The same in turns (0..=0.125), unrounded.
    atan_turns: Vec<f64>,
}

const ATAN_STEPS: usize = 4096;
const PI: f64 = std::f64::consts::PI;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let fine_sin = symmetric(FINE, |i| {
            (sine(i as f64 * 2.0 * PI / FINE as f64) * f64::from(1 << 30)).round() as i32
        });
        let coarse = symmetric(256, |i| {
            (sine(i as f64 * 2.0 * PI / 256.0) * 65536.0).round() as Fx
        });
        let mut sin = [0; 256];
        sin.copy_from_slice(&coarse);
        let atan_turns: Vec<f64> = (0..=ATAN_STEPS)
            .map(|i| arctan(i as f64 / ATAN_STEPS as f64) / (2.0 * PI))
            .collect();
        let atan = atan_turns
            .iter()
            .map(|t| (t * 65536.0).round() as u16)
            .collect();
        Tables {
            fine_sin,
            sin,
            atan,
            atan_turns,
        }
    })
}

/// A full sine table of `n` entries built from its first quarter, so that it is exactly
/// symmetric: sin(half - i) = sin(i) and sin(half + i) = -sin(i).
fn symmetric(n: usize, quarter: impl Fn(usize) -> i32) -> Vec<i32> {
    let q: Vec<i32> = (0..=n / 4).map(quarter).collect();
    (0..n)
        .map(|i| match i {
            i if i <= n / 4 => q[i],
            i if i <= n / 2 => q[n / 2 - i],
            i if i <= 3 * n / 4 => -q[i - n / 2],
            i => -q[n - i],
        })
        .collect()
}

/// arctan(t) for t in [0, 1], by the series of arctan after halving the argument twice.
fn arctan(t: f64) -> f64 {
    // atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))); sqrt is exact in IEEE.
    let halve = |t: f64| t / (1.0 + (1.0 + t * t).sqrt());
    let u = halve(halve(t));
    let (mut term, mut sum, u2) = (u, u, u * u);
    for n in 1..30 {
        term *= -u2;
        sum += term / f64::from(2 * n + 1);
    }
    4.0 * sum
}

/// 16.16 sine of a `u8` angle.
#[inline]
pub(crate) fn sin(angle: u8) -> Fx {
    tables().sin[usize::from(angle)]
}

/// 16.16 cosine of a `u8` angle.
#[inline]
pub(crate) fn cos(angle: u8) -> Fx {
    tables().sin[usize::from(angle.wrapping_add(64))]
}

/// The velocity of `speed` (16.16) toward fine angle `angle` (65536 per turn).
pub fn velocity(angle: u16, speed: Fx) -> (Fx, Fx) {
    let t = tables();
    let index = |a: u16| usize::from(a) * FINE / 65536;
    let s = t.fine_sin[index(angle)];
    let c = t.fine_sin[index(angle.wrapping_add(16384))];
    // Rounded half away from zero, so that mirrored angles give exactly mirrored velocities.
    let scale = |v: i32| {
        let p = i64::from(v) * i64::from(speed);
        ((p + p.signum() * (1 << 29)) / (1 << 30)) as Fx
    };
    (scale(c), scale(s))
}

/// The fine angle (65536 per turn) from the origin toward (dx, dy); 0 for (0, 0).
pub(crate) fn atan_fine(dx: i64, dy: i64) -> u16 {
    if dx == 0 && dy == 0 {
        return 0;
    }
    let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
    // The first octant: the smaller over the larger, looked up and rounded.
    let (small, large) = if ay <= ax { (ay, ax) } else { (ax, ay) };
    let index = ((u128::from(small) * ATAN_STEPS as u128 * 2 + u128::from(large))
        / (2 * u128::from(large))) as usize;
    let octant = u32::from(tables().atan[index]);
    let in_quadrant = if ay <= ax { octant } else { 16384 - octant };
    let angle = match (dx >= 0, dy >= 0) {
        (true, true) => in_quadrant,
        (false, true) => 32768 - in_quadrant,
        (false, false) => 32768 + in_quadrant,
        (true, false) => 65536 - in_quadrant,
    };
    (angle % 65536) as u16
}

/// Linear interpolation in `table` at `position` (in entries, `0 <= position <= len - 1`;
/// `wrap` makes the entry after the last the first).
fn interpolate(table: impl Fn(usize) -> f64, position: f64, len: usize, wrap: bool) -> f64 {
    let last = if wrap { len - 1 } else { len - 2 };
    let i = (position.floor() as usize).min(last);
    let next = if wrap { (i + 1) % len } else { i + 1 };
    let (a, b) = (table(i), table(next));
    a + (b - a) * (position - i as f64)
}

/// sin of `turns` (a whole turn is 1), from the fine table with linear interpolation.
fn sin_turns(turns: f64) -> f64 {
    let t = tables();
    let fraction = turns - turns.floor();
    let s = interpolate(
        |i| f64::from(t.fine_sin[i]),
        fraction * FINE as f64,
        FINE,
        true,
    );
    s / f64::from(1 << 30)
}

/// The unit vector (x right, y down) of BulletML direction `degrees` (0 up, clockwise).
pub(crate) fn unit_vector(degrees: f64) -> (f64, f64) {
    // BulletML's 0 (up) is a quarter turn before our 0 (right).
    let turns = (degrees - 90.0) / 360.0;
    (sin_turns(turns + 0.25), sin_turns(turns))
}

/// The BulletML direction (degrees in [0, 360), 0 up, clockwise) from the origin toward
/// (dx, dy); 90 (right, as [`atan_fine`]) for (0, 0).
pub(crate) fn aim_degrees(dx: i64, dy: i64) -> f64 {
    if dx == 0 && dy == 0 {
        return 90.0;
    }
    let (ax, ay) = (dx.unsigned_abs() as f64, dy.unsigned_abs() as f64);
    let (small, large) = if ay <= ax { (ay, ax) } else { (ax, ay) };
    let t = tables();
    let octant = interpolate(
        |i| t.atan_turns[i],
        small / large * ATAN_STEPS as f64,
        ATAN_STEPS + 1,
        false,
    );
    let in_quadrant = if ay <= ax { octant } else { 0.25 - octant };
    let turns = match (dx >= 0, dy >= 0) {
        (true, true) => in_quadrant,
        (false, true) => 0.5 - in_quadrant,
        (false, false) => 0.5 + in_quadrant,
        (true, false) => 1.0 - in_quadrant,
    };
    let degrees = turns * 360.0 + 90.0;
    if degrees >= 360.0 {
        degrees - 360.0
    } else {
        degrees
    }
}

/// The `u8` angle toward (dx, dy), rounded to the nearest step.
pub(crate) fn atan(dx: i64, dy: i64) -> u8 {
    (u32::from(atan_fine(dx, dy)).wrapping_add(128) >> 8) as u8
}

/// Degrees (BulletML: 0 up, clockwise) to a fine angle (0 right, clockwise on screen).
pub(crate) fn fine_from_degrees(degrees: f64) -> u16 {
    let turns = (degrees - 90.0) / 360.0;
    let fraction = turns - (turns - turns.rem_euclid(1.0));
    ((fraction * 65536.0).round() as i64).rem_euclid(65536) as u16
}

#[cfg(test)]
/// A fine angle as BulletML degrees (0 up, clockwise), in [0, 360).
pub(crate) fn degrees_from_fine(angle: u16) -> f64 {
    (f64::from(angle) * 360.0 / 65536.0 + 90.0).rem_euclid(360.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_and_cos_tables_match_f64_within_one_unit() {
        for a in 0..=255u8 {
            let radians = f64::from(a) * 2.0 * PI / 256.0;
            assert!(
                (f64::from(sin(a)) - radians.sin() * 65536.0).abs() <= 1.0,
                "sin {a}"
            );
            assert!(
                (f64::from(cos(a)) - radians.cos() * 65536.0).abs() <= 1.0,
                "cos {a}"
            );
        }
        assert_eq!((sin(0), sin(64), sin(128), sin(192)), (0, 65536, 0, -65536));
        assert_eq!((cos(0), cos(64)), (65536, 0));
    }

    #[test]
    fn fine_velocities_match_f64() {
        for a in (0..65536).step_by(97) {
            let radians = a as f64 * 2.0 * PI / 65536.0;
            let (vx, vy) = velocity(a as u16, 3 << 16);
            // Table step error: the fine table has 16384 entries.
            let tolerance = 3.0 * 65536.0 * (2.0 * PI / 16384.0) + 2.0;
            assert!(
                (f64::from(vx) - radians.cos() * 3.0 * 65536.0).abs() <= tolerance,
                "vx {a}"
            );
            assert!(
                (f64::from(vy) - radians.sin() * 3.0 * 65536.0).abs() <= tolerance,
                "vy {a}"
            );
        }
    }

    /// Angle difference in steps, wrapped to [-128, 128).
    fn diff(a: f64, b: f64) -> f64 {
        (a - b + 128.0).rem_euclid(256.0) - 128.0
    }

    #[test]
    fn atan_is_within_half_a_step_plus_table_error_everywhere() {
        let mut worst: f64 = 0.0;
        for dy in -300i64..=300 {
            for dx in -300i64..=300 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let exact = (dy as f64).atan2(dx as f64) * 256.0 / (2.0 * PI);
                let fine = f64::from(atan_fine(dx, dy)) / 256.0;
                worst = worst.max(diff(fine, exact).abs());
                assert!(
                    diff(f64::from(atan(dx, dy)), exact).abs() <= 0.51,
                    "({dx}, {dy})"
                );
            }
        }
        assert!(worst < 0.02, "fine atan error {worst} steps");
        // Far offsets need no clamping.
        assert_eq!(atan(1_000_000, 1_000_000), 32);
        assert_eq!(atan(-5, 0), 128);
        assert_eq!(atan(0, -5), 192);
    }

    #[test]
    fn interpolated_unit_vectors_and_aim_are_precise() {
        let mut worst: f64 = 0.0;
        for i in 0..20_000 {
            let degrees = f64::from(i) * 0.0187 - 30.0;
            let radians = (degrees - 90.0).to_radians();
            let (x, y) = unit_vector(degrees);
            worst = worst.max((x - radians.cos()).abs().max((y - radians.sin()).abs()));
        }
        assert!(worst < 3e-8, "unit vector error {worst}");
        assert_eq!(unit_vector(90.0), (1.0, 0.0));
        assert_eq!(unit_vector(180.0), (0.0, 1.0));
        let mut worst: f64 = 0.0;
        for dy in (-70_000i64..=70_000).step_by(977) {
            for dx in (-70_000i64..=70_000).step_by(1013) {
                let exact = (dx as f64)
                    .atan2(-(dy as f64))
                    .to_degrees()
                    .rem_euclid(360.0);
                let got = aim_degrees(dx, dy);
                assert!((0.0..360.0).contains(&got), "({dx}, {dy}): {got}");
                let error = (got - exact + 180.0).rem_euclid(360.0) - 180.0;
                worst = worst.max(error.abs());
            }
        }
        assert!(worst < 1e-6, "aim error {worst} degrees");
        assert_eq!(aim_degrees(0, 5), 180.0);
        assert_eq!(aim_degrees(-5, 0), 270.0);
    }

    #[test]
    fn degrees_convert_both_ways() {
        assert_eq!(fine_from_degrees(90.0), 0, "BulletML 90 (right) is our 0");
        assert_eq!(fine_from_degrees(180.0), 16384, "down");
        assert_eq!(fine_from_degrees(0.0), 49152, "up");
        assert_eq!(fine_from_degrees(-90.0), 32768, "left");
        assert!((degrees_from_fine(fine_from_degrees(33.0)) - 33.0).abs() < 0.01);
    }
}
