//! The console's input: one latched button word per player per frame.
//!
//! The host translates keys and pads into these bits at its edge; the machine never sees a
//! key code. Bit order is part of the movie format, so it never changes.

use crate::spec::{BTNP_REPEAT_DELAY, BTNP_REPEAT_PERIOD, PLAYERS};

/// One player's buttons, one bit each (see [`Button`]).
pub type ButtonWord = u16;

/// The console's buttons, with their bit number in a [`ButtonWord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[repr(u8)]
pub enum Button {
    Left = 0,
    Right = 1,
    Up = 2,
    Down = 3,
    A = 4,
    B = 5,
    X = 6,
    Y = 7,
    L = 8,
    R = 9,
    Start = 10,
    Select = 11,
}

impl Button {
    /// Every button, in bit order.
    pub const ALL: [Button; 12] = [
        Button::Left,
        Button::Right,
        Button::Up,
        Button::Down,
        Button::A,
        Button::B,
        Button::X,
        Button::Y,
        Button::L,
        Button::R,
        Button::Start,
        Button::Select,
    ];

    /// The bit of this button in a [`ButtonWord`].
    pub const fn bit(self) -> ButtonWord {
        1 << self as u8
    }

    /// The lower-case name carts use (`"left"`, `"a"`, `"start"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Right => "right",
            Button::Up => "up",
            Button::Down => "down",
            Button::A => "a",
            Button::B => "b",
            Button::X => "x",
            Button::Y => "y",
            Button::L => "l",
            Button::R => "r",
            Button::Start => "start",
            Button::Select => "select",
        }
    }

    /// The button with this bit number.
    pub(crate) fn from_index(index: i64) -> Option<Button> {
        usize::try_from(index)
            .ok()
            .and_then(|i| Button::ALL.get(i).copied())
    }

    /// The button with this name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Button> {
        Button::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }
}

/// The input of all players for one frame.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct InputFrame(pub [ButtonWord; PLAYERS]);

/// Bits 12-14 of a player's word: a PICO-8 cart's pause-menu item (1-5) the player chose
/// this vblank, 0 for none. The window sets them when an item is chosen in its pause menu;
/// movies and netplay carry them like buttons, so the choice replays.
const MENU_SHIFT: u16 = 12;
const MENU_MASK: ButtonWord = 0b111 << MENU_SHIFT;

/// The bits of a word that say pause-menu item `item` (1-5) was chosen.
pub const fn menu_choice_bits(item: u8) -> ButtonWord {
    ((item as ButtonWord) << MENU_SHIFT) & MENU_MASK
}

/// The pause-menu item a player's word chose, if any.
pub fn menu_choice(word: ButtonWord) -> Option<u8> {
    let item = ((word & MENU_MASK) >> MENU_SHIFT) as u8;
    (1..=5).contains(&item).then_some(item)
}

impl InputFrame {
    /// No button held by anyone.
    pub const NONE: InputFrame = InputFrame([0; PLAYERS]);

    /// Input where only player 1 holds `word`.
    pub fn player1(word: ButtonWord) -> InputFrame {
        let mut frame = InputFrame::NONE;
        frame.0[0] = word;
        frame
    }

    /// Whether `player` (0-based) holds `button`.
    pub fn held(&self, player: usize, button: Button) -> bool {
        self.0
            .get(player)
            .is_some_and(|word| word & button.bit() != 0)
    }
}

/// `btnp`'s auto-repeat, counted in machine frames: a held button reads as pressed again
/// `delay` frames after it went down, then every `period` frames (PICO-8's numbers: 15 and 4).
/// A `delay` or `period` of 0 turns repeat off, so `btnp` is true only on the first frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Repeat {
    pub delay: u8,
    pub period: u8,
}

impl Repeat {
    /// Repeat at power-on: after 15 frames, then every 4.
    pub const DEFAULT: Repeat = Repeat {
        delay: BTNP_REPEAT_DELAY,
        period: BTNP_REPEAT_PERIOD,
    };

    /// No repeat: `btnp` is only the frame the button went down.
    pub const OFF: Repeat = Repeat {
        delay: 0,
        period: 0,
    };

    /// Whether a button held for `frames` machine frames (1 on the frame it went down) reads
    /// as pressed.
    pub fn fires(self, frames: u32) -> bool {
        let (delay, period) = (u32::from(self.delay), u32::from(self.period));
        frames == 1
            || (delay > 0
                && period > 0
                && frames > delay
                && (frames - 1 - delay).is_multiple_of(period))
    }
}

impl Default for Repeat {
    fn default() -> Repeat {
        Repeat::DEFAULT
    }
}

/// What the machine latched: this frame's input and the previous frame's, for edges, and how
/// long each button has been held, for `btnp`'s auto-repeat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputLatch {
    pub(crate) current: InputFrame,
    pub(crate) previous: InputFrame,
    /// Machine frames each button of each player has been held, this one included (0 = up);
    /// indexed by player, then bit number. Stops counting at `u32::MAX` (2 years).
    pub(crate) held_frames: [[u32; Button::ALL.len()]; PLAYERS],
    /// `btnp`'s auto-repeat, set by the cart (`btnp_repeat`).
    pub(crate) repeat: Repeat,
}

