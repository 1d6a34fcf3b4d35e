//! The door-split phase (issue 15): where master-only doors part the free
//! cells into regions that no other block leaves, the puzzle is solved in
//! three parts that `solver variant --split` writes (see the solver's
//! `variant/split.rs`): the master's region up to the place it leaves from
//! (`inside`), the other regions with the master there (`outside`), and the
//! full puzzle from where the first two parts' moves leave it (`rest`). Each
//! part is tried with [`settings`] in turn until one solves it. The parts'
//! moves and the rest's solution, joined, are replayed against the original
//! puzzle by `solver verify` before they count.
//!
//! The cycle runs it once, right after the first wave of attempts
//! (`cycle.rs`): where it applies, the blocks on both sides of a door
//! multiply the positions of every attempt on the whole puzzle.
//!
//! GNOME Klotski's Ithaca, which no search of the whole level solved, is
//! solved so in about a second: 215 steps for the inside (fluid search), 20
//! kept of the way out, 9 to the goal (`experiments/README.md`). A puzzle
//! without such a door gets no rows: `solver variant --split` says why and
//! the phase ends.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::params::{Heuristic, ParamSet};
use crate::plan::{self, Phase, Planned};
use crate::restart::joined;
use crate::runner::{AttemptResult, RunStatus, Runner};
use crate::variant::{tool, Context};

/// The settings tried on each part, in order: the fluid search on `path`
/// (the inside of Ithaca in 24k abstract states), on `h0` with weight 10
/// (where `path` stalls: 337 steps in 357k), and A* on `path` for a part
/// without units, which the fluid search refuses at once.
pub fn settings() -> Vec<ParamSet> {
    let (_, fluid) = plan::fluid_setting();
    let (_, route) = plan::route_setting();
    let wide = ParamSet {
        heuristic: Heuristic::new("h0"),
        weight: 10.0,
        ..fluid.clone()
    };
    vec![fluid, wide, route]
}

/// Runs the phase; returns its report rows, numbered from `first`, the
/// last one solved when the three parts joined solve the puzzle.
pub async fn phase(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    first: usize,
) -> Vec<(Planned, AttemptResult)> {
    let mut rows = Vec::new();
    let (inside, outside) = (part(runner, "inside"), part(runner, "outside"));
    for (file, which) in [(&inside, "inside"), (&outside, "outside")] {
        let o = file.display().to_string();
        if let Err(e) = tool(runner, puzzle, &["--split", which, "-o", &o], ctx).await {
            tracing::info!(reason = %e, "no door split");
            return rows;
        }
    }
    let parts = [
        ("inside", &inside, "door split, part 1: the master's region"),
        ("outside", &outside, "door split, part 2: the other regions"),
    ];
    let mut solutions = Vec::new();
    for (name, file, note) in parts {
        let at = Phase::SplitPart;
        match solve_part(runner, file, ctx, (at, note), first, &mut rows).await {
            Some(lines) => solutions.push(write_moves(runner, name, &lines)),
            None => return rows,
        }
    }
    let Some((rest, prefix)) = write_rest(runner, puzzle, ctx, &solutions, first, &mut rows).await
    else {
        return rows;
    };
    solve_rest(runner, puzzle, ctx, &rest, &prefix, first, &mut rows).await;
    rows
}

/// The scratch file of part `name` of the split (`inside`, `outside`,
/// `rest`, or the parts' `moves`).
fn part(runner: &Runner, name: &str) -> PathBuf {
    runner.scratch_file(&format!("split-{name}.txt"))
}

