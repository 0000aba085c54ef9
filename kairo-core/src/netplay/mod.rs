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
pub mod link;
pub mod play;
pub mod resume;
pub mod rollback;
pub mod socket;
pub mod spectate;
pub mod stepped;
pub mod synctest;

use crate::console::ConsoleSnapshot;
use crate::input::ButtonWord;
use crate::session::Fault;

/// GGRS's types for Kairo: a button word per player and frame, whole-console snapshots,
/// peers named by their address on the link (UDP, or a room's data channels).
#[derive(Debug)]
pub(crate) struct KairoGgrs;

impl ggrs::Config for KairoGgrs {
    type Input = ButtonWord;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = ConsoleSnapshot;
    type Address = link::PeerAddr;
}

/// Frames a local press waits before it counts, on every peer alike (the default).
pub(crate) const INPUT_DELAY: usize = 2;
/// The most frames of input delay a match takes (half a second): more makes a game
/// unplayable, and GGRS holds 128 frames of input in all.
pub(crate) const MAX_INPUT_DELAY: usize = 30;
/// Frames a peer may run ahead of the input it has (and so go back) at most. GGRS keeps
/// the last 2 x this many frames of a peer's input to decode its next message against, and
/// a message sent before the peer had our acknowledgement starts a round trip back: so
/// round trips up to about 2 x this many frames (~500 ms) keep the game at full speed.
pub(crate) const MAX_ROLLBACK: usize = 16;
/// Confirmed frames between checksum comparisons (desync detection).
pub(crate) const DESYNC_INTERVAL: u32 = 10;
/// How long a silent peer has before the match ends, in milliseconds.
pub(crate) const DISCONNECT_MS: u64 = 3000;
/// How long the start of a match (GGRS's synchronization, after the greeting) may go
/// without a word from a peer.
pub(crate) const SYNC_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a running match may go without a new confirmed frame while the peers still
/// answer (a peer that is there but stopped playing) before it ends.
pub(crate) const STALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// Most players in a match.
pub(crate) const MAX_PLAYERS: usize = crate::spec::PLAYERS;

/// Why a match could not start or had to end.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("cannot use UDP port {port}: {source}")]
    Bind { port: u16, source: std::io::Error },
    #[error("{0}")]
    Setup(String),
    #[error("left before the match started")]
    Cancelled,
    #[error("refused {peer}: {reason}")]
    Refused {
        peer: link::PeerAddr,
        reason: String,
    },
    #[error("{peer} refused this peer: {reason}")]
    RefusedBy {
        peer: link::PeerAddr,
        reason: String,
    },
    #[error("{peer} called the match off: {reason}")]
    CalledOff {
        peer: link::PeerAddr,
        reason: String,
    },
    #[error(
        "no answer from {} within {seconds} s (is it running, and is the port open?)",
        handshake::player_at(*player, *peer)
    )]
    NoAnswer {
        peer: link::PeerAddr,
        player: usize,
        seconds: u64,
    },
    #[error("nobody joined within {seconds} s{}", refused.as_ref().map(|r| format!(" ({r})")).unwrap_or_default())]
    NobodyJoined {
        seconds: u64,
        refused: Option<String>,
    },
    #[error(
        "{} stopped answering as the match was starting (nothing from it for {seconds} s)",
        handshake::player_at(*player, *peer)
    )]
    Vanished {
        peer: link::PeerAddr,
        player: usize,
        seconds: u64,
    },
    #[error(
        "{} left the match at frame {frame} (nothing from it for {} s)",
        handshake::player_at(*player, *peer),
        DISCONNECT_MS / 1000
    )]
    PeerLeft {
        peer: link::PeerAddr,
        player: usize,
        frame: i32,
    },
    #[error(
        "the match stood still at frame {frame} for {seconds} s: no input came from {waiting_for}"
    )]
    Stalled {
        frame: i32,
        seconds: u64,
        waiting_for: String,
    },
    #[error(
        "desync at frame {frame}: this machine and {peer}'s differ ({}; checksums {local:032x} and {remote:032x})",
        desync_part(*local, *remote)
    )]
    Desync {
        frame: i32,
        peer: link::PeerAddr,
        local: u128,
        remote: u128,
    },
    #[error(
        "no match to watch in room {room} within {seconds} s (player 1 takes spectators once its match has started)"
    )]
    NothingToWatch { room: String, seconds: u64 },
    #[error("{why}; nobody came back within {seconds} s")]
    NotBack { why: Box<NetError>, seconds: u64 },
    #[error("{peer} is rebuilding the match")]
    Rebuilding { peer: link::PeerAddr },
    #[error("the match ended at frame {frame}: {reason}")]
    WatchEnded { frame: u64, reason: String },
    #[error("the sync test found different machines after a rollback at frames {frames:?}")]
    SyncTest { frames: Vec<i32> },
    #[error("the cart stopped at frame {}: {}", .0.frame, .0.error)]
    Fault(Fault),
    #[error("GGRS: {0}")]
    Ggrs(#[from] ggrs::GgrsError),
}

