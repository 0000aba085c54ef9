//! A match as one peer plays it: meeting the peers ([`Greeting::meet`]: the greeting, then
//! GGRS's synchronization), then one call of [`NetMatch::step`] per host frame (1/60 s),
//! which sends this peer's word, takes the others', and advances the session (going back and
//! playing again when a prediction was wrong). What the status line shows (ping, frames of
//! rollback, input delay) is in [`NetStatus`].
//!
//! Every phase has a time limit, so no peer waits forever: the greeting
//! ([`NetOptions::greet_timeout`]), the synchronization ([`SYNC_TIMEOUT`] without a word from
//! a peer), the match (a peer silent for [`DISCONNECT_MS`], or no confirmed frame for
//! [`STALL_TIMEOUT`]), and the end (the caller's linger).

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, InputStatus, P2PSession, PlayerType, SessionBuilder,
};

use super::handshake::{ANYONE, Hello, Secret, WRONG_PASSWORD, greet, player_at};
use super::link::{Link, PeerAddr, UdpLink};
use super::rollback::{Checksums, Rollback, RollbackStats};
use super::socket::{
    self, NetSocket, SharedReport, TAG_REFUSE, TAG_WATCH_END, TAG_WATCH_FRAMES, Traffic, datagram,
};
use super::spectate::{MAX_WATCHERS, encode_frames};
use super::{
    DESYNC_INTERVAL, DISCONNECT_MS, INPUT_DELAY, KairoGgrs, MAX_INPUT_DELAY, MAX_PLAYERS,
    MAX_ROLLBACK, NetError, STALL_TIMEOUT, SYNC_TIMEOUT,
};
use crate::input::{ButtonWord, InputFrame};
use crate::savestate::cart_digest;
use crate::session::Session;

/// Connects to a room: the lobby server, then the room's peers (the `kairo` crate's
/// `rooms`). Setting the flag gives up.
pub type RoomConnect = Arc<dyn Fn(&AtomicBool) -> Result<Box<dyn Link>, NetError> + Send + Sync>;

/// A match in a room of a lobby server, over WebRTC.
#[derive(Clone)]
pub struct RoomOptions {
    /// The room's name.
    pub name: String,
    /// Where the lobby server is (for notes).
    pub server: String,
    /// The room's password, if it has one.
    pub password: Option<String>,
    /// Watch the room's match instead of playing.
    pub watch: bool,
    pub connect: RoomConnect,
}

impl std::fmt::Debug for RoomOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomOptions")
            .field("name", &self.name)
            .field("server", &self.server)
            .field("password", &self.password.as_ref().map(|_| "..."))
            .finish_non_exhaustive()
    }
}

/// How to join a match.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// The local UDP port (unused in a room).
    pub port: u16,
    /// The other peers, in player order (this peer's own number left out); [`ANYONE`] for
    /// a seat any joiner with its number may take.
    pub peers: Vec<PeerAddr>,
    /// This peer's player number, 0-based.
    pub player: usize,
    /// Frames a local press waits.
    pub input_delay: usize,
    /// How long to wait for the peers' greetings (a host: for someone to join).
    pub greet_timeout: Duration,
    /// The room the match is in (none: UDP between the addresses in `peers`).
    pub room: Option<RoomOptions>,
}

impl NetOptions {
    /// Options with the defaults: input delay [`INPUT_DELAY`], 30 s to meet the peers.
    pub fn new(port: u16, peers: Vec<SocketAddr>, player: usize) -> NetOptions {
        NetOptions {
            port,
            peers: peers.into_iter().map(PeerAddr::Udp).collect(),
            player,
            input_delay: INPUT_DELAY,
            greet_timeout: Duration::from_secs(30),
            room: None,
        }
    }

    /// A match of `players` in `room`, as `player`: every other seat goes to the room's
    /// member that says it is that player.
    pub fn in_room(room: RoomOptions, players: usize, player: usize) -> NetOptions {
        NetOptions {
            peers: vec![ANYONE; players.saturating_sub(1)],
            room: Some(room),
            ..NetOptions::new(0, Vec::new(), player)
        }
    }

