//! Deterministic math for the units: functions built from IEEE additions, multiplications,
//! divisions and square roots only, so every machine and compiler computes the same bits
//! (the platform's `sin`, `exp` and `powf` may differ in the last place). Bullet tables and
//! audio pitches use them; replays and golden hashes depend on it.

use std::f64::consts::PI;

/// sin(x) from a Taylor series after reduction to [-pi/4, pi/4] (basic IEEE operations only).
pub(crate) fn sine(x: f64) -> f64 {
    let turns = x / (2.0 * PI);
    let mut r = x - (turns - turns.rem_euclid(1.0)) * 2.0 * PI; // [0, 2pi)
    let mut sign = 1.0;
    if r >= PI {
        r -= PI;
        sign = -1.0;
    }
    if r > PI / 2.0 {
        r = PI - r;
    }
    // r in [0, pi/2]: use cos of the complement above pi/4.
    if r > PI / 4.0 {
        return sign * taylor_cos(PI / 2.0 - r);
    }
    sign * taylor_sin(r)
}

fn taylor_sin(x: f64) -> f64 {
    let (mut term, mut sum, x2) = (x, x, x * x);
    for n in 1..12 {
        term *= -x2 / f64::from((2 * n) * (2 * n + 1));
        sum += term;
    }
    sum
}

fn taylor_cos(x: f64) -> f64 {
    let (mut term, mut sum, x2) = (1.0, 1.0, x * x);
    for n in 1..12 {
        term *= -x2 / f64::from((2 * n - 1) * (2 * n));
        sum += term;
    }
    sum
}

/// 2^x, from the exact power of two of x's integer part and a Taylor series of e^(f ln 2)
/// for its fraction.
pub(crate) fn exp2(x: f64) -> f64 {
    if !x.is_finite() {
        return if x > 0.0 { f64::INFINITY } else { 0.0 };
    }
    let whole = x.floor().clamp(-1000.0, 1000.0);
    let fraction = x - whole;
    // ln 2 to full precision.
    let y = fraction * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for n in 1..25 {
        term *= y / f64::from(n);
        sum += term;
    }
    let mut power = 1.0;
    let (base, count) = if whole >= 0.0 {
        (2.0, whole as i32)
    } else {
        (0.5, -whole as i32)
    };
    for _ in 0..count {
        power *= base;
    }
    sum * power
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_and_exp2_match_the_platform_closely() {
        for i in -1000..1000 {
            let x = f64::from(i) * 0.0123;
            assert!((sine(x) - x.sin()).abs() < 1e-14, "sin {x}");
            assert!(
                (exp2(x / 100.0) / (x / 100.0).exp2() - 1.0).abs() < 1e-14,
                "exp2 {x}"
            );
        }
        assert_eq!(exp2(0.0), 1.0);
        assert_eq!(exp2(3.0), 8.0);
        assert_eq!(exp2(-1.0), 0.5);
        assert!((exp2(1.0 / 12.0) - 1.059_463_094_359_295_3).abs() < 1e-15);
    }
}
