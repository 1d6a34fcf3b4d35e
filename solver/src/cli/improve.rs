//! `solver improve PUZZLE SOLUTION`: shorten a valid solution with
//! breadth-first shortcuts over windows of its path ([`crate::improve`]).
//! Exit 0 with the result (shorter or unchanged, replayed by the verifier),
//! 2 when the input is not a valid solution, 3 on an internal error.

use std::time::Instant;

use clap::Args;

use super::ranged::{real, whole};
use super::verify::puzzle_and_solution;
use super::{check_outputs, write_file, Failure, PuzzleInput};
use crate::improve::{improve, ImproveError, Improved, Options};
use crate::params::Metric;
use crate::report::ImproveReport;
use crate::solution;

#[derive(Args, Debug)]
pub struct ImproveArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Solution file (`ID ROW,COL STEPS` per line), or `-` for standard input.
    pub solution: String,
    /// Which puzzle of a collection the solution is for (1-based).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("verify", "index"))]
    pub index: Option<usize>,
    /// What one action is: shortcuts are shortest in this metric.
    #[arg(long, value_enum, default_value_t = Metric::default())]
    pub metric: Metric,
    /// Longest stretch of the solution, in actions, one shortcut may replace.
    #[arg(long, value_name = "N", default_value_t = 32, allow_hyphen_values = true, value_parser = whole::<usize>("improve", "window"))]
    pub window: usize,
    /// Positions one shortcut search may expand.
    #[arg(long, value_name = "N", default_value_t = 50_000, allow_hyphen_values = true, value_parser = whole::<u64>("improve", "max-positions"))]
    pub max_positions: u64,
    /// Positions all shortcut searches together may expand (default: no limit).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = whole::<u64>("improve", "max-total"))]
    pub max_total: Option<u64>,
    /// Stop after S seconds, keeping the shortcuts taken so far.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = real("improve", "time-limit"))]
    pub time_limit: Option<f64>,
    /// Write the shortened solution to FILE (atomically).
    #[arg(long = "output", short = 'o', value_name = "FILE")]
    pub output: Option<String>,
    /// Print one JSON object (with the solution) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ImproveArgs) -> Result<i32, Failure> {
    if let Some(file) = &args.output {
        // The solution may be rewritten in place (never longer); the puzzle not.
        check_outputs(&[("--output", file)], &[&args.input.puzzle])?;
    }
    let file = &args.input.puzzle;
    let (puzzle, _, moves) = puzzle_and_solution(&args.input, args.index, &args.solution)?;
    let puzzle = &puzzle;
    let options = Options {
        metric: args.metric,
        window: args.window,
        max_positions: args.max_positions,
        max_total: args.max_total,
        time_limit: args.time_limit,
    };
    let started = Instant::now();
    let out = improve(puzzle, &moves, &options).map_err(|e| match e {
        ImproveError::NotASolution(m) => Failure::input(format!(
            "{}: not a valid solution of {file}: {m}; check it with `solver verify`",
            args.solution
        )),
        ImproveError::Internal(m) => Failure {
            message: format!(
                "internal error: {m}; please report this with the puzzle and solution"
            ),
            code: 3,
        },
    })?;
    let report = make_report(args, &out, started);
    // The result is printed even when its file could not be written, then the error.
    let written = match &args.output {
        Some(path) => write_file("--output", path, solution::write(&out.moves).as_bytes()),
        None => Ok(()),
    };
    if args.json {
        let json = serde_json::to_string(&report).map_err(|e| Failure {
            message: format!("internal error: {e}"),
            code: 3,
        })?;
        outln!("{json}");
    } else {
        outln!(
            "{}: {} -> {} steps, {} -> {} moves ({} shortcut(s), {} positions, {} ms{})",
            report.status,
            report.first_steps,
            report.steps,
            report.first_moves,
            report.moves,
            report.shortcuts,
            report.positions_examined,
            report.elapsed_ms,
            match (report.limit_reached, crate::search::interrupted()) {
                (true, Some(_)) => ", stopped by Ctrl-C: the best so far",
                (true, None) => ", stopped by --time-limit or --max-total",
                _ => "",
            }
        );
        if args.output.is_none() {
            outln!("{}", solution::write(&out.moves).trim_end());
        }
    }
    written?;
    Ok(0)
}

/// The JSON result of one improvement.
fn make_report(args: &ImproveArgs, out: &Improved, started: Instant) -> ImproveReport {
    ImproveReport {
        puzzle: args.input.puzzle.clone(),
        status: if out.shortcuts > 0 {
            "improved"
        } else {
            "unchanged"
        }
        .into(),
        metric: args.metric,
        first_steps: out.first.steps,
        first_moves: out.first.moves,
        steps: out.last.steps,
        moves: out.last.moves,
        shortcuts: out.shortcuts,
        positions_examined: out.examined,
        elapsed_ms: started.elapsed().as_millis() as u64,
        limit_reached: out.limit_reached,
        solution: out.moves.iter().map(|m| m.to_string()).collect(),
    }
}
