//! Serde for fixed-size arrays longer than serde's own 32 (`[T; N]` and `Box<[T; N]>`), as
//! sequences: `#[serde(with = "crate::serde_array")]` or `with = "crate::serde_array::boxed"`.
//! A sequence of the wrong length is a deserialization error, never a panic.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Writes the array as a sequence.
pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
    array: &[T; N],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(array.iter())
}

/// Reads a sequence of exactly `N` items.
pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
    deserializer: D,
) -> Result<[T; N], D::Error> {
    let items = Vec::<T>::deserialize(deserializer)?;
    let len = items.len();
    items
        .try_into()
        .map_err(|_| D::Error::custom(format!("{len} items where the array holds {N}")))
}

/// The same for boxed arrays.
pub mod boxed {
    use super::*;

    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        array: &[T; N],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        super::serialize(array, serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<Box<[T; N]>, D::Error> {
        let items = Vec::<T>::deserialize(deserializer)?;
        let len = items.len();
        items
            .into_boxed_slice()
            .try_into()
            .map_err(|_| D::Error::custom(format!("{len} items where the array holds {N}")))
    }
}
