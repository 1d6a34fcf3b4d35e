//! Heuristics are an open set: each is declared in its own file of the
//! solver (`solver/src/heuristics/`) and registered there with one line. The
//! vocabulary therefore names a heuristic by its name, and describes it with
//! [`HeuristicInfo`], which `solver heuristics --json` prints so that the
//! reasoner's parameter space holds exactly the solver's heuristics.

use std::fmt;

use serde::{Deserialize, Serialize};

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
    /// Never overestimates (under the metric it was built for): A* and IDA*
    /// with weight 1 then find optimal solutions.
    pub admissible: bool,
    /// The options of its own (`h2`'s `--h2 A,B,C`), each with its flag,
    /// JSON name, kind, default, range and how the reasoner varies it.
    pub options: Vec<OptionInfo>,
    /// Whether the reasoner's proximity search may switch to it.
    #[serde(default = "yes")]
    pub proximity: bool,
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
