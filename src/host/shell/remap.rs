//! Remapping controls from the pause menu: the device being remapped, the button being asked
//! for, capturing a key or pad control for it, and saving the result.

use super::{Screen, Shell};
use crate::host::HostError;
use crate::host::config::{self, InputConfig};
use crate::host::input_map::Bindings;
use crate::input::Button;

/// The device being remapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemapDevice {
    Keyboard,
    Pad {
        pad: usize,
        uuid: String,
        name: String,
    },
}

/// The remap screen: asks for a control for each console button in turn.
#[derive(Clone, Debug)]
pub struct Remap {
    pub device: RemapDevice,
    pub step: usize,
    pub bindings: Bindings,
}

impl Remap {
    /// The button being asked for.
    pub fn button(&self) -> Option<Button> {
        Button::ALL.get(self.step).copied()
    }
}

impl Shell {
    /// The `index`-th connected pad (by player) as (pad id, uuid, name).
    pub(super) fn pad_by_index(&self, index: usize) -> Option<(usize, String, String)> {
        let (_, _, uuid) = self.mapper.pads().into_iter().nth(index)?;
        (0..64).find_map(|pad| {
            let (u, name) = self.mapper.pad_model(pad)?;
            (u == uuid).then_some((pad, u, name))
        })
    }

    pub(super) fn capture(&mut self, control: String) {
        let Screen::Remap(remap) = &mut self.screen else {
            return;
        };
        if control == "Escape" {
            self.skip_remap_step();
            return;
        }
        if let Some(button) = remap.button() {
            remap.bindings.bind(&control, button);
        }
        self.skip_remap_step();
    }

    pub(super) fn skip_remap_step(&mut self) {
        let Screen::Remap(remap) = &mut self.screen else {
            return;
        };
        remap.step += 1;
        if remap.button().is_some() {
            return;
        }
        let remap = remap.clone();
        match &remap.device {
            RemapDevice::Keyboard => self.mapper.keyboard = remap.bindings,
            RemapDevice::Pad { uuid, .. } => {
                self.mapper
                    .pad_bindings
                    .insert(uuid.clone(), remap.bindings);
            }
        }
        self.mapper.release_keys();
        let saved = match &self.config_dir {
            Some(dir) => config::save(
                dir,
                "input.toml",
                &InputConfig::from_mapper(&self.mapper, &self.pad_names),
            ),
            None => Err(HostError::NoConfigFolder),
        };
        self.toast(match saved {
            Ok(()) => "Controls saved".into(),
            Err(e) => format!("Not saved: {e}"),
        });
        self.leave_remap();
    }

    pub(super) fn leave_remap(&mut self) {
        if self.console().is_some() {
            self.screen = Screen::Paused(self.pause_menu());
        } else {
            self.show_browser();
        }
    }
}
