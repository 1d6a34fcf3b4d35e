//! One shortcut search: a breadth-first search from one position of a
//! solution toward the positions that follow it within a window, bounded in
//! depth and in positions. The first time BFS meets a later position it has
//! the shortest way there (within the bound); the search keeps the hit that
//! saves the most and stops as soon as no deeper hit could save more.
//!
//! Positions live as keys of the search's encoding in one flat arena with
//! their parent's index (no allocation per position); the path is decoded
//! only for the winning hit.

use crate::clock::Instant;
use std::collections::HashMap;

use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::search::Engine;
use crate::store::{Insert, VisitedSet};

/// The bounds of one shortcut search.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Deepest level searched (a shortcut has at most this many actions).
    pub max_depth: usize,
    /// Positions expanded at most.
    pub max_positions: u64,
    /// The whole improvement's deadline.
    pub deadline: Option<Instant>,
}

/// A shortcut found: the positions after `from`, ending on the path's
/// position `to`.
pub struct Shortcut {
    /// Index in the path of the position the shortcut ends on.
    pub to: usize,
    /// The positions of the shortcut, `from` excluded, the end included.
    pub states: Vec<State>,
}

/// What one search found and what it cost.
pub struct Outcome {
    pub shortcut: Option<Shortcut>,
    pub examined: u64,
    /// The deadline passed.
    pub out_of_time: bool,
}

/// Searches from `from` (the path's position `at`) for the shortest way to
/// any `targets` key (a later path index), taking the hit with the largest
/// saving `target - at - depth`, which must be positive.
pub fn search(
    e: &mut Engine,
    from: &State,
    at: usize,
    targets: &HashMap<&[u64], usize>,
    bounds: Bounds,
) -> Outcome {
    let words = e.key_words();
    let last = targets.values().copied().max().unwrap_or(at);
    let mut keys: Vec<u64> = vec![0; words];
    e.encoding.encode(from, &mut keys[..words]);
    let mut parents: Vec<u32> = vec![u32::MAX];
    let mut visited = VisitedSet::new(e.encoding.key_bits(), 0);
    visited.insert(&keys[..words], 0);
    // (saving, node, target)
    let mut best: Option<(usize, usize, usize)> = None;
    let consider = |node: usize, key: &[u64], depth: usize, best: &mut Option<_>| {
        if let Some(&j) = targets.get(key) {
            let saving = (j - at).saturating_sub(depth);
            if saving > 0 && best.is_none_or(|b: (usize, usize, usize)| saving > b.0) {
                *best = Some((saving, node, j));
            }
        }
    };
    consider(0, &keys[..words], 0, &mut best);
    let (mut state, mut key, mut list) = (from.clone(), vec![0u64; words], Vec::new());
    let (mut examined, mut out_of_time) = (0u64, false);
    let (mut layer_start, mut depth) = (0usize, 0usize);
    'layers: while depth < bounds.max_depth && layer_start < parents.len() {
        let best_saving = best.map_or(0, |b| b.0);
        if (last - at).saturating_sub(depth + 1) <= best_saving {
            break;
        }
        let layer_end = parents.len();
        for node in layer_start..layer_end {
            if examined >= bounds.max_positions {
                break 'layers;
            }
            let stop = || {
                bounds.deadline.is_some_and(|d| Instant::now() >= d)
                    || crate::search::interrupted().is_some()
            };
            if examined % 64 == 63 && stop() {
                out_of_time = true;
                break 'layers;
            }
            examined += 1;
            e.encoding
                .decode(&keys[node * words..(node + 1) * words], &mut state);
            e.moves.generate(&state, &mut list);
            for &m in &list {
                e.moves.apply(&mut state, m);
                e.encoding.encode(&state, &mut key);
                e.moves.undo(&mut state, m);
                if matches!(visited.insert(&key, 0), Insert::New) {
                    let child = parents.len();
                    parents.push(node as u32);
                    keys.extend_from_slice(&key);
                    consider(child, &key, depth + 1, &mut best);
                }
            }
        }
        layer_start = layer_end;
        depth += 1;
    }
    let shortcut = best.map(|(_, node, to)| Shortcut {
        to,
        states: decode_path(e, &keys, &parents, node),
    });
    Outcome {
        shortcut,
        examined,
        out_of_time,
    }
}

/// The positions from the root's child to `node`, decoded.
fn decode_path(e: &mut Engine, keys: &[u64], parents: &[u32], mut node: usize) -> Vec<State> {
    let words = e.key_words();
    let mut states = Vec::new();
    while parents[node] != u32::MAX {
        let mut s = State::new(e.puzzle);
        e.encoding
            .decode(&keys[node * words..(node + 1) * words], &mut s);
        states.push(s);
        node = parents[node] as usize;
    }
    states.reverse();
    states
}
