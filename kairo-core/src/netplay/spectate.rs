//! Watching a room's match without playing. A spectator greets the room's members as a
//! player would, with the player number [`SPECTATOR`]; the players ignore it, except
//! player 1, which (once its match runs, and once the spectator fits and has proven the
//! room's password) streams it every confirmed frame's input from frame 0, over the room's
//! reliable data channel. The spectator powers the cart on and plays those frames: it sees
//! exactly the game the players confirmed, a few frames behind them, catching up at full
//! speed when it joined late. It sends no input, so it can neither slow nor change the match.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::NetError;
use super::handshake::{Hello, RESEND, SPECTATOR, Secret, WRONG_PASSWORD};
use super::link::{Link, PeerAddr};
use super::play::NetOptions;
use super::socket::{TAG_REFUSE, TAG_WATCH_END, TAG_WATCH_FRAMES};
use crate::input::InputFrame;
use crate::savestate::cart_digest;
use crate::session::{Session, Vblank};
use crate::spec::PLAYERS;

/// Most spectators player 1 streams to.
pub const MAX_WATCHERS: usize = 8;

/// Frames a spectator stays behind the newest confirmed frame it has (so that a late message
/// does not stall the picture); further behind, it catches up.
pub const WATCH_LAG: usize = 4;

/// Frames of a stream message: the first frame's number, the count and the players, then
/// every word (little-endian), frame by frame.
pub(crate) fn encode_frames(first: usize, players: usize, frames: &[InputFrame]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(7 + frames.len() * players * 2);
    bytes.extend_from_slice(&(first as u32).to_le_bytes());
    bytes.extend_from_slice(&(frames.len() as u16).to_le_bytes());
    bytes.push(players as u8);
    for frame in frames {
        for word in &frame.0[..players] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
    }
    bytes
}

/// The frames in a stream message: the first frame's number and the frames; `None` if it is
/// not well formed.
pub(crate) fn decode_frames(bytes: &[u8]) -> Option<(usize, Vec<InputFrame>)> {
    let first = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
    let count = u16::from_le_bytes(bytes.get(4..6)?.try_into().ok()?) as usize;
    let players = usize::from(*bytes.get(6)?);
    if players == 0 || players > PLAYERS || bytes.len() != 7 + count * players * 2 {
        return None;
    }
    let words = &bytes[7..];
    let frames = (0..count)
        .map(|f| {
            let mut frame = InputFrame([0; PLAYERS]);
            for (p, word) in frame.0[..players].iter_mut().enumerate() {
                let at = (f * players + p) * 2;
                *word = u16::from_le_bytes([words[at], words[at + 1]]);
            }
            frame
        })
        .collect();
    Some((first, frames))
}

/// A spectator of a room's match.
pub struct Watch {
    link: Arc<dyn Link>,
    /// Player 1, which streams the match.
    host: PeerAddr,
    /// Every confirmed frame received, from frame 0.
    frames: Vec<InputFrame>,
    /// Why the match ended, once player 1 said so or left.
    ended: Option<String>,
    received_bytes: u64,
}

/// What one step of watching did.
#[derive(Debug, Default)]
pub struct WatchStep {
    /// Frames played.
    pub played: usize,
    /// What those frames produced, in order.
    pub vblanks: Vec<Vblank>,
}

/// A spectator's greeting in progress: greets the room until player 1 takes it.
pub(crate) struct WatchGreeter {
    link: Arc<dyn Link>,
    me: Hello,
    secret: Option<Secret>,
    room: String,
    /// Player 1, once it greeted back: where it is and its number.
    host: Option<(PeerAddr, u64)>,
    start: Instant,
    timeout: Duration,
    last_sent: Option<Instant>,
}

impl WatchGreeter {
    /// A spectator's greeting for a match of `players` of `cart` in `room`, over `link`.
    pub(crate) fn new(
        cart: &crate::cart::Cart,
        link: Arc<dyn Link>,
        room: &str,
        password: Option<String>,
        players: usize,
        timeout: Duration,
    ) -> WatchGreeter {
        WatchGreeter {
            link,
            me: Hello {
                build: super::build_id(),
                cart: cart.name().to_string(),
                digest: cart_digest(cart),
                players: players as u8,
                player: SPECTATOR,
                seen: false,
                nonce: super::play::fresh_nonce(),
                proof: None,
                epoch: 0,
                frame: 0,
            },
            secret: password.map(|password| Secret {
                room: room.to_string(),
                password,
            }),
            room: room.to_string(),
            host: None,
            start: Instant::now(),
            timeout,
            last_sent: None,
        }
    }

    /// Our greeting, to the peer whose number is `to_nonce` once known.
    fn hello(&self, to_nonce: Option<u64>) -> Vec<u8> {
        Hello {
            seen: to_nonce.is_some(),
            proof: self
                .secret
                .as_ref()
                .zip(to_nonce)
                .map(|(s, theirs)| s.proof(theirs, self.me.nonce)),
            ..self.me.clone()
        }
        .datagram()
    }

