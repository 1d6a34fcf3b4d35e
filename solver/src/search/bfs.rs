//! Breadth-first search: optimal in the chosen metric, and exhaustive, so an
//! empty frontier proves that no solution exists under these settings.
//!
//! Layers are flat FIFOs of keys; the visited set stores each key with its
//! depth mod 3 (or the exact depth when prunings make the graph directed),
//! which is all that reconstructing the solution needs. A layer is expanded in
//! chunks of parents: `--threads N` workers each decode, generate and encode
//! their share of a chunk into a batch of successor keys (the costly part),
//! then the batches are inserted in worker order, slots prefetched a few keys
//! ahead. `--max-positions N` expands exactly N positions, successors included. The order of insertion, and so every count and solution, is the
//! same whatever the number of threads.
//!
//! Under `--metric moves` (and no pruning that depends on the move) each
//! queued key carries where the block that moved last stands, and that
//! block's moves are not generated: they reach only positions its previous
//! move reached, all already stored, so counts and solutions do not change.

use std::time::Instant;

use super::path::{walk_back, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::{Encoding, PositionEncoding};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State, NO_OWNER};
use crate::params::Metric;
use crate::pruning::{self, Prunings};
use crate::store::{entry_tag, read_key, Insert, KeyQueue, VisitedSet, TAG_BYTES};

/// Parents expanded between two checks of the limits.
const CHUNK: usize = 4096;
/// How far ahead of the insertion the slots are prefetched.
const PREFETCH_AHEAD: usize = 8;

/// The successors of a run of parents, encoded, waiting for insertion.
#[derive(Default)]
struct Batch {
    keys: Vec<u64>,
    hashes: Vec<u64>,
    goal: Vec<bool>,
    /// Per key, when tagged: the anchor of the block that moved.
    moved: Vec<u16>,
    examined: u64,
    generated: u64,
    /// Smallest goal distance among the parents and its 1-based index.
    best: Option<(u32, u64)>,
    /// The time limit passed before every parent was expanded.
    out_of_time: bool,
}

/// Parents expanded between two looks at the clock: on large boards one
/// parent can take milliseconds, so a whole chunk would overrun the limit.
const CLOCK_EVERY: usize = 16;

/// One thread's copy of what expanding a position needs.
struct Worker {
    moves: MoveGenerator,
    encoding: Encoding,
    prunings: Prunings,
    state: State,
    list: Vec<Move>,
    key: Vec<u64>,
    successor: Vec<u64>,
}

impl Worker {
    fn new(e: &Engine, start: &State) -> Worker {
        let words = e.key_words();
        Worker {
            moves: e.moves.clone(),
            encoding: e.encoding.clone(),
            prunings: pruning::build(&e.params, &e.geometry),
            state: start.clone(),
            list: Vec::new(),
            key: vec![0; words],
            successor: vec![0; words],
        }
    }

