//! A match as one peer plays it: greeting the peers, then one call of [`NetMatch::step`] per
//! host frame (1/60 s), which sends this peer's word, takes the others', and advances the
//! session (going back and playing again when a prediction was wrong). What the status
//! line shows (ping, frames of rollback, input delay) is in [`NetStatus`].

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::Duration;

use ggrs::{DesyncDetection, GgrsError, GgrsEvent, P2PSession, PlayerType, SessionBuilder};

use super::NetError;
use super::handshake::{ANYONE, Hello, greet};
use super::rollback::{Checksums, Rollback, RollbackStats};
use super::socket::NetSocket;
use super::{DESYNC_INTERVAL, DISCONNECT_MS, INPUT_DELAY, KairoGgrs, MAX_PLAYERS, MAX_ROLLBACK};
use crate::input::ButtonWord;
use crate::savestate::{BUILD_ID, cart_digest};
use crate::session::Session;

/// How to join a match.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// The local UDP port.
    pub port: u16,
    /// The other peers, in player order (this peer's own number left out).
    pub peers: Vec<SocketAddr>,
    /// This peer's player number, 0-based.
    pub player: usize,
    /// Frames a local press waits.
    pub input_delay: usize,
    /// How long to wait for the peers' greetings.
    pub greet_timeout: Duration,
}

impl NetOptions {
    /// Options with the defaults: input delay [`INPUT_DELAY`], 30 s to meet the peers.
    pub fn new(port: u16, peers: Vec<SocketAddr>, player: usize) -> NetOptions {
        NetOptions {
            port,
            peers,
            player,
            input_delay: INPUT_DELAY,
            greet_timeout: Duration::from_secs(30),
        }
    }

    /// Hosting a match of two on `port` as player 1: the peer is whoever joins first.
    pub fn host(port: u16) -> NetOptions {
        NetOptions::new(port, vec![ANYONE], 0)
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
    pub(crate) fn peer_players(&self) -> Vec<(SocketAddr, usize)> {
        let others = (0..self.players()).filter(|&p| p != self.player);
        self.peers.iter().copied().zip(others).collect()
    }

    fn check(&self) -> Result<(), NetError> {
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

/// What a peer says of itself and whom it will meet: everything the greeting needs, which
/// can run on another thread (the window keeps drawing meanwhile).
#[derive(Clone, Debug)]
pub struct Greeting {
    hello: Hello,
    options: NetOptions,
}

/// A socket whose peers have all answered, with their addresses.
#[derive(Debug)]
pub struct Greeted {
    socket: UdpSocket,
    hello: Hello,
    options: NetOptions,
}

impl Greeted {
    /// The options, with the addresses of peers that were not known before (a host's
    /// joiner) filled in.
    pub fn options(&self) -> &NetOptions {
        &self.options
    }
}

impl Greeting {
    /// The greeting of a peer running `cart`.
    pub(crate) fn for_cart(cart: &crate::cart::Cart, options: NetOptions) -> Greeting {
        Greeting {
            hello: Hello {
                build: BUILD_ID.to_string(),
                cart: cart.name().to_string(),
                digest: cart_digest(cart),
                players: options.players() as u8,
                player: options.player as u8,
                seen: false,
            },
            options,
        }
    }

    /// Binds the port and greets the peers until each has answered (or refused).
    pub(crate) fn greet(self) -> Result<Greeted, NetError> {
        let Greeting { hello, mut options } = self;
        options.check()?;
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, options.port)).map_err(|source| {
            NetError::Bind {
                port: options.port,
                source,
            }
        })?;
        let mut peers: Vec<(SocketAddr, u8)> = options
            .peer_players()
            .into_iter()
            .map(|(addr, p)| (addr, p as u8))
            .collect();
        greet(&socket, &hello, &mut peers, options.greet_timeout)?;
        options.peers = peers.into_iter().map(|(addr, _)| addr).collect();
        Ok(Greeted {
            socket,
            hello,
            options,
        })
    }
}

/// The lines a cart logs during a match, held until their frame is confirmed: a frame first
/// played on a guess may be played again with other input, and log other lines (or none);
/// only the confirmed play's lines are shown, once.
#[derive(Debug, Default)]
pub struct ConfirmedLog {
    /// Lines by the vblank count after the frame that logged them.
    pending: std::collections::BTreeMap<u64, Vec<String>>,
}

impl ConfirmedLog {
    /// The lines the frame ending at `vblank` logged (replacing an earlier play's).
    pub fn record(&mut self, vblank: u64, lines: Vec<String>) {
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

/// What one host frame did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Still meeting the peers (GGRS synchronizing).
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
    pub frames_ahead: i32,
}

/// A match in progress.
pub struct NetMatch {
    p2p: P2PSession<KairoGgrs>,
    options: NetOptions,
    rollback: Rollback,
    /// Host frames still to wait (GGRS asked this peer to let the others catch up).
    waiting: u32,
}

impl std::fmt::Debug for NetMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetMatch")
            .field("options", &self.options)
            .field("stats", &self.rollback.stats)
            .finish_non_exhaustive()
    }
}

