//! Meeting the peers of a netplay match, as players and strangers met it: real `kairo
//! headless` processes against hand-made datagrams on loopback. A stranger's datagrams get
//! no answer and take no seat; a joiner that leaves half way through the greeting, or just
//! after it, frees the host's seat for the next; a peer that dies just after the greeting
//! ends the other within the start's time limit; a refusal between two players reaches the
//! third; an input delay out of range is refused in one line. UDP on 127.0.0.1 only, every
//! wait bounded.
#![cfg(feature = "netplay")]

mod common;

use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{finish, free_port, hash_line, root};
use kairo::cart::Cart;
use kairo::netplay::NetError;
use kairo::netplay::handshake::Hello;
use kairo::netplay::play::{Greeting, NetMatch, NetOptions};
use kairo::saveram::SaveRam;
use kairo::session::Session;

fn local(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// `kairo headless CART` with `args`, its output piped.
fn kairo(cart: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kairo"))
        .arg("headless")
        .arg(cart)
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kairo")
}

/// A peer made of datagrams: it says what a real peer of the platformer says, when told.
struct FakePeer {
    socket: UdpSocket,
    hello: Hello,
}

impl FakePeer {
    /// Player `player` (0-based) of a match of two of the platformer.
    fn new(player: usize) -> FakePeer {
        let cart = Cart::open(&root().join("carts/platformer")).unwrap();
        let others = vec![local(1)];
        let greeting = Greeting::for_cart(&cart, NetOptions::new(0, others, player));
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        FakePeer {
            socket,
            hello: greeting.hello().clone(),
        }
    }

    fn addr(&self) -> SocketAddr {
        self.socket.local_addr().unwrap()
    }

    fn send(&self, to: SocketAddr, bytes: &[u8]) {
        self.socket.send_to(bytes, to).unwrap();
    }

    fn greet(&self, to: SocketAddr, seen: bool) {
        let hello = Hello {
            seen,
            ..self.hello.clone()
        };
        self.send(to, &[b"KRHI".as_slice(), &postcard_bytes(&hello)].concat());
    }

    /// Every datagram that comes within `wait`.
    fn receive(&self, wait: Duration) -> Vec<Vec<u8>> {
        let start = Instant::now();
        let mut got = Vec::new();
        let mut buffer = [0u8; 4096];
        while start.elapsed() < wait {
            if let Ok((len, _)) = self.socket.recv_from(&mut buffer) {
                got.push(buffer[..len].to_vec());
            }
        }
        got
    }

    /// Greets `to` until it answers (at most `wait`); the answer's greeting.
    fn greet_until_answered(&self, to: SocketAddr, wait: Duration) -> Hello {
        let start = Instant::now();
        while start.elapsed() < wait {
            self.greet(to, false);
            for bytes in self.receive(Duration::from_millis(100)) {
                if let Some(hello) = Hello::parse_datagram(&bytes) {
                    return hello;
                }
            }
        }
        panic!("{to} never answered the greeting");
    }
}

fn postcard_bytes(hello: &Hello) -> Vec<u8> {
    hello.datagram()[4..].to_vec()
}

/// A host of the platformer for whoever joins, headless: 120 frames, then its hash.
fn host(port: u16) -> Child {
    kairo(
        &root().join("carts/platformer"),
        &[
            "--net-port",
            &port.to_string(),
            "--net-player",
            "1",
            "--net-timeout",
            "25",
            "--frames",
            "120",
            "--press",
            "-*20,start*2,right*98",
            "--hash",
        ],
    )
}

/// A joiner of the host at `host_port`, headless.
fn joiner(host_port: u16, delay: &str) -> Child {
    kairo(
        &root().join("carts/platformer"),
        &[
            "--net-port",
            &free_port().to_string(),
            "--net-peer",
            &local(host_port).to_string(),
            "--net-player",
            "2",
            "--net-timeout",
            "25",
            "--net-delay",
            delay,
            "--frames",
            "120",
            "--press",
            "-*60,a*30",
            "--hash",
        ],
    )
}

#[test]
fn strangers_and_half_greetings_take_no_seat_and_learn_nothing() {
    let port = free_port();
    let started = Instant::now();
    let host = host(port);
    std::thread::sleep(Duration::from_millis(500));

    // A stranger: a bare tag, garbage after the tag, and noise. No answer to any.
    let stranger = UdpSocket::bind("127.0.0.1:0").unwrap();
    stranger
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    for bytes in [b"KRHI".as_slice(), b"KRHI\xff\xff\xff\xff", b"hello?"] {
        for _ in 0..5 {
            stranger.send_to(bytes, local(port)).unwrap();
        }
    }
    let mut buffer = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline {
        if let Ok((len, _)) = stranger.recv_from(&mut buffer) {
            panic!("a stranger got an answer: {:?}", &buffer[..len]);
        }
    }

    // A joiner that greets once and dies (killed as it started): answered, then forgotten.
    let half = FakePeer::new(1);
    let answer = half.greet_until_answered(local(port), Duration::from_secs(5));
    assert_eq!(answer.cart, "Platformer");
    assert!(answer.seen, "the host has had the joiner's greeting");
    drop(half);

    // A joiner of another build: refused in words, and the host goes on waiting.
    let mut other_build = FakePeer::new(1);
    other_build.hello.build = "kairo 0.1.0 (machine 3), Lua 5.4 (code 0123456789abcdef)".into();
    other_build.greet(local(port), false);
    let refusals: Vec<String> = other_build
        .receive(Duration::from_millis(500))
        .iter()
        .filter_map(|b| {
            b.strip_prefix(b"KRNO")
                .map(|r| String::from_utf8_lossy(r).into())
        })
        .collect();
    assert!(
        refusals.iter().any(|r| r.contains("another build")),
        "{refusals:?}"
    );

    // The real joiner, with the longest input delay there is: the match is played.
    let joined = joiner(port, "30");
    // While the match runs, a stranger's greeting still gets nothing.
    std::thread::sleep(Duration::from_millis(1500));
    other_build.greet(local(port), false);
    assert!(
        other_build.receive(Duration::from_millis(300)).is_empty(),
        "nothing to a stranger during the match"
    );
    let (code1, out1, err1) = finish(host, Duration::from_secs(40));
    let (code2, out2, err2) = finish(joined, Duration::from_secs(40));
    assert_eq!(code1, 0, "{out1}{err1}");
    assert_eq!(code2, 0, "{out2}{err2}");
    assert_eq!(hash_line(&out1), hash_line(&out2));
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "the real joiner got in at once, not after a half-done greeting expired"
    );
    // Greetings stop once the match runs: at most the one a late peer needs.
    for out in [&out1, &out2] {
        let answered: u64 = out
            .split(" late greetings answered")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no traffic line in {out}"));
        assert!(answered <= 2, "{answered} greetings answered: {out}");
    }
}

