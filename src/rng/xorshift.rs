//! The Trouble template's generator: a 32-bit xorshift on a *signed* `int` state `lfsr`.
//! C's `>>` on a negative `int` is arithmetic with gcc, and `<<` wraps (gcc's behaviour for
//! the overflow), so the state is an `i32` shifted the same way.

/// The template's state, starting at 0 like the C global `lfsr`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Xorshift {
    lfsr: i32,
}

impl Xorshift {
    pub fn new() -> Self {
        Self::default()
    }

    /// `seedRandom(seed)`: a zero seed leaves the state as it is.
    pub fn seed(&mut self, seed: i32) {
        if seed != 0 {
            self.lfsr = seed;
        }
    }

    /// One step of the generator, masked to a non-negative `int` (`lfsr & INT_MAX`).
    pub fn next_value(&mut self) -> i32 {
        self.lfsr ^= self.lfsr >> 7;
        self.lfsr ^= self.lfsr.wrapping_shl(9);
        self.lfsr ^= self.lfsr >> 13;
        self.lfsr & i32::MAX
    }

    /// `getRandom(limit)`: a value in `0..limit`.
    pub fn below(&mut self, limit: i32) -> i32 {
        self.next_value() % limit
    }

    /// `pop_o_matic()`: one die roll, 1 to 6.
    pub fn roll(&mut self) -> u8 {
        // below(6) is 0..=5, so the cast cannot truncate.
        (self.below(6) + 1) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rolls(seed: i32) -> Vec<u8> {
        let mut rng = Xorshift::new();
        rng.seed(seed);
        (0..12).map(|_| rng.roll()).collect()
    }

    #[test]
    fn ruling_vectors_seed_1() {
        assert_eq!(rolls(1), [4, 2, 5, 6, 5, 4, 6, 5, 4, 1, 6, 6]);
    }

    #[test]
    fn ruling_vectors_seed_42() {
        assert_eq!(rolls(42), [5, 3, 2, 5, 4, 1, 1, 6, 5, 4, 1, 1]);
    }

    #[test]
    fn ruling_vectors_seed_1234_as_in_the_sample_run() {
        assert_eq!(rolls(1234), [5, 2, 6, 5, 3, 1, 4, 4, 5, 6, 1, 2]);
    }

    #[test]
    fn ruling_vectors_negative_seed_uses_arithmetic_shifts() {
        assert_eq!(rolls(-5), [1, 6, 6, 2, 2, 6, 2, 5, 4, 4, 6, 3]);
    }

    #[test]
    fn seed_zero_keeps_the_state_at_zero() {
        let mut rng = Xorshift::new();
        rng.seed(0);
        assert!((0..12).all(|_| rng.roll() == 1));
        assert_eq!(rng, Xorshift::new());
    }

    #[test]
    fn a_zero_seed_does_not_reset_a_running_state() {
        let mut rng = Xorshift::new();
        rng.seed(42);
        rng.roll();
        let before = rng;
        rng.seed(0);
        assert_eq!(rng, before);
    }
}
