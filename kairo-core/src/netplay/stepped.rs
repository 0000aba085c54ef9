//! A room's match driven one host frame at a time by a caller that owns the transport: the
//! web page, whose JavaScript speaks to the lobby server and holds the WebRTC data channels,
//! and calls [`SteppedMatch::tick`] once per 1/60 s. Nothing here waits: the greeting,
//! GGRS's synchronization, the match and a spectator's stream each advance by one round per
//! tick, so the page's event loop (which delivers the messages) keeps running.
//!
//! The caller moves messages through a [`QueueLink`]: what arrived goes in with
//! [`QueueLink::received`], what to send comes out of [`QueueLink::take_outgoing`], and the
//! room's members come and go with [`QueueLink::peer_present`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::handshake::{ANYONE, Greeter, Hello, Secret};
use super::link::{Link, PeerAddr};
use super::play::{NetMatch, NetOptions, RoomOptions};
use super::spectate::{Watch, WatchGreeter};
use super::{INPUT_DELAY, NetError};
use crate::cart::Cart;
use crate::hash::frame_hash_hex;
use crate::input::ButtonWord;
use crate::savestate::cart_digest;
use crate::session::Session;

/// A message to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub peer: u128,
    /// On the reliable, ordered channel (a spectator's stream); else the unreliable one.
    pub reliable: bool,
    pub bytes: Vec<u8>,
}

#[derive(Default)]
struct Queues {
    incoming: VecDeque<(PeerAddr, Vec<u8>)>,
    outgoing: Vec<Outgoing>,
    present: Vec<u128>,
    gone: Vec<u128>,
}

/// A [`Link`] whose transport is the caller's.
#[derive(Default)]
pub struct QueueLink {
    queues: Mutex<Queues>,
}

/// Most messages held for the caller to send (a caller that stopped taking them loses the
/// oldest, as a full socket would).
const MAX_OUTGOING: usize = 4096;
/// Most messages held received and not yet read.
const MAX_INCOMING: usize = 4096;

impl QueueLink {
    pub fn new() -> Arc<QueueLink> {
        Arc::default()
    }

    fn queues(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A message arrived from `peer` (on either channel).
    pub fn received(&self, peer: u128, bytes: Vec<u8>) {
        let mut queues = self.queues();
        if queues.incoming.len() >= MAX_INCOMING {
            queues.incoming.pop_front();
        }
        queues.incoming.push_back((PeerAddr::Room(peer), bytes));
    }

    /// `peer`'s data channels opened (`true`), or it left the room or its channels closed.
    pub fn peer_present(&self, peer: u128, present: bool) {
        let mut queues = self.queues();
        queues.present.retain(|&p| p != peer);
        queues.gone.retain(|&p| p != peer);
        if present {
            queues.present.push(peer);
        } else {
            queues.gone.push(peer);
        }
    }

    /// What to send now.
    pub fn take_outgoing(&self) -> Vec<Outgoing> {
        std::mem::take(&mut self.queues().outgoing)
    }

    fn push(&self, to: PeerAddr, reliable: bool, bytes: &[u8]) -> bool {
        let PeerAddr::Room(peer) = to else {
            return false;
        };
        let mut queues = self.queues();
        if !queues.present.contains(&peer) {
            return false;
        }
        if queues.outgoing.len() >= MAX_OUTGOING {
            queues.outgoing.remove(0);
        }
        queues.outgoing.push(Outgoing {
            peer,
            reliable,
            bytes: bytes.to_vec(),
        });
        true
    }
}

impl Link for QueueLink {
    fn send(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.push(to, false, bytes)
    }

    fn send_reliable(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.push(to, true, bytes)
    }

    fn receive(&self) -> Option<(PeerAddr, Vec<u8>)> {
        self.queues().incoming.pop_front()
    }

    fn present(&self) -> Vec<PeerAddr> {
        self.queues()
            .present
            .iter()
            .map(|&p| PeerAddr::Room(p))
            .collect()
    }