#[test]
fn a_joiner_that_vanishes_after_the_greeting_frees_the_hosts_seat() {
    let port = free_port();
    let host = host(port);
    std::thread::sleep(Duration::from_millis(500));
    // Completes the greeting (has the host's, says so) and goes silent before the match.
    let gone = FakePeer::new(1);
    gone.greet_until_answered(local(port), Duration::from_secs(5));
    gone.greet(local(port), true);
    drop(gone);
    std::thread::sleep(Duration::from_millis(300));
    let joined = joiner(port, "2");
    let (code1, out1, err1) = finish(host, Duration::from_secs(40));
    let (code2, out2, err2) = finish(joined, Duration::from_secs(40));
    assert_eq!(code1, 0, "{out1}{err1}");
    assert_eq!(code2, 0, "{out2}{err2}");
    assert_eq!(hash_line(&out1), hash_line(&out2));
    assert!(
        err1.contains("stopped answering as the match was starting")
            && err1.contains("waiting for another"),
        "the host says why it waits again: {err1}"
    );
}

#[test]
fn a_host_that_dies_just_after_the_greeting_ends_the_joiner_in_time() {
    let fake_host = FakePeer::new(0);
    let port = free_port();
    let joined = kairo(
        &root().join("carts/platformer"),
        &[
            "--net-port",
            &port.to_string(),
            "--net-peer",
            &fake_host.addr().to_string(),
            "--net-player",
            "2",
            "--net-timeout",
            "5",
            "--frames",
            "120",
        ],
    );
    // Answer the joiner's greeting as a host would, then die.
    let start = Instant::now();
    let mut heard = false;
    while !heard && start.elapsed() < Duration::from_secs(10) {
        for bytes in fake_host.receive(Duration::from_millis(100)) {
            if Hello::parse_datagram(&bytes).is_some() {
                heard = true;
            }
        }
    }
    assert!(heard, "the joiner greets");
    fake_host.greet(local(port), true);
    fake_host.greet(local(port), true);
    let died = Instant::now();
    drop(fake_host);
    let (code, out, err) = finish(joined, Duration::from_secs(30));
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("player 1 (127.0.0.1:") && err.contains("stopped answering"),
        "{err}"
    );
    assert!(
        died.elapsed() < Duration::from_secs(10),
        "ended within the start's limit, not waiting forever: {:?}",
        died.elapsed()
    );
}

