//! Search parameters and limits as command-line flags, shared by `solve`,
//! `count` and `bench`. These spellings are the interface the reasoner, the
//! experiments and the tests use: extend, do not rename.

use clap::Args;

use super::option_args::OptionArgs;
use super::pruning_args::PruningArgs;
use super::ranged::{real, whole};
use super::PuzzleInput;
use crate::params::{Algorithm, EncodingKind, Heuristic, Limits, Metric, SearchParams};

/// What `solve` and `count` both take: the puzzle, how to search it and when
/// to stop. One struct, flattened into each, so their flags cannot drift apart.
#[derive(Args, Debug)]
pub struct SearchJob {
    #[command(flatten)]
    pub input: PuzzleInput,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search algorithm. `solve` without it picks one for the puzzle and says why
    /// (bidirectional BFS where the goal fixes every block, IDA* with pattern databases
    /// for tile puzzles, A* when a heuristic or weight is given, else BFS); `count` and
    /// `pdb` take BFS.
    #[arg(long, value_enum)]
    pub algorithm: Option<Algorithm>,
    /// Heuristic for A* and IDA* (`solver heuristics` lists them).
    #[arg(long, default_value_t = Heuristic::default(), value_parser = heuristic_name)]
    pub heuristic: Heuristic,
    /// Weight on h: f = g + W*h.
    #[arg(long, default_value_t = SearchParams::default().weight, allow_hyphen_values = true, value_parser = real("solve", "weight"))]
    pub weight: f64,
    /// The registered heuristics' own options (`solver heuristics` lists them).
    #[command(flatten)]
    pub options: OptionArgs,
    /// IDA*'s first path limit (default: h of the start).
    #[arg(long, allow_hyphen_values = true, value_parser = whole::<u32>("solve", "ida-limit"))]
    pub ida_limit: Option<u32>,
    /// The registered prunings' flags (`solver prunings` lists them).
    #[command(flatten)]
    pub prunings: PruningArgs,
    /// Block identifiers that never move, e.g. `--lock ab` or `--lock a,b`.
    #[arg(long, value_name = "IDS")]
    pub lock: Option<String>,
    /// What one action is.
    #[arg(long, value_enum, default_value_t = Metric::default())]
    pub metric: Metric,
    /// How positions are stored.
    #[arg(long, value_enum, default_value_t = EncodingKind::default())]
    pub encoding: EncodingKind,
    /// Keep the visited set between subgoals instead of clearing it.
    #[arg(long)]
    pub keep_visited: bool,
    /// Worker threads: BFS expands and stores on them, A* computes its
    /// heuristic estimates on them, IDA* on a tile puzzle's tables splits
    /// each bound's tree among them, pattern databases are built on them.
    #[arg(long, default_value_t = SearchParams::default().threads, allow_hyphen_values = true, value_parser = whole::<usize>("solve", "threads"))]
    pub threads: usize,
    /// BFS: when memory runs out (--max-memory, or the machine's available memory), go on with the layers on disk in DIR.
    #[arg(long, value_name = "DIR")]
    pub spill: Option<String>,
}

#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Stop after examining N positions.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = whole::<u64>("solve", "max-positions"))]
    pub max_positions: Option<u64>,
    /// Stop before the whole process holds more than BYTES (suffixes K, M, G, T allowed).
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true, value_parser = whole::<u64>("solve", "max-memory"))]
    pub max_memory: Option<u64>,
    /// Stop after S seconds.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = real("solve", "time-limit"))]
    pub time_limit: Option<f64>,
}

impl SearchArgs {
    /// The search parameters (every value was range-checked while parsing).
    pub fn params(&self) -> SearchParams {
        SearchParams {
            algorithm: self.algorithm.unwrap_or_default(),
            heuristic: self.heuristic.clone(),
            weight: self.weight,
            ida_limit: self.ida_limit,
            prunings: self.prunings.0.clone(),
            options: self.options.recorded.clone(),
            local: self.options.local.clone(),
            lock: self
                .lock
                .as_deref()
                .unwrap_or("")
                .chars()
                .filter(|c| *c != ',' && !c.is_whitespace())
                .collect(),
            metric: self.metric,
            encoding: self.encoding,
            keep_visited: self.keep_visited,
            threads: capped_threads(self.threads),
            spill: self.spill.clone(),
        }
    }
}

/// `--threads` at most the machine's cores: threads beyond them only take
/// turns, and each turn costs every layer a wake-up (256 threads on 2 cores
/// made classic Klotski's BFS 600 times slower). A note says when a count
/// is lowered.
fn capped_threads(asked: usize) -> usize {
    let cores = super::jobs::cores();
    if asked > cores {
        eprintln!(
            "note: --threads {asked} is more than this machine's {cores} cores; using {cores}"
        );
    }
    asked.min(cores)
}

impl LimitArgs {
    /// The resource limits (range-checked while parsing).
    pub fn limits(&self) -> Limits {
        Limits {
            max_positions: self.max_positions,
            max_memory: self.max_memory,
            time_limit_seconds: self.time_limit,
            max_length: None,
        }
    }
}

/// A registered heuristic's name; the message lists the registered ones.
fn heuristic_name(s: &str) -> Result<Heuristic, String> {
    let name = Heuristic::new(s);
    crate::heuristics::check(&name).map(|()| name)
}
