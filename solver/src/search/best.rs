//! The best positions of a search that stopped without a solution
//! (`solver solve --best-out`): the stored positions nearest the goal,
//! several and diverse, each with its path from the section's start walked
//! back through the visited set, so that the reasoner can restart from them
//! and concatenate the paths into one solution.

use crate::clock::Instant;
use std::collections::BinaryHeap;

use super::path::{lines, walk_back, Recorded};
use super::Engine;
use crate::encoding::PositionEncoding;
use crate::model::{Cell, Position};
use crate::moves::State;
use crate::solution::SolutionMove;
use crate::store::VisitedSet;

/// Candidates kept per position asked for, among which diverse ones are picked.
const POOL_PER_POSITION: usize = 16;

/// Keys scanned between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// One best position: its goal distance, where it is, and the solution lines
/// of the goal section it was reached in, from the section's start.
pub struct BestPosition {
    pub distance: u32,
    pub position: Position,
    pub lines: Vec<SolutionMove>,
}

/// Up to `count` of the best positions an algorithm without a visited set
/// of keys handed over as paths ([`Engine::best_paths`]: the fluid search),
/// in its order.
pub fn handed_over(e: &mut Engine, count: usize) -> Vec<BestPosition> {
    let paths = std::mem::take(&mut e.best_paths);
    paths
        .into_iter()
        .take(count)
        .filter_map(|path| {
            let last = path.last()?;
            Some(BestPosition {
                distance: e.geometry.goal_distance(last),
                position: last.to_position(e.puzzle),
                lines: lines(e, &path),
            })
        })
        .collect()
}

/// Up to `count` stored positions of least goal distance, diverse (each
/// differs from every other chosen one in at least two blocks' places, as
/// long as enough do), nearest first, with their paths from `start`.
pub fn nearest(
    e: &mut Engine,
    set: &VisitedSet,
    start: &State,
    recorded: Recorded,
    count: usize,
) -> Vec<BestPosition> {
    let pool = candidates(e, set, start, count * POOL_PER_POSITION);
    let positions: Vec<(u32, State, Position)> = pool
        .into_iter()
        .map(|(d, key)| {
            let mut s = start.clone();
            e.encoding.decode(&key, &mut s);
            let p = s.to_position(e.puzzle);
            (d, s, p)
        })
        .collect();
    let mut chosen: Vec<usize> = Vec::new();
    for diverse in [true, false] {
        for (i, (_, _, p)) in positions.iter().enumerate() {
            if chosen.len() == count || chosen.contains(&i) {
                continue;
            }
            if !diverse || chosen.iter().all(|&c| apart(&positions[c].2, p) >= 2) {
                chosen.push(i);
            }
        }
    }
    chosen.sort_by_key(|&i| positions[i].0);
    chosen
        .into_iter()
        .filter_map(|i| {
            let (d, s, p) = &positions[i];
            let path = walk_back(e, set, start, s, recorded)?;
            Some(BestPosition {
                distance: *d,
                position: p.clone(),
                lines: lines(e, &path),
            })
        })
        .collect()
}

/// The `size` stored keys of least goal distance, nearest first. Ties are
/// broken by the canonical position (its anchors in order), not by the
/// key: a key is encoding-specific, so breaking ties by it handed the
/// packed and the rank encodings different stalls from the same search
/// (American Pie's parking rule worked from one and not the other). One
/// pass over the set; a position is made canonical only when its distance
/// could enter the pool, and a key is copied only when it enters. The pass
/// ends early at [`Engine::grace_deadline`]: the keys seen so far still
/// give valid restarts, only perhaps not the very nearest.
fn candidates(
    e: &mut Engine,
    set: &VisitedSet,
    start: &State,
    size: usize,
) -> Vec<(u32, Vec<u64>)> {
    let mut heap: BinaryHeap<(u32, Vec<Cell>, Vec<u64>)> = BinaryHeap::new();
    let mut state = start.clone();
    let mut canonical = Position {
        anchors: Vec::new(),
    };
    let cutoff = e.grace_deadline();
    let (mut seen, mut late) = (0u64, false);
    let (encoding, geometry, puzzle) = (&mut e.encoding, &e.geometry, e.puzzle);
    set.for_each(|key, _| {
        seen += 1;
        late = late || (seen % CLOCK_EVERY == 0 && cutoff.is_some_and(|c| Instant::now() >= c));
        if late {
            return;
        }
        encoding.decode(key, &mut state);
        let d = geometry.goal_distance(&state);
        let full = heap.len() >= size;
        if full && heap.peek().is_some_and(|(worst, _, _)| d > *worst) {
            return;
        }
        canonical.anchors.clear();
        canonical.anchors.extend_from_slice(&state.anchors);
        puzzle.canonicalize(&mut canonical);
        let enters = !full
            || heap.peek().is_some_and(|(worst, anchors, _)| {
                (d, canonical.anchors.as_slice()) < (*worst, anchors.as_slice())
            });
        if enters {
            heap.push((d, canonical.anchors.clone(), key.to_vec()));
            if heap.len() > size {
                heap.pop();
            }
        }
    });
    heap.into_sorted_vec()
        .into_iter()
        .map(|(d, _, key)| (d, key))
        .collect()
}

/// Blocks in different places between two canonical positions.
fn apart(a: &Position, b: &Position) -> usize {
    a.anchors
        .iter()
        .zip(&b.anchors)
        .filter(|(x, y)| x != y)
        .count()
}
