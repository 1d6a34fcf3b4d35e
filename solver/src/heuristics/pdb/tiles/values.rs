//! A tile table's entries. An entry holds (distance - the pattern tiles'
//! Manhattan distance) / 2: every move of a pattern tile changes that sum by
//! one, so the two have the same parity and the difference is small (the
//! detours only). Stored in 4 bits when every entry fits (half the memory
//! and cache footprint), else in one byte; the all-ones value marks a
//! placement the search never reached, read as 0.

/// Marks an unreached placement while building (one byte per entry).
pub const UNSEEN: u8 = u8::MAX;

/// The largest entry 4-bit storage holds (15 is its "unreached").
const NIBBLE_MAX: u8 = 14;

/// The stored entries of one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// Two entries per byte, the even index in the low half.
    Nibbles { data: Vec<u8>, len: u64 },
    /// One entry per byte.
    Bytes(Vec<u8>),
}

impl Values {
    /// Packs one-byte entries ([`UNSEEN`] for unreached) into 4 bits when
    /// all fit.
    pub fn pack(bytes: Vec<u8>) -> Values {
        if bytes.iter().any(|&v| v != UNSEEN && v > NIBBLE_MAX) {
            return Values::Bytes(bytes);
        }
        let nibble = |v: u8| v.min(0xF);
        let data = bytes
            .chunks(2)
            .map(|pair| nibble(pair[0]) | nibble(*pair.get(1).unwrap_or(&UNSEEN)) << 4)
            .collect();
        Values::Nibbles {
            data,
            len: bytes.len() as u64,
        }
    }

    /// The entry at `index` (0 for an unreached placement).
    #[inline]
    pub fn get(&self, index: u64) -> u32 {
        match self {
            Values::Nibbles { data, .. } => {
                let v = (data[(index >> 1) as usize] >> ((index & 1) * 4)) & 0xF;
                u32::from(v) * u32::from(v != 0xF)
            }
            Values::Bytes(data) => {
                let v = data[index as usize];
                u32::from(v) * u32::from(v != UNSEEN)
            }
        }
    }

    /// False for a placement the search never reached.
    pub fn reached(&self, index: u64) -> bool {
        match self {
            Values::Nibbles { data, .. } => {
                (data[(index >> 1) as usize] >> ((index & 1) * 4)) & 0xF != 0xF
            }
            Values::Bytes(data) => data[index as usize] != UNSEEN,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        match self {
            Values::Nibbles { len, .. } => *len,
            Values::Bytes(data) => data.len() as u64,
        }
    }

    /// True for a table without entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        match self {
            Values::Nibbles { data, .. } | Values::Bytes(data) => data.len() as u64,
        }
    }

    /// Bits per entry (4 or 8).
    pub fn bits(&self) -> u32 {
        match self {
            Values::Nibbles { .. } => 4,
            Values::Bytes(_) => 8,
        }
    }

    /// The cache file's body: one byte of bits per entry, then the data.
    pub fn to_file(&self) -> Vec<u8> {
        let mut out = vec![self.bits() as u8];
        match self {
            Values::Nibbles { data, .. } | Values::Bytes(data) => out.extend_from_slice(data),
        }
        out
    }

    /// Reads [`Values::to_file`]'s body for a table of `len` entries;
    /// `None` when it does not fit that table.
    pub fn from_file(mut body: Vec<u8>, len: u64) -> Option<Values> {
        let bits = *body.first()?;
        body.remove(0);
        match bits {
            4 if body.len() as u64 == len.div_ceil(2) => Some(Values::Nibbles { data: body, len }),
            8 if body.len() as u64 == len => Some(Values::Bytes(body)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_entries_take_four_bits_and_read_back() {
        let entries = vec![0, 3, UNSEEN, 14, 7];
        let packed = Values::pack(entries.clone());
        assert_eq!((packed.bits(), packed.bytes(), packed.len()), (4, 3, 5));
        let read: Vec<u32> = (0..5).map(|i| packed.get(i)).collect();
        assert_eq!(read, vec![0, 3, 0, 14, 7]);
        let again = Values::from_file(packed.to_file(), 5).expect("round trip");
        assert_eq!(again, packed);
        assert_eq!(Values::from_file(packed.to_file(), 7), None);
    }

    #[test]
    fn a_large_entry_keeps_one_byte_each() {
        let packed = Values::pack(vec![15, 0, UNSEEN]);
        assert_eq!((packed.bits(), packed.bytes()), (8, 3));
        assert_eq!((packed.get(0), packed.get(2)), (15, 0));
    }
}
