//! The solver's parameter space (thesis §1.2.1, §3.2.1): everything that
//! changes how a search runs. Serialized into every JSON result so that a run
//! can be repeated exactly.

use serde::{Deserialize, Serialize};

/// Search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Breadth-first search: optimal, exhaustive.
    Bfs,
    /// A* with `f = g + weight * h`.
    Astar,
    /// Iterative-deepening A*.
    Ida,
    /// Bidirectional breadth-first search (goal must fix every block).
    Bidir,
}

/// Heuristic estimate of the distance to the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum HeuristicKind {
    /// Manhattan distance of the goal blocks (the master) to their goal.
    H0,
    /// h0 times an estimate of the steps needed per master step.
    H1,
    /// Overestimate from master distance, spaces' distance to the master and
    /// space value, weighted by `--h2 A,B,C`.
    H2,
    /// Sum of goal blocks' Manhattan distances plus linear conflict; admissible.
    Manhattan,
}

/// Resting-block pruning (thesis §3.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Resting {
    Off,
    Relaxed,
    Strict,
}

/// What one action is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One block moves one cell.
    Steps,
    /// One block moves one or more cells, also around corners.
    Moves,
}

/// How positions are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum EncodingKind {
    /// The narrower of `rank` and `packed` for this puzzle.
    Auto,
    /// Lexicographic multiset permutation rank (thesis §7.1.4).
    Rank,
    /// Per-type combination ranks of anchors, bit-packed.
    Packed,
}

/// Every parameter of one search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub heuristic: HeuristicKind,
    /// Weight on h in A* (`f = g + weight * h`).
    pub weight: f64,
    /// The three weights of h2: master distance, space-value allowance, spaces' distance.
    pub h2: [f64; 3],
    /// IDA*'s first path limit (default: h of the start).
    pub ida_limit: Option<u32>,
    /// Space-value cutoff: positions with a larger space value are never visited.
    pub space_value: Option<u64>,
    pub resting: Resting,
    pub master_never_away: bool,
    /// Identifiers of block types that never move.
    pub lock: Vec<char>,
    pub metric: Metric,
    pub encoding: EncodingKind,
    /// Keep the visited set between subgoals instead of clearing it.
    pub keep_visited: bool,
    pub threads: usize,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::Bfs,
            heuristic: HeuristicKind::H0,
            weight: 1.0,
            h2: [1.0, 0.0, 1.0],
            ida_limit: None,
            space_value: None,
            resting: Resting::Off,
            master_never_away: false,
            lock: Vec::new(),
            metric: Metric::Steps,
            encoding: EncodingKind::Auto,
            keep_visited: false,
            threads: 1,
        }
    }
}

/// Resource limits of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub max_positions: Option<u64>,
    pub max_memory: Option<u64>,
    pub time_limit_seconds: Option<f64>,
}
