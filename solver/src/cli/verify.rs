//! `solver verify PUZZLE SOLUTION`: replays a solution with the independent
//! verifier ([`crate::verify`]). Exit 0 valid, 1 invalid solution, 2 bad input.

use clap::Args;

use super::import::select;
use super::{Failure, PuzzleInput};
use crate::formats;
use crate::model::Puzzle;
use crate::solution;
use crate::verify::replay;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Solution file (`ID ROW,COL STEPS` per line), or `-` for standard input.
    pub solution: String,
    /// Which puzzle of a collection the solution is for (1-based).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("verify", "index"))]
    pub index: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The 1-based file line of each move, by the rule of [`solution::parse`]:
/// blank lines and lines starting with `%` are not moves.
fn move_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('%')
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// Reads a solution file (or `-`, standard input, unless the puzzle comes from it).
pub(super) fn read_solution(path: &str, puzzle_path: &str) -> Result<String, Failure> {
    stdin_once(puzzle_path, path)?;
    let bytes = formats::read_bytes(path).map_err(|e| Failure::input(e.to_string()))?;
    formats::decode(path, &bytes)
        .map(str::to_string)
        .map_err(|e| Failure::input(e.to_string()))
}

/// Refuses a puzzle and a solution that both read standard input (`-`):
/// the puzzle would take all of it. Called before the puzzle is read, so
/// that the error says this rather than how the mixed text fails to parse.
pub(super) fn stdin_once(puzzle_path: &str, solution_path: &str) -> Result<(), Failure> {
    match puzzle_path == "-" && solution_path == "-" {
        true => Err(Failure::input(
            "the puzzle and the solution cannot both come from standard input: give one of them as a file",
        )),
        false => Ok(()),
    }
}

/// The one puzzle `what` (e.g. "the solution") is for: the file's only
/// puzzle, or `--index N`.
pub(super) fn one_puzzle(
    puzzles: Vec<Puzzle>,
    index: Option<usize>,
    file: &str,
    what: &str,
) -> Result<Puzzle, Failure> {
    let mut puzzles = select(puzzles, index, file)?;
    if puzzles.len() > 1 {
        return Err(Failure::input(format!(
            "{file} holds {} puzzles: say which one {what} is for with --index N",
            puzzles.len()
        )));
    }
    Ok(puzzles.remove(0))
}

/// The puzzle a solution file is for (the `index`-th of a collection), the
/// file's text (for line numbers in errors) and its moves: what `verify`
/// and `improve` both start from.
pub fn puzzle_and_solution(
    input: &PuzzleInput,
    index: Option<usize>,
    solution_file: &str,
) -> Result<(Puzzle, String, Vec<solution::SolutionMove>), Failure> {
    let file = &input.puzzle;
    stdin_once(file, solution_file)?;
    let puzzle = one_puzzle(input.load_with_goals()?, index, file, "the solution")?;
    let text = read_solution(solution_file, file)?;
    let moves = solution::parse(&text, solution_file).map_err(|e| Failure::input(e.to_string()))?;
    Ok((puzzle, text, moves))
}

pub fn run(args: &VerifyArgs) -> Result<i32, Failure> {
    let (puzzle, text, moves) = puzzle_and_solution(&args.input, args.index, &args.solution)?;
    let puzzle = &puzzle;
    let total = puzzle.goals.len();
    let (code, summary, json) = match replay(puzzle, &moves) {
        Ok(r) if r.solved => (
            0,
            format!(
                "valid: {} steps, {} moves; {}",
                r.steps,
                r.moves,
                if total == 1 {
                    "the goal is reached".to_string()
                } else {
                    format!("all {total} goal sections are reached in order")
                }
            ),
            serde_json::json!({
                "valid": true, "steps": r.steps, "moves": r.moves,
                "goals_reached": r.goals_reached, "goals_total": total,
            }),
        ),
        Ok(r) => {
            let message = r.shortfall(total);
            (
                1,
                format!(
                    "invalid: {message}; final position:\n{}",
                    puzzle.render(&r.final_position).trim_end_matches('\n')
                ),
                serde_json::json!({
                    "valid": false, "steps": r.steps, "moves": r.moves,
                    "goals_reached": r.goals_reached, "goals_total": total,
                    "error": message,
                }),
            )
        }
        Err(e) => {
            let line = move_lines(&text).get(e.index).copied();
            let message = e.describe(line);
            (
                1,
                format!("invalid: {message}"),
                serde_json::json!({
                    "valid": false, "goals_total": total, "error": message,
                    "move": e.index + 1, "line": line, "step": e.step,
                }),
            )
        }
    };
    if args.json {
        outln!("{json}");
    } else {
        outln!("{summary}");
    }
    Ok(code)
}
