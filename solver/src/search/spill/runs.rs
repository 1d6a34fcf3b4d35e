//! Key files and sorted runs. A layer or a run on disk is a file of
//! fixed-width keys (`key_bytes` little-endian bytes each, as the in-memory
//! queues store them) in one order: the keys' words compared as slices,
//! word 0 first. Successor keys gather in a memory buffer that is sorted and
//! cleared of repeats when full, then written as one run.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use crate::store::{append_key, read_key};

/// Bytes of buffer each open key file holds (read or written at a time).
/// A merge opens one reader per run, so this sets how many runs fit in the
/// memory budget (see `expand::fan_in`); 64 KiB reads are long enough for
/// the page cache and the disk to stream.
pub const STREAM_BYTES: usize = 1 << 16;

/// Writes keys to a new file, in the order given.
pub struct KeyWriter {
    out: BufWriter<File>,
    scratch: Vec<u8>,
    key_bytes: usize,
    count: u64,
}

impl KeyWriter {
    pub fn create(path: &Path, key_bytes: usize) -> io::Result<KeyWriter> {
        Ok(KeyWriter {
            out: BufWriter::with_capacity(STREAM_BYTES, File::create(path)?),
            scratch: Vec::with_capacity(key_bytes + 8),
            key_bytes,
            count: 0,
        })
    }

    #[inline]
    pub fn push(&mut self, key: &[u64]) -> io::Result<()> {
        self.scratch.clear();
        append_key(&mut self.scratch, key, self.key_bytes);
        self.count += 1;
        self.out.write_all(&self.scratch)
    }

    /// Flushes the file; returns the keys written.
    pub fn finish(mut self) -> io::Result<u64> {
        self.out.flush()?;
        Ok(self.count)
    }
}

/// Reads a key file front to back.
pub struct KeyReader {
    file: File,
    buf: Vec<u8>,
    at: usize,
    len: usize,
    key_bytes: usize,
}

impl KeyReader {
    pub fn open(path: &Path, key_bytes: usize) -> io::Result<KeyReader> {
        Ok(KeyReader {
            file: File::open(path)?,
            buf: vec![0; STREAM_BYTES.div_ceil(key_bytes) * key_bytes],
            at: 0,
            len: 0,
            key_bytes,
        })
    }

    /// Reads the next key into `key`; false at the end of the file.
    #[inline]
    pub fn next(&mut self, key: &mut [u64]) -> io::Result<bool> {
        if self.at == self.len && !self.refill()? {
            return Ok(false);
        }
        read_key(&self.buf[self.at..self.at + self.key_bytes], key);
        self.at += self.key_bytes;
        Ok(true)
    }

    /// Reads whole keys into the buffer; false at the end of the file.
    fn refill(&mut self) -> io::Result<bool> {
        self.at = 0;
        self.len = 0;
        while self.len < self.buf.len() {
            let n = self.file.read(&mut self.buf[self.len..])?;
            if n == 0 {
                break;
            }
            self.len += n;
        }
        if !self.len.is_multiple_of(self.key_bytes) {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "a spill file ends inside a key",
            ));
        }
        Ok(self.len > 0)
    }

    /// Bytes of buffer held.
    pub fn bytes(&self) -> usize {
        self.buf.len()
    }
}

/// A sorted stream of keys: a file, or the last run still in memory.
pub enum Source {
    File(KeyReader),
    Memory { keys: Vec<u64>, at: usize },
}

impl Source {
    /// Reads the next key into `key` (`words` long); false at the end.
    #[inline]
    pub fn next(&mut self, key: &mut [u64]) -> io::Result<bool> {
        match self {
            Source::File(r) => r.next(key),
            Source::Memory { keys, at } => {
                let words = key.len();
                if *at + words > keys.len() {
                    return Ok(false);
                }
                key.copy_from_slice(&keys[*at..*at + words]);
                *at += words;
                Ok(true)
            }
        }
    }
}

/// Sorts the keys in `keys` (`words` words each) into the files' order and
/// drops repeats.
pub fn sort_dedup(keys: &mut Vec<u64>, words: usize) {
    match words {
        1 => {
            keys.sort_unstable();
            keys.dedup();
        }
        2 => sort_dedup_fixed::<2>(keys),
        3 => sort_dedup_fixed::<3>(keys),
        4 => sort_dedup_fixed::<4>(keys),
        _ => sort_dedup_wide(keys, words),
    }
}

/// [`sort_dedup`] for keys of `W` words, sorted in place as arrays.
fn sort_dedup_fixed<const W: usize>(keys: &mut Vec<u64>)
where
    [u64; W]: bytemuck::Pod + Ord,
{
    let arrays: &mut [[u64; W]] = bytemuck::cast_slice_mut(keys.as_mut_slice());
    arrays.sort_unstable();
    let mut kept = 0;
    for i in 0..arrays.len() {
        if kept == 0 || arrays[i] != arrays[kept - 1] {
            arrays[kept] = arrays[i];
            kept += 1;
        }
    }
    keys.truncate(kept * W);
}

/// [`sort_dedup`] for keys wider than four words: sorts an index, then copies.
fn sort_dedup_wide(keys: &mut Vec<u64>, words: usize) {
    let key = |i: usize| &keys[i * words..(i + 1) * words];
    let mut order: Vec<usize> = (0..keys.len() / words).collect();
    order.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
    order.dedup_by(|a, b| key(*a) == key(*b));
    let mut sorted = Vec::with_capacity(order.len() * words);
    for i in order {
        sorted.extend_from_slice(key(i));
    }
    *keys = sorted;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of `words` words from a small pseudo-random sequence, with repeats.
    fn keys(n: usize, words: usize) -> Vec<u64> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..n * words)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 61) & 7
            })
            .collect()
    }

    #[test]
    fn every_width_sorts_as_slices_without_repeats() {
        for words in 1..=6 {
            let mut k = keys(500, words);
            let mut expected: Vec<Vec<u64>> = k.chunks(words).map(|c| c.to_vec()).collect();
            expected.sort();
            expected.dedup();
            sort_dedup(&mut k, words);
            let got: Vec<Vec<u64>> = k.chunks(words).map(|c| c.to_vec()).collect();
            assert_eq!(got, expected, "{words} words");
        }
    }

    #[test]
    fn keys_come_back_from_their_file_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.keys");
        let words = 2;
        let key_bytes = 11;
        let mut k = keys(100_000, words);
        for c in k.chunks_mut(words) {
            c[1] &= 0xFF_FFFF;
        }
        let mut w = KeyWriter::create(&path, key_bytes).unwrap();
        for c in k.chunks(words) {
            w.push(c).unwrap();
        }
        assert_eq!(w.finish().unwrap(), 100_000);
        let mut r = KeyReader::open(&path, key_bytes).unwrap();
        let mut key = [0u64; 2];
        let mut back = Vec::new();
        while r.next(&mut key).unwrap() {
            back.extend_from_slice(&key);
        }
        assert_eq!(back, k);
    }
}
