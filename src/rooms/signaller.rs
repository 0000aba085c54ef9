//! The lobby's WebSocket as `matchbox_socket`'s signaller, watched: it passes the lobby's
//! JSON messages through unchanged, and notes when each member of the room was introduced
//! (the lobby announcing a newcomer we must offer to, or a member's first offer or
//! candidate) until its connection stands or it leaves.
//!
//! matchbox waits for a peer connection's data channels to open with no time limit: when
//! ICE never finds a path (a busy machine missing its checks, a network that drops them),
//! that member is never met. The notes let [`super::link::RoomLink`] see such a meeting
//! stuck and join the room afresh, which starts a new one.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_tungstenite::WebSocketStream;
use async_tungstenite::smol::{ConnectStream, connect_async};
use async_tungstenite::tungstenite::Message;
use futures::StreamExt;
use matchbox_socket::async_trait::async_trait;
use matchbox_socket::{
    PeerEvent, PeerId, PeerRequest, SignalingError, Signaller, SignallerBuilder,
};

/// How long to wait before trying the lobby again when a connection attempt fails.
const RETRY_AFTER: Duration = Duration::from_secs(2);

/// The members introduced and not met yet, each with when it was introduced.
#[derive(Debug, Default)]
pub struct Introductions {
    pending: HashMap<PeerId, Instant>,
    /// Members met or gone: their later signals (candidates trickling in) are no news.
    settled: HashSet<PeerId>,
}

impl Introductions {
    fn introduced(&mut self, peer: PeerId) {
        if !self.settled.contains(&peer) {
            self.pending.entry(peer).or_insert_with(Instant::now);
        }
    }

    /// The member's connection stands, or it left: no longer waited for.
    pub fn settled(&mut self, peer: PeerId) {
        self.pending.remove(&peer);
        self.settled.insert(peer);
    }

    /// Whether some member was introduced at least `limit` ago and is still not met.
    pub fn stuck(&self, limit: Duration) -> bool {
        self.pending.values().any(|t| t.elapsed() >= limit)
    }
}

pub type SharedIntroductions = Arc<Mutex<Introductions>>;

fn note(introductions: &SharedIntroductions) -> std::sync::MutexGuard<'_, Introductions> {
    introductions.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Builds [`WatchedSignaller`]s that note into one [`Introductions`].
#[derive(Debug)]
pub struct WatchedBuilder {
    pub introductions: SharedIntroductions,
}

#[async_trait]
impl SignallerBuilder for WatchedBuilder {
    async fn new_signaller(
        &self,
        attempts: Option<u16>,
        room_url: String,
    ) -> Result<Box<dyn Signaller>, SignalingError> {
        let mut left = attempts.unwrap_or(1).max(1);
        loop {
            match connect_async(&room_url).await {
                Ok((websocket, _)) => {
                    return Ok(Box::new(WatchedSignaller {
                        websocket,
                        introductions: self.introductions.clone(),
                    }));
                }
                Err(e) if left <= 1 => {
                    return Err(SignalingError::NegotiationFailed(Box::new(e.into())));
                }
                Err(e) => {
                    log::warn!("cannot reach the lobby at {room_url} ({e}); trying again");
                    left -= 1;
                    futures_timer::Delay::new(RETRY_AFTER).await;
                }
            }
        }
    }
}

/// One connection to the lobby.
pub struct WatchedSignaller {
    websocket: WebSocketStream<ConnectStream>,
    introductions: SharedIntroductions,
}

#[async_trait]
impl Signaller for WatchedSignaller {
    async fn send(&mut self, request: PeerRequest) -> Result<(), SignalingError> {
        let text = serde_json::to_string(&request)
            .map_err(|e| SignalingError::UserImplementationError(e.to_string()))?;
        self.websocket
            .send(Message::Text(text.into()))
            .await
            .map_err(SignalingError::from)
    }

    async fn next_message(&mut self) -> Result<PeerEvent, SignalingError> {
        let text = match self.websocket.next().await {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => return Err(SignalingError::UnknownFormat),
            Some(Err(e)) => return Err(SignalingError::from(e)),
            None => return Err(SignalingError::StreamExhausted),
        };
        let event: PeerEvent =
            serde_json::from_str(&text).map_err(|_| SignalingError::UnknownFormat)?;
        match &event {
            PeerEvent::NewPeer(peer) => note(&self.introductions).introduced(*peer),
            PeerEvent::Signal { sender, .. } => note(&self.introductions).introduced(*sender),
            PeerEvent::PeerLeft(peer) => note(&self.introductions).settled(*peer),
            PeerEvent::IdAssigned(_) => {}
        }
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_introduced_long_ago_and_not_met_is_stuck() {
        let mut intro = Introductions::default();
        let peer = PeerId(uuid::Uuid::from_u128(7));
        assert!(!intro.stuck(Duration::ZERO));
        intro.introduced(peer);
        assert!(intro.stuck(Duration::ZERO));
        assert!(!intro.stuck(Duration::from_secs(60)));
        intro.settled(peer);
        assert!(!intro.stuck(Duration::ZERO));
        // Its candidates trickling in after the meeting are no new introduction.
        intro.introduced(peer);
        assert!(!intro.stuck(Duration::ZERO));
    }
}
