//! The exported page plays online: a real `kairo lobby` process, a native `kairo headless
//! --net-room` peer and the page in headless Chromium meet in one room and play the
//! platformer over WebRTC data channels (loopback, no STUN). The page's side of the room is
//! its own JavaScript (web/page/rooms.js, speaking matchbox's signalling to the lobby), the
//! match is the runtime's (`kairo_net_*`). Checked: both players log the same `hash` for
//! the confirmed frame F, equal to the straight run of the merged movie; a page that watches
//! (spectate=1) logs it too; the page as the room's first member (it makes the offer) plays
//! a native joiner just the same, and its own save data is left as it was; a page with the
//! wrong room password is refused and shows why.
//!
//! Chromium is started with `--disable-features=WebRtcHideLocalIpsWithMdns` so that it
//! offers its addresses as they are, not as mDNS names the native peer cannot resolve.
//! Needs Debian's `chromium`; without it the tests fail when `KAIRO_CI` is set and otherwise
//! skip, saying why on stderr (as tests/web.rs).
#![cfg(all(unix, feature = "netplay"))]

mod common;
#[allow(dead_code)]
mod web_support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::lobby::Lobby;
use common::{finish, hash_line, root, temp_dir};
use web_support::{Browser, Server};

const PRESS_1: &str = "-*20,start*2,-*40,right*100,right+a*30,right*60,left+a*20,right*200";
const PRESS_2: &str = "-*100,start*2,-*30,right*60,a*8,right*80,left*30,right+a*40,right*150";
const FRAMES: u32 = 480;
const LIMIT: Duration = Duration::from_secs(120);
/// Chromium offers its real addresses (loopback traffic only: both ends are this machine).
const NO_MDNS: &str = "--disable-features=WebRtcHideLocalIpsWithMdns";
/// Where the page keeps the platformer's save data.
const SAVE_KEY: &str = "kairo.save.kairo.platformer";

fn chromium() -> Option<String> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new("sh")
                .args(["-c", &format!("command -v {name}")])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
    if found.is_none() {
        let reason = "no chromium in PATH (apt-get install chromium)";
        if std::env::var_os("KAIRO_CI").is_some() {
            panic!("KAIRO_CI is set, so this fails instead of skipping: {reason}");
        }
        eprintln!("SKIPPED: {reason}");
    }
    found.map(str::to_string)
}

/// A native headless peer in `room` as `player`, pressing `press`, recording to `record`,
/// with `extra` arguments.
fn native_peer(
    lobby: &Lobby,
    room: &str,
    player: u8,
    press: &str,
    record: &Path,
    extra: &[&str],
) -> Child {
    let cart = root().join("carts/platformer");
    Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args([
            "headless",
            cart.to_str().unwrap(),
            "--net-room",
            room,
            "--net-server",
            &lobby.url,
            "--net-stun",
            "none",
            "--net-player",
            &player.to_string(),
            "--press",
            press,
            "--frames",
            &FRAMES.to_string(),
            "--hash",
            "--record",
            record.to_str().unwrap(),
        ])
        .args(extra)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kairo")
}