    /// Hosting a match of two on `port` as player 1: the peer is whoever joins first.
    pub fn host(port: u16) -> NetOptions {
        NetOptions {
            peers: vec![ANYONE],
            ..NetOptions::new(port, Vec::new(), 0)
        }
    }

    /// Joining the host at `host` as player 2, from any free local port.
    pub fn join(host: SocketAddr) -> NetOptions {
        NetOptions::new(0, vec![host], 1)
    }

    /// Players in the match.
    pub fn players(&self) -> usize {
        self.peers.len() + 1
    }

    /// The player number of each peer: the numbers other than this peer's, in order.
    pub(crate) fn peer_players(&self) -> Vec<(PeerAddr, usize)> {
        let others = (0..self.players()).filter(|&p| p != self.player);
        self.peers.iter().copied().zip(others).collect()
    }

    /// Whether this peer hosts a match of two for whoever joins.
    pub fn hosting(&self) -> bool {
        self.peers == [ANYONE] && self.room.is_none()
    }

    /// Whether a seat is open to whoever joins with its number (a host; a room).
    fn has_open_seat(&self) -> bool {
        self.peers.contains(&ANYONE)
    }

    pub fn check(&self) -> Result<(), NetError> {
        if self.input_delay > MAX_INPUT_DELAY {
            return Err(NetError::Setup(format!(
                "an input delay of {} frames: the delay is 0 to {MAX_INPUT_DELAY} frames (half a second)",
                self.input_delay
            )));
        }
        if self.peers.is_empty() || self.players() > MAX_PLAYERS {
            return Err(NetError::Setup(format!(
                "a match has 2 to {MAX_PLAYERS} players: give 1 to {} peers",
                MAX_PLAYERS - 1
            )));
        }
        if self.player >= self.players() {
            return Err(NetError::Setup(format!(
                "player {} in a match of {} players (players are 1 to {})",
                self.player + 1,
                self.players(),
                self.players()
            )));
        }
        Ok(())
    }
}

/// What a peer says of itself and whom it will meet: everything meeting the peers needs,
/// which can run on another thread (the window keeps drawing meanwhile).
#[derive(Clone, Debug)]
pub struct Greeting {
    hello: Hello,
    options: NetOptions,
    /// Set to stop meeting the peers (the window's player left before the match began).
    cancel: Arc<AtomicBool>,
}

impl Greeting {
    /// The greeting of a peer running `cart`.
    pub fn for_cart(cart: &crate::cart::Cart, options: NetOptions) -> Greeting {
        Greeting {
            hello: Hello {
                build: super::build_id(),
                cart: cart.name().to_string(),
                digest: cart_digest(cart),
                players: options.players() as u8,
                player: options.player as u8,
                seen: false,
                nonce: fresh_nonce(),
                proof: None,
                epoch: 0,
                frame: 0,
            },
            options,
            cancel: Arc::default(),
        }
    }

