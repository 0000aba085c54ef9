//! One sound effect playing: it walks the sfx's 32 notes in PICO-8's memory (re-read every
//! sample, so `poke`s are heard), at `speed` ticks of 183 samples a note, with its loop or
//! length, and turns each note into a sample: the key's frequency and the volume after the
//! note's effect (slide, vibrato, drop, fade in, fade out, fast and slow arpeggio), through
//! its waveform, DETUNE's second voice, or an sfx instrument (another [`Player`], transposed
//! from C2) or a waveform instrument.

use super::wave::{CHIP_RATE, Noise, Switches, TICK, c2, detune_ratio, key_to_freq, shape};

/// Sound effects at 0x3200, 68 bytes each.
pub const SFX: usize = 0x3200;
pub const SFX_BYTES: usize = 68;
/// Notes of a sound effect.
pub const NOTES: u32 = 32;

/// One note as memory holds it (a 16-bit word).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Note {
    pub key: u8,
    pub wave: u8,
    pub volume: u8,
    pub effect: u8,
    /// The waveform number is sfx instrument 0-7.
    pub custom: bool,
}

/// Note `i` of sfx `sfx` (silent past note 31).
pub fn note(ram: &[u8], sfx: u8, i: u32) -> Note {
    if i >= NOTES {
        return Note::default();
    }
    let at = SFX + usize::from(sfx) * SFX_BYTES + i as usize * 2;
    let word = u16::from_le_bytes([ram[at], ram[at + 1]]);
    Note {
        key: (word & 0x3F) as u8,
        wave: (word >> 6 & 7) as u8,
        volume: (word >> 9 & 7) as u8,
        effect: (word >> 12 & 7) as u8,
        custom: word & 0x8000 != 0,
    }
}

/// An sfx's bytes 64-67.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub switches: Switches,
    /// Ticks a note (0 plays as 1).
    pub speed: u32,
    pub loop_start: u32,
    pub loop_end: u32,
    /// Sfx 0-7 with bit 7 of byte 66: its 64 note bytes are one cycle of a waveform.
    pub wavetable: bool,
    /// Byte 65's bit 0 on a waveform instrument: an octave down.
    pub bass: bool,
}

impl Header {
    pub fn read(ram: &[u8], sfx: u8) -> Header {
        let at = SFX + usize::from(sfx) * SFX_BYTES + 64;
        let wavetable = sfx < 8 && ram[at + 2] & 0x80 != 0;
        Header {
            switches: Switches::from_byte(ram[at]),
            speed: u32::from(ram[at + 1]).max(1),
            loop_start: u32::from(if wavetable {
                ram[at + 2] & 0x7F
            } else {
                ram[at + 2]
            }),
            loop_end: u32::from(ram[at + 3]),
            wavetable,
            bass: wavetable && ram[at + 1] & 1 != 0,
        }
    }

    /// Samples a note lasts.
    pub fn note_samples(&self) -> u32 {
        TICK * self.speed
    }

    /// Whether the loop is on: its end after its start.
    pub fn loops(&self) -> bool {
        self.loop_end > self.loop_start
    }

    /// Notes played when not looping: 32, or the start field alone ("LEN") when the end is 0.
    pub fn length(&self) -> u32 {
        if self.loop_end == 0 && self.loop_start > 0 {
            self.loop_start.min(NOTES)
        } else {
            NOTES
        }
    }
}

/// The frequency ratio of a semitone.
fn semitone() -> f64 {
    key_to_freq(34.0) / key_to_freq(33.0)
}

/// A sound effect playing (on a channel, or as an instrument inside a note).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub sfx: u8,
    /// The note playing, and the samples played of it.
    pub note: u32,
    sample: u32,
    /// Notes still to play when `sfx` was given a length.
    notes_left: Option<u32>,
    /// The loop is kept (false after `sfx(-2)`).
    pub looping: bool,
    /// Samples since the start (vibrato and arpeggios run on it).
    pub elapsed: u64,
    /// The note before: where a slide starts (key 24, silent, at the start).
    prev_freq: f64,
    prev_volume: f64,
    phase: f64,
    noise: Noise,
    /// Played inside a note: its own notes cannot be instruments.
    nested: bool,
    /// Past its last note.
    pub ended: bool,
    /// The sfx instrument the current note plays through.
    instrument: Option<Box<Player>>,
}

impl Player {
    /// Sfx `sfx` from note `offset`, for `length` notes (0: to its end).
    pub fn new(sfx: u8, offset: u32, length: u32) -> Player {
        Player {
            sfx,
            note: offset.min(NOTES),
            sample: 0,
            notes_left: (length > 0).then_some(length),
            looping: true,
            elapsed: 0,
            prev_freq: c2(),
            prev_volume: 0.0,
            phase: 0.0,
            noise: Noise::default(),
            nested: false,
            ended: false,
            instrument: None,
        }
    }

    /// This sample's value (volume included) and the switches it was made with, then one
    /// sample on. `scale` multiplies every frequency (an instrument's transposition);
    /// unheard, only the position moves.
    pub fn next(&mut self, ram: &[u8], scale: f64, heard: bool) -> (f64, Switches) {
        if self.ended {
            return (0.0, Switches::default());
        }
        let header = Header::read(ram, self.sfx);
        let now = note(ram, self.sfx, self.note);
        let mut out = (0.0, header.switches);
        if heard && now.volume > 0 {
            out = self.sound(ram, &header, now, scale);
        }
        self.step(ram, &header, now);
        out
    }

