//! The PICO-8 layer: what a cart with a `[pico8]` table in `cart.toml` runs on. It keeps
//! PICO-8's 64 KiB of memory as PICO-8 lays it out — sprites at 0x0000, the map's shared
//! half at 0x1000 and its own at 0x2000, sprite flags at 0x3000, music at 0x3100, sound
//! effects at 0x3200, general use at 0x4300, persistent data at 0x5e00, the draw state at
//! 0x5f00, the screen at 0x6000 (128 x 128, 4 bits per pixel, the left pixel in the low
//! nibble), the upper 32 KiB at 0x8000 — draws into that screen ([`draw`]), and shows it on the cart's canvas at 2x
//! through the screen palette, in PICO-8's colours (palette 0 the 16 standard colours,
//! palette 1 the 16 extra ones, 128-143).

pub mod charset;
pub mod draw;
pub mod oval;
pub mod sound;
pub mod text;

use crate::spec::{PALETTE_COLORS, SCREEN_W};
use crate::video::canvas::Canvas;
use crate::video::framebuffer::Pixels;

/// PICO-8's functions the layer does not have: calling one stops the cart with an error
/// naming it, and `kairo import` and `kairo check` list where the code uses them.
pub const MISSING: &[&str] = &[
    "tline",
    "reset",
    "extcmd",
    "serial",
    "holdframe",
    "stop",
    "run",
    "reboot",
    "load",
];

/// Pause-menu items a cart can add (`menuitem` 1-5).
pub const MENU_ITEMS: usize = 5;

/// PICO-8's memory size: the base 32 KiB and the upper 32 KiB (0x8000-0xffff) of 0.2.4.
pub const RAM_BYTES: usize = 0x10000;
/// The cart's data (sprites, map, flags, music, sfx): what `reload` copies back.
pub const ROM_BYTES: usize = 0x4300;
/// The screen, and its side.
pub const SCREEN: usize = 0x6000;
pub const SIDE: usize = 128;
/// The draw state.
pub const DRAW_PALETTE: usize = 0x5F00;
pub const SCREEN_PALETTE: usize = 0x5F10;
/// The secondary palette (`pal(c0, c1, 2)`).
pub const SECONDARY_PALETTE: usize = 0x5F60;
pub const CLIP: usize = 0x5F20;
pub const PEN: usize = 0x5F25;
pub const CURSOR: usize = 0x5F26;
pub const CAMERA: usize = 0x5F28;
pub const FILL_PATTERN: usize = 0x5F31;
/// The random number generator's state, two 32-bit words.
pub const RNG: usize = 0x5F44;
/// btnp's repeat delay and period (frames at 30 fps).
pub const BTNP_DELAY: usize = 0x5F5C;
/// Sprite flags.
pub const FLAGS: usize = 0x3000;
/// The map: rows 0-31 at 0x2000, rows 32-63 at 0x1000 (shared with sprites 128-255).
pub const MAP: usize = 0x2000;
pub const MAP_SHARED: usize = 0x1000;

/// PICO-8's 16 colours, RGB.
pub const COLORS: [u32; 16] = [
    0x000000, 0x1D2B53, 0x7E2553, 0x008751, 0xAB5236, 0x5F574F, 0xC2C3C7, 0xFFF1E8, 0xFF004D,
    0xFFA300, 0xFFEC27, 0x00E436, 0x29ADFF, 0x83769C, 0xFF77A8, 0xFFCCAA,
];

/// PICO-8's 16 extra colours (128-143), RGB.
pub const EXTRA_COLORS: [u32; 16] = [
    0x291814, 0x111D35, 0x422136, 0x125359, 0x742F29, 0x49333B, 0xA28879, 0xF3EF7D, 0xBE1250,
    0xFF6C24, 0xA8E72E, 0x00B543, 0x065AB5, 0x754665, 0xFF6E59, 0xFF9D81,
];

/// The cart's data as PICO-8 memory 0x0000-0x42ff, read at load (`cart::pico8`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rom {
    pub bytes: Box<[u8; ROM_BYTES]>,
}