    /// One round, never waiting: the watch once player 1 has begun streaming.
    pub(crate) fn poll(&mut self) -> Result<Option<Watch>, NetError> {
        if self.start.elapsed() >= self.timeout {
            return Err(NetError::NothingToWatch {
                room: self.room.clone(),
                seconds: self.timeout.as_secs(),
            });
        }
        if self.last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
            match self.host {
                Some((addr, nonce)) => {
                    self.link.send(addr, &self.hello(Some(nonce)));
                }
                None => {
                    for addr in self.link.present() {
                        self.link.send(addr, &self.hello(None));
                    }
                }
            }
            self.last_sent = Some(Instant::now());
        }
        while let Some((from, bytes)) = self.link.receive() {
            if let Some(reason) = bytes.strip_prefix(TAG_REFUSE) {
                return Err(NetError::RefusedBy {
                    peer: from,
                    reason: String::from_utf8_lossy(reason).into_owned(),
                });
            }
            if let Some(theirs) = Hello::parse_datagram(&bytes)
                && theirs.player == 0
            {
                if let Some(reason) = self.me.watch_mismatch(&theirs) {
                    return Err(NetError::Refused { peer: from, reason });
                }
                if let Some(secret) = &self.secret {
                    let proven = theirs
                        .proof
                        .is_some_and(|p| secret.verifies(&p, self.me.nonce, theirs.nonce));
                    if theirs.seen && !proven {
                        return Err(NetError::Refused {
                            peer: from,
                            reason: WRONG_PASSWORD.into(),
                        });
                    }
                }
                if self.host.is_none() {
                    self.host = Some((from, theirs.nonce));
                    self.last_sent = None;
                }
            }
            if self.host.is_some_and(|(addr, _)| addr == from)
                && bytes.starts_with(TAG_WATCH_FRAMES)
            {
                let mut watch = Watch {
                    link: self.link.clone(),
                    host: from,
                    frames: Vec::new(),
                    ended: None,
                    received_bytes: 0,
                };
                watch.take(from, &bytes);
                return Ok(Some(watch));
            }
        }
        Ok(None)
    }
}

impl Watch {
    /// Joins the room of `options` as a spectator of its match of `cart`: greets the room
    /// until player 1 takes it (at most `options.greet_timeout`).
    pub fn connect(
        cart: &crate::cart::Cart,
        options: &NetOptions,
        cancel: &AtomicBool,
    ) -> Result<Watch, NetError> {
        let Some(room) = &options.room else {
            return Err(NetError::Setup(
                "a spectator watches a room's match: give the room and its lobby server".into(),
            ));
        };
        let link: Arc<dyn Link> = Arc::from((room.connect)(cancel)?);
        let mut greeter = WatchGreeter::new(
            cart,
            link,
            &room.name,
            room.password.clone(),
            options.players(),
            options.greet_timeout,
        );
        loop {
            if let Some(watch) = greeter.poll()? {
                return Ok(watch);
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(NetError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Takes one message from the link.
    fn take(&mut self, from: PeerAddr, bytes: &[u8]) {
        if from != self.host {
            return;
        }
        self.received_bytes += bytes.len() as u64;
        if let Some(body) = bytes.strip_prefix(TAG_WATCH_FRAMES) {
            if let Some((first, frames)) = decode_frames(body)
                && first <= self.frames.len()
            {
                let skip = self.frames.len() - first;
                self.frames.extend(frames.into_iter().skip(skip));
            }
        } else if let Some(reason) = bytes.strip_prefix(TAG_WATCH_END) {
            self.ended
                .get_or_insert_with(|| String::from_utf8_lossy(reason).into_owned());
        }
    }

    /// Takes what arrived, then plays frames on `game` (powered on with empty save RAM when
    /// the watch began): one a step while it keeps [`WATCH_LAG`] behind, up to `most` when
    /// further behind (catching up), and the rest once the match has ended.
    pub fn step(&mut self, game: &mut Session, most: usize) -> WatchStep {
        while let Some((from, bytes)) = self.link.receive() {
            self.take(from, &bytes);
        }
        if self.ended.is_none() && self.link.gone().contains(&self.host) {
            self.ended = Some("player 1 left the room".into());
        }
        let at = game.console().vblanks() as usize;
        let ahead = self.frames.len().saturating_sub(at);
        let play = match ahead {
            0 => 0,
            n if self.ended.is_some() => n.min(most),
            n if n > 2 * WATCH_LAG => (n - WATCH_LAG).min(most),
            n if n > WATCH_LAG => 1,
            _ => 0,
        };
        let mut step = WatchStep::default();
        for frame in &self.frames[at..at + play] {
            step.vblanks.push(game.tick(*frame));
            step.played += 1;
        }
        step
    }

    /// Confirmed frames received so far.
    pub fn received(&self) -> usize {
        self.frames.len()
    }

    /// Why the match ended, once it has (and every frame of it was received).
    pub fn ended(&self) -> Option<&str> {
        self.ended.as_deref()
    }

    /// Bytes of the stream received.
    pub fn received_bytes(&self) -> u64 {
        self.received_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_messages_carry_frames_and_refuse_what_is_not_one() {
        let frames = vec![InputFrame([1, 2, 0, 0]), InputFrame([0x8000, 7, 0, 0])];
        let bytes = encode_frames(300, 2, &frames);
        assert_eq!(decode_frames(&bytes), Some((300, frames)));
        assert_eq!(decode_frames(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode_frames(&[0; 3]), None);
        let mut five_players = bytes.clone();
        five_players[6] = 5;
        assert_eq!(decode_frames(&five_players), None);
    }
}
