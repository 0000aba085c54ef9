//! A room's match driven one host frame at a time: [`SteppedMatch::tick`] once per 1/60 s.
//! Nothing here waits: the greeting, GGRS's synchronization, the match, a spectator's stream
//! and the rebuilding of a match each advance by one round per tick. The web page drives it
//! (its JavaScript holds the data channels, so its event loop must keep running), and so do
//! the native front ends for rooms.
//!
//! A room's match outlives a player's drop and has rematches:
//! - **A player drops** (GGRS hears nothing from it for 3 s): the others pause ("waiting for
//!   player N", at most [`REJOIN_WAIT`]) and greet the room for the match's next session.
//!   The player comes back (the same player number, a new process), everyone greets again,
//!   and the *anchor* (the lowest-numbered player that was in the match) replays its
//!   confirmed input to a fresh session and sends that session's save state over the
//!   reliable channel. Every other player (the rejoiner too) replays the state, checks that
//!   its machine came out the same, and a new GGRS session starts at that frame.
//! - **A rematch**: a player asks, every player powers the cart on again, and a new GGRS
//!   session starts from frame 0, with the same players.
//!
//! The caller moves messages through a [`QueueLink`]: what arrived goes in with
//! [`QueueLink::received`], what to send comes out of [`QueueLink::take_outgoing`], and the
//! room's members come and go with [`QueueLink::peer_present`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::handshake::{ANYONE, Greeter, Hello, Secret};
use super::link::{Link, PeerAddr};
use super::play::{NetMatch, NetOptions, RoomOptions};
use super::resume::{self, StateAssembly};
use super::rollback::RollbackStats;
use super::socket::{TAG_CALL_OFF, Traffic, datagram};
use super::spectate::{Watch, WatchGreeter};
use super::{INPUT_DELAY, NetError};
use crate::cart::Cart;
use crate::hash::frame_hash_hex;
use crate::input::{ButtonWord, InputFrame};
use crate::saveram::SaveRam;
use crate::savestate::{self, StateImage, cart_digest};
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
    /// A player dropped: waiting for them to come back (the game is paused).
    Paused,
    /// Rebuilding the match at a frame: the state is coming, or being replayed.
    Resuming,
    /// Watching the match.
    Watching,
}

/// How long the players of a match wait for one that dropped to come back.
pub const REJOIN_WAIT: Duration = Duration::from_secs(60);
/// How long a player waits for the anchor's state once everyone is back.
const STATE_WAIT: Duration = REJOIN_WAIT;
/// Frames of a state replayed per tick (a few milliseconds of host time each: the page and
/// the window keep drawing).
const REPLAY_PER_TICK: usize = 600;

/// The peers of the match's last greeting, in player order, and the greeting to answer each
/// with.
#[derive(Clone)]
struct Met {
    peers: Vec<PeerAddr>,
    hellos: Vec<(PeerAddr, Vec<u8>)>,
}

/// A player dropped: the others greet the room for the next session.
struct Paused {
    greeter: Greeter,
    /// Why the match stopped (returned if nobody comes back).
    why: NetError,
    /// This peer's confirmed input, from frame 0.
    confirmed: Vec<InputFrame>,
    /// Messages of the rebuild that came early.
    early: Vec<(PeerAddr, Vec<u8>)>,
}

/// Waiting for the anchor's state.
struct Resuming {
    met: Met,
    anchor: PeerAddr,
    assembly: StateAssembly,
    since: Instant,
}

/// Replaying input to a fresh session, up to the frame the match resumes at.
struct Replaying {
    met: Met,
    epoch: u32,
    scratch: Box<Session>,
    history: Vec<InputFrame>,
    /// The machine the replay must end on (a received state), or none: this peer is the
    /// anchor and sends the state when done.
    check: Option<Vec<u8>>,
}

