//! A FIFO of fixed-width keys, stored as bytes (no allocation per key),
//! optionally each followed by a 16-bit tag (BFS under `--metric moves`
//! keeps there where the block that moved last stands).
//!
//! The bytes live in blocks of about [`BLOCK_BYTES`]: the queue grows one
//! block at a time (nothing is copied into a buffer twice the size, so at
//! most one block is allocated and unused) and frees each block once its
//! keys are read, so that a BFS holds about one layer of keys, not the
//! layer it reads plus the one it writes at up to twice their size. A queue's first blocks are smaller
//! ([`FIRST_BLOCK_BYTES`], doubling up to [`BLOCK_BYTES`]), so that a small
//! search (a Rush Hour board's layers hold a few hundred keys) does not
//! take a megabyte per queue from the allocator, and the pages with it.

use std::collections::VecDeque;

use super::{append_key, read_key};

/// Bytes of a tag.
pub const TAG_BYTES: usize = 2;

/// Bytes of one block (rounded down to whole entries).
pub const BLOCK_BYTES: usize = 1 << 20;

/// Bytes of a queue's first block; each next one is twice as large, up to
/// [`BLOCK_BYTES`]. The 95 Rush Hour dev boards repeated twenty times and
/// stopped after one position each, one job: 0.111 -> 0.083 s (about 57
/// -> 43 microseconds of setup a board; ten alternating runs).
pub const FIRST_BLOCK_BYTES: usize = 4 << 10;

/// Keys of `key_bytes` bytes each (plus `tag_bytes` of tag), appended at the
/// back, read from the front.
#[derive(Clone, Debug)]
pub struct KeyQueue {
    key_bytes: usize,
    tag_bytes: usize,
    words: usize,
    /// Entries a full-size block holds.
    per_block: usize,
    /// Entries the next block will hold (growing up to `per_block`).
    next_block: usize,
    blocks: VecDeque<Vec<u8>>,
    /// Bytes of the front block already read.
    head: usize,
    len: usize,
}

impl KeyQueue {
    pub fn new(key_bits: u32) -> KeyQueue {
        KeyQueue::with_tag(key_bits, 0)
    }

    /// A queue whose entries carry a 16-bit tag after the key (see
    /// [`KeyQueue::push_tagged`]).
    pub fn tagged(key_bits: u32) -> KeyQueue {
        KeyQueue::with_tag(key_bits, TAG_BYTES)
    }

    fn with_tag(key_bits: u32, tag_bytes: usize) -> KeyQueue {
        let key_bytes = (key_bits as usize).div_ceil(8).max(1);
        KeyQueue {
            key_bytes,
            tag_bytes,
            words: key_bytes.div_ceil(8),
            per_block: (BLOCK_BYTES / (key_bytes + tag_bytes)).max(1),
            next_block: (FIRST_BLOCK_BYTES / (key_bytes + tag_bytes)).max(1),
            blocks: VecDeque::new(),
            head: 0,
            len: 0,
        }
    }

    /// Bytes per entry: the key's and the tag's.
    pub fn entry_bytes(&self) -> usize {
        self.key_bytes + self.tag_bytes
    }

    /// Bytes of a block of `entries` entries, and room for the whole-word
    /// store of the last key (`append_key` writes whole words, then trims).
    fn block_bytes(&self, entries: usize) -> usize {
        entries * self.entry_bytes() + self.words * 8
    }

    /// Entries of the block after one of `entries` (twice as many, up to a
    /// full-size block): the one rule [`KeyQueue::push`] grows by and
    /// [`KeyQueue::bytes_after`] foresees with.
    fn after(&self, entries: usize) -> usize {
        (2 * entries).min(self.per_block)
    }

    /// Entries a block of `capacity` bytes holds when full.
    fn entries_of(&self, capacity: usize) -> usize {
        (capacity - self.words * 8) / self.entry_bytes()
    }

    /// Keys waiting.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held (the blocks' capacities, which is what the allocator gave).
    pub fn bytes(&self) -> usize {
        self.blocks.iter().map(Vec::capacity).sum()
    }

    /// Whether pushing one more key allocates a block (of
    /// [`grown_bytes`](Self::grown_bytes) in all), so that a caller under a
    /// memory limit can refuse the growth before it happens.
    pub fn push_grows(&self) -> bool {
        self.blocks.back().is_none_or(|b| {
            b.len() + self.entry_bytes() > self.entries_of(b.capacity()) * self.entry_bytes()
        })
    }

    /// The bytes held after the next block is allocated.
    pub fn grown_bytes(&self) -> usize {
        self.bytes() + self.block_bytes(self.next_block)
    }

    /// At most the bytes held after `n` more pushes, so that a caller can
    /// check a memory budget beforehand.
    pub fn bytes_after(&self, n: usize) -> usize {
        let room = match self.blocks.back() {
            Some(b) => self.entries_of(b.capacity()) - b.len() / self.entry_bytes(),
            None => 0,
        };
        let (mut left, mut bytes, mut next) =
            (n.saturating_sub(room), self.bytes(), self.next_block);
        // The blocks still growing, one by one; then whole blocks.
        while left > 0 && next < self.per_block {
            bytes += self.block_bytes(next);
            left = left.saturating_sub(next);
            next = self.after(next);
        }
        bytes + left.div_ceil(self.per_block) * self.block_bytes(self.per_block)
    }

