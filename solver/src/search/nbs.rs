//! NBS, near-optimal bidirectional search (Chen, Holte, Zilles and
//! Sturtevant 2017; seed 000 §5.2), for goals that fix every block. A forward
//! search from the start and a backward one from the goal position each keep
//! the best cost g per position; every step expands a *pair* (U, V), one open
//! position per side, with the least lower bound
//! `lb(U, V) = max(f_F(U), f_B(V), g_F(U) + g_B(V))`, and the search ends
//! when that bound reaches the cost C of the best meeting found. Optimal with
//! an admissible, consistent heuristic, and it expands at most twice the
//! positions any such bidirectional search must.
//!
//! Both directions use `--heuristic`: forward it estimates the distance to
//! the goal; backward the same heuristic is built for the puzzle whose goal
//! is the start position (moves are reversible, so the distance from the
//! start to a position is the distance from that position to the start).
//! With `pdb` that is a second set of tables, toward the start; `manhattan`
//! is Manhattan distance plus linear conflict to the start. The project's
//! admissible heuristics are consistent (a move changes a Manhattan sum, an
//! abstract distance or a maximum of them by at most one), which the growing
//! bound relies on; inadmissible ones and `--weight` are refused.
//!
//! As in the paper's implementation, each side keeps its open positions in a
//! *waiting* queue ordered by f and a *ready* queue ordered by g: the bound
//! CLB only grows; positions with `f <= CLB` become ready; the pair is the
//! two ready positions of least g when their sum is at most CLB, else CLB
//! rises to the next f or g sum. Records are (key, g); one whose g is no
//! longer its position's best is stale and skipped.

use super::astar::Buckets;
use super::bidir::goal_state;
use super::path::{join, Recorded};
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::geometry::Geometry;
use crate::heuristics::{self, Heuristic};
use crate::model::Puzzle;
use crate::moves::{Move, State};
use crate::store::{Insert, VisitedSet};

/// Buffers reused by every expansion (no allocation per position).
struct Scratch {
    key: Vec<u64>,
    successor: Vec<u64>,
    moves: Vec<Move>,
    state: State,
}

/// One direction of the search.
struct Side {
    /// Best known g per position reached.
    set: VisitedSet,
    /// Open records by f.
    waiting: Buckets,
    /// Open records with `f <= CLB`, by g.
    ready: Buckets,
    heuristic: Box<dyn Heuristic>,
    root: State,
}

impl Side {
    fn new(e: &mut Engine, root: &State, heuristic: Box<dyn Heuristic>, key: &mut [u64]) -> Side {
        let bits = e.encoding.key_bits();
        let mut side = Side {
            set: VisitedSet::new(bits, Recorded::Cost.bits()),
            waiting: Buckets::new(bits),
            ready: Buckets::new(bits),
            heuristic,
            root: root.clone(),
        };
        e.encoding.encode(root, key);
        side.set.insert(key, 0);
        let h = side.heuristic.estimate(root);
        side.waiting.push(h as usize, key, 0);
        side
    }

    fn bytes(&self) -> u64 {
        (self.set.bytes() + self.waiting.bytes + self.ready.bytes) as u64
            + self.heuristic.memory_bytes()
    }

    /// Moves the waiting records with `f <= clb` to the ready queue.
    fn ready_up_to(&mut self, clb: u32, key: &mut [u64]) {
        while self.waiting.min().is_some_and(|f| f <= clb as usize) {
            if let Some((_, g)) = self.waiting.pop(key) {
                self.ready.push(g as usize, key, g);
            }
        }
    }
}

/// The puzzle whose goal is `puzzle`'s start position: every block fixed
/// where it starts. Its heuristic estimates the distance to the start.
fn toward_start(puzzle: &Puzzle) -> Puzzle {
    let mut reversed = puzzle.clone();
    reversed.goals = vec![puzzle.goal_at(&puzzle.start)];
    reversed
}

pub fn search(e: &mut Engine, start: &State) -> Ending {
    let Some(goal) = goal_state(e) else {
        return Ending::Exhausted;
    };
    let words = e.key_words();
    let mut key = vec![0u64; words];
    let forward = heuristics::build(&e.params, e.puzzle, &e.geometry, e.table_memory(2));
    let reversed = toward_start(e.puzzle);
    let geometry = Geometry::new(&reversed, reversed.goals.first());
    let backward = heuristics::build(&e.params, &reversed, &geometry, e.table_memory(2));
    let mut sides = [
        Side::new(e, start, forward, &mut key),
        Side::new(e, &goal, backward, &mut key),
    ];
    if e.is_goal(start) {
        e.examine(start);
        return Ending::Found(vec![start.clone()]);
    }
    let ending = expand_pairs(e, &mut sides);
    e.stats.stored = (sides[0].set.len() + sides[1].set.len()) as u64;
    let peak: u64 = sides
        .iter()
        .map(|s| s.set.peak_bytes() as u64 + s.heuristic.memory_bytes())
        .sum();
    e.stats.peak_memory = e.stats.peak_memory.max(peak);
    ending
}

