//! The greeting before a match. Every peer sends each other peer a [`Hello`] — the build,
//! the cart's name and digest, the number of players and its own player number — every
//! [`RESEND`] until it has that peer's greeting saying it has seen ours.
//!
//! - A greeting that does not fit (another build, other cart files, another player count, a
//!   player number other than the one expected at that address) is refused: a `KRNO`
//!   datagram tells the other side why, a `KRBY` tells the remaining peers that the match is
//!   off, and every side stops with one line.
//! - A seat not given to an address (a host waiting for whoever joins; every seat of a room)
//!   is open ([`ANYONE`]): it goes only to a joiner with that seat's player number that
//!   *completes* the greeting (its greeting fits and says it has seen ours). Until then a
//!   joiner is a candidate; one that goes quiet for [`CANDIDATE_EXPIRY`] is forgotten. A
//!   joiner that does not fit is refused and the others go on waiting; anything that is not a
//!   well-formed greeting gets no answer at all (a stranger learns nothing of the match).
//! - A room with a password ([`Secret`]): each greeting carries a random number, and the
//!   greeting a peer sends back carries an HMAC-SHA-256 of the password over both numbers. A
//!   joiner without the right one is refused before GGRS starts, so it never sees a word of
//!   the game; a proof is good for one peer's number only, so replaying one gets nowhere.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::NetError;
use super::link::{Link, PeerAddr};
use super::socket::{TAG_CALL_OFF, TAG_HELLO, TAG_REBUILD, TAG_REFUSE, datagram};

/// The address of a peer not known yet (an open seat).
pub const ANYONE: PeerAddr = PeerAddr::Udp(std::net::SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    0,
)));

/// The player number a spectator's greeting gives: it watches, taking no seat.
pub const SPECTATOR: u8 = u8::MAX;

/// The refusal a peer without a room's password gets.
pub const WRONG_PASSWORD: &str = "wrong room password";

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
    /// A random number of this meeting, which proofs of a room's password answer.
    pub nonce: u64,
    /// In a room with a password: the proof of it for the receiver's number (once the
    /// sender has heard the receiver).
    pub proof: Option<[u8; 32]>,
    /// The number of the match's GGRS session it greets for (0 at first; one more after a
    /// rematch or a rejoin), and the vblank its game stands at (0: a fresh game; more: a
    /// player of a running match waiting for another to come back).
    pub epoch: u32,
    pub frame: u64,
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

    /// Why `theirs`, a spectator's greeting, cannot watch this match, if it cannot.
    pub(crate) fn watch_mismatch(&self, theirs: &Hello) -> Option<String> {
        let as_player = Hello {
            player: self.player,
            ..theirs.clone()
        };
        // The player number is the one thing a spectator's greeting does not share.
        self.mismatch(&as_player, self.player)
    }

    /// Why `theirs`, from the peer expected to be player `expected`, cannot join this
    /// match, if it cannot.
    pub(crate) fn mismatch(&self, theirs: &Hello, expected: u8) -> Option<String> {
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

/// A room's password and name, which a proof is made from.
#[derive(Clone)]
pub struct Secret {
    pub room: String,
    pub password: String,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secret")
            .field("room", &self.room)
            .finish_non_exhaustive()
    }
}

impl Secret {
    /// The proof, from the peer whose number is `prover`, of knowing the password, for the
    /// peer whose number is `verifier`.
    pub fn proof(&self, verifier: u64, prover: u64) -> [u8; 32] {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.password.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(b"kairo room password\0");
        mac.update(&(self.room.len() as u64).to_le_bytes());
        mac.update(self.room.as_bytes());
        mac.update(&verifier.to_le_bytes());
        mac.update(&prover.to_le_bytes());
        mac.finalize().into_bytes().into()
    }

    /// Whether `proof` proves the password, from `prover` to `verifier` (in constant time).
    pub(crate) fn verifies(&self, proof: &[u8; 32], verifier: u64, prover: u64) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.password.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(b"kairo room password\0");
        mac.update(&(self.room.len() as u64).to_le_bytes());
        mac.update(self.room.as_bytes());
        mac.update(&verifier.to_le_bytes());
        mac.update(&prover.to_le_bytes());
        mac.verify_slice(proof).is_ok()
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
    /// Where the player is ([`ANYONE`] while the seat is open).
    addr: PeerAddr,
    /// Its player number, 0-based.
    player: u8,
    /// Whether the seat was open (it opens again when its peer leaves the room before the
    /// greeting is done).
    open: bool,
    /// Whether its greeting has come.
    heard: bool,
    /// Whether its greeting says it has had ours.
    answered: bool,
    /// The session number and vblank its greeting gave.
    said: (u32, u64),
}

