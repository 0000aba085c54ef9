//! PICO-8's music: 64 patterns at 0x3100, 4 bytes each, one per channel: the sfx (low 6
//! bits), bit 6 the channel off, and bit 7 the pattern's flags (byte 0 loop start, byte 1
//! loop back, byte 2 stop). A pattern lasts as long as its left-most non-looping sfx (or its
//! longest looping one), then the flags choose the next.

use super::player::{Header, NOTES};

/// Music patterns at 0x3100.
pub const MUSIC: usize = 0x3100;
/// Patterns.
pub const PATTERNS: u8 = 64;

/// A pattern's 4 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern(pub [u8; 4]);

impl Pattern {
    pub fn read(ram: &[u8], n: u8) -> Pattern {
        let at = MUSIC + usize::from(n % PATTERNS) * 4;
        Pattern([ram[at], ram[at + 1], ram[at + 2], ram[at + 3]])
    }

    /// The sfx channel `c` plays, if it is on.
    pub fn sfx(&self, c: usize) -> Option<u8> {
        (self.0[c] & 0x40 == 0).then_some(self.0[c] & 0x3F)
    }

    pub fn loop_start(&self) -> bool {
        self.0[0] & 0x80 != 0
    }

    pub fn loop_back(&self) -> bool {
        self.0[1] & 0x80 != 0
    }

    pub fn stop(&self) -> bool {
        self.0[2] & 0x80 != 0
    }

    /// Samples the pattern lasts, or `None` when every channel is off.
    pub fn samples(&self, ram: &[u8]) -> Option<u64> {
        let headers: Vec<Header> = (0..4)
            .filter_map(|c| self.sfx(c))
            .map(|sfx| Header::read(ram, sfx))
            .collect();
        let length = |h: &Header| u64::from(h.length()) * u64::from(h.note_samples());
        headers.iter().find(|h| !h.loops()).map(length).or_else(|| {
            headers
                .iter()
                .map(|h| u64::from(NOTES) * u64::from(h.note_samples()))
                .max()
        })
    }

    /// The pattern after `n` (this one): `None` to stop.
    pub fn next(&self, ram: &[u8], n: u8) -> Option<u8> {
        if self.stop() {
            return None;
        }
        if self.loop_back() {
            return Some(
                (0..=n)
                    .rev()
                    .find(|&p| Pattern::read(ram, p).loop_start())
                    .unwrap_or(0),
            );
        }
        (n + 1 < PATTERNS).then_some(n + 1)
    }
}

/// The music playing.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Music {
    pub pattern: u8,
    /// Samples played of the pattern, and its length.
    pub at: u64,
    pub length: u64,
    /// Patterns started since `music` was called.
    pub played: u32,
    /// Channels kept for the music: sound effects without a channel avoid them.
    pub mask: u8,
    /// The music's volume (0-1) and how it moves per sample; a fade out stops the music at 0.
    pub volume: f64,
    pub fade: f64,
}
