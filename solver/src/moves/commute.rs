//! Commutative move pruning for breadth-first search under `--metric
//! steps`: of two steps of different blocks that can be made in either
//! order, only one order is generated.
//!
//! A parent `s` reached by the step `X` (block `A`) would generate `s + Z`
//! for a step `Z` of another block `B`. If `Z` does not enter a cell `X`
//! vacated, `Z` was legal before `X` too and `X` after `Z`, so `s + Z` is
//! also `u + X` with `u = (s - X) + Z`. Steps are ranked by their anchors
//! after and before (a total order, the same in every position), and `Z`
//! is left out when it ranks below `X`.
//!
//! Why no position is lost and every depth stays exact, provided every
//! position BFS finds at a depth is stored and expanded (not so where a
//! `forbidden` set, `--keep-visited`'s earlier sections, keeps some out of
//! the queue: there only the step back is left out): take a position
//! `w` at depth `k + 1` and, among the pairs (position `s` at depth `k`,
//! step `Z`) with `s + Z = w`, the one whose step ranks highest (the rank
//! names the step and so the pair). Were it left out, `u + X = w` with `u`
//! at depth `k` (a step from `s - X` at `k - 1`, and a step from `w`) and
//! `X` ranking above `Z`: a pair ranking higher. So the highest pair is
//! generated, whatever step each position was stored with (a position's
//! tag is the last step of some shortest path to it, which is all `X`
//! needs), and BFS stores every position at its depth. Only the order in
//! which a layer's positions are first found changes, so a search stopped
//! midway through a layer may stop at other positions; a section of a
//! subgoal sequence may then end at another goal position of the same
//! depth, and the sections after it start elsewhere, so the sequence's
//! total may differ either way (each section stays shortest).
//!
//! Depth-first searches without a visited set (IDA\*, DFID) use the same
//! rule with the path's last step: swapping two neighbouring commuting
//! steps keeps their ranks, so any path can be reordered, one swap at a
//! time, into one where no step follows a commuting step ranking above
//! it, with the same length and end; the search walks that one.
//!
//! On Sunshine most steps of a position are of blocks far apart, and about
//! half of them rank below the last: each one left out is a successor not
//! encoded, hashed and looked up (`experiments/bench.md`).

use super::stamps::Stamps;

/// The last step of the parent being expanded, as the generator checks
/// the steps against it.
#[derive(Clone, Debug)]
pub(super) struct Commute {
    /// The last step's rank ([`rank`]); 0 when nothing is left out (no
    /// step ranks below 0).
    rank: u32,
    /// The instance that made it.
    instance: usize,
    /// Boards of up to 64 cells: the cells it vacated, as bits (larger
    /// boards mark them in the generator's [`Stamps`]).
    bits: u64,
    /// Steps left out since the last [`Commute::clear`].
    pub left_out: usize,
}

/// A step's rank: its anchor after, then before.
#[inline(always)]
pub(super) fn rank(from: usize, to: usize) -> u32 {
    (to as u32) << 16 | from as u32
}

impl Commute {
    /// Nothing left out.
    pub fn new() -> Commute {
        Commute {
            rank: 0,
            instance: usize::MAX,
            bits: 0,
            left_out: 0,
        }
    }

    /// Leaves nothing out (the parent has no last step, or it is not kept).
    #[inline]
    pub fn clear(&mut self) {
        self.rank = 0;
        self.left_out = 0;
    }

    /// Checks the steps against `instance`'s step from anchor `from` to
    /// `to`; the cells it vacated follow ([`Commute::vacated`]) unless the
    /// generator tracks them itself.
    pub fn after(&mut self, instance: usize, from: usize, to: usize) {
        self.rank = rank(from, to);
        self.instance = instance;
        self.left_out = 0;
    }

    /// The cells the last step vacated: as bits on `small` boards, else
    /// marked in `marks`.
    pub fn vacated(&mut self, cells: impl Iterator<Item = usize>, small: bool, marks: &mut Stamps) {
        if small {
            self.bits = cells.fold(0, |m, c| m | 1 << c);
            return;
        }
        marks.clear();
        cells.for_each(|c| marks.mark(c));
    }

