//! The greeting before a match. Every peer sends each other peer a [`Hello`] — the build,
//! the cart's name and digest, the number of players and its own player number — every
//! [`RESEND`] until it has that peer's greeting saying it has seen ours.
//!
//! - A greeting that does not fit (another build, other cart files, another player count, a
//!   player number other than the one expected at that address) is refused: a `KRNO`
//!   datagram tells the other side why, a `KRBY` tells the remaining peers that the match is
//!   off, and every side stops with one line.
//! - A host waiting for whoever joins (an open seat, [`ANYONE`]) gives the seat only to a
//!   joiner that *completes* the greeting (its greeting fits and says it has seen ours). Until
//!   then a joiner is a candidate; one that goes quiet for [`CANDIDATE_EXPIRY`] is forgotten.
//!   A joiner that does not fit is refused and the host goes on waiting; anything that is not
//!   a well-formed greeting gets no answer at all (a stranger learns nothing of the match).

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::NetError;
use super::socket::{TAG_CALL_OFF, TAG_HELLO, TAG_REFUSE, datagram};

/// The address of a peer not known yet (a host waits for whoever joins).
pub const ANYONE: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    0,
));

/// Time between greetings.
pub(crate) const RESEND: Duration = Duration::from_millis(100);

/// How long a would-be joiner that has not completed the greeting is remembered after its
/// last greeting.
pub(crate) const CANDIDATE_EXPIRY: Duration = Duration::from_secs(2);

/// How long a peer that calls the match off keeps telling the others.
pub(crate) const CALL_OFF_LINGER: Duration = Duration::from_millis(1500);

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
    pub fn datagram(&self) -> Vec<u8> {
        datagram(
            TAG_HELLO,
            &postcard::to_stdvec(self).expect("a greeting serializes"),
        )
    }

    /// The greeting a datagram carries, if it is a well-formed one.
    pub fn parse_datagram(bytes: &[u8]) -> Option<Hello> {
        let body = bytes.strip_prefix(TAG_HELLO)?;
        postcard::from_bytes(body).ok()
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

/// A datagram of the greeting, as read.
enum Said {
    Hello(Hello),
    /// The sender refused this peer, saying why.
    Refused(String),
    /// The sender called the whole match off, saying why.
    CalledOff(String),
}

impl Said {
    fn read(bytes: &[u8]) -> Option<Said> {
        let text = |body: &[u8]| String::from_utf8_lossy(body).into_owned();
        if let Some(body) = bytes.strip_prefix(TAG_REFUSE) {
            return Some(Said::Refused(text(body)));
        }
        if let Some(body) = bytes.strip_prefix(TAG_CALL_OFF) {
            return Some(Said::CalledOff(text(body)));
        }
        Hello::parse_datagram(bytes).map(Said::Hello)
    }
}

/// One other player of the match, as the greeting goes.
#[derive(Debug)]
struct Seat {
    /// Where the player is ([`ANYONE`] while a host's seat is open).
    addr: SocketAddr,
    /// Its player number, 0-based.
    player: u8,
    /// Whether its greeting has come.
    heard: bool,
    /// Whether its greeting says it has had ours.
    answered: bool,
}

/// A would-be joiner of an open seat whose greeting fits, not yet complete.
#[derive(Debug)]
struct Candidate {
    addr: SocketAddr,
    last_heard: Instant,
}

/// Names a player for notes: `player 2 (127.0.0.1:7001)`.
pub(crate) fn player_at(player: usize, addr: SocketAddr) -> String {
    format!("player {} ({addr})", player + 1)
}

/// One greeting in progress.
struct Greeter<'a> {
    socket: &'a UdpSocket,
    me: &'a Hello,
    seats: Vec<Seat>,
    candidates: Vec<Candidate>,
    /// The last joiner of the open seat refused, and why (for the note if nobody joins).
    refused: Option<String>,
}

