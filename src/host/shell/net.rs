//! Netplay in the window: hosting or joining a match from the pause menu's Netplay screen
//! (or from `kairo netplay`), meeting the peers on a thread while the window keeps drawing,
//! then one step of the match per host frame with player 1's pad as this peer's input, and
//! the status line (ping, frames of rollback, input delay). During a match nothing may make
//! this peer's machine differ from the others': states, rewind, movies, reset, debug pause,
//! fast-forward and hot reload wait until it ends (a note says so). Each way a match ends
//! has its own title on the screen that says so.
//!
//! The feature owns its state ([`Netplay`]: the match or its greeting, the Netplay screen's
//! two lines) and tells the shell what happened through [`NetEvent`]s; the shell's side
//! (`impl Shell` below) only turns those into screens, notes and a fresh power-on.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use super::{Screen, Shell};
use crate::cart::Cart;
use crate::host::ui::{Menu, UiAction};
use crate::input::ButtonWord;
use crate::netplay::NetError;
use crate::netplay::link::Link;
use crate::netplay::play::{Greeting, NetMatch, NetOptions, NetVblank};
use crate::netplay::stepped::SteppedMatch;
use crate::saveram::SaveRam;
use crate::session::Session;

/// The port the Netplay screen offers to host on at first.
pub const DEFAULT_PORT: u16 = 7000;

/// A match being set up or played.
pub enum NetLink {
    /// Meeting the peers on a thread; `what` says whom; `cancel` stops it.
    Greeting {
        answer: Receiver<Result<NetMatch, NetError>>,
        what: String,
        cancel: Arc<AtomicBool>,
    },
    Playing(Box<NetMatch>),
    /// Joining a room's lobby server on a thread.
    Connecting {
        answer: Receiver<Result<Box<dyn Link>, NetError>>,
        what: String,
        cancel: Arc<AtomicBool>,
        options: Box<NetOptions>,
        cart: Box<Cart>,
    },
    /// A room's match, or watching one.
    Room(Box<SteppedMatch>),
}

/// How long a room is kept after leaving a match, for the notice to reach the others.
const LEAVING_LINGER: std::time::Duration = std::time::Duration::from_millis(500);

/// What the Netplay screen's two lines hold, edited by typing on the selected one; kept in
/// `netplay.toml` from the last match started there.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct NetSetup {
    pub port: String,
    pub join: String,
    /// The lobby server rooms are made on (`ws://HOST:PORT`; none: no rooms).
    pub server: String,
    /// The room code to join or watch.
    pub room: String,
}

impl Default for NetSetup {
    fn default() -> Self {
        NetSetup {
            port: DEFAULT_PORT.to_string(),
            join: format!("127.0.0.1:{DEFAULT_PORT}"),
            server: String::new(),
            room: String::new(),
        }
    }
}

/// The character a key types into a room code, if any (letters come out in capitals).
fn typed_code(key: &str) -> Option<char> {
    if let Some(letter) = key.strip_prefix("Key")
        && letter.len() == 1
    {
        return letter.chars().next();
    }
    match key {
        "Minus" => Some('-'),
        _ => typed(key).filter(char::is_ascii_digit),
    }
}

/// The character a key of the keyboard types into an address, if any.
fn typed(key: &str) -> Option<char> {
    let digit = key
        .strip_prefix("Digit")
        .or_else(|| key.strip_prefix("Numpad"));
    match (key, digit) {
        (_, Some(d)) if d.len() == 1 => d.chars().next(),
        ("Period" | "NumpadDecimal", _) => Some('.'),
        ("Semicolon", _) => Some(':'),
        _ => None,
    }
}

/// The window's netplay: the match being set up or played, and the Netplay screen's lines.
pub struct Netplay {
    link: Option<NetLink>,
    /// The Netplay screen's port and address.
    pub setup: NetSetup,
}

