//! What a match's messages travel over: a [`Link`] carries datagrams between peers named by
//! a [`PeerAddr`]. Two links exist: plain UDP ([`UdpLink`], peers by IP address and port)
//! and a room's WebRTC data channels (the `kairo` crate's `rooms` module, peers by the id
//! the lobby server gave them). The greeting and GGRS run the same over either.

use std::fmt;
use std::net::{SocketAddr, UdpSocket};

/// Where a peer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PeerAddr {
    /// An IPv4 address and UDP port.
    Udp(SocketAddr),
    /// A peer of a room, by the id the lobby server gave it.
    Room(u128),
}

impl PeerAddr {
    /// The short form of a room peer's id shown in notes (its first 8 hex digits).
    pub fn short_id(id: u128) -> String {
        format!("{:08x}", (id >> 96) as u32)
    }
}

impl fmt::Display for PeerAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerAddr::Udp(addr) => write!(f, "{addr}"),
            PeerAddr::Room(id) => write!(f, "peer {}", PeerAddr::short_id(*id)),
        }
    }
}

impl From<SocketAddr> for PeerAddr {
    fn from(addr: SocketAddr) -> PeerAddr {
        PeerAddr::Udp(addr)
    }
}

impl PartialEq<SocketAddr> for PeerAddr {
    fn eq(&self, other: &SocketAddr) -> bool {
        *self == PeerAddr::Udp(*other)
    }
}

/// Datagrams between peers. Sending never blocks (a datagram that cannot go now is lost,
/// as on UDP: the greeting and GGRS send again); receiving never waits.
pub trait Link: Send + Sync {
    /// Sends `bytes` to `to`; whether it went out.
    fn send(&self, to: PeerAddr, bytes: &[u8]) -> bool;
    /// Sends `bytes` to `to` so that they arrive, in order with what else was sent this way
    /// (a room's reliable data channel); whether the link took them. A UDP link cannot.
    fn send_reliable(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        let _ = (to, bytes);
        false
    }
    /// The next datagram that has arrived (either way), if any.
    fn receive(&self) -> Option<(PeerAddr, Vec<u8>)>;
    /// The peers this link knows are there before they say anything (a room's other
    /// members): the greeting greets them first. A UDP link knows nobody.
    fn present(&self) -> Vec<PeerAddr> {
        Vec::new()
    }
    /// Peers that were present and have gone (a room member whose connection closed).
    fn gone(&self) -> Vec<PeerAddr> {
        Vec::new()
    }
    /// Whether `to` is reached through a relay (a room's TURN server): `Some(false)` when
    /// directly, `None` while unknown or on a link that cannot tell (UDP is always direct).
    fn relayed(&self, to: PeerAddr) -> Option<bool> {
        let _ = to;
        None
    }
}

/// Largest UDP datagram read (GGRS keeps its own well under it).
const RECEIVE_BYTES: usize = 4096;

/// A non-blocking UDP socket as a [`Link`].
#[derive(Debug)]
pub struct UdpLink {
    socket: UdpSocket,
}

impl UdpLink {
    /// Wraps `socket`, making it non-blocking.
    pub fn new(socket: UdpSocket) -> std::io::Result<UdpLink> {
        socket.set_nonblocking(true)?;
        Ok(UdpLink { socket })
    }
}

impl Link for UdpLink {
    fn send(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        match to {
            PeerAddr::Udp(addr) => self.socket.send_to(bytes, addr).is_ok(),
            PeerAddr::Room(_) => false,
        }
    }

    fn receive(&self) -> Option<(PeerAddr, Vec<u8>)> {
        let mut buffer = [0u8; RECEIVE_BYTES];
        // Errors (a peer's port closed, on loopback) are as good as nothing received.
        for _ in 0..16 {
            match self.socket.recv_from(&mut buffer) {
                Ok((len, from)) => return Some((PeerAddr::Udp(from), buffer[..len].to_vec())),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return None,
                Err(_) => continue,
            }
        }
        None
    }
}
