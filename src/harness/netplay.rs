//! `kairo bench netplay`'s matches: two peers in this process playing through a delaying
//! [`Relay`](super::relay::Relay) on loopback.

use std::time::Duration;

use crate::commands::netplay::{NetRun, play};
use crate::movie::Movie;
use crate::netplay::NetError;
use crate::netplay::play::NetOptions;
use crate::netplay::rollback::RollbackStats;
use crate::session::Session;

/// What `kairo bench netplay` measured of one match.
#[derive(Debug)]
pub struct MatchFigures {
    /// Frames a second each peer reached (60 when nothing held it back).
    pub fps: [f64; 2],
    pub stats: [RollbackStats; 2],
    /// Bytes a second each peer sent (UDP payload).
    pub sent_per_second: [f64; 2],
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
    let mut runs = Vec::new();
    for peer in peers {
        let run = peer
            .join()
            .map_err(|_| NetError::Setup("a peer's thread panicked".into()))??;
        runs.push(run);
    }
    let fps = |run: &NetRun| frames as f64 / run.played.as_secs_f64();
    let rate = |run: &NetRun| run.traffic.sent_bytes as f64 / run.played.as_secs_f64();
    Ok(MatchFigures {
        fps: [fps(&runs[0]), fps(&runs[1])],
        stats: [runs[0].stats, runs[1].stats],
        sent_per_second: [rate(&runs[0]), rate(&runs[1])],
    })
}
