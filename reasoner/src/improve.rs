//! The improve phase (`--improve`, on by default; `--no-improve` skips it):
//! after the first verified solution, `solver improve` shortens it with BFS
//! shortcuts over windows of its path, as a process like every solver run,
//! within what is left of the run's budget. The shortened solution is
//! replayed by `solver verify` like every other claim and replaces the
//! report's solution only when it verifies and is no longer; the report
//! keeps the first and the final length either way.

use std::path::Path;
use std::time::{Duration, Instant};

use sbp_protocol::ImproveReport;
use serde::Serialize;

use crate::budget::Budget;
use crate::report::Report;
use crate::runner::{tail, AttemptResult, Exit, RunError, RunStatus, Runner};

/// Seconds the improvement may take when the run has no time budget.
const DEFAULT_SECONDS: f64 = 60.0;

/// What the improve phase did, as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Improvement {
    /// `improved`, `unchanged`, `skipped` (no budget left) or `failed`.
    pub status: &'static str,
    pub first_steps: Option<u64>,
    pub first_moves: Option<u64>,
    /// The final lengths (the first ones unless `improved`).
    pub steps: Option<u64>,
    pub moves: Option<u64>,
    pub shortcuts: usize,
    pub positions_examined: u64,
    pub elapsed_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
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
        shortcuts: 0,
        positions_examined: 0,
        elapsed_ms: 0,
        error: None,
    };
    let seconds = budget
        .time_left()
        .map_or(DEFAULT_SECONDS, |t| t.as_secs_f64());
    if budget.exhausted().is_some() || seconds < 0.01 {
        report.improvement = Some(record);
        return;
    }
    let started = Instant::now();
    match shorten(runner, puzzle, &solution, seconds, budget).await {
        Ok((out, verified)) => {
            record.status = if out.shortcuts > 0 {
                "improved"
            } else {
                "unchanged"
            };
            record.shortcuts = out.shortcuts;
            record.positions_examined = out.positions_examined;
            if out.shortcuts > 0 {
                (record.steps, record.moves) = (verified.steps, verified.moves);
                report.steps = verified.steps;
                report.moves = verified.moves;
                report.solution = verified.solution;
            }
        }
        Err(e) => {
            record.status = "failed";
            record.error = Some(e);
        }
    }
    record.elapsed_ms = started.elapsed().as_millis() as u64;
    report.improvement = Some(record);
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
    let run = runner.run(&line, Some(kill)).await;
    let _ = std::fs::remove_file(&input);
    let done = match run {
        Ok(done) => done,
        Err(RunError::Timeout(t)) => {
            return Err(format!(
                "`solver improve` was killed after {} s",
                t.as_secs_f64()
            ))
        }
        Err(RunError::Spawn(e) | RunError::Wait(e)) => {
            return Err(format!("cannot run `solver improve`: {e}"))
        }
    };
    match done.exit {
        Exit::Code(0) => {}
        Exit::Code(c) => {
            let why = tail(&done.stderr);
            return Err(format!("`solver improve` exited with code {c}{why}"));
        }
        Exit::Signal(s) => return Err(format!("`solver improve` was killed by signal {s}")),
    }
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
