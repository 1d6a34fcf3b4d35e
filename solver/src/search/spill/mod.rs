//! Searches larger than memory: `--spill DIR`. A BFS with a spill folder runs
//! in memory while it fits under `--max-memory` (without that flag: the
//! memory the machine has available); when the limit would stop it, it starts
//! again as an external-memory BFS with delayed duplicate detection (Korf's
//! disk-based BFS), keeping each layer in DIR as a file of sorted keys and
//! only `--max-memory` of buffers in RAM. Counts and solution lengths are
//! those of the in-memory BFS. Without `--spill`, `--max-memory` stops the
//! search as before: nothing is written to disk unasked.
//!
//! - [`dir`]: the run's own folder in DIR, removed when the run ends.
//! - [`runs`]: key files, sorted runs and their order.
//! - [`merge`]: the duplicate detection, new layer minus the two before it.
//! - [`expand`]: the layer loop.
//! - [`walk`]: the solution, walked back through the layer files.
//!
//! SIGINT and SIGTERM remove the folder before the exit ([`super::interrupt`]).

mod dir;
mod expand;
mod merge;
mod runs;
mod walk;

use super::{bfs, interrupt, Ending, Engine, Limit, SearchError};
use crate::moves::State;
use crate::params::Algorithm;

pub use dir::{free_bytes, SpillDir};

/// Memory for the spilled search's buffers when the limit leaves less.
const MIN_BUDGET: u64 = 1 << 20;

/// Refuses `--spill` where it cannot work, and a spill folder that cannot
/// be written, before the search starts.
pub fn check(e: &Engine) -> Result<(), SearchError> {
    let Some(dir) = &e.params.spill else {
        return Ok(());
    };
    let refuse = |why: String| Err(SearchError::SpillUnsupported(why));
    if e.params.algorithm != Algorithm::Bfs {
        return refuse(format!(
            "--spill works with --algorithm bfs only, not {}: drop --spill or search with bfs",
            e.params.algorithm.name()
        ));
    }
    let one_way = e.prunings.directed_names();
    if !one_way.is_empty() {
        // Duplicate detection against the two layers before needs moves that
        // can be undone; with one-way moves every older layer would be needed.
        return refuse(format!(
            "--spill needs moves that can be undone, which these prunings make one-way: {}; drop them or drop --spill",
            one_way.join(", ")
        ));
    }
    if e.params.keep_visited {
        return refuse(
            "--spill keeps no visited set to carry between subgoals (--keep-visited): drop one of the two"
                .to_string(),
        );
    }
    check_folder(dir).map_err(SearchError::Spill)
}

/// Whether a spilled search could keep its layers under folder `dir`: a
/// folder of its own is created there and removed again; the message says
/// what is wrong otherwise.
pub fn check_folder(dir: &str) -> Result<(), String> {
    SpillDir::create(dir).map(drop)
}

/// BFS in memory, and on disk when memory runs out (see the module's doc).
pub fn search(e: &mut Engine, start: &State) -> Ending {
    let folder = e.params.spill.clone().unwrap_or_default();
    if e.limits.max_memory.is_none() {
        e.limits.max_memory = Some(crate::encoding::choice::available_memory());
    }
    let in_memory = bfs::search(e, start);
    if !matches!(in_memory, Ending::Stopped(Limit::Memory)) {
        return in_memory;
    }
    // Start again on disk; the partial search in memory is not counted.
    e.stats = super::Stats {
        best_distance: u32::MAX,
        peak_memory: e.stats.peak_memory,
        ..super::Stats::default()
    };
    let ending = on_disk(e, start, &folder);
    e.progress.disk = 0;
    // A signal after the search ended still stops the run (its folder is
    // gone by now).
    match interrupt::received() {
        Some(signal) => Ending::Failed(SearchError::Interrupted(interrupt::name(signal))),
        None => ending,
    }
}

/// The disk search in a run folder of its own in `folder`, which is
/// removed before this returns, also when SIGINT or SIGTERM stopped it.
fn on_disk(e: &mut Engine, start: &State, folder: &str) -> Ending {
    // Made before the folder, so that it is dropped after it.
    let _signals = interrupt::Guard::new();
    let mut dir = match SpillDir::create(folder) {
        Ok(dir) => dir,
        Err(message) => return Ending::Failed(SearchError::Spill(message)),
    };
    let budget = e.memory_left(0).max(MIN_BUDGET).min(usize::MAX as u64) as usize;
    let ending = expand::search(e, start, &mut dir, budget);
    e.stats.disk_bytes = dir.peak_bytes();
    ending.unwrap_or_else(|err| match merge::DeadlinePassed::is(&err) {
        // A merge stopped at the time limit: the limit, not a disk failure.
        true => Ending::Stopped(Limit::Time),
        false => Ending::Failed(SearchError::Spill(format!(
            "--spill {folder}: {err}; free room on that disk or give --spill a folder on a larger one"
        ))),
    })
}
