//! `KAIRO_NET_LOG`: the WebRTC stack's own log (matchbox's signalling and peer connections,
//! webrtc-rs's ICE, DTLS and SCTP) on stderr, for finding out why two peers do not meet.
//! `KAIRO_NET_LOG=debug` (or `info`, `warn`, `trace`; `1` means debug) turns it on; unset,
//! nothing is logged.

use std::sync::OnceLock;
use std::time::Instant;

/// The crates whose log lines are shown.
const SOURCES: [&str; 3] = ["matchbox", "webrtc", "kairo"];

struct NetLog {
    start: Instant,
}

impl log::Log for NetLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        SOURCES.iter().any(|s| metadata.target().starts_with(s))
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            eprintln!(
                "{:8.3} {:5} {}: {}",
                self.start.elapsed().as_secs_f64(),
                record.level(),
                record.target(),
                record.args()
            );
        }
    }

    fn flush(&self) {}
}

/// The level `KAIRO_NET_LOG` asks for, if it asks for one.
fn level_asked(value: &str) -> Option<log::LevelFilter> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "0" | "off" => None,
        "1" | "debug" => Some(log::LevelFilter::Debug),
        "trace" => Some(log::LevelFilter::Trace),
        "info" => Some(log::LevelFilter::Info),
        "warn" => Some(log::LevelFilter::Warn),
        "error" => Some(log::LevelFilter::Error),
        _ => Some(log::LevelFilter::Debug),
    }
}

/// Turns the log on if `KAIRO_NET_LOG` asks for it (once per process; later calls and a
/// logger installed by someone else leave it as it is).
pub fn start_if_asked() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let Some(level) = std::env::var("KAIRO_NET_LOG")
            .ok()
            .and_then(|v| level_asked(&v))
        else {
            return;
        };
        let logger = Box::leak(Box::new(NetLog {
            start: Instant::now(),
        }));
        if log::set_logger(logger).is_ok() {
            log::set_max_level(level);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read() {
        assert_eq!(level_asked(""), None);
        assert_eq!(level_asked("off"), None);
        assert_eq!(level_asked("1"), Some(log::LevelFilter::Debug));
        assert_eq!(level_asked("INFO"), Some(log::LevelFilter::Info));
        assert_eq!(level_asked("trace"), Some(log::LevelFilter::Trace));
    }
}
