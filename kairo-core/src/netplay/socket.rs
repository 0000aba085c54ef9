//! The socket GGRS talks through, over a [`Link`] (UDP or a room's data channels). Each
//! datagram starts with a four-byte tag: `KRGG` for GGRS's messages (the session's number in
//! the match, then the message postcard-encoded); `KRHI`, `KRNO` and `KRBY` for the greeting
//! before the match ([`super::handshake`]).
//!
//! Once the match runs, a greeting is answered only when it comes from a peer of the match
//! and says it has not had ours yet (that peer missed our last one and cannot start without
//! it); an answer says it has, so greetings never bounce back and forth. A `KRBY` from a
//! peer (it called the match off) is kept for the match to report. Anything else, and
//! anything from an address outside the match, is dropped unanswered.

use std::sync::{Arc, Mutex, MutexGuard};

use ggrs::{Message, NonBlockingSocket};

use super::handshake::{Hello, SPECTATOR};
use super::link::{Link, PeerAddr};

/// GGRS's messages.
pub(crate) const TAG_GGRS: &[u8; 4] = b"KRGG";
/// A greeting.
pub(crate) const TAG_HELLO: &[u8; 4] = b"KRHI";
/// A refusal of the peer it is sent to, with the reason.
pub(crate) const TAG_REFUSE: &[u8; 4] = b"KRNO";
/// The match is off (a peer refused another, or gave up on one), with the reason.
pub(crate) const TAG_CALL_OFF: &[u8; 4] = b"KRBY";
/// The start of the tags of a match being rebuilt: a rematch, a rejoiner's state
/// ([`super::stepped`]).
pub(crate) const TAG_REBUILD: &[u8; 3] = b"KRR";
/// Confirmed frames for a spectator ([`super::spectate`]).
pub(crate) const TAG_WATCH_FRAMES: &[u8; 4] = b"KRSW";
/// The match a spectator watches has ended, with the reason.
pub(crate) const TAG_WATCH_END: &[u8; 4] = b"KRSE";

/// Traffic counts, for the status line, the docs' figures and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Datagrams and bytes (payload) sent.
    pub sent: u64,
    pub sent_bytes: u64,
    /// Datagrams and bytes received from the match's peers.
    pub received: u64,
    pub received_bytes: u64,
    /// Greetings answered during the match.
    pub greetings_answered: u64,
    /// Datagrams dropped: from outside the match, or not understood.
    pub dropped: u64,
}

/// What the socket tells the match while GGRS owns it.
#[derive(Clone, Debug, Default)]
pub struct SocketReport {
    pub traffic: Traffic,
    /// A peer that called the match off, and why.
    pub(crate) called_off: Option<(PeerAddr, String)>,
    /// Greetings of would-be spectators (from outside the match), for the match to answer.
    pub(crate) watchers_asking: Vec<(PeerAddr, Hello)>,
    /// Messages of a match being rebuilt (a rematch, a rejoiner's state) from its peers.
    pub(crate) rebuild: Vec<(PeerAddr, Vec<u8>)>,
    /// A peer of the match greeting for a later session (it is rebuilding the match).
    pub(crate) greeted_later: Option<PeerAddr>,
}

/// The match's handle on a [`SocketReport`].
pub(crate) type SharedReport = Arc<Mutex<SocketReport>>;

/// The report behind `shared` (a poisoned lock still holds counts worth reading).
pub fn report(shared: &SharedReport) -> MutexGuard<'_, SocketReport> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// A link carrying GGRS's messages.
pub(crate) struct NetSocket {
    link: Arc<dyn Link>,
    /// The peers of the match.
    peers: Vec<PeerAddr>,
    /// The greeting to answer a late one with, by peer (ours, saying we have seen theirs).
    hellos: Vec<(PeerAddr, Vec<u8>)>,
    report: SharedReport,
    /// The match's GGRS session this socket carries (its low byte follows the tag): a
    /// message of another is dropped.
    epoch: u32,
}

