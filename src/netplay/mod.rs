//! Rollback netplay over UDP on the `ggrs` crate: 2-4 players, each peer running the whole
//! console from the same power-on, sending only its pad's button word for each frame.
//!
//! A peer runs ahead on predicted input (the last word seen from each remote player) and,
//! when a remote word arrives that differs from the prediction, GGRS asks it to go back to
//! the snapshot of that frame and play the frames since again with the right input
//! ([`rollback`]: the [`Session`]'s in-memory snapshots). Before GGRS starts, peers greet
//! each other ([`handshake`]): a peer with another build, another version of the cart's
//! files or another idea of the players is refused with one line on both sides. A peer that
//! leaves or stops answering ends the match; so does a desync (the machines' checksums,
//! compared every [`DESYNC_INTERVAL`] frames, differing), reported with its frame.
//!
//! Every peer powers on with empty save RAM and keeps none: save data could differ between
//! players' machines, and the machines must not.
//!
//! [`Session`]: crate::session::Session

pub mod handshake;
pub mod play;
pub mod rollback;
pub mod socket;
pub mod synctest;

use std::net::SocketAddr;

use crate::console::ConsoleSnapshot;
use crate::input::ButtonWord;
use crate::session::Fault;

/// GGRS's types for Kairo: a button word per player and frame, whole-console snapshots,
/// peers named by their UDP address.
#[derive(Debug)]
pub struct KairoGgrs;

impl ggrs::Config for KairoGgrs {
    type Input = ButtonWord;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = ConsoleSnapshot;
    type Address = SocketAddr;
}

/// Frames a local press waits before it counts, on every peer alike (the default).
pub const INPUT_DELAY: usize = 2;
/// Frames a peer may run ahead of the input it has (and so go back) at most.
pub const MAX_ROLLBACK: usize = 8;
/// Confirmed frames between checksum comparisons (desync detection).
pub const DESYNC_INTERVAL: u32 = 10;
/// How long a silent peer has before the match ends, in milliseconds.
pub const DISCONNECT_MS: u64 = 3000;
/// Most players in a match.
pub const MAX_PLAYERS: usize = crate::spec::PLAYERS;

/// Why a match could not start or had to end.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("cannot use UDP port {port}: {source}")]
    Bind { port: u16, source: std::io::Error },
    #[error("{0}")]
    Setup(String),
    #[error("refused {peer}: {reason}")]
    Refused { peer: SocketAddr, reason: String },
    #[error("{peer} refused this peer: {reason}")]
    RefusedBy { peer: SocketAddr, reason: String },
    #[error("no answer from {peer} within {seconds} s (is it running, and is the port open?)")]
    NoAnswer { peer: SocketAddr, seconds: u64 },
    #[error("nobody joined within {seconds} s")]
    NobodyJoined { seconds: u64 },
    #[error("{peer} left the match at frame {frame}")]
    PeerLeft { peer: SocketAddr, frame: i32 },
    #[error(
        "desync at frame {frame}: this machine and {peer}'s differ (checksums {local:032x} and {remote:032x})"
    )]
    Desync {
        frame: i32,
        peer: SocketAddr,
        local: u128,
        remote: u128,
    },
    #[error("the sync test found different machines after a rollback at frames {frames:?}")]
    SyncTest { frames: Vec<i32> },
    #[error("the cart stopped at frame {}: {}", .0.frame, .0.error)]
    Fault(Fault),
    #[error("GGRS: {0}")]
    Ggrs(#[from] ggrs::GgrsError),
}
