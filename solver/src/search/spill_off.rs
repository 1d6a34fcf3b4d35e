//! The browser build's `--spill`: it has no disk, so a spill folder is
//! refused before the search starts and nothing else changes (see
//! `spill/mod.rs` for the native one).

use super::{bfs, Ending, Engine, SearchError};
use crate::moves::State;

/// There is no disk to measure.
pub fn free_bytes(_dir: &str) -> Option<u64> {
    None
}

/// Refuses any `--spill`.
pub fn check(e: &Engine) -> Result<(), SearchError> {
    match &e.params.spill {
        None => Ok(()),
        Some(dir) => Err(SearchError::Spill(check_folder(dir).unwrap_err())),
    }
}

/// Refuses every folder.
pub fn check_folder(dir: &str) -> Result<(), String> {
    Err(format!("{dir}: the browser build cannot spill to disk"))
}

/// BFS in memory (`check` refused a spill folder).
pub fn search(e: &mut Engine, start: &State) -> Ending {
    bfs::search(e, start)
}
