//! How hard a drawn puzzle is, measured with the solver's own search: a
//! breadth-first solve (steps metric, so its length is the optimum) bounded
//! by a number of positions, and for the kept puzzles a count of the
//! reachable space under the same bound. No second move generator: both
//! go through [`crate::search`].

use crate::model::Puzzle;
use crate::params::{Algorithm, Limits, Metric, SearchParams};
use crate::report::Status;
use crate::search::{count, solve, Progress, SearchError, SolveOptions};

/// What the breadth-first solve of a draw found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved: the optimal length in steps.
    Solved(u64),
    /// Every reachable position was examined and none is the goal.
    Unsolvable,
    /// The position bound stopped the search first.
    Unverified,
}

/// The check of one draw.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub verdict: Verdict,
    /// Positions the solve examined.
    pub examined: u64,
    /// Positions reachable from the start, when a search saw them all.
    pub reachable: Option<u64>,
}

/// Plain BFS in the steps metric: optimal, no pruning.
fn bfs() -> SearchParams {
    SearchParams {
        algorithm: Algorithm::Bfs,
        metric: Metric::Steps,
        ..SearchParams::default()
    }
}

fn bounded(max_positions: u64) -> Limits {
    Limits {
        max_positions: Some(max_positions),
        ..Limits::default()
    }
}

/// Solves `puzzle` by BFS, examining at most `max_positions` positions.
pub fn solve_bfs(puzzle: &Puzzle, max_positions: u64) -> Result<Checked, SearchError> {
    let options = SolveOptions {
        held: Some(0),
        ..SolveOptions::quiet()
    };
    let out = solve(puzzle, &bfs(), &bounded(max_positions), options)?;
    let verdict = match out.status {
        Status::Solved => Verdict::Solved(out.steps().unwrap_or(0)),
        Status::NoSolution => Verdict::Unsolvable,
        _ => Verdict::Unverified,
    };
    let reachable = (verdict == Verdict::Unsolvable).then_some(out.stats.stored);
    Ok(Checked {
        verdict,
        examined: out.stats.examined,
        reachable,
    })
}

/// The number of positions reachable from the start, if a count within
/// `max_positions` sees them all.
pub fn reachable(puzzle: &Puzzle, max_positions: u64) -> Result<Option<u64>, SearchError> {
    let limits = bounded(max_positions);
    let c = count::reachable(
        puzzle,
        &bfs(),
        &limits,
        Progress::disabled(),
        Some(0),
        false,
    )?;
    Ok(c.complete.then_some(c.positions))
}