impl NetMatch {
    /// Binds the port, greets the peers (checking build, cart and players) and starts GGRS.
    /// `game` is the session the match will run: just powered on, with empty save RAM.
    pub fn connect(game: &Session, options: NetOptions) -> Result<NetMatch, NetError> {
        let greeted = Greeting::for_cart(game.cart(), options).greet()?;
        NetMatch::start(greeted)
    }

    /// Starts GGRS on a socket whose peers have all been greeted.
    pub fn start(greeted: Greeted) -> Result<NetMatch, NetError> {
        let Greeted {
            socket,
            hello,
            options,
        } = greeted;
        let seen = Hello {
            seen: true,
            ..hello
        };
        let socket = NetSocket::new(socket, seen.datagram())
            .map_err(|e| NetError::Setup(format!("cannot set up the UDP socket: {e}")))?;
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
            rollback: Rollback::new(Checksums::EveryNth(DESYNC_INTERVAL)),
            waiting: 0,
        })
    }

    /// One host frame: sends and takes words, and advances `game` one frame with `input` as
    /// this peer's word when it may. `after_frame` sees the session after every vblank it
    /// advanced, told whether the vblank was played before (a replay after going back).
    pub fn step(
        &mut self,
        game: &mut Session,
        input: ButtonWord,
        after_frame: &mut dyn FnMut(&mut Session, bool),
    ) -> Result<Step, NetError> {
        self.p2p.poll_remote_clients();
        self.handle_events()?;
        if self.p2p.current_state() != ggrs::SessionState::Running {
            return Ok(Step::Synchronizing);
        }
        if self.waiting > 0 {
            self.waiting -= 1;
            return Ok(Step::Waited);
        }
        self.p2p.add_local_input(self.options.player, input)?;
        match self.p2p.advance_frame() {
            Ok(requests) => {
                self.rollback.fulfil(game, requests, after_frame);
                Ok(Step::Advanced)
            }
            Err(GgrsError::PredictionThreshold) => Ok(Step::Waited),
            Err(e) => Err(e.into()),
        }
    }

    /// Sends and takes words without advancing (waiting at the end of a match for the peers
    /// to have everything).
    pub fn poll(&mut self) -> Result<(), NetError> {
        self.p2p.poll_remote_clients();
        self.handle_events()
    }

    fn handle_events(&mut self) -> Result<(), NetError> {
        let frame = self.p2p.current_frame();
        for event in self.p2p.events().collect::<Vec<_>>() {
            match event {
                GgrsEvent::Disconnected { addr } => {
                    return Err(NetError::PeerLeft { peer: addr, frame });
                }
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    addr,
                } => {
                    return Err(NetError::Desync {
                        frame,
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
        Ok(())
    }

    /// The last frame whose input every peer has confirmed (-1 before the first).
    pub(crate) fn confirmed_frame(&self) -> i32 {
        self.p2p.confirmed_frame()
    }

    /// The frame GGRS is at.
    pub(crate) fn current_frame(&self) -> i32 {
        self.p2p.current_frame()
    }

    /// Whether every peer has acknowledged every word this peer sent.
    pub(crate) fn all_sent(&self) -> bool {
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