    pub fn push(&mut self, key: &[u64]) {
        if self.push_grows() {
            self.blocks
                .push_back(Vec::with_capacity(self.block_bytes(self.next_block)));
            self.next_block = self.after(self.next_block);
        }
        let block = self.blocks.back_mut().expect("a block with room");
        append_key(block, &key[..self.words], self.key_bytes);
        if self.tag_bytes == 0 {
            self.len += 1;
        }
    }

    /// Pushes a key with its tag (a queue made by [`KeyQueue::tagged`]).
    pub fn push_tagged(&mut self, key: &[u64], tag: u16) {
        debug_assert_eq!(self.tag_bytes, TAG_BYTES);
        self.push(key);
        let block = self.blocks.back_mut().expect("the block just pushed to");
        block.extend_from_slice(&tag.to_le_bytes());
        self.len += 1;
    }

    /// Takes the front key into `key` (its tag dropped); false when empty.
    pub fn pop(&mut self, key: &mut [u64]) -> bool {
        let Some(front) = self.blocks.front() else {
            return false;
        };
        read_key(&front[self.head..self.head + self.key_bytes], key);
        self.consume(1);
        true
    }

    /// The unread entries of the front block (empty when the queue is): a
    /// BFS expands them in place, then [`consume`](Self::consume)s them.
    pub fn front(&self) -> &[u8] {
        self.blocks.front().map_or(&[], |b| &b[self.head..])
    }

    /// Drops the first `n` entries of the front block, and the block itself
    /// (its memory returned) once every entry in it is read.
    pub fn consume(&mut self, n: usize) {
        self.head += n * self.entry_bytes();
        self.len -= n;
        if self.blocks.front().is_some_and(|b| self.head >= b.len()) {
            self.blocks.pop_front();
            self.head = 0;
        }
    }

    /// Empties the queue and releases its memory.
    pub fn clear(&mut self) {
        self.blocks = VecDeque::new();
        self.head = 0;
        self.len = 0;
    }
}

/// The tag after the key in an entry of a tagged queue.
#[inline]
pub fn entry_tag(entry: &[u8]) -> u16 {
    let n = entry.len();
    u16::from_le_bytes([entry[n - 2], entry[n - 1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a queue says it will hold after `n` more pushes are the
    /// bytes it holds then, while its blocks grow and after; its first
    /// block is small.
    #[test]
    fn bytes_after_is_exact_while_the_blocks_grow() {
        for (bits, tagged) in [(44, false), (44, true), (130, false)] {
            for first in [0, 1, 300, 70_000] {
                for n in [0, 1, 511, 512, 5_000, 400_000] {
                    let mut q = match tagged {
                        true => KeyQueue::tagged(bits),
                        false => KeyQueue::new(bits),
                    };
                    let key = [7u64; 3];
                    let push = |q: &mut KeyQueue| match tagged {
                        true => q.push_tagged(&key, 1),
                        false => q.push(&key),
                    };
                    (0..first).for_each(|_| push(&mut q));
                    let said = q.bytes_after(n);
                    (0..n).for_each(|_| push(&mut q));
                    assert_eq!(q.bytes(), said, "{bits} bits, {first} then {n}");
                }
            }
        }
        let mut q = KeyQueue::new(44);
        q.push(&[1]);
        assert!(q.bytes() <= FIRST_BLOCK_BYTES + 8, "{}", q.bytes());
    }

    #[test]
    fn keys_and_tags_come_out_in_order_across_blocks_and_blocks_are_freed() {
        let mut q = KeyQueue::tagged(44);
        let n = 3 * (BLOCK_BYTES / 8) + 17;
        for i in 0..n as u64 {
            q.push_tagged(&[i * 0x1_0001], i as u16);
        }
        assert_eq!(q.len(), n);
        let full = q.bytes();
        assert!(full >= n * 8 && full <= n * 8 + 2 * BLOCK_BYTES, "{full}");
        let mut key = [0u64];
        for i in 0..n as u64 {
            let entry = &q.front()[..8];
            assert_eq!(entry_tag(entry), i as u16);
            assert!(q.pop(&mut key));
            assert_eq!(key[0], i * 0x1_0001);
            if i == n as u64 * 3 / 4 {
                // The blocks read are gone: what is left holds the keys
                // not read, the read part of the front block and the
                // unfilled part of the back one.
                let left = (n - 1 - i as usize) * 8;
                assert!(
                    q.bytes() <= left + 2 * (BLOCK_BYTES + 64) && q.bytes() <= full - BLOCK_BYTES,
                    "read blocks are freed: {} of {full} held, {left} unread",
                    q.bytes()
                );
            }
        }
        assert!(!q.pop(&mut key) && q.is_empty() && q.bytes() == 0);
    }
}
