//! `solver count PUZZLE`: the exact number of reachable positions, under the
//! same parameters and limits as `solve` (prunings shrink the space).

use clap::Args;

use super::jobs;
use super::search_args::SearchJob;
use super::Failure;
use crate::model::Puzzle;
use crate::search::count::{self, Count};
use crate::search::Progress;

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub job: SearchJob,
    /// Print one JSON object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// No progress bar on stderr (it is also off with --json, for a collection and when stderr
    /// is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub jobs: jobs::JobsArg,
}

pub fn run(args: &CountArgs) -> Result<i32, Failure> {
    let puzzles = args.job.input.load()?;
    let params = args.job.search.params();
    let jobs = args.jobs.for_collection(puzzles.len(), params.threads);
    let (limits, held) = jobs::shared(args.job.limits.limits(), jobs);
    let mut code = 0;
    let work = |i: usize| {
        let progress = Progress::new(args.quiet || args.json || puzzles.len() > 1);
        count::reachable(
            &puzzles[i],
            &params,
            &limits,
            progress.with_limit(limits.max_positions),
            held,
            true,
        )
        .map_err(|m| Failure::refused(&args.job.input.puzzle, &puzzles[i], puzzles.len() > 1, m))
    };
    jobs::in_order(puzzles.len(), jobs, work, |i, counted| {
        let c = counted?;
        print(args, &puzzles[i], &c)?;
        if !c.complete {
            code = 1;
        }
        Ok(())
    })?;
    Ok(code)
}

/// Prints one puzzle's count (a JSON object with `--json`).
fn print(args: &CountArgs, p: &Puzzle, c: &Count) -> Result<(), Failure> {
    if args.json {
        let v = serde_json::json!({
            "puzzle": args.job.input.puzzle,
            "name": p.name,
            "positions": c.positions,
            "complete": c.complete,
            "limit": c.limit.map(|l| l.name()),
            "branching_factor": c.branching_factor(),
            "positions_examined": c.examined,
            "peak_memory_bytes": c.peak_memory,
            "spill_disk_bytes": c.disk_bytes,
            "elapsed_ms": c.elapsed_ms,
        });
        outln!("{v}");
        return Ok(());
    }
    let name = p.name.as_deref().unwrap_or(&args.job.input.puzzle);
    if c.complete {
        outln!(
            "{name}: {} reachable positions (mean branching factor {:.4})",
            c.positions,
            c.branching_factor()
                .expect("a count asked to tally its branching")
        );
    } else {
        outln!(
            "{name}: at least {} reachable positions; stopped by {}",
            c.positions,
            c.limit
                .map_or("a limit", |l| crate::search::limit_said(l.name()))
        );
    }
    Ok(())
}
