//! Where positions live during a search: the visited set (flat
//! open-addressing tables of byte-packed keys, sharded so that growth never
//! doubles the whole set at once, and so that threads can insert into
//! disjoint shards at the same time) and flat FIFO queues of keys.

mod key_bytes;
mod queue;
mod shards;
mod table;

pub use key_bytes::{append_key, read_key};
pub use queue::{entry_tag, KeyQueue, TAG_BYTES};
pub use shards::{Routing, ShardGroup};
pub use table::{hash_key, Insert, KeyTable, MAX_KEY_BITS, MAX_WORDS};

/// Bits of a shard's number in a [`Reference`] (64 shards).
const SHARD_BITS: u32 = 6;

/// A stored key named by its shard and its place in that shard's
/// insertion order ([`VisitedSet::keeps_records`] sets only): 38 bits,
/// where the key is hundreds. A BFS queue of Ithaca's 477-bit keys holds
/// these instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference(pub u64);

impl Reference {
    /// Bits of a reference.
    pub const BITS: u32 = SHARD_BITS + 32;

    /// The `index`-th key stored in `shard`.
    #[inline]
    pub fn new(shard: usize, index: u32) -> Reference {
        Reference((index as u64) << SHARD_BITS | shard as u64)
    }

    /// The shard and the index.
    #[inline]
    fn parts(self) -> (usize, usize) {
        (
            (self.0 & ((1 << SHARD_BITS) - 1)) as usize,
            (self.0 >> SHARD_BITS) as usize,
        )
    }
}

/// A visited set split into shards by the top bits of the key's hash. Each
/// shard grows on its own, so the transient cost of growing is one shard's.
#[derive(Clone, Debug)]
pub struct VisitedSet {
    shards: Vec<KeyTable>,
    shift: u32,
    key_words: usize,
    bytes: usize,
    peak_bytes: usize,
}

impl VisitedSet {
    /// A set for keys of `key_bits` bits with `payload_bits` of payload each.
    pub fn new(key_bits: u32, payload_bits: u32) -> VisitedSet {
        let shard_bits = SHARD_BITS;
        let shards = (0..1usize << shard_bits)
            // 256 slots a shard from the start: a small search (one Rush
            // Hour board, a few thousand positions) would otherwise spend a
            // sixth of its time growing 64 tiny tables (issue 14: 0.18 ->
            // 0.15 CPU s on the 95 dev boards).
            .map(|_| KeyTable::new(key_bits, payload_bits, 256))
            .collect();
        let mut set = VisitedSet {
            shards,
            shift: 64 - shard_bits,
            key_words: (key_bits as usize).div_ceil(64).max(1),
            bytes: 0,
            peak_bytes: 0,
        };
        set.bytes = set.shards.iter().map(|s| s.bytes()).sum();
        set.peak_bytes = set.bytes;
        set
    }

    /// Words per key.
    pub fn key_words(&self) -> usize {
        self.key_words
    }

