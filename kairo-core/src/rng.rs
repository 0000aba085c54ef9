//! The machine's random number generator: xorshift64* seeded through SplitMix64. Part of the
//! machine state, so replays reproduce every "random" decision of a cart.

/// A deterministic RNG.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// Starts the sequence again from `seed`, as at power-on with that seed.
    pub(crate) fn reseed(&mut self, seed: u64) {
        *self = Rng::new(seed);
    }

    /// A generator started from `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        // SplitMix64 spreads nearby seeds apart and never yields the all-zero state twice.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng {
            state: if z == 0 { 0x4B41_4952_4F21 } else { z },
        }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A float in [0, 1) with 53 random bits.
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An integer in `lo..=hi` (`lo <= hi`), without modulo bias.
    pub fn range_inclusive(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.wrapping_sub(lo) as u64;
        if span == u64::MAX {
            return self.next_u64() as i64;
        }
        let n = span + 1;
        let zone = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let r = self.next_u64();
            if r <= zone {
                return lo.wrapping_add((r % n) as i64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_ranges_hold() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(0).next_u64(), Rng::new(1).next_u64());
        let mut r = Rng::new(3);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let v = r.range_inclusive(-2, 3);
            assert!((-2..=3).contains(&v));
            seen[(v + 2) as usize] = true;
            let f = r.next_f64();
            assert!((0.0..1.0).contains(&f));
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.range_inclusive(5, 5), 5);
        r.range_inclusive(i64::MIN, i64::MAX);
    }
}
