//! An abstraction of a puzzle for one pattern database: the same board with
//! some blocks kept, some merged into one uncounted 1x1 type (tile puzzles'
//! "other tiles") and the rest deleted. The abstract puzzle gets its own
//! move generator (the project's one), rank encoding (its table index, no
//! hash table) and goal; a real position maps to an abstract one by copying
//! the kept blocks' anchors.
//!
//! Deleting blocks only removes obstacles and merging makes blocks
//! interchangeable, so every real move sequence maps to an abstract one that
//! is no longer: abstract distances are lower bounds. Only moves of counted
//! blocks cost 1, so patterns whose counted blocks are disjoint may be added.

use crate::encoding::{PositionEncoding, RankEncoding};
use crate::geometry::Geometry;
use crate::model::{BlockType, Goal, GoalRequirement, Position, Puzzle, Shape};
use crate::moves::{MoveGenerator, State};
use crate::params::Metric;

/// Which real instances a pattern keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Kept instances whose moves count (ascending real instance indices).
    pub counted: Vec<usize>,
    /// Instances merged into one interchangeable 1x1 type whose moves cost
    /// nothing (empty for an abstraction that simply deletes the others).
    pub merged: Vec<usize>,
}

/// One abstract puzzle, ready to be searched and indexed.
pub struct Abstraction {
    pub puzzle: Puzzle,
    pub moves: MoveGenerator,
    pub encoding: RankEncoding,
    pub geometry: Geometry,
    /// Per abstract instance: the real instance it copies.
    sources: Vec<usize>,
    /// Per abstract instance: its moves cost 1.
    pub counted: Vec<bool>,
    /// Table entries: the number of rank values.
    pub size: u64,
    scratch: State,
    key: Vec<u64>,
}

/// The identifier of the merged "other tiles" type (never parsed).
const MERGED_ID: char = '\u{b7}';

impl Abstraction {
    /// Builds the abstraction of `puzzle` (its goal given by `geometry`)
    /// that keeps `pattern`. `None` when its table would have 2^32 entries
    /// or more.
    pub fn new(
        puzzle: &Puzzle,
        geometry: &Geometry,
        pattern: &Pattern,
        metric: Metric,
    ) -> Option<Abstraction> {
        let mut types = Vec::new();
        let mut counts = Vec::new();
        let mut sources = Vec::new();
        let mut type_map = vec![None; puzzle.types.len()];
        for (t, ty) in puzzle.types.iter().enumerate() {
            let kept: Vec<usize> = puzzle
                .type_range(t)
                .filter(|i| pattern.counted.contains(i))
                .collect();
            if !kept.is_empty() {
                type_map[t] = Some(types.len());
                types.push(ty.clone());
                counts.push(kept.len());
                sources.extend(kept);
            }
        }
        let counted_len = sources.len();
        if !pattern.merged.is_empty() {
            types.push(BlockType {
                id: MERGED_ID,
                shape: Shape::unit(),
                slider: None,
                is_master: false,
            });
            counts.push(pattern.merged.len());
            sources.extend(&pattern.merged);
        }
        let start = Position {
            anchors: sources.iter().map(|&i| puzzle.start.anchors[i]).collect(),
        };
        let goal = abstract_goal(puzzle, geometry, &type_map, &counts);
        let abstract_puzzle = Puzzle::new(puzzle.board.clone(), types, counts, start, vec![goal]);
        let moves = MoveGenerator::new(&abstract_puzzle, metric, &[]);
        let encoding = RankEncoding::new(&abstract_puzzle, moves.shapes());
        let bound = encoding.bound();
        if bound.iter().skip(1).any(|&w| w != 0) || bound[0] >= 1 << 32 {
            return None;
        }
        let size = bound[0];
        let geometry = Geometry::new(&abstract_puzzle, abstract_puzzle.goals.first());
        let n = sources.len();
        Some(Abstraction {
            scratch: State::new(&abstract_puzzle),
            key: vec![0; encoding.words()],
            puzzle: abstract_puzzle,
            moves,
            encoding,
            geometry,
            sources,
            counted: (0..n).map(|i| i < counted_len).collect(),
            size,
        })
    }

    /// The table index of the real `state`'s abstraction.
    #[inline]
    pub fn index(&mut self, state: &State) -> usize {
        for (a, &i) in self.sources.iter().enumerate() {
            self.scratch.anchors[a] = state.anchors[i];
        }
        self.scratch.rebuild_owner(self.moves.shapes());
        self.encoding.encode(&self.scratch, &mut self.key);
        self.key[0] as usize
    }

    /// The table index of an abstract state.
    #[inline]
    pub fn rank(&mut self, state: &State) -> usize {
        self.encoding.encode(state, &mut self.key);
        self.key[0] as usize
    }

    /// Sets `state` to the abstract position of table index `rank`.
    #[inline]
    pub fn unrank(&mut self, rank: usize, state: &mut State) {
        self.key.fill(0);
        self.key[0] = rank as u64;
        self.encoding.decode(&self.key, state);
    }
}

/// The real goal's requirements on the kept types (every goal type is kept
/// whole, or not at all, by the pattern choice).
fn abstract_goal(
    puzzle: &Puzzle,
    geometry: &Geometry,
    type_map: &[Option<usize>],
    counts: &[usize],
) -> Goal {
    let requirements = geometry
        .targets()
        .iter()
        .filter_map(|(range, anchors)| {
            let t = type_map[puzzle.instance_type(range.start)]?;
            (counts[t] >= anchors.len()).then(|| GoalRequirement {
                block_type: t,
                anchors: anchors.clone(),
            })
        })
        .collect();
    Goal { requirements }
}