impl InputLatch {
    /// `btnp`'s auto-repeat timing.
    pub fn repeat(&self) -> Repeat {
        self.repeat
    }

    /// Latches a new frame's input; the old one becomes the previous frame.
    pub(crate) fn latch(&mut self, input: InputFrame) {
        self.previous = self.current;
        self.current = input;
        for (word, counts) in input.0.iter().zip(&mut self.held_frames) {
            for (bit, count) in counts.iter_mut().enumerate() {
                *count = if word & (1 << bit) != 0 {
                    count.saturating_add(1)
                } else {
                    0
                };
            }
        }
    }

    /// Whether `player` holds `button` this frame.
    pub fn held(&self, player: usize, button: Button) -> bool {
        self.current.held(player, button)
    }

    /// Whether `player` pressed `button` this frame (held now, not held the frame before).
    pub fn pressed(&self, player: usize, button: Button) -> bool {
        self.current.held(player, button) && !self.previous.held(player, button)
    }

    /// Machine frames `player` has held `button`, this one included (0 = not held).
    pub(crate) fn held_for(&self, player: usize, button: Button) -> u32 {
        self.held_frames
            .get(player)
            .map_or(0, |counts| counts[button as usize])
    }

    /// `btnp`: pressed this frame, or held long enough to repeat (see [`Repeat`]).
    pub(crate) fn pressed_or_repeated(&self, player: usize, button: Button) -> bool {
        self.repeat.fires(self.held_for(player, button))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices_round_trip() {
        for (i, b) in Button::ALL.into_iter().enumerate() {
            assert_eq!(Button::from_index(i as i64), Some(b));
            assert_eq!(Button::from_name(b.name()), Some(b));
            assert_eq!(b.bit(), 1 << i);
        }
        assert_eq!(Button::from_index(12), None);
        assert_eq!(Button::from_index(-1), None);
        assert_eq!(Button::from_name("START"), Some(Button::Start));
        assert_eq!(Button::from_name("jump"), None);
    }

    #[test]
    fn pressed_is_an_edge() {
        let mut latch = InputLatch::default();
        latch.latch(InputFrame::player1(Button::A.bit()));
        assert!(latch.pressed(0, Button::A));
        latch.latch(InputFrame::player1(Button::A.bit()));
        assert!(latch.held(0, Button::A));
        assert!(!latch.pressed(0, Button::A));
        assert!(!latch.held(1, Button::A));
        assert!(!latch.held(9, Button::A));
    }

    /// The frames (0 = the one the button went down) on which `btnp` reads true over a hold
    /// of `hold` frames, followed by a release and one more press.
    fn btnp_frames(repeat: Repeat, hold: usize) -> Vec<usize> {
        let mut latch = InputLatch {
            repeat,
            ..InputLatch::default()
        };
        let mut frames = Vec::new();
        for f in 0..hold {
            latch.latch(InputFrame::player1(Button::A.bit()));
            if latch.pressed_or_repeated(0, Button::A) {
                frames.push(f);
            }
            assert!(!latch.pressed_or_repeated(1, Button::A));
            assert!(!latch.pressed_or_repeated(0, Button::B));
        }
        latch.latch(InputFrame::NONE);
        assert!(!latch.pressed_or_repeated(0, Button::A));
        assert_eq!(latch.held_for(0, Button::A), 0);
        latch.latch(InputFrame::player1(Button::A.bit()));
        assert!(
            latch.pressed_or_repeated(0, Button::A),
            "a new press fires again"
        );
        frames
    }

    #[test]
    fn btnp_repeats_after_15_frames_then_every_4() {
        assert_eq!(
            btnp_frames(Repeat::default(), 40),
            [0, 15, 19, 23, 27, 31, 35, 39]
        );
    }

    #[test]
    fn btnp_repeat_can_be_changed_or_turned_off() {
        assert_eq!(btnp_frames(Repeat::OFF, 40), [0]);
        assert_eq!(
            btnp_frames(
                Repeat {
                    delay: 0,
                    period: 4
                },
                40
            ),
            [0]
        );
        assert_eq!(
            btnp_frames(
                Repeat {
                    delay: 15,
                    period: 0
                },
                40
            ),
            [0]
        );
        assert_eq!(
            btnp_frames(
                Repeat {
                    delay: 1,
                    period: 1
                },
                5
            ),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(
            btnp_frames(
                Repeat {
                    delay: 10,
                    period: 20
                },
                40
            ),
            [0, 10, 30]
        );
    }

    #[test]
    fn hold_counters_are_per_player_and_button_and_saturate() {
        let mut latch = InputLatch::default();
        let mut frame = InputFrame::NONE;
        frame.0[0] = Button::Left.bit();
        frame.0[3] = Button::Select.bit() | Button::A.bit();
        for _ in 0..3 {
            latch.latch(frame);
        }
        assert_eq!(latch.held_for(0, Button::Left), 3);
        assert_eq!(latch.held_for(3, Button::Select), 3);
        assert_eq!(latch.held_for(3, Button::A), 3);
        assert_eq!(latch.held_for(0, Button::A), 0);
        assert_eq!(latch.held_for(9, Button::A), 0);
        latch.held_frames[0][0] = u32::MAX;
        latch.latch(frame);
        assert_eq!(latch.held_for(0, Button::Left), u32::MAX);
    }
}
