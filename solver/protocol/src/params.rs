//! Every parameter of one search and the resource limits of one run, as they
//! appear in the JSON result (`params`, `limits`), so that a run can be
//! repeated exactly. The choices' defaults come from [`crate::choices`], the
//! valid ranges from [`crate::ranges`].

use serde::{Deserialize, Serialize};

use crate::choices::{Algorithm, EncodingKind, Metric};
use crate::heuristic::Heuristic;
use crate::pruning::PruningSettings;
use crate::ranges;

/// Every parameter of one search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
    /// Weight on h in A* (`f = g + weight * h`).
    pub weight: f64,
    /// The three weights of h2: master distance, space-value allowance, spaces' distance.
    pub h2: [f64; 3],
    /// IDA*'s first path limit (default: h of the start).
    pub ida_limit: Option<u32>,
    /// Every pruning's setting by its JSON name (`space_value`, `resting`,
    /// `master_never_away`, ...: the solver's registered prunings), each one
    /// key of `params` in the JSON; a pruning left out is off.
    #[serde(flatten)]
    pub prunings: PruningSettings,
    /// Identifiers of block types that never move.
    pub lock: Vec<char>,
    pub metric: Metric,
    pub encoding: EncodingKind,
    /// Keep the visited set between subgoals instead of clearing it.
    pub keep_visited: bool,
    pub threads: usize,
    /// Pattern databases of `--heuristic pdb`.
    #[serde(default)]
    pub pdb: PdbSettings,
    /// `--spill DIR`: the folder where a BFS that outgrows its memory keeps
    /// its layers on disk. Where a run spills is not part of its identity
    /// (counts and solutions are the same), so never serialized.
    #[serde(skip)]
    pub spill: Option<String>,
}

/// The pattern databases' settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PdbSettings {
    /// `--pdb`: groups of block ids (`1,2,3/4,5,6`); automatic when absent.
    pub patterns: Option<String>,
    /// `--pdb-memory`: bytes all tables may take together.
    pub memory: u64,
    /// `--pdb-cache`: the cache folder, `off`, or the user's cache folder
    /// when absent. Not part of a run's identity, so never serialized.
    #[serde(skip)]
    pub cache: Option<String>,
}

impl Default for PdbSettings {
    fn default() -> Self {
        PdbSettings {
            patterns: None,
            memory: ranges::PDB_MEMORY_DEFAULT,
            cache: None,
        }
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::default(),
            heuristic: Heuristic::default(),
            weight: 1.0,
            h2: ranges::H2_DEFAULT,
            ida_limit: None,
            prunings: PruningSettings::new(),
            lock: Vec::new(),
            metric: Metric::default(),
            encoding: EncodingKind::default(),
            keep_visited: false,
            threads: 1,
            pdb: PdbSettings::default(),
            spill: None,
        }
    }
}

impl SearchParams {
    /// Checks every numeric parameter against its declared range (the
    /// prunings' settings against their declarations: the solver's
    /// `pruning::check`).
    pub fn check_ranges(&self) -> Result<(), String> {
        ranges::weight().check(self.weight)?;
        for w in self.h2 {
            ranges::h2().check(w)?;
        }
        if let Some(v) = self.ida_limit {
            ranges::numeric_flag("solve", "ida-limit").check(v as f64)?;
        }
        ranges::numeric_flag("solve", "pdb-memory").check(self.pdb.memory as f64)?;
        ranges::numeric_flag("solve", "threads").check(self.threads as f64)
    }
}

/// Resource limits of one run (`None` is unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub max_positions: Option<u64>,
    pub max_memory: Option<u64>,
    pub time_limit_seconds: Option<f64>,
}
