//! The file `solver solve --best-out FILE` writes: the positions nearest the
//! goal that a search stopped without a solution had reached, each with the
//! moves that reach it and the puzzle restarted from it, for the reasoner's
//! restarts from the best (`reasoner/src/restart.rs`).

use serde::{Deserialize, Serialize};

/// The whole `--best-out` file (JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BestPositions {
    /// The puzzle file the search ran on.
    pub puzzle: String,
    /// Nearest the goal first; empty when the puzzle was solved or the
    /// algorithm keeps no visited set (IDA*, bidirectional search).
    pub positions: Vec<BestPosition>,
}

/// One position a stopped search reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestPosition {
    /// The master's goal distance (Manhattan, as `best_distance`).
    pub distance: u32,
    /// Unit steps of `solution`.
    pub steps: u64,
    /// Goal sections the position has already reached.
    pub goals_reached: usize,
    /// Solution lines from the puzzle's start to this position.
    pub solution: Vec<String>,
    /// The puzzle (native format) with this position as its start and the
    /// goal sections not yet reached.
    pub puzzle: String,
}
