//! The vocabulary the solver and the reasoner share (the architecture sketch,
//! `shared/DESIGN.md` beside the repository: "shared types, not shared code
//! paths"): the parameters of a search with their names,
//! defaults and valid ranges, the JSON result of `solver solve --json`, and
//! the feature names of `solver features --json`. Heuristics and prunings
//! are open sets, declared in the solver's own files and described here by
//! [`HeuristicInfo`] (with each heuristic's own options, [`OptionInfo`]) and
//! [`PruningInfo`].
//!
//! The reasoner never links the solver's search code; it runs the `solver`
//! binary and reads its JSON. Both binaries depend on this crate so that a
//! name, a default or a range is declared once and cannot drift apart.

pub mod best;
pub mod choices;
pub mod features;
pub mod heuristic;
pub mod improve;
pub mod options;
pub mod params;
pub mod pruning;
pub mod ranges;
pub mod result;

pub use choices::{Algorithm, EncodingKind, Metric, Resting, SubgoalFix};
pub use heuristic::{Admissible, Heuristic, HeuristicInfo};
pub use improve::ImproveReport;
pub use options::{OptionInfo, OptionKind, OptionSettings, Value, Vary};
pub use params::{Limits, SearchParams};
pub use pruning::{PruningInfo, PruningKind, PruningSettings, Setting};
pub use ranges::{numeric_flag, NumericFlag, ValueRange, NUMERIC_FLAGS};
pub use result::{SolveReport, Status};