/// A would-be joiner of an open seat whose greeting fits, not yet complete.
#[derive(Debug)]
struct Candidate {
    addr: PeerAddr,
    player: u8,
    last_heard: Instant,
}

/// Names a player for notes: `player 2 (127.0.0.1:7001)`.
pub(crate) fn player_at(player: usize, addr: PeerAddr) -> String {
    format!("player {} ({addr})", player + 1)
}

/// One greeting in progress.
pub(crate) struct Greeter {
    link: Arc<dyn Link>,
    me: Hello,
    secret: Option<Secret>,
    seats: Vec<Seat>,
    candidates: Vec<Candidate>,
    /// The random numbers and player numbers of the peers heard from (for the proofs sent
    /// to them, and to know player 1's refusal).
    nonces: Vec<(PeerAddr, u64, u8)>,
    /// The last joiner of an open seat refused, and why (for the note if nobody joins).
    refused: Option<String>,
    /// Messages of a match being rebuilt (`KRR...`) that came during the greeting, for the
    /// caller.
    stash: Vec<(PeerAddr, Vec<u8>)>,
    /// When the greeting began, and how long it may take.
    start: Instant,
    timeout: Duration,
    /// When the greetings were last sent.
    last_sent: Option<Instant>,
}

impl Greeter {
    fn send(&self, addr: PeerAddr, bytes: &[u8]) {
        // A peer not yet listening refuses the datagram (on loopback): the resend tries again.
        let _ = self.link.send(addr, bytes);
    }

    /// Our greeting for `to`: with the proof of the password once its number is known.
    fn hello(&self, to: PeerAddr, seen: bool) -> Vec<u8> {
        let theirs = self
            .nonces
            .iter()
            .find(|(a, ..)| *a == to)
            .map(|&(_, n, _)| n);
        let proof = match (&self.secret, theirs) {
            (Some(secret), Some(theirs)) => Some(secret.proof(theirs, self.me.nonce)),
            _ => None,
        };
        Hello {
            seen,
            proof,
            ..self.me.clone()
        }
        .datagram()
    }

    fn open(&self) -> bool {
        self.seats.iter().any(|s| s.addr == ANYONE)
    }

    /// Greets every seat that has an address, every candidate, and (while a seat is open)
    /// every peer the link knows of that is neither.
    fn greet_all(&self) {
        for seat in self.seats.iter().filter(|s| s.addr != ANYONE) {
            self.send(seat.addr, &self.hello(seat.addr, seat.heard));
        }
        for candidate in &self.candidates {
            self.send(candidate.addr, &self.hello(candidate.addr, true));
        }
        if self.open() {
            for addr in self.link.present() {
                let known = self.seats.iter().any(|s| s.addr == addr)
                    || self.candidates.iter().any(|c| c.addr == addr);
                if !known {
                    self.send(addr, &self.hello(addr, false));
                }
            }
        }
    }

    /// Tells `addr` why it cannot join (three times, against loss).
    fn refuse(&self, addr: PeerAddr, why: &str) {
        for _ in 0..3 {
            self.send(addr, &datagram(TAG_REFUSE, why.as_bytes()));
        }
    }

