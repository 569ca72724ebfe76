//! The one hash behind every cache key (builds, referee's own objects, kept runs).

use sha2::{Digest, Sha256};

/// A hash of the parts, each length-prefixed so that no two lists collide by concatenation.
pub fn key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hex(&hasher.finalize())
}

/// Bytes as lower-case hex digits, two per byte (how a SHA-256 is written and checked).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_depend_on_every_part_and_its_boundaries() {
        assert_eq!(key(&[b"a", b"b"]), key(&[b"a", b"b"]));
        assert_ne!(key(&[b"a", b"b"]), key(&[b"ab"]));
        assert_ne!(key(&[b"a", b"b"]), key(&[b"a", b"c"]));
        assert_eq!(key(&[b""]).len(), 64);
    }
}
