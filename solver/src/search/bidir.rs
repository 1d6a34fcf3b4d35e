//! Bidirectional breadth-first search, for goals that fix every block (one
//! goal position, like the 15-puzzle). Two BFS frontiers grow layer by layer,
//! always the smaller one; when a new position of one side is already known
//! to the other, the layer is finished and the shortest meeting wins. Needs a
//! symmetric search graph (no move-dependent prunings).

use super::path::{join, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::store::{Insert, KeyQueue, VisitedSet};

struct Side {
    set: VisitedSet,
    current: KeyQueue,
    next: KeyQueue,
    depth: u64,
    root: State,
}

impl Side {
    fn bytes(&self) -> u64 {
        (self.set.bytes() + self.current.bytes() + self.next.bytes()) as u64
    }
}

/// Whether the goal `geometry` was made for fixes every block: each of its
/// targets places all instances of a type, and every type has one. Then
/// the goal is a single position a search can start from backwards.
pub fn fixes_every_block(
    puzzle: &crate::model::Puzzle,
    geometry: &crate::geometry::Geometry,
) -> bool {
    let mut fixed = vec![false; puzzle.types.len()];
    for (range, anchors) in geometry.targets() {
        if anchors.len() != range.len() {
            return false;
        }
        fixed[puzzle.instance_type(range.start)] = true;
    }
    fixed.iter().all(|&f| f)
}

/// The single position a goal fixing every block describes, if it does.
pub fn goal_state(e: &Engine) -> Option<State> {
    let puzzle = e.puzzle;
    if !fixes_every_block(puzzle, &e.geometry) {
        return None;
    }
    let mut position = puzzle.start.clone();
    for (range, anchors) in e.geometry.targets() {
        position.anchors[range.clone()].copy_from_slice(anchors);
    }
    let mut state = State::new(puzzle);
    state.load(&position, e.moves.shapes());
    Some(state)
}

/// A side of the search holding only `root`, at depth 0; `key` is scratch.
fn new_side(e: &mut Engine, root: &State, key: &mut [u64]) -> Side {
    let bits = e.encoding.key_bits();
    let mut set = VisitedSet::new(bits, Recorded::Depth.bits());
    let mut current = KeyQueue::new(bits);
    e.encoding.encode(root, key);
    set.insert(key, 0);
    current.push(key);
    Side {
        set,
        current,
        next: KeyQueue::new(bits),
        depth: 0,
        root: root.clone(),
    }
}

pub fn search(e: &mut Engine, start: &State) -> Ending {
    let Some(goal) = goal_state(e) else {
        return Ending::Exhausted;
    };
    let words = e.key_words();
    let mut key = vec![0u64; words];
    let mut successor = vec![0u64; words];
    let mut sides: Vec<Side> = [start, &goal]
        .iter()
        .map(|root| new_side(e, root, &mut key))
        .collect();
    if e.is_goal(start) {
        e.examine(start);
        return Ending::Found(vec![start.clone()]);
    }
    let mut state = start.clone();
    let mut moves = Vec::new();
    let ending = 'search: loop {
        if sides[0].current.is_empty() || sides[1].current.is_empty() {
            break Ending::Exhausted;
        }
        let s = if sides[0].current.len() <= sides[1].current.len() {
            0
        } else {
            1
        };
        let o = 1 - s;
        let mut meeting: Option<(u64, State)> = None;
        while sides[s].current.pop(&mut key) {
            e.encoding.decode(&key, &mut state);
            if s == 0 {
                e.examine(&state);
            } else {
                e.stats.examined += 1;
            }
            let held = sides[0].bytes() + sides[1].bytes();
            if let Some(limit) = e.over_limit(held) {
                break 'search Ending::Stopped(limit);
            }
            let budget = e.memory_left(held - sides[s].set.bytes() as u64);
            e.moves.generate(&state, &mut moves);
            for &m in &moves {
                e.moves.apply(&mut state, m);
                e.encoding.encode_successor(&key, m, &state, &mut successor);
                let depth = sides[s].depth + 1;
                match sides[s].set.insert_within(&successor, depth, budget) {
                    None => break 'search Ending::Stopped(Limit::Memory),
                    Some(Insert::New) => {
                        if let Some(k) = sides[o].set.get(&successor) {
                            if meeting.as_ref().is_none_or(|(best, _)| depth + k < *best) {
                                meeting = Some((depth + k, state.clone()));
                            }
                        }
                        sides[s].next.push(&successor);
                    }
                    Some(Insert::Present { .. }) => {}
                }
                e.moves.undo(&mut state, m);
            }
        }
        if let Some((_, meet)) = meeting {
            let forward = (&sides[0].set, &sides[0].root);
            let backward = (&sides[1].set, &sides[1].root);
            let path = join(e, forward, backward, &meet, Recorded::Depth);
            break path.map_or(Ending::Exhausted, Ending::Found);
        }
        let side = &mut sides[s];
        std::mem::swap(&mut side.current, &mut side.next);
        side.depth += 1;
        let reach = sides[0].depth + sides[1].depth;
        e.progress.bound = reach;
        // No meeting yet: every solution is longer than the two depths, so
        // none is within a `--max-length` they have reached.
        if e.limits.max_length.is_some_and(|n| reach >= n) {
            break Ending::Exhausted;
        }
    };
    e.stats.stored = (sides[0].set.len() + sides[1].set.len()) as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max(sides.iter().map(|s| s.set.peak_bytes() as u64).sum::<u64>());
    ending
}
