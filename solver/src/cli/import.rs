//! `solver import --from FORMAT INPUT`: converts a puzzle (or a collection)
//! to the native format on standard output. A collection is written as
//! native puzzles separated by lines `%%`, which every subcommand reads back;
//! `--index N` writes only the N-th puzzle.

use clap::Args;

use super::{write_output, Failure, PuzzleInput};
use crate::formats::native;
use crate::model::Puzzle;

#[derive(Args, Debug)]
pub struct ImportArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Only the N-th puzzle of a collection (1-based).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("verify", "index"))]
    pub index: Option<usize>,
    /// Write to FILE (replaced atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<String>,
}

/// The puzzles `--index` selects: all of them without it, else the N-th.
pub fn select(
    puzzles: Vec<Puzzle>,
    index: Option<usize>,
    file: &str,
) -> Result<Vec<Puzzle>, Failure> {
    let Some(n) = index else {
        return Ok(puzzles);
    };
    let count = puzzles.len();
    if n == 0 || n > count {
        return Err(Failure::input(format!(
            "{file}: --index {n} is out of range: the file holds {count} puzzle(s), numbered from 1"
        )));
    }
    Ok(puzzles.into_iter().skip(n - 1).take(1).collect())
}

pub fn run(args: &ImportArgs) -> Result<i32, Failure> {
    if let Some(out) = &args.output {
        super::check_outputs(&[("--output", out)], &[&args.input.puzzle])?;
    }
    let puzzles = select(args.input.load()?, args.index, &args.input.puzzle)?;
    let text = native::write_collection(&puzzles);
    write_output("--output", args.output.as_deref(), text.as_bytes())?;
    Ok(0)
}
