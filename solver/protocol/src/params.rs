//! Every parameter of one search and the resource limits of one run, as they
//! appear in the JSON result (`params`, `limits`), so that a run can be
//! repeated exactly. The choices' defaults come from [`crate::choices`], the
//! valid ranges from [`crate::ranges`]; the heuristics' own options and the
//! prunings' settings are open sets, declared in the solver's files
//! ([`crate::options`], [`crate::pruning`]).

use serde::{Deserialize, Serialize};

use crate::choices::{Algorithm, EncodingKind, Metric};
use crate::heuristic::Heuristic;
use crate::options::{self, OptionSettings, Value};
use crate::pruning::{self, PruningSettings};
use crate::ranges;

/// Every parameter of one search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
    /// Weight on h in A* (`f = g + weight * h`).
    pub weight: f64,
    /// IDA*'s first path limit (default: h of the start).
    pub ida_limit: Option<u32>,
    /// Every pruning's setting by its JSON name (`space_value`, `resting`,
    /// `master_never_away`, ...: the solver's registered prunings), each one
    /// key of `params` in the JSON; a pruning left out is off.
    #[serde(flatten, deserialize_with = "pruning::read_settings")]
    pub prunings: PruningSettings,
    /// Every recorded option of the registered heuristics by its JSON name
    /// (`h2` `[A,B,C]`, `pdb.patterns`, `pdb.memory`: declared in each
    /// heuristic's file), each a key of `params` or of an object in it; an
    /// option left out has its default.
    #[serde(flatten, deserialize_with = "options::read_settings")]
    pub options: OptionSettings,
    /// The options that are not part of a run's identity (`pdb-cache`: where
    /// tables are kept), by flag; never serialized.
    #[serde(skip)]
    pub local: std::collections::BTreeMap<String, Value>,
    /// Identifiers of block types that never move.
    pub lock: Vec<char>,
    pub metric: Metric,
    pub encoding: EncodingKind,
    /// Keep the visited set between subgoals instead of clearing it.
    pub keep_visited: bool,
    pub threads: usize,
    /// `--spill DIR`: the folder where a BFS that outgrows its memory keeps
    /// its layers on disk. Where a run spills is not part of its identity
    /// (counts and solutions are the same), so never serialized.
    #[serde(skip)]
    pub spill: Option<String>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::default(),
            heuristic: Heuristic::default(),
            weight: 1.0,
            ida_limit: None,
            prunings: PruningSettings::new(),
            options: OptionSettings::default(),
            local: Default::default(),
            lock: Vec::new(),
            metric: Metric::default(),
            encoding: EncodingKind::default(),
            keep_visited: false,
            threads: 1,
            spill: None,
        }
    }
}

impl SearchParams {
    /// Checks every numeric parameter against its declared range (the
    /// prunings' settings and the heuristics' options against their
    /// declarations: the solver's `pruning::check` and `heuristics::check`).
    pub fn check_ranges(&self) -> Result<(), String> {
        ranges::weight().check(self.weight)?;
        if let Some(v) = self.ida_limit {
            ranges::numeric_flag("solve", "ida-limit").check(v as f64)?;
        }
        ranges::numeric_flag("solve", "threads").check(self.threads as f64)
    }
}

/// Resource limits of one run (`None` is unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub max_positions: Option<u64>,
    pub max_memory: Option<u64>,
    pub time_limit_seconds: Option<f64>,
    /// `--max-length N`: only solutions of at most N actions (in the
    /// metric) count; a search that exhausts every shorter possibility
    /// reports `no_solution` (under that bound). Absent in results from
    /// before the bound existed: read as none.
    #[serde(default)]
    pub max_length: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result's `params` from before options were declared reads with the
    /// same values, and writes back the same keys and values.
    #[test]
    fn params_of_before_read_and_write_the_same() {
        let old = r#"{"algorithm":"astar","heuristic":"pdb","weight":2.0,"h2":[6.0,16.0,2.0],"ida_limit":null,"space_value":14,"resting":"strict","master_never_away":true,"lock":[],"metric":"steps","encoding":"auto","keep_visited":false,"threads":1,"pdb":{"patterns":"1,2/3","memory":1048576}}"#;
        let p: SearchParams = serde_json::from_str(old).unwrap();
        assert_eq!(
            p.options.get("h2"),
            Some(&Value::Reals(vec![6.0, 16.0, 2.0]))
        );
        assert_eq!(p.options.get("pdb.memory"), Some(&Value::Whole(1 << 20)));
        assert_eq!(
            p.options.get("pdb.patterns"),
            Some(&Value::Text("1,2/3".into()))
        );
        assert_eq!(p.prunings.len(), 3);
        let back: serde_json::Value = serde_json::to_value(&p).unwrap();
        let before: serde_json::Value = serde_json::from_str(old).unwrap();
        assert_eq!(back, before);
    }
}