    /// A switch that stops [`Greeting::meet`] (from another thread) with
    /// [`NetError::Cancelled`].
    pub fn canceller(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// What this peer says of itself.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// Binds the port, greets the peers until each has answered (or refused), and
    /// synchronizes GGRS with them: the match, ready for its first frame. A host waiting
    /// for whoever joins goes back to waiting when a joiner vanishes before the match could
    /// start, until its time is up.
    pub fn meet(self) -> Result<NetMatch, NetError> {
        let Greeting {
            hello,
            options,
            cancel,
        } = self;
        options.check()?;
        let secret = options.room.as_ref().and_then(|room| {
            room.password.clone().map(|password| Secret {
                room: room.name.clone(),
                password,
            })
        });
        let deadline = Instant::now() + options.greet_timeout;
        loop {
            let link: Arc<dyn Link> = match &options.room {
                Some(room) => Arc::from((room.connect)(&cancel)?),
                None => udp_link(options.port)?,
            };
            let mut peers: Vec<(PeerAddr, u8)> = options
                .peer_players()
                .into_iter()
                .map(|(addr, p)| (addr, p as u8))
                .collect();
            let left = deadline.saturating_duration_since(Instant::now());
            let hellos = greet(
                link.clone(),
                &hello,
                secret.as_ref(),
                &mut peers,
                left,
                &cancel,
            )
            .map_err(|e| {
                // Say the whole time waited, not what was left of it after a retry.
                let seconds = options.greet_timeout.as_secs();
                match e {
                    NetError::NobodyJoined { refused, .. } => {
                        NetError::NobodyJoined { seconds, refused }
                    }
                    NetError::NoAnswer { peer, player, .. } => NetError::NoAnswer {
                        peer,
                        player,
                        seconds,
                    },
                    e => e,
                }
            })?;
            let mut met = options.clone();
            met.peers = peers.into_iter().map(|(addr, _)| addr).collect();
            let mut net = NetMatch::start(link, hellos, met, hello.clone(), secret.clone())?;
            match net.synchronize(&cancel) {
                Ok(()) => return Ok(net),
                Err(e @ NetError::Vanished { .. })
                    if options.has_open_seat() && Instant::now() < deadline =>
                {
                    crate::out::eprint_line(&format!("kairo: netplay: {e}; waiting for another"));
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// A UDP link on `port` of every local IPv4 address.
fn udp_link(port: u16) -> Result<Arc<dyn Link>, NetError> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port))
        .map_err(|source| NetError::Bind { port, source })?;
    let link = UdpLink::new(socket)
        .map_err(|e| NetError::Setup(format!("cannot set up the UDP socket: {e}")))?;
    Ok(Arc::new(link))
}

/// A number no other meeting is likely to pick (std's hasher keys come from the system's
/// random source; the clock tells two meetings of one process apart).
pub(crate) fn fresh_nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    hasher.write_u128(now.as_nanos());
    hasher.finish()
}

/// The lines a cart logs during a match, held until their frame is confirmed: a frame first
/// played on a guess may be played again with other input, and log other lines (or none);
/// only the confirmed play's lines are shown, once.
#[derive(Debug, Default)]
pub(crate) struct ConfirmedLog {
    /// Lines by the vblank count after the frame that logged them.
    pending: std::collections::BTreeMap<u64, Vec<String>>,
}

impl ConfirmedLog {
    /// The lines the frame ending at `vblank` logged (replacing an earlier play's).
    pub(crate) fn record(&mut self, vblank: u64, lines: Vec<String>) {
        self.pending.retain(|&v, _| v < vblank);
        if !lines.is_empty() {
            self.pending.insert(vblank, lines);
        }
    }

    /// The lines of frames up to `confirmed_frame` (GGRS's numbering), in order, once.
    pub(crate) fn take_confirmed(&mut self, confirmed_frame: i32) -> Vec<String> {
        let Ok(frame) = u64::try_from(confirmed_frame) else {
            return Vec::new();
        };
        let later = self.pending.split_off(&(frame + 2));
        let confirmed = std::mem::replace(&mut self.pending, later);
        confirmed.into_values().flatten().collect()
    }
}

/// What one host frame of a match produced: [`NetMatch::step`]'s answer.
#[derive(Debug, Default)]
pub struct NetVblank {
    pub step: Step,
    /// The lines the cart logged in frames now confirmed, in order, each once (a frame
    /// first played on a guess may log other lines when played again).
    pub log: Vec<String>,
    /// The sound of the frames played for the first time (a frame played again after going
    /// back is not heard twice).
    pub audio: Vec<f32>,
}

/// What one host frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    /// Still meeting the peers (GGRS synchronizing).
    #[default]
    Synchronizing,
    /// Waited: too far ahead of the input from the peers (or asked to let them catch up).
    Waited,
    /// The game advanced one frame (and may have gone back and played frames again).
    Advanced,
}

/// What the status line shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NetStatus {
    /// Round-trip time to the slowest peer, in milliseconds.
    pub ping_ms: u128,
    /// Frames played again after the last rollback.
    pub rollback: u64,
    /// Frames a local press waits.
    pub input_delay: usize,
    /// Frames this peer runs ahead of the slowest peer.
    pub(crate) frames_ahead: i32,
}

