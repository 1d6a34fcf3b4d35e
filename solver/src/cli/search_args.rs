//! Search parameters and limits as command-line flags, shared by `solve`,
//! `count` and `bench`. These spellings are the interface the reasoner, the
//! experiments and the tests use: extend, do not rename.

use clap::Args;

use super::Failure;
use crate::params::{
    Algorithm, EncodingKind, HeuristicKind, Limits, Metric, Resting, SearchParams,
};

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Bfs)]
    pub algorithm: Algorithm,
    /// Heuristic for A* and IDA*.
    #[arg(long, value_enum, default_value_t = HeuristicKind::H0)]
    pub heuristic: HeuristicKind,
    /// Weight on h: f = g + W*h.
    #[arg(long, default_value_t = 1.0)]
    pub weight: f64,
    /// h2's weights A,B,C: master distance, space-value allowance, spaces' distance to the master.
    #[arg(long, value_name = "A,B,C")]
    pub h2: Option<String>,
    /// IDA*'s first path limit (default: h of the start).
    #[arg(long)]
    pub ida_limit: Option<u32>,
    /// Space-value cutoff: never visit positions whose spaces' pairwise distances sum above N.
    #[arg(long, value_name = "N")]
    pub space_value: Option<u64>,
    /// Resting-block pruning.
    #[arg(long, value_enum, default_value_t = Resting::Off)]
    pub resting: Resting,
    /// Never move the master away from its goal.
    #[arg(long)]
    pub master_never_away: bool,
    /// Block identifiers that never move, e.g. `--lock ab` or `--lock a,b`.
    #[arg(long, value_name = "IDS")]
    pub lock: Option<String>,
    /// What one action is.
    #[arg(long, value_enum, default_value_t = Metric::Steps)]
    pub metric: Metric,
    /// How positions are stored.
    #[arg(long, value_enum, default_value_t = EncodingKind::Auto)]
    pub encoding: EncodingKind,
    /// Keep the visited set between subgoals instead of clearing it.
    #[arg(long)]
    pub keep_visited: bool,
    /// Worker threads (BFS).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Stop after examining N positions.
    #[arg(long, value_name = "N")]
    pub max_positions: Option<u64>,
    /// Stop before the search holds more than BYTES (suffixes K, M, G allowed).
    #[arg(long, value_name = "BYTES")]
    pub max_memory: Option<String>,
    /// Stop after S seconds.
    #[arg(long, value_name = "S")]
    pub time_limit: Option<f64>,
}

impl SearchArgs {
    pub fn params(&self) -> Result<SearchParams, Failure> {
        let h2 = match &self.h2 {
            None => SearchParams::default().h2,
            Some(s) => {
                let v: Vec<f64> = s
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        Failure::input(format!("--h2 expects three numbers A,B,C, got '{s}'"))
                    })?;
                <[f64; 3]>::try_from(v).map_err(|_| {
                    Failure::input(format!("--h2 expects three numbers A,B,C, got '{s}'"))
                })?
            }
        };
        Ok(SearchParams {
            algorithm: self.algorithm,
            heuristic: self.heuristic,
            weight: self.weight,
            h2,
            ida_limit: self.ida_limit,
            space_value: self.space_value,
            resting: self.resting,
            master_never_away: self.master_never_away,
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
            threads: self.threads,
        })
    }
}

impl LimitArgs {
    pub fn limits(&self) -> Result<Limits, Failure> {
        let max_memory = self.max_memory.as_deref().map(parse_bytes).transpose()?;
        if self.time_limit.is_some_and(|t| t.is_nan() || t < 0.0) {
            return Err(Failure::input(
                "--time-limit must be a number of seconds, at least 0",
            ));
        }
        Ok(Limits {
            max_positions: self.max_positions,
            max_memory,
            time_limit_seconds: self.time_limit,
        })
    }
}

/// `1048576`, `512K`, `64M`, `2G` (powers of 1024).
pub fn parse_bytes(s: &str) -> Result<u64, Failure> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&t[..i], t[i..].trim().to_ascii_uppercase()),
        None => (t, String::new()),
    };
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(Failure::input(format!(
                "--max-memory: cannot read '{s}' (use e.g. 500000000, 512M or 2G)"
            )))
        }
    };
    let n: u64 = digits.parse().map_err(|_| {
        Failure::input(format!(
            "--max-memory: cannot read '{s}' (use e.g. 500000000, 512M or 2G)"
        ))
    })?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| Failure::input(format!("--max-memory: '{s}' is too large")))
}
