//! Fingerprints by winnowing (Schleimer, Wilkerson and Aiken, 2003): every run of `K`
//! tokens is hashed, and of each `WINDOW` hashes in a row the smallest is kept.
//!
//! `K = 25` tokens, `WINDOW = 12`: every copied run of at least `K + WINDOW - 1 = 36`
//! normalised tokens (four or five lines of C) is found, and no run shorter than 25 tokens
//! is. With identifiers and literals normalised, shorter runs are what every board game
//! writes alike: two nested loops over the board, `for ( id = number ; id < id ; id ++ )`
//! twice, are 26 tokens. A window of 12 keeps about one hash in six and a half, enough to
//! place matches to the line. (compare50 uses k = 25 with a window of 11, Dolos k = 23
//! with 17.)

use super::tokens::Token;

/// Tokens per hashed run.
pub const K: usize = 25;
/// Hashes per winnowing window.
pub const WINDOW: usize = 12;

/// The polynomial's base (a fixed odd constant, so results never change between runs).
const BASE: u64 = 0x0000_0100_0000_01b3;

/// The hash of every run of `K` tokens, by where it starts.
pub fn kgram_hashes(tokens: &[Token]) -> Vec<u64> {
    if tokens.len() < K {
        return Vec::new();
    }
    let top = (1..K).fold(1u64, |power, _| power.wrapping_mul(BASE));
    let mut hash = tokens[..K].iter().fold(0u64, |hash, token| {
        hash.wrapping_mul(BASE).wrapping_add(token.symbol)
    });
    let mut hashes = Vec::with_capacity(tokens.len() - K + 1);
    hashes.push(mix(hash));
    for start in 1..=tokens.len() - K {
        hash = hash
            .wrapping_sub(tokens[start - 1].symbol.wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(tokens[start + K - 1].symbol);
        hashes.push(mix(hash));
    }
    hashes
}

/// Spreads the polynomial's bits, so the smallest hash of a window is any of its runs alike.
fn mix(hash: u64) -> u64 {
    let mut x = hash ^ (hash >> 33);
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The positions winnowing keeps: in each window the smallest hash (the rightmost of equal
/// ones), each position once. Fewer hashes than a window keep their smallest.
pub fn winnow(hashes: &[u64]) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    if hashes.is_empty() {
        return kept;
    }
    let width = WINDOW.min(hashes.len());
    for start in 0..=hashes.len() - width {
        let mut smallest = start;
        for at in start..start + width {
            if hashes[at] <= hashes[smallest] {
                smallest = at;
            }
        }
        if kept.last() != Some(&smallest) {
            kept.push(smallest);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(symbols: impl IntoIterator<Item = u64>) -> Vec<Token> {
        symbols
            .into_iter()
            .map(|symbol| Token { symbol, line: 1 })
            .collect()
    }

    #[test]
    fn the_rolling_hash_equals_hashing_each_run_afresh() {
        let all = tokens((0..60).map(|i| i * 7919 % 31));
        let rolled = kgram_hashes(&all);
        for (start, hash) in rolled.iter().enumerate() {
            assert_eq!(kgram_hashes(&all[start..start + K])[0], *hash);
        }
    }

    #[test]
    fn every_window_holds_a_kept_position() {
        let hashes: Vec<u64> = (0..100u64).map(|i| mix(i * 31 % 17)).collect();
        let kept = winnow(&hashes);
        for start in 0..=hashes.len() - WINDOW {
            assert!(kept.iter().any(|&at| at >= start && at < start + WINDOW));
        }
    }

    #[test]
    fn short_input_has_no_runs_and_a_short_list_keeps_its_smallest() {
        assert!(kgram_hashes(&tokens(0..(K as u64 - 1))).is_empty());
        assert_eq!(winnow(&[5, 3, 9]), vec![1]);
    }
}
