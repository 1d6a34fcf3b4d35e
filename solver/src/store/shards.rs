//! The visited set split among threads for parallel insertion: each thread
//! owns a run of consecutive shards ([`ShardGroup`]) and inserts only the
//! keys whose hash routes there. A key always lands in the same shard, so
//! when every group inserts its keys in the order a single thread would have,
//! every shard ends up exactly as after a serial insertion: the same keys,
//! slots and answers, whatever the number of threads.

use super::{Insert, KeyTable, VisitedSet};

/// Consecutive shards of a [`VisitedSet`], owned by one thread while a batch
/// of keys is inserted in parallel.
pub struct ShardGroup<'a> {
    shards: &'a mut [KeyTable],
    first: usize,
    shift: u32,
    key_words: usize,
    /// The largest old array of a shard of this group that doubled: what
    /// the group held on top of its tables at its growth peak.
    grown_old: usize,
}

impl ShardGroup<'_> {
    /// Prefetches the slot of an already hashed key (one this group owns).
    #[inline]
    pub fn prefetch_hashed(&self, hash: u64) {
        self.shards[(hash >> self.shift) as usize - self.first].prefetch(hash);
    }

    /// Inserts a key this group owns unless present. The caller has checked
    /// beforehand (see [`VisitedSet::bytes_after`]) that the growth fits
    /// whatever memory budget applies.
    #[inline]
    pub fn insert_hashed(&mut self, key: &[u64], hash: u64, payload: u64) -> Insert {
        let table = &mut self.shards[(hash >> self.shift) as usize - self.first];
        if table.will_grow() {
            self.grown_old = self.grown_old.max(table.bytes());
        }
        table.insert(&key[..self.key_words], hash, payload)
    }

    /// Makes room in each shard of the group for `per` new keys
    /// ([`super::KeyTable::reserve`]).
    pub fn reserve(&mut self, per: usize) {
        for table in self.shards.iter_mut() {
            table.reserve(per);
        }
    }

    /// The largest old array of this group's shards that doubled.
    pub fn grown_old(&self) -> usize {
        self.grown_old
    }
}

/// How a set is split among threads: which group a hash belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Routing {
    shift: u32,
    per_group: usize,
}

impl Routing {
    /// The group that owns the key with this hash.
    #[inline]
    pub fn group_of(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize / self.per_group
    }
}

impl VisitedSet {
    /// Number of shards.
    pub fn shard_count(&self) -> usize {
        self.shards.len()
    }

    /// The shard a hash routes to.
    #[inline]
    pub fn shard_of_hash(&self, hash: u64) -> usize {
        self.shard_of(hash)
    }

    /// How the set splits among `threads` threads (fewer groups than
    /// threads when there are fewer shards).
    pub fn routing(&self, threads: usize) -> Routing {
        Routing {
            shift: self.shift,
            per_group: self.shards.len().div_ceil(threads.max(1)),
        }
    }

    /// Splits the set into the groups of `routing`, in shard order.
    pub fn split(&mut self, routing: Routing) -> Vec<ShardGroup<'_>> {
        let (shift, key_words) = (self.shift, self.key_words);
        self.shards
            .chunks_mut(routing.per_group)
            .enumerate()
            .map(|(g, shards)| ShardGroup {
                shards,
                first: g * routing.per_group,
                shift,
                key_words,
                grown_old: 0,
            })
            .collect()
    }

    /// Brings the set's byte counts up to date after a parallel insertion
    /// whose groups grew by `grown_old` (summed over the groups: they may
    /// have doubled at the same moment).
    pub fn settle(&mut self, grown_old: usize) {
        self.bytes = self.shards.iter().map(|s| s.bytes()).sum();
        self.peak_bytes = self.peak_bytes.max(self.bytes + grown_old);
    }

    /// The most bytes the set could hold, growth transients included, while
    /// `more[s]` new keys go into shard `s`: a bound to check a memory budget
    /// against before inserting in parallel.
    pub fn bytes_after(&self, more: &[u32]) -> usize {
        let (mut total, mut old) = (0, 0);
        for (table, &n) in self.shards.iter().zip(more) {
            let (bytes, grown) = table.bytes_after(n as usize);
            total += bytes;
            old += grown;
        }
        total + old
    }
}
