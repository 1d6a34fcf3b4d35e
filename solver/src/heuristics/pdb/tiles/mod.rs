//! Additive pattern databases for tile puzzles with one blank (the 8- and
//! 15-puzzle and their kin on boards of at most 64 cells), built and looked
//! up without the general abstraction machinery, because these are the
//! tables Korf's instances need fast:
//!
//! - [`build`]: one breadth-first search over the pattern tiles' cells and
//!   the blank's region (the other tiles' moves are free, so the blank
//!   roams its region at no cost), storing per placement of the pattern
//!   tiles the least distance over the blank's positions: the reference
//!   builder, for any pattern;
//! - [`layers`]: the same search by blocks of placements sharing their
//!   cells, layer by layer on every thread: the builder for patterns of 2
//!   to 8 tiles (the 15-puzzle's 7-8 tables in seconds, not minutes);
//! - [`index`]: the perfect hash of a placement (cell set, then order), and
//!   [`rank`]: the k-permutation rank it uses for the order;
//! - [`values`]: entries as (distance - the tiles' Manhattan distance) / 2,
//!   in 4 bits;
//! - [`reflect`]: the second lookup of every table through the board's
//!   main diagonal when the goal is symmetric;
//! - [`additive`]: the heuristic, updated per move for depth-first search.

pub mod additive;
pub mod build;
pub mod index;
pub mod layers;
pub mod load;
pub mod rank;
pub mod reflect;
pub mod values;

use crate::geometry::Geometry;
use crate::model::{CellKind, Puzzle};

/// The facts of a one-blank tile puzzle the tables are built from.
#[derive(Clone, Debug)]
pub struct TileBoard {
    /// Board width and height in cells (walls included).
    pub width: u32,
    pub height: u32,
    /// Open (non-wall) cells as a bitboard, and their number.
    pub open: u64,
    pub n: u32,
    /// Per instance: its goal cell.
    pub goal: Vec<u32>,
    /// The one cell no tile's goal covers.
    pub blank_goal: u32,
    /// Cells in the first and in the last column (shifts must not wrap).
    first_column: u64,
    last_column: u64,
}

impl TileBoard {
    /// The facts of `puzzle` under the goal of `geometry` when it is a
    /// one-blank tile puzzle these tables handle: every block a unique 1x1
    /// free block with its own goal cell, no doors, exactly one open cell
    /// empty, at most 64 cells. `None` otherwise.
    pub fn new(puzzle: &Puzzle, geometry: &Geometry) -> Option<TileBoard> {
        let board = &puzzle.board;
        if board.len() > 64 || board.cells().contains(&CellKind::Door) {
            return None;
        }
        let unit = puzzle
            .types
            .iter()
            .zip(&puzzle.counts)
            .all(|(t, &n)| n == 1 && t.shape.size() == 1 && t.slider.is_none());
        let open = (0..board.len())
            .filter(|&c| board.kind(c) != CellKind::Wall)
            .fold(0u64, |m, c| m | 1 << c);
        let n = open.count_ones();
        if !unit || puzzle.instances() + 1 != n as usize {
            return None;
        }
        let mut goal = vec![u32::MAX; puzzle.instances()];
        for (range, anchors) in geometry.targets() {
            if range.len() == 1 && anchors.len() == 1 {
                goal[range.start] = u32::from(anchors[0]);
            }
        }
        let covered = goal.iter().try_fold(0u64, |m, &g| {
            (g != u32::MAX && m >> g & 1 == 0).then(|| m | 1 << g)
        })?;
        let width = board.width() as u32;
        let (first_column, last_column) = (0..board.len() as u32).fold((0, 0), |(f, l), c| {
            (
                f | u64::from(c % width == 0) << c,
                l | u64::from(c % width == width - 1) << c,
            )
        });
        Some(TileBoard {
            width,
            height: board.height() as u32,
            open,
            n,
            blank_goal: (open & !covered).trailing_zeros(),
            goal,
            first_column,
            last_column,
        })
    }

    /// The open cells next to any cell of `set`.
    #[inline]
    pub fn neighbors(&self, set: u64) -> u64 {
        let w = self.width;
        let sideways = ((set & !self.last_column) << 1) | ((set & !self.first_column) >> 1);
        (sideways | set << w | set >> w) & self.open
    }

    /// The cells the blank at `blank` reaches without moving a tile of
    /// `occupied` (the pattern's tiles): its region, `blank` included.
    #[inline]
    pub fn region(&self, blank: u32, occupied: u64) -> u64 {
        let free = self.open & !occupied;
        let mut region = 1u64 << blank;
        loop {
            let grown = region | (self.neighbors(region) & free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The position of `cell` among the open cells.
    #[inline]
    pub fn open_index(&self, cell: u32) -> u64 {
        u64::from((self.open & ((1u64 << cell) - 1)).count_ones())
    }

    /// Manhattan distance between two cells.
    #[inline]
    pub fn manhattan(&self, a: u32, b: u32) -> u32 {
        let (w, a, b) = (self.width as i32, a as i32, b as i32);
        ((a / w - b / w).abs() + (a % w - b % w).abs()) as u32
    }
}

#[cfg(test)]
mod tests;
