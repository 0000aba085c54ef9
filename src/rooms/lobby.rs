//! `kairo lobby`: the signalling server rooms meet on (a full-mesh `matchbox_signaling`
//! server). A peer opens a WebSocket to `ws://HOST:PORT/ROOM`; the server gives it an id and
//! passes offers, answers and ICE candidates between the members of its room until their
//! WebRTC connections stand. It holds no game state and sees no game traffic.
//!
//! It logs one line per connection, id and departure (no room contents, no messages).

use std::net::{IpAddr, SocketAddr};

use matchbox_signaling::SignalingServer;

use crate::netplay::NetError;
use crate::out::print_line;

/// Whether the lobby lets a WebSocket connection in: only to a room with a proper name.
fn admit(origin: SocketAddr, room: &str, log: bool) -> bool {
    let fits = super::check_room_name(room).is_ok();
    if log {
        print_line(&match fits {
            true => format!("lobby: {origin} asks for room {room}"),
            false => format!("lobby: refused {origin}: {room:?} is not a room name"),
        });
    }
    fits
}

/// Runs the lobby on `bind`:`port` until the process is stopped, logging each connection
/// when `log` is set. `on_ready` gets the address it listens on (port 0 picks a free one).
// The connection callback's type (`Result<bool, Response>`) is matchbox_signaling's.
#[allow(clippy::result_large_err)]
pub fn serve(
    bind: IpAddr,
    port: u16,
    log: bool,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), NetError> {
    // One thread: matchbox_signaling announces a newcomer to the room's members before it
    // records how to reach the newcomer, with no await in between. On a multi-threaded
    // runtime a member's offer, answering the announcement at once, could be handled on
    // another thread in that gap, find no such peer and be dropped; that meeting then never
    // came (now and then, on a busy machine). On one thread nothing runs in the gap.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| NetError::Setup(format!("cannot start the lobby's runtime: {e}")))?;
    runtime.block_on(async move {
        let mut server = SignalingServer::full_mesh_builder(SocketAddr::new(bind, port))
            .on_connection_request(move |request| {
                Ok(admit(
                    request.origin,
                    request.path.as_deref().unwrap_or(""),
                    log,
                ))
            })
            .on_id_assignment(move |(origin, peer)| {
                if log {
                    print_line(&format!("lobby: {origin} is peer {}", short(peer)));
                }
            })
            .on_peer_disconnected(move |peer| {
                if log {
                    print_line(&format!("lobby: peer {} left", short(peer)));
                }
            })
            .cors()
            .build();
        let addr = server.bind().map_err(|e| NetError::Bind {
            port,
            source: std::io::Error::other(e.to_string()),
        })?;
        on_ready(addr);
        server
            .serve()
            .await
            .map_err(|e| NetError::Setup(format!("the lobby stopped: {e}")))
    })
}

fn short(peer: matchbox_socket::PeerId) -> String {
    crate::netplay::link::PeerAddr::short_id(peer.0.as_u128())
}
