//! Frame pacing: when to step the machine. The machine runs at 60 Hz on the wall clock with
//! absolute deadlines (tick i is due at i/60 s after the origin), whatever the display's
//! refresh rate; a late host catches up at most [`MAX_CATCH_UP`] ticks at once and then
//! resynchronises instead of fast-forwarding. Pure: time comes in as nanoseconds, so tests
//! drive it with a simulated clock.

use crate::spec::FRAME_RATE;

/// Most vblanks run in one go when the host fell behind.
pub const MAX_CATCH_UP: u32 = 3;
const NANOS_PER_SECOND: u64 = 1_000_000_000;
/// A tick counts as due this long before its deadline, so that a display refreshing in step
/// with the machine (60 Hz) does not alternate between 0 and 2 ticks per refresh when its
/// vblanks land a hair before the deadlines. An eighth of a machine frame.
const EARLY: u64 = NANOS_PER_SECOND / FRAME_RATE as u64 / 8;

/// The pacing state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pacer {
    /// Time of tick 0 of the current schedule.
    origin: u64,
    /// Ticks of the current schedule already run.
    done: u64,
}

impl Pacer {
    /// A schedule whose first tick is due at `now`.
    pub fn new(now: u64) -> Pacer {
        Pacer {
            origin: now,
            done: 0,
        }
    }

    /// Ticks of the schedule due by `now` (tick 0 is due at the origin).
    fn due_by(&self, now: u64) -> u64 {
        let elapsed = (now + EARLY).saturating_sub(self.origin);
        (u128::from(elapsed) * u128::from(FRAME_RATE) / u128::from(NANOS_PER_SECOND)) as u64 + 1
    }

    /// Vblanks to run at time `now` (0 to [`MAX_CATCH_UP`]).
    pub fn advance(&mut self, now: u64) -> u32 {
        let behind = self.due_by(now).saturating_sub(self.done);
        if behind > u64::from(MAX_CATCH_UP) {
            // Too far behind (a stall, a drag of the window): run a bounded burst, then start
            // a new schedule whose next tick is one period from now.
            self.origin = now;
            self.done = 1;
            return MAX_CATCH_UP;
        }
        self.done += behind;
        behind as u32
    }

    /// When the next tick is due: the time to sleep until.
    pub(crate) fn next_deadline(&self) -> u64 {
        let ticks = u128::from(self.done) * u128::from(NANOS_PER_SECOND);
        self.origin + ticks.div_ceil(u128::from(FRAME_RATE)) as u64
    }

    /// Starts a new schedule at `now` (after a pause or while minimised), without catch-up.
    pub(crate) fn resync(&mut self, now: u64) {
        *self = Pacer::new(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: u64 = NANOS_PER_SECOND;

    /// Presents at `hz` from time 0 to `seconds`, with an optional stall (start, length);
    /// returns the vblanks run in each one-second window [s - 0.5, s + 0.5) (windows centred
    /// on whole seconds keep ticks near a window edge out of the count's noise; window 0 is
    /// half a second long) and the largest burst.
    fn simulate(hz: u64, seconds: u64, stall: Option<(u64, u64)>) -> (Vec<u64>, u32) {
        let mut pacer = Pacer::new(0);
        let mut per_second = vec![0; seconds as usize + 1];
        let mut largest = 0;
        let mut k = 0u64;
        loop {
            let mut now = k * SECOND / hz;
            if let Some((start, length)) = stall
                && now >= start
                && now < start + length
            {
                now = start + length;
                k = (now * hz).div_ceil(SECOND);
            }
            if now >= seconds * SECOND {
                break;
            }
            let n = pacer.advance(now);
            largest = largest.max(n);
            per_second[((now + SECOND / 2) / SECOND) as usize] += u64::from(n);
            k += 1;
        }
        (per_second, largest)
    }

    /// Whether the windows that lie wholly inside the run (1 to `seconds` - 1) hold 60 ticks.
    fn steady(per_second: &[u64]) -> bool {
        per_second[1..per_second.len() - 1].iter().all(|&n| n == 60)
    }

    #[test]
    fn sixty_machine_frames_every_second_on_common_displays() {
        for hz in [60, 75, 120, 144, 240] {
            let (per_second, largest) = simulate(hz, 10, None);
            assert!(steady(&per_second), "{hz} Hz: {per_second:?}");
            assert!(largest <= 1, "{hz} Hz never needs to catch up");
        }
    }

    #[test]
    fn no_drift_over_ten_minutes() {
        for hz in [60, 75, 120, 144] {
            let (per_second, _) = simulate(hz, 600, None);
            let total: u64 = per_second.iter().sum();
            assert!(
                total.abs_diff(600 * 60) <= 1,
                "{hz} Hz: {total} ticks in 600 s"
            );
            assert!(steady(&per_second), "{hz} Hz");
        }
    }

    #[test]
    fn a_slow_display_catches_up_in_bounded_bursts() {
        // 50 Hz: some presents run two ticks, and the rate stays 60.
        let (per_second, largest) = simulate(50, 10, None);
        assert!(steady(&per_second), "{per_second:?}");
        assert_eq!(largest, 2);
    }

    #[test]
    fn a_stall_catches_up_at_most_three_frames_then_resyncs() {
        // Stalled from 0.8 s to 1.3 s, inside the window [0.5 s, 1.5 s).
        let stall = (SECOND * 8 / 10, SECOND / 2);
        let (per_second, largest) = simulate(60, 4, Some(stall));
        assert_eq!(largest, MAX_CATCH_UP);
        // That window loses the half second it could not run, less the bounded burst.
        let lost = 60 - per_second[1];
        assert!((27..=30).contains(&lost), "{per_second:?}");
        assert_eq!(
            per_second[2..4],
            [60, 60],
            "steady again after the stall: {per_second:?}"
        );
    }

    #[test]
    fn an_unthrottled_present_loop_runs_each_tick_once() {
        // Presents every 0.1 ms (vsync off, as under Xvfb): still 60 per second.
        let (per_second, largest) = simulate(10_000, 3, None);
        assert_eq!(per_second[1..3], [60, 60]);
        assert_eq!(largest, 1);
    }

    #[test]
    fn the_next_deadline_is_one_period_after_the_last_tick() {
        let mut pacer = Pacer::new(1_000);
        assert_eq!(pacer.advance(1_000), 1);
        assert_eq!(pacer.next_deadline(), 1_000 + SECOND.div_ceil(60));
        assert_eq!(pacer.advance(pacer.next_deadline() - EARLY - 1), 0);
        assert_eq!(pacer.advance(pacer.next_deadline() - EARLY), 1);
        pacer.resync(5 * SECOND);
        assert_eq!(pacer.advance(5 * SECOND), 1);
    }
}