/// What one host frame of netplay did, for the shell to show.
pub enum NetEvent {
    /// No match, nor a greeting.
    Off,
    /// Meeting the peers: the status line says whom.
    Meeting(String),
    /// Every peer answered: the match begins once the shell has powered the cart on afresh
    /// ([`Netplay::begin`]).
    Met(Box<NetMatch>),
    /// A host frame of the match: its confirmed log lines and first-play sound, and the
    /// status line.
    Played(NetVblank, String),
    /// In the room's lobby: its match begins once the shell has powered the cart on afresh
    /// ([`Netplay::begin_room`]).
    RoomJoined(Box<SteppedMatch>),
    /// A host frame of a room's match: its lines, sound, what happened, the status line.
    RoomPlayed {
        log: Vec<String>,
        audio: Vec<f32>,
        notes: Vec<String>,
        status: String,
    },
    /// The match, or its setup, ended: the ending's title and note.
    Ended(&'static str, String),
}

impl Netplay {
    pub fn new(setup: NetSetup) -> Netplay {
        Netplay { link: None, setup }
    }

    /// Whether a match is being set up or played.
    pub fn active(&self) -> bool {
        self.link.is_some()
    }

    /// Starts meeting the peers of `options` for `cart` on a thread; says whom.
    pub fn start(&mut self, cart: &crate::cart::Cart, options: NetOptions) -> String {
        if let Some(room) = &options.room {
            let what = match room.watch {
                true => format!("Netplay: watching room {} on {}", room.name, room.server),
                false => format!(
                    "Netplay: room {} on {}, as player {}",
                    room.name,
                    room.server,
                    options.player + 1
                ),
            };
            let cancel = Arc::new(AtomicBool::new(false));
            let (tell, answer) = mpsc::channel();
            let connect = room.connect.clone();
            let stop = cancel.clone();
            std::thread::spawn(move || {
                let _ = tell.send(connect(&stop));
            });
            self.link = Some(NetLink::Connecting {
                answer,
                what: what.clone(),
                cancel,
                options: Box::new(options),
                cart: Box::new(cart.clone()),
            });
            return what;
        }
        let what = match options.peers.as_slice() {
            [peer] if *peer == crate::netplay::handshake::ANYONE => {
                format!("Netplay: waiting for a player on port {}", options.port)
            }
            peers => {
                let names: Vec<String> = peers.iter().map(ToString::to_string).collect();
                format!("Netplay: meeting {}", names.join(", "))
            }
        };
        let greeting = Greeting::for_cart(cart, options);
        let cancel = greeting.canceller();
        let (tell, answer) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tell.send(greeting.meet());
        });
        self.link = Some(NetLink::Greeting {
            answer,
            what: what.clone(),
            cancel,
        });
        what
    }

    /// The match met ([`NetEvent::Met`]) begins, on the session the shell powered on.
    pub fn begin(&mut self, net: Box<NetMatch>) {
        self.link = Some(NetLink::Playing(net));
    }

    /// The room's match ([`NetEvent::RoomJoined`]) begins, on the session the shell powered on.
    pub fn begin_room(&mut self, net: Box<SteppedMatch>) {
        self.link = Some(NetLink::Room(net));
    }

    /// Whether a room's match is on (a rematch may be asked for).
    pub fn in_room(&self) -> bool {
        matches!(self.link, Some(NetLink::Room(_)))
    }

    /// Asks the room's players for a rematch; whether there is a room's match.
    pub fn rematch(&mut self) -> bool {
        match &mut self.link {
            Some(NetLink::Room(net)) => {
                net.rematch();
                true
            }
            _ => false,
        }
    }

    /// How many frames of the game every player has confirmed, in a match.
    pub fn confirmed_frames(&self) -> Option<usize> {
        match &self.link {
            Some(NetLink::Playing(net)) => {
                Some(usize::try_from(net.confirmed_frame() + 1).unwrap_or(0))
            }
            Some(NetLink::Room(net)) => net.confirmed_frames(),
            _ => None,
        }
    }

    /// Leaves the match or its greeting (whose thread lets the port go); `true` if there
    /// was one.
    pub fn leave(&mut self) -> bool {
        if let Some(NetLink::Greeting { cancel, .. } | NetLink::Connecting { cancel, .. }) =
            &self.link
        {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        match self.link.take() {
            // A room's players are told this one left for good (they end the match at once
            // rather than wait for a return); the room is left a moment later, once the
            // notice is out.
            Some(NetLink::Room(mut net)) => {
                net.leave();
                let link = net.link();
                drop(net);
                std::thread::spawn(move || {
                    std::thread::sleep(LEAVING_LINGER);
                    drop(link);
                });
                true
            }
            link => link.is_some(),
        }
    }

    /// One host frame: `game` is the session the match runs on, `word` this peer's input.
    pub fn vblank(&mut self, game: Option<&mut Session>, word: ButtonWord) -> NetEvent {
        match self.link.take() {
            None => NetEvent::Off,
            Some(NetLink::Greeting {
                answer,
                what,
                cancel,
            }) => match answer.try_recv() {
                Ok(Ok(net)) => NetEvent::Met(Box::new(net)),
                Ok(Err(e)) => NetEvent::Ended(e.title(), format!("Netplay: {e}")),
                Err(TryRecvError::Disconnected) => NetEvent::Ended(
                    NetError::Setup(String::new()).title(),
                    "Netplay: the greeting stopped".into(),
                ),
                Err(TryRecvError::Empty) => {
                    self.link = Some(NetLink::Greeting {
                        answer,
                        what: what.clone(),
                        cancel,
                    });
                    NetEvent::Meeting(what)
                }
            },
            Some(NetLink::Connecting {
                answer,
                what,
                cancel,
                options,
                cart,
            }) => match answer.try_recv() {
                Ok(Ok(link)) => {
                    let watch = options.room.as_ref().is_some_and(|r| r.watch);
                    let net = SteppedMatch::with_options(&cart, Arc::from(link), *options, watch);
                    NetEvent::RoomJoined(Box::new(net))
                }
                Ok(Err(e)) => NetEvent::Ended(e.title(), format!("Netplay: {e}")),
                Err(TryRecvError::Disconnected) => NetEvent::Ended(
                    NetError::Setup(String::new()).title(),
                    "Netplay: joining the room stopped".into(),
                ),
                Err(TryRecvError::Empty) => {
                    self.link = Some(NetLink::Connecting {
                        answer,
                        what: what.clone(),
                        cancel,
                        options,
                        cart,
                    });
                    NetEvent::Meeting(what)
                }
            },
            Some(NetLink::Room(mut net)) => {
                let Some(game) = game else {
                    return NetEvent::Off;
                };
                match net.tick(game, word) {
                    Err(e) => NetEvent::Ended(e.title(), format!("Netplay ended: {e}")),
                    Ok(_) => {
                        let event = NetEvent::RoomPlayed {
                            log: net.take_log(),
                            audio: net.take_audio(),
                            notes: net.take_notes(),
                            status: format!("NET {}", net.status_text()),
                        };
                        self.link = Some(NetLink::Room(net));
                        event
                    }
                }
            }
            Some(NetLink::Playing(mut net)) => {
                let Some(game) = game else {
                    return NetEvent::Off;
                };
                match net.step(game, word, &mut |_, _| {}) {
                    Err(e) => NetEvent::Ended(e.title(), format!("Netplay ended: {e}")),
                    Ok(stepped) => {
                        let s = net.status();
                        let status = format!(
                            "NET ping {} ms  rb {}  delay {}",
                            s.ping_ms, s.rollback, s.input_delay
                        );
                        self.link = Some(NetLink::Playing(net));
                        NetEvent::Played(stepped, status)
                    }
                }
            }
        }
    }

    /// A key typed on the Netplay screen's line `action` (Host or Join): digits, `.` and
    /// `:` edit it, Backspace takes a character off. `true` if the key was for that.
    pub fn typed(&mut self, action: &UiAction, key: &str) -> bool {
        if self.active() {
            return false;
        }
        let (field, c) = match action {
            UiAction::NetHost => (&mut self.setup.port, typed(key)),
            UiAction::NetJoin => (&mut self.setup.join, typed(key)),
            UiAction::NetJoinRoom | UiAction::NetWatchRoom => {
                (&mut self.setup.room, typed_code(key))
            }
            _ => return false,
        };
        match (key, c) {
            ("Backspace", _) => {
                field.pop();
            }
            (_, Some(c)) if field.len() < 40 => field.push(c),
            _ => return false,
        }
        true
    }

    /// The options the Netplay screen's lines give, to host (`true`) or join; or why not.
    pub fn options(&self, host: bool) -> Result<NetOptions, String> {
        if host {
            match self.setup.port.parse::<u16>() {
                Ok(port) if port > 0 => Ok(NetOptions::host(port)),
                _ => Err(format!("Not a port: {}", self.setup.port)),
            }
        } else {
            self.setup
                .join
                .parse::<SocketAddr>()
                .map(NetOptions::join)
                .map_err(|_| format!("Not an address (IP:PORT): {}", self.setup.join))
        }
    }

    /// The options of a room on the Netplay screen's lobby server: `code`, as player 1
    /// (who made it), 2 (who joins) or watching; or why not.
    pub fn room_options(
        &self,
        code: &str,
        player: usize,
        watch: bool,
    ) -> Result<NetOptions, String> {
        if self.setup.server.is_empty() {
            return Err("No lobby server: set `server` in netplay.toml, or play once with kairo netplay --room --server".into());
        }
        if code.is_empty() {
            return Err("Type the room's code first".into());
        }
        let mut room = crate::rooms::room_options(
            &self.setup.server,
            code,
            None,
            crate::rooms::IceServers::standard(),
        )
        .map_err(|e| e.to_string())?;
        room.watch = watch;
        Ok(NetOptions::in_room(room, 2, player))
    }

    /// The Netplay screen's menu items.
    fn items(&self) -> Vec<(String, UiAction)> {
        if self.active() {
            let mut items = vec![("Leave the match".to_string(), UiAction::NetLeave)];
            if self.confirmed_frames().is_some() {
                items.push(("Save the match as a movie".into(), UiAction::NetSaveMovie));
            }
            if self.in_room() {
                items.push(("Rematch".into(), UiAction::NetRematch));
            }
            items
        } else {
            let mut items = vec![
                (
                    format!("Host on port {}", self.setup.port),
                    UiAction::NetHost,
                ),
                (format!("Join {}", self.setup.join), UiAction::NetJoin),
            ];
            if self.setup.server.is_empty() {
                items.push(("Rooms: no lobby server set".into(), UiAction::NetCreateRoom));
            } else {
                let code = match self.setup.room.as_str() {
                    "" => "(type a code)",
                    code => code,
                };
                items.extend([
                    (
                        format!("Create a room on {}", self.setup.server),
                        UiAction::NetCreateRoom,
                    ),
                    (format!("Join room {code}"), UiAction::NetJoinRoom),
                    (format!("Watch room {code}"), UiAction::NetWatchRoom),
                ]);
            }
            items
        }
    }
}

