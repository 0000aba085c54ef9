//! The gamepad adapter: gilrs events turned into [`PadEvent`]s for the mapping layer. If
//! gilrs cannot start (no udev, an unsupported platform) the console runs with the keyboard
//! only and says so once.

use gilrs::{EventType, Gilrs};

use super::input_map::PadEvent;

/// The gamepads, if gilrs could start.
pub struct Pads {
    gilrs: Option<Gilrs>,
    /// Connection events for pads already present at start, delivered on the first poll.
    initial: Vec<PadEvent>,
}

impl Pads {
    /// Starts gilrs; on failure logs one line and runs without pads.
    pub fn start() -> Pads {
        match Gilrs::new() {
            Ok(gilrs) => {
                let initial = gilrs
                    .gamepads()
                    .map(|(id, pad)| PadEvent::Connected {
                        pad: usize::from(id),
                        uuid: uuid_hex(pad.uuid()),
                        name: pad.name().to_string(),
                    })
                    .collect();
                Pads {
                    gilrs: Some(gilrs),
                    initial,
                }
            }
            Err(e) => {
                crate::out::eprint_line(&format!(
                    "kairo: gamepads unavailable ({e}); keyboard only"
                ));
                Pads {
                    gilrs: None,
                    initial: Vec::new(),
                }
            }
        }
    }

    /// Every pad event since the last poll.
    pub fn poll(&mut self) -> Vec<PadEvent> {
        let mut events = std::mem::take(&mut self.initial);
        let Some(gilrs) = self.gilrs.as_mut() else {
            return events;
        };
        while let Some(event) = gilrs.next_event() {
            let pad = usize::from(event.id);
            let translated = match event.event {
                EventType::Connected => {
                    let gamepad = gilrs.gamepad(event.id);
                    Some(PadEvent::Connected {
                        pad,
                        uuid: uuid_hex(gamepad.uuid()),
                        name: gamepad.name().to_string(),
                    })
                }
                EventType::Disconnected => Some(PadEvent::Disconnected { pad }),
                EventType::ButtonPressed(button, _) => Some(PadEvent::Button {
                    pad,
                    control: format!("{button:?}"),
                    down: true,
                }),
                EventType::ButtonReleased(button, _) => Some(PadEvent::Button {
                    pad,
                    control: format!("{button:?}"),
                    down: false,
                }),
                EventType::AxisChanged(axis, value, _) => Some(PadEvent::Axis {
                    pad,
                    axis: format!("{axis:?}"),
                    value,
                }),
                _ => None,
            };
            events.extend(translated);
        }
        events
    }
}

fn uuid_hex(uuid: [u8; 16]) -> String {
    uuid.iter().map(|b| format!("{b:02x}")).collect()
}