    #[inline]
    fn shard_of(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    /// Number of stored keys.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held now.
    #[inline]
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The most bytes held at any moment, growth transients included.
    pub fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// The largest payload the set can store.
    pub fn max_payload(&self) -> u64 {
        self.shards[0].max_payload()
    }

    /// Inserts a key unless present.
    #[inline]
    pub fn insert(&mut self, key: &[u64], payload: u64) -> Insert {
        self.insert_within(key, payload, u64::MAX)
            .expect("no memory budget")
    }

    /// The hash a key is stored under.
    #[inline]
    pub fn hash(&self, key: &[u64]) -> u64 {
        hash_key(&key[..self.key_words])
    }

    /// Prefetches the slot of an already hashed key.
    #[inline]
    pub fn prefetch_hashed(&self, hash: u64) {
        self.shards[self.shard_of(hash)].prefetch(hash);
    }

    /// Hashes a key and prefetches its slot; pass the hash to
    /// [`VisitedSet::insert_hashed`].
    #[inline]
    pub fn prefetch(&self, key: &[u64]) -> u64 {
        let h = hash_key(&key[..self.key_words]);
        self.shards[self.shard_of(h)].prefetch(h);
        h
    }

    /// Inserts a key unless present, or returns `None` without inserting when
    /// growing a shard for it would take the set above `budget` bytes.
    #[inline]
    pub fn insert_within(&mut self, key: &[u64], payload: u64, budget: u64) -> Option<Insert> {
        let h = hash_key(&key[..self.key_words]);
        self.insert_hashed(key, h, payload, budget)
    }

    /// [`VisitedSet::insert_within`] with the key's hash already known.
    #[inline]
    pub fn insert_hashed(
        &mut self,
        key: &[u64],
        h: u64,
        payload: u64,
        budget: u64,
    ) -> Option<Insert> {
        let shard = self.shard_of(h);
        let table = &mut self.shards[shard];
        if !table.will_grow() {
            return Some(table.insert_with_room(&key[..self.key_words], h, payload));
        }
        self.insert_growing(shard, key, h, payload, budget)
    }

    /// [`VisitedSet::insert_hashed`] into a shard that a new key would
    /// grow: out of line, so that the common path above inlines into the
    /// insertion loops (its call was 17 of Rush Hour's 1,520M instructions).
    #[cold]
    #[inline(never)]
    fn insert_growing(
        &mut self,
        shard: usize,
        key: &[u64],
        h: u64,
        payload: u64,
        budget: u64,
    ) -> Option<Insert> {
        let table = &mut self.shards[shard];
        if let Some((slot, payload)) = table.find(&key[..self.key_words], h) {
            return Some(Insert::Present { slot, payload });
        }
        let old = table.bytes();
        let peak = self.bytes - old + table.growth_peak_bytes();
        if peak as u64 > budget {
            return None;
        }
        self.peak_bytes = self.peak_bytes.max(peak);
        let r = table.insert(&key[..self.key_words], h, payload);
        self.bytes = self.bytes - old + table.bytes();
        Some(r)
    }

    /// Makes room at once for `more` new keys spread evenly over the
    /// shards ([`KeyTable::reserve`]): `grow` is handed the shards split
    /// into `threads` groups ([`VisitedSet::split`]) and the keys to make
    /// room for in each shard, and grows every group (each on a thread of
    /// its own, or all on one). Nothing is done when that would take the
    /// set, with one old array per thread during the growth, above
    /// `budget` bytes, nor for a set whose keys live apart; then the shards
    /// grow key by key as before.
    pub fn reserve(
        &mut self,
        more: usize,
        budget: u64,
        threads: usize,
        grow: impl FnOnce(&mut [ShardGroup<'_>], usize),
    ) {
        if self.keeps_records() {
            return;
        }
        let per = more.div_ceil(self.shards.len());
        let after: usize = self.shards.iter().map(|s| s.bytes_reserved(per)).sum();
        let largest = self.shards.iter().map(|s| s.bytes()).max().unwrap_or(0);
        let transient = largest * threads.max(1);
        if after + transient > budget.min(usize::MAX as u64) as usize {
            return;
        }
        let mut groups = self.split(self.routing(threads));
        grow(&mut groups, per);
        drop(groups);
        self.settle(transient);
    }

    /// The payload stored with a key.
    #[inline]
    pub fn get(&self, key: &[u64]) -> Option<u64> {
        let h = hash_key(&key[..self.key_words]);
        self.shards[self.shard_of(h)]
            .find(&key[..self.key_words], h)
            .map(|x| x.1)
    }

    /// Replaces the payload of a stored key; false if the key is absent.
    pub fn set_payload(&mut self, key: &[u64], payload: u64) -> bool {
        let h = hash_key(&key[..self.key_words]);
        let shard = self.shard_of(h);
        match self.shards[shard].find(&key[..self.key_words], h) {
            Some((slot, _)) => {
                self.shards[shard].set_payload(slot, payload);
                true
            }
            None => false,
        }
    }

    /// True when the shards keep their keys apart from the slots, in
    /// insertion order (keys wider than two words): a queue may then hold
    /// a [`Reference`] to a stored key instead of the key.
    pub fn keeps_records(&self) -> bool {
        self.shards[0].keeps_records()
    }

    /// The keys stored in each shard so far, for numbering the keys a
    /// batch inserts ([`Reference::new`]).
    pub fn shard_lens(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.shards.iter().map(|s| s.len() as u32));
    }

    /// The key stored last in the shard of `hash` (a key just found new).
    #[inline]
    pub fn last_stored(&self, hash: u64) -> Reference {
        let shard = self.shard_of(hash);
        Reference::new(shard, self.shards[shard].len() as u32 - 1)
    }

    /// Prefetches the stored key `r` refers to.
    #[inline]
    pub fn prefetch_stored(&self, r: Reference) {
        let (shard, index) = r.parts();
        self.shards[shard].prefetch_stored(index);
    }

    /// Appends the bytes of the stored key `r` refers to (the
    /// `key_bits.div_ceil(8)` bytes a queue holds) to `out`.
    #[inline]
    pub fn stored_key(&self, r: Reference, out: &mut Vec<u8>) {
        let (shard, index) = r.parts();
        self.shards[shard].stored_key(index, out);
    }

    /// Calls `f(key, payload)` for every stored key.
    pub fn for_each(&self, mut f: impl FnMut(&[u64], u64)) {
        for s in &self.shards {
            s.for_each(&mut f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reserve within the budget makes room for the keys at once; one
    /// beyond it changes nothing, and the keys then grow the set as before.
    #[test]
    fn a_reserve_keeps_within_its_budget() {
        let key = |i: u64| [i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24];
        let mut set = VisitedSet::new(40, 2);
        let small = set.bytes();
        let on_one_thread = |groups: &mut [ShardGroup], per| {
            groups.iter_mut().for_each(|g| g.reserve(per));
        };
        set.reserve(1_000_000, small as u64, 1, on_one_thread);
        assert_eq!(set.bytes(), small, "over the budget: left as it was");
        // A tenth more than the keys: the shards' shares vary a little.
        set.reserve(1_100_000, u64::MAX, 1, on_one_thread);
        let room = set.bytes();
        assert!(
            room > 1_000_000 * 5,
            "room for a million 6-byte slots: {room} bytes"
        );
        for i in 0..1_000_000 {
            assert_eq!(set.insert(&key(i), 1), Insert::New);
        }
        assert_eq!(
            (set.bytes(), set.len()),
            (room, 1_000_000),
            "no growth after the reserve"
        );
        assert!(set.peak_bytes() >= room);
    }
}
