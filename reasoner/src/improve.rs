//! The improve phase (`--improve`, on by default; `--no-improve` skips it):
//! after the first verified solution, steps shorten it, each a solver
//! process within what is left of the run's budget, in the metric of
//! `reasoner solve --metric` (steps without it): a quick bounded optimal
//! re-run of [`crate::rerun`] (the puzzle solved again by an optimal search
//! with `--max-length` one below the length held, for a few seconds); when
//! it does not settle the length, `solver improve` with BFS shortcuts over
//! windows of its path, then the re-run again with what is left. Each shortened solution is
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
    /// The quick optimal re-run before the windows, when it did not settle
    /// the length (else it is `rerun`, and the windows did not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quick_rerun: Option<Rerun>,
    /// The bounded optimal re-run; absent when no budget was left for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun: Option<Rerun>,
    pub elapsed_ms: u64,
    /// The first solution came from a search the solver proved optimal in
    /// the improve phase's metric (its `optimal`): nothing is shorter, so
    /// no step ran (on The Time Machine the bidirectional search's answer
    /// was re-run for 0.8 s to prove what it had proved).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub first_optimal: bool,
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
/// in `report.improvement`: first a quick optimal re-run
/// ([`QUICK_SECONDS`]), which where it finishes makes the windows
/// pointless; else the windows, then the re-run with what is left.
/// `optimal` (`reasoner solve --optimal`): the re-run is not cut to
/// [`DEFAULT_SECONDS`] when the run has no time budget, and the report says
/// whether the final length is proven optimal.
pub async fn run(
    runner: &Runner,
    puzzle: &Path,
    report: &mut Report,
    budget: &Budget,
    optimal: bool,
) {
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
        quick_rerun: None,
        rerun: None,
        elapsed_ms: 0,
        first_optimal: false,
        error: None,
    };
    if first_optimal_in(report) == Some(runner.improve_metric()) {
        record.status = "unchanged";
        record.first_optimal = true;
        report.improvement = Some(record);
        return;
    }
    let started = Instant::now();
    let quick = seconds_left(budget).map(|s| s.min(QUICK_SECONDS));
    rerun_step(runner, puzzle, report, budget, &mut record, quick).await;
    if record.proved_optimal() {
        record.status = if record.final_by == "rerun" {
            "improved"
        } else {
            "unchanged"
        };
    } else {
        record.quick_rerun = record.rerun.take();
        windows_step(runner, puzzle, &solution, report, budget, &mut record).await;
        let seconds = match (
            seconds_left(budget),
            optimal && budget.time_left().is_none(),
        ) {
            // Asked for a proof and given no time budget: the re-run takes
            // what it needs.
            (Some(_), true) => Some(UNTIMED_SECONDS),
            (seconds, _) => seconds,
        };
        rerun_step(runner, puzzle, report, budget, &mut record, seconds).await;
    }
    record.elapsed_ms = started.elapsed().as_millis() as u64;
    report.improvement = Some(record);
}

/// Seconds the first, quick optimal re-run may take: where the solver's
/// optimal search is fast (The Time Machine under moves: bidirectional,
/// 1.1 s) it settles the length before the windows spend any time (their
/// 31 shortcuts took 21.6 s there and reached 39 moves from 113 only with
/// the re-run's help); where it is not (Korf's 15-puzzles), these seconds
/// are what it costs.
const QUICK_SECONDS: f64 = 5.0;

/// The window step (`solver improve`) within its share of what is left.
async fn windows_step(
    runner: &Runner,
    puzzle: &Path,
    solution: &[String],
    report: &mut Report,
    budget: &Budget,
    record: &mut Improvement,
) {
    // Under a time budget the windows take their share of what is left;
    // without one each step has its DEFAULT_SECONDS.
    let share = match budget.time_left() {
        Some(_) => WINDOWS_SHARE,
        None => 1.0,
    };
    let Some(seconds) = seconds_left(budget).map(|s| s * share) else {
        return;
    };
    match shorten(runner, puzzle, solution, seconds, budget).await {
        Ok((out, verified)) => {
            record.status = "unchanged";
            record.shortcuts = out.shortcuts;
            record.positions_examined = out.positions_examined;
            if out.shortcuts > 0 {
                take(report, record, verified, "windows");
            }
        }
        Err(e) => {
            record.status = "failed";
            record.error = Some(e);
        }
    }
}