/// Which part of two machines' checksums ([`Session::machine_checksum`]: the hardware in
/// the high half, the cart's Lua state in the low half) differs, in words.
///
/// [`Session::machine_checksum`]: crate::session::Session::machine_checksum
pub(crate) fn desync_part(local: u128, remote: u128) -> &'static str {
    let hardware = |c: u128| c >> 64;
    let script = |c: u128| c as u64;
    match (
        hardware(local) == hardware(remote),
        script(local) == script(remote),
    ) {
        (true, false) => "the cart's Lua state differs, the hardware agrees",
        (false, true) => "the hardware differs, the cart's Lua state agrees",
        _ => "the hardware and the cart's Lua state differ",
    }
}

impl NetError {
    /// The title of the window's screen that reports it.
    pub fn title(&self) -> &'static str {
        match self {
            NetError::Refused { .. } | NetError::RefusedBy { .. } => "REFUSED",
            NetError::CalledOff { .. } => "MATCH CALLED OFF",
            NetError::NoAnswer { .. } => "NO ANSWER",
            NetError::NobodyJoined { .. } => "NOBODY JOINED",
            NetError::NothingToWatch { .. } => "NO MATCH",
            NetError::WatchEnded { .. } => "MATCH OVER",
            NetError::Vanished { .. } | NetError::PeerLeft { .. } | NetError::NotBack { .. } => {
                "PLAYER LEFT"
            }
            NetError::Rebuilding { .. } => "MATCH PAUSED",
            NetError::Stalled { .. } => "MATCH STUCK",
            NetError::Desync { .. } | NetError::SyncTest { .. } => "DESYNC",
            NetError::Fault(_) => "CART ERROR",
            NetError::Bind { .. }
            | NetError::Setup(_)
            | NetError::Cancelled
            | NetError::Ggrs(_) => "NETPLAY ERROR",
        }
    }
}

/// What peers compare as their build in the greeting: the version and the code id (a hash
/// of the sources, from `build.rs`), so two builds of other code never share a match.
pub(crate) fn build_id() -> String {
    format!(
        "{} (code {})",
        crate::savestate::BUILD_ID,
        env!("KAIRO_CODE_ID")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_id_carries_the_version_and_the_code_id() {
        let id = build_id();
        assert!(id.starts_with(crate::savestate::BUILD_ID), "{id}");
        let code = id
            .strip_suffix(')')
            .and_then(|s| s.rsplit("(code ").next())
            .unwrap();
        assert_eq!(code.len(), 16, "{id}");
        assert!(code.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
    }

    #[test]
    fn a_desync_says_which_half_of_the_checksum_differs() {
        let both = 0x1111_u128 << 64 | 0x2222;
        assert_eq!(
            desync_part(both, 0x1111 << 64 | 0x3333),
            "the cart's Lua state differs, the hardware agrees"
        );
        assert_eq!(
            desync_part(both, 0x4444 << 64 | 0x2222),
            "the hardware differs, the cart's Lua state agrees"
        );
        assert_eq!(
            desync_part(both, 0x4444 << 64 | 0x3333),
            "the hardware and the cart's Lua state differ"
        );
    }
}
