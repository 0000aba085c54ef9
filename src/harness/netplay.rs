//! `kairo bench netplay`'s and `kairo bench rooms`' matches: two peers in this process
//! playing through a delaying [`Relay`](super::relay::Relay) on loopback over UDP, or in a
//! room of a lobby server in this process, over WebRTC, each peer's messages held back by a
//! [`DelayLink`] (the same delay, one way).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::commands::netplay::{NetRun, play, play_room};
use crate::movie::Movie;
use crate::netplay::NetError;
use crate::netplay::link::{Link, PeerAddr};
use crate::netplay::play::NetOptions;
use crate::netplay::rollback::RollbackStats;
use crate::session::Session;

/// What `kairo bench netplay` measured of one match.
#[derive(Debug)]
pub struct MatchFigures {
    /// Frames a second each peer reached (60 when nothing held it back).
    pub fps: [f64; 2],
    pub stats: [RollbackStats; 2],
    /// Bytes a second each peer sent and received (payload).
    pub sent_per_second: [f64; 2],
    pub received_per_second: [f64; 2],
    /// Real time from setting out to meet the other peer to the first frame.
    pub met_in: [Duration; 2],
}

impl MatchFigures {
    /// The figures of the peers' threads' matches, once both have ended.
    fn of_peers(
        peers: Vec<std::thread::JoinHandle<Result<NetRun, NetError>>>,
        frames: u64,
    ) -> Result<MatchFigures, NetError> {
        let mut runs = Vec::new();
        for peer in peers {
            let run = peer
                .join()
                .map_err(|_| NetError::Setup("a peer's thread panicked".into()))??;
            runs.push(run);
        }
        Ok(MatchFigures::of(&runs, frames))
    }

    fn of(runs: &[NetRun], frames: u64) -> MatchFigures {
        let seconds = |run: &NetRun| run.played.as_secs_f64().max(1e-3);
        let each = |f: &dyn Fn(&NetRun) -> f64| [f(&runs[0]), f(&runs[1])];
        MatchFigures {
            fps: each(&|run| frames as f64 / seconds(run)),
            stats: [runs[0].stats, runs[1].stats],
            sent_per_second: each(&|run| run.traffic.sent_bytes as f64 / seconds(run)),
            received_per_second: each(&|run| run.traffic.received_bytes as f64 / seconds(run)),
            met_in: [runs[0].met_in, runs[1].met_in],
        }
    }
}

/// Plays a match of `frames` frames of the cart at `cart` between two peers in this process
/// (threads), through a [`Relay`](super::relay::Relay) delaying each datagram by `delay`,
/// player 1 pressing `press[0]` and player 2 `press[1]`.
pub(crate) fn bench_match(
    cart: &std::path::Path,
    delay: Duration,
    frames: u64,
    press: [Movie; 2],
) -> Result<MatchFigures, NetError> {
    use std::net::{SocketAddr, UdpSocket};
    let port = || -> Result<u16, NetError> {
        let bound = UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .map_err(|e| NetError::Setup(format!("no free UDP port: {e}")))?;
        Ok(bound.port())
    };
    let ports = [port()?, port()?];
    let local = |p: u16| SocketAddr::from(([127, 0, 0, 1], p));
    let relay =
        super::relay::Relay::start([local(ports[0]), local(ports[1])], delay, Duration::ZERO, 0)
            .map_err(|e| NetError::Setup(format!("cannot start the relay: {e}")))?;
    let cart = crate::cart::Cart::open(cart)
        .map_err(|e| NetError::Setup(format!("{}: {e}", cart.display())))?;
    let peers: Vec<_> = (0..2)
        .map(|i| {
            let (cart, face, press) = (cart.clone(), relay.faces[i], press[i].clone());
            let port = ports[i];
            std::thread::spawn(move || -> Result<NetRun, NetError> {
                let mut game = Session::start(cart, crate::saveram::SaveRam::default())
                    .map_err(|e| NetError::Setup(e.to_string()))?;
                let options = NetOptions::new(port, vec![face], i);
                play(&mut game, options, frames, Some(&press), &mut |_| {})
            })
        })
        .collect();
    MatchFigures::of_peers(peers, frames)
}

/// Messages held back: when each goes, to whom, whether reliably, and the bytes.
type Held = Arc<Mutex<VecDeque<(Instant, PeerAddr, bool, Vec<u8>)>>>;

