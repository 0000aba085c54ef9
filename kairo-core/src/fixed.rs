//! Fixed-point numbers: 16.16 in an `i32` (`Fx`), as the collision and bullet units use for
//! positions and velocities. One pixel is `1 << 16`.

/// A 16.16 fixed-point number.
pub type Fx = i32;

/// Fraction bits of [`Fx`].
pub(crate) const FX_SHIFT: u32 = 16;
/// One pixel (1.0) in [`Fx`].
pub const FX_ONE: Fx = 1 << FX_SHIFT;

/// Whole pixels to [`Fx`], saturating.
pub const fn fx(px: i32) -> Fx {
    px.saturating_mul(FX_ONE)
}

/// The whole pixel an [`Fx`] position lies in (rounds toward negative infinity).
pub(crate) const fn fx_floor(value: Fx) -> i32 {
    value >> FX_SHIFT
}

/// A float (in pixels) to [`Fx`], rounded to nearest, saturating; NaN becomes 0.
pub fn fx_from_f64(px: f64) -> Fx {
    let scaled = (px * f64::from(FX_ONE)).round();
    if scaled.is_nan() {
        0
    } else {
        scaled.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as Fx
    }
}

/// An [`Fx`] as a float in pixels (exact).
pub fn fx_to_f64(value: Fx) -> f64 {
    f64::from(value) / f64::from(FX_ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact_where_they_can_be() {
        assert_eq!(fx(3), 3 << 16);
        assert_eq!(fx_floor(fx(-1) + 1), -1);
        assert_eq!(fx_floor(-1), -1);
        assert_eq!(fx_from_f64(0.5), FX_ONE / 2);
        assert_eq!(fx_from_f64(-2.25), -fx(2) - FX_ONE / 4);
        assert_eq!(
            fx_to_f64(fx_from_f64(123.456_787_109_375)),
            123.456_787_109_375
        );
        assert_eq!(fx_from_f64(f64::NAN), 0);
        assert_eq!(fx_from_f64(1e30), i32::MAX);
    }
}