impl Greeter<'_> {
    fn send(&self, addr: SocketAddr, bytes: &[u8]) {
        // A peer not yet listening refuses the datagram (on loopback): the resend tries again.
        let _ = self.socket.send_to(bytes, addr);
    }

    fn hello(&self, seen: bool) -> Vec<u8> {
        Hello {
            seen,
            ..self.me.clone()
        }
        .datagram()
    }

    /// Greets every seat that has an address, and every candidate.
    fn greet_all(&self) {
        for seat in self.seats.iter().filter(|s| s.addr != ANYONE) {
            self.send(seat.addr, &self.hello(seat.heard));
        }
        for candidate in &self.candidates {
            self.send(candidate.addr, &self.hello(true));
        }
    }

    /// Tells `addr` why it cannot join (three times, against loss).
    fn refuse(&self, addr: SocketAddr, why: &str) {
        for _ in 0..3 {
            self.send(addr, &datagram(TAG_REFUSE, why.as_bytes()));
        }
    }

    /// Tells every seat with an address, but `except`, that the match is off and why: at
    /// once, then for [`CALL_OFF_LINGER`] every [`RESEND`] and in answer to anything they
    /// send (a peer that started late hears it when it first greets).
    fn call_off(&self, except: Option<SocketAddr>, why: &str) {
        let told: Vec<SocketAddr> = self
            .seats
            .iter()
            .map(|s| s.addr)
            .filter(|&a| a != ANYONE && Some(a) != except)
            .collect();
        if told.is_empty() {
            return;
        }
        let notice = datagram(TAG_CALL_OFF, why.as_bytes());
        let start = Instant::now();
        let mut last_sent: Option<Instant> = None;
        let mut buffer = [0u8; 2048];
        while start.elapsed() < CALL_OFF_LINGER {
            if last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
                for &addr in &told {
                    self.send(addr, &notice);
                }
                last_sent = Some(Instant::now());
            }
            if let Ok((_, from)) = self.socket.recv_from(&mut buffer)
                && told.contains(&from)
            {
                self.send(from, &notice);
            }
        }
    }

    fn done(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.addr != ANYONE && s.heard && s.answered)
    }

    /// Takes one datagram from `from`.
    fn take(&mut self, from: SocketAddr, said: Said) -> Result<(), NetError> {
        let Some(i) = self.seats.iter().position(|s| s.addr == from) else {
            return self.take_from_stranger(from, said);
        };
        let player = usize::from(self.seats[i].player);
        match said {
            Said::Refused(reason) => {
                self.call_off(
                    Some(from),
                    &format!(
                        "{} refused player {}: {reason}",
                        player_at(player, from),
                        self.me.player + 1
                    ),
                );
                Err(NetError::RefusedBy { peer: from, reason })
            }
            Said::CalledOff(reason) => {
                // Passed on: a peer may reach this one and not the one that called it off.
                self.call_off(Some(from), &reason);
                Err(NetError::CalledOff { peer: from, reason })
            }
            Said::Hello(theirs) => {
                if let Some(reason) = self.me.mismatch(&theirs, self.seats[i].player) {
                    let why = theirs
                        .mismatch(self.me, self.me.player)
                        .unwrap_or_else(|| reason.clone());
                    self.refuse(from, &why);
                    self.call_off(
                        Some(from),
                        &format!(
                            "player {} refused {}: {reason}",
                            self.me.player + 1,
                            player_at(player, from)
                        ),
                    );
                    return Err(NetError::Refused { peer: from, reason });
                }
                let seat = &mut self.seats[i];
                seat.heard = true;
                seat.answered |= theirs.seen;
                if !theirs.seen {
                    self.send(from, &self.hello(true));
                }
                Ok(())
            }
        }
    }

    /// A datagram from an address that has no seat: a would-be joiner of the open seat, or
    /// nobody this match knows (ignored).
    fn take_from_stranger(&mut self, from: SocketAddr, said: Said) -> Result<(), NetError> {
        let Some(open) = self.seats.iter().position(|s| s.addr == ANYONE) else {
            return Ok(());
        };
        let Said::Hello(theirs) = said else {
            // A joiner that refused this host (or called its attempt off) is forgotten.
            self.candidates.retain(|c| c.addr != from);
            return Ok(());
        };
        if let Some(reason) = self.me.mismatch(&theirs, self.seats[open].player) {
            let why = theirs
                .mismatch(self.me, self.me.player)
                .unwrap_or_else(|| reason.clone());
            self.refuse(from, &why);
            self.candidates.retain(|c| c.addr != from);
            self.refused = Some(format!("refused {from}: {reason}"));
            return Ok(());
        }
        if !theirs.seen {
            // A candidate: remembered while it keeps greeting, answered so it can complete.
            match self.candidates.iter_mut().find(|c| c.addr == from) {
                Some(candidate) => candidate.last_heard = Instant::now(),
                None => self.candidates.push(Candidate {
                    addr: from,
                    last_heard: Instant::now(),
                }),
            }
            self.send(from, &self.hello(true));
            return Ok(());
        }
        // It has had our greeting and we have its: it takes the seat, and the other
        // candidates are told the match has started without them.
        let seat = &mut self.seats[open];
        seat.addr = from;
        seat.heard = true;
        seat.answered = true;
        for other in std::mem::take(&mut self.candidates) {
            if other.addr != from {
                self.refuse(
                    other.addr,
                    "this host's match has started with another player",
                );
            }
        }
        Ok(())
    }

    /// The error at the end of `timeout` with the greeting not done.
    fn timed_out(&self, timeout: Duration) -> NetError {
        let seconds = timeout.as_secs();
        if self.seats.iter().any(|s| s.addr == ANYONE) {
            return NetError::NobodyJoined {
                seconds,
                refused: self.refused.clone(),
            };
        }
        let missing = self
            .seats
            .iter()
            .find(|s| !(s.heard && s.answered))
            .unwrap_or(&self.seats[0]);
        let error = NetError::NoAnswer {
            peer: missing.addr,
            player: usize::from(missing.player),
            seconds,
        };
        self.call_off(Some(missing.addr), &error.to_string());
        error
    }
}