/// A link whose sending waits `delay` (a thread sends each message when its time comes).
pub struct DelayLink {
    inner: Arc<dyn Link>,
    queue: Held,
    delay: Duration,
}

impl DelayLink {
    pub fn new(inner: Arc<dyn Link>, delay: Duration) -> DelayLink {
        let queue: Held = Arc::default();
        let (pump_queue, pump_link) = (Arc::downgrade(&queue), inner.clone());
        std::thread::spawn(move || {
            while let Some(queue) = pump_queue.upgrade() {
                let now = Instant::now();
                let due: Vec<_> = {
                    let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
                    let ready = queue.iter().take_while(|(at, ..)| *at <= now).count();
                    queue.drain(..ready).collect()
                };
                drop(queue);
                for (_, to, reliable, bytes) in due {
                    match reliable {
                        true => pump_link.send_reliable(to, &bytes),
                        false => pump_link.send(to, &bytes),
                    };
                }
                std::thread::sleep(Duration::from_micros(500));
            }
        });
        DelayLink {
            inner,
            queue,
            delay,
        }
    }

    fn hold(&self, to: PeerAddr, reliable: bool, bytes: &[u8]) -> bool {
        if !self.inner.present().contains(&to) {
            return false;
        }
        let at = Instant::now() + self.delay;
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back((at, to, reliable, bytes.to_vec()));
        true
    }
}

impl Link for DelayLink {
    fn send(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.hold(to, false, bytes)
    }
    fn send_reliable(&self, to: PeerAddr, bytes: &[u8]) -> bool {
        self.hold(to, true, bytes)
    }
    fn receive(&self) -> Option<(PeerAddr, Vec<u8>)> {
        self.inner.receive()
    }
    fn present(&self) -> Vec<PeerAddr> {
        self.inner.present()
    }
    fn gone(&self) -> Vec<PeerAddr> {
        self.inner.gone()
    }
}

/// A lobby server on a free loopback port, on a thread of this process (it runs until the
/// process ends); its URL.
pub fn lobby_in_process() -> Result<String, NetError> {
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let failed = crate::rooms::lobby::serve([127, 0, 0, 1].into(), 0, false, |addr| {
            let _ = tell.send(Ok(addr));
        });
        if let Err(e) = failed {
            let _ = tell.send(Err(e));
        }
    });
    let addr = told
        .recv_timeout(Duration::from_secs(10))
        .map_err(|_| NetError::Setup("the lobby did not start".into()))??;
    Ok(format!("ws://{addr}"))
}

/// Plays a match as [`bench_match`] does, in a room of the lobby at `server` over WebRTC
/// (no STUN: loopback), each peer's messages held back `delay`.
pub(crate) fn bench_room_match(
    server: &str,
    cart: &std::path::Path,
    delay: Duration,
    frames: u64,
    press: [Movie; 2],
) -> Result<MatchFigures, NetError> {
    let cart = crate::cart::Cart::open(cart)
        .map_err(|e| NetError::Setup(format!("{}: {e}", cart.display())))?;
    let room = crate::rooms::new_room_code();
    let peers: Vec<_> = (0..2)
        .map(|i| {
            let (cart, press) = (cart.clone(), press[i].clone());
            let mut options = crate::rooms::room_options(
                server,
                &room,
                None,
                crate::rooms::IceServers::default(),
            );
            if let Ok(options) = &mut options {
                let url = crate::rooms::room_url(server, &room);
                options.connect = Arc::new(move |cancel| {
                    let ice = crate::rooms::IceServers::default();
                    let link = crate::rooms::link::RoomLink::join(&url, &ice, cancel)?;
                    Ok(Box::new(DelayLink::new(Arc::new(link), delay)) as Box<dyn Link>)
                });
            }
            std::thread::spawn(move || -> Result<NetRun, NetError> {
                let mut game = Session::start(cart, crate::saveram::SaveRam::default())
                    .map_err(|e| NetError::Setup(e.to_string()))?;
                let options = NetOptions::in_room(options?, 2, i);
                play_room(&mut game, options, frames, Some(&press), None, &mut |_| {})
            })
        })
        .collect();
    MatchFigures::of_peers(peers, frames)
}
