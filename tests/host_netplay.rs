//! Netplay in the window's shell, driven off-screen against a headless peer in this process
//! (a thread) on loopback: the Netplay screen's lines are edited by typing, a host waits for
//! a joiner, the match runs with the status line up, states and reset are refused during it,
//! and the peer leaving ends it with a note. UDP on 127.0.0.1 only, bounded in time.
#![cfg(all(feature = "host", feature = "netplay"))]

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::shell::tap;
use common::{free_port, root};
use kairo::cart::Cart;
use kairo::host::shell::{Screen, Shell};
use kairo::movie::Movie;
use kairo::netplay::play::NetOptions;
use kairo::saveram::SaveRam;
use kairo::session::Session;

/// One vblank of the shell every 1/60 s of real time, `n` times.
fn paced(shell: &mut Shell, n: usize) {
    for _ in 0..n {
        shell.vblank(Instant::now());
        std::thread::sleep(Duration::from_millis(16));
    }
}

fn choose(shell: &mut Shell, label: &str) {
    let menu = match &shell.screen {
        Screen::Paused(m) | Screen::Netplay(m) => m.clone(),
        other => panic!("no menu: {other:?}"),
    };
    let index = menu
        .items
        .iter()
        .position(|(l, _)| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` in {:?}", menu.items));
    for _ in menu.selected..index {
        tap(shell, "ArrowDown");
    }
    tap(shell, "KeyZ");
}

#[test]
fn the_window_joins_a_match_plays_it_and_ends_when_the_peer_leaves() {
    let config = common::temp_dir("netplay-config");
    let mut shell = Shell::new(root().join("carts"), Some(config.to_path_buf()));
    shell.open(&root().join("carts/platformer"));
    // The Netplay screen: typing edits the selected line.
    shell.escape();
    choose(&mut shell, "Netplay");
    let Screen::Netplay(menu) = &shell.screen else {
        panic!("the netplay screen");
    };
    assert_eq!(menu.items[0].0, "Host on port 7000");
    for key in ["Backspace", "Digit1"] {
        shell.key(key, true);
        shell.key(key, false);
    }
    let Screen::Netplay(menu) = &shell.screen else {
        panic!("the netplay screen");
    };
    assert_eq!(menu.items[0].0, "Host on port 7001");

    // A peer hosts on a free port; the window joins it by typing its address.
    let port = free_port();
    let host_at = SocketAddr::from(([127, 0, 0, 1], port));
    let cart = Cart::open(&root().join("carts/platformer")).unwrap();
    let host = std::thread::spawn(move || {
        let mut game = Session::start(cart, SaveRam::default()).unwrap();
        let press =
            Movie::from_press(&[Some("-*30,start*2,-*30,right*120"), None, None, None]).unwrap();
        kairo::commands::netplay::play(
            &mut game,
            NetOptions::host(port),
            240,
            Some(&press),
            &mut |_| {},
        )
    });
    tap(&mut shell, "ArrowDown");
    type_line(&mut shell, "127.0.0.1:7000", &host_at.to_string());
    choose(&mut shell, &format!("Join {host_at}"));
    assert!(shell.in_netplay());
    assert!(matches!(shell.screen, Screen::Playing));
    // The lines are remembered for the next run.
    let next_run = Shell::new(root().join("carts"), Some(config.to_path_buf()));
    assert_eq!(next_run.netplay.setup.port, "7001");
    assert_eq!(next_run.netplay.setup.join, host_at.to_string());

    // The match: the status line shows, the game runs, states and reset wait.
    let start = Instant::now();
    let mut saw_status = false;
    while start.elapsed() < Duration::from_secs(20) && !saw_status {
        paced(&mut shell, 10);
        saw_status = shell
            .toast_text()
            .is_some_and(|t| t.starts_with("NET ping"));
    }
    assert!(saw_status, "{:?}", shell.toast_text());
    shell.save_slot(0);
    assert_eq!(
        shell.toast_text(),
        Some("States: not during a netplay match")
    );
    paced(&mut shell, 90);
    assert!(shell.console().unwrap().vblanks() > 60, "the game runs");

    // The host plays to frame 240 and leaves: the window's match ends with a note.
    let start = Instant::now();
    while !host.is_finished() && start.elapsed() < Duration::from_secs(30) {
        paced(&mut shell, 1);
    }
    let run = host.join().unwrap().expect("the host's match");
    assert_eq!(run.movie.ticks.len(), 240);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(15) && shell.in_netplay() {
        paced(&mut shell, 10);
    }
    assert!(!shell.in_netplay(), "the match ended");
    let Screen::Error { title, message, .. } = &shell.screen else {
        panic!("a note on the error screen: {:?}", shell.screen);
    };
    assert_eq!(*title, "PLAYER LEFT");
    assert!(
        message.starts_with(&format!(
            "Netplay ended: player 1 ({host_at}) left the match at frame"
        )),
        "{message}"
    );
}

/// Types `text` (digits, `.` and `:`) on the Netplay screen's selected line, after
/// clearing it.
fn type_line(shell: &mut Shell, old: &str, text: &str) {
    for _ in 0..old.len() {
        shell.key("Backspace", true);
        shell.key("Backspace", false);
    }
    for c in text.chars() {
        let key = match c {
            '.' => "Period".to_string(),
            ':' => "Semicolon".to_string(),
            d => format!("Digit{d}"),
        };
        shell.key(&key, true);
        shell.key(&key, false);
    }
}

#[test]
fn the_window_hosts_past_strangers_refuses_what_would_part_the_machines_and_reloads_after() {
    let config = common::temp_dir("netplay-host-config");
    let carts = common::temp_dir("netplay-host-carts");
    let cart = carts.join("platformer");
    common::copy_dir(&root().join("carts/platformer"), &cart);
    let mut shell = Shell::new(carts.to_path_buf(), Some(config.to_path_buf()));
    shell.open(&cart);
    paced(&mut shell, 3);
    // Host from the Netplay screen on a free port.
    let port = free_port();
    shell.escape();
    choose(&mut shell, "Netplay");
    type_line(&mut shell, "7000", &port.to_string());
    choose(&mut shell, &format!("Host on port {port}"));
    assert!(shell.in_netplay());
    paced(&mut shell, 5);
    assert!(
        shell
            .toast_text()
            .is_some_and(|t| t.contains(&format!("waiting for a player on port {port}"))),
        "{:?}",
        shell.toast_text()
    );
    // A stranger's datagram first: it takes no seat.
    let stranger = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    stranger
        .send_to(b"KRHI", SocketAddr::from(([127, 0, 0, 1], port)))
        .unwrap();
    paced(&mut shell, 5);
    // Then a real joiner (a headless peer on a thread) joins and plays 600 frames.
    let joiner_cart = Cart::open(&cart).unwrap();
    let host_at = SocketAddr::from(([127, 0, 0, 1], port));
    let joiner = std::thread::spawn(move || {
        let mut game = Session::start(joiner_cart, SaveRam::default()).unwrap();
        kairo::commands::netplay::play(
            &mut game,
            NetOptions::new(free_port(), vec![host_at], 1),
            600,
            None,
            &mut |_| {},
        )
    });
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20)
        && !shell
            .toast_text()
            .is_some_and(|t| t.contains("you are player 1") || t.starts_with("NET ping"))
    {
        paced(&mut shell, 1);
    }
    assert!(
        matches!(shell.screen, Screen::Playing),
        "the match started: {:?}",
        shell.screen
    );

    // Fast-forward and rewind are refused with a note, not silently.
    shell.set_fast_forward(true);
    paced(&mut shell, 2);
    shell.set_fast_forward(false);
    assert_eq!(
        shell.toast_text(),
        Some("Fast-forward: not during a netplay match")
    );
    shell.set_rewind_held(true);
    paced(&mut shell, 2);
    shell.set_rewind_held(false);
    assert_eq!(
        shell.toast_text(),
        Some("Rewind: not during a netplay match")
    );

    // The cart is edited during the match: it waits, with a note.
    let main = cart.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap() + "\n-- edited during the match\n";
    std::fs::write(&main, text).unwrap();
    let start = Instant::now();
    let mut noted = false;
    while start.elapsed() < Duration::from_secs(10) && !noted {
        paced(&mut shell, 1);
        noted = shell
            .toast_text()
            .is_some_and(|t| t.starts_with("Cart changed: it reloads when the netplay match ends"));
    }
    assert!(noted, "{:?}", shell.toast_text());
    paced(&mut shell, 60);
    assert!(shell.in_netplay(), "the match goes on");
    let played = shell.console().unwrap().vblanks();
    assert!(played > 40, "{played}");

    // Leaving the match: the edited cart reloads then (it starts again from power-on).
    shell.escape();
    choose(&mut shell, "Netplay");
    choose(&mut shell, "Leave the match");
    assert!(!shell.in_netplay());
    paced(&mut shell, 2);
    let after = shell.console().unwrap().vblanks();
    assert!(after < 10, "reloaded after the match: {after} vblanks");
    let _ = joiner.join().unwrap();
}

#[test]
fn the_window_joining_a_host_that_dies_after_the_greeting_ends_with_a_titled_note() {
    // A host made of datagrams: it answers the greeting and dies.
    let fake = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    fake.set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    let fake_at = fake.local_addr().unwrap();
    let config = common::temp_dir("netplay-vanish-config");
    let mut shell = Shell::new(root().join("carts"), Some(config.to_path_buf()));
    shell.open(&root().join("carts/platformer"));
    shell.escape();
    choose(&mut shell, "Netplay");
    tap(&mut shell, "ArrowDown");
    type_line(&mut shell, "127.0.0.1:7000", &fake_at.to_string());
    choose(&mut shell, &format!("Join {fake_at}"));
    let cart = Cart::open(&root().join("carts/platformer")).unwrap();
    let host_hello =
        kairo::netplay::play::Greeting::for_cart(&cart, NetOptions::new(0, vec![fake_at], 0))
            .hello()
            .clone();
    let mut buffer = [0u8; 4096];
    let start = Instant::now();
    let joiner = loop {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the window greets"
        );
        paced(&mut shell, 1);
        if let Ok((len, from)) = fake.recv_from(&mut buffer)
            && kairo::netplay::handshake::Hello::parse_datagram(&buffer[..len]).is_some()
        {
            break from;
        }
    };
    let seen = kairo::netplay::handshake::Hello {
        seen: true,
        ..host_hello
    };
    fake.send_to(&seen.datagram(), joiner).unwrap();
    drop(fake);
    let died = Instant::now();
    while died.elapsed() < Duration::from_secs(15) && shell.in_netplay() {
        paced(&mut shell, 5);
    }
    assert!(!shell.in_netplay(), "the window is not left waiting");
    let Screen::Error { title, message, .. } = &shell.screen else {
        panic!("an ending note: {:?}", shell.screen);
    };
    assert_eq!(*title, "PLAYER LEFT");
    assert!(
        message.contains(&format!("player 1 ({fake_at}) stopped answering")),
        "{message}"
    );
}

#[test]
fn leaving_while_waiting_for_a_joiner_lets_the_port_go() {
    let config = common::temp_dir("netplay-leave-config");
    let mut shell = Shell::new(root().join("carts"), Some(config.to_path_buf()));
    shell.open(&root().join("carts/platformer"));
    let port = free_port();
    shell.escape();
    choose(&mut shell, "Netplay");
    type_line(&mut shell, "7000", &port.to_string());
    choose(&mut shell, &format!("Host on port {port}"));
    paced(&mut shell, 5);
    assert!(shell.in_netplay());
    shell.escape();
    choose(&mut shell, "Netplay");
    choose(&mut shell, "Leave the match");
    assert!(!shell.in_netplay());
    // The greeting's thread stops and lets the port go: it can be bound again at once.
    let start = Instant::now();
    let bound = loop {
        match std::net::UdpSocket::bind(("0.0.0.0", port)) {
            Ok(socket) => break Some(socket),
            Err(_) if start.elapsed() < Duration::from_secs(2) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(_) => break None,
        }
    };
    assert!(bound.is_some(), "port {port} still held after leaving");
}

#[test]
fn the_window_makes_a_room_plays_a_peer_in_it_and_saves_the_match_as_a_movie() {
    let lobby = common::lobby::Lobby::start();
    let config = common::temp_dir("netplay-room-config");
    let data = common::temp_dir("netplay-room-data");
    std::fs::write(
        config.join("netplay.toml"),
        format!("server = \"{}\"\n", lobby.url),
    )
    .unwrap();
    let mut shell = Shell::new(root().join("carts"), Some(config.to_path_buf()));
    shell.set_data_dir(Some(data.to_path_buf()));
    shell.open(&root().join("carts/platformer"));
    shell.escape();
    choose(&mut shell, "Netplay");
    choose(&mut shell, "Create a room on ws://127.0.0.1:");
    assert!(shell.in_netplay());
    let code = shell.netplay.setup.room.clone();
    assert_eq!(code.len(), 6, "{code}");

    // A friend joins the room by its code, as player 2.
    let server = lobby.url.clone();
    let friend = std::thread::spawn(move || {
        let cart = Cart::open(&root().join("carts/platformer")).unwrap();
        let mut game = Session::start(cart, SaveRam::default()).unwrap();
        let room =
            kairo::rooms::room_options(&server, &code, None, kairo::rooms::IceServers::default())
                .unwrap();
        let press =
            Movie::from_press(&[Some("-*30,start*2,-*30,right*200"), None, None, None]).unwrap();
        kairo::commands::netplay::play_room(
            &mut game,
            NetOptions::in_room(room, 2, 1),
            300,
            Some(&press),
            None,
            &mut |_| {},
        )
    });
    let start = Instant::now();
    let mut saw_status = false;
    while start.elapsed() < Duration::from_secs(30) && !saw_status {
        paced(&mut shell, 5);
        saw_status = shell
            .toast_text()
            .is_some_and(|t| t.starts_with("NET P1 ping"));
    }
    assert!(saw_status, "{:?}", shell.toast_text());
    paced(&mut shell, 120);

    // Save the match so far as a movie; it replays headless to what every player saw.
    shell.escape();
    choose(&mut shell, "Netplay");
    choose(&mut shell, "Save the match as a movie");
    let toast = shell.toast_text().unwrap_or_default().to_string();
    let folder = data.join("movies");
    let saved: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e} ({toast})", folder.display()))
        .flat_map(|cart| std::fs::read_dir(cart.unwrap().path()).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let movie = Movie::load(&saved[0]).unwrap();
    assert!(movie.ticks.len() > 60, "{} frames", movie.ticks.len());
    assert!(
        movie.ticks.iter().any(|t| t.0[1] != 0),
        "the friend's input is in it"
    );

    // The window plays on while the friend finishes.
    let start = Instant::now();
    while !friend.is_finished() && start.elapsed() < Duration::from_secs(30) {
        paced(&mut shell, 1);
    }
    let run = friend.join().unwrap().expect("the friend's match");
    assert_eq!(run.movie.ticks[..movie.ticks.len()], movie.ticks[..]);
}
