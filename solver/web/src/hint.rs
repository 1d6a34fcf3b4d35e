//! A hint: the solver's breadth-first search from the position a person
//! reached, to the goal sections still ahead, within a position limit. BFS
//! makes the answer optimal in the chosen metric, so "the best next move"
//! is the first line of a shortest solution; a position too hard to answer
//! in the page says so instead of running on.

use serde_json::{json, Value};
use solver::model::Puzzle;
use solver::params::{Algorithm, EncodingKind, Limits, Metric, SearchParams};
use solver::report::Status;
use solver::search::{self, Progress, SolveOptions};

use crate::Played;

/// Memory a hint's search may hold: WebAssembly's 32-bit address space is
/// 4 GiB, and a page that holds a quarter of it still leaves the browser room.
const HINT_MEMORY: u64 = 1 << 30;

/// The solution from `now` (the position after a person's moves), or why
/// there is none to give.
pub(crate) fn from(p: &Puzzle, now: &Played, metric: Metric, limit: u64) -> Result<Value, String> {
    if now.replay.solved {
        return Ok(json!({ "status": "at_goal", "solution": [], "length": 0, "examined": 0 }));
    }
    let here = from_here(p, now);
    let params = SearchParams {
        algorithm: Algorithm::Bfs,
        metric,
        // The fastest store; `auto` under a memory limit weighs the worst
        // case and took the rank, 50x slower here on Sunshine.
        encoding: EncodingKind::Packed,
        ..SearchParams::default()
    };
    let limits = Limits {
        max_positions: Some(limit),
        max_memory: Some(HINT_MEMORY),
        ..Limits::default()
    };
    let options = SolveOptions {
        progress: Progress::disabled(),
        best: 0,
        // The page's memory is the search's own: nothing else to count.
        held: Some(0),
    };
    let out = search::solve(&here, &params, &limits, options).map_err(|e| e.to_string())?;
    let examined = out.stats.examined;
    match out.status {
        Status::Solved => {
            let length = match metric {
                Metric::Steps => out.steps(),
                Metric::Moves => out.moves(),
            };
            let lines = out.solution.unwrap_or_default();
            Ok(json!({
                "status": "solved",
                "solution": lines.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "length": length,
                "metric": metric.name(),
                "examined": examined,
            }))
        }
        Status::NoSolution => Ok(json!({
            "status": "no_solution",
            "message": format!(
                "no solution from here: all {examined} positions reachable were examined; undo some moves"
            ),
            "examined": examined,
        })),
        Status::LimitReached => Ok(json!({
            "status": "too_hard",
            "message": format!(
                "too hard to answer in the page: no solution within {examined} positions; \
                 `solver solve` or the reasoner can search further"
            ),
            "examined": examined,
        })),
    }
}

/// The puzzle as it stands after the person's moves: their position as the
/// start, and the goal sections not yet reached (the last one again when
/// they reached it and moved on).
fn from_here(p: &Puzzle, now: &Played) -> Puzzle {
    let reached = now
        .replay
        .goals_reached
        .min(p.goals.len().saturating_sub(1));
    let mut here = p.clone();
    here.start = now.replay.final_position.clone();
    here.goals = p.goals[reached..].to_vec();
    here
}