    /// Expands the parents in `keys` (byte-packed, `entry_bytes` each: the
    /// key, then the tag when `ctx.tagged`) into `batch`.
    fn expand(&mut self, keys: &[u8], entry_bytes: usize, ctx: &Context, batch: &mut Batch) {
        let key_bytes = entry_bytes - if ctx.tagged { TAG_BYTES } else { 0 };
        for (k, bytes) in keys.chunks(entry_bytes).enumerate() {
            if k % CLOCK_EVERY == CLOCK_EVERY - 1
                && ctx.deadline.is_some_and(|d| Instant::now() >= d)
            {
                batch.out_of_time = true;
                return;
            }
            read_key(&bytes[..key_bytes], &mut self.key);
            self.encoding.decode(&self.key, &mut self.state);
            // The block that moved last (decoding renumbers instances, so
            // the tag names the cell it stands on).
            let skip = match ctx.tagged.then(|| entry_tag(bytes)) {
                Some(cell) if cell != NO_OWNER => self.state.owner[cell as usize] as usize,
                _ => usize::MAX,
            };
            batch.examined += 1;
            let d = ctx.geometry.goal_distance(&self.state);
            if batch.best.is_none_or(|(b, _)| d < b) {
                batch.best = Some((d, k as u64 + 1));
            }
            self.prunings.prepare(&self.moves, &self.state);
            self.moves
                .generate_skipping(&self.state, skip, &mut self.list);
            for &m in &self.list {
                self.moves.apply(&mut self.state, m);
                if self.prunings.keep(&self.moves, &self.state, m) {
                    batch.generated += 1;
                    let moved_type = self.moves.shapes().type_of(m.instance as usize);
                    self.encoding.encode_successor(
                        &self.key,
                        moved_type,
                        &self.state,
                        &mut self.successor,
                    );
                    if !ctx
                        .forbidden
                        .iter()
                        .any(|f| f.get(&self.successor).is_some())
                    {
                        batch.hashes.push(ctx.set.hash(&self.successor));
                        batch.keys.extend_from_slice(&self.successor);
                        batch
                            .goal
                            .push(ctx.goal_enabled && ctx.geometry.is_goal(&self.state));
                        if ctx.tagged {
                            batch.moved.push(m.to);
                        }
                    }
                }
                self.moves.undo(&mut self.state, m);
            }
        }
    }
}

/// Read-only data the workers share.
struct Context<'a> {
    geometry: &'a Geometry,
    forbidden: &'a [VisitedSet],
    set: &'a VisitedSet,
    goal_enabled: bool,
    deadline: Option<Instant>,
    /// Queue entries carry the anchor of the block that moved last.
    tagged: bool,
}