/// The straight headless run of `movie` for [`FRAMES`]: its hash.
fn straight_hash(movie: &Path) -> String {
    let cart = root().join("carts/platformer");
    let (code, out, err) = common::kairo(
        &[
            "headless",
            cart.to_str().unwrap(),
            "--input",
            movie.to_str().unwrap(),
            "--frames",
            &FRAMES.to_string(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    hash_line(&out).to_string()
}

/// The exported platformer, served; its page's URL for `fragment`.
struct Page {
    _server: Server,
    base: String,
}

impl Page {
    fn export(dir: &Path, lobby: &Lobby) -> Page {
        let out = dir.join("platformer");
        let cart = root().join("carts/platformer");
        let (code, stdout, stderr) = common::kairo(
            &[
                "export",
                cart.to_str().unwrap(),
                "--web",
                out.to_str().unwrap(),
                "--lobby",
                &lobby.url,
                "--stun",
                "none",
            ],
            &root(),
        );
        assert_eq!(code, 0, "{stdout}{stderr}");
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(
            html.contains(&format!("data-lobby=\"{}\"", lobby.url)),
            "the lobby is in the page"
        );
        assert!(html.contains("data-stun=\"none\""));
        let server = Server::start(dir);
        let base = format!("{}/platformer/index.html", server.url());
        Page {
            _server: server,
            base,
        }
    }

    fn url(&self, room: &str, lobby: &Lobby, rest: &str) -> String {
        format!(
            "{}#room={room}&server={}&stun=none&{rest}",
            self.base,
            encode(&lobby.url)
        )
    }
}

/// Percent-encodes what a fragment's value must not hold as it is.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The `hash` line a page logs, and its status then.
fn page_hash(browser: &mut Browser) -> String {
    let line = browser.wait_console(LIMIT, |l| {
        l.starts_with("hash ") || l.starts_with("netplay: ") && l.contains("ERROR")
    });
    let hash = line
        .strip_prefix("hash ")
        .unwrap_or_else(|| panic!("the page failed: {line}"));
    assert!(
        hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{line}"
    );
    hash.to_string()
}

fn room_code(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("WEB{tag}{}{nanos}", std::process::id())
}

/// Two pages in `room`, players 1 and 2 pressing [`PRESS_1`] and [`PRESS_2`] until frame
/// `frames` is confirmed, once player 1's match is playing; and the address that gives
/// player `n` its seat again.
fn two_pages_playing<'a>(
    chromium: &str,
    dir: &Path,
    page: &'a Page,
    lobby: &'a Lobby,
    room: &'a str,
    frames: u32,
) -> (Browser, Browser, impl Fn(u8, &str) -> String + 'a) {
    let url = move |player: u8, press: &str| {
        page.url(
            room,
            lobby,
            &format!("player={player}&press={}&hash={frames}", encode(press)),
        )
    };
    let mut one = Browser::launch_with(chromium, &dir.join("profile-1"), &[NO_MDNS]);
    one.open(&url(1, PRESS_1));
    let mut two = Browser::launch_with(chromium, &dir.join("profile-2"), &[NO_MDNS]);
    two.open(&url(2, PRESS_2));
    one.wait_for(
        "window.kairo && kairo.online() === 'playing'",
        Duration::from_secs(60),
    );
    (one, two, url)
}

#[test]
fn a_page_plays_a_native_peer_in_a_room_and_a_page_watches() {
    let Some(chromium) = chromium() else { return };
    let lobby = Lobby::start();
    let dir = temp_dir("web-netplay");
    let page = Page::export(&dir, &lobby);
    let room = room_code("A");
    let movie = dir.join("native.kmv");
    let started = Instant::now();

    // The native peer is in the room first: it makes the offer to the page.
    let native = native_peer(&lobby, &room, 1, PRESS_1, &movie, &[]);
    let mut player = Browser::launch_with(&chromium, &dir.join("profile-player"), &[NO_MDNS]);
    player.open(&page.url(
        &room,
        &lobby,
        &format!("player=2&press={}&hash={FRAMES}", encode(PRESS_2)),
    ));
    // A spectator page comes in once the match runs.
    player.wait_for(
        "window.kairo && kairo.online() === 'playing'",
        Duration::from_secs(60),
    );
    let mut watcher = Browser::launch_with(&chromium, &dir.join("profile-watcher"), &[NO_MDNS]);
    watcher.open(&page.url(&room, &lobby, &format!("spectate=1&hash={FRAMES}")));

    let player_hash = page_hash(&mut player);
    let (code, out, err) = finish(native, LIMIT);
    assert_eq!(code, 0, "native peer: {out}{err}");
    let native_hash = hash_line(&out);
    assert_eq!(
        player_hash, native_hash,
        "the page and the native peer agree"
    );
    assert_eq!(
        native_hash,
        straight_hash(&movie),
        "as the merged movie's run"
    );
    assert!(out.contains("player 2 joins"), "{out}");
    let watched = page_hash(&mut watcher);
    assert_eq!(watched, native_hash, "the watching page saw frame F");
    player.assert_no_errors();
    watcher.assert_no_errors();
    assert!(started.elapsed() < LIMIT * 2);
}

#[test]
fn a_page_first_in_the_room_offers_to_a_native_joiner() {
    let Some(chromium) = chromium() else { return };
    let lobby = Lobby::start();
    let dir = temp_dir("web-netplay-first");
    let page = Page::export(&dir, &lobby);
    let room = room_code("B");
    let movie = dir.join("native.kmv");

    let mut player = Browser::launch_with(&chromium, &dir.join("profile"), &[NO_MDNS]);
    // The page's own game has save data; a match neither reads nor writes it.
    player.open(&page.base);
    player.wait_for(
        "window.kairo && kairo.vblanks() > 2",
        Duration::from_secs(30),
    );
    player.eval(&format!("localStorage.setItem('{SAVE_KEY}', 'S2Fpcm8=')"));
    let url = page.url(
        &room,
        &lobby,
        &format!("player=1&press={}&hash={FRAMES}", encode(PRESS_1)),
    );
    // Another query: a new document, not a jump within this one.
    player.open(&url.replacen("index.html#", "index.html?online#", 1));
    player.wait_console(Duration::from_secs(30), |l| {
        l.starts_with("netplay: in room")
    });
    assert_eq!(player.eval("kairo.online()"), "meeting");
    let status = player.eval("kairo.status()");
    assert!(status.contains(&room), "{status}");
    let native = native_peer(&lobby, &room, 2, PRESS_2, &movie, &[]);
    let player_hash = page_hash(&mut player);
    let (code, out, err) = finish(native, LIMIT);
    assert_eq!(code, 0, "native peer: {out}{err}");
    assert_eq!(player_hash, hash_line(&out));
    assert_eq!(player_hash, straight_hash(&movie));
    assert_eq!(
        player.eval(&format!("localStorage.getItem('{SAVE_KEY}')")),
        "S2Fpcm8=",
        "the page's save data is as it was"
    );
    player.assert_no_errors();
}

#[test]
fn a_page_with_the_wrong_password_is_refused_and_says_why() {
    let Some(chromium) = chromium() else { return };
    let lobby = Lobby::start();
    let dir = temp_dir("web-netplay-password");
    let page = Page::export(&dir, &lobby);
    let room = room_code("C");
    let native = native_peer(
        &lobby,
        &room,
        1,
        PRESS_1,
        &dir.join("native.kmv"),
        &["--net-password", "open sesame", "--net-timeout", "10"],
    );
    let mut player = Browser::launch_with(&chromium, &dir.join("profile"), &[NO_MDNS]);
    player.open(&page.url(&room, &lobby, "player=2&password=guess&hash=60"));
    let line = player.wait_console(LIMIT, |l| {
        l.starts_with("netplay: ") && !l.starts_with("netplay: in room") && !l.contains(" reached ")
    });
    assert!(
        line.contains("REFUSED") && line.contains("wrong room password"),
        "{line}"
    );
    assert_eq!(player.eval("kairo.online()"), "ended");
    let shown = player.eval("document.getElementById('online-error-text').textContent");
    assert!(
        shown.starts_with("REFUSED") && shown.contains("wrong room password"),
        "{shown}"
    );
    // Back: the page's own game again.
    player.eval("document.getElementById('online-error-back').click()");
    assert_eq!(player.eval("kairo.online()"), "off");
    let (code, out, err) = finish(native, LIMIT);
    assert_ne!(code, 0, "nobody with the password came: {out}");
    assert!(err.contains("wrong room password"), "{err}");
    player.assert_no_errors();
}

#[test]
fn two_pages_play_one_drops_and_rejoins_and_both_end_on_the_same_hash() {
    let Some(chromium) = chromium() else { return };
    let lobby = Lobby::start();
    let dir = temp_dir("web-netplay-rejoin");
    let page = Page::export(&dir, &lobby);
    let room = room_code("D");
    let (mut one, two, url) = two_pages_playing(&chromium, &dir, &page, &lobby, &room, 900);
    std::thread::sleep(Duration::from_secs(3));
    // Player 2's browser dies mid-match: player 1's page pauses for it.
    drop(two);
    one.wait_for("kairo.online() === 'paused'", Duration::from_secs(30));
    // It comes back: a new browser, the same seat.
    let mut again = Browser::launch_with(&chromium, &dir.join("profile-2b"), &[NO_MDNS]);
    again.open(&url(2, PRESS_2));
    let hash_again = page_hash(&mut again);
    let hash_one = page_hash(&mut one);
    assert_eq!(hash_one, hash_again, "both pages end on the same picture");
    one.assert_no_errors();
    again.assert_no_errors();
}

#[test]
fn a_rematch_from_a_page_restarts_the_match_for_both_pages() {
    let Some(chromium) = chromium() else { return };
    let lobby = Lobby::start();
    let dir = temp_dir("web-netplay-rematch");
    let page = Page::export(&dir, &lobby);
    let room = room_code("E");
    let (mut one, mut two, _) = two_pages_playing(&chromium, &dir, &page, &lobby, &room, FRAMES);
    std::thread::sleep(Duration::from_secs(2));
    // The Rematch button on player 1's page.
    one.eval("document.getElementById('status-rematch').click()");
    two.wait_console(Duration::from_secs(30), |l| l.contains("Rematch"));
    let hash_one = page_hash(&mut one);
    let hash_two = page_hash(&mut two);
    assert_eq!(hash_one, hash_two, "both pages end on the same picture");
    // Player 2 leaves from its page: player 1's page ends the match at once (no 60 s wait
    // for a return).
    let leaving = Instant::now();
    two.eval("document.getElementById('status-leave').click()");
    let line = one.wait_console(Duration::from_secs(10), |l| {
        l.starts_with("netplay: MATCH CALLED OFF")
    });
    assert!(line.contains("player 2 left the match"), "{line}");
    assert!(leaving.elapsed() < Duration::from_secs(5));
    one.assert_no_errors();
    two.assert_no_errors();
}

/// A TURN server (coturn's `turnserver`) on a free loopback port, with one user, relaying
/// on loopback; stopped when dropped. `None` (the test skips) without coturn, unless
/// `KAIRO_CI` is set: then the test fails.
struct Relay {
    child: Child,
    url: String,
    log: std::path::PathBuf,
}

const RELAY_USER: &str = "kairo";
const RELAY_PASSWORD: &str = "relay-secret";

impl Relay {
    fn start(dir: &Path) -> Option<Relay> {
        let found = Command::new("sh")
            .args(["-c", "command -v turnserver"])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            let reason = "no turnserver in PATH (apt-get install coturn)";
            if std::env::var_os("KAIRO_CI").is_some() {
                panic!("KAIRO_CI is set, so this fails instead of skipping: {reason}");
            }
            eprintln!("SKIPPED: {reason}");
            return None;
        }
        let port = std::net::UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .expect("a free UDP port")
            .port();
        let log = dir.join("turnserver.log");
        let child = Command::new("turnserver")
            .args([
                "-n",
                "--listening-ip=127.0.0.1",
                "--relay-ip=127.0.0.1",
                &format!("--listening-port={port}"),
                "--lt-cred-mech",
                &format!("--user={RELAY_USER}:{RELAY_PASSWORD}"),
                "--realm=kairo.test",
                "--no-tls",
                "--no-dtls",
                "--no-cli",
                "--allow-loopback-peers",
                "--fingerprint",
                "--verbose",
                "--simple-log",
                &format!("--log-file={}", log.display()),
                &format!("--userdb={}", dir.join("turndb").display()),
                &format!("--pidfile={}", dir.join("turnserver.pid").display()),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run turnserver");
        // It listens once its log says so.
        let start = Instant::now();
        while !std::fs::read_to_string(&log).is_ok_and(|l| l.contains("Total General servers")) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "turnserver did not start: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Relay {
            child,
            url: format!("turn:127.0.0.1:{port}"),
            log,
        })
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_page_that_only_relays_through_a_turn_server_plays_a_native_peer_to_the_same_hash() {
    let Some(chromium) = chromium() else { return };
    let dir = temp_dir("web-netplay-turn");
    let Some(relay) = Relay::start(&dir) else {
        return;
    };
    let lobby = Lobby::start();
    let page = Page::export(&dir, &lobby);
    let room = room_code("T");
    let movie = dir.join("native.kmv");
    let native = native_peer(
        &lobby,
        &room,
        1,
        PRESS_1,
        &movie,
        &[
            "--net-turn",
            &relay.url,
            "--net-turn-user",
            RELAY_USER,
            "--net-turn-password",
            RELAY_PASSWORD,
        ],
    );
    // relay=1: the page offers only the relay's address, so every packet of the match
    // goes through the TURN server.
    let mut player = Browser::launch_with(&chromium, &dir.join("profile"), &[NO_MDNS]);
    player.open(&page.url(
        &room,
        &lobby,
        &format!(
            "player=2&press={}&hash={FRAMES}&turn={}&turn-user={RELAY_USER}\
             &turn-password={RELAY_PASSWORD}&relay=1",
            encode(PRESS_2),
            encode(&relay.url)
        ),
    ));
    let route = player.wait_console(LIMIT, |l| {
        l.contains(" reached ") || l.starts_with("netplay: ") && l.contains("ERROR")
    });
    assert!(route.ends_with("reached through a TURN relay"), "{route}");
    let player_hash = page_hash(&mut player);
    let (code, out, err) = finish(native, LIMIT);
    assert_eq!(code, 0, "native peer: {out}{err}");
    let native_hash = hash_line(&out);
    assert_eq!(
        player_hash, native_hash,
        "the page and the native peer agree"
    );
    assert_eq!(
        native_hash,
        straight_hash(&movie),
        "as the merged movie's run"
    );
    assert!(
        out.contains("route: player 2 through a TURN relay"),
        "the native peer knows: {out}"
    );
    // The relay gave the page's user an allocation and carried the match's packets.
    let log = relay.log();
    assert!(
        log.contains(&format!("user <{RELAY_USER}>")) && log.contains("ALLOCATE"),
        "{log}"
    );
    player.assert_no_errors();
}
