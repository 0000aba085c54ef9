//! The console's input: one latched button word per player per frame.
//!
//! The host translates keys and pads into these bits at its edge; the machine never sees a
//! key code. Bit order is part of the movie format, so it never changes.

use crate::spec::PLAYERS;

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
    pub fn from_index(index: i64) -> Option<Button> {
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

/// What the machine latched: this frame's input and the previous frame's, for edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputLatch {
    pub current: InputFrame,
    pub previous: InputFrame,
}

impl InputLatch {
    /// Latches a new frame's input; the old one becomes the previous frame.
    pub fn latch(&mut self, input: InputFrame) {
        self.previous = self.current;
        self.current = input;
    }

    /// Whether `player` holds `button` this frame.
    pub fn held(&self, player: usize, button: Button) -> bool {
        self.current.held(player, button)
    }

    /// Whether `player` pressed `button` this frame (held now, not held the frame before).
    pub fn pressed(&self, player: usize, button: Button) -> bool {
        self.current.held(player, button) && !self.previous.held(player, button)
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
}
