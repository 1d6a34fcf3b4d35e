//! One flat open-addressing hash table of fixed-width slots, each holding a
//! key and a small payload packed into as few bytes as they need (a 37-bit
//! key with a 2-bit payload takes 5 bytes, not 8 or 16). Linear probing,
//! growth at 13/16 load. A large table grows through capacities 2^k and
//! 3 * 2^(k-1) in turn (x1.5, then x4/3): it is 54-81% full, not 44-88% as
//! when doubling at 7/8, a fifth less memory for the same keys (issue 14
//! measured 124 -> 97 MB on the 10^7 bench puzzle) for more rehashes, which
//! move whole slots (the probe for a new slot compares the keys it passes,
//! which are all different). A small one grows x4, then x2 (see
//! [`grown_capacity`]): its memory hardly counts, its rehashes did (8% of
//! the 10^6 bench's time). The home slot is the hash scaled to the
//! capacity (a multiply, no power of two needed). No allocation per
//! position: the table is one `Vec<u8>`.
//!
//! Keys wider than two words (Sunshine's 542 bits, 68 bytes with payload)
//! are not kept in the slots: they go, with their payloads, into a dense
//! array in insertion order, and each slot holds 8 bytes, 32 bits of the
//! hash and the key's index. A probe walks 8-byte slots (eight to a cache
//! line) and reads a key only where the hash bits agree, instead of reading
//! 68-byte slots (two cache lines each) along the way; and the keys take
//! no room at the load factor's empty slots.

/// Top hash bits left out of the home slot: the sharded visited set picks
/// the shard with them (up to 64 shards).
const HOME_SHIFT: u32 = 6;

/// Longest key supported, in 64-bit words (4096 bits).
pub const MAX_WORDS: usize = 64;

/// Widest key the visited set stores with any payload (up to 32 bits).
pub const MAX_KEY_BITS: u32 = (MAX_WORDS * 64) as u32 - 32;

/// Result of [`KeyTable::insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The key was new and is now stored with the given payload.
    New,
    /// The key was already there, with this payload, at this slot.
    Present { slot: usize, payload: u64 },
}

/// Aligned to a cache line: the shards of a [`VisitedSet`](super::VisitedSet) sit side by side
/// in one vector, and under parallel insertion two threads update the `len`
/// of neighbouring shards (the last of one group, the first of the next).
#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct KeyTable {
    key_bits: u32,
    payload_bits: u32,
    /// Bytes of one key with its payload.
    slot_bytes: usize,
    capacity: usize,
    len: usize,
    /// Keys the table holds before it grows ([`fill_limit`] of the
    /// capacity), kept so that the check at every insertion is one compare.
    limit: usize,
    /// Narrow and medium slots: the key's bits and the slot's bits of a
    /// slot word, kept so that a probe does not recompute them (two shifts
    /// with their range checks, 25 of Rush Hour's 1,540M instructions).
    key_mask: u128,
    slot_mask: u128,
    /// The slots: keys with payloads, or for wide keys 8-byte entries (see
    /// [`KeyTable::wide`]).
    data: Vec<u8>,
    /// Wide keys only: the keys with their payloads, `slot_bytes` each, in
    /// insertion order, in chunks of [`CHUNK_KEYS`] keys (plus 8 bytes of
    /// padding for whole-word loads). Chunks are never moved: growth
    /// neither copies the keys nor leaves a freed array behind.
    records: Vec<Box<[u8]>>,
}

/// Wide keys per chunk of [`KeyTable::records`] (a power of two).
const CHUNK_KEYS: usize = 1 << 10;

/// Records at least this wide are prefetched for writing along with the
/// slot (see [`KeyTable::prefetch`]); narrower ones share cache lines with
/// the records just written, and the prefetch only cost instructions
/// (American Pie's 20-byte records: 2-4% slower).
#[cfg(target_arch = "x86_64")]
const PREFETCH_RECORD_BYTES: usize = 32;

/// Bytes of a wide table's slot: 32 hash bits, then the key's index plus
/// one (an empty slot is all zeros).
const ENTRY_BYTES: usize = 8;

