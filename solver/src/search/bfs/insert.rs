//! The second half of a BFS chunk: the successors of every worker's batch go
//! into the visited set, and the new ones into the next layer, in the order
//! one thread would have inserted them (worker k's batch after worker k-1's).
//!
//! [`parallel`] splits the set into groups of shards, one per thread; each
//! thread inserts, in that order, only the keys routed to its shards, and
//! marks the new ones in a bitmap per batch. A key's shard is fixed by its
//! hash, so every shard sees the serial order and ends as after a serial
//! insertion; [`push_new`] then queues the marked keys in serial order. The
//! next layer, the counts and every solution are thus the same for any
//! number of threads. [`serial`] (one thread, or a chunk holding a goal or
//! close to the memory limit) stops at the exact key that ends the search.

use super::expand::Batch;
use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::search::crew::Crew;
use crate::search::path::{walk_back, Recorded};
use crate::search::{Ending, Engine, Limit};
use crate::store::{Insert, KeyQueue, Reference, Routing, ShardGroup, VisitedSet};

/// How far ahead of the insertion the slots are prefetched.
const PREFETCH_AHEAD: usize = 8;

/// Smallest visited set (bytes) whose slots are prefetched: a smaller one
/// stays in the cache, where a prefetch is 15 instructions for nothing
/// (Rush Hour's boards hold a few thousand positions).
const PREFETCH_FROM_BYTES: usize = 1 << 20;

/// Where a chunk's successors go.
pub(super) struct Sink<'a> {
    pub set: &'a mut VisitedSet,
    pub next: &'a mut KeyQueue,
    /// Bytes held besides the set and the next layer (the current layer
    /// and the batches).
    pub others: usize,
    /// The payload of the layer being built.
    pub payload: u64,
    pub tagged: bool,
    pub words: usize,
    /// The queue holds a [`Reference`] to each stored key, not the key
    /// ([`VisitedSet::keeps_records`]).
    pub by_reference: bool,
}

/// Inserts the batches one key at a time; `Some` ends the search (a goal
/// reached, or growth that would cross `--max-memory`).
pub(super) fn serial(
    e: &mut Engine,
    s: &mut Sink,
    batches: &[Batch],
    start: &State,
    recorded: Recorded,
) -> Option<Ending> {
    let words = s.words;
    let budget = e.memory_left((s.others + s.next.bytes()) as u64);
    let prefetch = s.set.bytes() >= PREFETCH_FROM_BYTES;
    for b in batches {
        let n = b.len();
        for i in 0..n {
            if prefetch && i + PREFETCH_AHEAD < n {
                s.set.prefetch_hashed(b.hashes[i + PREFETCH_AHEAD]);
            }
            let k = &b.keys[i * words..(i + 1) * words];
            match s.set.insert_hashed(k, b.hashes[i], s.payload, budget) {
                None => return Some(Ending::Stopped(Limit::Memory)),
                // Goals are few (most batches have none): looked up only
                // for a new key.
                Some(Insert::New) if b.any_goal() && b.goals.contains(&(i as u32)) => {
                    let mut goal = start.clone();
                    e.encoding.decode(k, &mut goal);
                    e.stats.stored = s.set.len() as u64;
                    let held = (s.others + s.next.bytes()) as u64;
                    e.stats.peak_memory = e.stats.peak_memory.max(s.set.peak_bytes() as u64 + held);
                    let path = walk_back(e, s.set, start, &goal, recorded);
                    return Some(path.map_or(Ending::Exhausted, Ending::Found));
                }
                Some(Insert::New) => {
                    // The next layer's queue doubles when full: refuse
                    // that growth when it would cross --max-memory,
                    // rather than notice after the allocation.
                    if s.next.push_grows() {
                        let others = s.set.bytes() + s.others;
                        if e.memory_left(others as u64) < s.next.grown_bytes() as u64 {
                            return Some(Ending::Stopped(Limit::Memory));
                        }
                    }
                    let r = s.by_reference.then(|| s.set.last_stored(b.hashes[i]));
                    push(s.next, k, r, b, i, s.tagged);
                }
                Some(Insert::Present { .. }) => {}
            }
        }
    }
    None
}

