//! The improve phase (`--improve`, on by default; `--no-improve` skips it):
//! after the first verified solution, two steps shorten it, each a solver
//! process within what is left of the run's budget: `solver improve` with
//! BFS shortcuts over windows of its path, then the bounded optimal re-run
//! of [`crate::rerun`] (the puzzle solved again by an optimal search with
//! `--max-length` one below the length held). Each shortened solution is
//! replayed by `solver verify` like every other claim and replaces the
//! report's solution only when it verifies and is shorter; the report keeps
//! the first and the final length and says which step gave the final one.

use std::path::Path;
use std::time::{Duration, Instant};

use sbp_protocol::ImproveReport;
use serde::Serialize;

use crate::budget::Budget;
use crate::report::Report;
use crate::rerun::{self, Rerun};
use crate::runner::{tail, AttemptResult, Exit, Finished, RunError, RunStatus, Runner};

/// Seconds each step may take when the run has no time budget.
const DEFAULT_SECONDS: f64 = 60.0;

/// Share of the time left the window step may take, so that the re-run
/// keeps the rest: on Korf's first 15-puzzle instance the windows' BFS
/// searches took 161 of 180 s (loaded) for 8 steps, and the re-run, the
/// step that reaches the optimum there, was then killed for want of time.
const WINDOWS_SHARE: f64 = 0.5;

/// What the improve phase did, as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Improvement {
    /// `improved` (a step shortened it), `unchanged`, `skipped` (no budget
    /// left) or `failed` (the window step failed and the re-run found
    /// nothing shorter).
    pub status: &'static str,
    pub first_steps: Option<u64>,
    pub first_moves: Option<u64>,
    /// The final lengths (the first ones unless `improved`).
    pub steps: Option<u64>,
    pub moves: Option<u64>,
    /// Which step gave the final length: `first` (none shortened it),
    /// `windows` or `rerun`.
    pub final_by: &'static str,
    /// Shortcuts the window step took, and the positions it examined.
    pub shortcuts: usize,
    pub positions_examined: u64,
    /// The bounded optimal re-run; absent when no budget was left for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun: Option<Rerun>,
    pub elapsed_ms: u64,
    /// Why the window step failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The seconds a step may take now, `None` when the budget is used up.
fn seconds_left(budget: &Budget) -> Option<f64> {
    let seconds = budget
        .time_left()
        .map_or(DEFAULT_SECONDS, |t| t.as_secs_f64());
    (budget.exhausted().is_none() && seconds >= 0.01).then_some(seconds)
}

/// Shortens the solution of a solved `report` in place; records what it did
/// in `report.improvement`.
pub async fn run(runner: &Runner, puzzle: &Path, report: &mut Report, budget: &Budget) {
    let (Some(solution), RunStatus::Solved) = (report.solution.clone(), report.status) else {
        return;
    };
    let mut record = Improvement {
        status: "skipped",
        first_steps: report.steps,
        first_moves: report.moves,
        steps: report.steps,
        moves: report.moves,
        final_by: "first",
        shortcuts: 0,
        positions_examined: 0,
        rerun: None,
        elapsed_ms: 0,
        error: None,
    };
    let started = Instant::now();
    // Under a time budget the windows take their share of what is left;
    // without one each step has its DEFAULT_SECONDS.
    let share = match budget.time_left() {
        Some(_) => WINDOWS_SHARE,
        None => 1.0,
    };
    if let Some(seconds) = seconds_left(budget).map(|s| s * share) {
        match shorten(runner, puzzle, &solution, seconds, budget).await {
            Ok((out, verified)) => {
                record.status = "unchanged";
                record.shortcuts = out.shortcuts;
                record.positions_examined = out.positions_examined;
                if out.shortcuts > 0 {
                    take(report, &mut record, verified, "windows");
                }
            }
            Err(e) => {
                record.status = "failed";
                record.error = Some(e);
            }
        }
    }
    let held = report.steps.unwrap_or(0);
    if let (Some(seconds), true) = (seconds_left(budget), held > 0) {
        let (rerun, shorter) = rerun::run(runner, puzzle, held - 1, seconds, budget).await;
        record.rerun = Some(rerun);
        if let Some(verified) = shorter {
            take(report, &mut record, verified, "rerun");
        }
    }
    record.elapsed_ms = started.elapsed().as_millis() as u64;
    report.improvement = Some(record);
}