/// Greets every peer in `peers` (address and the player expected there) through `socket`
/// until each has answered, for at most `timeout`. `me` is this peer's greeting. A peer
/// whose address is [`ANYONE`] is an open seat (a host waiting for a joiner): its address is
/// filled in with the first joiner that completes the greeting. Setting `cancel` stops it.
pub(crate) fn greet(
    socket: &UdpSocket,
    me: &Hello,
    peers: &mut [(SocketAddr, u8)],
    timeout: Duration,
    cancel: &AtomicBool,
) -> Result<(), NetError> {
    socket
        .set_read_timeout(Some(Duration::from_millis(10)))
        .map_err(|e| NetError::Setup(format!("cannot set up the UDP socket: {e}")))?;
    let mut greeter = Greeter {
        socket,
        me,
        seats: peers
            .iter()
            .map(|&(addr, player)| Seat {
                addr,
                player,
                heard: false,
                answered: false,
            })
            .collect(),
        candidates: Vec::new(),
        refused: None,
    };
    let start = Instant::now();
    let mut last_sent: Option<Instant> = None;
    let mut buffer = [0u8; 2048];
    loop {
        if last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
            greeter
                .candidates
                .retain(|c| c.last_heard.elapsed() < CANDIDATE_EXPIRY);
            greeter.greet_all();
            last_sent = Some(Instant::now());
        }
        if greeter.done() {
            // Say once more that we have heard everyone, for a peer that missed it (the
            // match's socket answers a greeting that has not seen ours).
            greeter.greet_all();
            for (peer, seat) in peers.iter_mut().zip(&greeter.seats) {
                peer.0 = seat.addr;
            }
            return Ok(());
        }
        if start.elapsed() >= timeout {
            return Err(greeter.timed_out(timeout));
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(NetError::Cancelled);
        }
        let Ok((len, from)) = socket.recv_from(&mut buffer) else {
            continue;
        };
        if let Some(said) = Said::read(&buffer[..len]) {
            greeter.take(from, said)?;
        }
    }
}