    /// Whether the step of `instance` from `from` to `to` ranks below the
    /// last step and belongs to another block: then it is left out unless
    /// it enters a vacated cell ([`Commute::enters_bits`],
    /// [`Commute::enters_cells`]).
    #[inline(always)]
    pub fn ranks_below(&self, instance: usize, from: usize, to: usize) -> bool {
        rank(from, to) < self.rank && instance != self.instance
    }

    /// Small boards: whether a step newly covering the cells `edge` (bits)
    /// enters a vacated cell.
    #[inline(always)]
    pub fn enters_bits(&self, edge: u64) -> bool {
        edge & self.bits != 0
    }

    /// Larger boards: whether a step from `from` newly covering the cells
    /// `from + edge` enters a vacated cell (marked in `marks` by
    /// [`Commute::after`]).
    #[inline(always)]
    pub fn enters_cells(&self, from: usize, edge: &[i32], marks: &Stamps) -> bool {
        edge.iter()
            .any(|&off| marks.marked((from as i32 + off) as usize))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::hash_map::Entry;
    use std::collections::HashMap;

    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::model::Puzzle;
    use crate::moves::{Move, MoveGenerator, Skip, State};
    use crate::params::Metric;
    use crate::search::test_boxes::random_box;

    /// The positions within `depth` steps of the start with their
    /// distances, by breadth-first search over every move.
    fn within(p: &Puzzle, moves: &mut MoveGenerator, depth: usize) -> HashMap<Vec<u16>, usize> {
        let mut seen = HashMap::new();
        let mut state = State::new(p);
        state.load(&p.start, moves.shapes());
        seen.insert(state.to_position(p).anchors, 0);
        let mut layer = vec![state];
        let mut list = Vec::new();
        for d in 1..=depth {
            let mut next = Vec::new();
            for s in &layer {
                let mut s = s.clone();
                moves.generate(&s, &mut list);
                for &m in &list.clone() {
                    moves.apply(&mut s, m);
                    if let Entry::Vacant(v) = seen.entry(s.to_position(p).anchors) {
                        v.insert(d);
                        next.push(s.clone());
                    }
                    moves.undo(&mut s, m);
                }
            }
            layer = next;
        }
        seen
    }

    /// A depth-first walk to `depth` leaving out, after each step, the step
    /// back and the steps commuting with it that rank below it; the least
    /// depth at which it meets each position.
    fn walk(
        p: &Puzzle,
        moves: &mut MoveGenerator,
        state: &mut State,
        last: Option<Move>,
        depth: usize,
        met: &mut HashMap<Vec<u16>, usize>,
    ) {
        let key = state.to_position(p).anchors;
        let at = met.entry(key).or_insert(usize::MAX);
        *at = (*at).min(depth);
        if depth == DEPTH {
            return;
        }
        let skip = last.map_or(Skip::NONE, |m| {
            Skip::last_step(m.instance as usize, moves.step_direction(m).unwrap() ^ 1)
        });
        let mut list = Vec::new();
        moves.generate_skipping(state, skip, &mut list);
        for m in list {
            moves.apply(state, m);
            walk(p, moves, state, Some(m), depth + 1, met);
            moves.undo(state, m);
        }
    }

    const DEPTH: usize = 4;

    /// On random boxes, a walk that leaves out the commuting steps still
    /// meets every position within its depth, each at its distance: every
    /// sequence of steps can be reordered into one it walks.
    #[test]
    fn leaving_out_commuting_steps_keeps_every_position_at_its_distance() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut checked = 0;
        for _ in 0..60 {
            let Some(p) = random_box(&mut rng) else {
                continue;
            };
            let mut moves = MoveGenerator::new(&p, Metric::Steps, &[]);
            let want = within(&p, &mut moves, DEPTH);
            let mut state = State::new(&p);
            state.load(&p.start, moves.shapes());
            let mut met = HashMap::new();
            walk(&p, &mut moves, &mut state, None, 0, &mut met);
            assert_eq!(met, want, "\n{p:?}");
            checked += (want.len() > 20) as usize;
        }
        assert!(checked > 20, "{checked} boxes with some room");
    }
}
