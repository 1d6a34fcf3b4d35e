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

/// The values a numeric flag accepts, both ends included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRange {
    /// A whole number.
    Whole { min: u64, max: u64 },
    /// A finite real number (not NaN, not infinite).
    Real { min: f64, max: f64 },
    /// A byte count, plain or with a suffix K, M, G or T (powers of 1024).
    Bytes { min: u64, max: u64 },
}

/// How many values one use of a flag carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    One,
    /// Exactly this many, separated by commas (`--h2 A,B,C`).
    Exactly(usize),
    /// One or more, separated by commas (`bench --threads 1,2`).
    List,
}

/// One numeric flag of `solver`: its name, where it applies, the values it
/// accepts and what it means. [`NUMERIC_FLAGS`] is the one declaration the
/// command line's value parsers and the documentation's range table derive from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumericFlag {
    /// The long flag without its dashes.
    pub name: &'static str,
    /// The subcommands that take it.
    pub commands: &'static str,
    pub arity: Arity,
    pub range: ValueRange,
    pub meaning: &'static str,
}

const GIB: u64 = 1 << 30;
const TIB: u64 = 1 << 40;

/// Every numeric flag of `solver` with its valid range. Values outside are
/// refused when the command line is read (exit 2, naming flag and range);
/// the upper ends keep every valid value from panicking, overflowing or
/// allocating in proportion to the value.
pub const NUMERIC_FLAGS: &[NumericFlag] = &[
    NumericFlag {
        name: "weight",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Real { min: 0.0, max: 1e6 },
        meaning: "weight W on the heuristic: f = g + W*h",
    },
    NumericFlag {
        name: "h2",
        commands: "solve, count",
        arity: Arity::Exactly(3),
        range: ValueRange::Real { min: 0.0, max: 1e6 },
        meaning: "h2's weights A,B,C (each in the range)",
    },
    NumericFlag {
        name: "ida-limit",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u32::MAX as u64,
        },
        meaning: "IDA*'s first f bound",
    },
    NumericFlag {
        name: "space-value",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u64::MAX,
        },
        meaning: "space-value cutoff",
    },
    NumericFlag {
        name: "threads",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Whole { min: 1, max: 256 },
        meaning: "worker threads (BFS)",
    },
    NumericFlag {
        name: "max-positions",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 1,
            max: u64::MAX,
        },
        meaning: "stop after examining N positions",
    },
    NumericFlag {
        name: "max-memory",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Bytes {
            min: 1 << 20,
            max: 1024 * TIB,
        },
        meaning: "stop before the search holds more bytes",
    },
    NumericFlag {
        name: "time-limit",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Real { min: 0.0, max: 1e9 },
        meaning: "stop after S seconds",
    },
    NumericFlag {
        name: "budget-bytes",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Bytes {
            min: 0,
            max: 64 * GIB,
        },
        meaning: "bytes of positions the features' BFS may store",
    },
    NumericFlag {
        name: "budget-work",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u64::MAX,
        },
        meaning: "work units the features' BFS may use",
    },
    NumericFlag {
        name: "packing-calls",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u64::MAX,
        },
        meaning: "recursive calls of the packing bound",
    },
    NumericFlag {
        name: "threads",
        commands: "bench",
        arity: Arity::List,
        range: ValueRange::Whole { min: 1, max: 256 },
        meaning: "thread counts to measure",
    },
    NumericFlag {
        name: "repeat",
        commands: "bench",
        arity: Arity::One,
        range: ValueRange::Whole { min: 1, max: 1000 },
        meaning: "runs per configuration",
    },
    NumericFlag {
        name: "width",
        commands: "show, solve, count, verify, features, import",
        arity: Arity::One,
        // The board's largest side (model::MAX_SIDE).
        range: ValueRange::Whole { min: 1, max: 128 },
        meaning: "board width for --from tiles",
    },
];

/// The declaration of flag `name` as `command` takes it.
///
/// # Panics
/// When the table has no such flag: a programming error caught by every test.
pub fn numeric_flag(command: &str, name: &str) -> &'static NumericFlag {
    NUMERIC_FLAGS
        .iter()
        .find(|f| f.name == name && f.commands.contains(command))
        .unwrap_or_else(|| panic!("no numeric flag --{name} for {command} in NUMERIC_FLAGS"))
}
