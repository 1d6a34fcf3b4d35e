//! `solver render PUZZLE [--solution FILE] [-o OUT]`: a picture of a puzzle
//! (`.svg`, `.png`), a page that plays it and its solution (`.html`: by
//! hand with hints when the solver's WebAssembly module is found, see
//! [`super::web_module`]), or a solution's animation (`.gif`), the kind
//! chosen by OUT's extension. Without `-o` (or with `-o -`) the SVG goes to
//! standard output, or the page when a solution is given without `--move`.
//! Exit 0 written, 2 bad input.

use clap::Args;

use super::verify::{one_puzzle, read_solution, stdin_once};
use super::{write_output, Failure, PuzzleInput};
use crate::model::Puzzle;
use crate::render::{self, Frames, Kind};
use crate::solution::{self, SolutionMove};

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Solution to show (`ID ROW,COL STEPS` per line, as `solve --solution` writes), or `-` for standard input.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<String>,
    /// Output: .svg or .png (a picture), .html (a page to play the puzzle and the solution), .gif (an animation).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
    /// For .html: the solver compiled to WebAssembly, for play and hints in the page (`off`: none; default: $SBP_WEB_MODULE, else found beside the solver).
    #[arg(long, value_name = "FILE")]
    pub web_module: Option<String>,
    /// For .svg/.png: draw the position after N moves of the solution (default 0, the start).
    #[arg(long = "move", value_name = "N")]
    pub at: Option<usize>,
    /// Which puzzle of a collection (1-based).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("verify", "index"))]
    pub index: Option<usize>,
}

pub fn run(args: &RenderArgs) -> Result<i32, Failure> {
    let file = &args.input.puzzle;
    stdin_once(file, args.solution.as_deref().unwrap_or(""))?;
    if let Some(out) = &args.output {
        let solution = args.solution.as_deref().unwrap_or("-");
        super::check_outputs(&[("--output", out)], &[file, solution])?;
    }
    if let (Some(at @ 1..), None) = (args.at, &args.solution) {
        return Err(Failure::input(format!(
            "--move {at} draws the position after {at} moves of a solution: give one with --solution FILE"
        )));
    }
    let puzzle = one_puzzle(args.input.load()?, args.index, file, "the picture")?;
    let moves = match &args.solution {
        Some(path) => {
            let text = read_solution(path, file)?;
            Some(solution::parse(&text, path).map_err(|e| Failure::input(e.to_string()))?)
        }
        None => None,
    };
    let shows_solution = moves.is_some() && args.at.is_none();
    let kind = Kind::for_output(args.output.as_deref(), shows_solution).map_err(Failure::input)?;
    let title = puzzle.name.clone().unwrap_or_else(|| file.clone());
    let bytes = draw(
        &puzzle,
        moves.as_deref(),
        kind,
        (args.at, args.web_module.as_deref()),
        &title,
    )?;
    write_output("--output", args.output.as_deref(), &bytes)?;
    Ok(0)
}

/// The picture's bytes: the solution (if any) replayed by the verifier, then
/// drawn as `kind`; `at` picks the frame of a still picture, `module` the
/// page's WebAssembly module (`--web-module`).
pub fn draw(
    puzzle: &Puzzle,
    moves: Option<&[SolutionMove]>,
    kind: Kind,
    (at, module): (Option<usize>, Option<&str>),
    title: &str,
) -> Result<Vec<u8>, Failure> {
    let frames = match moves {
        Some(moves) => Frames::replay(puzzle, moves).map_err(Failure::input)?,
        None if kind.needs_solution() => {
            return Err(Failure::input(
                "an animation (.gif) shows a solution: pass --solution FILE \
                 (write one with `solver solve PUZZLE --solution FILE`), or draw the puzzle as .svg, .png or .html",
            ))
        }
        None => Frames::start(puzzle),
    };
    draw_frames(puzzle, &frames, kind, (at, module), title)
}

/// The picture's bytes for frames already replayed (`solve` replays its
/// solution once and shares the frames with `--show`); `at` picks the frame
/// of a still picture, `module` the page's WebAssembly module.
pub fn draw_frames(
    puzzle: &Puzzle,
    frames: &Frames,
    kind: Kind,
    (at, module): (Option<usize>, Option<&str>),
    title: &str,
) -> Result<Vec<u8>, Failure> {
    let at = at.unwrap_or(0);
    if at >= frames.anchors.len() {
        return Err(Failure::input(format!(
            "--move {at} is past the end: the solution has {} move(s)",
            frames.anchors.len() - 1
        )));
    }
    if kind == Kind::Gif && frames.anchors.len() > crate::render::raster::GIF_MAX_FRAMES {
        eprintln!(
            "note: the GIF shows evenly spaced positions, not all {} of the solution; \
             the player (.html) shows every move",
            frames.anchors.len()
        );
    }
    let module = match kind {
        Kind::Html => super::web_module::find(module)?,
        _ => None,
    };
    render::draw(puzzle, frames, kind, at, title, module.as_deref()).map_err(|m| Failure {
        message: m,
        code: 3,
    })
}
