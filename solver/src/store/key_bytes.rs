//! Keys as little-endian bytes: queues, layers and open lists hold each key
//! in just the bytes its bits need, not in whole 64-bit words.

/// Appends the low `key_bytes` bytes of `key` to `out`.
#[inline]
pub fn append_key(out: &mut Vec<u8>, key: &[u64], key_bytes: usize) {
    let mut left = key_bytes;
    for w in key {
        // A whole 8-byte store, then the excess dropped: cheaper than a
        // copy of variable length.
        out.extend_from_slice(&w.to_le_bytes());
        if left <= 8 {
            out.truncate(out.len() - (8 - left));
            return;
        }
        left -= 8;
    }
}

/// Reads the key stored in `bytes` into `key`; words beyond it become zero.
#[inline]
pub fn read_key(bytes: &[u8], key: &mut [u64]) {
    for (i, word) in key.iter_mut().enumerate() {
        let chunk = bytes.get(8 * i..).unwrap_or(&[]);
        *word = match chunk.first_chunk::<8>() {
            Some(whole) => u64::from_le_bytes(*whole),
            None => chunk.iter().rev().fold(0, |w, &b| w << 8 | b as u64),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_their_bytes() {
        for key_bytes in 1..=24usize {
            let key = [
                0x0123_4567_89AB_CDEFu64,
                0xFEDC_BA98_7654_3210,
                0x1122_3344_5566_7788,
            ];
            let words = key_bytes.div_ceil(8);
            let mut expected = key;
            if key_bytes % 8 != 0 {
                expected[words - 1] &= (1u64 << (8 * (key_bytes % 8))) - 1;
            }
            let mut out = vec![0xAAu8];
            append_key(&mut out, &key[..words], key_bytes);
            assert_eq!(out.len(), 1 + key_bytes);
            let mut back = [u64::MAX; 3];
            read_key(&out[1..], &mut back);
            assert_eq!(back[..words], expected[..words], "{key_bytes} bytes");
            assert!(back[words..].iter().all(|&w| w == 0));
        }
    }
}
