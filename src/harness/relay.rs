//! A UDP relay on loopback that makes the network worse on purpose, for netplay's tests and
//! `kairo bench netplay`: two peers each talk to their own side of it as if it were the
//! other peer, and every datagram waits a delay plus some jitter (so datagrams also arrive
//! out of order), and some are dropped. The drops and jitter come from a fixed seed, so a
//! run is repeatable as far as the host's timing allows.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A relay between two peers on loopback: each peer talks to its own side of the relay as if
/// it were the other peer. Datagrams wait `delay` plus up to `jitter` (so they also arrive
/// out of order), and one in `loss` is dropped (none when `loss` is 0).
pub struct Relay {
    /// The addresses the peers give as `--net-peer`: peer 1's, then peer 2's.
    pub faces: [SocketAddr; 2],
    stop: Arc<AtomicBool>,
    /// Datagrams dropped and passed on so far.
    pub dropped: Arc<AtomicU64>,
    pub forwarded: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Relay {
    /// Starts relaying between `peers` (their own addresses) on two new loopback ports.
    pub fn start(
        peers: [SocketAddr; 2],
        delay: Duration,
        jitter: Duration,
        loss: u64,
    ) -> std::io::Result<Relay> {
        let sockets = [
            UdpSocket::bind("127.0.0.1:0")?,
            UdpSocket::bind("127.0.0.1:0")?,
        ];
        let faces = [sockets[0].local_addr()?, sockets[1].local_addr()?];
        for s in &sockets {
            s.set_nonblocking(true)?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let dropped = Arc::new(AtomicU64::new(0));
        let forwarded = Arc::new(AtomicU64::new(0));
        let (stop2, dropped2, forwarded2) = (stop.clone(), dropped.clone(), forwarded.clone());
        let thread = std::thread::spawn(move || {
            let mut queue: Vec<(Instant, usize, Vec<u8>)> = Vec::new();
            let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
            let mut random = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let mut buffer = [0u8; 4096];
            // Bounded: a relay never runs for more than ten minutes.
            let end = Instant::now() + Duration::from_secs(600);
            while !stop2.load(Ordering::Relaxed) && Instant::now() < end {
                for (side, socket) in sockets.iter().enumerate() {
                    while let Ok((len, _)) = socket.recv_from(&mut buffer) {
                        if loss > 0 && random() % loss == 0 {
                            dropped2.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                        let extra = random() % (jitter.as_micros() as u64 + 1);
                        let due = Instant::now() + delay + Duration::from_micros(extra);
                        queue.push((due, 1 - side, buffer[..len].to_vec()));
                    }
                }
                let now = Instant::now();
                queue.retain(|(due, to, bytes)| {
                    if *due > now {
                        return true;
                    }
                    // Out of the other side's socket, to that side's peer.
                    let _ = sockets[*to].send_to(bytes, peers[*to]);
                    forwarded2.fetch_add(1, Ordering::Relaxed);
                    false
                });
                std::thread::sleep(Duration::from_micros(500));
            }
        });
        Ok(Relay {
            faces,
            stop,
            dropped,
            forwarded,
            thread: Some(thread),
        })
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
