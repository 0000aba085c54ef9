//! PICO-8's oscillators: the 8 waveforms as functions of the phase, with the sfx's BUZZ,
//! NOIZ and DETUNE switches, pitches (`key_to_freq`), and the one-pole noise. The shapes and
//! their peaks follow the measurements zepto8 published of PICO-8's WAV exports (see
//! `docs/internals/pico8-sound.md` §3); PICO-8's own formulas are not public.

use crate::math::exp2;

/// PICO-8's synthesis rate.
pub const CHIP_RATE: u32 = 22_050;
/// Samples of one tick: a note lasts `speed` ticks.
pub const TICK: u32 = 183;

/// The filter switches of an sfx (its byte 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    pub noiz: bool,
    pub buzz: bool,
    /// 0-2.
    pub detune: u8,
    /// 0-2: an echo after 2 or 4 ticks.
    pub reverb: u8,
    /// 0-2: a low pass in two strengths.
    pub dampen: u8,
}

impl Switches {
    /// Decodes byte 64: `editor + 2 noiz + 4 buzz + 8 detune + 24 reverb + 72 dampen`.
    pub fn from_byte(b: u8) -> Switches {
        Switches {
            noiz: b & 2 != 0,
            buzz: b & 4 != 0,
            detune: (b / 8) % 3,
            reverb: (b / 24) % 3,
            dampen: (b / 72) % 3,
        }
    }

    /// Both sets on: what a note played through an sfx instrument gets.
    pub fn union(self, other: Switches) -> Switches {
        Switches {
            noiz: self.noiz || other.noiz,
            buzz: self.buzz || other.buzz,
            detune: self.detune.max(other.detune),
            reverb: self.reverb.max(other.reverb),
            dampen: self.dampen.max(other.dampen),
        }
    }
}

/// The frequency of key `key` (0-63, fractions allowed): 440 Hz at key 33 (A2), 12 keys an
/// octave.
pub fn key_to_freq(key: f64) -> f64 {
    440.0 * exp2((key - 33.0) / 12.0)
}

/// The frequency of key 24 (C2): an sfx instrument plays its notes transposed by the ratio
/// of the triggering note's frequency to it.
pub fn c2() -> f64 {
    key_to_freq(24.0)
}

/// The value of waveform `wave` (0-5 and 7; 6 is noise, see [`Noise`]) at phase `phase`
/// (in cycles), with BUZZ. The second argument of the phaser is its detuned partner's phase.
pub fn shape(wave: u8, phase: f64, buzz: bool) -> f64 {
    let t = phase - phase.floor();
    let triangle = |t: f64| 1.0 - (4.0 * t - 2.0).abs();
    let tilted = |t: f64, a: f64| {
        if t < a {
            2.0 * t / a - 1.0
        } else {
            1.0 - 2.0 * (t - a) / (1.0 - a)
        }
    };
    let pulse = |t: f64, duty: f64| if t < duty { 0.25 } else { -0.25 };
    match (wave, buzz) {
        (0, false) => 0.5 * triangle(t),
        (0, true) => 0.5 * (0.75 * triangle(t) + 0.25 * tilted(t, 0.875)),
        (1, false) => 0.5 * tilted(t, 0.875),
        (1, true) => 0.5 * tilted(t, 0.975),
        (2, false) => 0.653 * if t < 0.5 { t } else { t - 1.0 },
        (2, true) => {
            // A two-cycle period whose second half sits a little lower.
            let half = (phase * 0.5 - (phase * 0.5).floor()) >= 0.5;
            0.83 * 0.653 * if t < 0.5 { t } else { t - 1.0 } - if half { 0.085 } else { 0.0 }
        }
        (3, false) => pulse(t, 0.5),
        (3, true) => pulse(t, 0.4),
        (4, false) => pulse(t, 0.316),
        (4, true) => pulse(t, 0.255),
        (5, buzz) => {
            let v = if t < 0.5 {
                let first = 3.0 - (24.0 * t - 6.0).abs();
                // BUZZ clips the first bump.
                if buzz { first.min(1.0) } else { first }
            } else {
                1.0 - (16.0 * t - 12.0).abs()
            };
            v / 9.0
        }
        (7, buzz) => {
            let u = phase * 109.0 / 110.0;
            let u = u - u.floor();
            let mut v = (2.0 - (8.0 * t - 4.0).abs()) + triangle(u);
            if buzz {
                let t2 = 2.0 * t - (2.0 * t).floor();
                v += 0.5 * triangle(t2);
            }
            v / 6.0
        }
        _ => 0.0,
    }
}

