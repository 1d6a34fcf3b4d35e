//! Enforced hill-climbing (Hoffmann and Nebel's FF planner): from the
//! current position, a breadth-first search for the nearest position the
//! heuristic rates strictly better (or a goal); the path to it is committed,
//! everything else that search stored is dropped, and the climb goes on
//! from there. Each estimate the climb passes is lower than the last, so it
//! takes at most h(start) searches, and it holds one local search at a time:
//! hard puzzles whose full search space does not fit in memory (a master
//! that must cross a crowded board) are solved one improvement at a time.
//!
//! Not optimal, and not complete: a committed improvement may lead into a
//! part of the space from which no better position is reachable. Then the
//! local search is exhausted (or stopped by `--max-positions`), and the
//! climb reports how close it got, like any search stopped by a limit.

use super::path::{walk_back, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::heuristics::{self, Heuristic};
use crate::moves::State;
use crate::store::{Insert, KeyQueue, VisitedSet};

/// How one local search ended.
enum Step {
    /// The path from the local root to a better position (both included)
    /// and that position's estimate.
    Better(Vec<State>, u32),
    /// Nothing better is reachable (under the prunings).
    Stuck,
    Stopped(Limit),
}

pub fn search(e: &mut Engine, start: &State) -> Ending {
    let mut heuristic = heuristics::build(&e.params, e.puzzle, &e.geometry);
    let tables = heuristic.memory_bytes();
    let mut path = vec![start.clone()];
    let mut h = heuristic.estimate(start);
    let mut stored = 0u64;
    let ending = loop {
        let root = path.last().expect("the path holds the start").clone();
        if e.is_goal(&root) {
            break Ending::Found(path);
        }
        match climb(e, &mut *heuristic, tables, &root, h, &mut stored) {
            Step::Better(segment, better) => {
                path.extend(segment.into_iter().skip(1));
                h = better;
            }
            Step::Stuck => break Ending::Exhausted,
            Step::Stopped(limit) => break Ending::Stopped(limit),
        }
    };
    e.stats.stored = stored;
    ending
}

/// One breadth-first search from `root` for the nearest goal or position
/// estimated below `h`; its visited set is dropped when it ends.
fn climb(
    e: &mut Engine,
    heuristic: &mut dyn Heuristic,
    tables: u64,
    root: &State,
    h: u32,
    stored: &mut u64,
) -> Step {
    let words = e.key_words();
    let bits = e.encoding.key_bits();
    let recorded = Recorded::Depth;
    let mut set = VisitedSet::new(bits, recorded.bits());
    let mut queue = KeyQueue::new(bits);
    let mut key = vec![0u64; words];
    let mut successor = vec![0u64; words];
    let mut state = root.clone();
    let mut moves = Vec::new();
    e.encoding.encode(&state, &mut key);
    set.insert(&key, 0);
    queue.push(&key);
    let step = 'search: loop {
        if !queue.pop(&mut key) {
            break Step::Stuck;
        }
        let depth = set.get(&key).unwrap_or(0);
        e.encoding.decode(&key, &mut state);
        e.examine(&state);
        if let Some(limit) = e.over_limit(tables + (set.bytes() + queue.bytes()) as u64) {
            break Step::Stopped(limit);
        }
        e.prunings.prepare(&e.moves, &state);
        e.moves.generate(&state, &mut moves);
        for &m in &moves {
            e.moves.apply(&mut state, m);
            if e.prunings.keep(&e.moves, &state, m) {
                e.encoding.encode(&state, &mut successor);
                if let Insert::New = set.insert(&successor, depth + 1) {
                    let better = heuristic.estimate(&state);
                    if better < h || e.is_goal(&state) {
                        let found = state.clone();
                        let path = walk_back(e, &set, root, &found, recorded);
                        break 'search path.map_or(Step::Stuck, |p| Step::Better(p, better));
                    }
                    queue.push(&successor);
                }
            }
            e.moves.undo(&mut state, m);
        }
    };
    *stored += set.len() as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max(tables + (set.peak_bytes() + queue.bytes()) as u64);
    step
}