/// A verified solution shorter than the one held replaces it: in the report
/// and as the record's final length, given by `step`.
fn take(
    report: &mut Report,
    record: &mut Improvement,
    verified: AttemptResult,
    step: &'static str,
) {
    record.status = "improved";
    record.final_by = step;
    (record.steps, record.moves) = (verified.steps, verified.moves);
    report.steps = verified.steps;
    report.moves = verified.moves;
    report.solution = verified.solution;
}

/// Runs `solver improve` on `solution` and verifies its result: the
/// solver's report and the verified claim, or why it cannot be used.
async fn shorten(
    runner: &Runner,
    puzzle: &Path,
    solution: &[String],
    seconds: f64,
    budget: &Budget,
) -> Result<(ImproveReport, AttemptResult), String> {
    let input = runner.scratch_file("improve-in.txt");
    std::fs::write(&input, solution.join("\n") + "\n")
        .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let mut line = vec![
        runner.solver().display().to_string(),
        "improve".to_string(),
        puzzle.display().to_string(),
        input.display().to_string(),
        "--json".to_string(),
        "--time-limit".to_string(),
        format!("{:.3}", seconds * 0.9),
    ];
    if let Some(p) = budget.positions_left() {
        line.extend(["--max-total".to_string(), p.max(1).to_string()]);
    }
    // Asked to stop a little before the time is up, killed when it is.
    let kill = Duration::from_secs_f64(seconds);
    let done = finish(runner, &line, kill, "solver improve", &[0]).await;
    let _ = std::fs::remove_file(&input);
    let done = done?;
    let out: ImproveReport = serde_json::from_slice(&done.stdout)
        .map_err(|e| format!("`solver improve` printed no result ({e})"))?;
    budget.charge(out.positions_examined);
    let claim = AttemptResult {
        status: RunStatus::Solved,
        steps: Some(out.steps as u64),
        moves: Some(out.moves as u64),
        positions_examined: Some(out.positions_examined),
        best_distance: Some(0),
        best_distance_positions: None,
        elapsed_ms: out.elapsed_ms,
        solution: Some(out.solution.clone()),
        error: None,
        position_limit: None,
    };
    // Replayed by `solver verify` like every other claimed solution.
    let verified = runner.check_claim(puzzle, claim, 0, Some(kill)).await;
    if verified.status != RunStatus::Solved {
        return Err(verified.error.unwrap_or_else(|| "did not verify".into()));
    }
    if verified.steps > Some(out.first_steps as u64)
        && verified.moves > Some(out.first_moves as u64)
    {
        return Err("the shortened solution is longer than the first".into());
    }
    Ok((out, verified))
}

/// Runs a solver command line (`what` names it in errors) here, killed
/// after `kill`: what it printed when it exited with one of `codes`, else
/// why not.
pub(crate) async fn finish(
    runner: &Runner,
    line: &[String],
    kill: Duration,
    what: &str,
    codes: &[i32],
) -> Result<Finished, String> {
    let done = match runner.run(line, Some(kill)).await {
        Ok(done) => done,
        Err(RunError::Timeout(t)) => {
            return Err(format!("`{what}` was killed after {} s", t.as_secs_f64()))
        }
        Err(RunError::Spawn(e) | RunError::Wait(e)) => {
            return Err(format!("cannot run `{what}`: {e}"))
        }
    };
    match done.exit {
        Exit::Code(c) if codes.contains(&c) => Ok(done),
        Exit::Code(c) => Err(format!(
            "`{what}` exited with code {c}{}",
            tail(&done.stderr)
        )),
        Exit::Signal(s) => Err(format!("`{what}` was killed by signal {s}")),
    }
}
