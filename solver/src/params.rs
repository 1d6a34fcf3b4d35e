//! The solver's parameter space (thesis §1.2.1, §3.2.1): everything that
//! changes how a search runs, serialized into every JSON result so that a run
//! can be repeated exactly, and the numeric flags' valid ranges. Declared
//! once in the vocabulary crate `sbp-protocol` (shared with the reasoner) and
//! re-exported here so that the solver's modules name it by one path.

pub use sbp_protocol::ranges::{numeric_flag, Arity, NumericFlag, ValueRange, NUMERIC_FLAGS};
pub use sbp_protocol::{Algorithm, EncodingKind, Heuristic, Limits, Metric, Resting, SearchParams};