    fn gone(&self) -> Vec<PeerAddr> {
        self.queues()
            .gone
            .iter()
            .map(|&p| PeerAddr::Room(p))
            .collect()
    }
}

/// Who plays, in which room.
#[derive(Clone, Debug)]
pub struct SteppedSetup {
    pub room: String,
    pub password: Option<String>,
    /// Players in the match (2 to 4).
    pub players: usize,
    /// This peer's player number, 0-based; `None` to watch.
    pub player: Option<usize>,
    /// Frames a local press waits.
    pub input_delay: usize,
}

impl SteppedSetup {
    /// Player `player` (0-based) of a match of `players` in `room`, with the default delay.
    pub fn player(room: &str, players: usize, player: usize) -> SteppedSetup {
        SteppedSetup {
            room: room.to_string(),
            password: None,
            players,
            player: Some(player),
            input_delay: INPUT_DELAY,
        }
    }
}

/// Where a stepped match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SteppedState {
    /// Meeting the peers (the greeting, then GGRS's synchronization).
    Meeting,
    /// In the match.
    Playing,
    /// Watching the match.
    Watching,
}

enum Phase {
    Greeting(Box<Greeter>),
    Synchronizing(Box<NetMatch>),
    Playing(Box<NetMatch>),
    WatchGreeting(Box<WatchGreeter>),
    Watching(Box<Watch>),
}

/// A room's match (or a spectator's view of one), one host frame at a time.
pub struct SteppedMatch {
    link: Arc<QueueLink>,
    options: NetOptions,
    hello: Hello,
    secret: Option<Secret>,
    /// Where it stands (none once an error ended it).
    phase: Option<Phase>,
    /// The cart's lines of confirmed frames, not yet taken.
    log: Vec<String>,
    /// The frame whose picture's hash is wanted, and the hash once it is confirmed.
    hash_frame: Option<u64>,
    hash: Option<String>,
    /// The hash of the wanted frame's latest play (a guess may be played again).
    played_hash: Option<String>,
}

/// The greeting's time limit: a page waits as long as its player keeps it open.
const STEPPED_GREET_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

impl SteppedMatch {
    /// A match of `cart` in the room of `setup`, over `link`.
    pub fn new(cart: &Cart, link: Arc<QueueLink>, setup: SteppedSetup) -> SteppedMatch {
        let dyn_link: Arc<dyn Link> = link.clone();
        let room = RoomOptions {
            name: setup.room.clone(),
            server: String::new(),
            password: setup.password.clone(),
            // Never called: the caller holds the link.
            connect: Arc::new(|_| Err(NetError::Setup("the caller holds the link".into()))),
        };
        let mut options =
            NetOptions::in_room(room, setup.players, setup.player.unwrap_or_default());
        options.input_delay = setup.input_delay;
        options.greet_timeout = STEPPED_GREET_TIMEOUT;
        let secret = setup.password.clone().map(|password| Secret {
            room: setup.room.clone(),
            password,
        });
        let hello = Hello {
            build: super::build_id(),
            cart: cart.name().to_string(),
            digest: cart_digest(cart),
            players: setup.players as u8,
            player: setup.player.unwrap_or_default() as u8,
            seen: false,
            nonce: super::play::fresh_nonce(),
            proof: None,
        };
        let phase = match setup.player {
            Some(_) => Phase::Greeting(Box::new(greeter(&dyn_link, &hello, &secret, &options))),
            None => Phase::WatchGreeting(Box::new(WatchGreeter::new(
                cart,
                dyn_link,
                &setup.room,
                setup.password.clone(),
                setup.players,
                STEPPED_GREET_TIMEOUT,
            ))),
        };
        SteppedMatch {
            link,
            options,
            hello,
            secret,
            phase: Some(phase),
            log: Vec::new(),
            hash_frame: None,
            hash: None,
            played_hash: None,
        }
    }

    /// Asks for the hash of frame `frame`'s picture, given once the frame is confirmed.
    pub fn hash_of_frame(&mut self, frame: u64) {
        self.hash_frame = Some(frame);
        self.hash = None;
    }

    /// The hash asked for with [`SteppedMatch::hash_of_frame`], once its frame is confirmed
    /// (16 hex digits, as `kairo headless --hash` prints).
    pub fn confirmed_hash(&self) -> Option<String> {
        self.hash.clone()
    }

    /// One host frame (1/60 s): meets the peers, then plays `game` (powered on with empty
    /// save RAM) with `input` as this peer's word, or watches.
    pub fn tick(
        &mut self,
        game: &mut Session,
        input: ButtonWord,
    ) -> Result<SteppedState, NetError> {
        let Some(phase) = self.phase.take() else {
            return Err(NetError::Setup("the match has ended".into()));
        };
        let (phase, state) = self.advance(phase, game, input, self.link.clone())?;
        self.phase = Some(phase);
        Ok(state)
    }

