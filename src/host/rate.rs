//! Keeping the sound card fed: a linear resampler from the machine's 48 kHz to the device's
//! rate, and a gentle rate control that nudges the resampling ratio (at most +-0.5 %) to hold
//! the output ring buffer half full, whatever the drift between the two clocks. Pure, so the
//! control law is tested with a simulated device.

/// The machine's sample rate.
pub const MACHINE_RATE: f64 = 48_000.0;
/// Largest correction of the resampling ratio.
pub const MAX_ADJUST: f64 = 0.005;

/// A PI controller on the buffer's fill level.
#[derive(Clone, Debug, PartialEq)]
pub struct RateControl {
    /// Fill level aimed at, in frames.
    pub target: f64,
    smoothed: f64,
    integral: f64,
}

impl RateControl {
    pub fn new(target_frames: f64) -> RateControl {
        RateControl {
            target: target_frames,
            smoothed: target_frames,
            integral: 0.0,
        }
    }

    /// The ratio correction for a buffer holding `fill` frames now (called once per vblank):
    /// below 1 when the buffer is too full (produce less), above 1 when it runs low.
    pub(crate) fn adjust(&mut self, fill: f64) -> f64 {
        self.smoothed += (fill - self.smoothed) * 0.1;
        let error = (self.smoothed - self.target) / self.target;
        let proportional = 0.004 * error;
        let correction = proportional + self.integral;
        // Integrate only while the output is not pinned at its limit (anti-windup).
        if correction.abs() < MAX_ADJUST {
            self.integral = (self.integral + 0.00002 * error).clamp(-MAX_ADJUST, MAX_ADJUST);
        }
        1.0 - correction.clamp(-MAX_ADJUST, MAX_ADJUST)
    }
}

/// Linear-interpolation resampler for interleaved stereo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resampler {
    /// Position between the last input frame of the previous block and the next.
    position: f64,
    last: [f32; 2],
}

impl Resampler {
    /// Resamples stereo `input` at 48 kHz by `ratio` output frames per input frame, appending
    /// to `out`.
    pub fn process(&mut self, input: &[f32], ratio: f64, out: &mut Vec<f32>) {
        let frames = input.len() / 2;
        if frames == 0 || ratio <= 0.0 {
            return;
        }
        let step = 1.0 / ratio;
        // Positions are in input frames; -1 stands for the last frame of the previous block.
        while self.position < frames as f64 - 1.0 {
            let i = self.position.floor();
            let t = (self.position - i) as f32;
            let frame = |k: f64| -> [f32; 2] {
                if k < 0.0 {
                    self.last
                } else {
                    let k = k as usize;
                    [input[2 * k], input[2 * k + 1]]
                }
            };
            let (a, b) = (frame(i), frame(i + 1.0));
            out.push(a[0] + (b[0] - a[0]) * t);
            out.push(a[1] + (b[1] - a[1]) * t);
            self.position += step;
        }
        self.position -= frames as f64;
        self.last = [input[2 * frames - 2], input[2 * frames - 1]];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulates `seconds` of a device at `rate` Hz whose clock runs `drift` fast, fed once per
    /// vblank, with the producer stalled during `stall` (start, end seconds). Returns the fill
    /// after each second (in fractions of the target), the underruns and the largest
    /// correction used.
    fn simulate(
        rate: f64,
        drift: f64,
        seconds: usize,
        stall: Option<(f64, f64)>,
    ) -> (Vec<f64>, u32, f64) {
        let capacity = 2.0 * 0.05 * rate;
        let mut control = RateControl::new(capacity / 2.0);
        let mut fill = capacity / 2.0;
        let (mut underruns, mut worst) = (0, 0.0f64);
        let mut per_second = Vec::new();
        for vblank in 0..seconds * 60 {
            let now = vblank as f64 / 60.0;
            let stalled = stall.is_some_and(|(a, b)| now >= a && now < b);
            if !stalled {
                let ratio = control.adjust(fill);
                worst = worst.max((ratio - 1.0).abs());
                fill = (fill + 800.0 * rate / MACHINE_RATE * ratio).min(capacity);
            }
            let wanted = rate / 60.0 * (1.0 + drift);
            if fill < wanted {
                underruns += 1;
                fill = 0.0;
            } else {
                fill -= wanted;
            }
            if vblank % 60 == 59 {
                per_second.push(fill / (capacity / 2.0));
            }
        }
        (per_second, underruns, worst)
    }

    #[test]
    fn the_buffer_settles_half_full_for_any_device_rate_and_drift() {
        for rate in [44_100.0, 48_000.0, 96_000.0] {
            for drift in [-0.003, 0.0, 0.003] {
                let (fill, underruns, worst) = simulate(rate, drift, 120, None);
                assert_eq!(underruns, 0, "{rate} Hz, drift {drift}");
                assert!(worst <= MAX_ADJUST + 1e-12, "gentle: {worst}");
                for (second, level) in fill.iter().enumerate().skip(60) {
                    assert!(
                        (level - 1.0).abs() < 0.15,
                        "{rate} Hz, drift {drift}: {level:.2} of the target at {second} s"
                    );
                }
            }
        }
    }

    #[test]
    fn a_one_second_stall_underruns_then_recovers() {
        let (fill, underruns, _) = simulate(48_000.0, 0.002, 120, Some((20.0, 21.0)));
        assert!(underruns > 0, "the stall empties the buffer");
        assert!(underruns < 70, "but only while it lasts: {underruns}");
        for level in &fill[80..] {
            assert!((level - 1.0).abs() < 0.15, "back near half full: {fill:?}");
        }
    }

    #[test]
    fn resampling_keeps_the_signal_and_the_count() {
        let mut resampler = Resampler::default();
        let input: Vec<f32> = (0..1600).map(|i| (i / 2) as f32).collect();
        let mut out = Vec::new();
        for _ in 0..60 {
            resampler.process(&input, 44_100.0 / 48_000.0, &mut out);
        }
        let frames = out.len() / 2;
        assert!(
            (frames as i64 - 44_100).abs() <= 2,
            "{frames} frames for a second"
        );
        // A ramp stays a ramp: consecutive outputs step by about 48/44.1 within a block.
        let steps: Vec<f32> = out
            .chunks(2)
            .take(500)
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| w[1][0] - w[0][0])
            .collect();
        assert!(
            steps.iter().skip(1).all(|s| (s - 48.0 / 44.1).abs() < 0.01),
            "{:?}",
            &steps[..5]
        );
    }
}