    /// Tells every seat with an address, but `except`, that the match is off and why: at
    /// once, then for [`CALL_OFF_LINGER`] every [`RESEND`] and in answer to anything they
    /// send (a peer that started late hears it when it first greets).
    fn call_off(&self, except: Option<PeerAddr>, why: &str) {
        let told: Vec<PeerAddr> = self
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
        while start.elapsed() < CALL_OFF_LINGER {
            if last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
                for &addr in &told {
                    self.send(addr, &notice);
                }
                last_sent = Some(Instant::now());
            }
            match self.link.receive() {
                Some((from, _)) if told.contains(&from) => self.send(from, &notice),
                Some(_) => {}
                None => std::thread::sleep(POLL),
            }
        }
    }

    fn done(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.addr != ANYONE && s.heard && s.answered)
    }

    /// Remembers the random number and player number in a greeting from `from`.
    fn note_nonce(&mut self, from: PeerAddr, theirs: &Hello) {
        match self.nonces.iter_mut().find(|(a, ..)| *a == from) {
            Some(entry) => *entry = (from, theirs.nonce, theirs.player),
            None => self.nonces.push((from, theirs.nonce, theirs.player)),
        }
    }

    /// Whether a greeting from a peer that has had ours proves the room's password (always,
    /// in a match without one).
    fn proven(&self, theirs: &Hello) -> bool {
        match &self.secret {
            None => true,
            Some(_) if !theirs.seen => true,
            Some(secret) => theirs
                .proof
                .is_some_and(|proof| secret.verifies(&proof, self.me.nonce, theirs.nonce)),
        }
    }

    /// Takes one datagram from `from`.
    fn take(&mut self, from: PeerAddr, said: Said) -> Result<(), NetError> {
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
                self.note_nonce(from, &theirs);
                let reason = if self.proven(&theirs) {
                    self.me.mismatch(&theirs, self.seats[i].player)
                } else {
                    Some(WRONG_PASSWORD.to_string())
                };
                if let Some(reason) = reason {
                    let why = theirs
                        .mismatch(&self.me, self.me.player)
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
                seat.said = (theirs.epoch, theirs.frame);
                if !theirs.seen {
                    self.send(from, &self.hello(from, true));
                }
                Ok(())
            }
        }
    }

    /// A datagram from an address that has no seat: a would-be joiner of an open seat, or
    /// nobody this match knows (ignored).
    fn take_from_stranger(&mut self, from: PeerAddr, said: Said) -> Result<(), NetError> {
        let Some(first_open) = self.seats.iter().position(|s| s.addr == ANYONE) else {
            return Ok(());
        };
        let said_by_player_1 = self
            .nonces
            .iter()
            .any(|&(a, _, player)| a == from && player == 0);
        let theirs = match said {
            Said::Hello(theirs) => theirs,
            // In a room, player 1's refusal is final: its match is the one to join.
            Said::Refused(reason) if said_by_player_1 && self.me.player != 0 => {
                return Err(NetError::RefusedBy { peer: from, reason });
            }
            // A joiner that refused this peer (or called its attempt off) is forgotten.
            _ => {
                self.candidates.retain(|c| c.addr != from);
                return Ok(());
            }
        };
        if theirs.player == SPECTATOR {
            // Player 1 answers spectators once the match runs.
            return Ok(());
        }
        self.note_nonce(from, &theirs);
        // The open seat of its player number, or (to say why not) the first open one.
        let open = self
            .seats
            .iter()
            .position(|s| s.addr == ANYONE && s.player == theirs.player)
            .unwrap_or(first_open);
        let taken = self
            .seats
            .iter()
            .find(|s| s.player == theirs.player && s.addr != ANYONE);
        let reason = if !self.proven(&theirs) {
            Some(WRONG_PASSWORD.to_string())
        } else if let Some(seat) = taken.filter(|_| theirs.players == self.me.players) {
            Some(format!(
                "player {} is already {}",
                seat.player + 1,
                seat.addr
            ))
        } else if theirs.player == self.me.player && theirs.players == self.me.players {
            Some(format!("this peer is player {} itself", self.me.player + 1))
        } else {
            self.me.mismatch(&theirs, self.seats[open].player)
        };
        if let Some(reason) = reason {
            let why = if reason == WRONG_PASSWORD {
                reason.clone()
            } else {
                theirs
                    .mismatch(&self.me, self.me.player)
                    .unwrap_or_else(|| reason.clone())
            };
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
                    player: theirs.player,
                    last_heard: Instant::now(),
                }),
            }
            self.send(from, &self.hello(from, true));
            return Ok(());
        }
        // It has had our greeting and we have its: it takes the seat, and the other
        // candidates for that seat are told the match has started without them.
        let seat = &mut self.seats[open];
        seat.addr = from;
        seat.heard = true;
        seat.answered = true;
        seat.said = (theirs.epoch, theirs.frame);
        let player = seat.player;
        let (others, kept) = std::mem::take(&mut self.candidates)
            .into_iter()
            .partition(|c| c.player == player && c.addr != from);
        self.candidates = kept;
        self.candidates.retain(|c| c.addr != from);
        for other in others {
            self.refuse(
                other.addr,
                &format!("this match has started with another player {}", player + 1),
            );
        }
        Ok(())
    }

    /// Opens again the seats whose peers the link says have gone (a room member that left
    /// before the greeting was done), and forgets such candidates.
    fn forget_gone(&mut self) {
        let gone = self.link.gone();
        if gone.is_empty() {
            return;
        }
        for seat in self.seats.iter_mut().filter(|s| s.open) {
            if gone.contains(&seat.addr) {
                seat.addr = ANYONE;
                seat.heard = false;
                seat.answered = false;
            }
        }
        self.candidates.retain(|c| !gone.contains(&c.addr));
    }

    /// The error at the end of `timeout` with the greeting not done.
    fn timed_out(&self, timeout: Duration) -> NetError {
        let seconds = timeout.as_secs();
        if self.open() {
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

/// How long the greeting sleeps when nothing has arrived.
const POLL: Duration = Duration::from_millis(2);

impl Greeter {
    /// A greeting of every peer in `peers` (address and the player expected there) over
    /// `link`, for at most `timeout`. `me` is this peer's greeting, `secret` the room's
    /// password if it has one. A peer whose address is [`ANYONE`] is an open seat: its
    /// address is filled in with the first joiner of its player number that completes the
    /// greeting.
    pub(crate) fn new(
        link: Arc<dyn Link>,
        me: Hello,
        secret: Option<Secret>,
        peers: &[(PeerAddr, u8)],
        timeout: Duration,
    ) -> Greeter {
        Greeter {
            link,
            me,
            secret,
            seats: peers
                .iter()
                .map(|&(addr, player)| Seat {
                    addr,
                    player,
                    open: addr == ANYONE,
                    heard: false,
                    answered: false,
                    said: (0, 0),
                })
                .collect(),
            candidates: Vec::new(),
            nonces: Vec::new(),
            refused: None,
            stash: Vec::new(),
            start: Instant::now(),
            timeout,
            last_sent: None,
        }
    }

    /// One round, never waiting: greets again when due and takes every datagram that has
    /// arrived. `Ok(true)` once every seat has answered.
    pub(crate) fn poll(&mut self) -> Result<bool, NetError> {
        if self.last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
            self.forget_gone();
            self.candidates
                .retain(|c| c.last_heard.elapsed() < CANDIDATE_EXPIRY);
            self.greet_all();
            self.last_sent = Some(Instant::now());
        }
        while !self.done() {
            let Some((from, bytes)) = self.link.receive() else {
                break;
            };
            if bytes.starts_with(TAG_REBUILD) {
                self.stash.push((from, bytes));
            } else if let Some(said) = Said::read(&bytes) {
                self.take(from, said)?;
            }
        }
        if self.done() {
            // Say once more that we have heard everyone, for a peer that missed it (the
            // match's socket answers a greeting that has not seen ours).
            self.greet_all();
            return Ok(true);
        }
        if self.start.elapsed() >= self.timeout {
            return Err(self.timed_out(self.timeout));
        }
        Ok(false)
    }

    /// Each seat's player number, and the session number and vblank its greeting gave.
    pub(crate) fn said(&self) -> Vec<(PeerAddr, u8, u32, u64)> {
        self.seats
            .iter()
            .map(|s| (s.addr, s.player, s.said.0, s.said.1))
            .collect()
    }

    /// The session number this greeting greets for.
    pub(crate) fn hello_epoch(&self) -> u32 {
        self.me.epoch
    }

    /// The messages of a match being rebuilt that came during the greeting.
    pub(crate) fn take_stash(&mut self) -> Vec<(PeerAddr, Vec<u8>)> {
        std::mem::take(&mut self.stash)
    }

    /// The peers met, in the order given (open seats filled in), and the greeting to answer
    /// each with during the match (ours, saying we have seen theirs).
    pub(crate) fn met(&self) -> (Vec<PeerAddr>, Vec<(PeerAddr, Vec<u8>)>) {
        let peers = self.seats.iter().map(|s| s.addr).collect();
        let hellos = self
            .seats
            .iter()
            .map(|s| (s.addr, self.hello(s.addr, true)))
            .collect();
        (peers, hellos)
    }
}

/// Greets every peer in `peers` over `link` (see [`Greeter::new`]) until each has answered,
/// for at most `timeout`; setting `cancel` stops it. Fills in the open seats' addresses and
/// gives the greeting to answer each peer with during the match.
pub(crate) fn greet(
    link: Arc<dyn Link>,
    me: &Hello,
    secret: Option<&Secret>,
    peers: &mut [(PeerAddr, u8)],
    timeout: Duration,
    cancel: &AtomicBool,
) -> Result<Vec<(PeerAddr, Vec<u8>)>, NetError> {
    let mut greeter = Greeter::new(link, me.clone(), secret.cloned(), peers, timeout);
    loop {
        if greeter.poll()? {
            let (met, hellos) = greeter.met();
            for (peer, addr) in peers.iter_mut().zip(met) {
                peer.0 = addr;
            }
            return Ok(hellos);
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(NetError::Cancelled);
        }
        std::thread::sleep(POLL);
    }
}