/// PICO-8's memory while the cart runs (part of the machine's state).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pico8 {
    #[serde(with = "crate::serde_array::boxed")]
    pub(crate) ram: Box<[u8; RAM_BYTES]>,
    /// The cart's data as `reload` reads it: the cart's own at power-on, changed by
    /// `cstore` (in memory only: the cart's files are never written).
    #[serde(with = "crate::serde_array::boxed")]
    pub(crate) rom: Box<[u8; ROM_BYTES]>,
    /// Machine frames the cart's `_update` (30 fps) has skipped or run, for its cadence.
    pub(crate) ticks: u64,
    /// PICO-8 frames each of buttons 0-5 of players 0-3 has been held, this one included.
    pub(crate) held: [[u16; 6]; 4],
    /// The sound chip playing the sfx and music in this memory.
    pub(crate) sound: sound::SoundChip,
    /// The labels of the cart's pause-menu items 1-5 (`menuitem`); their callbacks are in
    /// the Lua state.
    pub(crate) menu: [Option<String>; MENU_ITEMS],
    /// An item chosen since the last PICO-8 frame, its callback still to call.
    pub(crate) menu_pending: Option<u8>,
    /// The cart runs `_update60` (btnp's repeat counts 60 fps frames).
    pub(crate) sixty_fps: bool,
    /// What `print` left out: the low byte not told yet, the high byte told (bits of
    /// `text::NOTE_*`).
    pub(crate) print_notes: u16,
}

impl Pico8 {
    /// Memory as PICO-8 powers on with `rom`: the cart's data, the draw state reset.
    pub fn new(rom: &Rom) -> Pico8 {
        let mut ram = Box::new([0u8; RAM_BYTES]);
        ram[..ROM_BYTES].copy_from_slice(&rom.bytes[..]);
        let mut pico8 = Pico8 {
            ram,
            rom: rom.bytes.clone(),
            ticks: 0,
            held: [[0; 6]; 4],
            sound: sound::SoundChip::default(),
            menu: Default::default(),
            menu_pending: None,
            sixty_fps: false,
            print_notes: 0,
        };
        pico8.reset_draw_state();
        pico8
    }

    /// The draw state as at power-on: palettes as themselves (colour 0 transparent for
    /// sprites), the whole screen clipped in, pen 6, camera and cursor at 0, no fill pattern.
    pub fn reset_draw_state(&mut self) {
        for c in 0..16u8 {
            self.ram[DRAW_PALETTE + usize::from(c)] = c | if c == 0 { 0x10 } else { 0 };
            self.ram[SCREEN_PALETTE + usize::from(c)] = c;
        }
        self.ram[CLIP..CLIP + 4].copy_from_slice(&[0, 0, 128, 128]);
        self.ram[PEN] = 6;
        self.ram[CURSOR..CURSOR + 2].fill(0);
        self.ram[CAMERA..CAMERA + 4].fill(0);
        self.ram[FILL_PATTERN..FILL_PATTERN + 3].fill(0);
    }

    /// One vblank of the sound chip added into `out` (800 stereo frames), or moved on
    /// without a sample; its cycles.
    pub fn render_sound(&mut self, out: Option<&mut [f32]>) -> u64 {
        self.sound.render_vblank(&self.ram[..], out)
    }

    /// `sfx(n, channel, offset, length)` (see [`sound::SoundChip::sfx`]).
    pub fn sfx(&mut self, n: i32, channel: i32, offset: i32, length: i32) {
        self.sound.sfx(&self.ram[..], n, channel, offset, length);
    }

    /// `music(n, fade_ms, mask)` (see [`sound::SoundChip::music`]).
    pub fn music(&mut self, n: i32, fade_ms: i32, mask: i32) {
        self.sound.music(&self.ram[..], n, fade_ms, mask);
    }

    /// The sound's `stat(n)`, `None` for an `n` that is not the sound's.
    pub fn sound_stat(&self, n: i64) -> Option<f64> {
        self.sound.stat(n)
    }