/// The frequency ratio of DETUNE's second voice, for waveform `wave` at `level` 1 or 2.
pub fn detune_ratio(wave: u8, level: u8) -> f64 {
    match (wave, level) {
        (0, 1) => 0.75,
        (0, _) => 1.5,
        (7, 1) => 49.0 / 50.0,
        (7, _) => 400.0 / 199.0,
        (5, 2) => 800.0 / 199.0,
        (_, 1) => 200.0 / 199.0,
        _ => 400.0 / 199.0,
    }
}

/// Waveform 6's state: a random walk low-passed at a cutoff that follows the pitch, from a
/// xorshift generator (deterministic).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Noise {
    last: f64,
    seed: u32,
}

impl Default for Noise {
    fn default() -> Self {
        Noise {
            last: 0.0,
            seed: 0x2545_F491,
        }
    }
}

impl Noise {
    /// A uniform value in [-1, 1).
    fn white(&mut self) -> f64 {
        let mut x = self.seed;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.seed = x;
        f64::from(x) / 2_147_483_648.0 - 1.0
    }

    /// The next noise sample for a note of frequency `freq` and key `key`: white with NOIZ;
    /// otherwise a one-pole low pass of white noise whose cutoff rises with the pitch (the
    /// pole at `s = freq / f(63)`), louder for low keys; brown (an integrating walk) with
    /// BUZZ and no NOIZ.
    pub fn next(&mut self, freq: f64, key: f64, switches: Switches) -> f64 {
        let r = self.white();
        if switches.noiz {
            return 0.5 * r;
        }
        if switches.buzz {
            self.last = (0.98 * self.last + 0.1 * r).clamp(-1.0, 1.0);
            return self.last;
        }
        let s = freq / key_to_freq(63.0);
        self.last = (self.last + s * r) / (1.0 + s);
        let k = 1.0 - key / 63.0;
        self.last * 1.5 * (1.0 + k * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_byte_decodes_as_the_forum_lists_it() {
        // 0x0F: noiz + buzz + detune 1; 0x47: reverb 2; 0xD7: dampen 2 + detune 2.
        let s = Switches::from_byte(0x0F);
        assert_eq!(
            (s.noiz, s.buzz, s.detune, s.reverb, s.dampen),
            (true, true, 1, 0, 0)
        );
        assert_eq!(Switches::from_byte(0x47).reverb, 2);
        let s = Switches::from_byte(0xD7);
        assert_eq!((s.detune, s.dampen), (2, 2));
    }

    #[test]
    fn keys_are_equal_tempered_from_a2_at_440() {
        assert!((key_to_freq(33.0) - 440.0).abs() < 1e-9);
        assert!((key_to_freq(45.0) - 880.0).abs() < 1e-9);
        assert!((c2() - 261.625_565).abs() < 1e-5);
        assert!((key_to_freq(0.0) - 65.406_391).abs() < 1e-5);
    }

    #[test]
    fn every_waveform_stays_in_its_measured_peak() {
        for wave in [0u8, 1, 2, 3, 4, 5, 7] {
            for buzz in [false, true] {
                let peak = (0..1000)
                    .map(|i| shape(wave, f64::from(i) / 100.0, buzz).abs())
                    .fold(0.0, f64::max);
                assert!(peak > 0.1 && peak <= 0.6, "wave {wave} buzz {buzz}: {peak}");
            }
        }
    }
}
