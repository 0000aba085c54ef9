//! A room's WebRTC data channels as a netplay [`Link`]: `matchbox_socket` connects to the
//! lobby server, which introduces the room's members to each other; each pair then talks
//! directly over an unreliable, unordered data channel (UDP-like, as GGRS wants).
//!
//! The socket's message loop (signalling and the peer connections) runs on a thread of its
//! own; the link only moves packets in and out of its queues, so it never blocks.
//!
//! The link joins the room afresh, under a new id (the lobby introduces it again and new
//! meetings start), when:
//! - a meeting never completes (a member introduced by the lobby whose connection has not
//!   opened within [`MEETING_LIMIT`]) while this peer has met nobody: members already met are
//!   never dropped for it;
//! - the socket's message loop has ended: matchbox_socket 0.15 panics in it when a member
//!   leaves while its connection is being made (its data channels close before they
//!   opened), which ends every connection of this peer; or the lobby went away while nobody
//!   was connected. The members are gone, and a match pauses and resumes as after a drop.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use matchbox_socket::{PeerId, PeerState, RtcIceServerConfig, WebRtcSocket};

use super::IceServers;
use super::signaller::{Introductions, SharedIntroductions, WatchedBuilder};
use crate::netplay::NetError;
use crate::netplay::link::{Link, PeerAddr};

/// How long the lobby server has to accept the connection and give this peer its id.
pub const LOBBY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a member the lobby introduced may take to be met (WebRTC's offer, answer, ICE,
/// DTLS and SCTP; well under a second on a LAN, a few seconds across the world) before a
/// peer that has met nobody joins the room afresh.
pub const MEETING_LIMIT: Duration = Duration::from_secs(12);

/// How long after joining (afresh) the link waits before joining afresh again because its
/// message loop ended (a lobby that is down is tried this often).
const REJOIN_PAUSE: Duration = Duration::from_secs(2);

/// The data channels: GGRS and the greeting on an unreliable, unordered one (as UDP); the
/// spectators' streams on a reliable, ordered one.
const UNRELIABLE: usize = 0;
const RELIABLE: usize = 1;

/// What the socket's message loop ended with, once it has.
type LoopEnd = Arc<Mutex<Option<String>>>;

/// A member of a room, talking to the others through the lobby server's introductions.
pub struct RoomLink {
    inner: Mutex<Inner>,
}

struct Inner {
    socket: WebRtcSocket,
    /// What the socket's message loop ended with, once it has.
    ended: LoopEnd,
    /// The members the lobby introduced and not met yet.
    introductions: SharedIntroductions,
    /// The room's URL and the ICE servers, to join afresh.
    url: String,
    ice: IceServers,
    /// Times the link joined the room afresh.
    rejoins: u32,
    /// When the link last joined (afresh).
    joined_at: Instant,
    /// Packets taken from the socket, not yet handed out.
    queue: VecDeque<(PeerId, Vec<u8>)>,
    /// Members connected now.
    present: Vec<PeerId>,
    /// Members that were connected and are not any more.
    gone: Vec<PeerId>,
}

impl Inner {
    /// Takes the socket's news: members come and gone, and packets.
    fn update(&mut self) {
        if let Ok(changes) = self.socket.try_update_peers() {
            for (peer, state) in changes {
                lock(&self.introductions).settled(peer);
                match state {
                    PeerState::Connected => {
                        self.gone.retain(|p| *p != peer);
                        if !self.present.contains(&peer) {
                            self.present.push(peer);
                        }
                    }
                    PeerState::Disconnected => {
                        self.present.retain(|p| *p != peer);
                        if !self.gone.contains(&peer) {
                            self.gone.push(peer);
                        }
                    }
                }
            }
        }
        for index in [UNRELIABLE, RELIABLE] {
            if let Ok(channel) = self.socket.get_channel_mut(index) {
                for (peer, packet) in channel.receive() {
                    self.queue.push_back((peer, packet.to_vec()));
                }
            }
        }
        if self.present.is_empty() && lock(&self.introductions).stuck(MEETING_LIMIT) {
            self.join_afresh(&format!(
                "a meeting in the room took over {} s",
                MEETING_LIMIT.as_secs()
            ));
        }
        let ended = lock(&self.ended).clone();
        if let Some(why) = ended
            && self.joined_at.elapsed() >= REJOIN_PAUSE
        {
            // Nothing reaches the members met through the ended loop any more.
            for peer in std::mem::take(&mut self.present) {
                if !self.gone.contains(&peer) {
                    self.gone.push(peer);
                }
            }
            self.join_afresh(&why);
        }
    }

    /// Leaves the room and joins it again under a new id (not waiting for the lobby: the
    /// new socket is used as soon as it is made).
    fn join_afresh(&mut self, why: &str) {
        log::info!("{why}: joining the room afresh");
        self.joined_at = Instant::now();
        match start_socket(&self.url, &self.ice) {
            Ok((socket, ended, introductions)) => {
                self.socket.close();
                self.socket = socket;
                self.ended = ended;
                self.introductions = introductions;
                self.rejoins += 1;
            }
            // No thread for the new socket: the old one stays, and is tried again later.
            Err(e) => {
                log::warn!("{e}");
                *lock(&self.introductions) = Introductions::default();
            }
        }
    }
}

/// What a panic said, as text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The name of the threads running a room's message loop.
const ROOM_THREAD: &str = "kairo-room";

/// Has a panic on a room's thread logged as one line (it is recovered from: the link joins
/// the room afresh) instead of printed with a backtrace; other threads' panics go to the
/// hook that was there.
fn quiet_room_panics() {
    static SET: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(ROOM_THREAD) {
                log::warn!("the room's connection failed: {info}");
            } else {
                before(info);
            }
        }));
    });
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes a socket for the room at `url` and runs its message loop on a thread of its own.
fn start_socket(
    url: &str,
    ice: &IceServers,
) -> Result<(WebRtcSocket, LoopEnd, SharedIntroductions), NetError> {
    let introductions = SharedIntroductions::default();
    let (socket, message_loop) = WebRtcSocket::builder(url)
        .signaller_builder(Arc::new(WatchedBuilder {
            introductions: introductions.clone(),
        }))
        .ice_server(RtcIceServerConfig {
            urls: ice.urls(),
            username: ice.turn_user.clone(),
            credential: ice.turn_password.clone(),
        })
        .reconnect_attempts(Some(2))
        .add_unreliable_channel()
        .add_reliable_channel()
        .build();
    let ended = LoopEnd::default();
    let end = ended.clone();
    quiet_room_panics();
    std::thread::Builder::new()
        .name(ROOM_THREAD.into())
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                futures::executor::block_on(message_loop)
            }));
            let said = match result {
                Ok(Ok(())) => "the lobby server closed the connection".to_string(),
                Ok(Err(e)) => e.to_string(),
                Err(panic) => format!(
                    "the room's connection failed ({})",
                    panic_text(panic.as_ref())
                ),
            };
            *lock(&end) = Some(said);
        })
        .map_err(|e| NetError::Setup(format!("cannot start the room's thread: {e}")))?;
    Ok((socket, ended, introductions))
}

