//! Save RAM: the cart's battery-backed memory, [`SAVE_BYTES`] bytes kept between runs under the
//! cart's `save_id` (the host stores it; see [`crate::savefile`]). The first [`SAVE_SLOTS`]
//! eight-byte words are number slots; the rest holds one plain value ([`value`]). The unit
//! counts its writes so the host can tell when there is something to store.

pub mod value;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::spec::{SAVE_BYTES, SAVE_SLOTS, SAVE_VALUE_BYTES};

/// Why a save RAM access was refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SaveError {
    #[error("slot {0} is outside save RAM (slots are 0-{max})", max = SAVE_SLOTS - 1)]
    NoSuchSlot(i64),
    #[error("the value needs {0} bytes, save RAM holds {SAVE_VALUE_BYTES} after its number slots")]
    TooBig(usize),
}

pub type Result<T> = std::result::Result<T, SaveError>;

/// The save RAM's contents and how many writes changed them since power-on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveRam {
    #[serde(with = "crate::serde_array::boxed")]
    bytes: Box<[u8; SAVE_BYTES]>,
    /// Bumped by each write that changed a byte; the host stores the RAM when it moves.
    changes: u64,
}

impl Default for SaveRam {
    fn default() -> Self {
        SaveRam {
            bytes: Box::new([0; SAVE_BYTES]),
            changes: 0,
        }
    }
}

impl SaveRam {
    /// Save RAM holding `data` (a stored copy), zero-filled past its end; bytes past
    /// [`SAVE_BYTES`] are dropped.
    pub fn from_bytes(data: &[u8]) -> SaveRam {
        let mut ram = SaveRam::default();
        let n = data.len().min(SAVE_BYTES);
        ram.bytes[..n].copy_from_slice(&data[..n]);
        ram
    }

    /// All of save RAM.
    pub fn bytes(&self) -> &[u8; SAVE_BYTES] {
        &self.bytes
    }

    /// Save RAM up to its last non-zero byte (what is worth storing).
    pub fn used(&self) -> &[u8] {
        let end = self
            .bytes
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i + 1);
        &self.bytes[..end]
    }

    /// Writes that changed save RAM since power-on.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    fn slot_range(slot: i64) -> Result<std::ops::Range<usize>> {
        match usize::try_from(slot) {
            Ok(i) if i < SAVE_SLOTS => Ok(i * 8..i * 8 + 8),
            _ => Err(SaveError::NoSuchSlot(slot)),
        }
    }

    /// The number in `slot` (a 64-bit float; 0 when never written).
    pub fn slot(&self, slot: i64) -> Result<f64> {
        let range = Self::slot_range(slot)?;
        let word: [u8; 8] = self.bytes[range].try_into().expect("eight bytes");
        Ok(f64::from_le_bytes(word))
    }

    /// Stores `value` in `slot`.
    pub fn set_slot(&mut self, slot: i64, value: f64) -> Result<()> {
        let range = Self::slot_range(slot)?;
        self.write(range.start, &value.to_le_bytes());
        Ok(())
    }

    /// The plain-value area (after the number slots).
    pub fn value_area(&self) -> &[u8] {
        &self.bytes[SAVE_SLOTS * 8..]
    }

    /// Replaces the plain-value area with `encoded` (from [`value::encode`]), zero-filled
    /// after it.
    pub(crate) fn set_value_area(&mut self, encoded: &[u8]) -> Result<()> {
        if encoded.len() > SAVE_VALUE_BYTES {
            return Err(SaveError::TooBig(encoded.len()));
        }
        let mut area = [0u8; SAVE_VALUE_BYTES];
        area[..encoded.len()].copy_from_slice(encoded);
        self.write(SAVE_SLOTS * 8, &area);
        Ok(())
    }

    /// Zeroes all of save RAM.
    pub fn clear(&mut self) {
        self.write(0, &[0; SAVE_BYTES]);
    }

    fn write(&mut self, at: usize, data: &[u8]) {
        let target = &mut self.bytes[at..at + data.len()];
        if target != data {
            target.copy_from_slice(data);
            self.changes += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_hold_numbers_and_count_only_real_changes() {
        let mut ram = SaveRam::default();
        assert_eq!(ram.slot(3), Ok(0.0));
        ram.set_slot(3, 1250.0).unwrap();
        ram.set_slot(3, 1250.0).unwrap();
        assert_eq!(ram.slot(3), Ok(1250.0));
        assert_eq!(ram.changes(), 1);
        assert_eq!(ram.set_slot(64, 1.0), Err(SaveError::NoSuchSlot(64)));
        assert_eq!(ram.slot(-1), Err(SaveError::NoSuchSlot(-1)));
        assert_eq!(ram.used().len(), 32);
    }

    #[test]
    fn the_value_area_is_bounded_and_stored_copies_come_back() {
        let mut ram = SaveRam::default();
        assert_eq!(
            ram.set_value_area(&vec![1; SAVE_VALUE_BYTES + 1]),
            Err(SaveError::TooBig(SAVE_VALUE_BYTES + 1))
        );
        ram.set_value_area(&[7, 8]).unwrap();
        let copy = SaveRam::from_bytes(ram.used());
        assert_eq!(copy.bytes(), ram.bytes());
        assert_eq!(
            SaveRam::from_bytes(&[1; SAVE_BYTES + 10]).used().len(),
            SAVE_BYTES
        );
        ram.clear();
        assert!(ram.used().is_empty());
    }
}