/// A match in progress.
pub struct NetMatch {
    p2p: P2PSession<KairoGgrs>,
    options: NetOptions,
    rollback: Rollback,
    /// Host frames still to wait (GGRS asked this peer to let the others catch up).
    waiting: u32,
    /// The last confirmed frame and when it was first seen (to find a match standing still).
    progress: (i32, Instant),
    /// The players whose input was a guess in the last frame advanced.
    guessed: [bool; MAX_PLAYERS],
    /// When [`NetMatch::step`] last ran.
    last_step: Instant,
    /// What the socket saw.
    report: SharedReport,
    /// The cart's lines, held until their frame is confirmed.
    log: ConfirmedLog,
    /// The sound of frames played for the first time since the last step.
    first_plays: Vec<f32>,
    /// The link (GGRS's socket shares it), for spectators' streams.
    link: Arc<dyn Link>,
    /// This peer's greeting, and the room's password: spectators are answered with them.
    hello: Hello,
    secret: Option<Secret>,
    /// Every player's input of each confirmed frame, from frame 0.
    confirmed: Vec<InputFrame>,
    /// The spectators player 1 streams the confirmed frames to.
    watchers: Vec<Watcher>,
    /// When each peer was last heard during GGRS's synchronization.
    sync_heard: Vec<Instant>,
    /// The vblank GGRS's frame 0 is (a match resumed after a player rejoined).
    base: i32,
    /// The number of this GGRS session in the match.
    epoch: u32,
    /// How long GGRS's synchronization may go without a word from a peer.
    sync_timeout: Duration,
    /// GGRS's confirmed frame as of the last frame advance (`-1`: none yet). Input that
    /// arrives between advances confirms frames GGRS has not yet played again with it: up
    /// to here, the game was played with every player's confirmed input.
    played_confirmed: i32,
}

/// A spectator of the match, and how far its stream has gone.
#[derive(Debug)]
struct Watcher {
    addr: PeerAddr,
    /// Frames sent to it.
    sent: usize,
}

/// Most frames in one message of a spectator's stream.
const WATCH_BATCH: usize = 512;

impl std::fmt::Debug for NetMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetMatch")
            .field("options", &self.options)
            .field("stats", &self.rollback.stats)
            .finish_non_exhaustive()
    }
}

impl NetMatch {
    /// Meets the peers (see [`Greeting::meet`]) for a match of `game`'s cart. `game` is the
    /// session the match will run: just powered on, with empty save RAM.
    pub fn connect(game: &Session, options: NetOptions) -> Result<NetMatch, NetError> {
        Greeting::for_cart(game.cart(), options).meet()
    }

    /// Starts GGRS on `link`, whose peers (in `options`) have all been greeted; `hellos`
    /// answer a peer's late greeting.
    pub(crate) fn start(
        link: Arc<dyn Link>,
        hellos: Vec<(PeerAddr, Vec<u8>)>,
        options: NetOptions,
        hello: Hello,
        secret: Option<Secret>,
    ) -> Result<NetMatch, NetError> {
        Self::start_at(link, hellos, options, hello, secret, 0, 0)
    }

