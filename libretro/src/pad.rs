//! The RetroPad as Kairo's pad: one table from RetroPad buttons to Kairo's buttons, used for
//! reading the four ports each vblank and for the labels RetroArch shows in its input menu.
//!
//! The face buttons go by position, as the window maps a gamepad (docs/libretro.md): Kairo's
//! A is the bottom button (RetroPad B), Kairo's B the right one (RetroPad A), Kairo's X the
//! left one (RetroPad Y) and Kairo's Y the top one (RetroPad X).

use std::ffi::{CStr, c_uint, c_void};

use kairo::input::{Button, ButtonWord, InputFrame};
use kairo::spec::PLAYERS;

use crate::abi::{self, joypad};
use crate::frontend::Frontend;

/// Each Kairo button, the RetroPad button it is read from, and its label.
pub const MAPPING: [(Button, c_uint, &CStr); 12] = [
    (Button::Left, joypad::LEFT, c"D-Pad Left"),
    (Button::Right, joypad::RIGHT, c"D-Pad Right"),
    (Button::Up, joypad::UP, c"D-Pad Up"),
    (Button::Down, joypad::DOWN, c"D-Pad Down"),
    (Button::A, joypad::B, c"A"),
    (Button::B, joypad::A, c"B"),
    (Button::X, joypad::Y, c"X"),
    (Button::Y, joypad::X, c"Y"),
    (Button::L, joypad::L, c"L"),
    (Button::R, joypad::R, c"R"),
    (Button::Start, joypad::START, c"Start"),
    (Button::Select, joypad::SELECT, c"Select"),
];

/// Every player's buttons for this vblank, read from ports 0-3.
pub fn read(frontend: &Frontend) -> InputFrame {
    let mut frame = InputFrame::NONE;
    for (port, word) in frame.0.iter_mut().enumerate() {
        *word = MAPPING
            .iter()
            .filter(|(_, id, _)| frontend.joypad_held(port as c_uint, *id))
            .fold(0 as ButtonWord, |word, (button, _, _)| word | button.bit());
    }
    frame
}

/// Tells the frontend the label of every button on every port.
pub fn describe(frontend: &Frontend) {
    let mut descriptors: Vec<abi::InputDescriptor> = (0..PLAYERS as c_uint)
        .flat_map(|port| {
            MAPPING
                .iter()
                .map(move |(_, id, label)| abi::InputDescriptor {
                    port,
                    device: abi::DEVICE_JOYPAD,
                    index: 0,
                    id: *id,
                    description: label.as_ptr(),
                })
        })
        .collect();
    descriptors.push(abi::InputDescriptor {
        port: 0,
        device: 0,
        index: 0,
        id: 0,
        description: std::ptr::null(),
    });
    // SAFETY: SET_INPUT_DESCRIPTORS reads the array up to its null-description entry; the
    // labels are 'static and the array outlives the call.
    unsafe {
        frontend.environment(
            abi::env::SET_INPUT_DESCRIPTORS,
            descriptors.as_mut_ptr().cast::<c_void>(),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kairo_button_has_one_retropad_button() {
        for button in Button::ALL {
            assert_eq!(MAPPING.iter().filter(|(b, _, _)| *b == button).count(), 1);
        }
        let mut ids: Vec<c_uint> = MAPPING.iter().map(|(_, id, _)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), MAPPING.len(), "two buttons read the same id");
    }
}
