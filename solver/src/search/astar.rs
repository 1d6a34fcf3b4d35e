//! A* with `f = g + round(weight * h)`. The open list is an array of buckets
//! indexed by the integer f, each a stack of (key, g) records (a stack makes
//! ties go deepest first); the visited set stores each key with its best g,
//! which also drives solution reconstruction. Re-opens a position reached
//! with a smaller g, so inconsistent and weighted heuristics are fine.
//! Under `--max-length` a successor that cannot end within it
//! ([`Engine::within_length`]) is never stored.

use std::collections::btree_map::{BTreeMap, Entry};

use super::estimates::Estimator;
use super::path::{walk_back, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::store::{append_key, read_key, Insert, VisitedSet};

/// Open list: buckets of byte-packed `(key, g)` records, one per f value
/// present. A sorted map, not an array indexed by f: a large `--weight`
/// spreads f values far apart, and an array would be as long as the largest.
/// NBS keeps its waiting (by f) and ready (by g) queues in them too.
pub(super) struct Buckets {
    key_bytes: usize,
    record: usize,
    buckets: BTreeMap<usize, Vec<u8>>,
    pub(super) bytes: usize,
}

/// What the map spends on one bucket besides the records (key, vector and
/// the tree's node share), for the memory count.
const BUCKET_OVERHEAD: usize = 64;

impl Buckets {
    pub(super) fn new(key_bits: u32) -> Buckets {
        let key_bytes = (key_bits as usize).div_ceil(8).max(1);
        Buckets {
            key_bytes,
            record: key_bytes + 4,
            buckets: BTreeMap::new(),
            bytes: 0,
        }
    }

    pub(super) fn push(&mut self, f: usize, key: &[u64], g: u32) {
        let b = match self.buckets.entry(f) {
            Entry::Occupied(o) => o.into_mut(),
            Entry::Vacant(v) => {
                self.bytes += BUCKET_OVERHEAD;
                v.insert(Vec::new())
            }
        };
        let before = b.capacity();
        append_key(b, key, self.key_bytes);
        b.extend_from_slice(&g.to_le_bytes());
        self.bytes = self.bytes + b.capacity() - before;
    }

    /// The lowest f present.
    pub(super) fn min(&self) -> Option<usize> {
        self.buckets.first_key_value().map(|(&f, _)| f)
    }

    /// Pops a record with the lowest f: `(f, g)`, key written into `key`.
    pub(super) fn pop(&mut self, key: &mut [u64]) -> Option<(usize, u32)> {
        let mut lowest = self.buckets.first_entry()?;
        let f = *lowest.key();
        let b = lowest.get_mut();
        let start = b.len() - self.record;
        read_key(&b[start..start + self.key_bytes], key);
        let mut g = [0u8; 4];
        g.copy_from_slice(&b[start + self.key_bytes..]);
        b.truncate(start);
        if b.is_empty() {
            self.bytes -= b.capacity() + BUCKET_OVERHEAD;
            lowest.remove();
        }
        Some((f, u32::from_le_bytes(g)))
    }
}

/// A* from `start`. Long on purpose: this is the hot loop; popping a node,
/// checking it against the limits and the goal, and storing, estimating and
/// queueing its successors share the set, the open list and the buffers,
/// and one function keeps the order of those steps visible in one place.
pub fn search(e: &mut Engine, start: &State) -> Ending {
    let words = e.key_words();
    let bits = e.encoding.key_bits();
    let mut estimates = Estimator::new(e);
    let tables = estimates.memory_bytes();
    let weight = e.params.weight;
    let weighted = |h: u32| (weight * h as f64).round().max(0.0) as usize;
    let mut set = VisitedSet::new(bits, Recorded::Cost.bits());
    let mut open = Buckets::new(bits);
    let mut key = vec![0u64; words];
    let mut successor = vec![0u64; words];
    let mut state = start.clone();
    e.encoding.encode(&state, &mut key);
    set.insert(&key, 0);
    open.push(weighted(estimates.estimate(&state)), &key, 0);
    let mut moves = Vec::new();
    // The keys of a node's successors to push, waiting for their estimates.
    let mut waiting: Vec<u64> = Vec::new();
    let bounded = e.limits.max_length.is_some();
    let ending = 'search: loop {
        let Some((f, g)) = open.pop(&mut key) else {
            break Ending::Exhausted;
        };
        if set.get(&key).is_some_and(|best| best < g as u64) {
            continue; // stale record: reached more cheaply since
        }
        e.encoding.decode(&key, &mut state);
        e.progress.bound = f as u64;
        e.examine(&state);
        if let Some(limit) = e.over_limit(tables + (set.bytes() + open.bytes) as u64) {
            break Ending::Stopped(limit);
        }
        if e.is_goal(&state) {
            let goal = state.clone();
            let path = walk_back(e, &set, start, &goal, Recorded::Cost);
            break path.map_or(Ending::Exhausted, Ending::Found);
        }
        let budget = e.memory_left(tables + open.bytes as u64);
        let g2 = g + 1;
        e.prunings.prepare(&e.moves, &state);
        e.moves.generate(&state, &mut moves);
        for &m in &moves {
            e.moves.apply(&mut state, m);
            if e.prunings.keep(&e.moves, &state, m) {
                e.encoding.encode_successor(&key, m, &state, &mut successor);
                // Under --max-length the estimate first decides whether the
                // successor can still end within it.
                let h = bounded.then(|| estimates.estimate(&state));
                if !e.is_forbidden(&successor) && h.is_none_or(|h| e.within_length(g2 as u64, h)) {
                    let push = match set.insert_within(&successor, g2 as u64, budget) {
                        None => break 'search Ending::Stopped(Limit::Memory),
                        Some(Insert::New) => true,
                        Some(Insert::Present { payload, .. }) if (g2 as u64) < payload => {
                            set.set_payload(&successor, g2 as u64);
                            true
                        }
                        Some(Insert::Present { .. }) => false,
                    };
                    if push {
                        let h =
                            h.or_else(|| estimates.inline().then(|| estimates.estimate(&state)));
                        match h {
                            Some(h) => open.push(g2 as usize + weighted(h), &successor, g2),
                            None => {
                                waiting.extend_from_slice(&successor);
                                estimates.queue(&state);
                            }
                        }
                    }
                }
            }
            e.moves.undo(&mut state, m);
        }
        // The successors queued for their estimates (on several threads, or
        // timed: `estimates.rs`), in the order generated.
        for (k, &h) in estimates.run(e).iter().enumerate() {
            open.push(
                g2 as usize + weighted(h),
                &waiting[k * words..(k + 1) * words],
                g2,
            );
        }
        waiting.clear();
    };
    e.stats.stored = set.len() as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max(tables + (set.peak_bytes() + open.bytes) as u64);
    e.leave_behind(set, Recorded::Cost);
    ending
}