/// Part 3: `solver variant --split rest` writes the whole puzzle from
/// where the first two parts' `solutions` leave it, and the moves they
/// make there. Returns that puzzle's path and those moves; when the parts
/// do not join or their moves cannot be read, a failed row says why and
/// `None` ends the phase.
async fn write_rest(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    solutions: &[PathBuf],
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) -> Option<(PathBuf, Vec<String>)> {
    let (rest, moves) = (part(runner, "rest"), part(runner, "moves"));
    let args = [
        "--split",
        "rest",
        "--inside-solution",
        &solutions[0].display().to_string(),
        "--outside-solution",
        &solutions[1].display().to_string(),
        "--moves-out",
        &moves.display().to_string(),
        "-o",
        &rest.display().to_string(),
    ]
    .map(|s| s.to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if let Err(e) = tool(runner, puzzle, &args, ctx).await {
        let note = "door split, part 3: the parts do not join";
        failed(rows, first, note, e);
        return None;
    }
    match std::fs::read_to_string(&moves) {
        Ok(text) => Some((rest, text.lines().map(str::to_string).collect())),
        Err(e) => {
            let note = "door split, part 3: the parts' moves cannot be read";
            failed(rows, first, note, format!("{}: {e}", moves.display()));
            None
        }
    }
}

/// A failed row of part 3 (`note`, `why`), numbered after `rows`: no run
/// was made, so it shows the default parameters.
fn failed(rows: &mut Vec<(Planned, AttemptResult)>, first: usize, note: &str, why: String) {
    let index = first + rows.len();
    let params = ParamSet::default();
    rows.push((
        row(index, (Phase::Split, note), &params),
        AttemptResult::failed(why, 0),
    ));
}

/// Part 3's runs: [`settings`] on the `rest` until one solves it. A
/// solution's row then becomes the whole solution, the parts' moves
/// (`prefix`) first, verified on the puzzle.
async fn solve_rest(
    runner: &Arc<Runner>,
    puzzle: &Path,
    ctx: &Context<'_>,
    rest: &Path,
    prefix: &[String],
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) {
    let note = "door split, part 3: the whole puzzle after parts 1 and 2";
    let last = solve_part(runner, rest, ctx, (Phase::Split, note), first, rows).await;
    if last.is_some() {
        // The rest's row becomes the whole solution, verified on the puzzle
        // (the parts' moves first).
        let (p, mut r) = rows.pop().expect("the rest's row");
        if prefix.is_empty() {
            // Parts 1 and 2 left the start as it was: the rest is the
            // puzzle itself, but its claim is checked against the puzzle
            // all the same.
            r = runner
                .check_claim(puzzle, r, p.index, ctx.config.attempt_timeout)
                .await;
        } else {
            r = joined(runner, puzzle, prefix, r, p.index, ctx.config).await;
        }
        rows.push((p, r));
    }
}

/// Tries [`settings`] on one part until one solves it; its solution's
/// lines, or `None`. Each run is a report row (`what`: its phase and
/// note), charged to the budget now.
async fn solve_part(
    runner: &Arc<Runner>,
    file: &Path,
    ctx: &Context<'_>,
    what: (Phase, &str),
    first: usize,
    rows: &mut Vec<(Planned, AttemptResult)>,
) -> Option<Vec<String>> {
    let config = ctx.config;
    for params in settings() {
        if config.budget.exhausted().is_some() {
            return None;
        }
        let index = first + rows.len();
        let limits = config.budget.limit(config.phase_limits(), 1);
        let r = runner.solve(file, &params, &limits, index).await;
        config.budget.charge(r.positions_examined.unwrap_or(0));
        let solved = (r.status == RunStatus::Solved).then(|| r.solution.clone());
        rows.push((row(index, what, &params), r));
        if let Some(lines) = solved {
            return lines;
        }
    }
    None
}

/// Writes part `name`'s solution where `solver variant --split rest` reads it.
fn write_moves(runner: &Runner, name: &str, lines: &[String]) -> PathBuf {
    let path = runner.scratch_file(&format!("split-{name}.sol"));
    let mut text = lines.join("\n");
    text.push('\n');
    if let Err(e) = std::fs::write(&path, text) {
        tracing::warn!(error = %e, path = %path.display(), "cannot write a part's solution");
    }
    path
}

/// A report row of the phase: a part's run ([`Phase::SplitPart`]) or the
/// whole puzzle's ([`Phase::Split`]).
fn row(index: usize, (phase, note): (Phase, &str), params: &ParamSet) -> Planned {
    Planned {
        index,
        phase,
        case: Some(note.to_string()),
        from: None,
        params: params.clone(),
    }
}