    /// The note's frequency and volume (0-1) at this sample, after its effect.
    fn pitch_and_volume(&self, ram: &[u8], header: &Header, now: Note) -> (f64, f64, f64) {
        let p = f64::from(self.sample) / f64::from(header.note_samples());
        let mut key = f64::from(now.key);
        let mut freq = key_to_freq(key);
        let mut volume = f64::from(now.volume) / 7.0;
        match now.effect {
            1 => {
                freq = self.prev_freq + (freq - self.prev_freq) * p;
                if self.prev_volume > 0.0 {
                    volume = self.prev_volume + (volume - self.prev_volume) * p;
                }
            }
            2 => {
                // A 7.5 Hz triangle, a quarter of a semitone each way.
                let t = self.elapsed as f64 / f64::from(CHIP_RATE) * 7.5;
                let lfo = (t - t.floor() - 0.5).abs() - 0.25;
                freq *= 1.0 + (semitone() - 1.0) * lfo;
            }
            // On an instrument's note, effect 3 retriggers it on every note instead.
            3 if !now.custom || self.nested => freq *= 1.0 - p,
            4 => volume *= p,
            5 => volume *= 1.0 - p,
            6 | 7 => {
                // The aligned group of 4 notes, one every 4 (fast) or 8 (slow) ticks, twice as
                // fast at speeds up to 8.
                let ticks = match (now.effect, header.speed <= 8) {
                    (6, true) => 2,
                    (6, false) | (7, true) => 4,
                    _ => 8,
                };
                let step = (self.elapsed / u64::from(TICK * ticks) % 4) as u32;
                key = f64::from(note(ram, self.sfx, (self.note & !3) | step).key);
                freq = key_to_freq(key);
            }
            _ => {}
        }
        (freq, volume, key)
    }

    fn sound(&mut self, ram: &[u8], header: &Header, now: Note, scale: f64) -> (f64, Switches) {
        let (freq, volume, key) = self.pitch_and_volume(ram, header, now);
        let freq = freq * scale;
        if now.custom && !self.nested {
            let instrument_header = Header::read(ram, now.wave);
            if instrument_header.wavetable {
                let rate = if instrument_header.bass { 0.5 } else { 1.0 };
                self.phase += freq * rate / f64::from(CHIP_RATE);
                let t = self.phase - self.phase.floor();
                let at = SFX + usize::from(now.wave) * SFX_BYTES + (t * 64.0) as usize % 64;
                let value = f64::from(ram[at] as i8) / 128.0 * 0.5;
                return (
                    value * volume,
                    header.switches.union(instrument_header.switches),
                );
            }
            let instrument = self.instrument.get_or_insert_with(|| {
                let mut player = Player::new(now.wave, 0, 0);
                player.nested = true;
                Box::new(player)
            });
            let (value, switches) = instrument.next(ram, freq / c2(), true);
            return (value * volume, header.switches.union(switches));
        }
        let switches = header.switches;
        self.phase += freq / f64::from(CHIP_RATE);
        let value = if now.wave == 6 {
            self.noise.next(freq, key, switches)
        } else {
            let mut value = shape(now.wave, self.phase, switches.buzz);
            if switches.detune > 0 {
                let second = if now.wave == 5 && switches.detune == 2 {
                    0
                } else {
                    now.wave
                };
                let ratio = detune_ratio(now.wave, switches.detune);
                value += 0.5 * shape(second, self.phase * ratio, switches.buzz);
            }
            value
        };
        (value * volume, switches)
    }

    /// One sample on: to the next note at the note's end, round the loop, or to the end.
    fn step(&mut self, ram: &[u8], header: &Header, was: Note) {
        self.elapsed += 1;
        self.sample += 1;
        if self.sample < header.note_samples() {
            return;
        }
        self.sample = 0;
        self.prev_freq = key_to_freq(f64::from(was.key));
        self.prev_volume = f64::from(was.volume) / 7.0;
        self.note += 1;
        if let Some(left) = &mut self.notes_left {
            *left -= 1;
            if *left == 0 {
                self.stop();
                return;
            }
        }
        let mut looped = false;
        if header.loops() && (self.looping || self.nested) {
            if self.note == header.loop_end {
                self.note = header.loop_start;
                looped = true;
            }
        } else if self.note >= header.length() {
            self.stop();
            return;
        }
        // The instrument goes on through notes of the same instrument and key that follow a
        // sounding one; anything else (or effect 3, or the sfx looping) starts it again.
        let next = note(ram, self.sfx, self.note);
        let kept = !looped
            && was.custom
            && next.custom
            && was.wave == next.wave
            && was.key == next.key
            && was.volume > 0
            && next.effect != 3
            && self.instrument.as_ref().is_some_and(|i| !i.ended);
        if !kept {
            self.instrument = None;
        }
    }

    /// Ends the sound effect.
    pub fn stop(&mut self) {
        self.ended = true;
        self.instrument = None;
    }
}
