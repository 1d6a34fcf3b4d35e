//! `solver features PUZZLE [--json]`: the case-based reasoner's features
//! (see `docs/features.md`). The whole output is built in memory and written
//! only once everything succeeded, so a failure (exit 2 for bad input, 1 for
//! anything else) leaves stdout empty and no caller can mistake old data for
//! new (the thesis's reasoner silently reused stale features, §8.4).

use clap::Args;

use super::ranged::whole;
use super::{Failure, PuzzleInput};
use crate::features::{extract, FeatureOptions};

#[derive(Args, Debug)]
pub struct FeaturesArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Print one JSON object per puzzle instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Bytes of stored positions the breadth-first search may use (suffixes
    /// K, M, G); each position counts its key's bytes.
    #[arg(long, value_name = "BYTES", default_value = "1M",
          allow_hyphen_values = true, value_parser = whole::<u64>("features", "budget-bytes"))]
    pub budget_bytes: u64,
    /// Work units the breadth-first search may use (cells its encoding scans
    /// per position); keeps large boards fast.
    #[arg(long, value_name = "N", default_value_t = FeatureOptions::default().budget_work,
          allow_hyphen_values = true, value_parser = whole::<u64>("features", "budget-work"))]
    pub budget_work: u64,
    /// Recursive calls the packing-bound count may make before falling back
    /// to the combinatorial bound.
    #[arg(long, value_name = "N", default_value_t = FeatureOptions::default().packing_calls,
          allow_hyphen_values = true, value_parser = whole::<u64>("features", "packing-calls"))]
    pub packing_calls: u64,
}

pub fn run(args: &FeaturesArgs) -> Result<i32, Failure> {
    let options = FeatureOptions {
        budget_bytes: args.budget_bytes,
        budget_work: args.budget_work,
        packing_calls: args.packing_calls,
    };
    let puzzles = args.input.load()?;
    let mut out = String::new();
    for p in &puzzles {
        // A panic must not leave half an answer: catch it and print nothing.
        let features =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| extract(p, &options)))
                .map_err(|_| Failure {
                    message: format!("{}: feature extraction failed", args.input.puzzle),
                    code: 1,
                })?;
        if args.json {
            let record = features.record(&args.input.puzzle, p.name.as_deref());
            let line = serde_json::to_string(&record).map_err(|e| Failure {
                message: format!("{}: cannot write JSON: {e}", args.input.puzzle),
                code: 1,
            })?;
            out.push_str(&line);
            out.push('\n');
        } else {
            let label = p.name.as_deref().unwrap_or(&args.input.puzzle);
            out.push_str(&features.table(label));
        }
    }
    super::output::text(&out)?;
    Ok(0)
}