impl Shell {
    /// Whether a match is being set up or played.
    pub fn in_netplay(&self) -> bool {
        self.netplay.active()
    }

    /// Says that `what` waits for the end of the match; `true` if a match is on.
    pub(super) fn refuse_during_netplay(&mut self, what: &str) -> bool {
        let on = self.netplay.active();
        if on {
            self.toast(format!("{what}: not during a netplay match"));
        }
        on
    }

    /// Starts greeting the peers of `options` for the running cart; the match starts (the
    /// cart powered on afresh with empty save RAM, as on every peer) when all have answered.
    pub(crate) fn start_netplay(&mut self, options: NetOptions) {
        let Some(cart) = self.session.as_ref().and_then(|s| s.last_good.clone()) else {
            self.toast("Netplay: open a cart first".into());
            return;
        };
        if let Some(room) = &options.room
            && !room.server.is_empty()
        {
            self.netplay.setup.server = room.server.clone();
            self.netplay.setup.room = room.name.clone();
            self.remember_netplay();
        }
        let what = self.netplay.start(&cart, options);
        crate::out::print_line(&what);
        self.screen = Screen::Playing;
    }

    /// Keeps the Netplay screen's lines for the next run.
    fn remember_netplay(&mut self) {
        if let Some(dir) = &self.config_dir
            && let Err(e) = crate::host::config::save(dir, NETPLAY_FILE, &self.netplay.setup)
        {
            crate::out::eprint_line(&format!("kairo: cannot remember the netplay address: {e}"));
        }
    }