    /// The cart's pause-menu items: number (1-5) and label.
    pub fn menu_items(&self) -> Vec<(u8, String)> {
        (1..=MENU_ITEMS as u8)
            .zip(&self.menu)
            .filter_map(|(i, label)| Some((i, label.clone()?)))
            .collect()
    }

    /// Keeps the pause-menu item a player chose in `input` (the first player's first) for
    /// the next PICO-8 frame; an item the cart does not have is ignored.
    pub(crate) fn note_menu_choice(&mut self, input: &crate::input::InputFrame) {
        let chosen = input
            .0
            .iter()
            .filter_map(|&word| crate::input::menu_choice(word))
            .find(|&item| self.menu[usize::from(item) - 1].is_some());
        if chosen.is_some() {
            self.menu_pending = chosen;
        }
    }

    /// The PRNG's two words at 0x5f44 (the output) and 0x5f48.
    fn rng_words(&self) -> (u32, u32) {
        let word = |at: usize| u32::from_le_bytes(self.ram[at..at + 4].try_into().expect("4"));
        (word(RNG), word(RNG + 4))
    }

    /// One step of PICO-8's generator: `hi = rotl(hi, 16) + lo; lo += hi`.
    fn rng_step(&mut self) -> u32 {
        let (hi, lo) = self.rng_words();
        let hi = hi.rotate_left(16).wrapping_add(lo);
        let lo = lo.wrapping_add(hi);
        self.ram[RNG..RNG + 4].copy_from_slice(&hi.to_le_bytes());
        self.ram[RNG + 4..RNG + 8].copy_from_slice(&lo.to_le_bytes());
        hi
    }

    /// `rnd(x)` on the 32 bits of `x` (16.16): a step, then the output word modulo those
    /// bits, as 16.16 bits; 0 without a step for 0.
    pub fn rnd_bits(&mut self, x: u32) -> i32 {
        if x == 0 {
            return 0;
        }
        (self.rng_step() % x) as i32
    }

    /// `srand(x)` on the 32 bits of `x`: the seed without its top bit (0 is 0xdeadbeef), the
    /// output word that xor 0xbead29ba, then 32 steps.
    pub fn srand_bits(&mut self, x: u32) {
        let lo = match x & 0x7FFF_FFFF {
            0 => 0xDEAD_BEEF,
            seed => seed,
        };
        let hi = lo ^ 0xBEAD_29BA;
        self.ram[RNG..RNG + 4].copy_from_slice(&hi.to_le_bytes());
        self.ram[RNG + 4..RNG + 8].copy_from_slice(&lo.to_le_bytes());
        for _ in 0..32 {
            self.rng_step();
        }
    }

    /// A byte of memory.
    pub fn peek(&self, address: usize) -> u8 {
        self.ram[address % RAM_BYTES]
    }

    /// Writes a byte of memory.
    pub fn poke(&mut self, address: usize, value: u8) {
        self.ram[address % RAM_BYTES] = value;
    }

    /// Screen pixel (x, y), 0-15.
    pub fn screen_pixel(&self, x: usize, y: usize) -> u8 {
        let byte = self.ram[SCREEN + y * 64 + x / 2];
        if x.is_multiple_of(2) {
            byte & 15
        } else {
            byte >> 4
        }
    }

    /// Shows the screen on `canvas` at 2x through the screen palette: colour `c` as palette
    /// index `c` (palette 0), the extra colours 128-143 as palette 1.
    pub fn present(&self, canvas: &mut Canvas) {
        let shown: [u8; 16] = std::array::from_fn(|c| {
            let entry = self.ram[SCREEN_PALETTE + c];
            let extra = entry & 0x80 != 0;
            (entry & 15) + if extra { PALETTE_COLORS as u8 } else { 0 }
        });
        debug_assert_eq!(SIDE * 2, SCREEN_W);
        for y in 0..SIDE {
            for x in 0..SIDE {
                let index = shown[usize::from(self.screen_pixel(x, y))];
                canvas.fill_span(y * 2, x * 2, x * 2 + 1, index);
                canvas.fill_span(y * 2 + 1, x * 2, x * 2 + 1, index);
            }
        }
    }

