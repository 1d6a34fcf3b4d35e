//! The JSON result of `solver solve --json`, shared by every command and read
//! by the reasoner. Declared in the vocabulary crate `sbp-protocol` and
//! documented field by field in `docs/json-result.md`.

pub use sbp_protocol::{ImproveReport, SolveReport, Status};
