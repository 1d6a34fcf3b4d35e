//! Heuristics are an open set: each is declared in its own file of the
//! solver (`solver/src/heuristics/`) and registered there with one line. The
//! vocabulary therefore names a heuristic by its name, and describes it with
//! [`HeuristicInfo`], which `solver heuristics --json` prints so that the
//! reasoner's parameter space holds exactly the solver's heuristics.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::choices::Metric;
use crate::options::OptionInfo;

/// The heuristic every search uses unless told otherwise.
pub const DEFAULT_HEURISTIC: &str = "h0";

/// The name of a registered heuristic, as on the command line, in the JSON
/// and in case bases.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Heuristic(String);

impl Heuristic {
    pub fn new(name: impl Into<String>) -> Heuristic {
        Heuristic(name.into())
    }

    pub fn name(&self) -> &str {
        &self.0
    }
}

impl Default for Heuristic {
    fn default() -> Self {
        Heuristic::new(DEFAULT_HEURISTIC)
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Heuristic {
    fn from(name: &str) -> Heuristic {
        Heuristic::new(name)
    }
}

/// What a heuristic declares about itself where it is registered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeuristicInfo {
    /// Its name (`--heuristic NAME`).
    pub name: String,
    /// One line for `--help` and the docs.
    pub doc: String,
    /// Under which metrics it never overestimates: there A* and IDA* with
    /// weight 1 find optimal solutions, and NBS accepts it.
    pub admissible: Admissible,
    /// The options of its own (`h2`'s `--h2 A,B,C`), each with its flag,
    /// JSON name, kind, default, range and how the reasoner varies it.
    pub options: Vec<OptionInfo>,
    /// Whether the reasoner's proximity search may switch to it.
    #[serde(default = "yes")]
    pub proximity: bool,
}

/// Under which metrics a heuristic never overestimates the remaining cost.
/// A move (`--metric moves`) may carry a block across many cells, so a
/// distance in cells that is a lower bound on steps can exceed the moves
/// left: `h0` is admissible under steps only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Admissible {
    /// It may overestimate under either metric.
    Never,
    /// Under `--metric steps` only.
    Steps,
    /// Under both metrics.
    Always,
}

impl Admissible {
    /// Whether the estimate is a lower bound on the cost under `metric`.
    pub fn under(self, metric: Metric) -> bool {
        match self {
            Admissible::Never => false,
            Admissible::Steps => metric == Metric::Steps,
            Admissible::Always => true,
        }
    }

    /// How `solver heuristics` says it.
    pub fn describe(self) -> &'static str {
        match self {
            Admissible::Never => "inadmissible",
            Admissible::Steps => "admissible (steps)",
            Admissible::Always => "admissible",
        }
    }
}

fn yes() -> bool {
    true
}

impl HeuristicInfo {
    /// Its recorded options: those of a run's identity, which the JSON and
    /// the reasoner's parameter space hold.
    pub fn recorded(&self) -> impl Iterator<Item = &OptionInfo> {
        self.options.iter().filter(|o| o.recorded)
    }
}

#[cfg(test)]
mod admissible_tests {
    use super::*;

    #[test]
    fn admissibility_depends_on_the_metric_and_reads_as_a_word() {
        assert!(Admissible::Steps.under(Metric::Steps));
        assert!(!Admissible::Steps.under(Metric::Moves));
        assert!(Admissible::Always.under(Metric::Moves));
        assert!(!Admissible::Never.under(Metric::Steps));
        let json = serde_json::to_string(&Admissible::Steps).unwrap();
        assert_eq!(json, "\"steps\"");
        assert!(serde_json::from_str::<Admissible>("true").is_err());
    }
}