/// Breadth-first search from `start`, layer by layer.
///
/// Long on purpose: this is the hot loop. Each layer is cut into chunks,
/// expanded by the workers, merged in serial order and checked against the
/// limits; those steps share the visited set, the queues, the batches and the
/// counters, and keeping them as locals of one function keeps the loop's
/// order of events (and its limits) visible in one place.
pub fn search(e: &mut Engine, start: &State) -> Ending {
    let words = e.key_words();
    let bits = e.encoding.key_bits();
    let recorded = if e.prunings.directed() {
        Recorded::Depth
    } else {
        Recorded::DepthMod3
    };
    let mut set = VisitedSet::new(bits, recorded.bits());
    let mut key = vec![0u64; words];
    e.encoding.encode(start, &mut key);
    set.insert(&key, 0);
    if e.is_goal(start) {
        e.examine(start);
        e.stats.stored = 1;
        return Ending::Found(vec![start.clone()]);
    }
    let threads = e.params.threads.max(1);
    let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(e, start)).collect();
    let mut batches: Vec<Batch> = (0..threads).map(|_| Batch::default()).collect();
    let tagged = e.params.metric == Metric::Moves && !e.prunings.directed();
    let queue = || {
        if tagged {
            KeyQueue::tagged(bits)
        } else {
            KeyQueue::new(bits)
        }
    };
    let mut current = queue();
    let mut next = queue();
    if tagged {
        current.push_tagged(&key, NO_OWNER);
    } else {
        current.push(&key);
    }
    let mut depth = 0u64;
    let ending = 'search: loop {
        if !e.within_length(depth + 1, 0) {
            break Ending::Exhausted; // --max-length: the next layer would be too deep
        }
        let (layer, key_bytes) = current.as_bytes();
        let parents = layer.len() / key_bytes;
        let mut done = 0;
        while done < parents {
            let left = e
                .limits
                .max_positions
                .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined));
            if left == 0 {
                break 'search Ending::Stopped(Limit::Positions);
            }
            let take = CHUNK
                .min(parents - done)
                .min(left.min(usize::MAX as u64) as usize);
            let chunk = &layer[done * key_bytes..(done + take) * key_bytes];
            let per = take.div_ceil(threads) * key_bytes;
            let ctx = Context {
                geometry: &e.geometry,
                forbidden: e.forbidden,
                set: &set,
                goal_enabled: e.goal_enabled,
                deadline: e.deadline(),
                tagged,
            };
            for b in &mut batches {
                *b = Batch {
                    keys: std::mem::take(&mut b.keys),
                    hashes: std::mem::take(&mut b.hashes),
                    goal: std::mem::take(&mut b.goal),
                    moved: std::mem::take(&mut b.moved),
                    ..Batch::default()
                };
                b.keys.clear();
                b.hashes.clear();
                b.goal.clear();
                b.moved.clear();
            }
            if threads == 1 {
                workers[0].expand(chunk, key_bytes, &ctx, &mut batches[0]);
            } else {
                std::thread::scope(|scope| {
                    for ((worker, batch), part) in workers
                        .iter_mut()
                        .zip(batches.iter_mut())
                        .zip(chunk.chunks(per))
                    {
                        let ctx = &ctx;
                        scope.spawn(move || worker.expand(part, key_bytes, ctx, batch));
                    }
                });
            }
            done += take;
            // Counters in serial order: worker k's parents follow worker k-1's.
            for b in &batches {
                if let Some((d, at)) = b.best {
                    if d < e.stats.best_distance {
                        e.stats.best_distance = d;
                        e.stats.best_distance_positions = e.stats.examined + at;
                    }
                }
                e.stats.examined += b.examined;
                e.stats.generated += b.generated;
            }
            if batches.iter().any(|b| b.out_of_time) {
                break 'search Ending::Stopped(Limit::Time);
            }
            let batch_bytes: usize = batches
                .iter()
                .map(|b| b.keys.capacity() * 8 + b.hashes.capacity() * 8 + b.moved.capacity() * 2)
                .sum();
            let held = (current.bytes() + next.bytes() + batch_bytes) as u64;
            if let Some(limit) = e.over_resources(set.bytes() as u64 + held) {
                break 'search Ending::Stopped(limit);
            }
            let budget = e.memory_left(held);
            for b in &batches {
                let n = b.goal.len();
                for i in 0..n {
                    if i + PREFETCH_AHEAD < n {
                        set.prefetch_hashed(b.hashes[i + PREFETCH_AHEAD]);
                    }
                    let k = &b.keys[i * words..(i + 1) * words];
                    match set.insert_hashed(k, b.hashes[i], recorded.payload(depth + 1), budget) {
                        None => break 'search Ending::Stopped(Limit::Memory),
                        Some(Insert::New) if b.goal[i] => {
                            let mut goal = start.clone();
                            e.encoding.decode(k, &mut goal);
                            e.stats.stored = set.len() as u64;
                            e.stats.peak_memory =
                                e.stats.peak_memory.max(set.peak_bytes() as u64 + held);
                            let path = walk_back(e, &set, start, &goal, recorded);
                            break 'search path.map_or(Ending::Exhausted, Ending::Found);
                        }
                        Some(Insert::New) => {
                            // The next layer's queue doubles when full: refuse
                            // that growth when it would cross --max-memory,
                            // rather than notice after the allocation.
                            if next.push_grows() {
                                let others = set.bytes() + current.bytes() + batch_bytes;
                                if e.memory_left(others as u64) < next.grown_bytes() as u64 {
                                    break 'search Ending::Stopped(Limit::Memory);
                                }
                            }
                            if tagged {
                                next.push_tagged(k, b.moved[i]);
                            } else {
                                next.push(k);
                            }
                        }
                        Some(Insert::Present { .. }) => {}
                    }
                }
            }
        }
        current.clear();
        if next.is_empty() {
            break Ending::Exhausted;
        }
        std::mem::swap(&mut current, &mut next);
        depth += 1;
        e.progress.bound = depth;
    };
    e.stats.stored = set.len() as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max((set.peak_bytes() + current.bytes() + next.bytes()) as u64);
    e.leave_behind(set, recorded);
    ending
}