#[test]
fn a_refusal_between_two_players_reaches_the_third() {
    let dir = common::temp_dir("netplay-three");
    let edited = dir.join("platformer");
    common::copy_dir(&root().join("carts/platformer"), &edited);
    let main = edited.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap() + "\n-- edited\n";
    std::fs::write(&main, text).unwrap();
    let ports = [free_port(), free_port(), free_port()];
    // Player 2 runs other files. It and player 3 cannot reach each other (each names a
    // port nobody listens on for the other), so player 3 learns of the refusal only from
    // player 1.
    let nobody = [local(free_port()), local(free_port())];
    let plans = [
        (
            root().join("carts/platformer"),
            vec![local(ports[1]), local(ports[2])],
        ),
        (edited.to_path_buf(), vec![local(ports[0]), nobody[0]]),
        (
            root().join("carts/platformer"),
            vec![local(ports[0]), nobody[1]],
        ),
    ];
    let start = Instant::now();
    let peers: Vec<_> = plans
        .into_iter()
        .enumerate()
        .map(|(i, (cart, others))| {
            let port = ports[i];
            std::thread::spawn(move || {
                let cart = Cart::open(&cart).unwrap();
                let game = Session::start(cart, SaveRam::default()).unwrap();
                let mut options = NetOptions::new(port, others, i);
                options.greet_timeout = Duration::from_secs(20);
                NetMatch::connect(&game, options).map(|_| ())
            })
        })
        .collect();
    let ends: Vec<_> = peers.into_iter().map(|p| p.join().unwrap()).collect();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "nobody waited for the timeout: {:?} {ends:?}",
        start.elapsed()
    );
    match &ends[2] {
        Err(e @ NetError::CalledOff { peer, reason }) => {
            assert_eq!(*peer, local(ports[0]), "{e}");
            assert!(
                reason.contains("refused player") && reason.contains("other files of Platformer"),
                "{e}"
            );
        }
        other => panic!("player 3 should hear that the match is off: {other:?}"),
    }
    // Whichever of players 1 and 2 heard the other first refused it.
    let refused = |e: &Result<(), NetError>| {
        matches!(
            e,
            Err(NetError::Refused { .. } | NetError::RefusedBy { .. })
        )
    };
    assert!(refused(&ends[0]) && refused(&ends[1]), "{ends:?}");
}

#[test]
fn an_input_delay_past_30_frames_is_refused_in_one_line() {
    let cart = root().join("carts/platformer");
    let cart = cart.to_str().unwrap();
    let port = free_port().to_string();
    let peer = local(free_port()).to_string();
    for delay in ["126", "31"] {
        let headless = [
            "headless",
            cart,
            "--net-port",
            &port,
            "--net-peer",
            &peer,
            "--net-player",
            "1",
            "--net-delay",
            delay,
            "--frames",
            "10",
        ];
        let window = [
            "netplay", cart, "--port", &port, "--peer", &peer, "--player", "1", "--delay", delay,
        ];
        for args in [&headless[..], &window[..]] {
            let out = Command::new(env!("CARGO_BIN_EXE_kairo"))
                .args(args)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "one line: {err}");
            assert!(
                err.contains(&format!("an input delay of {delay} frames"))
                    && err.contains("0 to 30 frames"),
                "{err}"
            );
        }
    }
}
