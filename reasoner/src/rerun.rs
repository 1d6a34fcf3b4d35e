//! The improve phase's second step: a bounded optimal re-run. Window
//! shortcuts only remove local detours (Korf's first 15-puzzle instance:
//! 171 -> 163 steps, optimum 57), so after them the puzzle is solved again
//! from the start by `solver solve --optimal --max-length N` with N one
//! below the length held: the solver picks the search (weight 1, its
//! strongest admissible heuristic for the puzzle: the reasoner names no
//! heuristic), which either returns a shorter solution, the shortest there
//! is, or proves there is none within N. The claim is replayed by `solver
//! verify` like every other.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::budget::Budget;
use crate::improve::finish;
use crate::runner::{parse_solve_output, AttemptResult, RunStatus, Runner};

/// The scratch-file tag of the re-run's solution and claim.
const TAG: usize = usize::MAX - 1;

/// What the re-run did, as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rerun {
    /// `shorter` (a shorter solution, verified: the optimum of the search
    /// the solver chose), `none_shorter` (none within the bound: the length
    /// held is optimal), `limit_reached` (time or positions ran out first),
    /// or `failed`.
    pub status: &'static str,
    /// `--max-length`: one below the length held before it, in `metric`.
    pub bound: u64,
    /// The search the solver chose, e.g. `ida pdb`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// The metric of `bound` (`reasoner solve --metric`, else steps).
    pub metric: &'static str,
    /// With `limit_reached`: the length the solver proved no solution is
    /// shorter than (its `lower_bound`), when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    /// The shorter solution's length in steps and in moves, when one was found.
    pub steps: Option<u64>,
    pub moves: Option<u64>,
    pub positions_examined: u64,
    pub elapsed_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Solves `puzzle` again within `bound` steps in at most `seconds` (and
/// what is left of the position budget): the record, and the verified
/// shorter solution when there is one.
pub async fn run(
    runner: &Runner,
    puzzle: &Path,
    bound: u64,
    seconds: f64,
    budget: &Budget,
) -> (Rerun, Option<AttemptResult>) {
    let started = Instant::now();
    let mut record = Rerun {
        status: "failed",
        bound,
        metric: runner.improve_metric().name(),
        lower_bound: None,
        search: None,
        steps: None,
        moves: None,
        positions_examined: 0,
        elapsed_ms: 0,
        error: None,
    };
    let shorter = match solve(runner, puzzle, bound, seconds, budget, &mut record).await {
        Ok(found) => found,
        Err(e) => {
            record.status = "failed";
            record.error = Some(e);
            None
        }
    };
    record.elapsed_ms = started.elapsed().as_millis() as u64;
    (record, shorter)
}

/// Runs the bounded search and reads it into `record`; the verified
/// solution when it found one within the bound.
async fn solve(
    runner: &Runner,
    puzzle: &Path,
    bound: u64,
    seconds: f64,
    budget: &Budget,
    record: &mut Rerun,
) -> Result<Option<AttemptResult>, String> {
    let file = runner.scratch_file("rerun.txt");
    let mut line = vec![runner.solver().display().to_string()];
    line.extend(
        [
            "solve",
            &puzzle.display().to_string(),
            "--optimal",
            "--max-length",
            &bound.to_string(),
            "--json",
            "--quiet",
            "--time-limit",
            &format!("{:.3}", seconds * 0.9),
            "--solution",
            &file.display().to_string(),
        ]
        .map(str::to_string),
    );
    line.extend(runner.metric_args());
    if let Some(p) = budget.positions_left() {
        line.extend(["--max-positions".to_string(), p.max(1).to_string()]);
    }
    if let Some(m) = runner.max_memory {
        line.extend(["--max-memory".to_string(), m.to_string()]);
    }
    // Asked to stop a little before the time is up, killed when it is.
    let kill = Duration::from_secs_f64(seconds);
    let done = finish(runner, &line, kill, "solver solve --optimal", &[0, 1]).await;
    let _ = std::fs::remove_file(&file);
    let out = parse_solve_output(&String::from_utf8_lossy(&done?.stdout))?;
    budget.charge(out.positions_examined);
    record.positions_examined = out.positions_examined;
    record.search = Some(format!(
        "{} {}",
        out.params.algorithm.name(),
        out.params.heuristic
    ));
    record.lower_bound = out.lower_bound;
    record.status = match RunStatus::from(out.status) {
        RunStatus::Solved => "shorter",
        RunStatus::NoSolution => "none_shorter",
        _ => "limit_reached",
    };
    if record.status != "shorter" {
        return Ok(None);
    }
    let claim = AttemptResult {
        status: RunStatus::Solved,
        steps: out.steps,
        moves: out.moves,
        positions_examined: Some(out.positions_examined),
        best_distance: Some(0),
        best_distance_positions: None,
        elapsed_ms: out.elapsed_ms,
        solution: out.solution,
        error: None,
        position_limit: None,
        optimal_in: None,
        lower_bound: None,
    };
    let verified = runner.check_claim(puzzle, claim, TAG, Some(kill)).await;
    if verified.status != RunStatus::Solved {
        return Err(verified.error.unwrap_or_else(|| "did not verify".into()));
    }
    let metric = runner.improve_metric();
    let length = crate::params::length_in(metric, verified.steps, verified.moves);
    if length.is_none_or(|n| n > bound) {
        return Err(format!(
            "the re-run's solution is not within its bound of {bound} {}",
            metric.name()
        ));
    }
    (record.steps, record.moves) = (verified.steps, verified.moves);
    Ok(Some(verified))
}
