//! `solver count PUZZLE`: the exact number of reachable positions, under the
//! same parameters and limits as `solve` (prunings shrink the space).

use clap::Args;

use super::search_args::SearchJob;
use super::Failure;
use crate::search::{count, Progress};

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub job: SearchJob,
    /// Print one JSON object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// No progress bar on stderr (it is also off with --json and when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &CountArgs) -> Result<i32, Failure> {
    let puzzles = args.job.input.load()?;
    let params = args.job.search.params();
    let limits = args.job.limits.limits();
    let mut code = 0;
    for p in &puzzles {
        let c = count::reachable(
            p,
            &params,
            &limits,
            Progress::new(args.quiet || args.json).with_limit(limits.max_positions),
        )
        .map_err(|m| Failure::input(format!("{}: {m}", args.job.input.puzzle)))?;
        if args.json {
            let v = serde_json::json!({
                "puzzle": args.job.input.puzzle,
                "name": p.name,
                "positions": c.positions,
                "complete": c.complete,
                "limit": c.limit.map(|l| l.name()),
                "branching_factor": c.branching_factor,
                "positions_examined": c.examined,
                "peak_memory_bytes": c.peak_memory,
                "spill_disk_bytes": c.disk_bytes,
                "elapsed_ms": c.elapsed_ms,
            });
            outln!("{v}");
        } else {
            let name = p.name.as_deref().unwrap_or(&args.job.input.puzzle);
            if c.complete {
                outln!(
                    "{name}: {} reachable positions (mean branching factor {:.4})",
                    c.positions,
                    c.branching_factor
                );
            } else {
                outln!(
                    "{name}: at least {} reachable positions; stopped by {}",
                    c.positions,
                    c.limit.map_or("a limit", |l| l.name())
                );
            }
        }
        if !c.complete {
            code = 1;
        }
    }
    Ok(code)
}
