//! Solution reconstruction without a parent map. Each stored key carries a
//! small payload (BFS: depth mod 3, or the exact depth when prunings make the
//! search graph directed; A*: the cost g). Walking back from the goal, we
//! regenerate the neighbours of the current position (moves are reversible,
//! so its predecessors are among them) and step to one whose payload says it
//! was one layer (or some cost) closer to the start; when prunings make the
//! graph directed, the forward move is checked too. Then each pair of
//! consecutive positions becomes one solution line.

use super::Engine;
use crate::encoding::PositionEncoding;
use crate::moves::State;
use crate::solution::SolutionMove;
use crate::store::VisitedSet;

/// What the payload stored with each key means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// BFS on a symmetric graph: depth mod 3 (neighbours are at depth ±1).
    DepthMod3,
    /// BFS with directed prunings: the exact depth.
    Depth,
    /// A*: the best known cost g (a real path of that length exists).
    Cost,
    /// Nothing: a count (no goal, so no path is ever walked back) keeps
    /// presence alone, so that a key of up to 63 bits still fits a
    /// one-word slot (depth mod 3 takes two bits).
    Nothing,
}

impl Recorded {
    /// Payload for a position at depth / cost `d`.
    pub fn payload(self, d: u64) -> u64 {
        match self {
            Recorded::DepthMod3 => d % 3,
            Recorded::Depth | Recorded::Cost => d,
            Recorded::Nothing => 0,
        }
    }

    /// Payload bits this kind needs.
    pub fn bits(self) -> u32 {
        match self {
            Recorded::DepthMod3 => 2,
            Recorded::Depth | Recorded::Cost => 32,
            Recorded::Nothing => 1,
        }
    }

    fn precedes(self, candidate: u64, current: u64) -> bool {
        match self {
            Recorded::DepthMod3 => candidate == (current + 2) % 3,
            Recorded::Depth => candidate + 1 == current,
            Recorded::Cost => candidate < current,
            // No path can be walked back through presence alone.
            Recorded::Nothing => false,
        }
    }
}

/// Where a walk back reads each stored position's payload: a visited set
/// of keys, or a BFS's dense array (depths mod 3 by rank).
pub trait Payloads {
    /// The payload stored with `key`, if the position is stored.
    fn payload(&self, key: &[u64]) -> Option<u64>;
    /// Positions stored (a walk back longer than that is a bug).
    fn stored(&self) -> usize;
}

impl Payloads for VisitedSet {
    fn payload(&self, key: &[u64]) -> Option<u64> {
        self.get(key)
    }
    fn stored(&self) -> usize {
        self.len()
    }
}

/// The positions from `root` to `end`, found by walking back through `set`.
/// `None` only if the set does not hold such a path (a bug).
pub fn walk_back(
    e: &mut Engine,
    set: &impl Payloads,
    root: &State,
    end: &State,
    recorded: Recorded,
) -> Option<Vec<State>> {
    let words = e.key_words();
    let mut root_key = vec![0u64; words];
    e.encoding.encode(root, &mut root_key);
    let mut key = vec![0u64; words];
    let mut buf = Vec::new();
    let directed = e.prunings.directed();
    let mut current = end.clone();
    e.encoding.encode(&current, &mut key);
    let mut payload = set.payload(&key)?;
    let mut path = vec![current.clone()];
    let limit = set.stored() + 1;
    while key != root_key {
        if path.len() > limit {
            return None;
        }
        let mut state = current.clone();
        e.moves.generate(&state, &mut buf);
        let mut best: Option<(u64, State)> = None;
        for &m in &buf {
            e.moves.apply(&mut state, m);
            e.encoding.encode(&state, &mut key);
            if let Some(p) = set.payload(&key) {
                let better = best.as_ref().is_none_or(|(bp, _)| p < *bp);
                if recorded.precedes(p, payload)
                    && better
                    && (!directed || forward_edge(e, &state, &current))
                {
                    best = Some((p, state.clone()));
                }
            }
            e.moves.undo(&mut state, m);
            if best.is_some() && recorded != Recorded::Cost {
                break;
            }
        }
        let (p, previous) = best?;
        payload = p;
        e.encoding.encode(&previous, &mut key);
        path.push(previous.clone());
        current = previous;
    }
    path.reverse();
    Some(path)
}

