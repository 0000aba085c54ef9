//! The messages that rebuild a room's match, on the reliable channel: a rematch (`KRRM`:
//! every player powers the cart on again, in a new GGRS session) and a rejoiner's state
//! (`KRRS`: the save state of the match at its last confirmed frame, sent by the anchor, in
//! chunks, to every player of the new session). Session numbers ("epochs") tell a new
//! session's messages from an old one's.

use super::link::{Link, PeerAddr};

/// A rematch: the new session's number.
pub(crate) const TAG_REMATCH: &[u8; 4] = b"KRRM";
/// A chunk of the match's state for a new session.
pub(crate) const TAG_STATE: &[u8; 4] = b"KRRS";

/// Bytes of state in one message (well under every WebRTC stack's message limit).
const CHUNK: usize = 16 * 1024;

/// Most bytes of state accepted (a save state of hours of play fits).
pub(crate) const MAX_STATE: usize = 64 * 1024 * 1024;

/// The rematch message of session `epoch`.
pub(crate) fn rematch(epoch: u32) -> Vec<u8> {
    [TAG_REMATCH.as_slice(), &epoch.to_le_bytes()].concat()
}

/// The session a rematch message starts, if `bytes` is one.
pub(crate) fn read_rematch(bytes: &[u8]) -> Option<u32> {
    let body = bytes.strip_prefix(TAG_REMATCH)?;
    Some(u32::from_le_bytes(body.try_into().ok()?))
}

/// Sends `state` (for session `epoch`, at vblank `frame`) to `to`, in chunks; whether the
/// link took every chunk.
pub(crate) fn send_state(
    link: &dyn Link,
    to: PeerAddr,
    epoch: u32,
    frame: u64,
    state: &[u8],
) -> bool {
    let chunks: Vec<&[u8]> = state.chunks(CHUNK).collect();
    let count = chunks.len() as u32;
    chunks.iter().enumerate().all(|(index, chunk)| {
        let mut bytes = Vec::with_capacity(24 + chunk.len());
        bytes.extend_from_slice(TAG_STATE);
        bytes.extend_from_slice(&epoch.to_le_bytes());
        bytes.extend_from_slice(&frame.to_le_bytes());
        bytes.extend_from_slice(&(index as u32).to_le_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(chunk);
        link.send_reliable(to, &bytes)
    })
}

/// A state arriving in chunks.
#[derive(Debug, Default)]
pub(crate) struct StateAssembly {
    /// The session and vblank it is for, once its first chunk came.
    pub(crate) epoch: u32,
    pub(crate) frame: u64,
    chunks: Vec<Option<Vec<u8>>>,
    bytes: usize,
}

impl StateAssembly {
    /// Takes a message; the whole state once its last chunk is in. A chunk of another
    /// session than the one begun starts over (the newer wins); anything malformed, or a
    /// state past [`MAX_STATE`], is dropped.
    pub(crate) fn take(&mut self, bytes: &[u8]) -> Option<Vec<u8>> {
        let body = bytes.strip_prefix(TAG_STATE)?;
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(body.get(at..at + 4)?.try_into().ok()?))
        };
        let epoch = word(0)?;
        let frame = u64::from_le_bytes(body.get(4..12)?.try_into().ok()?);
        let index = word(12)? as usize;
        let count = word(16)? as usize;
        let chunk = body.get(20..)?;
        if count == 0 || index >= count || count > MAX_STATE / CHUNK + 1 {
            return None;
        }
        if self.chunks.len() != count || self.epoch != epoch || self.frame != frame {
            if !self.chunks.is_empty() && epoch < self.epoch {
                return None;
            }
            *self = StateAssembly {
                epoch,
                frame,
                chunks: vec![None; count],
                bytes: 0,
            };
        }
        if self.chunks[index].is_none() {
            self.bytes += chunk.len();
            if self.bytes > MAX_STATE {
                *self = StateAssembly::default();
                return None;
            }
            self.chunks[index] = Some(chunk.to_vec());
        }
        if self.chunks.iter().all(Option::is_some) {
            let state = self.chunks.drain(..).flatten().flatten().collect();
            return Some(state);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A link that keeps what is sent reliably.
    #[derive(Default)]
    struct Keeper(Mutex<Vec<Vec<u8>>>);

    impl Link for Keeper {
        fn send(&self, _: PeerAddr, _: &[u8]) -> bool {
            false
        }
        fn send_reliable(&self, _: PeerAddr, bytes: &[u8]) -> bool {
            self.0.lock().unwrap().push(bytes.to_vec());
            true
        }
        fn receive(&self) -> Option<(PeerAddr, Vec<u8>)> {
            None
        }
    }

    #[test]
    fn a_state_goes_in_chunks_and_comes_back_whole_in_any_order() {
        let state: Vec<u8> = (0..40_000u32).map(|i| (i * 7) as u8).collect();
        let keeper = Keeper::default();
        assert!(send_state(&keeper, PeerAddr::Room(1), 3, 1234, &state));
        let mut sent = keeper.0.into_inner().unwrap();
        assert_eq!(sent.len(), 3);
        sent.reverse();
        let mut assembly = StateAssembly::default();
        assert_eq!(assembly.take(&sent[0]), None);
        assert_eq!(assembly.take(&sent[0]), None, "a chunk twice counts once");
        assert_eq!(assembly.take(&sent[1]), None);
        assert_eq!(assembly.take(&sent[2]), Some(state));
        assert_eq!((assembly.epoch, assembly.frame), (3, 1234));
        assert_eq!(assembly.take(b"KRRS\x01"), None);
        assert_eq!(read_rematch(&rematch(9)), Some(9));
        assert_eq!(read_rematch(b"KRRM\x01"), None);
    }
}
