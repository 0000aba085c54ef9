//! The input mapping layer: keyboard keys and gamepad controls, named by strings, turned into
//! the console's button words for up to four players. No winit or gilrs types here — the
//! window and pad adapters translate their events into [`PadEvent`]s and key names, so this
//! layer is tested with synthetic events.
//!
//! Players: the keyboard always plays player 1 (index 0). Pads take players in the order
//! they connect (the first free slot, starting at player 1, shared with the keyboard); a pad
//! plugged in mid-game becomes the next free player, and its slot frees when unplugged.

use std::collections::{BTreeMap, BTreeSet};

use crate::input::{Button, ButtonWord, InputFrame};
use crate::spec::PLAYERS;

/// Analog stick deflection (0..1) below which the stick counts as centred.
pub const DEAD_ZONE: f32 = 0.5;

/// Controls bound to console buttons: control name -> button.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    map: BTreeMap<String, Button>,
}

impl Bindings {
    /// Bindings from (control, button) pairs.
    pub(crate) fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, Button)>) -> Bindings {
        Bindings {
            map: pairs.into_iter().map(|(c, b)| (c.to_string(), b)).collect(),
        }
    }

    /// The default keyboard layout (winit key code names).
    pub fn default_keyboard() -> Bindings {
        Bindings::from_pairs([
            ("ArrowLeft", Button::Left),
            ("ArrowRight", Button::Right),
            ("ArrowUp", Button::Up),
            ("ArrowDown", Button::Down),
            ("KeyZ", Button::A),
            ("KeyX", Button::B),
            ("KeyA", Button::X),
            ("KeyS", Button::Y),
            ("KeyQ", Button::L),
            ("KeyW", Button::R),
            ("KeyR", Button::R),
            ("Enter", Button::Start),
            ("ShiftLeft", Button::Select),
            ("ShiftRight", Button::Select),
        ])
    }

    /// The default gamepad layout (gilrs button names, SDL-style positions).
    pub(crate) fn default_pad() -> Bindings {
        Bindings::from_pairs([
            ("DPadLeft", Button::Left),
            ("DPadRight", Button::Right),
            ("DPadUp", Button::Up),
            ("DPadDown", Button::Down),
            ("South", Button::A),
            ("East", Button::B),
            ("West", Button::X),
            ("North", Button::Y),
            ("LeftTrigger", Button::L),
            ("RightTrigger", Button::R),
            ("Start", Button::Start),
            ("Select", Button::Select),
        ])
    }

    /// The button `control` is bound to.
    pub fn button(&self, control: &str) -> Option<Button> {
        self.map.get(control).copied()
    }

    /// The controls bound to `button`.
    pub fn controls(&self, button: Button) -> Vec<&str> {
        self.map
            .iter()
            .filter(|(_, b)| **b == button)
            .map(|(c, _)| c.as_str())
            .collect()
    }

    /// Makes `control` the one control of `button`: the button's old controls are unbound,
    /// and `control` leaves whatever button it had.
    pub fn bind(&mut self, control: &str, button: Button) {
        self.map.retain(|_, b| *b != button);
        self.map.insert(control.to_string(), button);
    }

    /// (control, button) pairs, in control-name order.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, Button)> {
        self.map.iter().map(|(c, b)| (c.as_str(), *b))
    }
}

/// A pad, as numbered by the pad adapter.
pub type PadId = usize;

/// What a pad did.
#[derive(Clone, Debug, PartialEq)]
pub enum PadEvent {
    Connected {
        pad: PadId,
        uuid: String,
        name: String,
    },
    Disconnected {
        pad: PadId,
    },
    Button {
        pad: PadId,
        control: String,
        down: bool,
    },
    /// An axis moved: `LeftStickX`/`LeftStickY`/`DPadX`/`DPadY`, -1..1, +Y up.
    Axis {
        pad: PadId,
        axis: String,
        value: f32,
    },
}

/// One connected pad.
#[derive(Clone, Debug)]
struct Pad {
    uuid: String,
    name: String,
    player: usize,
    held: BTreeSet<String>,
    /// Controls pressed since the last latch (a tap shorter than a vblank still counts).
    tapped: BTreeSet<String>,
    stick: (f32, f32),
    dpad_axes: (f32, f32),
}

/// Keyboard and pad state, and the bindings per device model.
#[derive(Clone, Debug)]
pub struct InputMapper {
    pub keyboard: Bindings,
    held_keys: BTreeSet<String>,
    /// Keys pressed since the last latch: a key down and up again between two vblanks is
    /// seen held for one vblank, so no tap is lost when a frame runs long.
    tapped_keys: BTreeSet<String>,
    pads: BTreeMap<PadId, Pad>,
    /// Bindings per pad model (gilrs UUID); models without an entry use the default layout.
    pub pad_bindings: BTreeMap<String, Bindings>,
}

impl Default for InputMapper {
    fn default() -> Self {
        InputMapper {
            keyboard: Bindings::default_keyboard(),
            held_keys: BTreeSet::new(),
            tapped_keys: BTreeSet::new(),
            pads: BTreeMap::new(),
            pad_bindings: BTreeMap::new(),
        }
    }
}

