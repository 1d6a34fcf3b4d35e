//! The JSON result of `solver improve --json`: the first and the final
//! length of a solution that shortcuts shortened. The reasoner reads it after
//! running the improvement as a process, then replays the written solution
//! with `solver verify` like every other claimed solution.

use serde::{Deserialize, Serialize};

use crate::choices::Metric;

/// What `solver improve --json` prints (one line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImproveReport {
    /// The puzzle file as given.
    pub puzzle: String,
    /// `improved` when at least one shortcut was taken, else `unchanged`.
    pub status: String,
    /// The metric the shortcuts are shortest in.
    pub metric: Metric,
    /// The input solution's length in unit steps and in moves.
    pub first_steps: usize,
    pub first_moves: usize,
    /// The result's length in unit steps and in moves (never longer in `metric`).
    pub steps: usize,
    pub moves: usize,
    /// Shortcuts taken.
    pub shortcuts: usize,
    /// Positions expanded by all shortcut searches.
    pub positions_examined: u64,
    pub elapsed_ms: u64,
    /// `--time-limit` or `--max-total` stopped it before a round without
    /// shortcuts (the shortcuts taken so far are kept).
    pub limit_reached: bool,
    /// The result's moves in the verifier's format (`ID ROW,COL STEPS`).
    pub solution: Vec<String>,
}
