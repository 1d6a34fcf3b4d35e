//! A tile table's entries. An entry holds (distance - the pattern tiles'
//! Manhattan distance) / 2: every move of a pattern tile changes that sum by
//! one, so the two have the same parity and the difference is small (the
//! detours only). Always stored in 4 bits, two entries per byte, so that a
//! table's memory is known before it is built (`--pdb-memory` counts it
//! exactly) and lookups touch half the cache lines: an entry above
//! [`NIBBLE_MAX`] is stored as [`NIBBLE_MAX`], still a lower bound (none
//! does on the 8- and 15-puzzle tables); the all-ones value marks a
//! placement the search never reached, read as 0.

use std::sync::Arc;

/// Marks an unreached placement while building (one byte per entry).
pub const UNSEEN: u8 = u8::MAX;

/// The largest entry stored (15 is its "unreached").
pub const NIBBLE_MAX: u8 = 14;

/// The 4-bit value of a one-byte entry ([`UNSEEN`] for unreached).
#[inline]
pub fn nibble(entry: u8) -> u8 {
    if entry == UNSEEN {
        0xF
    } else {
        entry.min(NIBBLE_MAX)
    }
}

/// The stored entries of one table: two per byte, the even index in the
/// low half. Shared, not copied, when cloned (the heuristic of each puzzle
/// of a collection holds the same tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    data: Arc<Vec<u8>>,
    len: u64,
}

impl Values {
    /// Bytes a table of `len` entries takes.
    pub fn bytes_for(len: u64) -> u64 {
        len.div_ceil(2)
    }

    /// Packs one-byte entries ([`UNSEEN`] for unreached).
    pub fn pack(bytes: &[u8]) -> Values {
        let data = bytes
            .chunks(2)
            .map(|pair| nibble(pair[0]) | nibble(*pair.get(1).unwrap_or(&UNSEEN)) << 4)
            .collect::<Vec<u8>>();
        Values {
            data: Arc::new(data),
            len: bytes.len() as u64,
        }
    }

    /// Entries already packed two per byte (`data.len()` = `len` / 2, rounded up).
    pub fn from_packed(data: Vec<u8>, len: u64) -> Values {
        debug_assert_eq!(data.len() as u64, Self::bytes_for(len));
        Values {
            data: Arc::new(data),
            len,
        }
    }

    /// The entry at `index` (0 for an unreached placement).
    #[inline]
    pub fn get(&self, index: u64) -> u32 {
        let v = (self.data[(index >> 1) as usize] >> ((index & 1) * 4)) & 0xF;
        u32::from(v) * u32::from(v != 0xF)
    }

    /// False for a placement the search never reached.
    pub fn reached(&self, index: u64) -> bool {
        (self.data[(index >> 1) as usize] >> ((index & 1) * 4)) & 0xF != 0xF
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for a table without entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Bits per entry.
    pub fn bits(&self) -> u32 {
        4
    }

    /// The cache file's body: one byte of bits per entry (4), then the data.
    pub fn to_file(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 1);
        out.push(4);
        out.extend_from_slice(&self.data);
        out
    }

    /// Reads [`Values::to_file`]'s body for a table of `len` entries;
    /// `None` when it does not fit that table.
    pub fn from_file(mut body: Vec<u8>, len: u64) -> Option<Values> {
        let bits = *body.first()?;
        body.remove(0);
        (bits == 4 && body.len() as u64 == Self::bytes_for(len)).then(|| Values {
            data: Arc::new(body),
            len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_take_four_bits_and_read_back() {
        let entries = vec![0, 3, UNSEEN, 14, 7];
        let packed = Values::pack(&entries);
        assert_eq!((packed.bits(), packed.bytes(), packed.len()), (4, 3, 5));
        let read: Vec<u32> = (0..5).map(|i| packed.get(i)).collect();
        assert_eq!(read, vec![0, 3, 0, 14, 7]);
        assert!(!packed.reached(2) && packed.reached(0));
        let again = Values::from_file(packed.to_file(), 5).expect("round trip");
        assert_eq!(again, packed);
        assert_eq!(Values::from_file(packed.to_file(), 7), None);
    }

    #[test]
    fn a_large_entry_is_stored_as_the_largest_nibble() {
        let packed = Values::pack(&[15, 0, UNSEEN]);
        assert_eq!((packed.bits(), packed.bytes()), (4, 2));
        assert_eq!((packed.get(0), packed.get(1), packed.get(2)), (14, 0, 0));
    }
}
