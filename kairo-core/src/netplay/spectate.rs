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
        let secret = room.password.clone().map(|password| Secret {
            room: room.name.clone(),
            password,
        });
        let link: Arc<dyn Link> = Arc::from((room.connect)(cancel)?);
        let me = Hello {
            build: super::build_id(),
            cart: cart.name().to_string(),
            digest: cart_digest(cart),
            players: options.players() as u8,
            player: SPECTATOR,
            seen: false,
            nonce: super::play::fresh_nonce(),
            proof: None,
        };
        let start = Instant::now();
        let mut last_sent: Option<Instant> = None;
        // Player 1, once it greeted back: where it is and its number.
        let mut host: Option<(PeerAddr, u64)> = None;
        let mut watch = None;
        while watch.is_none() {
            if cancel.load(Ordering::Relaxed) {
                return Err(NetError::Cancelled);
            }
            if start.elapsed() >= options.greet_timeout {
                return Err(NetError::NothingToWatch {
                    room: room.name.clone(),
                    seconds: options.greet_timeout.as_secs(),
                });
            }
            if last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
                let hello = |to_nonce: Option<u64>| {
                    Hello {
                        seen: to_nonce.is_some(),
                        proof: secret
                            .as_ref()
                            .zip(to_nonce)
                            .map(|(s, theirs)| s.proof(theirs, me.nonce)),
                        ..me.clone()
                    }
                    .datagram()
                };
                match host {
                    Some((addr, nonce)) => {
                        link.send(addr, &hello(Some(nonce)));
                    }
                    None => {
                        for addr in link.present() {
                            link.send(addr, &hello(None));
                        }
                    }
                }
                last_sent = Some(Instant::now());
            }
            let Some((from, bytes)) = link.receive() else {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            };
            if let Some(reason) = bytes.strip_prefix(TAG_REFUSE) {
                return Err(NetError::RefusedBy {
                    peer: from,
                    reason: String::from_utf8_lossy(reason).into_owned(),
                });
            }
            if let Some(theirs) = Hello::parse_datagram(&bytes)
                && theirs.player == 0
            {
                if let Some(reason) = me.watch_mismatch(&theirs) {
                    return Err(NetError::Refused { peer: from, reason });
                }
                if let Some(secret) = &secret {
                    let proven = theirs
                        .proof
                        .is_some_and(|p| secret.verifies(&p, me.nonce, theirs.nonce));
                    if theirs.seen && !proven {
                        return Err(NetError::Refused {
                            peer: from,
                            reason: WRONG_PASSWORD.into(),
                        });
                    }
                }
                if host.is_none() {
                    host = Some((from, theirs.nonce));
                    last_sent = None;
                }
            }
            if host.is_some_and(|(addr, _)| addr == from) && bytes.starts_with(TAG_WATCH_FRAMES) {
                let mut started = Watch {
                    link: link.clone(),
                    host: from,
                    frames: Vec::new(),
                    ended: None,
                    received_bytes: 0,
                };
                started.take(from, &bytes);
                watch = Some(started);
            }
        }
        Ok(watch.expect("the loop ends with a watch"))
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