impl NetSocket {
    /// Wraps `link` (already greeted through) for GGRS, for a match with `peers`; what it
    /// sees goes to `report`.
    pub fn new(
        link: Arc<dyn Link>,
        peers: Vec<PeerAddr>,
        hellos: Vec<(PeerAddr, Vec<u8>)>,
        report: SharedReport,
        epoch: u32,
    ) -> NetSocket {
        NetSocket {
            link,
            peers,
            hellos,
            report,
            epoch,
        }
    }

    fn send(&self, bytes: &[u8], addr: PeerAddr) {
        // A datagram that cannot go out now is as good as lost: GGRS sends again.
        if self.link.send(addr, bytes) {
            let traffic = &mut report(&self.report).traffic;
            traffic.sent += 1;
            traffic.sent_bytes += bytes.len() as u64;
        }
    }
}

/// `tag` followed by `body`.
pub(crate) fn datagram(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + body.len());
    bytes.extend_from_slice(tag);
    bytes.extend_from_slice(body);
    bytes
}

impl NonBlockingSocket<PeerAddr> for NetSocket {
    fn send_to(&mut self, msg: &Message, addr: &PeerAddr) {
        let mut body = vec![self.epoch as u8];
        let Ok(body) = postcard::to_extend(msg, std::mem::take(&mut body)) else {
            return;
        };
        self.send(&datagram(TAG_GGRS, &body), *addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(PeerAddr, Message)> {
        let mut messages = Vec::new();
        let mut answer = Vec::new();
        let mut seen = SocketReport::default();
        while let Some((from, bytes)) = self.link.receive() {
            let len = bytes.len();
            let bytes = bytes.as_slice();
            let traffic = &mut seen.traffic;
            if !self.peers.contains(&from) {
                match Hello::parse_datagram(bytes) {
                    Some(hello) if hello.player == SPECTATOR => {
                        seen.watchers_asking.push((from, hello));
                    }
                    _ => traffic.dropped += 1,
                }
                continue;
            }
            traffic.received += 1;
            traffic.received_bytes += len as u64;
            if let Some(body) = bytes.strip_prefix(TAG_GGRS) {
                match body.split_first() {
                    Some((&epoch, body)) if epoch == self.epoch as u8 => {
                        match postcard::from_bytes(body) {
                            Ok(message) => messages.push((from, message)),
                            Err(_) => traffic.dropped += 1,
                        }
                    }
                    // Another session's message, or none.
                    _ => traffic.dropped += 1,
                }
            } else if let Some(reason) = bytes.strip_prefix(TAG_CALL_OFF) {
                let reason = String::from_utf8_lossy(reason).into_owned();
                seen.called_off.get_or_insert((from, reason));
            } else if bytes.starts_with(TAG_REBUILD) {
                seen.rebuild.push((from, bytes.to_vec()));
            } else if let Some(hello) = Hello::parse_datagram(bytes) {
                if hello.epoch > self.epoch {
                    seen.greeted_later.get_or_insert(from);
                } else if !hello.seen {
                    answer.push(from);
                }
            } else {
                traffic.dropped += 1;
            }
        }
        for &from in &answer {
            if let Some((_, hello)) = self.hellos.iter().find(|(addr, _)| *addr == from) {
                self.send(hello, from);
            }
        }
        let mut shared = report(&self.report);
        let traffic = &mut shared.traffic;
        traffic.received += seen.traffic.received;
        traffic.received_bytes += seen.traffic.received_bytes;
        traffic.dropped += seen.traffic.dropped;
        traffic.greetings_answered += answer.len() as u64;
        if shared.called_off.is_none() {
            shared.called_off = seen.called_off;
        }
        shared.watchers_asking.append(&mut seen.watchers_asking);
        shared.rebuild.append(&mut seen.rebuild);
        if shared.greeted_later.is_none() {
            shared.greeted_later = seen.greeted_later;
        }
        messages
    }
}
