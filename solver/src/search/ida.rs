//! Iterative-deepening A*: depth-first searches bounded by `f = g + weight*h`,
//! the bound raised to the smallest f that exceeded it each round. Stores no
//! positions, only the current path; never undoes the previous move at once.
//! The first bound is `--ida-limit` or f of the start. Heuristic values and
//! goal distances are updated per move instead of recomputed. With
//! `--algorithm dfid` the heuristic is zero: depth-first iterative deepening.

use super::{Ending, Engine, Limit};
use crate::heuristics::{self, Heuristic};
use crate::moves::{Move, State};
use crate::params::Algorithm;

struct Walk<'h> {
    heuristic: Box<dyn Heuristic + 'h>,
    weight: f64,
    /// Moves kept at each depth (filtered by the prunings).
    lists: Vec<Vec<Move>>,
    path: Vec<Move>,
    next_bound: u64,
    /// Bytes of the heuristic's tables (pattern databases).
    tables: u64,
}

impl Walk<'_> {
    fn f(&self, g: u64, h: u32) -> u64 {
        g + (self.weight * h as f64).round().max(0.0) as u64
    }
}

/// Heuristic value and goal distance of the current position.
#[derive(Clone, Copy)]
struct Node {
    h: u32,
    distance: u32,
}

enum Step {
    Found,
    NotHere,
    Stop(Limit),
}

pub fn search(e: &mut Engine, start: &State) -> Ending {
    let heuristic: Box<dyn Heuristic> = if e.params.algorithm == Algorithm::Dfid {
        Box::new(heuristics::Blind)
    } else {
        heuristics::build(&e.params, e.puzzle, &e.geometry)
    };
    let tables = heuristic.memory_bytes();
    e.stats.peak_memory = e.stats.peak_memory.max(tables);
    let mut walk = Walk {
        heuristic,
        weight: e.params.weight,
        lists: Vec::new(),
        path: Vec::new(),
        next_bound: 0,
        tables,
    };
    let mut state = start.clone();
    let root = Node {
        h: walk.heuristic.estimate(&state),
        distance: e.geometry.goal_distance(&state),
    };
    let mut bound = e.params.ida_limit.map_or(walk.f(0, root.h), |l| l as u64);
    loop {
        e.progress.bound = bound;
        walk.next_bound = u64::MAX;
        match dfs(e, &mut walk, &mut state, root, 0, bound, None) {
            Step::Found => {
                let mut positions = vec![start.clone()];
                let mut s = start.clone();
                for &m in &walk.path {
                    e.moves.apply(&mut s, m);
                    positions.push(s.clone());
                }
                return Ending::Found(positions);
            }
            Step::Stop(limit) => return Ending::Stopped(limit),
            Step::NotHere if walk.next_bound == u64::MAX => return Ending::Exhausted,
            Step::NotHere => bound = walk.next_bound,
        }
    }
}

fn dfs(
    e: &mut Engine,
    walk: &mut Walk,
    state: &mut State,
    node: Node,
    g: u64,
    bound: u64,
    previous: Option<Move>,
) -> Step {
    let f = walk.f(g, node.h);
    if f > bound {
        walk.next_bound = walk.next_bound.min(f);
        return Step::NotHere;
    }
    if e.is_goal(state) {
        return Step::Found;
    }
    e.examine_at(node.distance);
    if let Some(limit) = e.over_limit(walk.tables + (walk.path.len() * 16) as u64) {
        return Step::Stop(limit);
    }
    let depth = g as usize;
    if walk.lists.len() <= depth {
        walk.lists.resize_with(depth + 1, Vec::new);
    }
    let mut list = std::mem::take(&mut walk.lists[depth]);
    e.moves.generate(state, &mut list);
    // Filter before descending: the prunings keep per-position state.
    if !e.prunings.is_empty() {
        e.prunings.prepare(&e.moves, state);
        list.retain(|&m| {
            e.moves.apply(state, m);
            let keep = e.prunings.keep(&e.moves, state, m);
            e.moves.undo(state, m);
            keep
        });
    }
    let mut result = Step::NotHere;
    for &m in &list {
        if previous.is_some_and(|p| p.instance == m.instance && p.from == m.to) {
            continue;
        }
        e.moves.apply(state, m);
        walk.path.push(m);
        let child = Node {
            h: walk.heuristic.estimate_after(state, m, node.h),
            distance: e.geometry.distance_after(node.distance, m, state),
        };
        result = dfs(e, walk, state, child, g + 1, bound, Some(m));
        if matches!(result, Step::Found) {
            // Keep the path; the caller replays it from the start.
            e.moves.undo(state, m);
            break;
        }
        walk.path.pop();
        e.moves.undo(state, m);
        if !matches!(result, Step::NotHere) {
            break;
        }
    }
    walk.lists[depth] = list;
    result
}
