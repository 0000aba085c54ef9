//! A real `kairo lobby` process for the room tests: on a free loopback port, stopped when
//! dropped; its log lines are kept for the test to read.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub struct Lobby {
    child: Child,
    /// `ws://127.0.0.1:PORT`.
    pub url: String,
    log: mpsc::Receiver<String>,
}

impl Lobby {
    pub fn start() -> Lobby {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kairo"))
            .args(["lobby", "--port", "0", "--bind", "127.0.0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run kairo lobby");
        let (tell, log) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            // Every line is read, so that the lobby never blocks on its output.
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tell.send(line);
            }
        });
        let first = log
            .recv_timeout(Duration::from_secs(20))
            .expect("the lobby says where it listens");
        let addr = first
            .strip_prefix("lobby: listening on ws://")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        Lobby {
            child,
            url: format!("ws://{addr}"),
            log,
        }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.url.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// Every log line since the last call.
    pub fn lines(&self) -> Vec<String> {
        self.log.try_iter().collect()
    }

    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Lobby {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
