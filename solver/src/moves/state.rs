//! The mutable search state: anchors of every instance plus a cell-owner map.
//! Instances keep their identity while a state is expanded (moves apply and
//! undo in place); canonical order among interchangeable blocks is restored
//! only by the encodings.

use crate::model::{Position, Puzzle};

/// Marks an empty cell (or a wall) in [`State::owner`].
pub const NO_OWNER: u16 = u16::MAX;

/// One position being expanded, with the lookup tables the move generator needs.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Anchor cell of each instance (instances grouped by type, any order within a type).
    pub anchors: Vec<u16>,
    /// Instance covering each cell, or [`NO_OWNER`].
    pub owner: Vec<u16>,
}

/// Written out so that `clone_from` copies into the vectors already there
/// (a derived `Clone` allocates anew even in `clone_from`): A* keeps a
/// node's successors this way for their estimates (`search/estimates.rs`).
impl Clone for State {
    fn clone(&self) -> State {
        State {
            anchors: self.anchors.clone(),
            owner: self.owner.clone(),
        }
    }

    fn clone_from(&mut self, other: &State) {
        self.anchors.clone_from(&other.anchors);
        self.owner.clone_from(&other.owner);
    }
}

impl State {
    /// An empty state sized for `puzzle`; fill it with [`State::load`].
    pub fn new(puzzle: &Puzzle) -> State {
        State {
            anchors: vec![0; puzzle.instances()],
            owner: vec![NO_OWNER; puzzle.board.len()],
        }
    }

    /// Rebuilds the owner map from `anchors` (after a decoder wrote them).
    pub fn rebuild_owner(&mut self, shapes: &ShapeTable) {
        self.owner.fill(NO_OWNER);
        for &(i, off) in &shapes.instance_cells {
            self.owner[(self.anchors[i as usize] as i32 + off) as usize] = i;
        }
    }

    /// Sets the state to a model position.
    pub fn load(&mut self, position: &Position, shapes: &ShapeTable) {
        self.anchors.copy_from_slice(&position.anchors);
        self.rebuild_owner(shapes);
    }

    /// The canonical model position (anchors sorted within each type).
    pub fn to_position(&self, puzzle: &Puzzle) -> Position {
        let mut p = Position {
            anchors: self.anchors.clone(),
        };
        puzzle.canonicalize(&mut p);
        p
    }
}

/// Shapes as flat cell-index offsets (valid wherever the shape fits, since
/// fitting is checked with row/column bounds first), shared by the state, the
/// move generator and the encodings.
#[derive(Clone, Debug)]
pub struct ShapeTable {
    /// Cell-index offsets per type.
    offsets: Vec<Vec<i32>>,
    /// Type of each instance.
    instance_types: Vec<u16>,
    /// Every instance's cells as (instance, offset from its anchor), in
    /// instance order: one flat walk rebuilds the owner map (a third of
    /// the instructions of a loop over instances, types and their cells).
    instance_cells: Vec<(u16, i32)>,
}

impl ShapeTable {
    pub fn new(puzzle: &Puzzle) -> ShapeTable {
        let w = puzzle.board.width() as i32;
        let offsets: Vec<Vec<i32>> = puzzle
            .types
            .iter()
            .map(|t| {
                t.shape
                    .offsets()
                    .iter()
                    .map(|&(dr, dc)| dr * w + dc)
                    .collect()
            })
            .collect();
        let instance_types: Vec<u16> = (0..puzzle.instances())
            .map(|i| puzzle.instance_type(i) as u16)
            .collect();
        let instance_cells = instance_types
            .iter()
            .enumerate()
            .flat_map(|(i, &t)| offsets[t as usize].iter().map(move |&off| (i as u16, off)))
            .collect();
        ShapeTable {
            offsets,
            instance_types,
            instance_cells,
        }
    }

    /// Cell-index offsets of a type's cells from its anchor.
    pub fn cells(&self, block_type: usize) -> &[i32] {
        &self.offsets[block_type]
    }

    pub fn type_of(&self, instance: usize) -> usize {
        self.instance_types[instance] as usize
    }
}
