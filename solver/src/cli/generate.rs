//! `solver generate`: random puzzles of a family (see [`crate::generate`]),
//! written as one native collection (standard output or `-o FILE`) or one
//! file per puzzle (`--out-dir DIR`, named `<family>-<seed>-<k>.txt`).

use clap::Args;

use super::ranged::whole_in;
use super::{write_file, write_output, Failure};
use crate::formats::native;
use crate::generate::{self, Generated, Request, Sizes, Target, DEFAULT_MAX_CHECK, FAMILIES};
use crate::params::{Arity, NumericFlag, ValueRange};

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Puzzle family: klotski, gnome, rush, mixed, tiles or walls (docs/generate.md).
    #[arg(long, value_parser = family_name)]
    pub family: String,
    /// Seed of the run: the same command gives the same bytes.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_in::<u64>(flag("seed", 0, u64::MAX)))]
    pub seed: u64,
    /// Puzzles to write.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = whole_in::<usize>(flag("count", 1, 100_000)))]
    pub count: usize,
    /// Inner board width (frame excluded); by default each draw picks from the family's range.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_in::<usize>(flag("width", 1, 120)))]
    pub width: Option<usize>,
    /// Inner board height (frame excluded).
    #[arg(long, allow_hyphen_values = true, value_parser = whole_in::<usize>(flag("height", 1, 120)))]
    pub height: Option<usize>,
    /// Empty cells the blocks leave.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_in::<usize>(flag("spaces", 1, 10_000)))]
    pub spaces: Option<usize>,
    /// Keep only puzzles whose optimal solution has at least L steps.
    #[arg(long, default_value_t = 0, value_name = "L", allow_hyphen_values = true, value_parser = whole_in::<u64>(flag("min-length", 0, 1 << 40)))]
    pub min_length: u64,
    /// Keep only puzzles whose breadth-first solve examines at least P positions.
    #[arg(long, default_value_t = 0, value_name = "P", allow_hyphen_values = true, value_parser = whole_in::<u64>(flag("min-positions", 0, 1 << 40)))]
    pub min_positions: u64,
    /// Positions a check (solve or count) examines at most.
    #[arg(long, default_value_t = DEFAULT_MAX_CHECK, value_name = "M", allow_hyphen_values = true, value_parser = whole_in::<u64>(flag("max-positions-check", 1, 1 << 40)))]
    pub max_positions_check: u64,
    /// Also count each kept puzzle's reachable positions (within the check
    /// bound) for its `% reachable:` line; a second search, off by default.
    #[arg(long)]
    pub count_reachable: bool,
    /// Keep draws that are unsolvable or that the check bound leaves unverified.
    #[arg(long)]
    pub keep_unsolvable: bool,
    /// Draw N candidates and keep the --count with the longest optimal solution.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = whole_in::<usize>(flag("hardest", 1, 10_000_000)))]
    pub hardest: Option<usize>,
    /// Write one native collection to FILE.
    #[arg(long, short, value_name = "FILE", conflicts_with = "out_dir")]
    pub output: Option<String>,
    /// Write one file per puzzle into DIR, named <family>-<seed>-<k>.txt.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<String>,
}

/// A whole-number flag of `generate` with its range, for [`whole_in`].
const fn flag(name: &'static str, min: u64, max: u64) -> NumericFlag {
    NumericFlag {
        name,
        commands: "generate",
        arity: Arity::One,
        range: ValueRange::Whole { min, max },
        meaning: "",
    }
}

/// Accepts a registered family's name.
fn family_name(s: &str) -> Result<String, String> {
    match generate::family(s) {
        Some(f) => Ok(f.name.to_string()),
        None => {
            let names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
            Err(format!(
                "unknown family '{s}': use one of {}",
                names.join(", ")
            ))
        }
    }
}

pub fn run(args: &GenerateArgs) -> Result<i32, Failure> {
    let family = generate::family(&args.family).expect("checked while parsing");
    let sizes = Sizes {
        width: args.width,
        height: args.height,
        spaces: args.spaces,
    };
    generate::check_sizes(family, &sizes).map_err(|e| Failure::input(e.to_string()))?;
    if let Some(n) = args.hardest.filter(|&n| n < args.count) {
        return Err(Failure::input(format!(
            "--hardest {n} draws fewer candidates than --count {}: draw at least as many",
            args.count
        )));
    }
    if let Some(out) = &args.output {
        super::check_outputs(&[("--output", out)], &[])?;
    }
    let request = Request {
        family,
        seed: args.seed,
        count: args.count,
        sizes,
        target: Target {
            min_length: args.min_length,
            min_positions: args.min_positions,
            max_check: args.max_positions_check,
            keep_unsolvable: args.keep_unsolvable,
        },
        hardest: args.hardest,
        count_reachable: args.count_reachable,
    };
    let puzzles = generate::generate(&request).map_err(|e| Failure {
        message: e.to_string(),
        code: 1,
    })?;
    match &args.out_dir {
        Some(dir) => write_dir(dir, &request, &puzzles),
        None => {
            let all: Vec<_> = puzzles.into_iter().map(|g| g.puzzle).collect();
            let text = native::write_collection(&all);
            write_output("--output", args.output.as_deref(), text.as_bytes())
        }
    }?;
    Ok(0)
}

/// Writes each puzzle to its own file in `dir` (created if missing).
fn write_dir(dir: &str, request: &Request, puzzles: &[Generated]) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("--out-dir {dir}: cannot create the folder: {e}")))?;
    for (k, g) in puzzles.iter().enumerate() {
        let name = format!("{}.txt", generate::stem(request.family, request.seed, k));
        let path = std::path::Path::new(dir).join(name);
        write_file(
            "--out-dir",
            &path.to_string_lossy(),
            native::write(&g.puzzle).as_bytes(),
        )?;
    }
    Ok(())
}
