//! `lumi-driver NAME` solves the example called NAME (e.g. "🎩 The Time Machine")
//! of lumi-a/sliding-blocks' `src/examples.rs` with its `solve_puzzle_minmoves`
//! and prints the minimal number of moves (`none` when it finds no solution).
//! `lumi-driver --list` prints every example as `NAME<TAB>MIN_MOVES`.
use sliding_blocks::examples::{Puzzle, MULTI_GOAL_EXAMPLES, SINGLE_GOAL_EXAMPLES};
use sliding_blocks::solve_puzzle_minmoves;
use std::process::ExitCode;

fn examples() -> impl Iterator<Item = &'static Puzzle> {
    MULTI_GOAL_EXAMPLES.iter().chain(SINGLE_GOAL_EXAMPLES.iter())
}

fn main() -> ExitCode {
    let Some(name) = std::env::args().nth(1) else {
        eprintln!("usage: lumi-driver NAME | --list");
        return ExitCode::from(2);
    };
    if name == "--list" {
        for p in examples() {
            println!("{}\t{}", p.name, p.min_moves);
        }
        return ExitCode::SUCCESS;
    }
    let Some(puzzle) = examples().find(|p| p.name == name) else {
        eprintln!("no example named {name:?} (see --list)");
        return ExitCode::from(2);
    };
    match solve_puzzle_minmoves(puzzle.start, puzzle.goal) {
        Ok(Some(moves)) => {
            println!("{moves}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            println!("none");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{name}: {e:?}");
            ExitCode::from(2)
        }
    }
}
