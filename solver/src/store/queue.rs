//! A flat FIFO of fixed-width keys, stored as bytes (no allocation per key).

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

    pub fn push(&mut self, key: &[u64]) {
        let mut left = self.key_bytes;
        for w in key.iter().take(self.words) {
            let b = w.to_le_bytes();
            let n = left.min(8);
            self.data.extend_from_slice(&b[..n]);
            left -= n;
        }
    }

    /// Takes the front key into `key`; false when empty.
    pub fn pop(&mut self, key: &mut [u64]) -> bool {
        if self.is_empty() {
            return false;
        }
        let bytes = &self.data[self.head..self.head + self.key_bytes];
        for (i, chunk) in bytes.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            key[i] = u64::from_le_bytes(b);
        }
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
