//! Watching a cart folder for changes (crate `notify`), debounced so a burst of saves from an
//! editor reloads the cart once.

use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// Quiet time after the last change before reloading.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// Collapses bursts of change events into one reload.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Debounce {
    last_change: Option<Instant>,
}

impl Debounce {
    /// A change happened at `at`.
    pub fn changed(&mut self, at: Instant) {
        self.last_change = Some(at);
    }

    /// Whether it is time to reload at `now`; clears the pending change if so.
    pub fn due(&mut self, now: Instant) -> bool {
        match self.last_change {
            Some(at) if now.duration_since(at) >= DEBOUNCE => {
                self.last_change = None;
                true
            }
            _ => false,
        }
    }
}

/// A watch on one cart folder.
pub struct CartWatcher {
    _watcher: notify::RecommendedWatcher,
    events: Receiver<()>,
    debounce: Debounce,
}

impl CartWatcher {
    /// Watches `dir` and everything below it.
    pub(crate) fn watch(dir: &Path) -> Result<CartWatcher, super::HostError> {
        let failed = |source| super::HostError::Watch {
            path: dir.to_path_buf(),
            source,
        };
        let (tx, rx) = channel();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event
                    && matches!(
                        event.kind,
                        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
                    )
                {
                    let _ = tx.send(());
                }
            })
            .map_err(failed)?;
        watcher
            .watch(dir, RecursiveMode::Recursive)
            .map_err(failed)?;
        Ok(CartWatcher {
            _watcher: watcher,
            events: rx,
            debounce: Debounce::default(),
        })
    }

    /// Whether the folder changed and has been quiet long enough to reload now.
    pub(crate) fn should_reload(&mut self, now: Instant) -> bool {
        while self.events.try_recv().is_ok() {
            self.debounce.changed(now);
        }
        self.debounce.due(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_changes_reloads_once_after_a_quiet_spell() {
        let t0 = Instant::now();
        let mut d = Debounce::default();
        assert!(!d.due(t0));
        d.changed(t0);
        d.changed(t0 + Duration::from_millis(100));
        assert!(!d.due(t0 + Duration::from_millis(300)));
        assert!(d.due(t0 + Duration::from_millis(350)));
        assert!(!d.due(t0 + Duration::from_millis(400)));
    }

    #[test]
    fn saving_a_file_in_a_watched_folder_is_noticed() {
        let (_guard, dir) = {
            let guard = tempfile::Builder::new()
                .prefix(&format!("kairo-{}-", "watch"))
                .tempdir()
                .expect("a temporary folder");
            let dir = guard.path().to_path_buf();
            (guard, dir)
        };
        let mut watcher = CartWatcher::watch(&dir).unwrap();
        std::fs::write(dir.join("main.lua"), "-- changed").unwrap();
        let start = Instant::now();
        let mut reloaded = false;
        while start.elapsed() < Duration::from_secs(5) && !reloaded {
            std::thread::sleep(Duration::from_millis(50));
            reloaded = watcher.should_reload(Instant::now());
        }
        assert!(reloaded, "no reload within 5 s of a change");
    }
}
