//! The greeting before a match. Every peer sends each other peer a [`Hello`] — the build,
//! the cart's name and digest, the number of players and its own player number — every
//! [`RESEND`] until it has that peer's greeting saying it has seen ours. A greeting that
//! does not fit (another build, other cart files, another player count, a player number
//! other than the one this peer expects at that address) is refused: a `KRNO` datagram
//! tells the other side why, and both sides stop with one line.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::NetError;
use super::socket::{TAG_HELLO, TAG_REFUSE, datagram};

/// The address of a peer not known yet (a host waits for whoever joins).
pub const ANYONE: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    0,
));

/// Time between greetings.
pub const RESEND: Duration = Duration::from_millis(100);

/// What a peer says of itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub build: String,
    pub cart: String,
    pub digest: String,
    pub players: u8,
    /// Its player number, 0-based.
    pub player: u8,
    /// Whether it has had the greeting of the peer it sends this to.
    pub seen: bool,
}

impl Hello {
    /// The datagram carrying it.
    pub(crate) fn datagram(&self) -> Vec<u8> {
        datagram(
            TAG_HELLO,
            &postcard::to_stdvec(self).expect("a greeting serializes"),
        )
    }

    /// Why `theirs`, from the peer expected to be player `expected`, cannot join this
    /// match, if it cannot.
    fn mismatch(&self, theirs: &Hello, expected: u8) -> Option<String> {
        if theirs.build != self.build {
            return Some(format!(
                "it runs another build ({}; this is {})",
                theirs.build, self.build
            ));
        }
        if theirs.cart != self.cart {
            return Some(format!(
                "it runs another cart ({}; this is {})",
                theirs.cart, self.cart
            ));
        }
        if theirs.digest != self.digest {
            return Some(format!(
                "it runs other files of {} (cart digests {} and {})",
                self.cart, theirs.digest, self.digest
            ));
        }
        if theirs.players != self.players {
            return Some(format!(
                "it expects {} players; this match has {}",
                theirs.players, self.players
            ));
        }
        if theirs.player != expected {
            return Some(format!(
                "it is player {}; this peer expects player {} there",
                theirs.player + 1,
                expected + 1
            ));
        }
        None
    }
}

/// Greets every peer in `peers` (address and the player expected there) through `socket`
/// until each has answered, for at most `timeout`. `me` is this peer's greeting. A peer
/// whose address is [`ANYONE`] is whoever greets first (a host waiting for a joiner): its
/// address is filled in.
pub(crate) fn greet(
    socket: &UdpSocket,
    me: &Hello,
    peers: &mut [(SocketAddr, u8)],
    timeout: Duration,
) -> Result<(), NetError> {
    socket
        .set_read_timeout(Some(Duration::from_millis(10)))
        .map_err(|e| NetError::Setup(format!("cannot set up the UDP socket: {e}")))?;
    let start = Instant::now();
    let mut heard = vec![false; peers.len()];
    let mut answered = vec![false; peers.len()];
    let mut last_sent: Option<Instant> = None;
    let mut buffer = [0u8; 2048];
    loop {
        if last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
            for (i, (addr, _)) in peers.iter().enumerate() {
                if *addr == ANYONE {
                    continue;
                }
                let hello = Hello {
                    seen: heard[i],
                    ..me.clone()
                };
                // A peer not yet listening refuses the datagram (on loopback): try again.
                let _ = socket.send_to(&hello.datagram(), addr);
            }
            last_sent = Some(Instant::now());
        }
        if answered.iter().all(|&a| a) {
            // Say once more that we have heard everyone, for a peer that missed it (the
            // match's socket answers later greetings too).
            for (addr, _) in peers.iter() {
                let hello = Hello {
                    seen: true,
                    ..me.clone()
                };
                let _ = socket.send_to(&hello.datagram(), addr);
            }
            return Ok(());
        }
        if start.elapsed() >= timeout {
            let (peer, _) = peers[answered.iter().position(|&a| !a).unwrap_or(0)];
            if peer == ANYONE {
                return Err(NetError::NobodyJoined {
                    seconds: timeout.as_secs(),
                });
            }
            return Err(NetError::NoAnswer {
                peer,
                seconds: timeout.as_secs(),
            });
        }
        let Ok((len, from)) = socket.recv_from(&mut buffer) else {
            continue;
        };
        let known = peers.iter().position(|(addr, _)| *addr == from);
        let Some(i) = known.or_else(|| peers.iter().position(|(addr, _)| *addr == ANYONE)) else {
            continue;
        };
        if peers[i].0 == ANYONE {
            if !buffer[..len].starts_with(TAG_HELLO) {
                continue;
            }
            peers[i].0 = from;
        }
        let bytes = &buffer[..len];
        if let Some(reason) = bytes.strip_prefix(TAG_REFUSE) {
            return Err(NetError::RefusedBy {
                peer: from,
                reason: String::from_utf8_lossy(reason).into_owned(),
            });
        }
        let Some(body) = bytes.strip_prefix(TAG_HELLO) else {
            continue;
        };
        let Ok(theirs) = postcard::from_bytes::<Hello>(body) else {
            continue;
        };
        if let Some(reason) = me.mismatch(&theirs, peers[i].1) {
            let why = theirs
                .mismatch(me, me.player)
                .unwrap_or_else(|| reason.clone());
            for _ in 0..3 {
                let _ = socket.send_to(&datagram(TAG_REFUSE, why.as_bytes()), from);
            }
            return Err(NetError::Refused { peer: from, reason });
        }
        heard[i] = true;
        answered[i] |= theirs.seen;
    }
}