    /// Counts the buttons held at the start of a PICO-8 frame (`input`'s buttons 0-5 are
    /// PICO-8's: left, right, up, down, O, X).
    pub(crate) fn latch_buttons(&mut self, input: &crate::input::InputLatch) {
        for (player, counts) in self.held.iter_mut().enumerate() {
            for (b, count) in counts.iter_mut().enumerate() {
                let down = input.current.0[player] & (1 << b) != 0;
                *count = if down { count.saturating_add(1) } else { 0 };
            }
        }
    }

    /// Whether button `b` of `player` is held this PICO-8 frame.
    pub fn btn(&self, player: usize, b: usize) -> bool {
        self.held[player % 4][b % 6] > 0
    }

    /// Whether button `b` of `player` went down this PICO-8 frame, or repeats: 15 frames
    /// after, then every 4.
    pub fn btnp(&self, player: usize, b: usize) -> bool {
        let held = u32::from(self.held[player % 4][b % 6]);
        // The repeat in frames at 30 fps (0x5f5c delay, 0x5f5d period; 0 the default 15 and
        // 4, a delay of 255 never), doubled at 60 fps as PICO-8's manual says.
        let (delay, period) = (self.ram[BTNP_DELAY], self.ram[BTNP_DELAY + 1]);
        let scale = if self.sixty_fps { 2 } else { 1 };
        let delay = u32::from(if delay == 0 { 15 } else { delay }) * scale;
        let period = u32::from(if period == 0 { 4 } else { period }) * scale;
        match held {
            0 => false,
            1 => true,
            _ if self.ram[BTNP_DELAY] == 255 => false,
            n => n > delay && (n - delay - 1) % period == 0,
        }
    }

    /// Whether a machine frame is a PICO-8 frame, and which update function it calls:
    /// `_update60` every frame when the cart has `_update60`, else `_update` every other
    /// frame (30 fps); `None` on the frames between. (`_draw` follows the update; a cart
    /// looping on its own resumes from its `flip` on the same frames.)
    pub(crate) fn next_frame(&mut self, has_update60: bool) -> Option<&'static str> {
        self.ticks += 1;
        self.sixty_fps = has_update60;
        if has_update60 {
            return Some("_update60");
        }
        (self.ticks % 2 == 1).then_some("_update")
    }
}

/// Palette RAM for a PICO-8 cart: palette 0 the 16 standard colours, palette 1 the extras.
pub fn palette_colors() -> impl Iterator<Item = (usize, u32)> {
    COLORS
        .iter()
        .enumerate()
        .map(|(i, &c)| (i, c))
        .chain(EXTRA_COLORS.iter().enumerate().map(|(i, &c)| (16 + i, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rom() -> Rom {
        Rom {
            bytes: Box::new([0; ROM_BYTES]),
        }
    }

    #[test]
    fn the_screen_shows_at_2x_through_the_screen_palette() {
        let mut p = Pico8::new(&rom());
        p.poke(SCREEN, 0x21); // (0, 0) colour 1, (1, 0) colour 2
        p.poke(SCREEN_PALETTE + 2, 0x80 | 3); // colour 2 shown as extra colour 131
        let mut canvas = Canvas::default();
        p.present(&mut canvas);
        assert_eq!(canvas.get(0, 0), Some(1));
        assert_eq!(canvas.get(1, 1), Some(1));
        assert_eq!(canvas.get(2, 0), Some(16 + 3));
        assert_eq!(canvas.get(4, 0), Some(0));
    }

    #[test]
    fn update_runs_every_other_frame_and_update60_every_frame() {
        let mut p = Pico8::new(&rom());
        let frames: Vec<bool> = (0..4).map(|_| p.next_frame(false).is_some()).collect();
        assert_eq!(frames, [true, false, true, false]);
        assert_eq!(p.next_frame(true), Some("_update60"));
    }
}