/// The bounded optimal re-run within `seconds` (none: no budget left),
/// one below the length held in the runner's metric; its record goes to
/// `record.rerun`.
async fn rerun_step(
    runner: &Runner,
    puzzle: &Path,
    report: &mut Report,
    budget: &Budget,
    record: &mut Improvement,
    seconds: Option<f64>,
) {
    let held =
        crate::params::length_in(runner.improve_metric(), report.steps, report.moves).unwrap_or(0);
    let (Some(seconds), true) = (seconds, held > 0) else {
        return;
    };
    let (rerun, shorter) = rerun::run(runner, puzzle, held - 1, seconds, budget).await;
    record.rerun = Some(rerun);
    if let Some(verified) = shorter {
        take(report, record, verified, "rerun");
    }
}

/// Seconds the optimal re-run may take under `--optimal` without a time
/// budget: no limit a person would wait for.
const UNTIMED_SECONDS: f64 = 1e6;

impl Improvement {
    /// The best length the re-runs proved no solution is shorter than.
    pub fn lower_bound(&self) -> Option<u64> {
        [&self.quick_rerun, &self.rerun]
            .into_iter()
            .flatten()
            .filter_map(|r| r.lower_bound)
            .max()
    }

    /// Whether the final length is proven optimal: the solver's optimal
    /// search, bounded one below the length held, either found the shortest
    /// solution or proved that there is none shorter.
    pub fn proved_optimal(&self) -> bool {
        self.first_optimal
            || self
                .rerun
                .as_ref()
                .is_some_and(|r| matches!(r.status, "shorter" | "none_shorter"))
    }
}

/// The metric in which the attempt that solved the puzzle proved its
/// solution optimal, if it did.
pub fn first_optimal_in(report: &Report) -> Option<crate::params::Metric> {
    let index = report.solved_by?;
    let winner = report.attempts.iter().find(|a| a.index == index)?;
    winner
        .phase
        .whole_puzzle()
        .then_some(winner.result.optimal_in)?
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

/// The `solver improve` command line for the solution in `input`: in the
/// runner's metric, stopping a little before `seconds`, within what is
/// left of the position budget.
fn improve_line(
    runner: &Runner,
    puzzle: &Path,
    input: &Path,
    seconds: f64,
    budget: &Budget,
) -> Vec<String> {
    let mut line = vec![
        runner.solver().display().to_string(),
        "improve".to_string(),
        puzzle.display().to_string(),
        input.display().to_string(),
        "--json".to_string(),
        "--time-limit".to_string(),
        format!("{:.3}", seconds * 0.9),
    ];
    line.extend(runner.metric_args());
    if let Some(p) = budget.positions_left() {
        line.extend(["--max-total".to_string(), p.max(1).to_string()]);
    }
    line
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
    let line = improve_line(runner, puzzle, &input, seconds, budget);
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
        optimal_in: None,
        lower_bound: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Metric;

    #[test]
    fn the_window_step_counts_in_the_asked_metric_and_steps_without_one() {
        let mut runner = Runner::new("solver".into()).unwrap();
        let budget = Budget::new(None, Some(1000));
        let line =
            |r: &Runner| improve_line(r, Path::new("p.txt"), Path::new("s.txt"), 10.0, &budget);
        let words = line(&runner).join(" ");
        assert!(words.contains("--metric steps"), "{words}");
        assert!(words.contains("--max-total 1000"), "{words}");
        runner.metric = Some(Metric::Moves);
        let words = line(&runner).join(" ");
        assert!(words.contains("--metric moves"), "{words}");
    }
}
