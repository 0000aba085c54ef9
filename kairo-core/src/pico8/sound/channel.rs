//! One of the 4 channels: a sound effect, or the music's sfx for this channel (which goes on
//! unheard under a sound effect and is heard again when it ends), then the channel's
//! REVERB (an echo fed back after 2 or 4 ticks) and DAMPEN (a high-shelf cut of 6 or 12 dB
//! above 2400 or 1000 Hz).

use super::player::Player;
use super::wave::{CHIP_RATE, Switches, TICK};
use crate::math::{exp2, sine};

/// Samples the echo line holds: 4 ticks.
const ECHO: usize = 4 * TICK as usize;

/// A channel's state.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Channel {
    /// A sound effect started by `sfx`.
    pub effect: Option<Player>,
    /// The music's sfx on this channel.
    pub music: Option<Player>,
    /// What the channel put out, the last 4 ticks (empty until REVERB is first used).
    echo: Vec<f32>,
    echo_at: usize,
    /// The shelf filter's last two inputs and outputs.
    shelf: [f64; 4],
}

impl Channel {
    /// The player heard: the sound effect, else the music.
    pub fn heard(&self) -> Option<&Player> {
        self.effect.as_ref().or(self.music.as_ref())
    }

    /// Whether anything sounds.
    pub fn busy(&self) -> bool {
        self.heard().is_some()
    }

    /// This sample (music scaled by `music_volume`), and one sample on.
    pub fn next(&mut self, ram: &[u8], music_volume: f64) -> f64 {
        let (value, switches) = match (&mut self.effect, &mut self.music) {
            (Some(effect), music) => {
                if let Some(music) = music {
                    music.next(ram, 1.0, false);
                }
                effect.next(ram, 1.0, true)
            }
            (None, Some(music)) => {
                let (value, switches) = music.next(ram, 1.0, true);
                (value * music_volume, switches)
            }
            (None, None) => (0.0, Switches::default()),
        };
        if self.effect.as_ref().is_some_and(|p| p.ended) {
            self.effect = None;
        }
        if self.music.as_ref().is_some_and(|p| p.ended) {
            self.music = None;
        }
        let value = self.reverb(value, switches.reverb);
        let value = self.dampen(value, switches.dampen);
        value.clamp(-0.99, 0.99)
    }

    fn reverb(&mut self, value: f64, level: u8) -> f64 {
        if level == 0 && self.echo.is_empty() {
            return value;
        }
        if self.echo.is_empty() {
            self.echo = vec![0.0; ECHO];
        }
        let delay = if level == 2 { ECHO } else { ECHO / 2 };
        let out = if level == 0 {
            value
        } else {
            value + 0.5 * f64::from(self.echo[(self.echo_at + ECHO - delay) % ECHO])
        };
        self.echo[self.echo_at] = out as f32;
        self.echo_at = (self.echo_at + 1) % ECHO;
        out
    }

    fn dampen(&mut self, value: f64, level: u8) -> f64 {
        if level == 0 {
            self.shelf = [value, self.shelf[0], value, self.shelf[2]];
            return value;
        }
        let [b0, b1, b2, a1, a2] = shelf_coefficients(level);
        let [x1, x2, y1, y2] = self.shelf;
        let y = b0 * value + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        self.shelf = [value, x1, y, y1];
        y
    }
}

/// The high-shelf biquad (the audio EQ cookbook's, Q = 1) of DAMPEN 1 (2400 Hz, -6 dB) or 2
/// (1000 Hz, -12 dB), normalized: b0, b1, b2, a1, a2.
fn shelf_coefficients(level: u8) -> [f64; 5] {
    let (cutoff, gain_db) = if level == 1 {
        (2400.0, -6.0)
    } else {
        (1000.0, -12.0)
    };
    let a = exp2(gain_db / 40.0 * std::f64::consts::LOG2_10);
    let w0 = 2.0 * std::f64::consts::PI * cutoff / f64::from(CHIP_RATE);
    let (sin, cos) = (sine(w0), sine(w0 + std::f64::consts::FRAC_PI_2));
    let alpha = sin / 2.0;
    let root = 2.0 * a.sqrt() * alpha;
    let b0 = a * ((a + 1.0) + (a - 1.0) * cos + root);
    let b1 = -2.0 * a * ((a - 1.0) + (a + 1.0) * cos);
    let b2 = a * ((a + 1.0) + (a - 1.0) * cos - root);
    let a0 = (a + 1.0) - (a - 1.0) * cos + root;
    let a1 = 2.0 * ((a - 1.0) - (a + 1.0) * cos);
    let a2 = (a + 1.0) - (a - 1.0) * cos - root;
    [b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gain of the shelf at `freq`, from its transfer function.
    fn gain(level: u8, freq: f64) -> f64 {
        let [b0, b1, b2, a1, a2] = shelf_coefficients(level);
        let w = 2.0 * std::f64::consts::PI * freq / f64::from(CHIP_RATE);
        let (c1, s1, c2, s2) = (w.cos(), -w.sin(), (2.0 * w).cos(), -(2.0 * w).sin());
        let num = ((b0 + b1 * c1 + b2 * c2).powi(2) + (b1 * s1 + b2 * s2).powi(2)).sqrt();
        let den = ((1.0 + a1 * c1 + a2 * c2).powi(2) + (a1 * s1 + a2 * s2).powi(2)).sqrt();
        20.0 * (num / den).log10()
    }

    #[test]
    fn dampen_keeps_the_bass_and_cuts_the_treble_by_its_level() {
        assert!(gain(1, 50.0).abs() < 0.1);
        assert!((gain(1, 10_000.0) + 6.0).abs() < 0.3);
        assert!(gain(2, 50.0).abs() < 0.2);
        assert!((gain(2, 10_000.0) + 12.0).abs() < 0.3);
        // Half the cut at the corner frequency.
        assert!((gain(2, 1000.0) + 6.0).abs() < 1.0);
    }

    #[test]
    fn reverb_echoes_half_the_output_after_two_or_four_ticks() {
        for (level, delay) in [(1u8, 366usize), (2, 732)] {
            let mut channel = Channel::default();
            let mut out = Vec::new();
            for i in 0..2000 {
                let x = if i == 0 { 0.5 } else { 0.0 };
                out.push(channel.reverb(x, level));
            }
            assert_eq!(out[0], 0.5);
            assert_eq!(out[delay], 0.25);
            assert_eq!(out[2 * delay], 0.125);
            let others: f64 = out
                .iter()
                .enumerate()
                .filter(|(i, _)| i % delay != 0)
                .map(|(_, v)| v.abs())
                .sum();
            assert_eq!(others, 0.0);
        }
    }
}
