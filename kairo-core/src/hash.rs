//! A stable hash for golden frames: FNV-1a, 64 bits. Its output never changes between Rust
//! releases or machines, unlike `std`'s `DefaultHasher`.

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

/// The hash of an RGBA picture as 16 lower-case hex digits.
pub fn frame_hash_hex(rgba: &[u8]) -> String {
    format!("{:016x}", fnv1a64(rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_fnv1a_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }
}
