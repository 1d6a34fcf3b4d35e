//! The JSON result of `solver solve --json`: what the solver prints and the
//! reasoner reads. Documented field by field in `docs/json-result.md`; the
//! contract test (`tests/tests/json_contract.rs`) checks the real output of
//! every status against that page and against the reasoner's parser.

use serde::{Deserialize, Serialize};

use crate::params::{Limits, SearchParams};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A goal was reached; the solution is verified.
    Solved,
    /// Every position reachable under these settings was examined: a proof
    /// that no solution exists with these settings (not in general).
    NoSolution,
    /// A position, memory or time limit stopped the search.
    LimitReached,
}

impl Status {
    /// Every status the solver reports.
    pub const ALL: [Status; 3] = [Status::Solved, Status::NoSolution, Status::LimitReached];

    /// The name in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::LimitReached => "limit_reached",
        }
    }

    /// Process exit code: 0 solved, 1 otherwise.
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Solved => 0,
            Status::NoSolution | Status::LimitReached => 1,
        }
    }
}

/// One puzzle's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// Puzzle file (or `-`), and the puzzle's name when the file gives one.
    pub puzzle: String,
    pub name: Option<String>,
    pub status: Status,
    /// Solution length in steps (one block, one cell), when solved.
    pub steps: Option<u64>,
    /// Solution length in moves (maximal runs of one block), when solved.
    pub moves: Option<u64>,
    /// Positions taken from the open list and expanded.
    pub positions_examined: u64,
    /// Distinct positions stored in the visited set at the end.
    pub positions_stored: u64,
    /// Smallest goal distance of the master (Manhattan) seen.
    pub best_distance: u32,
    /// Positions examined when `best_distance` was first reached.
    pub best_distance_positions: u64,
    /// Goal distance at the start.
    pub start_distance: u32,
    /// Goal sections reached, of `goals_total` (subgoal sequences).
    pub goals_reached: usize,
    pub goals_total: usize,
    pub elapsed_ms: u64,
    pub peak_memory_bytes: u64,
    /// Most bytes a spilled BFS (`--spill DIR`) held on disk at once; 0 when
    /// the search stayed in memory.
    #[serde(default)]
    pub spill_disk_bytes: u64,
    /// Bits per stored key and encoding actually used.
    pub encoding: String,
    /// Why that encoding: asked for, or what `--encoding auto` weighed.
    #[serde(default)]
    pub encoding_reason: String,
    pub key_bits: u32,
    /// What stopped the search when `status` is `limit_reached`.
    pub limit: Option<String>,
    /// With `limit_reached`, when the search was optimal (BFS, bidir, A*
    /// and IDA* with an admissible heuristic at weight 1, NBS) on a puzzle
    /// of one goal section: no solution is shorter than this (in the
    /// metric). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    /// With `solved`: the search was optimal (as for `lower_bound`) and
    /// pruned nothing, so no solution is shorter in `params.metric`.
    #[serde(default)]
    pub optimal: bool,
    /// Why `params.algorithm`: asked for (`--algorithm`), or what the solver
    /// weighed when none was given, or under `--optimal`.
    #[serde(default)]
    pub algorithm_reason: String,
    pub params: SearchParams,
    pub limits: Limits,
    /// The solution, one move per entry in the verifier's format, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
}