fn addr(peer: PeerId) -> PeerAddr {
    PeerAddr::Room(peer.0.as_u128())
}

fn peer_id(addr: PeerAddr) -> Option<PeerId> {
    match addr {
        PeerAddr::Room(id) => Some(PeerId(uuid::Uuid::from_u128(id))),
        PeerAddr::Udp(_) => None,
    }
}

impl RoomLink {
    /// Joins the room at `url` (`ws://HOST:PORT/ROOM`): connects to the lobby server and
    /// waits (up to [`LOBBY_TIMEOUT`]) for it to give this peer its id. The peers are met
    /// later, as they come.
    pub fn join(url: &str, ice: &IceServers, cancel: &AtomicBool) -> Result<RoomLink, NetError> {
        super::trace::start_if_asked();
        let (mut socket, ended, introductions) = start_socket(url, ice)?;
        let start = Instant::now();
        loop {
            if socket.id().is_some() {
                break;
            }
            if let Some(why) = lock(&ended).clone() {
                return Err(NetError::Setup(format!(
                    "cannot join the room at {url}: {why}"
                )));
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(NetError::Cancelled);
            }
            if start.elapsed() >= LOBBY_TIMEOUT {
                return Err(NetError::Setup(format!(
                    "the lobby server at {url} did not answer within {} s",
                    LOBBY_TIMEOUT.as_secs()
                )));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(RoomLink {
            inner: Mutex::new(Inner {
                socket,
                ended,
                introductions,
                url: url.to_string(),
                ice: ice.clone(),
                rejoins: 0,
                joined_at: Instant::now(),
                queue: VecDeque::new(),
                present: Vec::new(),
                gone: Vec::new(),
            }),
        })
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    /// Why the connection to the lobby server ended, if it has.
    pub fn ended(&self) -> Option<String> {
        lock(&self.inner().ended).clone()
    }

    /// Times this link joined the room afresh (a meeting stuck, its message loop ended).
    pub fn rejoins(&self) -> u32 {
        let mut inner = self.inner();
        inner.update();
        inner.rejoins
    }
}

impl RoomLink {
    fn send_on(&self, index: usize, to: PeerAddr, bytes: &[u8]) -> bool {
        let Some(peer) = peer_id(to) else {
            return false;
        };
        let mut inner = self.inner();
        if !inner.present.contains(&peer) {
            return false;
        }
        match inner.socket.get_channel_mut(index) {
            Ok(channel) => channel.try_send(bytes.to_vec().into(), peer).is_ok(),
            Err(_) => false,
        }
    }
}

impl Link for RoomLink {
    fn send(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.send_on(UNRELIABLE, to, bytes)
    }

    fn send_reliable(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.send_on(RELIABLE, to, bytes)
    }

    fn receive(&self) -> Option<(PeerAddr, Vec<u8>)> {
        let mut inner = self.inner();
        if inner.queue.is_empty() {
            inner.update();
        }
        inner
            .queue
            .pop_front()
            .map(|(peer, bytes)| (addr(peer), bytes))
    }

    fn present(&self) -> Vec<PeerAddr> {
        let mut inner = self.inner();
        inner.update();
        inner.present.iter().copied().map(addr).collect()
    }

    fn gone(&self) -> Vec<PeerAddr> {
        self.inner().gone.iter().copied().map(addr).collect()
    }

    fn relayed(&self, to: PeerAddr) -> Option<bool> {
        let peer = peer_id(to)?;
        let mut inner = self.inner();
        inner.update();
        inner.socket.is_relayed(peer)
    }
}

impl Drop for RoomLink {
    fn drop(&mut self) {
        // Leaves the room: the lobby server tells the others, and the message loop ends.
        self.inner().socket.close();
    }
}
