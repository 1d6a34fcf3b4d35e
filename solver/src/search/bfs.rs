//! Breadth-first search: optimal in the chosen metric, and exhaustive, so an
//! empty frontier proves that no solution exists under these settings. Layers
//! are flat FIFOs of keys; the visited set stores each key with its depth mod
//! 3 (or the exact depth when prunings make the graph directed), which is all
//! that reconstructing the solution needs. The successors of a position are
//! encoded as a batch and their slots prefetched before insertion, so that
//! the cache misses of the hash table overlap.

use super::path::{walk_back, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::store::{Insert, KeyQueue, VisitedSet};

/// The successors of one position, encoded, waiting for insertion.
struct Batch {
    words: usize,
    keys: Vec<u64>,
    hashes: Vec<u64>,
    goal: Vec<bool>,
}

impl Batch {
    fn clear(&mut self) {
        self.keys.clear();
        self.hashes.clear();
        self.goal.clear();
    }

    fn len(&self) -> usize {
        self.goal.len()
    }

    fn key(&self, i: usize) -> &[u64] {
        &self.keys[i * self.words..(i + 1) * self.words]
    }
}

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
    let mut successor = vec![0u64; words];
    let mut state = start.clone();
    e.encoding.encode(&state, &mut key);
    set.insert(&key, 0);
    if e.is_goal(start) {
        e.examine(start);
        e.stats.stored = 1;
        return Ending::Found(vec![start.clone()]);
    }
    let mut current = KeyQueue::new(bits);
    let mut next = KeyQueue::new(bits);
    current.push(&key);
    let mut depth = 0u64;
    let mut moves = Vec::new();
    let mut batch = Batch {
        words,
        keys: Vec::new(),
        hashes: Vec::new(),
        goal: Vec::new(),
    };
    let ending = 'search: loop {
        while current.pop(&mut key) {
            e.encoding.decode(&key, &mut state);
            e.examine(&state);
            let queues = (current.bytes() + next.bytes()) as u64;
            if let Some(limit) = e.over_limit(set.bytes() as u64 + queues) {
                break 'search Ending::Stopped(limit);
            }
            e.prunings.prepare(&e.moves, &state);
            e.moves.generate(&state, &mut moves);
            batch.clear();
            for &m in &moves {
                e.moves.apply(&mut state, m);
                if e.prunings.keep(&e.moves, &state, m) {
                    e.stats.generated += 1;
                    e.encoding.encode(&state, &mut successor);
                    if !e.is_forbidden(&successor) {
                        batch.hashes.push(set.prefetch(&successor));
                        batch.keys.extend_from_slice(&successor);
                        batch.goal.push(e.is_goal(&state));
                    }
                }
                e.moves.undo(&mut state, m);
            }
            let budget = e.memory_left(queues);
            for i in 0..batch.len() {
                match set.insert_hashed(
                    batch.key(i),
                    batch.hashes[i],
                    recorded.payload(depth + 1),
                    budget,
                ) {
                    None => break 'search Ending::Stopped(Limit::Memory),
                    Some(Insert::New) if batch.goal[i] => {
                        let mut goal = state.clone();
                        e.encoding.decode(batch.key(i), &mut goal);
                        e.stats.stored = set.len() as u64;
                        let path = walk_back(e, &set, start, &goal, recorded);
                        break 'search path.map_or(Ending::Exhausted, Ending::Found);
                    }
                    Some(Insert::New) => next.push(batch.key(i)),
                    Some(Insert::Present { .. }) => {}
                }
            }
        }
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
    if e.params.keep_visited {
        e.left_behind = Some(set);
    }
    ending
}