    /// A room from the Netplay screen: made here (a new code, as player 1), joined (as
    /// player 2) or watched.
    pub(super) fn room_from_menu(&mut self, action: &UiAction) {
        let (code, player, watch) = match action {
            UiAction::NetCreateRoom => (crate::rooms::new_room_code(), 0, false),
            UiAction::NetJoinRoom => (self.netplay.setup.room.clone(), 1, false),
            _ => (self.netplay.setup.room.clone(), 0, true),
        };
        let options = match self.netplay.room_options(&code, player, watch) {
            Ok(options) => options,
            Err(why) => {
                self.toast(why);
                return;
            }
        };
        if matches!(action, UiAction::NetCreateRoom) {
            let invite = format!(
                "Room {code}: friends join with kairo netplay CART --room {code} --server {} --player 2",
                self.netplay.setup.server
            );
            crate::out::print_line(&invite);
            self.toast(format!("Room {code}: tell your friends this code"));
        }
        self.start_netplay(options);
    }

    /// Writes the match's confirmed frames, every player's input from power-on, as a movie
    /// in the cart's movies folder.
    pub(super) fn save_match_movie(&mut self) {
        let (Some(frames), Some(folder)) = (self.netplay.confirmed_frames(), self.movie_folder())
        else {
            self.toast("No match to save".into());
            return;
        };
        let Some(game) = self.session.as_ref().and_then(|s| s.game.as_ref()) else {
            return;
        };
        let history = game.history();
        let movie = crate::movie::Movie {
            ticks: history.ticks[..frames.min(history.ticks.len())].to_vec(),
            start: 0,
            ..history.clone()
        };
        match super::movies::save_new(&folder, &movie) {
            Ok(path) => {
                crate::out::print_line(&format!("Netplay: the match saved as {}", path.display()));
                self.toast(format!("Match saved: {}", path.display()));
            }
            Err(e) => self.toast(format!("Cannot save the match: {e}")),
        }
    }