    /// Starts GGRS as [`NetMatch::start`] does, for a session standing at vblank `base`
    /// (GGRS's frame 0 is that vblank), its messages tagged with `epoch` (the match's
    /// sessions are numbered: a message of an earlier one is dropped).
    pub(crate) fn start_at(
        link: Arc<dyn Link>,
        hellos: Vec<(PeerAddr, Vec<u8>)>,
        options: NetOptions,
        hello: Hello,
        secret: Option<Secret>,
        base: u64,
        epoch: u32,
    ) -> Result<NetMatch, NetError> {
        let report = SharedReport::default();
        let socket = NetSocket::new(
            link.clone(),
            options.peers.clone(),
            hellos,
            report.clone(),
            epoch,
        );
        let mut builder = SessionBuilder::<KairoGgrs>::new()
            .with_num_players(options.players())?
            .with_input_delay(options.input_delay)
            .with_max_prediction_window(MAX_ROLLBACK)
            .with_desync_detection_mode(DesyncDetection::On {
                interval: DESYNC_INTERVAL,
            })
            .with_disconnect_timeout(Duration::from_millis(DISCONNECT_MS))
            .with_disconnect_notify_delay(Duration::from_millis(DISCONNECT_MS / 3))
            .add_player(PlayerType::Local, options.player)?;
        for (addr, player) in options.peer_players() {
            builder = builder.add_player(PlayerType::Remote(addr), player)?;
        }
        let p2p = builder.start_p2p_session(socket)?;
        Ok(NetMatch {
            p2p,
            options,
            rollback: Rollback::starting_at(Checksums::EveryNth(DESYNC_INTERVAL), base),
            waiting: 0,
            progress: (-1, Instant::now()),
            guessed: [false; MAX_PLAYERS],
            last_step: Instant::now(),
            report,
            log: ConfirmedLog::default(),
            first_plays: Vec::new(),
            link,
            hello,
            secret,
            confirmed: Vec::new(),
            watchers: Vec::new(),
            sync_heard: Vec::new(),
            base: i32::try_from(base)
                .map_err(|_| NetError::Setup(format!("a match at vblank {base}")))?,
            epoch,
            sync_timeout: SYNC_TIMEOUT,
            played_confirmed: -1,
        })
    }

