//! The one pseudo-random sequence of the analyses: xorshift64 (Marsaglia, "Xorshift RNGs",
//! 2003), so that a check's shake and the modes' start vectors are the same on every run.

/// A xorshift64 sequence; its state is never 0.
pub(crate) struct Xorshift64(u64);

impl Xorshift64 {
    /// The sequence from `seed` (0 is taken as 1: a zero state would stay zero).
    pub(crate) fn new(seed: u64) -> Xorshift64 {
        Xorshift64(seed.max(1))
    }

    /// The next state.
    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// Uniform in [0, 1), from the state's top 53 bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [−1, 1), from the state's top 24 bits.
    pub(crate) fn symmetric_f32(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_marsaglias_and_its_ranges_hold() {
        // 1 → 1 ^ 1<<13 = 0x2001; ^ >>7 = 0x2041; ^ <<17 = 0x4082_2041.
        let mut r = Xorshift64::new(0);
        assert_eq!(r.next(), 0x4082_2041);
        let mut r = Xorshift64::new(7);
        for _ in 0..10_000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            let s = r.symmetric_f32();
            assert!((-1.0..1.0).contains(&s));
        }
    }
}