enum Phase {
    Greeting(Box<Greeter>),
    Synchronizing(Box<NetMatch>),
    Playing(Box<NetMatch>),
    Paused(Box<Paused>),
    Resuming(Box<Resuming>),
    Replaying(Box<Replaying>),
    WatchGreeting(Box<WatchGreeter>),
    Watching(Box<Watch>),
}

/// A room's match (or a spectator's view of one), one host frame at a time.
pub struct SteppedMatch {
    link: Arc<dyn Link>,
    cart: Cart,
    options: NetOptions,
    hello: Hello,
    secret: Option<Secret>,
    /// Where it stands (none once an error ended it).
    phase: Option<Phase>,
    /// The number of the match's current GGRS session.
    epoch: u32,
    /// The last greeting's peers (a rematch starts a session with them).
    met: Option<Met>,
    /// A rematch asked for here, to start at the next tick.
    rematch_asked: bool,
    /// The cart's lines of confirmed frames, not yet taken.
    log: Vec<String>,
    /// The sound of frames played for the first time (or watched), not yet taken.
    audio: Vec<f32>,
    /// What happened to the match (a drop, a return, a rematch), not yet taken.
    notes: Vec<String>,
    /// The frame whose picture's hash is wanted, and the hash once it is confirmed.
    hash_frame: Option<u64>,
    hash: Option<String>,
    /// The hash of the wanted frame's latest play (a guess may be played again), and its
    /// picture.
    played_hash: Option<String>,
    played_picture: Option<Vec<u8>>,
    picture: Option<Vec<u8>>,
    /// What the sessions of the match cost and sent, over all of them.
    stats: RollbackStats,
    traffic: Traffic,
}

/// The greeting's time limit: a page waits as long as its player keeps it open.
const STEPPED_GREET_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

impl SteppedMatch {
    /// A match of `cart` in the room of `setup`, over `link`.
    pub fn new(cart: &Cart, link: Arc<dyn Link>, setup: SteppedSetup) -> SteppedMatch {
        let room = RoomOptions {
            name: setup.room.clone(),
            server: String::new(),
            password: setup.password.clone(),
            watch: setup.player.is_none(),
            // Never called: the caller holds the link.
            connect: Arc::new(|_| Err(NetError::Setup("the caller holds the link".into()))),
        };
        let mut options =
            NetOptions::in_room(room, setup.players, setup.player.unwrap_or_default());
        options.input_delay = setup.input_delay;
        options.greet_timeout = STEPPED_GREET_TIMEOUT;
        SteppedMatch::with_options(cart, link, options, setup.player.is_none())
    }

