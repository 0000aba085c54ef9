//! PICO-8's sound chip, as Kairo hardware for `[pico8]` carts: 4 channels that play the sound
//! effects and music patterns in PICO-8's memory (0x3100-0x42ff) at 22,050 Hz, one tick 183
//! samples, with PICO-8's 8 waveforms, 8 effects, sfx and waveform instruments and the
//! NOIZ, BUZZ, DETUNE, REVERB and DAMPEN switches; mixed into the audio unit's 48 kHz output
//! each vblank (resampled linearly). Pure arithmetic on f64 (deterministic bits): states,
//! rewind and netplay keep it. See `docs/hardware.md` ("The PICO-8 sound chip").

pub mod channel;
pub mod file;
pub mod music;
pub mod player;
pub mod wave;

use channel::Channel;
use music::{Music, Pattern};
use player::{Header, Player};
use wave::{CHIP_RATE, TICK};

use crate::spec::{FRAMES_PER_VBLANK, SAMPLE_RATE, cost};

/// Channels.
pub const CHANNELS: usize = 4;
/// The chip's share of the mix: four loud channels reach full scale.
const MASTER: f64 = 0.5;

/// The chip's state (part of the machine's: saved in states).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SoundChip {
    channels: [Channel; CHANNELS],
    music: Option<Music>,
    /// Output frames (48 kHz) mixed so far, chip samples made, and the last two made: the
    /// output is read between them.
    frames: u64,
    made: u64,
    before: f64,
    after: f64,
}

impl SoundChip {
    /// `sfx(n, channel, offset, length)`: `n` -1 stops (`channel`, or every sound effect),
    /// -2 lets loops run out; `channel` -1 picks one, -2 stops `n` everywhere. Other `n`
    /// (past 63) play nothing, as on PICO-8.
    pub fn sfx(&mut self, ram: &[u8], n: i32, channel: i32, offset: i32, length: i32) {
        let chosen = usize::try_from(channel).ok().filter(|&c| c < CHANNELS);
        match n {
            -1 => {
                for (c, ch) in self.channels.iter_mut().enumerate() {
                    if chosen.is_none_or(|chosen| chosen == c) {
                        ch.effect = None;
                    }
                }
            }
            -2 => {
                for (c, ch) in self.channels.iter_mut().enumerate() {
                    if let Some(effect) = &mut ch.effect
                        && chosen.is_none_or(|chosen| chosen == c)
                    {
                        effect.looping = false;
                    }
                }
            }
            0..=63 => {
                let n = n as u8;
                if channel == -2 {
                    for ch in &mut self.channels {
                        if ch.effect.as_ref().is_some_and(|e| e.sfx == n) {
                            ch.effect = None;
                        }
                    }
                    return;
                }
                let c = chosen.unwrap_or_else(|| self.free_channel(ram, n));
                for (other, ch) in self.channels.iter_mut().enumerate() {
                    if other != c && ch.effect.as_ref().is_some_and(|e| e.sfx == n) {
                        ch.effect = None;
                    }
                }
                let offset = offset.clamp(0, 31) as u32;
                self.channels[c].effect = Some(Player::new(n, offset, length.max(0) as u32));
            }
            _ => {}
        }
    }

    /// The channel a sound effect without one takes: outside the music's mask, the first
    /// silent one or the one already playing `n`; else the first playing only music; else the
    /// one whose sound effect is fastest (the later on a tie).
    fn free_channel(&self, ram: &[u8], n: u8) -> usize {
        let mask = self.music.as_ref().map_or(0, |m| m.mask);
        let open: Vec<usize> = (0..CHANNELS).filter(|c| mask & 1 << c == 0).collect();
        let open = if open.is_empty() {
            (0..CHANNELS).collect()
        } else {
            open
        };
        let ch = |c: usize| &self.channels[c];
        open.iter()
            .copied()
            .find(|&c| !ch(c).busy() || ch(c).effect.as_ref().is_some_and(|e| e.sfx == n))
            .or_else(|| open.iter().copied().find(|&c| ch(c).effect.is_none()))
            .or_else(|| {
                open.iter().copied().min_by_key(|&c| {
                    let speed = ch(c)
                        .effect
                        .as_ref()
                        .map_or(0, |e| Header::read(ram, e.sfx).speed);
                    (speed, std::cmp::Reverse(c))
                })
            })
            .unwrap_or(0)
    }