    /// Runs GGRS's synchronization with every peer, failing when a peer goes
    /// [`SYNC_TIMEOUT`] without a word.
    fn synchronize(&mut self, cancel: &AtomicBool) -> Result<(), NetError> {
        while !self.synchronize_step()? {
            if cancel.load(Ordering::Relaxed) {
                return Err(NetError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        Ok(())
    }

    /// One round of GGRS's synchronization, never waiting: `Ok(true)` once it is done.
    pub(crate) fn synchronize_step(&mut self) -> Result<bool, NetError> {
        if self.p2p.current_state() == ggrs::SessionState::Running {
            return Ok(true);
        }
        let peers = self.options.peer_players();
        if self.sync_heard.len() != peers.len() {
            self.sync_heard = vec![Instant::now(); peers.len()];
        }
        self.p2p.poll_remote_clients();
        for event in self.p2p.events().collect::<Vec<_>>() {
            let from = match event {
                GgrsEvent::Synchronizing { addr, .. } | GgrsEvent::Synchronized { addr } => addr,
                GgrsEvent::Disconnected { addr } => {
                    let player = self.player_of(addr);
                    return Err(NetError::Vanished {
                        peer: addr,
                        player,
                        seconds: SYNC_TIMEOUT.as_secs(),
                    });
                }
                _ => continue,
            };
            if let Some(i) = peers.iter().position(|&(a, _)| a == from) {
                self.sync_heard[i] = Instant::now();
            }
        }
        self.check_called_off()?;
        if let Some(i) = self
            .sync_heard
            .iter()
            .position(|t| t.elapsed() >= self.sync_timeout)
        {
            let (peer, player) = peers[i];
            return Err(NetError::Vanished {
                peer,
                player,
                seconds: self.sync_timeout.as_secs(),
            });
        }
        if self.p2p.current_state() != ggrs::SessionState::Running {
            return Ok(false);
        }
        self.progress = (self.confirmed_frame(), Instant::now());
        self.last_step = Instant::now();
        Ok(true)
    }

    /// The player number at `addr` (0-based).
    fn player_of(&self, addr: PeerAddr) -> usize {
        self.options
            .peer_players()
            .into_iter()
            .find(|&(a, _)| a == addr)
            .map_or(0, |(_, p)| p)
    }

    /// A peer's call-off note, as an error.
    fn check_called_off(&self) -> Result<(), NetError> {
        match socket::report(&self.report).called_off.clone() {
            Some((peer, reason)) => Err(NetError::CalledOff { peer, reason }),
            None => Ok(()),
        }
    }

    /// How each other player (0-based) is reached: `Some(true)` through a relay (a room's
    /// TURN server), `Some(false)` directly, `None` not known.
    pub fn routes(&self) -> Vec<(usize, Option<bool>)> {
        self.options
            .peer_players()
            .into_iter()
            .map(|(addr, player)| (player, self.link.relayed(addr)))
            .collect()
    }

    /// What went through the socket so far.
    pub fn traffic(&self) -> Traffic {
        socket::report(&self.report).traffic
    }

    /// One host frame: sends and takes words, and advances `game` one frame with `input` as
    /// this peer's word when it may (going back and playing frames again when a guess was
    /// wrong). `after_frame` sees the session after every vblank it advanced (to look at the
    /// picture), told whether the vblank was played before. A fault of the cart ends the
    /// match once its frame is confirmed (every peer met it): before that, going back may
    /// undo it.
    pub fn step(
        &mut self,
        game: &mut Session,
        input: ButtonWord,
        after_frame: &mut dyn FnMut(&Session, bool),
    ) -> Result<NetVblank, NetError> {
        let mut out = NetVblank {
            step: self.advance(game, input, after_frame)?,
            ..NetVblank::default()
        };
        self.keep_confirmed(game);
        self.serve_watchers();
        std::mem::swap(&mut out.audio, &mut self.first_plays);
        out.log = self.log.take_confirmed(self.confirmed_frame());
        if let Some(fault) = game.fault()
            && i64::from(self.confirmed_frame()) >= fault.vblank as i64 - 1
        {
            return Err(NetError::Fault(fault.clone()));
        }
        Ok(out)
    }

    fn advance(
        &mut self,
        game: &mut Session,
        input: ButtonWord,
        after_frame: &mut dyn FnMut(&Session, bool),
    ) -> Result<Step, NetError> {
        self.p2p.poll_remote_clients();
        self.handle_events()?;
        if self.p2p.current_state() != ggrs::SessionState::Running {
            return Ok(Step::Synchronizing);
        }
        self.check_progress()?;
        if self.waiting > 0 {
            self.waiting -= 1;
            return Ok(Step::Waited);
        }
        self.p2p.add_local_input(self.options.player, input)?;
        match self.p2p.advance_frame() {
            Ok(requests) => {
                let advances = requests
                    .iter()
                    .any(|r| matches!(r, ggrs::GgrsRequest::AdvanceFrame { .. }));
                if let Some(ggrs::GgrsRequest::AdvanceFrame { inputs }) = requests.last() {
                    for (guessed, (_, status)) in self.guessed.iter_mut().zip(inputs) {
                        *guessed = *status == InputStatus::Predicted;
                    }
                }
                let (log, first_plays) = (&mut self.log, &mut self.first_plays);
                self.rollback
                    .fulfil(game, requests, &mut |game, vblank, replay| {
                        log.record(game.console().vblanks(), vblank.log);
                        if !replay {
                            first_plays.extend_from_slice(&vblank.audio);
                        }
                        after_frame(game, replay);
                    });
                // The advance played again every frame a late input changed.
                self.played_confirmed = self.played_confirmed.max(self.p2p.confirmed_frame());
                // GGRS holds the frame, without an error, when this peer is as far ahead
                // of the others' input as a rollback may reach.
                Ok(if advances {
                    Step::Advanced
                } else {
                    Step::Waited
                })
            }
            Err(GgrsError::PredictionThreshold) => Ok(Step::Waited),
            Err(e) => Err(e.into()),
        }
    }

    /// Fails when no new frame has been confirmed for [`STALL_TIMEOUT`] of steps (the
    /// peers answer, so GGRS sees nobody leave, but one of them stopped playing).
    fn check_progress(&mut self) -> Result<(), NetError> {
        let now = Instant::now();
        let confirmed = self.confirmed_frame();
        // Time this peer itself did not step (a window that was not drawn) does not count.
        let away = now.saturating_duration_since(self.last_step);
        self.last_step = now;
        if confirmed != self.progress.0 || away > Duration::from_secs(1) {
            self.progress = (confirmed, now);
            return Ok(());
        }
        if now.duration_since(self.progress.1) < STALL_TIMEOUT {
            return Ok(());
        }
        let waiting_for: Vec<String> = self
            .options
            .peer_players()
            .into_iter()
            .filter(|&(_, player)| self.guessed[player])
            .map(|(addr, player)| player_at(player, addr))
            .collect();
        Err(NetError::Stalled {
            frame: confirmed + 1,
            seconds: STALL_TIMEOUT.as_secs(),
            waiting_for: if waiting_for.is_empty() {
                "the other players".into()
            } else {
                waiting_for.join(", ")
            },
        })
    }

    /// Sends and takes words without advancing (waiting at the end of a match for the peers
    /// to have everything).
    pub fn poll(&mut self) -> Result<(), NetError> {
        self.p2p.poll_remote_clients();
        self.serve_watchers();
        self.handle_events()
    }

    /// Copies the input of frames newly confirmed from `game`'s history.
    fn keep_confirmed(&mut self, game: &Session) {
        let confirmed = usize::try_from(self.confirmed_frame() + 1).unwrap_or(0);
        let ticks = &game.history().ticks;
        let end = confirmed.min(ticks.len());
        if end > self.confirmed.len() {
            self.confirmed
                .extend_from_slice(&ticks[self.confirmed.len()..end]);
        }
    }

    /// Every player's input of each confirmed frame so far, from frame 0.
    pub fn confirmed_input(&self) -> &[InputFrame] {
        &self.confirmed
    }

    /// Player 1 of a room's match answers would-be spectators and streams the confirmed
    /// frames to those it took (the others ignore them).
    fn serve_watchers(&mut self) {
        let asking = std::mem::take(&mut socket::report(&self.report).watchers_asking);
        if self.options.player != 0 || self.options.room.is_none() {
            return;
        }
        for (from, theirs) in asking {
            self.answer_watcher(from, &theirs);
        }
        let gone = self.link.gone();
        self.watchers.retain(|w| !gone.contains(&w.addr));
        let players = self.options.players();
        for watcher in &mut self.watchers {
            while watcher.sent < self.confirmed.len() {
                let end = (watcher.sent + WATCH_BATCH).min(self.confirmed.len());
                let body = encode_frames(watcher.sent, players, &self.confirmed[watcher.sent..end]);
                if !self
                    .link
                    .send_reliable(watcher.addr, &datagram(TAG_WATCH_FRAMES, &body))
                {
                    break;
                }
                watcher.sent = end;
            }
        }
    }

    /// Answers a spectator's greeting: refused when it does not fit (or lacks the room's
    /// password, or there are [`MAX_WATCHERS`]), greeted back until it has proven itself,
    /// then streamed to.
    fn answer_watcher(&mut self, from: PeerAddr, theirs: &Hello) {
        let refuse = |why: &str| {
            for _ in 0..3 {
                self.link.send(from, &datagram(TAG_REFUSE, why.as_bytes()));
            }
        };
        if self.watchers.iter().any(|w| w.addr == from) {
            return;
        }
        if let Some(reason) = self.hello.watch_mismatch(theirs) {
            refuse(&reason);
            return;
        }
        let mine = Hello {
            seen: true,
            proof: self
                .secret
                .as_ref()
                .map(|s| s.proof(theirs.nonce, self.hello.nonce)),
            ..self.hello.clone()
        };
        if !theirs.seen {
            self.link.send(from, &mine.datagram());
            return;
        }
        if let Some(secret) = &self.secret {
            let proven = theirs
                .proof
                .is_some_and(|p| secret.verifies(&p, self.hello.nonce, theirs.nonce));
            if !proven {
                refuse(WRONG_PASSWORD);
                return;
            }
        }
        if self.watchers.len() >= MAX_WATCHERS {
            refuse(&format!("this match has {MAX_WATCHERS} spectators already"));
            return;
        }
        self.watchers.push(Watcher {
            addr: from,
            sent: 0,
        });
    }

    /// Messages of a match being rebuilt that its peers sent (a rematch, a rejoiner's
    /// state), and a peer greeting for a later session, if one did.
    pub(crate) fn take_rebuild(&mut self) -> (Vec<(PeerAddr, Vec<u8>)>, Option<PeerAddr>) {
        let mut report = socket::report(&self.report);
        (
            std::mem::take(&mut report.rebuild),
            report.greeted_later.take(),
        )
    }

    /// Tells the spectators the match has ended, and why (after the frames they lack).
    pub fn end_for_watchers(&mut self, why: &str) {
        self.serve_watchers();
        for watcher in &self.watchers {
            self.link
                .send_reliable(watcher.addr, &datagram(TAG_WATCH_END, why.as_bytes()));
        }
    }

    /// How many spectators watch.
    pub fn watchers(&self) -> usize {
        self.watchers.len()
    }

    fn handle_events(&mut self) -> Result<(), NetError> {
        let frame = self.current_frame();
        for event in self.p2p.events().collect::<Vec<_>>() {
            match event {
                GgrsEvent::Disconnected { addr } => {
                    let player = self.player_of(addr);
                    return Err(NetError::PeerLeft {
                        peer: addr,
                        player,
                        frame,
                    });
                }
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    addr,
                } => {
                    return Err(NetError::Desync {
                        frame: frame + self.base,
                        peer: addr,
                        local: local_checksum,
                        remote: remote_checksum,
                    });
                }
                GgrsEvent::WaitRecommendation { skip_frames } => {
                    self.waiting = self.waiting.max(skip_frames);
                }
                _ => {}
            }
        }
        self.check_called_off()
    }

    /// The last frame whose input every peer has confirmed and that this peer has played
    /// with that input (-1 before the first): its picture, log and input are final.
    pub fn confirmed_frame(&self) -> i32 {
        self.played_confirmed + self.base
    }

    /// The frame GGRS is at.
    pub fn current_frame(&self) -> i32 {
        self.p2p.current_frame() + self.base
    }

    /// Gives GGRS's synchronization `timeout` without a word from a peer (a rebuilt match's
    /// peers may still be replaying its state).
    pub(crate) fn set_sync_timeout(&mut self, timeout: Duration) {
        self.sync_timeout = timeout;
    }

    /// The number of this GGRS session in the match (0 at first; one more at each
    /// rematch or rejoin).
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Whether every peer has acknowledged every word this peer sent.
    pub fn all_sent(&self) -> bool {
        self.options.peer_players().iter().all(|&(_, player)| {
            self.p2p
                .network_stats(player)
                .is_ok_and(|s| s.send_queue_len == 0)
        })
    }

    /// The status line's figures.
    pub fn status(&self) -> NetStatus {
        let ping_ms = self
            .options
            .peer_players()
            .iter()
            .filter_map(|&(_, player)| self.p2p.network_stats(player).ok())
            .map(|s| s.ping)
            .max()
            .unwrap_or(0);
        NetStatus {
            ping_ms,
            rollback: self.rollback.stats.last,
            input_delay: self.options.input_delay,
            frames_ahead: self.p2p.frames_ahead(),
        }
    }

    /// What rollback has cost so far.
    pub fn stats(&self) -> RollbackStats {
        self.rollback.stats
    }

    /// The options the match was joined with.
    pub fn options(&self) -> &NetOptions {
        &self.options
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_confirmed_plays_of_a_frame_are_logged_once() {
        let mut log = ConfirmedLog::default();
        let lines = |s: &str| vec![s.to_string()];
        log.record(1, lines("a"));
        log.record(2, lines("guess"));
        log.record(3, lines("later guess"));
        assert_eq!(log.take_confirmed(-1), Vec::<String>::new());
        // Frame 0 (ending at vblank 1) is confirmed.
        assert_eq!(log.take_confirmed(0), lines("a"));
        // Frame 1 is played again with the right input: its guess and what followed go.
        log.record(2, lines("right"));
        log.record(3, vec![]);
        assert_eq!(log.take_confirmed(2), lines("right"));
        assert_eq!(log.take_confirmed(2), Vec::<String>::new());
    }
}
