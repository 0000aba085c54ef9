//! The UDP socket GGRS talks through. Each datagram starts with a four-byte tag: `KRGG` for
//! GGRS's messages (postcard-encoded), `KRHI` and `KRNO` for the greeting before the match
//! ([`super::handshake`]). Greetings that arrive once the match runs (a peer that missed
//! ours) are answered here, so that peer can start too; anything else is dropped.

use std::net::{SocketAddr, UdpSocket};

use ggrs::{Message, NonBlockingSocket};

/// GGRS's messages.
pub const TAG_GGRS: &[u8; 4] = b"KRGG";
/// A greeting.
pub const TAG_HELLO: &[u8; 4] = b"KRHI";
/// A refusal, with its reason.
pub const TAG_REFUSE: &[u8; 4] = b"KRNO";

/// Largest datagram read (GGRS keeps its own well under it).
const RECEIVE_BYTES: usize = 4096;

/// A non-blocking UDP socket carrying GGRS's messages and answering late greetings.
#[derive(Debug)]
pub struct NetSocket {
    socket: UdpSocket,
    /// The greeting to answer a late one with (ours, saying we have seen theirs).
    hello: Vec<u8>,
    buffer: Vec<u8>,
    /// Datagrams sent and received, for the status line and tests.
    pub sent: u64,
    pub received: u64,
}

impl NetSocket {
    /// Wraps `socket` (already bound and greeted through) for GGRS.
    pub fn new(socket: UdpSocket, hello: Vec<u8>) -> std::io::Result<NetSocket> {
        socket.set_nonblocking(true)?;
        Ok(NetSocket {
            socket,
            hello,
            buffer: vec![0; RECEIVE_BYTES],
            sent: 0,
            received: 0,
        })
    }
}

/// `tag` followed by `body`.
pub(crate) fn datagram(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + body.len());
    bytes.extend_from_slice(tag);
    bytes.extend_from_slice(body);
    bytes
}

impl NonBlockingSocket<SocketAddr> for NetSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let Ok(body) = postcard::to_stdvec(msg) else {
            return;
        };
        // A datagram that cannot go out now is as good as lost: GGRS sends again.
        if self
            .socket
            .send_to(&datagram(TAG_GGRS, &body), addr)
            .is_ok()
        {
            self.sent += 1;
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut messages = Vec::new();
        while let Ok((len, from)) = self.socket.recv_from(&mut self.buffer) {
            self.received += 1;
            let bytes = &self.buffer[..len];
            if let Some(body) = bytes.strip_prefix(TAG_GGRS) {
                if let Ok(message) = postcard::from_bytes(body) {
                    messages.push((from, message));
                }
            } else if bytes.starts_with(TAG_HELLO) {
                let _ = self.socket.send_to(&self.hello, from);
            }
        }
        messages
    }
}