    /// A match of `cart` in the room of `options` (its greeting's time limit applies), over
    /// `link`; `watch` to watch it.
    pub fn with_options(
        cart: &Cart,
        link: Arc<dyn Link>,
        options: NetOptions,
        watch: bool,
    ) -> SteppedMatch {
        let room = options.room.as_ref();
        let room_name = room.map_or(String::new(), |r| r.name.clone());
        let password = room.and_then(|r| r.password.clone());
        let secret = password.clone().map(|password| Secret {
            room: room_name.clone(),
            password,
        });
        let hello = Hello {
            build: super::build_id(),
            cart: cart.name().to_string(),
            digest: cart_digest(cart),
            players: options.players() as u8,
            player: options.player as u8,
            seen: false,
            nonce: super::play::fresh_nonce(),
            proof: None,
            epoch: 0,
            frame: 0,
        };
        let phase = match watch {
            false => Phase::Greeting(Box::new(greeter(
                &link,
                &hello,
                &secret,
                &options,
                options.greet_timeout,
            ))),
            true => Phase::WatchGreeting(Box::new(WatchGreeter::new(
                cart,
                link.clone(),
                &room_name,
                password,
                options.players(),
                options.greet_timeout,
            ))),
        };
        SteppedMatch {
            link,
            cart: cart.clone(),
            options,
            hello,
            secret,
            phase: Some(phase),
            epoch: 0,
            met: None,
            rematch_asked: false,
            log: Vec::new(),
            audio: Vec::new(),
            notes: Vec::new(),
            hash_frame: None,
            hash: None,
            played_hash: None,
            played_picture: None,
            picture: None,
            stats: RollbackStats::default(),
            traffic: Traffic::default(),
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

    /// The picture (RGBA) of the frame asked for, once confirmed.
    pub fn confirmed_picture(&self) -> Option<&[u8]> {
        self.picture.as_deref()
    }

    /// Sends and takes the session's messages without advancing (waiting at the end of a
    /// match for the peers to have everything).
    pub fn poll(&mut self) -> Result<(), NetError> {
        match &mut self.phase {
            Some(Phase::Playing(net)) => net.poll(),
            _ => Ok(()),
        }
    }

    /// Asks every player for a rematch: the cart powers on again for all, at the next tick
    /// (only while the match is being played).
    pub fn rematch(&mut self) {
        if matches!(self.phase, Some(Phase::Playing(_))) {
            self.rematch_asked = true;
        }
    }

    /// Tells the other players that this one leaves the match for good, so that they end it
    /// at once ("player N left the match") instead of waiting [`REJOIN_WAIT`] for a return.
    /// The notice goes out now, on both channels, three times on the unreliable one; the
    /// caller keeps the link a moment longer for it to leave. A spectator leaves quietly.
    pub fn leave(&mut self) {
        if matches!(
            self.phase,
            None | Some(Phase::WatchGreeting(_) | Phase::Watching(_))
        ) {
            return;
        }
        let Some(met) = &self.met else {
            return;
        };
        let why = format!("player {} left the match", self.options.player + 1);
        let notice = datagram(TAG_CALL_OFF, why.as_bytes());
        for &peer in &met.peers {
            for _ in 0..3 {
                self.link.send(peer, &notice);
            }
            self.link.send_reliable(peer, &notice);
        }
        self.phase = None;
    }

    /// The link the match runs over.
    pub fn link(&self) -> Arc<dyn Link> {
        self.link.clone()
    }

    /// One host frame (1/60 s): meets the peers, then plays `game` (powered on with empty
    /// save RAM) with `input` as this peer's word, or watches; a rematch or a rejoin replaces
    /// `game` with the match's new session.
    pub fn tick(
        &mut self,
        game: &mut Session,
        input: ButtonWord,
    ) -> Result<SteppedState, NetError> {
        let Some(phase) = self.phase.take() else {
            return Err(NetError::Setup("the match has ended".into()));
        };
        let (phase, state) = self.advance(phase, game, input)?;
        self.phase = Some(phase);
        Ok(state)
    }

    /// The lines the cart logged in frames now confirmed (or watched), each once.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    /// The sound of the frames played for the first time (or watched) since last asked: a
    /// frame played again after going back is not heard twice.
    pub fn take_audio(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.audio)
    }

    /// How many frames of the game are confirmed (for saving the match as a movie); none
    /// outside a session.
    pub fn confirmed_frames(&self) -> Option<usize> {
        self.net()
            .map(|net| usize::try_from(net.confirmed_frame() + 1).unwrap_or(0))
    }

    /// What happened to the match since last asked (a drop, a return, a rematch), in words.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The match's GGRS session being played, if one is.
    pub fn net(&self) -> Option<&NetMatch> {
        match &self.phase {
            Some(Phase::Playing(net) | Phase::Synchronizing(net)) => Some(net),
            _ => None,
        }
    }

    /// What rollback has cost over every session of the match.
    pub fn stats(&self) -> RollbackStats {
        let mut stats = self.stats;
        if let Some(net) = self.net() {
            add_stats(&mut stats, &net.stats());
        }
        stats
    }

    /// What went through the link over every session of the match.
    pub fn traffic(&self) -> Traffic {
        let mut traffic = self.traffic;
        if let Some(net) = self.net() {
            add_traffic(&mut traffic, &net.traffic());
        }
        traffic
    }

    /// How each other player is reached (see [`NetMatch::routes`]); empty outside a session.
    pub fn routes(&self) -> Vec<(usize, Option<bool>)> {
        self.net().map(NetMatch::routes).unwrap_or_default()
    }

    /// Whether every peer has every word this peer sent (true outside a session).
    pub fn all_sent(&self) -> bool {
        self.net().is_none_or(NetMatch::all_sent)
    }

    /// Tells the match's spectators it has ended, and why.
    pub fn end_for_watchers(&mut self, why: &str) {
        if let Some(Phase::Playing(net)) = &mut self.phase {
            net.end_for_watchers(why);
        }
    }

    /// Counts a session's figures in the match's, as it ends.
    fn retire(&mut self, net: &NetMatch) {
        add_stats(&mut self.stats, &net.stats());
        add_traffic(&mut self.traffic, &net.traffic());
    }

    fn advance(
        &mut self,
        phase: Phase,
        game: &mut Session,
        input: ButtonWord,
    ) -> Result<(Phase, SteppedState), NetError> {
        Ok(match phase {
            Phase::Greeting(mut greeter) => {
                if !greeter.poll()? {
                    return Ok((Phase::Greeting(greeter), SteppedState::Meeting));
                }
                let (peers, hellos) = greeter.met();
                let met = Met { peers, hellos };
                self.met = Some(met.clone());
                // A player of a running match among them: this peer comes back into it.
                let running = greeter
                    .said()
                    .into_iter()
                    .filter(|&(_, _, _, frame)| frame > 0)
                    .min_by_key(|&(_, player, ..)| player);
                match running {
                    Some((anchor, _, epoch, _)) => {
                        self.epoch = epoch;
                        self.notes
                            .push("Rejoining the match: its state is coming".into());
                        let resuming = Resuming {
                            met,
                            anchor,
                            assembly: StateAssembly::default(),
                            since: Instant::now(),
                        };
                        let mut resuming = Box::new(resuming);
                        for (from, bytes) in greeter.take_stash() {
                            self.take_state(&mut resuming, from, &bytes, game)?;
                        }
                        (Phase::Resuming(resuming), SteppedState::Resuming)
                    }
                    None => {
                        let net = self.start_session(met, 0, self.epoch)?;
                        (Phase::Synchronizing(Box::new(net)), SteppedState::Meeting)
                    }
                }
            }
            Phase::Synchronizing(mut net) => match net.synchronize_step() {
                Ok(true) => (Phase::Playing(net), SteppedState::Playing),
                Ok(false) => (Phase::Synchronizing(net), SteppedState::Meeting),
                // The first meeting: a room's seat opens again when its joiner vanishes
                // before the start.
                Err(NetError::Vanished { .. })
                    if self.epoch == 0 && game.console().vblanks() == 0 =>
                {
                    self.retire(&net);
                    let greeter = greeter(
                        &self.link,
                        &self.hello,
                        &self.secret,
                        &self.options,
                        self.options.greet_timeout,
                    );
                    (Phase::Greeting(Box::new(greeter)), SteppedState::Meeting)
                }
                Err(e @ NetError::Vanished { .. }) => self.pause(net, game, e),
                Err(e) => return Err(e),
            },
            Phase::Playing(mut net) => match self.play(net.as_mut(), game, input) {
                Ok(Some(next)) => next,
                Ok(None) => (Phase::Playing(net), SteppedState::Playing),
                Err(e @ (NetError::PeerLeft { .. } | NetError::Rebuilding { .. })) => {
                    self.pause(net, game, e)
                }
                Err(e) => return Err(e),
            },
            Phase::Paused(mut paused) => {
                let done = match paused.greeter.poll() {
                    Ok(done) => done,
                    Err(NetError::NobodyJoined { .. } | NetError::NoAnswer { .. }) => {
                        return Err(NetError::NotBack {
                            why: Box::new(paused.why),
                            seconds: REJOIN_WAIT.as_secs(),
                        });
                    }
                    Err(e) => return Err(e),
                };
                paused.early.extend(paused.greeter.take_stash());
                if !done {
                    return Ok((Phase::Paused(paused), SteppedState::Paused));
                }
                let (peers, hellos) = paused.greeter.met();
                let met = Met { peers, hellos };
                self.met = Some(met.clone());
                self.notes.push("Everyone is back: resuming".into());
                let me = self.options.player as u8;
                let anchor = paused
                    .greeter
                    .said()
                    .into_iter()
                    .filter(|&(_, player, _, frame)| frame > 0 && player < me)
                    .min_by_key(|&(_, player, ..)| player);
                let epoch = paused.greeter.hello_epoch();
                match anchor {
                    None => {
                        // This peer is the anchor: it replays its confirmed input, then
                        // sends the state.
                        let replaying = Replaying {
                            met,
                            epoch,
                            scratch: Box::new(fresh(&self.cart)?),
                            history: std::mem::take(&mut paused.confirmed),
                            check: None,
                        };
                        (
                            Phase::Replaying(Box::new(replaying)),
                            SteppedState::Resuming,
                        )
                    }
                    Some((anchor, ..)) => {
                        let mut resuming = Box::new(Resuming {
                            met,
                            anchor,
                            assembly: StateAssembly::default(),
                            since: Instant::now(),
                        });
                        for (from, bytes) in std::mem::take(&mut paused.early) {
                            self.take_state(&mut resuming, from, &bytes, game)?;
                        }
                        (Phase::Resuming(resuming), SteppedState::Resuming)
                    }
                }
            }
            Phase::Resuming(mut resuming) => {
                if resuming.since.elapsed() >= STATE_WAIT {
                    return Err(NetError::Setup(format!(
                        "the match's state did not come from {} within {} s",
                        resuming.anchor,
                        STATE_WAIT.as_secs()
                    )));
                }
                while let Some((from, bytes)) = self.link.receive() {
                    if let Some(replaying) = self.take_state(&mut resuming, from, &bytes, game)? {
                        return Ok((Phase::Replaying(replaying), SteppedState::Resuming));
                    }
                }
                (Phase::Resuming(resuming), SteppedState::Resuming)
            }
            Phase::Replaying(mut replaying) => {
                let at = replaying.scratch.console().vblanks() as usize;
                let end = (at + REPLAY_PER_TICK).min(replaying.history.len());
                for frame in &replaying.history[at..end] {
                    let _ = replaying.scratch.tick(*frame);
                }
                if end < replaying.history.len() {
                    return Ok((Phase::Replaying(replaying), SteppedState::Resuming));
                }
                let Replaying {
                    met,
                    epoch,
                    scratch,
                    check,
                    ..
                } = *replaying;
                let mut scratch = *scratch;
                let frame = scratch.console().vblanks();
                match check {
                    Some(machine) => {
                        let image = StateImage {
                            history: scratch.history().clone(),
                            machine,
                        };
                        if !savestate::machine_matches(scratch.console(), &image) {
                            return Err(NetError::Setup(format!(
                                "the match's state did not replay to the same machine here (frame {frame})"
                            )));
                        }
                    }
                    None => {
                        let state = scratch.save_state().map_err(|e| {
                            NetError::Setup(format!("cannot save the match's state: {e}"))
                        })?;
                        for &peer in &met.peers {
                            resume::send_state(self.link.as_ref(), peer, epoch, frame, &state);
                        }
                    }
                }
                *game = scratch;
                self.epoch = epoch;
                self.hash = None;
                let net = self.start_session(met, frame, epoch)?;
                (Phase::Synchronizing(Box::new(net)), SteppedState::Resuming)
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
                let catching_up = step.vblanks.len() > 1;
                for vblank in step.vblanks {
                    self.log.extend(vblank.log);
                    // Frames played to catch up are not heard.
                    if !catching_up {
                        self.audio.extend(vblank.audio);
                    }
                }
                if let Some(frame) = self.hash_frame
                    && self.hash.is_none()
                    && game.console().vblanks() == frame
                {
                    let picture = game.console().rgba();
                    self.hash = Some(frame_hash_hex(&picture));
                    self.picture = Some(picture);
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

    /// One frame of the match; the next phase when the match is rebuilt (a rematch).
    fn play(
        &mut self,
        net: &mut NetMatch,
        game: &mut Session,
        input: ButtonWord,
    ) -> Result<Option<(Phase, SteppedState)>, NetError> {
        let (rebuild, greeted_later) = net.take_rebuild();
        if let Some(peer) = greeted_later {
            return Err(NetError::Rebuilding { peer });
        }
        let asked = rebuild
            .iter()
            .filter_map(|(_, bytes)| resume::read_rematch(bytes))
            .filter(|&epoch| epoch > self.epoch)
            .max();
        if self.rematch_asked || asked.is_some() {
            let epoch = asked.unwrap_or(self.epoch + 1);
            if self.rematch_asked {
                for &peer in &net.options().peers {
                    self.link.send_reliable(peer, &resume::rematch(epoch));
                }
            }
            self.rematch_asked = false;
            net.end_for_watchers("a rematch began");
            self.retire(net);
            *game = fresh(&self.cart)?;
            self.epoch = epoch;
            self.hash = None;
            self.played_hash = None;
            self.notes.push("Rematch: the cart powers on again".into());
            let met = self
                .met
                .clone()
                .ok_or_else(|| NetError::Setup("no peers met".into()))?;
            let next = self.start_session(met, 0, epoch)?;
            return Ok(Some((
                Phase::Synchronizing(Box::new(next)),
                SteppedState::Meeting,
            )));
        }
        let wanted = self.hash_frame;
        let (played_hash, played_picture) = (&mut self.played_hash, &mut self.played_picture);
        let stepped = net.step(game, input, &mut |game, _| {
            if Some(game.console().vblanks()) == wanted {
                let picture = game.console().rgba();
                *played_hash = Some(frame_hash_hex(&picture));
                *played_picture = Some(picture);
            }
        })?;
        if let Some(frame) = wanted
            && self.hash.is_none()
            && i64::from(net.confirmed_frame()) >= frame as i64 - 1
        {
            self.hash = self.played_hash.clone();
            self.picture = self.played_picture.clone();
        }
        self.log.extend(stepped.log);
        self.audio.extend(stepped.audio);
        Ok(None)
    }

    /// A player dropped (or another peer is rebuilding the match): the game pauses and the
    /// room is greeted for the next session, every other seat open.
    fn pause(
        &mut self,
        mut net: Box<NetMatch>,
        game: &Session,
        why: NetError,
    ) -> (Phase, SteppedState) {
        net.end_for_watchers("a player dropped; the match is paused");
        self.retire(&net);
        let confirmed = net.confirmed_input().to_vec();
        let note = match &why {
            NetError::PeerLeft { player, .. } => format!(
                "Player {} dropped: waiting up to {} s for them to come back",
                player + 1,
                REJOIN_WAIT.as_secs()
            ),
            _ => "A player dropped: the match is paused".to_string(),
        };
        self.notes.push(note);
        let hello = Hello {
            epoch: self.epoch + 1,
            frame: game.console().vblanks().max(1),
            ..self.hello.clone()
        };
        let greeter = greeter(&self.link, &hello, &self.secret, &self.options, REJOIN_WAIT);
        let paused = Paused {
            greeter,
            why,
            confirmed,
            early: Vec::new(),
        };
        (Phase::Paused(Box::new(paused)), SteppedState::Paused)
    }

    /// Takes a message while waiting for the anchor's state: the replay of it, once whole.
    fn take_state(
        &mut self,
        resuming: &mut Resuming,
        from: PeerAddr,
        bytes: &[u8],
        game: &Session,
    ) -> Result<Option<Box<Replaying>>, NetError> {
        if from != resuming.anchor {
            return Ok(None);
        }
        let Some(state) = resuming.assembly.take(bytes) else {
            return Ok(None);
        };
        let cart = game.cart();
        let image = savestate::read(&state, "the match's state", cart.name(), &cart_digest(cart))
            .map_err(|e| NetError::Setup(format!("the match's state from {from}: {e}")))?;
        Ok(Some(Box::new(Replaying {
            met: resuming.met.clone(),
            epoch: resuming.assembly.epoch,
            scratch: Box::new(fresh(&self.cart)?),
            history: image.history.ticks.clone(),
            check: Some(image.machine),
        })))
    }

    /// Starts the match's GGRS session `epoch` with the peers of `met`, the game standing at
    /// vblank `base`.
    fn start_session(&mut self, met: Met, base: u64, epoch: u32) -> Result<NetMatch, NetError> {
        let mut options = self.options.clone();
        options.peers = met.peers;
        let hello = Hello {
            epoch,
            frame: base,
            ..self.hello.clone()
        };
        let mut net = NetMatch::start_at(
            self.link.clone(),
            met.hellos,
            options,
            hello,
            self.secret.clone(),
            base,
            epoch,
        )?;
        if base > 0 {
            // The others may still be replaying the state.
            net.set_sync_timeout(REJOIN_WAIT);
        }
        Ok(net)
    }

    /// One line on where the match stands, for the page and the window (ASCII: the window's
    /// font has nothing else).
    pub fn status_text(&self) -> String {
        let room = self.options.room.as_ref().map_or("", |r| r.name.as_str());
        let Some(phase) = &self.phase else {
            return "The match has ended".into();
        };
        match phase {
            Phase::Greeting(_) | Phase::Synchronizing(_) => format!(
                "Room {room}: {}/{} here",
                self.link.present().len() + 1,
                self.options.players(),
            ),
            Phase::Playing(net) => {
                let status = net.status();
                format!(
                    "P{} ping {}ms rb {} delay {}",
                    self.options.player + 1,
                    status.ping_ms,
                    status.rollback,
                    status.input_delay
                )
            }
            Phase::Paused(_) => "Paused: a player dropped".into(),
            Phase::Resuming(_) | Phase::Replaying(_) => "Resuming the match".into(),
            Phase::WatchGreeting(_) => format!("Room {room}: no match yet"),
            Phase::Watching(watch) => format!("Watching, {} frames", watch.received()),
        }
    }
}

/// The cart powered on afresh, with empty save RAM (as every peer of a match starts).
fn fresh(cart: &Cart) -> Result<Session, NetError> {
    Session::start(cart.clone(), SaveRam::default())
        .map_err(|e| NetError::Setup(format!("cannot power the cart on: {e}")))
}

fn add_stats(into: &mut RollbackStats, more: &RollbackStats) {
    into.advanced += more.advanced;
    into.rollbacks += more.rollbacks;
    into.resimulated += more.resimulated;
    into.longest = into.longest.max(more.longest);
    into.last = more.last;
    into.resimulating += more.resimulating;
    into.worst_step = into.worst_step.max(more.worst_step);
}

fn add_traffic(into: &mut Traffic, more: &Traffic) {
    into.sent += more.sent;
    into.sent_bytes += more.sent_bytes;
    into.received += more.received;
    into.received_bytes += more.received_bytes;
    into.greetings_answered += more.greetings_answered;
    into.dropped += more.dropped;
}

/// A greeting of the room's other seats (all open) with `hello`.
fn greeter(
    link: &Arc<dyn Link>,
    hello: &Hello,
    secret: &Option<Secret>,
    options: &NetOptions,
    timeout: Duration,
) -> Greeter {
    let peers: Vec<(PeerAddr, u8)> = options
        .peer_players()
        .into_iter()
        .map(|(_, p)| (ANYONE, p as u8))
        .collect();
    Greeter::new(link.clone(), hello.clone(), secret.clone(), &peers, timeout)
}