    /// One host frame of netplay, if a match is on: `word` is this peer's input. `true`
    /// when netplay ran the game (the shell must not run it too).
    pub(super) fn net_vblank(&mut self, word: ButtonWord) -> bool {
        let game = self.session.as_mut().and_then(|s| s.game.as_mut());
        match self.netplay.vblank(game, word) {
            NetEvent::Off => return false,
            NetEvent::Meeting(what) => self.status_line(what),
            NetEvent::Met(net) => self.begin_match(net),
            NetEvent::Played(stepped, status) => {
                for line in &stepped.log {
                    crate::out::print_line(line);
                }
                if let Some(session) = self.session.as_mut() {
                    session.audio.extend_from_slice(&stepped.audio);
                }
                self.status_line(status);
            }
            NetEvent::RoomJoined(net) => self.begin_room(net),
            NetEvent::RoomPlayed {
                log,
                audio,
                notes,
                status,
            } => {
                for line in &log {
                    crate::out::print_line(line);
                }
                if let Some(session) = self.session.as_mut() {
                    session.audio.extend_from_slice(&audio);
                }
                for note in notes {
                    crate::out::print_line(&format!("Netplay: {note}"));
                    self.toast(note);
                }
                self.status_line(status);
            }
            NetEvent::Ended(title, note) => {
                crate::out::eprint_line(&format!("kairo: {note}"));
                self.show_ending(title, note);
            }
        }
        true
    }

