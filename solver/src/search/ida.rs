//! Iterative-deepening A*: depth-first searches bounded by `f = g + weight*h`,
//! the bound raised to the smallest f that exceeded it each round. Stores no
//! positions, only the current path; never undoes the previous move at once.
//! The first bound is `--ida-limit` or f of the start. Heuristic values and
//! goal distances are updated per move instead of recomputed (the heuristic
//! is told each move onto and off the path, so pattern databases look up
//! only the tables the moved tile changes). With
//! `--algorithm dfid` the heuristic is zero: depth-first iterative deepening.
//! Under `--max-length` a position that cannot end within it is cut at every
//! bound and never raises the next one, so the search exhausts once every
//! path within it has been tried.

use super::{Ending, Engine, Limit};
use crate::heuristics::pdb::{self, Databases};
use crate::heuristics::{self, Heuristic};
use crate::moves::{Move, Skip, State};
use crate::params::{Algorithm, Metric};

struct Walk<'h> {
    /// `None` under `--algorithm dfid`: the estimate is zero.
    heuristic: Option<Box<dyn Heuristic + 'h>>,
    weight: f64,
    /// Moves kept at each depth (filtered by the prunings).
    lists: Vec<Vec<Move>>,
    /// Bytes the move lists hold (their capacities).
    list_bytes: usize,
    path: Vec<Move>,
    next_bound: u64,
    /// Bytes of the heuristic's tables (pattern databases).
    tables: u64,
}

impl Walk<'_> {
    fn f(&self, g: u64, h: u32) -> u64 {
        g.saturating_add((self.weight * h as f64).round().max(0.0) as u64)
    }

    /// Tells the heuristic the path's last move was undone.
    fn retreat(&mut self) {
        if let Some(h) = self.heuristic.as_mut() {
            h.retreat();
        }
    }

    /// Bytes held with `depth` positions on the path: the heuristic's
    /// tables, move lists, path and frames.
    fn memory(&self, depth: usize) -> u64 {
        let per_level = std::mem::size_of::<Vec<Move>>()
            + std::mem::size_of::<Move>()
            + std::mem::size_of::<Frame>();
        self.tables + (self.list_bytes + depth * per_level) as u64
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
    // DFID is IDA* whose bound is on g alone: no heuristic is built at all.
    // A tile puzzle's tables go to the tile kernel instead (`tiles.rs`).
    let heuristic = if e.params.algorithm == Algorithm::Dfid {
        None
    } else if super::tiles::applies(e) {
        let cycles = super::tiles::cycles(e, start);
        match pdb::load(e.puzzle, &e.geometry, &e.params, e.table_memory(1)) {
            Databases::Tiles(db) if !db.tables().is_empty() => {
                return super::tiles::search(e, start, &db, cycles)
            }
            other => Some(other.into_heuristic()),
        }
    } else {
        Some(heuristics::build(
            &e.params,
            e.puzzle,
            &e.geometry,
            e.table_memory(1),
        ))
    };
    let tables = heuristic.as_ref().map_or(0, |h| h.memory_bytes());
    e.stats.peak_memory = e.stats.peak_memory.max(tables);
    let mut walk = Walk {
        heuristic,
        weight: e.params.weight,
        lists: Vec::new(),
        list_bytes: 0,
        path: Vec::new(),
        next_bound: 0,
        tables,
    };
    let mut state = start.clone();
    let root = Node {
        h: walk.heuristic.as_mut().map_or(0, |h| h.estimate(&state)),
        distance: e.geometry.goal_distance(&state),
    };
    let mut bound = e.params.ida_limit.map_or(walk.f(0, root.h), |l| l as u64);
    loop {
        e.progress.new_bound(bound, &e.stats);
        walk.next_bound = u64::MAX;
        match dfs(e, &mut walk, &mut state, root, bound) {
            Step::Found => {
                let mut positions = vec![start.clone()];
                let mut s = start.clone();
                for &m in &walk.path {
                    e.moves.apply(&mut s, m);
                    positions.push(s.clone());
                }
                return Ending::Found(positions);
            }
            Step::Stop(limit) => {
                // Where the search got to, on the same terms as each bound.
                e.progress.new_bound(bound, &e.stats);
                return Ending::Stopped(limit);
            }
            Step::NotHere if walk.next_bound == u64::MAX => return Ending::Exhausted,
            Step::NotHere => bound = walk.next_bound,
        }
    }
}

/// One position on the current path: its estimates and the next move of
/// its list (`walk.lists[depth]`) to try.
struct Frame {
    node: Node,
    next: usize,
}

