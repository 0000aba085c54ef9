//! The window's profiler (F3 or the pause menu): keeps the last 240 profiled frames, the
//! overlay's mode, the cursor used while the game is frozen (F5), and the host's real frame
//! rate, and draws [`crate::profiling::overlay`] over the game.

use std::time::Instant;

use crate::profile::FrameProfile;
use crate::profiling::history::{History, OVERLAY_FRAMES};
use crate::profiling::overlay::{self, OverlayMode, OverlayView};

/// Weight of the newest interval in the host frame-rate average.
const FPS_SMOOTHING: f32 = 0.1;

/// The profiler as the window shows it.
#[derive(Debug)]
pub struct Profiler {
    pub history: History,
    pub mode: OverlayMode,
    /// Frame (index into the history) shown while frozen; `None` follows the newest.
    pub cursor: Option<usize>,
    host_fps: f32,
    last_present: Option<Instant>,
    present_us: f32,
}

impl Profiler {
    pub fn new(mode: OverlayMode) -> Profiler {
        Profiler {
            history: History::new(OVERLAY_FRAMES),
            mode,
            cursor: None,
            host_fps: 0.0,
            last_present: None,
            present_us: 0.0,
        }
    }

    /// Takes the frame `console` just ran, if it ran one.
    pub fn collect(&mut self, frame: Option<FrameProfile>) {
        if let Some(frame) = frame {
            self.history.push(frame);
        }
    }

    /// Notes that the host presented a picture at `now`, which took `present_us`.
    pub fn presented(&mut self, now: Instant, present_us: f32) {
        if let Some(last) = self.last_present.replace(now) {
            let seconds = (now - last).as_secs_f32();
            if seconds > 0.0 {
                let fps = 1.0 / seconds;
                self.host_fps = if self.host_fps == 0.0 {
                    fps
                } else {
                    self.host_fps + (fps - self.host_fps) * FPS_SMOOTHING
                };
            }
        }
        self.present_us = present_us;
    }

    /// Moves the frozen graph's cursor by `delta` frames (starting from the newest).
    pub fn move_cursor(&mut self, delta: isize) {
        let len = self.history.len();
        if len == 0 {
            return;
        }
        let at = self.cursor.unwrap_or(len - 1) as isize + delta;
        self.cursor = Some(at.clamp(0, len as isize - 1) as usize);
    }

    /// Draws the overlay over `rgba`; `frozen` shows the cursor's frame.
    pub fn draw(&self, rgba: &mut [u8], frozen: bool) {
        let cursor = frozen
            .then(|| self.cursor.or_else(|| self.history.len().checked_sub(1)))
            .flatten();
        let machine_us = self.history.last().map_or(0.0, |f| f.host.total_us());
        let view = OverlayView {
            mode: self.mode,
            cursor,
            host_fps: self.host_fps,
            host_us: machine_us + self.present_us,
        };
        overlay::draw(rgba, &self.history, &view);
    }
}