impl InputMapper {
    /// A key went down or up.
    pub fn key(&mut self, name: &str, down: bool) {
        if down {
            self.held_keys.insert(name.to_string());
            self.tapped_keys.insert(name.to_string());
        } else {
            self.held_keys.remove(name);
        }
    }

    /// Releases every key (the window lost focus).
    pub(crate) fn release_keys(&mut self) {
        self.held_keys.clear();
        self.tapped_keys.clear();
    }

    /// Applies a pad event. Returns the player a newly connected pad was given.
    pub fn pad_event(&mut self, event: PadEvent) -> Option<usize> {
        match event {
            PadEvent::Connected { pad, uuid, name } => {
                let taken: BTreeSet<usize> = self.pads.values().map(|p| p.player).collect();
                let player = (0..PLAYERS).find(|p| !taken.contains(p))?;
                self.pads.insert(
                    pad,
                    Pad {
                        uuid,
                        name,
                        player,
                        held: BTreeSet::new(),
                        tapped: BTreeSet::new(),
                        stick: (0.0, 0.0),
                        dpad_axes: (0.0, 0.0),
                    },
                );
                Some(player)
            }
            PadEvent::Disconnected { pad } => {
                self.pads.remove(&pad);
                None
            }
            PadEvent::Button { pad, control, down } => {
                if let Some(p) = self.pads.get_mut(&pad) {
                    if down {
                        p.tapped.insert(control.clone());
                        p.held.insert(control);
                    } else {
                        p.held.remove(&control);
                    }
                }
                None
            }
            PadEvent::Axis { pad, axis, value } => {
                if let Some(p) = self.pads.get_mut(&pad) {
                    let value = if value.is_finite() {
                        value.clamp(-1.0, 1.0)
                    } else {
                        0.0
                    };
                    match axis.as_str() {
                        "LeftStickX" => p.stick.0 = value,
                        "LeftStickY" => p.stick.1 = value,
                        "DPadX" => p.dpad_axes.0 = value,
                        "DPadY" => p.dpad_axes.1 = value,
                        _ => {}
                    }
                }
                None
            }
        }
    }

    /// The bindings used for pads of model `uuid`.
    pub(crate) fn bindings_for(&self, uuid: &str) -> Bindings {
        self.pad_bindings
            .get(uuid)
            .cloned()
            .unwrap_or_else(Bindings::default_pad)
    }

    /// The input of all players now (latched once per machine frame).
    pub(crate) fn latch(&mut self) -> InputFrame {
        let mut frame = InputFrame::NONE;
        frame.0[0] = word(
            &self.keyboard,
            self.held_keys.iter().chain(&self.tapped_keys),
        );
        self.tapped_keys.clear();
        for pad in self.pads.values_mut() {
            let bindings = self.pad_bindings.get(&pad.uuid);
            let default;
            let bindings = match bindings {
                Some(b) => b,
                None => {
                    default = Bindings::default_pad();
                    &default
                }
            };
            let mut bits = word(bindings, pad.held.iter().chain(&pad.tapped));
            pad.tapped.clear();
            for (x, y) in [pad.stick, pad.dpad_axes] {
                bits |= direction_bits(x, y);
            }
            frame.0[pad.player] |= bits;
        }
        frame
    }

    /// Connected pads as (player, name, uuid), by player.
    pub fn pads(&self) -> Vec<(usize, String, String)> {
        let mut list: Vec<_> = self
            .pads
            .values()
            .map(|p| (p.player, p.name.clone(), p.uuid.clone()))
            .collect();
        list.sort();
        list
    }

    /// Whether some pad holds both Start and Select (the pause combination).
    pub(crate) fn pause_combo_held(&self) -> bool {
        self.pads.values().any(|pad| {
            let bindings = self.bindings_for(&pad.uuid);
            let bits = word(&bindings, pad.held.iter());
            let combo = Button::Start.bit() | Button::Select.bit();
            bits & combo == combo
        })
    }

    /// The pad's model (uuid, name), if connected.
    pub(crate) fn pad_model(&self, pad: PadId) -> Option<(String, String)> {
        self.pads
            .get(&pad)
            .map(|p| (p.uuid.clone(), p.name.clone()))
    }
}

fn word<'a>(bindings: &Bindings, held: impl Iterator<Item = &'a String>) -> ButtonWord {
    held.filter_map(|c| bindings.button(c))
        .fold(0, |w, b| w | b.bit())
}

