//! Rollback netplay: GGRS's sync test on both bundled carts (forced rollbacks every frame give
//! the machines of a straight run), and real matches between two `kairo headless` processes
//! on loopback: through a relay that delays, jitters and drops datagrams, with a peer killed
//! mid-match, and with a peer running other cart files (refused). UDP on 127.0.0.1 only,
//! bounded in time.
#![cfg(feature = "netplay")]

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::{finish, free_port, hash_line, root, temp_dir};
use kairo::cart::Cart;
use kairo::harness::relay::Relay;
use kairo::hash::frame_hash_hex;
use kairo::movie::Movie;
use kairo::netplay::play::NetOptions;
use kairo::netplay::{NetError, synctest};
use kairo::saveram::SaveRam;
use kairo::session::Session;

fn bundled(name: &str) -> Cart {
    Cart::open(&root().join("carts").join(name)).unwrap()
}

/// The picture after `vblanks` of `movie`, in one straight run.
fn straight(cart: &Cart, movie: &Movie, vblanks: usize) -> String {
    let mut session = Session::start(cart.clone(), SaveRam::default()).unwrap();
    for n in 0..vblanks {
        let _ = session.tick(movie.input(n));
    }
    frame_hash_hex(&session.console().rgba())
}

fn sync_test(cart: &Cart, movie: &Movie, vblanks: usize) {
    let mut session = Session::start(cart.clone(), SaveRam::default()).unwrap();
    let stats = synctest::run(&mut session, movie, vblanks, 2, 7)
        .unwrap_or_else(|e| panic!("{}: {e}", cart.name()));
    assert!(
        stats.rollbacks as usize >= vblanks - 8,
        "{} rollbacks",
        stats.rollbacks
    );
    assert!(stats.resimulated >= stats.rollbacks * 7);
    assert_eq!(
        frame_hash_hex(&session.console().rgba()),
        straight(cart, movie, vblanks),
        "{}: the rolled-back run ends on the straight run's picture",
        cart.name()
    );
}

#[test]
fn the_sync_test_passes_on_the_platformer_with_two_players() {
    let movie = Movie::from_press(&[
        Some("-*20,start*2,-*40,right*100,right+a*30,right*60,left+a*20,right*100"),
        Some("-*100,start*2,-*30,right*60,a*8,right*80,left*30,right+a*40"),
        None,
        None,
    ])
    .unwrap();
    sync_test(&bundled("platformer"), &movie, 480);
}

#[test]
fn the_sync_test_passes_on_the_shmup_along_its_movie() {
    let movie = Movie::load(&root().join("tests/movies/shmup.kmv")).unwrap();
    sync_test(&bundled("shmup"), &movie, 480);
}

/// Starts one headless peer of a match.
fn peer(
    cart: &std::path::Path,
    port: u16,
    other: SocketAddr,
    player: u8,
    frames: u32,
    press: &str,
    record: &std::path::Path,
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kairo"))
        .args([
            "headless",
            cart.to_str().unwrap(),
            "--net-port",
            &port.to_string(),
            "--net-peer",
            &other.to_string(),
            "--net-player",
            &player.to_string(),
            "--net-timeout",
            "20",
            "--frames",
            &frames.to_string(),
            "--press",
            press,
            "--record",
            record.to_str().unwrap(),
            "--hash",
        ])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kairo")
}

const PRESS_1: &str = "-*20,start*2,-*40,right*100,right+a*30,right*60,left+a*20,right*200";
const PRESS_2: &str = "-*100,start*2,-*30,right*60,a*8,right*80,left*30,right+a*40,right*150";

