//! A flat FIFO of fixed-width keys, stored as bytes (no allocation per key).

use super::{append_key, read_key};

/// Keys of `key_bytes` bytes each, appended at the back, read from the front.
#[derive(Clone, Debug)]
pub struct KeyQueue {
    key_bytes: usize,
    words: usize,
    data: Vec<u8>,
    head: usize,
}

impl KeyQueue {
    pub fn new(key_bits: u32) -> KeyQueue {
        let key_bytes = (key_bits as usize).div_ceil(8).max(1);
        KeyQueue {
            key_bytes,
            words: key_bytes.div_ceil(8),
            data: Vec::new(),
            head: 0,
        }
    }

    /// Keys waiting.
    pub fn len(&self) -> usize {
        (self.data.len() - self.head) / self.key_bytes
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
        self.data.len() + self.words * 8 > self.data.capacity()
    }

    /// The capacity in bytes after the next growth: double, and at least room
    /// for one whole-word store (`append_key` writes whole words, then trims).
    pub fn grown_bytes(&self) -> usize {
        (self.data.capacity() * 2)
            .max(self.data.len() + self.words * 8)
            .max(4096)
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

    /// Takes the front key into `key`; false when empty.
    pub fn pop(&mut self, key: &mut [u64]) -> bool {
        if self.is_empty() {
            return false;
        }
        read_key(&self.data[self.head..self.head + self.key_bytes], key);
        self.head += self.key_bytes;
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

    /// The keys as one byte slice, and the width of each.
    pub fn as_bytes(&self) -> (&[u8], usize) {
        (&self.data[self.head..], self.key_bytes)
    }
}
