//! A flat FIFO of fixed-width keys, stored as bytes (no allocation per key),
//! optionally each followed by a 16-bit tag (BFS under `--metric moves`
//! keeps there where the block that moved last stands).

use super::{append_key, read_key};

/// Keys of `key_bytes` bytes each (plus `tag_bytes` of tag), appended at the
/// back, read from the front.
#[derive(Clone, Debug)]
pub struct KeyQueue {
    key_bytes: usize,
    tag_bytes: usize,
    words: usize,
    data: Vec<u8>,
    head: usize,
}

/// Bytes of a tag.
pub const TAG_BYTES: usize = 2;

impl KeyQueue {
    pub fn new(key_bits: u32) -> KeyQueue {
        let key_bytes = (key_bits as usize).div_ceil(8).max(1);
        KeyQueue {
            key_bytes,
            tag_bytes: 0,
            words: key_bytes.div_ceil(8),
            data: Vec::new(),
            head: 0,
        }
    }

    /// A queue whose entries carry a 16-bit tag after the key (see
    /// [`KeyQueue::push_tagged`]).
    pub fn tagged(key_bits: u32) -> KeyQueue {
        KeyQueue {
            tag_bytes: TAG_BYTES,
            ..KeyQueue::new(key_bits)
        }
    }

    /// Bytes per entry: the key's and the tag's.
    fn entry_bytes(&self) -> usize {
        self.key_bytes + self.tag_bytes
    }

    /// Keys waiting.
    pub fn len(&self) -> usize {
        (self.data.len() - self.head) / self.entry_bytes()
    }

    pub fn is_empty(&self) -> bool {
        self.head == self.data.len()
    }

    /// Bytes held (capacity, which is what the allocator gave).
    pub fn bytes(&self) -> usize {
        self.data.capacity()
    }

    /// Whether pushing one more key makes the buffer grow (to
    /// [`grown_bytes`](Self::grown_bytes)), so that a caller under a memory
    /// limit can refuse the growth before it happens.
    pub fn push_grows(&self) -> bool {
        self.data.len() + self.words * 8 + self.tag_bytes > self.data.capacity()
    }

    /// The capacity in bytes after the next growth: double, and at least room
    /// for one whole-word store (`append_key` writes whole words, then trims).
    pub fn grown_bytes(&self) -> usize {
        (self.data.capacity() * 2)
            .max(self.data.len() + self.words * 8 + self.tag_bytes)
            .max(4096)
    }

    /// At most the capacity in bytes after `n` more pushes (each growth
    /// doubles), so that a caller can check a memory budget beforehand.
    pub fn bytes_after(&self, n: usize) -> usize {
        let need = self.data.len() + n * self.entry_bytes() + self.words * 8;
        let mut capacity = self.data.capacity();
        while capacity < need {
            capacity = (capacity * 2).max(4096);
        }
        capacity
    }

    pub fn push(&mut self, key: &[u64]) {
        if self.push_grows() {
            // Grow by an amount the caller could foresee, not by whatever the
            // allocator's amortized policy picks.
            let want = self.grown_bytes();
            self.data.reserve_exact(want - self.data.len());
        }
        append_key(&mut self.data, &key[..self.words], self.key_bytes);
    }

    /// Pushes a key with its tag (a queue made by [`KeyQueue::tagged`]).
    pub fn push_tagged(&mut self, key: &[u64], tag: u16) {
        debug_assert_eq!(self.tag_bytes, TAG_BYTES);
        self.push(key);
        self.data.extend_from_slice(&tag.to_le_bytes());
    }

    /// Takes the front key into `key` (its tag dropped); false when empty.
    pub fn pop(&mut self, key: &mut [u64]) -> bool {
        if self.is_empty() {
            return false;
        }
        read_key(&self.data[self.head..self.head + self.key_bytes], key);
        self.head += self.entry_bytes();
        if self.head == self.data.len() {
            self.data.clear();
            self.head = 0;
        }
        true
    }

    /// Empties the queue and releases its memory.
    pub fn clear(&mut self) {
        self.data = Vec::new();
        self.head = 0;
    }

    /// The entries as one byte slice, and the width of each (key and tag).
    pub fn as_bytes(&self) -> (&[u8], usize) {
        (&self.data[self.head..], self.entry_bytes())
    }
}

/// The tag after the key in an entry of a tagged queue.
#[inline]
pub fn entry_tag(entry: &[u8]) -> u16 {
    let n = entry.len();
    u16::from_le_bytes([entry[n - 2], entry[n - 1]])
}