    /// Powers the cart on afresh for a match, as every peer does; whether it did. Save RAM
    /// differs between players' machines and must not: every peer starts with none, and
    /// nothing the match writes is stored.
    fn power_on_for_match(&mut self) -> bool {
        self.end_movie();
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        let Some(cart) = session.last_good.clone() else {
            return false;
        };
        session.store_save(None);
        session.keeper = None;
        session.save_id = None;
        let started = Session::start(cart.clone(), SaveRam::default()).map(|g| (g, cart));
        self.install(started.map_err(Into::into))
    }

    /// Every peer answered: the cart powers on afresh and the match begins.
    fn begin_match(&mut self, net: Box<NetMatch>) {
        if !self.power_on_for_match() {
            return;
        }
        let peers: Vec<String> = net
            .options()
            .peers
            .iter()
            .map(ToString::to_string)
            .collect();
        let player = net.options().player + 1;
        crate::out::print_line(&format!(
            "Netplay: player {player}, with {}; save data is not kept during a match",
            peers.join(", ")
        ));
        self.toast(format!(
            "Netplay: you are player {player}. Save data is not kept in a match"
        ));
        self.netplay.begin(net);
    }

    /// In the room's lobby: the cart powers on afresh, and the match begins when the players
    /// have met (the game waits until then).
    fn begin_room(&mut self, net: Box<SteppedMatch>) {
        if !self.power_on_for_match() {
            return;
        }
        self.toast("Netplay: in the room. Save data is not kept in a match".into());
        self.netplay.begin_room(net);
    }

    /// Leaves the match: the game goes on here, alone (the other peers see this one leave).
    pub(crate) fn leave_netplay(&mut self) {
        if self.netplay.leave() {
            self.toast("Left the netplay match".into());
        }
    }

    /// The status line at the bottom, unless a note is showing.
    fn status_line(&mut self, text: String) {
        self.notes.status(text);
    }

    /// The pause menu's Netplay screen.
    pub(super) fn show_netplay(&mut self) {
        let selected = match &self.screen {
            Screen::Netplay(menu) => menu.selected,
            _ => 0,
        };
        let mut menu = Menu::new("NETPLAY (type a port or address)", self.netplay.items());
        menu.selected = selected.min(menu.items.len() - 1);
        self.screen = Screen::Netplay(menu);
    }

    /// A key typed on the Netplay screen (see [`Netplay::typed`]). `true` if it was for it.
    pub(super) fn net_typed(&mut self, key: &str) -> bool {
        let Screen::Netplay(menu) = &self.screen else {
            return false;
        };
        let Some((_, action)) = menu.items.get(menu.selected).cloned() else {
            return false;
        };
        if !self.netplay.typed(&action, key) {
            return false;
        }
        self.show_netplay();
        true
    }

    /// Host (`true`) or join from the Netplay screen's lines.
    pub(super) fn netplay_from_menu(&mut self, host: bool) {
        let options = match self.netplay.options(host) {
            Ok(options) => options,
            Err(why) => {
                self.toast(why);
                return;
            }
        };
        self.remember_netplay();
        self.start_netplay(options);
    }
}

/// Where the Netplay screen's port and address are kept, in the config folder.
pub const NETPLAY_FILE: &str = "netplay.toml";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_type_digits_dots_and_colons() {
        assert_eq!(typed("Digit7"), Some('7'));
        assert_eq!(typed("Numpad0"), Some('0'));
        assert_eq!(typed("Period"), Some('.'));
        assert_eq!(typed("Semicolon"), Some(':'));
        assert_eq!(typed("KeyA"), None);
        assert_eq!(typed("NumpadEnter"), None);
    }
}
