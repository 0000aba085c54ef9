//! Netplay rooms: peers find each other by a room's name on a lobby server (`kairo lobby`,
//! a `matchbox_signaling` server), then play over WebRTC data channels ([`link`]), with STUN
//! to cross NATs and, where configured, a TURN server to relay what STUN cannot. The lobby
//! holds no game state; the greeting, the password's proof and GGRS run between the peers
//! as they do over UDP (docs/netplay.md, "Rooms").

pub mod link;
pub mod lobby;
pub mod signaller;
pub mod trace;

use std::sync::Arc;

use crate::netplay::NetError;
use crate::netplay::play::{RoomConnect, RoomOptions};

/// The STUN server used when none is given (Google's public one, as WebRTC clients use).
pub const DEFAULT_STUN: &str = "stun:stun.l.google.com:19302";

/// The lobby server's port when none is given.
pub const DEFAULT_LOBBY_PORT: u16 = 3536;

/// Longest room name.
pub const MAX_ROOM_NAME: usize = 64;

/// The ICE servers a peer asks for its addresses: STUN (its address outside its NAT) and
/// TURN (a relay). None is contacted unless listed here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IceServers {
    /// `stun:HOST:PORT` URLs (none: only the machine's own addresses are offered).
    pub stun: Vec<String>,
    /// A `turn:HOST:PORT` (or `turns:`) URL, and its user name and password.
    pub turn: Option<String>,
    pub turn_user: Option<String>,
    pub turn_password: Option<String>,
}

impl IceServers {
    /// The default: [`DEFAULT_STUN`], no TURN.
    pub fn standard() -> IceServers {
        IceServers {
            stun: vec![DEFAULT_STUN.to_string()],
            ..IceServers::default()
        }
    }

    /// Every server's URL.
    pub fn urls(&self) -> Vec<String> {
        self.stun.iter().chain(&self.turn).cloned().collect()
    }

    /// Reads `--stun` (a URL, or `none`) and `--turn`/`--turn-user`/`--turn-password`.
    pub fn from_args(
        stun: &[String],
        turn: Option<&str>,
        turn_user: Option<&str>,
        turn_password: Option<&str>,
    ) -> Result<IceServers, NetError> {
        let mut ice = IceServers::standard();
        if !stun.is_empty() {
            ice.stun = stun
                .iter()
                .filter(|s| s.as_str() != "none")
                .cloned()
                .collect();
        }
        for url in &ice.stun {
            if !url.starts_with("stun:") && !url.starts_with("stuns:") {
                return Err(NetError::Setup(format!(
                    "--stun {url}: a STUN server is stun:HOST:PORT (or `none`)"
                )));
            }
        }
        if let Some(url) = turn {
            if !url.starts_with("turn:") && !url.starts_with("turns:") {
                return Err(NetError::Setup(format!(
                    "--turn {url}: a TURN server is turn:HOST:PORT or turns:HOST:PORT"
                )));
            }
            ice.turn = Some(url.to_string());
            ice.turn_user = turn_user.map(str::to_string);
            ice.turn_password = turn_password.map(str::to_string);
        } else if turn_user.is_some() || turn_password.is_some() {
            return Err(NetError::Setup(
                "--turn-user and --turn-password go with --turn".into(),
            ));
        }
        Ok(ice)
    }
}

/// Checks a room's name: 1 to [`MAX_ROOM_NAME`] letters, digits, `-` and `_` (it is part of
/// the lobby's URL, and read out to friends).
pub fn check_room_name(name: &str) -> Result<(), NetError> {
    let fits = !name.is_empty()
        && name.len() <= MAX_ROOM_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if fits {
        Ok(())
    } else {
        Err(NetError::Setup(format!(
            "room {name:?}: a room's name is 1 to {MAX_ROOM_NAME} letters, digits, - and _"
        )))
    }
}

/// Checks a lobby server's URL: `ws://HOST[:PORT][/PATH]` or `wss://...`.
pub fn check_server(url: &str) -> Result<(), NetError> {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => Ok(()),
        _ => Err(NetError::Setup(format!(
            "lobby server {url:?}: give its URL as ws://HOST:PORT (wss:// behind TLS)"
        ))),
    }
}

/// The URL of `room` on the lobby server at `server`.
pub fn room_url(server: &str, room: &str) -> String {
    format!("{}/{room}", server.trim_end_matches('/'))
}

/// A new room code: 6 letters and digits that are hard to misread (no 0/O, 1/I/L).
pub fn new_room_code() -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    let mut bits = hasher.finish();
    (0..6)
        .map(|_| {
            let c = ALPHABET[(bits % ALPHABET.len() as u64) as usize] as char;
            bits /= ALPHABET.len() as u64;
            c
        })
        .collect()
}

/// The options of a match in `room` on `server`.
pub fn room_options(
    server: &str,
    room: &str,
    password: Option<String>,
    ice: IceServers,
) -> Result<RoomOptions, NetError> {
    check_server(server)?;
    check_room_name(room)?;
    if password.as_deref() == Some("") {
        return Err(NetError::Setup("an empty room password".into()));
    }
    let url = room_url(server, room);
    let connect: RoomConnect = Arc::new(move |cancel| {
        let link = link::RoomLink::join(&url, &ice, cancel)?;
        Ok(Box::new(link) as Box<dyn crate::netplay::link::Link>)
    });
    Ok(RoomOptions {
        name: room.to_string(),
        server: server.to_string(),
        password,
        watch: false,
        connect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_names_are_url_safe_words() {
        assert!(check_room_name("friday-night_2").is_ok());
        for bad in ["", "a b", "x/y", "é", &"a".repeat(65)] {
            assert!(check_room_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn room_codes_are_six_unambiguous_characters() {
        let code = new_room_code();
        assert_eq!(code.len(), 6);
        assert!(code.chars().all(|c| !"01OIL".contains(c)), "{code}");
        assert!(check_room_name(&code).is_ok());
    }

    #[test]
    fn servers_are_websocket_urls_and_rooms_are_their_paths() {
        assert!(check_server("ws://127.0.0.1:3536").is_ok());
        assert!(check_server("wss://lobby.example.org").is_ok());
        assert!(check_server("http://x").is_err());
        assert!(check_server("ws://").is_err());
        assert_eq!(room_url("ws://h:1/", "ABC"), "ws://h:1/ABC");
    }

    #[test]
    fn ice_servers_default_to_one_stun_and_no_turn() {
        let ice = IceServers::from_args(&[], None, None, None).unwrap();
        assert_eq!(ice.urls(), vec![DEFAULT_STUN.to_string()]);
        let none = IceServers::from_args(&["none".into()], None, None, None).unwrap();
        assert!(none.urls().is_empty());
        let turn = IceServers::from_args(
            &["none".into()],
            Some("turn:relay.example.org:3478"),
            Some("u"),
            Some("p"),
        )
        .unwrap();
        assert_eq!(turn.urls(), vec!["turn:relay.example.org:3478".to_string()]);
        assert!(IceServers::from_args(&["http://x".into()], None, None, None).is_err());
        assert!(IceServers::from_args(&[], None, Some("u"), None).is_err());
    }
}