#[test]
fn two_peers_through_a_delaying_jittering_lossy_relay_end_on_the_same_frame() {
    let dir = temp_dir("netplay-relay");
    let cart = root().join("carts/platformer");
    let ports = [free_port(), free_port()];
    let local = |p: u16| SocketAddr::from(([127, 0, 0, 1], p));
    let relay = Relay::start(
        [local(ports[0]), local(ports[1])],
        Duration::from_millis(40),
        Duration::from_millis(10),
        20,
    )
    .unwrap();
    let frames = 540;
    let movies = [dir.join("p1.kmv"), dir.join("p2.kmv")];
    let one = peer(
        &cart,
        ports[0],
        relay.faces[0],
        1,
        frames,
        PRESS_1,
        &movies[0],
    );
    let two = peer(
        &cart,
        ports[1],
        relay.faces[1],
        2,
        frames,
        PRESS_2,
        &movies[1],
    );
    let limit = Duration::from_secs(90);
    let (code1, out1, err1) = finish(one, limit);
    let (code2, out2, err2) = finish(two, limit);
    assert_eq!(code1, 0, "peer 1: {out1}{err1}");
    assert_eq!(code2, 0, "peer 2: {out2}{err2}");
    let hash = hash_line(&out1);
    assert_eq!(hash, hash_line(&out2), "both peers end on the same picture");
    assert!(
        relay.dropped.load(Ordering::Relaxed) > 0,
        "the relay dropped datagrams"
    );
    assert!(relay.forwarded.load(Ordering::Relaxed) > 100);
    // 40 ms each way is more than the input delay hides: the peers went back and played
    // frames again (which of them depends on which ran ahead).
    let rollbacks = |out: &str| -> u64 {
        let line = out.lines().find(|l| l.starts_with("rollback: ")).unwrap();
        line["rollback: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(rollbacks(&out1) + rollbacks(&out2) > 0, "{out1}{out2}");
    assert!(out1.contains("player 2 joins"), "{out1}");

    // Both wrote the same merged movie, and it replays to the same frame headless.
    let (m1, m2) = (
        std::fs::read_to_string(&movies[0]).unwrap(),
        std::fs::read_to_string(&movies[1]).unwrap(),
    );
    assert_eq!(m1, m2);
    let movie = Movie::load(&movies[0]).unwrap();
    assert_eq!(movie.ticks.len(), frames as usize);
    assert!(
        movie.ticks.iter().any(|t| t.0[1] != 0),
        "player 2's input is in it"
    );
    let (code, out, err) = common::kairo(
        &[
            "headless",
            cart.to_str().unwrap(),
            "--input",
            movies[0].to_str().unwrap(),
            "--frames",
            &frames.to_string(),
            "--hash",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(hash_line(&out), hash);
}

#[test]
fn a_peer_killed_mid_match_ends_the_match_on_the_other_with_a_note() {
    let dir = temp_dir("netplay-kill");
    let cart = root().join("carts/platformer");
    let ports = [free_port(), free_port()];
    let local = |p: u16| SocketAddr::from(([127, 0, 0, 1], p));
    // Long enough that the match is still on when peer 2 goes.
    let frames = 3000;
    let one = peer(
        &cart,
        ports[0],
        local(ports[1]),
        1,
        frames,
        PRESS_1,
        &dir.join("1.kmv"),
    );
    let mut two = peer(
        &cart,
        ports[1],
        local(ports[0]),
        2,
        frames,
        PRESS_2,
        &dir.join("2.kmv"),
    );
    std::thread::sleep(Duration::from_secs(4));
    two.kill().unwrap();
    let _ = two.wait();
    let killed = Instant::now();
    let (code, out, err) = finish(one, Duration::from_secs(30));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!(
            "kairo: netplay: player 2 (127.0.0.1:{}) left the match at frame",
            ports[1]
        )),
        "{err}"
    );
    assert!(
        killed.elapsed() < Duration::from_secs(20),
        "ended, not hung"
    );
    assert!(
        !dir.join("1.kmv").exists(),
        "no movie of a match that did not finish"
    );
}

#[test]
fn a_peer_with_other_cart_files_is_refused_on_both_sides_with_one_line() {
    let dir = temp_dir("netplay-mismatch");
    let cart = root().join("carts/platformer");
    // A copy of the platformer with one line added to its script.
    let copy = dir.join("platformer");
    common::copy_dir(&cart, &copy);
    let main = copy.join("main.lua");
    let mut text = std::fs::read_to_string(&main).unwrap();
    text.push_str("\n-- edited\n");
    std::fs::write(&main, text).unwrap();
    let ports = [free_port(), free_port()];
    let local = |p: u16| SocketAddr::from(([127, 0, 0, 1], p));
    let one = peer(
        &cart,
        ports[0],
        local(ports[1]),
        1,
        300,
        PRESS_1,
        &dir.join("1.kmv"),
    );
    let two = peer(
        &copy,
        ports[1],
        local(ports[0]),
        2,
        300,
        PRESS_2,
        &dir.join("2.kmv"),
    );
    let limit = Duration::from_secs(30);
    let (code1, out1, err1) = finish(one, limit);
    let (code2, out2, err2) = finish(two, limit);
    for (code, out, err) in [(code1, &out1, &err1), (code2, &out2, &err2)] {
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("other files of Platformer"), "{err}");
        assert!(!out.contains("hash "), "{out}");
    }
}

#[test]
fn options_that_cannot_make_a_match_are_refused_before_any_traffic() {
    let cart = bundled("platformer");
    let session = Session::start(cart, SaveRam::default()).unwrap();
    let options = kairo::netplay::play::NetOptions::new(free_port(), vec![], 0);
    let e = kairo::netplay::play::NetMatch::connect(&session, options).unwrap_err();
    assert!(matches!(e, NetError::Setup(_)), "{e}");
    let peer = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let options = kairo::netplay::play::NetOptions::new(free_port(), vec![peer], 2);
    let e = kairo::netplay::play::NetMatch::connect(&session, options).unwrap_err();
    assert_eq!(
        e.to_string(),
        "player 3 in a match of 2 players (players are 1 to 2)"
    );
    let mut game = session;
    let options = kairo::netplay::play::NetOptions::new(free_port(), vec![peer], 0);
    let e = kairo::commands::netplay::play(&mut game, options, 0, None, &mut |_| {}).unwrap_err();
    assert_eq!(e.to_string(), "a match needs --frames 1 or more");
}

/// Plays a match of the cart at `cart` between two peers in this process; `change` runs on
/// peer 2's session once it reaches vblank 100. Returns each peer's error.
fn parted_match(cart: &std::path::Path, change: fn(&mut Session)) -> Vec<Result<i32, NetError>> {
    use kairo::netplay::play::NetMatch;
    let ports = [free_port(), free_port()];
    let local = |p: u16| SocketAddr::from(([127, 0, 0, 1], p));
    let peers: Vec<_> = (0..2)
        .map(|i| {
            let other = local(ports[1 - i]);
            let port = ports[i];
            let cart = Cart::open(cart).unwrap();
            std::thread::spawn(move || -> Result<i32, NetError> {
                let mut game = Session::start(cart, SaveRam::default()).unwrap();
                let mut net = NetMatch::connect(&game, NetOptions::new(port, vec![other], i))?;
                let start = Instant::now();
                let mut changed = false;
                // Bounded: the desync shows within a few frames of the change.
                while start.elapsed() < Duration::from_secs(30) {
                    net.step(&mut game, 0, &mut |_, _| {})?;
                    if i == 1 && !changed && game.console().vblanks() == 100 {
                        change(&mut game);
                        changed = true;
                    }
                    std::thread::sleep(Duration::from_millis(16));
                }
                Ok(-1)
            })
        })
        .collect();
    peers.into_iter().map(|p| p.join().unwrap()).collect()
}

#[test]
fn a_machine_that_parts_from_the_others_is_reported_as_a_desync_with_its_frame() {
    // Peer 2's machine changes behind the cart's back at vblank 100 (its save RAM): the
    // peers' machines part there.
    let ends = parted_match(&root().join("carts/platformer"), |game| {
        let mut save = game.console().machine().save().clone();
        save.set_slot(0, 12345.0).unwrap();
        game.console_mut().machine_mut().set_save(save);
    });
    for end in ends {
        match end {
            Err(NetError::Desync { frame, .. }) => {
                assert!(
                    (100..=130).contains(&frame),
                    "desync reported at frame {frame}"
                )
            }
            other => panic!("expected a desync, got {other:?}"),
        }
    }
}

#[test]
fn a_difference_only_in_the_carts_lua_state_is_found_when_it_happens() {
    // The cart shows its hidden value only from frame 600; peer 2's script is changed at
    // vblank 100 (a local and a table field), which no hardware state shows until then.
    let ends = parted_match(&root().join("tests/carts/netplay_hidden_state"), |game| {
        assert!(game.console_mut().call_global("poke").unwrap());
    });
    for end in ends {
        match end {
            Err(e @ NetError::Desync { frame, .. }) => {
                assert!(
                    (100..=130).contains(&frame),
                    "desync reported at frame {frame}: {e}"
                );
                assert!(
                    e.to_string()
                        .contains("the cart's Lua state differs, the hardware agrees"),
                    "{e}"
                );
            }
            other => panic!("expected a desync, got {other:?}"),
        }
    }
}