/// Whether the batches may go in through [`parallel`]: no goal among them
/// (the search would end at it) and, even if every key were new, the set
/// and the next layer would stay within `--max-memory`.
pub(super) fn parallel_fits(e: &Engine, s: &Sink, batches: &[Batch]) -> bool {
    if batches.iter().any(Batch::any_goal) {
        return false;
    }
    if e.limits.max_memory.is_none() {
        return true;
    }
    // Successors per shard, counted here, the one place that needs them
    // (a pass over the hashes, against an insertion per key to follow).
    let mut routed = vec![0u32; s.set.shard_count()];
    for b in batches {
        for &h in &b.hashes {
            routed[s.set.shard_of_hash(h)] += 1;
        }
    }
    let keys: usize = batches.iter().map(Batch::len).sum();
    let worst = s.set.bytes_after(&routed) + s.next.bytes_after(keys) + s.others;
    e.memory_left(0) >= worst as u64
}

/// One thread's marks of the keys it found new: a bitmap per batch (aligned
/// so that two threads' marks share no cache line).
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Marks {
    new: Vec<Vec<u64>>,
    /// Indices of the keys this thread owns in the batch at hand.
    own: Vec<u32>,
}

/// Inserts the batches with the crew's threads, each owning a group of
/// shards, then queues the new keys in serial order.
pub(super) fn parallel(crew: &Crew, s: &mut Sink, batches: &[Batch], marks: &mut Vec<Marks>) {
    let routing = s.set.routing(crew.size());
    // Each shard numbers its new keys in serial order from its length now.
    let mut lens = Vec::new();
    if s.by_reference {
        s.set.shard_lens(&mut lens);
    }
    let (words, payload) = (s.words, s.payload);
    let mut groups = s.set.split(routing);
    marks.resize_with(groups.len(), Marks::default);
    let mut jobs: Vec<_> = groups.iter_mut().zip(marks.iter_mut()).collect();
    crew.each(&mut jobs, |g, (group, mark)| {
        insert_own(group, g, routing, batches, mark, words, payload)
    });
    let grown: usize = groups.iter().map(ShardGroup::grown_old).sum();
    drop(groups);
    s.set.settle(grown);
    push_new(s, batches, marks, &mut lens);
}

/// Inserts, batch after batch, the keys routed to group `g`, slots
/// prefetched a few keys ahead, and marks the new ones.
fn insert_own(
    group: &mut ShardGroup,
    g: usize,
    routing: Routing,
    batches: &[Batch],
    marks: &mut Marks,
    words: usize,
    payload: u64,
) {
    marks.new.resize_with(batches.len(), Vec::new);
    for (b, new) in batches.iter().zip(marks.new.iter_mut()) {
        new.clear();
        new.resize(b.len().div_ceil(64), 0);
        // Without a branch: which group a key goes to is random, so a
        // filter would mispredict half the time.
        marks.own.resize(b.len() + 1, 0);
        let mut n = 0;
        for (i, &h) in b.hashes.iter().enumerate() {
            marks.own[n] = i as u32;
            n += (routing.group_of(h) == g) as usize;
        }
        marks.own.truncate(n);
        for (j, &i) in marks.own.iter().enumerate() {
            if let Some(&ahead) = marks.own.get(j + PREFETCH_AHEAD) {
                group.prefetch_hashed(b.hashes[ahead as usize]);
            }
            let i = i as usize;
            let k = &b.keys[i * words..(i + 1) * words];
            if group.insert_hashed(k, b.hashes[i], payload) == Insert::New {
                new[i / 64] |= 1 << (i % 64);
            }
        }
    }
}

/// Queues the keys some thread marked new, batch by batch in key order;
/// by reference, numbered per shard from `lens` (the shards' lengths
/// before the batches went in; each shard took its keys in this order).
fn push_new(s: &mut Sink, batches: &[Batch], marks: &[Marks], lens: &mut [u32]) {
    for (bi, b) in batches.iter().enumerate() {
        for w in 0..b.len().div_ceil(64) {
            let mut bits = marks.iter().fold(0, |acc, m| acc | m.new[bi][w]);
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let r = s.by_reference.then(|| {
                    let shard = s.set.shard_of_hash(b.hashes[i]);
                    lens[shard] += 1;
                    Reference::new(shard, lens[shard] - 1)
                });
                let k = &b.keys[i * s.words..(i + 1) * s.words];
                push(s.next, k, r, b, i, s.tagged);
            }
        }
    }
}

/// Queues key `i` of batch `b` (`k`), or its reference `r` when the
/// queue holds references, with its tag when `tagged`.
#[inline]
fn push(next: &mut KeyQueue, k: &[u64], r: Option<Reference>, b: &Batch, i: usize, tagged: bool) {
    let word;
    let entry = match r {
        Some(r) => {
            word = [r.0];
            &word[..]
        }
        None => k,
    };
    if tagged {
        next.push_tagged(entry, b.moved[i]);
    } else {
        next.push(entry);
    }
}
