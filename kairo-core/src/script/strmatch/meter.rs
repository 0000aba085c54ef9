//! The step meter: counts matching work in steps and hands them to a charge callback in
//! batches, so a runaway match is stopped within [`CHARGE_EVERY`] steps of passing its cap.
//!
//! A step is one attempt to match one pattern item at one subject position (what one turn of
//! Lua's `match` loop does), one repetition tried by `*`, `+` or `-`, or [`BYTES_PER_STEP`]
//! bytes of bulk work (comparing a back-reference, scanning a `%b`, copying a result,
//! compiling a pattern, a plain search).

use super::error::MatchError;

/// Steps gathered before the charge callback is called.
pub(crate) const CHARGE_EVERY: u64 = 64;

/// Bytes of bulk work (compare, scan, copy) that count as one step.
pub(crate) const BYTES_PER_STEP: usize = 16;

/// Steps for `bytes` of bulk work: one, plus one per whole [`BYTES_PER_STEP`] bytes.
pub(crate) fn bulk_steps(bytes: usize) -> u64 {
    (bytes / BYTES_PER_STEP) as u64 + 1
}

/// Counts steps; calls `charge(steps)` once [`CHARGE_EVERY`] have gathered, and on
/// [`Meter::flush`]. Holds no memory that grows with the steps.
pub(crate) struct Meter<C> {
    charge: C,
    pending: u64,
    total: u64,
}

impl<E, C: FnMut(u64) -> Result<(), E>> Meter<C> {
    /// A meter that reports to `charge`.
    pub fn new(charge: C) -> Self {
        Meter {
            charge,
            pending: 0,
            total: 0,
        }
    }

    /// Counts `n` steps; charges the batch if it is full. An error from the callback stops the
    /// match.
    #[inline]
    pub fn step(&mut self, n: u64) -> Result<(), MatchError<E>> {
        self.pending += n;
        if self.pending >= CHARGE_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    /// Charges the steps not charged yet (the end of a call).
    pub(crate) fn flush(&mut self) -> Result<(), MatchError<E>> {
        let steps = std::mem::take(&mut self.pending);
        if steps == 0 {
            return Ok(());
        }
        self.total += steps;
        (self.charge)(steps).map_err(MatchError::Charge)
    }

    /// Steps counted so far, charged or not.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total + self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_in_batches_and_flushes_the_rest() {
        let mut calls = Vec::new();
        let mut meter = Meter::new(|n| {
            calls.push(n);
            Ok::<(), ()>(())
        });
        for _ in 0..150 {
            meter.step(1).unwrap();
        }
        meter.flush().unwrap();
        meter.flush().unwrap();
        assert_eq!(meter.total(), 150);
        assert_eq!(calls, [64, 64, 22]);
    }

    #[test]
    fn a_refusal_stops_at_once() {
        let mut meter = Meter::new(|_| Err("cap"));
        let stopped = (0..1000).position(|_| meter.step(1).is_err());
        assert_eq!(stopped, Some(CHARGE_EVERY as usize - 1));
    }

    #[test]
    fn bulk_work_costs_one_step_and_one_per_sixteen_bytes() {
        assert_eq!(bulk_steps(0), 1);
        assert_eq!(bulk_steps(15), 1);
        assert_eq!(bulk_steps(16), 2);
    }
}