    /// `music(n, fade_ms, mask)`: plays from pattern `n` (fading in over `fade_ms`), keeping
    /// the `mask` channels from sound effects without a channel; `n` -1 stops (fading out).
    pub fn music(&mut self, ram: &[u8], n: i32, fade_ms: i32, mask: i32) {
        let fade = if fade_ms > 0 {
            1000.0 / (f64::from(fade_ms) * f64::from(CHIP_RATE))
        } else {
            0.0
        };
        if !(0..64).contains(&n) {
            match &mut self.music {
                Some(music) if fade > 0.0 => music.fade = -fade,
                _ => self.stop_music(),
            }
            return;
        }
        self.music = Some(Music {
            pattern: n as u8,
            at: 0,
            length: 0,
            played: 0,
            mask: (mask & 15) as u8,
            volume: if fade > 0.0 { 0.0 } else { 1.0 },
            fade,
        });
        self.start_pattern(ram, n as u8);
    }

    fn stop_music(&mut self) {
        self.music = None;
        for ch in &mut self.channels {
            ch.music = None;
        }
    }

    /// Starts pattern `n` on the channels it uses; stops the music when it uses none.
    fn start_pattern(&mut self, ram: &[u8], n: u8) {
        let pattern = Pattern::read(ram, n);
        let (Some(length), Some(music)) = (pattern.samples(ram), &mut self.music) else {
            self.stop_music();
            return;
        };
        music.pattern = n;
        music.at = 0;
        music.length = length;
        music.played += 1;
        for (c, ch) in self.channels.iter_mut().enumerate() {
            ch.music = pattern.sfx(c).map(|sfx| Player::new(sfx, 0, 0));
        }
    }

    /// One chip sample (22,050 Hz) of the mix.
    fn sample(&mut self, ram: &[u8]) -> f64 {
        let volume = self.music.as_ref().map_or(1.0, |m| m.volume);
        let mut sum = 0.0;
        for ch in &mut self.channels {
            sum += ch.next(ram, volume);
        }
        if let Some(music) = &mut self.music {
            music.volume = (music.volume + music.fade).clamp(0.0, 1.0);
            if music.fade > 0.0 && music.volume >= 1.0 {
                music.fade = 0.0;
            }
            music.at += 1;
            if music.fade < 0.0 && music.volume <= 0.0 {
                self.stop_music();
            } else if music.at >= music.length {
                let (pattern, now) = (Pattern::read(ram, music.pattern), music.pattern);
                match pattern.next(ram, now) {
                    Some(next) => self.start_pattern(ram, next),
                    None => self.stop_music(),
                }
            }
        }
        sum * MASTER
    }

    /// `n` chip samples, for measurements.
    pub fn chip_samples(&mut self, ram: &[u8], n: usize) -> Vec<f64> {
        (0..n).map(|_| self.sample(ram)).collect()
    }

    /// One vblank: 800 stereo frames at 48 kHz added into `out` (or, with no `out`, the same
    /// work without a sample written). Returns its cycles: each busy channel.
    pub fn render_vblank(&mut self, ram: &[u8], mut out: Option<&mut [f32]>) -> u64 {
        let busy = self.channels.iter().filter(|c| c.busy()).count() as u64;
        let (chip, output) = (u64::from(CHIP_RATE), u64::from(SAMPLE_RATE));
        for frame in 0..FRAMES_PER_VBLANK {
            // Output frame k is at chip sample k * 22050 / 48000.
            let at = self.frames * chip;
            let (index, rest) = (at / output, at % output);
            while self.made < index + 1 {
                self.before = self.after;
                self.after = self.sample(ram);
                self.made += 1;
            }
            // `after` is chip sample `index` now, `before` the one before it: read between
            // sample `index` and the next by holding one sample back.
            let t = rest as f64 / output as f64;
            let value = self.before + (self.after - self.before) * t;
            self.frames += 1;
            if let Some(out) = out.as_deref_mut() {
                out[frame * 2] += value as f32;
                out[frame * 2 + 1] += value as f32;
            }
        }
        busy * cost::PICO8_SOUND_CHANNEL
    }

    /// `stat(n)` of the sound: 16-19 and 46-49 the sfx each channel plays (-1: none), 20-23
    /// and 50-53 its note, 24 and 54 the music's pattern (-1), 25 and 55 patterns played,
    /// 26 and 56 ticks into the pattern, 57 whether music plays (1 or 0). `None` for other `n`.
    pub fn stat(&self, n: i64) -> Option<f64> {
        let channel = |c: i64| self.channels[c as usize].heard();
        let music = self.music.as_ref();
        Some(match n {
            16..=19 | 46..=49 => channel(n % 30 % 16).map_or(-1.0, |p| f64::from(p.sfx)),
            20..=23 | 50..=53 => channel((n - 20) % 30).map_or(-1.0, |p| f64::from(p.note)),
            24 | 54 => music.map_or(-1.0, |m| f64::from(m.pattern)),
            25 | 55 => music.map_or(0.0, |m| f64::from(m.played)),
            26 | 56 => music.map_or(0.0, |m| (m.at / u64::from(TICK)) as f64),
            57 => f64::from(u8::from(music.is_some())),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests;