/// The bounded depth-first search from the root, with an explicit stack:
/// a huge bound (a large `--weight` or `--ida-limit`) makes the path long,
/// which the heap holds and `--max-memory` limits, where recursion would
/// overflow the thread's stack.
fn dfs(e: &mut Engine, walk: &mut Walk, state: &mut State, root: Node, bound: u64) -> Step {
    let mut frames: Vec<Frame> = Vec::new();
    if let Some(decided) = enter(e, walk, state, root, 0, bound, &mut frames) {
        return decided;
    }
    while let Some(depth) = frames.len().checked_sub(1) {
        let list = &walk.lists[depth];
        let previous = walk.path.last().copied();
        let next = (frames[depth].next..list.len()).find(|&i| {
            let m = list[i];
            !previous.is_some_and(|p| p.instance == m.instance && p.from == m.to)
        });
        let Some(i) = next else {
            frames.pop();
            if let Some(m) = walk.path.pop() {
                e.moves.undo(state, m);
                walk.retreat();
            }
            continue;
        };
        frames[depth].next = i + 1;
        let node = frames[depth].node;
        let m = list[i];
        e.moves.apply(state, m);
        walk.path.push(m);
        let child = Node {
            h: walk
                .heuristic
                .as_mut()
                .map_or(0, |h| h.advance(state, m, node.h)),
            distance: e.geometry.distance_after(node.distance, m, state),
        };
        match enter(e, walk, state, child, depth as u64 + 1, bound, &mut frames) {
            None => {} // descended: the child's frame is on top
            Some(Step::NotHere) => {
                walk.path.pop();
                e.moves.undo(state, m);
                walk.retreat();
            }
            // Keep the path; the caller replays it from the start.
            Some(decided) => return decided,
        }
    }
    Step::NotHere
}

/// What the position reached by `last` leaves out: under `--metric steps`
/// without prunings, the step back and the steps of other blocks that
/// commute with `last` and rank below it ([`Skip::last_step`]). Every path
/// can be reordered, swapping neighbouring commuting steps, into one where
/// no step follows a commuting one that ranks above it (the ranks of two
/// commuting steps do not change when they swap): the same length, the
/// same end and, with an admissible heuristic, within the same bound, so
/// the search still finds a shortest solution. It no longer walks the
/// other orders of the same steps, which on boards with several empty
/// cells are most of its paths (with one, as in the 15-puzzle, every step
/// enters the cell the last vacated: the previous move's check suffices).
fn commuting(e: &Engine, last: Option<&Move>) -> Skip {
    let steps = e.params.metric == Metric::Steps && e.moves.spaces() >= 2;
    match last {
        Some(&m) if steps && e.prunings.is_empty() => {
            let d = e
                .moves
                .step_direction(m)
                .expect("a step under --metric steps");
            Skip::last_step(m.instance as usize, d ^ 1)
        }
        _ => Skip::NONE,
    }
}

/// Visits a position at depth `g`: `None` when its frame was pushed with
/// its moves listed (descend), `NotHere` when it lies beyond the bound,
/// `Found` at a goal, `Stop` at a limit.
fn enter(
    e: &mut Engine,
    walk: &mut Walk,
    state: &mut State,
    node: Node,
    g: u64,
    bound: u64,
    frames: &mut Vec<Frame>,
) -> Option<Step> {
    if !e.within_length(g, node.h) {
        // Beyond --max-length at any bound: not a candidate for the next one.
        return Some(Step::NotHere);
    }
    let f = walk.f(g, node.h);
    if f > bound {
        walk.next_bound = walk.next_bound.min(f);
        return Some(Step::NotHere);
    }
    if e.is_goal(state) {
        return Some(Step::Found);
    }
    e.examine_at(node.distance);
    let depth = g as usize;
    if walk.lists.len() <= depth {
        walk.lists.resize_with(depth + 1, Vec::new);
    }
    let mut list = std::mem::take(&mut walk.lists[depth]);
    let before = list.capacity();
    e.moves
        .generate_skipping(state, commuting(e, walk.path.last()), &mut list);
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
    walk.list_bytes += (list.capacity() - before) * std::mem::size_of::<Move>();
    walk.lists[depth] = list;
    frames.push(Frame { node, next: 0 });
    e.over_limit(walk.memory(frames.len())).map(Step::Stop)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::model::Puzzle;
    use crate::params::{Algorithm, Limits, SearchParams};
    use crate::search::test_boxes::{random_box, solution_steps};

    /// Steps of the solution `algorithm` finds within `cap` positions.
    fn steps(p: &Puzzle, algorithm: Algorithm, cap: u64) -> Option<usize> {
        let params = SearchParams {
            algorithm,
            ..SearchParams::default()
        };
        let limits = Limits {
            max_positions: Some(cap),
            ..Limits::default()
        };
        solution_steps(p, &params, &limits)
    }

    /// Leaving out the steps that commute with the last keeps depth-first
    /// iterative deepening optimal: on random boxes it finds solutions as
    /// short as BFS's.
    #[test]
    fn with_commuting_steps_left_out_dfid_is_as_short_as_bfs_on_random_boxes() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let mut compared = 0;
        for _ in 0..400 {
            let Some(p) = random_box(&mut rng) else {
                continue;
            };
            let Some(shortest) = steps(&p, Algorithm::Bfs, 20_000) else {
                continue;
            };
            if !(2..=9).contains(&shortest) {
                continue;
            }
            let found = steps(&p, Algorithm::Dfid, 2_000_000);
            assert_eq!(found, Some(shortest), "dfid on\n{p:?}");
            compared += 1;
        }
        assert!(compared > 50, "{compared} compared");
    }
}