/// The path from the start to the goal through `meet`, a position both
/// sides of a bidirectional search reached: the forward side's path to it
/// (walked back through its set to its root, the start), then the backward
/// side's reversed. `None` only if a set does not hold such a path (a bug).
pub fn join(
    e: &mut Engine,
    forward: (&VisitedSet, &State),
    backward: (&VisitedSet, &State),
    meet: &State,
    recorded: Recorded,
) -> Option<Vec<State>> {
    let mut path = walk_back(e, forward.0, forward.1, meet, recorded)?;
    let mut back = walk_back(e, backward.0, backward.1, meet, recorded)?;
    back.reverse();
    path.extend(back.into_iter().skip(1));
    Some(path)
}

/// True when the search, expanding `from`, would keep the move to `to`.
fn forward_edge(e: &mut Engine, from: &State, to: &State) -> bool {
    let words = e.key_words();
    let mut target = vec![0u64; words];
    let mut key = vec![0u64; words];
    e.encoding.encode(to, &mut target);
    let mut state = from.clone();
    e.prunings.prepare(&e.moves, &state);
    let mut buf = Vec::new();
    e.moves.generate(&state, &mut buf);
    for &m in &buf {
        e.moves.apply(&mut state, m);
        e.encoding.encode(&state, &mut key);
        let hit = key == target && e.prunings.keep(&e.moves, &state, m);
        e.moves.undo(&mut state, m);
        if hit {
            return true;
        }
    }
    false
}

/// Solution lines for a sequence of positions: each consecutive pair differs
/// by one block; consecutive moves of the same block become one line.
pub fn lines(e: &mut Engine, positions: &[State]) -> Vec<SolutionMove> {
    let puzzle = e.puzzle;
    let w = puzzle.board.width();
    let mut out: Vec<SolutionMove> = Vec::new();
    let mut last_end: Option<(char, usize)> = None;
    for pair in positions.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let Some((instance, to)) = moved_block(e, a, b) else {
            continue;
        };
        let from = a.anchors[instance] as usize;
        let id = puzzle.types[puzzle.instance_type(instance)].id;
        let steps = e.moves.path(a, instance, to).unwrap_or_default();
        match out.last_mut() {
            Some(line) if last_end == Some((id, from)) => line.steps.extend(steps),
            _ => out.push(SolutionMove {
                id,
                row: from / w,
                col: from % w,
                steps,
            }),
        }
        last_end = Some((id, to));
    }
    out
}

/// The instance of `a` that moved, and where to, to give `b`.
fn moved_block(e: &Engine, a: &State, b: &State) -> Option<(usize, usize)> {
    let puzzle = e.puzzle;
    for t in 0..puzzle.types.len() {
        let r = puzzle.type_range(t);
        let mut x: Vec<u16> = a.anchors[r.clone()].to_vec();
        let mut y: Vec<u16> = b.anchors[r.clone()].to_vec();
        x.sort_unstable();
        y.sort_unstable();
        if x == y {
            continue;
        }
        let gone = x.iter().find(|v| y.binary_search(v).is_err())?;
        let came = y.iter().find(|v| x.binary_search(v).is_err())?;
        let instance = r.clone().find(|&i| a.anchors[i] == *gone)?;
        return Some((instance, *came as usize));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::Recorded;

    /// A count's payload is presence alone: one bit, the same value at
    /// every depth (so a 63-bit key fits one word), and no position ever
    /// precedes another, so nothing could be walked back through it.
    #[test]
    fn a_count_records_presence_alone() {
        let r = Recorded::Nothing;
        assert_eq!(r.bits(), 1);
        assert!((0..10).all(|d| r.payload(d) == 0));
        assert!(!r.precedes(0, 0) && !r.precedes(0, 1));
        assert_eq!(Recorded::DepthMod3.bits(), 2);
        assert!(Recorded::DepthMod3.precedes(0, 1));
    }
}
