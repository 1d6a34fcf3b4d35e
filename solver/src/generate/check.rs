//! How hard a drawn puzzle is, measured with the solver's own search: an
//! optimal solve (steps metric) bounded by a number of positions, by
//! breadth-first search or, for a family whose spaces are too large for it
//! (tile puzzles), by A* with the Manhattan distance, which is admissible,
//! so its first solution is optimal too; and, when asked, a count of the
//! reachable space under the same bound. No second move generator: all go
//! through [`crate::search`].

use crate::model::Puzzle;
use crate::params::{Algorithm, Heuristic, Limits, Metric, SearchParams};
use crate::report::Status;
use crate::search::{self, count, Progress, SearchError, SolveOptions};

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

/// The optimal search a family's draws are checked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Breadth-first search: its positions are the difficulty target's.
    Bfs,
    /// A* with the Manhattan distance at weight 1 (optimal): for puzzles
    /// whose goal fixes every block, where BFS would see too much.
    Manhattan,
}

/// Plain BFS in the steps metric: optimal, no pruning.
fn bfs() -> SearchParams {
    SearchParams {
        algorithm: Algorithm::Bfs,
        metric: Metric::Steps,
        ..SearchParams::default()
    }
}

impl Check {
    fn params(self) -> SearchParams {
        match self {
            Check::Bfs => bfs(),
            Check::Manhattan => SearchParams {
                algorithm: Algorithm::Astar,
                heuristic: Heuristic::new("manhattan"),
                weight: 1.0,
                ..bfs()
            },
        }
    }
}

fn bounded(max_positions: u64) -> Limits {
    Limits {
        max_positions: Some(max_positions),
        ..Limits::default()
    }
}

/// Solves `puzzle` optimally by `check`, examining at most `max_positions`
/// positions.
pub fn solve(puzzle: &Puzzle, check: Check, max_positions: u64) -> Result<Checked, SearchError> {
    let options = SolveOptions {
        held: Some(0),
        ..SolveOptions::quiet()
    };
    let out = search::solve(puzzle, &check.params(), &bounded(max_positions), options)?;
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