    /// The lines the cart logged in frames now confirmed (or watched), each once.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    fn advance(
        &mut self,
        phase: Phase,
        game: &mut Session,
        input: ButtonWord,
        link: Arc<dyn Link>,
    ) -> Result<(Phase, SteppedState), NetError> {
        Ok(match phase {
            Phase::Greeting(mut greeter) => {
                if !greeter.poll()? {
                    return Ok((Phase::Greeting(greeter), SteppedState::Meeting));
                }
                let (peers, hellos) = greeter.met();
                let mut met = self.options.clone();
                met.peers = peers;
                let net =
                    NetMatch::start(link, hellos, met, self.hello.clone(), self.secret.clone())?;
                (Phase::Synchronizing(Box::new(net)), SteppedState::Meeting)
            }
            Phase::Synchronizing(mut net) => match net.synchronize_step() {
                Ok(true) => (Phase::Playing(net), SteppedState::Playing),
                Ok(false) => (Phase::Synchronizing(net), SteppedState::Meeting),
                // A room's seat opens again when its joiner vanishes before the start.
                Err(NetError::Vanished { .. }) => (
                    Phase::Greeting(Box::new(greeter(
                        &link,
                        &self.hello,
                        &self.secret,
                        &self.options,
                    ))),
                    SteppedState::Meeting,
                ),
                Err(e) => return Err(e),
            },
            Phase::Playing(mut net) => {
                let wanted = self.hash_frame;
                let played_hash = &mut self.played_hash;
                let stepped = net.step(game, input, &mut |game, _| {
                    if Some(game.console().vblanks()) == wanted {
                        *played_hash = Some(frame_hash_hex(&game.console().rgba()));
                    }
                })?;
                if let Some(frame) = wanted
                    && self.hash.is_none()
                    && i64::from(net.confirmed_frame()) >= frame as i64 - 1
                {
                    self.hash = self.played_hash.clone();
                }
                self.log.extend(stepped.log);
                (Phase::Playing(net), SteppedState::Playing)
            }
            Phase::WatchGreeting(mut greeter) => match greeter.poll()? {
                Some(watch) => (Phase::Watching(Box::new(watch)), SteppedState::Watching),
                None => (Phase::WatchGreeting(greeter), SteppedState::Meeting),
            },
            Phase::Watching(mut watch) => {
                let most = match self.hash_frame {
                    Some(frame) => (frame.saturating_sub(game.console().vblanks()) as usize).max(1),
                    None => 600,
                };
                let step = watch.step(game, most.min(600));
                for vblank in step.vblanks {
                    self.log.extend(vblank.log);
                }
                if let Some(frame) = self.hash_frame
                    && self.hash.is_none()
                    && game.console().vblanks() == frame
                {
                    self.hash = Some(frame_hash_hex(&game.console().rgba()));
                }
                if let Some(reason) = watch.ended()
                    && watch.received() <= game.console().vblanks() as usize
                {
                    return Err(NetError::WatchEnded {
                        frame: game.console().vblanks(),
                        reason: reason.to_string(),
                    });
                }
                (Phase::Watching(watch), SteppedState::Watching)
            }
        })
    }

    /// One line on where the match stands, for the page.
    pub fn status_text(&self) -> String {
        let Some(phase) = &self.phase else {
            return "The match has ended".into();
        };
        match phase {
            Phase::Greeting(_) | Phase::Synchronizing(_) => format!(
                "Room {}: waiting for {} players ({} here)",
                self.options.room.as_ref().map_or("", |r| r.name.as_str()),
                self.options.players(),
                self.link.present().len() + 1
            ),
            Phase::Playing(net) => {
                let status = net.status();
                format!(
                    "Player {} · ping {} ms · rollback {} · delay {}",
                    self.options.player + 1,
                    status.ping_ms,
                    status.rollback,
                    status.input_delay
                )
            }
            Phase::WatchGreeting(_) => format!(
                "Room {}: waiting for the match to watch",
                self.options.room.as_ref().map_or("", |r| r.name.as_str())
            ),
            Phase::Watching(watch) => format!("Watching · {} frames received", watch.received()),
        }
    }
}

/// A fresh greeting of the room's other seats.
fn greeter(
    link: &Arc<dyn Link>,
    hello: &Hello,
    secret: &Option<Secret>,
    options: &NetOptions,
) -> Greeter {
    let peers: Vec<(PeerAddr, u8)> = options
        .peer_players()
        .into_iter()
        .map(|(_, p)| (ANYONE, p as u8))
        .collect();
    Greeter::new(
        link.clone(),
        hello.clone(),
        secret.clone(),
        &peers,
        options.greet_timeout,
    )
}
