//! Exhaustive counting: a breadth-first search with no goal, under the same
//! parameters and limits as a search. Gives the exact size of the reachable
//! space and its mean branching factor (features, `solver count`).

use super::{Ending, Engine, Limit, Progress, SearchError};
use crate::model::{Goal, Puzzle};
use crate::moves::State;
use crate::params::{Algorithm, Limits, SearchParams};

/// What an exhaustive count found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count {
    /// Distinct positions reached (exact when `complete`).
    pub positions: u64,
    /// True when the whole reachable space was examined.
    pub complete: bool,
    /// What stopped it otherwise.
    pub limit: Option<Limit>,
    /// Mean number of successors over the examined positions.
    pub branching_factor: f64,
    pub examined: u64,
    pub peak_memory: u64,
    /// Most bytes a spilled count held on disk at once (0: in memory).
    pub disk_bytes: u64,
    pub elapsed_ms: u64,
    /// The encoding used and its key width.
    pub encoding: &'static str,
    pub key_bits: u32,
}

/// Counts the positions reachable from the start of `puzzle` under `params`
/// (prunings included; the algorithm is always BFS); `held`: see
/// [`Engine::new`].
pub fn reachable(
    puzzle: &Puzzle,
    params: &SearchParams,
    limits: &Limits,
    progress: Progress,
    held: Option<u64>,
) -> Result<Count, SearchError> {
    let mut params = params.clone();
    params.algorithm = Algorithm::Bfs;
    let locked = super::run::check_common(puzzle, &params)?;
    let goal = puzzle.final_goal().cloned().unwrap_or_else(Goal::default);
    let mut engine = Engine::new(puzzle, &goal, &params, limits, &locked, progress, held);
    engine.check_key_width()?;
    super::spill::check(&engine)?;
    engine.goal_enabled = false;
    engine.counts_branching = true;
    // A count reports no distance; only its progress bar shows one.
    engine.measure_distance = engine.progress.is_enabled();
    let mut start = State::new(puzzle);
    start.load(&puzzle.start, engine.moves.shapes());
    let ending = engine.run(&start);
    engine.progress.finish();
    let s = engine.stats;
    let (complete, limit) = match ending {
        Ending::Exhausted => (true, None),
        Ending::Stopped(l) => (false, Some(l)),
        Ending::Found(_) => (false, None),
        Ending::Failed(err) => return Err(err),
    };
    Ok(Count {
        positions: s.stored,
        complete,
        limit,
        branching_factor: if s.examined == 0 {
            0.0
        } else {
            s.generated as f64 / s.examined as f64
        },
        examined: s.examined,
        peak_memory: s.peak_memory,
        disk_bytes: s.disk_bytes,
        elapsed_ms: engine.elapsed_ms(),
        encoding: crate::encoding::PositionEncoding::name(&engine.encoding),
        key_bits: crate::encoding::PositionEncoding::key_bits(&engine.encoding),
    })
}