/// D-pad bits for a stick at (x, y), +y up, with the dead zone applied per axis.
pub(crate) fn direction_bits(x: f32, y: f32) -> ButtonWord {
    let mut bits = 0;
    if x <= -DEAD_ZONE {
        bits |= Button::Left.bit();
    } else if x >= DEAD_ZONE {
        bits |= Button::Right.bit();
    }
    if y >= DEAD_ZONE {
        bits |= Button::Up.bit();
    } else if y <= -DEAD_ZONE {
        bits |= Button::Down.bit();
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connect(m: &mut InputMapper, pad: PadId, uuid: &str) -> Option<usize> {
        m.pad_event(PadEvent::Connected {
            pad,
            uuid: uuid.into(),
            name: format!("Pad {pad}"),
        })
    }

    fn press(m: &mut InputMapper, pad: PadId, control: &str, down: bool) {
        m.pad_event(PadEvent::Button {
            pad,
            control: control.into(),
            down,
        });
    }

    #[test]
    fn a_tap_between_two_latches_is_seen_for_one_vblank() {
        let mut m = InputMapper::default();
        m.key("ArrowDown", true);
        m.key("ArrowDown", false);
        assert_eq!(m.latch().0[0], Button::Down.bit());
        assert_eq!(m.latch().0[0], 0);
        connect(&mut m, 3, "uuid");
        press(&mut m, 3, "South", true);
        press(&mut m, 3, "South", false);
        assert_eq!(m.latch().0[0], Button::A.bit());
        assert_eq!(m.latch().0[0], 0);
    }

    #[test]
    fn keyboard_drives_player_one() {
        let mut m = InputMapper::default();
        m.key("ArrowLeft", true);
        m.key("KeyZ", true);
        m.key("KeyP", true);
        assert_eq!(m.latch().0[0], Button::Left.bit() | Button::A.bit());
        m.key("ArrowLeft", false);
        assert_eq!(m.latch().0[0], Button::A.bit());
        m.release_keys();
        assert_eq!(m.latch(), InputFrame::NONE);
    }

    #[test]
    fn pads_take_free_players_in_order_and_hot_plug() {
        let mut m = InputMapper::default();
        assert_eq!(connect(&mut m, 7, "u1"), Some(0));
        assert_eq!(connect(&mut m, 3, "u2"), Some(1));
        press(&mut m, 3, "South", true);
        assert_eq!(m.latch().0[1], Button::A.bit());
        m.pad_event(PadEvent::Disconnected { pad: 7 });
        // A pad plugged in mid-game takes the freed slot.
        assert_eq!(connect(&mut m, 9, "u3"), Some(0));
        assert_eq!(connect(&mut m, 10, "u3"), Some(2));
        assert_eq!(connect(&mut m, 11, "u3"), Some(3));
        assert_eq!(connect(&mut m, 12, "u3"), None, "only four players");
        // Events of unknown pads are ignored.
        press(&mut m, 12, "South", true);
        assert_eq!(m.latch().0[0], 0);
    }

    #[test]
    fn sticks_drive_the_dpad_outside_the_dead_zone() {
        let mut m = InputMapper::default();
        connect(&mut m, 0, "u");
        let axis = |m: &mut InputMapper, axis: &str, value: f32| {
            m.pad_event(PadEvent::Axis {
                pad: 0,
                axis: axis.into(),
                value,
            });
        };
        axis(&mut m, "LeftStickX", 0.3);
        axis(&mut m, "LeftStickY", -0.2);
        assert_eq!(m.latch().0[0], 0, "inside the dead zone");
        axis(&mut m, "LeftStickX", -0.9);
        axis(&mut m, "LeftStickY", 0.7);
        assert_eq!(m.latch().0[0], Button::Left.bit() | Button::Up.bit());
        axis(&mut m, "LeftStickY", f32::NAN);
        assert_eq!(m.latch().0[0], Button::Left.bit());
    }

    #[test]
    fn remapping_is_per_pad_model() {
        let mut m = InputMapper::default();
        connect(&mut m, 0, "model-a");
        connect(&mut m, 1, "model-b");
        let mut custom = Bindings::default_pad();
        custom.bind("East", Button::A);
        m.pad_bindings.insert("model-a".into(), custom);
        press(&mut m, 0, "East", true);
        press(&mut m, 1, "East", true);
        assert_eq!(m.latch().0[0], Button::A.bit());
        assert_eq!(m.latch().0[1], Button::B.bit());
        press(&mut m, 0, "South", true);
        assert_eq!(
            m.latch().0[0],
            Button::A.bit(),
            "South no longer means A on model-a"
        );
    }

    #[test]
    fn start_and_select_together_is_the_pause_combination() {
        let mut m = InputMapper::default();
        connect(&mut m, 0, "u");
        press(&mut m, 0, "Start", true);
        assert!(!m.pause_combo_held());
        press(&mut m, 0, "Select", true);
        assert!(m.pause_combo_held());
    }

    #[test]
    fn binding_replaces_the_buttons_old_control() {
        let mut b = Bindings::default_keyboard();
        b.bind("KeyJ", Button::A);
        assert_eq!(b.controls(Button::A), ["KeyJ"]);
        assert_eq!(b.button("KeyZ"), None);
        b.bind("KeyJ", Button::B);
        assert_eq!(b.controls(Button::A), Vec::<&str>::new());
        assert_eq!(b.button("KeyJ"), Some(Button::B));
    }
}
