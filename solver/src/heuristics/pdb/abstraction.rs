//! An abstraction of a puzzle for one pattern database: the same board with
//! some blocks kept, some merged into one uncounted 1x1 type (tile puzzles'
//! "other tiles") and the rest deleted. The abstract puzzle gets its own
//! move generator (the project's one), table index (a permutation rank, no
//! hash table: [`index`]) and goal; a real position maps to an abstract one
//! by copying the kept blocks' anchors.
//!
//! Deleting blocks only removes obstacles and merging makes blocks
//! interchangeable, so every real move sequence maps to an abstract one that
//! is no longer: abstract distances are lower bounds. Only moves of counted
//! blocks cost 1, so patterns whose counted blocks are disjoint may be added.

pub mod index;

use crate::geometry::Geometry;
use crate::model::{BlockType, Goal, GoalRequirement, Position, Puzzle, Shape};
use crate::moves::{MoveGenerator, ShapeTable, State};
use crate::params::Metric;
use index::TableIndex;

/// Which real instances a pattern keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Kept instances whose moves count (ascending real instance indices).
    pub counted: Vec<usize>,
    /// Instances merged into one interchangeable 1x1 type whose moves cost
    /// nothing (empty for an abstraction that simply deletes the others).
    pub merged: Vec<usize>,
}

/// One abstract puzzle, ready to be searched and indexed (cloned per
/// thread of a build: the move generator and the index keep scratch).
#[derive(Clone)]
pub struct Abstraction {
    pub puzzle: Puzzle,
    pub moves: MoveGenerator,
    pub index: TableIndex,
    pub geometry: Geometry,
    /// Per abstract instance: the real instance it copies.
    sources: Vec<usize>,
    /// Per abstract instance: its moves cost 1.
    pub counted: Vec<bool>,
    /// Table entries: the number of index values.
    pub size: u64,
    scratch: State,
    key: Vec<u64>,
}

/// The identifier of the merged "other tiles" type (never parsed).
const MERGED_ID: char = '\u{b7}';

/// The abstract puzzle of a pattern, before its move generator is built.
struct Parts {
    puzzle: Puzzle,
    sources: Vec<usize>,
    counted_len: usize,
}

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
        let Parts {
            puzzle: abstract_puzzle,
            sources,
            counted_len,
        } = Parts::new(puzzle, geometry, pattern);
        let moves = MoveGenerator::new(&abstract_puzzle, metric, &[]);
        let index = TableIndex::new(&abstract_puzzle, moves.shapes())?;
        let size = index.size();
        let geometry = Geometry::new(&abstract_puzzle, abstract_puzzle.goals.first());
        let n = sources.len();
        Some(Abstraction {
            scratch: State::new(&abstract_puzzle),
            key: vec![0; 2],
            puzzle: abstract_puzzle,
            moves,
            index,
            geometry,
            sources,
            counted: (0..n).map(|i| i < counted_len).collect(),
            size,
        })
    }

    /// The number of entries the table of `pattern` would have (`None`:
    /// 2^32 or more), without building its move generator: what the pattern
    /// choice weighs, so that each abstraction is built once, for its table.
    pub fn size(puzzle: &Puzzle, geometry: &Geometry, pattern: &Pattern) -> Option<u64> {
        let parts = Parts::new(puzzle, geometry, pattern);
        TableIndex::new(&parts.puzzle, &ShapeTable::new(&parts.puzzle)).map(|i| i.size())
    }

    /// The table index of the real `state`'s abstraction.
    #[inline]
    pub fn index(&mut self, state: &State) -> usize {
        for (a, &i) in self.sources.iter().enumerate() {
            self.scratch.anchors[a] = state.anchors[i];
        }
        self.scratch.rebuild_owner(self.moves.shapes());
        self.index.rank(&self.scratch, &mut self.key)
    }

    /// The table index of an abstract state.
    #[inline]
    pub fn rank(&mut self, state: &State) -> usize {
        self.index.rank(state, &mut self.key)
    }

    /// Sets `state` to the abstract position of table index `rank`.
    #[inline]
    pub fn unrank(&mut self, rank: usize, state: &mut State) {
        self.index.unrank(rank, state, &mut self.key);
    }
}

impl Parts {
    /// The kept types in the real order, except that a kept master goes last
    /// (the split index wants it there), then the merged type if any.
    fn new(puzzle: &Puzzle, geometry: &Geometry, pattern: &Pattern) -> Parts {
        let mut types = Vec::new();
        let mut counts = Vec::new();
        let mut sources = Vec::new();
        let mut type_map = vec![None; puzzle.types.len()];
        let master = puzzle.master().filter(|_| pattern.merged.is_empty());
        let order = (0..puzzle.types.len())
            .filter(|&t| Some(t) != master)
            .chain(master);
        for t in order {
            let kept: Vec<usize> = puzzle
                .type_range(t)
                .filter(|i| pattern.counted.contains(i))
                .collect();
            if !kept.is_empty() {
                type_map[t] = Some(types.len());
                types.push(puzzle.types[t].clone());
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
        Parts {
            puzzle: Puzzle::new(puzzle.board.clone(), types, counts, start, vec![goal]),
            sources,
            counted_len,
        }
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
