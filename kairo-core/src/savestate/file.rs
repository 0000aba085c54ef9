//! The state file: `KAIROSTA`, a format version, then chunks (a 4-byte tag, a 4-byte
//! little-endian length, the bytes) and a CRC-32 of everything before it. Unknown chunks are
//! skipped, so later builds can add some; a missing required chunk, a bad CRC or a cut file is
//! an error that says so. Nothing in a state file is ever run: it holds no Lua code or data.

use thiserror::Error;

const MAGIC: &[u8; 8] = b"KAIROSTA";
/// The state format this build writes and reads.
pub const STATE_FORMAT: u16 = 2;

/// Why a state file cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum StateFileError {
    #[error("not a Kairo state file")]
    NotState,
    #[error("state format {0}, this build reads {STATE_FORMAT}")]
    Format(u16),
    #[error("damaged or cut short (its checksum does not match)")]
    Checksum,
    #[error("damaged: a chunk runs past the end of the file")]
    Chunk,
    #[error("damaged: it has no `{0}` chunk")]
    Missing(&'static str),
}

/// A state file's chunks, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunks(pub Vec<([u8; 4], Vec<u8>)>);

impl Chunks {
    /// Adds chunk `tag`.
    pub fn push(&mut self, tag: &[u8; 4], data: Vec<u8>) {
        self.0.push((*tag, data));
    }

    /// The first chunk `tag`, or an error naming it.
    pub fn get(&self, tag: &'static str) -> Result<&[u8], StateFileError> {
        self.0
            .iter()
            .find(|(t, _)| t == tag.as_bytes())
            .map(|(_, d)| d.as_slice())
            .ok_or(StateFileError::Missing(tag))
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&STATE_FORMAT.to_le_bytes());
        for (tag, data) in &self.0 {
            out.extend_from_slice(tag);
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(data);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a state file's bytes.
    pub fn decode(bytes: &[u8]) -> Result<Chunks, StateFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(StateFileError::NotState);
        }
        if bytes.len() < MAGIC.len() + 2 + 4 {
            return Err(StateFileError::Checksum);
        }
        let format = u16::from_le_bytes([bytes[8], bytes[9]]);
        if format != STATE_FORMAT {
            return Err(StateFileError::Format(format));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("four bytes")) {
            return Err(StateFileError::Checksum);
        }
        let mut rest = &body[10..];
        let mut chunks = Chunks::default();
        while !rest.is_empty() {
            if rest.len() < 8 {
                return Err(StateFileError::Chunk);
            }
            let tag: [u8; 4] = rest[..4].try_into().expect("four bytes");
            let len = u32::from_le_bytes(rest[4..8].try_into().expect("four bytes")) as usize;
            rest = &rest[8..];
            if len > rest.len() {
                return Err(StateFileError::Chunk);
            }
            chunks.push(&tag, rest[..len].to_vec());
            rest = &rest[len..];
        }
        Ok(chunks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_round_trip_and_damage_is_caught() {
        let mut chunks = Chunks::default();
        chunks.push(b"CART", b"Nova Lance".to_vec());
        chunks.push(b"NEXT", vec![1; 300]);
        let bytes = chunks.encode();
        assert_eq!(Chunks::decode(&bytes), Ok(chunks.clone()));
        assert_eq!(
            Chunks::decode(&bytes).unwrap().get("NEXT").unwrap().len(),
            300
        );
        assert_eq!(chunks.get("SAVE"), Err(StateFileError::Missing("SAVE")));
        for end in 0..bytes.len() {
            assert!(Chunks::decode(&bytes[..end]).is_err(), "cut at {end}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 1;
            assert!(Chunks::decode(&bad).is_err(), "flip at {i}");
        }
        assert_eq!(Chunks::decode(b"hello"), Err(StateFileError::NotState));
    }
}