/// Mixes a key's words into 64 well-spread bits.
#[inline]
pub fn hash_key(key: &[u64]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

impl KeyTable {
    /// An empty table for keys of `key_bits` bits and payloads of
    /// `payload_bits` bits (at least 1; the all-ones payload is reserved).
    pub fn new(key_bits: u32, payload_bits: u32, capacity: usize) -> KeyTable {
        let payload_bits = payload_bits.max(1);
        // Wide slots read the payload with one unaligned load.
        assert!(payload_bits <= 32, "payloads have at most 32 bits");
        let slot_bytes = (key_bits + payload_bits).div_ceil(8) as usize;
        assert!(
            slot_bytes <= MAX_WORDS * 8,
            "position keys wider than {} bits are not supported",
            MAX_WORDS * 64
        );
        // A power of two or three halves of one (see `grown_capacity`).
        let capacity = capacity.max(16);
        debug_assert!(capacity.is_power_of_two() || (capacity / 3).is_power_of_two());
        let wide = slot_bytes > 16;
        KeyTable {
            key_bits,
            payload_bits,
            slot_bytes,
            capacity,
            len: 0,
            limit: fill_limit(capacity),
            key_mask: if key_bits >= 128 {
                u128::MAX
            } else {
                (1 << key_bits) - 1
            },
            slot_mask: if wide { 0 } else { u128::slot_mask(slot_bytes) },
            // Narrow and medium slots are empty with an all-ones payload,
            // wide entries when zero.
            data: if wide {
                vec![0; capacity * ENTRY_BYTES]
            } else {
                vec![0xFF; capacity * slot_bytes + 8]
            },
            records: Vec::new(),
        }
    }

    /// True when keys live apart from the slots (more than two words).
    #[inline]
    fn wide(&self) -> bool {
        self.slot_bytes > 16
    }

    /// Bytes a table of `capacity` slots holds: its slots, and for wide
    /// keys the chunks for as many keys as it takes before it grows (counted
    /// from the growth on, so that the count changes only at growth, as for
    /// the others; chunks are allocated as keys arrive).
    fn bytes_at(&self, capacity: usize) -> usize {
        if self.wide() {
            let chunks = fill_limit(capacity).div_ceil(CHUNK_KEYS);
            capacity * ENTRY_BYTES + chunks * (CHUNK_KEYS * self.slot_bytes + 8)
        } else {
            capacity * self.slot_bytes + 8
        }
    }

    /// Bytes of the array a growth from `capacity` slots replaces (wide
    /// keys stay in their chunks).
    fn replaced_bytes(&self, capacity: usize) -> usize {
        if self.wide() {
            capacity * ENTRY_BYTES
        } else {
            self.bytes_at(capacity)
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn slot_bytes(&self) -> usize {
        self.slot_bytes
    }

    /// The capacity a growth from `capacity` slots leads to (see
    /// [`grown_capacity`]; wide tables count their 8-byte entries).
    fn grown_capacity(&self, capacity: usize) -> usize {
        let slot = if self.wide() {
            ENTRY_BYTES
        } else {
            self.slot_bytes
        };
        grown_capacity(capacity, slot)
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.bytes_at(self.capacity)
    }

    /// The largest payload that can be stored.
    pub fn max_payload(&self) -> u64 {
        if self.payload_bits >= 64 {
            u64::MAX - 1
        } else {
            (1u64 << self.payload_bits) - 2
        }
    }

    /// True when the next insertion of a new key will double the table.
    #[inline]
    pub fn will_grow(&self) -> bool {
        self.len >= self.limit
    }

    /// Bytes the table would hold after `more` new keys, and the most its
    /// old array would hold while doubling on the way (0 when it would not
    /// grow): what inserting that many keys can cost at worst.
    pub fn bytes_after(&self, more: usize) -> (usize, usize) {
        let (mut capacity, mut before) = (self.capacity, None);
        while self.len + more > fill_limit(capacity) {
            before = Some(capacity);
            capacity = self.grown_capacity(capacity);
        }
        (
            self.bytes_at(capacity),
            before.map_or(0, |c| self.replaced_bytes(c)),
        )
    }

    /// Bytes held while the table grows (old and new arrays together).
    pub fn growth_peak_bytes(&self) -> usize {
        self.replaced_bytes(self.capacity) + self.bytes_at(self.grown_capacity(self.capacity))
    }

    /// The bytes from a key with its payload on: the slot, or for wide
    /// keys the key with this index.
    #[inline]
    fn slot_data(&self, slot: usize) -> &[u8] {
        if self.wide() {
            self.record(slot)
        } else {
            &self.data[slot * self.slot_bytes..]
        }
    }

    /// Reads the key and payload at `slot` (for wide keys: the key's index).
    #[inline]
    fn read_slot(&self, slot: usize, out: &mut [u64]) {
        let words = out.len();
        let bytes = self.slot_data(slot);
        for (i, o) in out.iter_mut().enumerate() {
            let off = 8 * i;
            let left = self.slot_bytes - 8 * i;
            let mut b = [0u8; 8];
            let n = left.min(8);
            b[..n].copy_from_slice(&bytes[off..off + n]);
            let w = u64::from_le_bytes(b);
            *o = if i + 1 == words && left < 8 {
                w & ((1u64 << (8 * left)) - 1)
            } else {
                w
            };
        }
    }

    #[inline]
    fn write_slot(&mut self, slot: usize, value: &[u64]) {
        let sb = self.slot_bytes;
        let bytes = if self.wide() {
            self.record_mut(slot)
        } else {
            &mut self.data[slot * sb..(slot + 1) * sb]
        };
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let b = value[i].to_le_bytes();
            let n = chunk.len();
            chunk.copy_from_slice(&b[..n]);
        }
    }

    #[inline]
    fn empty_payload(&self) -> u64 {
        // Payloads have at most 32 bits (see `new`).
        (1u64 << self.payload_bits) - 1
    }

    #[inline]
    fn payload_of(&self, v: &[u64]) -> u64 {
        let pb = self.payload_bits.min(64);
        let (w, s) = ((self.key_bits / 64) as usize, self.key_bits % 64);
        let mut p = v[w] >> s;
        if s + pb > 64 {
            p |= v[w + 1] << (64 - s);
        }
        if pb == 64 {
            p
        } else {
            p & ((1u64 << pb) - 1)
        }
    }

    #[inline]
    fn set_payload_bits(&self, v: &mut [u64], payload: u64) {
        let kb = self.key_bits;
        let pb = self.payload_bits.min(64);
        // Fast path: the payload lies within one word.
        let (w, s) = ((kb / 64) as usize, kb % 64);
        if s + pb <= 64 {
            let mask = if pb == 64 {
                u64::MAX
            } else {
                ((1u64 << pb) - 1) << s
            };
            v[w] = (v[w] & !mask) | ((payload << s) & mask);
            return;
        }
        for k in 0..pb {
            let bit = kb + k;
            let (w, s) = ((bit / 64) as usize, bit % 64);
            v[w] = (v[w] & !(1 << s)) | (((payload >> k) & 1) << s);
        }
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        // The sharded set picks the shard with the top bits: scale the
        // others to the capacity.
        (((hash << HOME_SHIFT) as u128 * self.capacity as u128) >> 64) as usize
    }

    /// Asks the processor to start loading the slot where `hash` lands, so
    /// that a batch of insertions overlaps its cache misses; for records of
    /// [`PREFETCH_RECORD_BYTES`] or more, also the place where the next new
    /// key's record goes, for writing. Each of the 64 shards appends its
    /// records in a stream of its own, more streams than the hardware
    /// prefetcher follows, so without it nearly every new wide key waited
    /// for its record's lines (Ithaca's 1M-position BFS: 12% of the time).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let offset = if self.wide() {
                self.wide_home(wide_tag(hash)) * ENTRY_BYTES
            } else {
                self.home(hash) * self.slot_bytes
            };
            let ptr = self.data[offset..].as_ptr() as *const i8;
            // SAFETY: prefetching is a hint that cannot fault; `ptr` points into `data`.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
            if self.slot_bytes >= PREFETCH_RECORD_BYTES {
                if let Some(chunk) = self.records.get(self.len / CHUNK_KEYS) {
                    let at = (self.len % CHUNK_KEYS) * self.slot_bytes;
                    let p = chunk[at..].as_ptr() as *const i8;
                    // SAFETY: as above; both lines start within the chunk
                    // or its padding, or one line past.
                    unsafe {
                        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0};
                        _mm_prefetch(p, _MM_HINT_ET0);
                        _mm_prefetch(p.wrapping_add(self.slot_bytes - 1), _MM_HINT_ET0);
                    }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// True when a slot fits one 64-bit word (the common case).
    #[inline]
    fn narrow(&self) -> bool {
        self.slot_bytes <= 8
    }

    /// The slot's word (`W = u64` for narrow slots, `u128` for medium
    /// ones), the bytes beyond the slot masked off.
    #[inline]
    fn load<W: SlotWord>(&self, slot: usize) -> W {
        let off = slot * self.slot_bytes;
        assert!(slot < self.capacity, "slot {slot} of {}", self.capacity);
        // SAFETY: `off` is the offset of a slot of this table.
        unsafe { W::load_at(&self.data, off) & W::slot_mask(self.slot_bytes) }
    }

    /// Writes a narrow or medium slot: a read-modify-write of the whole
    /// word (the padding keeps it in bounds), no copy of variable length.
    #[inline]
    fn store<W: SlotWord>(&mut self, slot: usize, value: W) {
        let off = slot * self.slot_bytes;
        let mask = W::slot_mask(self.slot_bytes);
        assert!(slot < self.capacity, "slot {slot} of {}", self.capacity);
        // SAFETY: `off` is the offset of a slot of this table.
        let old = unsafe { W::load_at(&self.data, off) };
        W::store_at(&mut self.data, off, (old & !mask) | (value & mask));
    }

    /// Probes a table of narrow (`W = u64`) or medium (`W = u128`) slots
    /// from the home slot of `hash`: `Ok(slot, payload)` when found,
    /// `Err(slot)` at the empty slot where the key belongs. Keys are
    /// compared as one number, without the wide path's copies.
    ///
    /// The hot loop of every insertion (5.5 probes each on the 10^6 bench,
    /// where recent keys, the ones BFS meets again, stand at the ends of
    /// their runs): the byte offset advances with the slot, so no multiply
    /// a probe, and an empty slot is told by its bytes being all ones (a
    /// stored slot's payload never is, and its padding bits are zero).
    #[inline]
    fn probe<W: SlotWord>(&self, key: W, hash: u64) -> Result<(usize, u64), usize> {
        let kb = self.key_bits;
        let key_mask = W::from_u128(self.key_mask);
        let key = key & key_mask;
        let full = W::from_u128(self.slot_mask);
        let sb = self.slot_bytes;
        let mut slot = self.home(hash);
        let mut off = slot * sb;
        loop {
            // SAFETY: `slot` starts below the capacity (the home slot) and
            // wraps to 0 at it, and `off` is its offset.
            let w = unsafe { W::load_at(&self.data, off) } & full;
            if w == full {
                return Err(slot);
            }
            if w & key_mask == key {
                return Ok((slot, (w >> kb).low_u64() & self.empty_payload()));
            }
            slot += 1;
            off += sb;
            if slot == self.capacity {
                slot = 0;
                off = 0;
            }
        }
    }

    /// True when a slot fits two 64-bit words but not one.
    #[inline]
    fn medium(&self) -> bool {
        self.slot_bytes > 8 && self.slot_bytes <= 16
    }

    /// A key of up to two words as one number.
    #[inline]
    fn key_u128(key: &[u64]) -> u128 {
        key[0] as u128 | (key.get(1).copied().unwrap_or(0) as u128) << 64
    }

    /// Looks a key up: its slot and payload.
    pub fn find(&self, key: &[u64], hash: u64) -> Option<(usize, u64)> {
        if self.narrow() {
            return self.probe(key[0], hash).ok();
        }
        if self.medium() {
            return self.probe(Self::key_u128(key), hash).ok();
        }
        self.probe_wide(key, hash).ok()
    }

    /// The home slot of a wide key, from its 32 hash bits (so that growth
    /// moves entries without reading keys).
    #[inline]
    fn wide_home(&self, tag: u32) -> usize {
        ((tag as u64 * self.capacity as u64) >> 32) as usize
    }

    /// The entry of a wide table's slot.
    #[inline]
    fn entry(&self, slot: usize) -> u64 {
        let off = slot * ENTRY_BYTES;
        u64::from_le_bytes(self.data[off..off + 8].try_into().expect("8 bytes"))
    }

    #[inline]
    fn set_entry(&mut self, slot: usize, entry: u64) {
        let off = slot * ENTRY_BYTES;
        self.data[off..off + 8].copy_from_slice(&entry.to_le_bytes());
    }

    /// The bytes from wide key `r` to the end of its chunk.
    #[inline]
    fn record(&self, r: usize) -> &[u8] {
        &self.records[r / CHUNK_KEYS][(r % CHUNK_KEYS) * self.slot_bytes..]
    }

    /// Wide key `r` with its payload, `slot_bytes` bytes, for writing.
    #[inline]
    fn record_mut(&mut self, r: usize) -> &mut [u8] {
        let (sb, at) = (self.slot_bytes, (r % CHUNK_KEYS) * self.slot_bytes);
        &mut self.records[r / CHUNK_KEYS][at..at + sb]
    }

    /// The unaligned word at byte `off` of `record` (the chunk's 8 bytes of
    /// padding keep it in bounds).
    #[inline]
    fn word(record: &[u8], off: usize) -> u64 {
        u64::from_le_bytes(record[off..off + 8].try_into().expect("8 bytes"))
    }

    /// The payload of a wide key (at most 32 bits: one unaligned load).
    #[inline]
    fn record_payload(&self, record: &[u8]) -> u64 {
        let kb = self.key_bits as usize;
        (Self::word(record, kb / 8) >> (kb % 8)) & self.empty_payload()
    }

    /// Probes for a key wider than two words from its home slot: `Ok` with
    /// the key's index and payload, or `Err` with the empty slot where it
    /// belongs. Reads a stored key only where its 32 hash bits agree.
    #[inline]
    fn probe_wide(&self, key: &[u64], hash: u64) -> Result<(usize, u64), usize> {
        let kb = self.key_bits as usize;
        let (full, rest) = (kb / 64, kb % 64);
        let rest_mask = (1u64 << rest).wrapping_sub(1);
        let last = key.get(full).copied().unwrap_or(0);
        let tag = wide_tag(hash);
        let mut slot = self.wide_home(tag);
        loop {
            let e = self.entry(slot);
            if e == 0 {
                return Err(slot);
            }
            if e as u32 == tag {
                let r = (e >> 32) as usize - 1;
                let record = self.record(r);
                if (0..full).all(|i| Self::word(record, 8 * i) == key[i])
                    && (Self::word(record, 8 * full) ^ last) & rest_mask == 0
                {
                    return Ok((r, self.record_payload(record)));
                }
            }
            slot += 1;
            if slot == self.capacity {
                slot = 0;
            }
        }
    }

    /// Appends a key wider than two words and its payload to the keys, and
    /// points the empty `slot` at it.
    #[inline]
    fn store_wide(&mut self, slot: usize, hash: u64, key: &[u64], payload: u64) {
        let kb = self.key_bits as usize;
        let sb = self.slot_bytes;
        let r = self.len;
        assert!(
            r < u32::MAX as usize,
            "a shard holds fewer than 2^32 wide keys"
        );
        if r.is_multiple_of(CHUNK_KEYS) {
            self.records
                .push(vec![0; CHUNK_KEYS * sb + 8].into_boxed_slice());
        }
        // Whole words, unaligned: the key's, then the word holding its last
        // bits with the payload above them (and the payload's overflow, if
        // any). The last word may run past the record into the next one,
        // written after it, or into the chunk's 8 bytes of padding: copies
        // of variable length and byte loops took 260 instructions a key.
        let (full, rest) = (kb / 64, (kb % 64) as u32);
        let (c, at) = (r / CHUNK_KEYS, (r % CHUNK_KEYS) * sb);
        let overflows = rest > 0 && rest + self.payload_bits > 64;
        let words = full + 1 + overflows as usize;
        let out = &mut self.records[c][at..at + 8 * words];
        for (i, &w) in key[..full].iter().enumerate() {
            out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        let tail = match rest {
            0 => payload,
            _ => (key[full] & ((1u64 << rest) - 1)) | payload << rest,
        };
        out[8 * full..8 * full + 8].copy_from_slice(&tail.to_le_bytes());
        if overflows {
            let over = payload >> (64 - rest);
            out[8 * full + 8..8 * full + 16].copy_from_slice(&over.to_le_bytes());
        }
        self.set_entry(slot, wide_tag(hash) as u64 | ((r as u64 + 1) << 32));
    }

    /// Inserts `key` with `payload` unless present (then reports the stored payload).
    #[inline]
    pub fn insert(&mut self, key: &[u64], hash: u64, payload: u64) -> Insert {
        if self.will_grow() {
            self.grow();
        }
        self.insert_with_room(key, hash, payload)
    }

    /// [`KeyTable::insert`] where the caller has seen that a new key fits
    /// without growth ([`KeyTable::will_grow`] false).
    #[inline]
    pub fn insert_with_room(&mut self, key: &[u64], hash: u64, payload: u64) -> Insert {
        debug_assert!(payload <= self.max_payload());
        debug_assert!(!self.will_grow());
        if self.narrow() {
            return self.insert_slot(key[0], hash, payload);
        }
        if self.medium() {
            return self.insert_slot(Self::key_u128(key), hash, payload);
        }
        self.insert_wide(key, hash, payload)
    }

    /// [`KeyTable::insert_with_room`] for keys wider than two words: out
    /// of line, so that the narrow keys' insertion, inlined into the
    /// insertion loops, carries none of it (inlined, it cost the 10^6
    /// bench 6 instructions an insertion).
    #[inline(never)]
    fn insert_wide(&mut self, key: &[u64], hash: u64, payload: u64) -> Insert {
        match self.probe_wide(key, hash) {
            Ok((slot, payload)) => Insert::Present { slot, payload },
            Err(slot) => {
                self.store_wide(slot, hash, key, payload);
                self.len += 1;
                Insert::New
            }
        }
    }

    /// [`KeyTable::insert`] into narrow or medium slots.
    #[inline]
    fn insert_slot<W: SlotWord>(&mut self, key: W, hash: u64, payload: u64) -> Insert {
        match self.probe(key, hash) {
            Ok((slot, payload)) => Insert::Present { slot, payload },
            Err(slot) => {
                let key = key & W::low_bits(self.key_bits);
                self.store(slot, key | (W::from_u64(payload) << self.key_bits));
                self.len += 1;
                Insert::New
            }
        }
    }

    /// Replaces the payload of an occupied slot (for wide keys: of the key
    /// at this index, as [`Insert::Present`] and [`KeyTable::find`] give).
    pub fn set_payload(&mut self, slot: usize, payload: u64) {
        let words = self.slot_bytes.div_ceil(8);
        let mut v = [0u64; MAX_WORDS];
        self.read_slot(slot, &mut v[..words]);
        self.set_payload_bits(&mut v[..words], payload);
        self.write_slot(slot, &v[..words]);
    }

    /// Out of line and cold: inlined, its stack frame and saved registers
    /// were paid by every insertion (15 instructions a call on the 10^6
    /// bench).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        self.grow_to(self.grown_capacity(self.capacity));
    }

    /// The capacity that `more` new keys would lead the table to, growth by
    /// growth.
    fn capacity_for(&self, more: usize) -> usize {
        let mut capacity = self.capacity;
        while self.len + more > fill_limit(capacity) {
            capacity = self.grown_capacity(capacity);
        }
        capacity
    }

    /// Grows the table at once to the capacity that `more` new keys would
    /// lead it to: the same capacity as growing key by key, reached by one
    /// rehash instead of one a step. A table whose keys live apart (wide
    /// keys) is left to grow by itself: its growth moves 8-byte entries.
    pub fn reserve(&mut self, more: usize) {
        let capacity = self.capacity_for(more);
        if !self.wide() && capacity > self.capacity {
            self.grow_to(capacity);
        }
    }

    /// Bytes the table holds after [`KeyTable::reserve`]`(more)`.
    pub fn bytes_reserved(&self, more: usize) -> usize {
        match self.wide() {
            true => self.bytes(),
            false => self.bytes_at(self.capacity_for(more)),
        }
    }

    /// Moves every key into a new array of `capacity` slots.
    fn grow_to(&mut self, capacity: usize) {
        let mut old = std::mem::replace(
            self,
            KeyTable::new(self.key_bits, self.payload_bits, capacity),
        );
        self.len = old.len;
        if self.narrow() {
            self.rehash::<u64>(&old);
        } else if self.medium() {
            self.rehash::<u128>(&old);
        } else {
            // The keys stay where they are; only the entries move.
            self.records = std::mem::take(&mut old.records);
            for slot in 0..old.capacity {
                let e = old.entry(slot);
                if e != 0 {
                    let mut at = self.wide_home(e as u32);
                    while self.entry(at) != 0 {
                        at = if at + 1 == self.capacity { 0 } else { at + 1 };
                    }
                    self.set_entry(at, e);
                }
            }
        }
    }

    /// Moves every slot of `old` into this larger, empty table. The keys
    /// are distinct: each goes whole to the first empty slot from its new
    /// home (the probe meets no equal key on the way). Homes rise with the hash, so
    /// the new slots are written nearly in order.
    fn rehash<W: SlotWord>(&mut self, old: &KeyTable) {
        let (key_mask, full) = (W::low_bits(self.key_bits), W::slot_mask(self.slot_bytes));
        // As many words as the visited set hashes (at least one).
        let words = (self.key_bits as usize).div_ceil(64).max(1);
        for slot in 0..old.capacity {
            let w = old.load::<W>(slot);
            if w != full {
                let key = (w & key_mask).words();
                let at = match self.probe(w & key_mask, hash_key(&key[..words])) {
                    Err(at) => at,
                    Ok(_) => unreachable!("a table holds each key once"),
                };
                self.store(at, w);
            }
        }
    }

    /// True when keys live apart from the slots, in insertion order and
    /// never moved: key `r` of the table is then readable by its index
    /// ([`KeyTable::stored_key`]).
    pub fn keeps_records(&self) -> bool {
        self.wide()
    }

    /// Prefetches the `r`-th key stored (`keeps_records` tables), the two
    /// cache lines it may span.
    #[inline]
    pub fn prefetch_stored(&self, r: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let record = self.record(r);
            // SAFETY: prefetching is a hint that cannot fault; both
            // pointers are within the record's chunk or one line past
            // its start.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                let p = record.as_ptr() as *const i8;
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p.wrapping_add(self.slot_bytes - 1), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = r;
    }

    /// Appends the bytes of the `r`-th key stored (`keeps_records` tables:
    /// the key's `key_bits.div_ceil(8)` bytes, the payload's bits that
    /// share its last byte cleared) to `out`.
    #[inline]
    pub fn stored_key(&self, r: usize, out: &mut Vec<u8>) {
        debug_assert!(self.wide() && r < self.len);
        let kb = self.key_bits as usize;
        let at = out.len();
        out.extend_from_slice(&self.record(r)[..kb.div_ceil(8)]);
        if !kb.is_multiple_of(8) {
            out[at + kb / 8] &= (1u8 << (kb % 8)) - 1;
        }
    }

    /// Calls `f(key, payload)` for every stored key (key words beyond the key bits are zero).
    pub fn for_each(&self, mut f: impl FnMut(&[u64], u64)) {
        let words = self.slot_bytes.div_ceil(8);
        let key_words = (self.key_bits as usize).div_ceil(64).max(1);
        let mut v = [0u64; MAX_WORDS];
        let slots = if self.wide() { self.len } else { self.capacity };
        for slot in 0..slots {
            self.read_slot(slot, &mut v[..words]);
            let p = self.payload_of(&v[..words]);
            if p == self.empty_payload() {
                continue;
            }
            clear_above(&mut v[..words], self.key_bits);
            f(&v[..key_words], p);
        }
    }
}

/// A slot of at most 16 bytes read as one number: `u64` for narrow slots
/// (the common case), `u128` for medium ones, so that one probe loop serves
/// both, and one insertion and one rehash (monomorphised).
trait SlotWord:
    Copy
    + PartialEq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    fn from_u64(v: u64) -> Self;
    /// The low bits that fit (for masks kept as `u128`).
    fn from_u128(v: u128) -> Self;
    /// The number as key words, low first.
    fn words(self) -> [u64; 2];
    /// Writes the word at byte `off` (a slot's offset, as for `load_at`).
    fn store_at(data: &mut [u8], off: usize, value: Self);
    /// The low `bits` bits set (`bits` is below the word's width).
    fn low_bits(bits: u32) -> Self;
    /// The low 64 bits.
    fn low_u64(self) -> u64;
    /// The bits of a word that belong to a slot of `bytes` bytes.
    fn slot_mask(bytes: usize) -> Self;
    /// The word at byte `off` of a table's slots, unmasked, read without a
    /// bounds check (which was 5 of the probe loop's 16 instructions).
    ///
    /// # Safety
    ///
    /// `off` must be the offset of a slot of a table's `data`: the 8 bytes
    /// of padding past the last slot keep the word in bounds (a medium slot
    /// has at least 9 bytes, so its 16-byte word ends at most 7 bytes past
    /// the slot).
    unsafe fn load_at(data: &[u8], off: usize) -> Self;
}

/// [`SlotWord`] for an unsigned integer type: the same code for `u64`
/// (narrow slots) and `u128` (medium slots).
macro_rules! slot_word {
    ($t:ty) => {
        impl SlotWord for $t {
            #[inline]
            fn from_u64(v: u64) -> $t {
                v as $t
            }
            #[inline]
            fn from_u128(v: u128) -> $t {
                v as $t
            }
            #[inline]
            fn words(self) -> [u64; 2] {
                [self as u64, (self as u128 >> 64) as u64]
            }
            #[inline]
            fn store_at(data: &mut [u8], off: usize, value: $t) {
                data[off..off + std::mem::size_of::<$t>()].copy_from_slice(&value.to_le_bytes());
            }
            #[inline]
            fn low_bits(bits: u32) -> $t {
                (1 << bits) - 1
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn slot_mask(bytes: usize) -> $t {
                <$t>::MAX >> (<$t>::BITS as usize - 8 * bytes)
            }
            #[inline]
            unsafe fn load_at(data: &[u8], off: usize) -> $t {
                debug_assert!(off + std::mem::size_of::<$t>() <= data.len());
                // SAFETY: the caller passes a slot's offset, so the word lies
                // within `data` (see the trait); an unaligned read of plain
                // bytes.
                <$t>::from_le(unsafe {
                    std::ptr::read_unaligned(data.as_ptr().add(off) as *const $t)
                })
            }
        }
    };
}

slot_word!(u64);
slot_word!(u128);

/// The 32 hash bits a wide key's entry keeps: those below the shard's,
/// which also place it (see [`KeyTable::wide_home`]).
#[inline]
fn wide_tag(hash: u64) -> u32 {
    ((hash << HOME_SHIFT) >> 32) as u32
}

/// Keys a table of `capacity` slots holds before it grows: 13/16 of them
/// (rounded down after the multiply, so that the growth from 16 slots to 24
/// raises it: 13 to 19; every larger capacity is a multiple of 16).
fn fill_limit(capacity: usize) -> usize {
    capacity * 13 / 16
}

/// Slot arrays below this many bytes grow x4 (the first few growths of a
/// search, whose rehashes cost more than the memory they would save).
const QUADRUPLE_BELOW: usize = 64 << 10;

/// Slot arrays below this many bytes double. Together with the x4 step
/// this halves the keys moved by growth on the 10^6 bench (64 shards of
/// 16k slots: 1.9M rehashed keys at x1.5 and x4/3 all the way), while a
/// large table, where memory is what matters, still grows by the small steps.
const DOUBLE_BELOW: usize = 512 << 10;

/// The capacity after `capacity` for slots of `slot_bytes`: x4 or x2 while
/// the array is small, then x1.5 from a power of two and x4/3 (to the next
/// power of two) otherwise. Each keeps the capacity a power of two or three
/// halves of one.
fn grown_capacity(capacity: usize, slot_bytes: usize) -> usize {
    let bytes = capacity * slot_bytes;
    if bytes < QUADRUPLE_BELOW {
        capacity * 4
    } else if bytes < DOUBLE_BELOW {
        capacity * 2
    } else if capacity.is_power_of_two() {
        capacity + capacity / 2
    } else {
        capacity / 3 * 4
    }
}

/// Zeroes every bit at or above `bits`.
fn clear_above(v: &mut [u64], bits: u32) {
    for (i, w) in v.iter_mut().enumerate() {
        let lo = i as u32 * 64;
        if lo >= bits {
            *w = 0;
        } else if bits - lo < 64 {
            *w &= (1u64 << (bits - lo)) - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reserve reaches at once the capacity that growing key by key
    /// reaches, and keeps every key; a wide table is left to grow.
    #[test]
    fn reserving_reaches_the_capacity_of_growing_key_by_key() {
        for kb in [37u32, 100, 477] {
            let words = (kb as usize).div_ceil(64);
            let key = |i: u64| {
                let mut k = vec![0u64; words];
                k[0] = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & ((1u64 << 37) - 1);
                k
            };
            let mut grown = KeyTable::new(kb, 2, 16);
            for i in 0..1000 {
                grown.insert(&key(i), hash_key(&key(i)), 1);
            }
            let mut reserved = grown.clone();
            let before = reserved.capacity();
            reserved.reserve(20_000);
            let at_once = reserved.capacity();
            for i in 1000..21_000 {
                grown.insert(&key(i), hash_key(&key(i)), 1);
                assert_eq!(reserved.insert(&key(i), hash_key(&key(i)), 1), Insert::New);
            }
            assert_eq!(reserved.capacity(), grown.capacity(), "kb={kb}");
            match reserved.keeps_records() {
                true => assert_eq!(at_once, before, "kb={kb}: wide tables grow by themselves"),
                false => assert_eq!(
                    at_once,
                    grown.capacity(),
                    "kb={kb}: no growth after the reserve"
                ),
            }
            for i in 0..21_000 {
                assert!(
                    reserved.find(&key(i), hash_key(&key(i))).is_some(),
                    "kb={kb} key {i}"
                );
            }
        }
    }

    #[test]
    fn stores_and_finds_keys_of_odd_widths_through_growth() {
        for &(kb, pb) in &[
            (5u32, 2u32),
            (37, 2),
            (62, 2),
            (64, 16),
            (70, 3),
            (130, 20),
            (192, 20),
            (250, 20),
            (477, 2),
            (542, 2),
        ] {
            let mut t = KeyTable::new(kb, pb, 16);
            // Payloads over all their bits (a wide key's may cross a word).
            let max = t.max_payload();
            let pay = |i: u64| i.wrapping_mul(40_503) % (max + 1);
            let words = (kb as usize).div_ceil(64);
            let key = |i: u64| {
                let mut k = vec![0u64; words];
                k[0] =
                    i.wrapping_mul(0x9E37_79B9) & if kb < 64 { (1u64 << kb) - 1 } else { u64::MAX };
                for (j, w) in k.iter_mut().enumerate().take(words - 1).skip(1) {
                    *w = i.wrapping_mul(0x2545_F491_4F6C_DD1D + j as u64);
                }
                if words > 1 {
                    k[words - 1] = i & 3;
                }
                k
            };
            let n = if kb == 5 { 32 } else { 5000 };
            for i in 0..n {
                let k = key(i);
                assert_eq!(
                    t.insert(&k, hash_key(&k), pay(i)),
                    Insert::New,
                    "kb={kb} i={i}"
                );
            }
            assert_eq!(t.len(), n as usize);
            if t.keeps_records() {
                // Wide keys come back by their place in insertion order.
                for i in [0, 1, 1023, 1024, n - 1] {
                    let (mut bytes, mut back) = (Vec::new(), vec![0u64; words]);
                    t.stored_key(i as usize, &mut bytes);
                    assert_eq!(bytes.len(), (kb as usize).div_ceil(8));
                    crate::store::read_key(&bytes, &mut back);
                    assert_eq!(back, key(i), "kb={kb}: key {i} by its index");
                }
            }
            for i in 0..n {
                let k = key(i);
                assert_eq!(t.find(&k, hash_key(&k)).map(|x| x.1), Some(pay(i)));
                assert!(
                    matches!(t.insert(&k, hash_key(&k), 0), Insert::Present { payload, .. } if payload == pay(i))
                );
            }
            let mut seen = 0;
            t.for_each(|k, p| {
                assert_eq!(t.find(k, hash_key(k)).map(|x| x.1), Some(p));
                seen += 1;
            });
            assert_eq!(seen, n as usize);
            // Payloads change in place, the keys beside them unharmed.
            for i in (0..n).step_by(7) {
                let k = key(i);
                let (slot, _) = t.find(&k, hash_key(&k)).expect("stored");
                t.set_payload(slot, 1);
            }
            for i in 0..n {
                let k = key(i);
                let want = if i % 7 == 0 { 1 } else { pay(i) };
                assert_eq!(t.find(&k, hash_key(&k)).map(|x| x.1), Some(want));
            }
        }
    }

    #[test]
    fn growth_is_fast_while_small_and_thrifty_when_large() {
        for slot_bytes in [5, 8, 16] {
            let mut capacity = 256;
            while capacity * slot_bytes < 1 << 30 {
                let next = grown_capacity(capacity, slot_bytes);
                assert!(
                    next.is_power_of_two()
                        || (next / 3).is_power_of_two() && next.is_multiple_of(3)
                );
                let bytes = capacity * slot_bytes;
                let most = if bytes < QUADRUPLE_BELOW {
                    4.0
                } else if bytes < DOUBLE_BELOW {
                    2.0
                } else {
                    1.5
                };
                let factor = next as f64 / capacity as f64;
                assert!(factor > 1.3 && factor <= most, "{capacity} -> {next}");
                capacity = next;
            }
        }
    }
}
