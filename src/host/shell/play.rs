//! How the game is being played through, apart from the buttons: debug pause (F5) with
//! single steps (F6), fast-forward (held Tab) and rewind held (Backspace). The shell asks it
//! how many machine vblanks to run each host vblank.

/// Machine vblanks per host vblank while fast-forwarding.
pub const FAST_FORWARD: u32 = 4;

/// The play controls' state.
#[derive(Debug, Default)]
pub(super) struct PlayControl {
    /// Debug pause (F5): the game stands still until stepped (F6) or resumed.
    paused: bool,
    step_requested: bool,
    /// Fast-forward (held Tab): the game runs [`FAST_FORWARD`] vblanks per host vblank.
    fast_forward: bool,
    /// Rewind held on the keyboard (Backspace); Select + L on a pad does the same.
    rewind_held: bool,
}

impl PlayControl {
    /// Machine vblanks to run now: none while debug-paused (one when a step was asked),
    /// [`FAST_FORWARD`] while fast-forwarding, else one.
    pub fn vblanks(&mut self) -> u32 {
        if self.paused {
            u32::from(std::mem::take(&mut self.step_requested))
        } else if self.fast_forward {
            FAST_FORWARD
        } else {
            1
        }
    }

    /// Debug pause on or off (a step asked for is forgotten).
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        self.step_requested = false;
    }

    /// While debug-paused, one more vblank is run.
    pub fn step(&mut self) {
        if self.paused {
            self.step_requested = true;
        }
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    pub fn fast_forward(&self) -> bool {
        self.fast_forward
    }

    pub fn set_fast_forward(&mut self, on: bool) {
        self.fast_forward = on;
    }

    pub fn rewind_held(&self) -> bool {
        self.rewind_held
    }

    pub fn set_rewind_held(&mut self, held: bool) {
        self.rewind_held = held;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_runs_nothing_but_asked_steps_and_fast_forward_runs_four() {
        let mut play = PlayControl::default();
        assert_eq!(play.vblanks(), 1);
        play.set_fast_forward(true);
        assert_eq!(play.vblanks(), FAST_FORWARD);
        play.toggle_pause();
        assert_eq!(play.vblanks(), 0, "paused wins over fast-forward");
        play.step();
        assert_eq!((play.vblanks(), play.vblanks()), (1, 0), "one step, once");
        play.step();
        play.toggle_pause();
        play.toggle_pause();
        assert_eq!(
            play.vblanks(),
            0,
            "a step asked before resuming is forgotten"
        );
    }
}