/// The main loop: pairs expanded until the bound reaches the best meeting.
fn expand_pairs(e: &mut Engine, sides: &mut [Side; 2]) -> Ending {
    let words = e.key_words();
    let mut scratch = Scratch {
        key: vec![0u64; words],
        successor: vec![0u64; words],
        moves: Vec::new(),
        state: sides[0].root.clone(),
    };
    let mut clb = 0u32;
    // The cost of the best meeting so far and the position where it met.
    let mut best: Option<(u32, State)> = None;
    while choose_pair(sides, &mut clb, &mut scratch.key) {
        e.progress.bound = clb as u64;
        if best.as_ref().is_some_and(|(c, _)| clb >= *c) {
            break;
        }
        for s in 0..2 {
            let Some((_, g)) = sides[s].ready.pop(&mut scratch.key) else {
                continue;
            };
            if sides[s].set.get(&scratch.key) != Some(g as u64) {
                continue; // reached more cheaply since it was queued
            }
            e.encoding.decode(&scratch.key, &mut scratch.state);
            if s == 0 {
                e.examine(&scratch.state);
            } else {
                e.stats.examined += 1;
            }
            let held = sides[0].bytes() + sides[1].bytes();
            if let Some(limit) = e.over_limit(held) {
                return Ending::Stopped(limit);
            }
            if !expand(e, sides, s, g, held, &mut scratch, &mut best) {
                return Ending::Stopped(Limit::Memory);
            }
        }
    }
    let Some((_, meet)) = best else {
        return Ending::Exhausted;
    };
    let forward = (&sides[0].set, &sides[0].root);
    let backward = (&sides[1].set, &sides[1].root);
    join(e, forward, backward, &meet, Recorded::Cost).map_or(Ending::Exhausted, Ending::Found)
}

/// Finds the next pair: raises `clb` until the two ready positions of
/// least g (each side's ready queue's first) have `g_F + g_B <= clb`; false
/// when a side has nothing open.
fn choose_pair(sides: &mut [Side; 2], clb: &mut u32, key: &mut [u64]) -> bool {
    loop {
        for side in sides.iter_mut() {
            side.ready_up_to(*clb, key);
        }
        let ready = sides[0].ready.min().zip(sides[1].ready.min());
        let ready = ready.map(|(gf, gb)| (gf as u32, gb as u32));
        if let Some((gf, gb)) = ready {
            if gf + gb <= *clb {
                return true;
            }
        }
        let open = |s: &Side| s.waiting.min().is_some() || s.ready.min().is_some();
        if !open(&sides[0]) || !open(&sides[1]) {
            return false;
        }
        let Some(next) = [
            sides[0].waiting.min().map(|f| f as u32),
            sides[1].waiting.min().map(|f| f as u32),
            ready.map(|(gf, gb)| gf + gb),
        ]
        .into_iter()
        .flatten()
        .min() else {
            return false;
        };
        *clb = next;
    }
}

/// Expands `scratch.state` (cost `g`) on side `s`: successors with a
/// better g are queued, and a successor the other side reached is a
/// meeting. False when the visited set would exceed the memory limit.
fn expand(
    e: &mut Engine,
    sides: &mut [Side; 2],
    s: usize,
    g: u32,
    held: u64,
    scratch: &mut Scratch,
    best: &mut Option<(u32, State)>,
) -> bool {
    let Scratch {
        successor,
        moves,
        state,
        ..
    } = scratch;
    let budget = e.memory_left(held - sides[s].set.bytes() as u64);
    let g2 = g + 1;
    e.prunings.prepare(&e.moves, state);
    e.moves.generate(state, moves);
    for &m in moves.iter() {
        e.moves.apply(state, m);
        if e.prunings.keep(&e.moves, state, m) {
            e.encoding.encode(state, successor);
            let push = match sides[s].set.insert_within(successor, g2 as u64, budget) {
                None => return false,
                Some(Insert::New) => true,
                Some(Insert::Present { payload, .. }) if (g2 as u64) < payload => {
                    sides[s].set.set_payload(successor, g2 as u64);
                    true
                }
                Some(Insert::Present { .. }) => false,
            };
            if push {
                if let Some(other) = sides[1 - s].set.get(successor) {
                    let cost = g2 + other as u32;
                    if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                        *best = Some((cost, state.clone()));
                    }
                }
                let f = g2 + sides[s].heuristic.estimate(state);
                sides[s].waiting.push(f as usize, successor, g2);
            }
        }
        e.moves.undo(state, m);
    }
    true
}
