//! `solver variant PUZZLE`: easier variants for the reasoner's variant
//! phase ([`crate::variant`]). `--rank` lists the blocks by how much they
//! obstruct the master's way; `--remove ROW,COL` (repeatable) writes the
//! puzzle without those blocks, `--merge` the puzzle with its interchangeable
//! blocks merged into one type; adding `--subgoals SOLUTION` (the variant's
//! solution) writes the full puzzle with the variant's positions as goal
//! sections instead. `--park BEST` (a `solver solve --best-out` file) writes
//! the puzzle with one more goal section that parks the blocks standing on
//! the master's way in the nearest stored position. `--freeze ROW,COL` and
//! `--freeze-area R1,C1,R2,C2` (repeatable) write the puzzle with those
//! blocks turned into walls, a harder puzzle whose solutions solve this one.
//! `--split inside|outside|rest` writes the parts of a door split
//! ([`crate::variant::split`]): the master's region, the other regions, and
//! the full puzzle from where the first two parts' solutions leave it.

use clap::Args;

use super::verify::{one_puzzle, read_solution};
use super::{write_output, Failure, PuzzleInput};
use crate::formats::native;
use crate::solution;
use crate::variant::{self, freeze, merge, obstruction, park, split, subgoals};

#[derive(Args, Debug)]
pub struct VariantArgs {
    #[command(flatten)]
    pub input: PuzzleInput,
    /// Which puzzle of a collection (1-based).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("verify", "index"))]
    pub index: Option<usize>,
    /// Remove the block whose start anchor (first cell in reading order) is at ROW,COL; repeatable.
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell)]
    pub remove: Vec<(usize, usize)>,
    /// Merge block types of one shape (not the master, not in a goal) into one interchangeable type.
    #[arg(long, conflicts_with = "remove")]
    pub merge: bool,
    /// List the blocks, most obstructing first (the master's swept path on the empty board).
    #[arg(long, conflicts_with_all = ["remove", "merge", "subgoals", "park"])]
    pub rank: bool,
    /// A `solver solve --best-out` file of this puzzle: write the puzzle with a goal section before its final goal that parks the blocks on the master's way in the file's nearest position (and keeps the places of an earlier --park section).
    #[arg(long, value_name = "BEST", conflicts_with_all = ["remove", "merge", "subgoals"])]
    pub park: Option<String>,
    /// With --park: how many blocks to park at most, nearest the goal first; default 1 (one per round parks fewer blocks that are not in the way; on American Pie from its encoding-independent stall, 2 a round solved in two rounds and 1 a round in five).
    #[arg(long, value_name = "N", requires = "park", value_parser = super::ranged::whole::<usize>("variant", "park-blocks"))]
    pub park_blocks: Option<usize>,
    /// The variant's solution (with --remove or --merge): write the full puzzle with its positions as subgoals.
    #[arg(long, value_name = "SOLUTION")]
    pub subgoals: Option<String>,
    /// With --subgoals: a goal section after every N moves of the variant's solution.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::ranged::whole::<usize>("variant", "every"))]
    pub every: usize,
    /// With --subgoals: fix every kept block (`all`) or only the master (`master`) in each subgoal.
    #[arg(long, value_enum, default_value = "all")]
    pub fix: subgoals::Fix,
    /// Turn the block whose start anchor is at ROW,COL into walls where it stands; repeatable. The frozen puzzle is harder, and each of its solutions solves this puzzle as written (no block but the frozen ones is renamed or moved).
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell, conflicts_with_all = ["remove", "merge", "rank", "park", "subgoals", "every", "fix", "json", "park_blocks"])]
    pub freeze: Vec<(usize, usize)>,
    /// Freeze every block but the master whose start cells all lie within rows R1..R2 and columns C1..C2 (inclusive); repeatable, and combines with --freeze.
    #[arg(long, value_name = "R1,C1,R2,C2", value_parser = parse_area, conflicts_with_all = ["remove", "merge", "rank", "park", "subgoals", "every", "fix", "json", "park_blocks"])]
    pub freeze_area: Vec<freeze::Area>,
    /// Write a part of the door split: `inside` (the master's region, to the place it leaves from), `outside` (the other regions, the master from that place) or `rest` (the full puzzle after the first two parts' solutions, given by --inside-solution and --outside-solution).
    #[arg(long, value_enum, value_name = "PART", conflicts_with_all = ["remove", "merge", "rank", "park", "subgoals", "freeze", "freeze_area", "json"])]
    pub split: Option<SplitPart>,
    /// With --split rest: the inside part's solution.
    #[arg(long, value_name = "SOLUTION", requires = "split")]
    pub inside_solution: Option<String>,
    /// With --split rest: the outside part's solution.
    #[arg(long, value_name = "SOLUTION", requires = "split")]
    pub outside_solution: Option<String>,
    /// With --split rest: write the moves from the puzzle's start to the rest's start (the inside part's solution and the outside part's kept moves) to FILE.
    #[arg(long, value_name = "FILE", requires = "split")]
    pub moves_out: Option<String>,
    /// --rank as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the puzzle to OUT (atomically) instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
}

/// The parts of a door split (`--split`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitPart {
    Inside,
    Outside,
    Rest,
}

/// Comma-separated whole numbers, `None` unless each part is one.
fn whole_numbers(s: &str) -> Option<Vec<usize>> {
    s.split(',').map(|p| p.trim().parse().ok()).collect()
}

/// `ROW,COL` as two whole numbers.
fn parse_cell(s: &str) -> Result<(usize, usize), String> {
    match whole_numbers(s).as_deref() {
        Some(&[r, c]) => Ok((r, c)),
        _ => Err(format!(
            "expected ROW,COL (two whole numbers, e.g. 3,1), got '{s}'"
        )),
    }
}

/// `R1,C1,R2,C2` as two corners.
fn parse_area(s: &str) -> Result<freeze::Area, String> {
    match whole_numbers(s).as_deref() {
        Some(&[r1, c1, r2, c2]) => Ok(((r1, c1), (r2, c2))),
        _ => Err(format!("expected R1,C1,R2,C2 (four whole numbers: the top left and the bottom right corner, e.g. 0,0,4,9), got '{s}'")),
    }
}

pub fn run(args: &VariantArgs) -> Result<i32, Failure> {
    let file = &args.input.puzzle;
    let inputs: Vec<&str> = [
        Some(file.as_str()),
        args.park.as_deref(),
        args.subgoals.as_deref(),
        args.inside_solution.as_deref(),
        args.outside_solution.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if inputs.iter().filter(|i| **i == "-").count() > 1 {
        return Err(Failure::input(
            "two inputs read standard input (`-`), which holds one file: give the others as files",
        ));
    }
    let outputs: Vec<(&str, &str)> = [("--output", &args.output), ("--moves-out", &args.moves_out)]
        .into_iter()
        .filter_map(|(flag, out)| Some((flag, out.as_deref()?)))
        .collect();
    super::check_outputs(&outputs, &inputs)?;
    let puzzle = one_puzzle(args.input.load()?, args.index, file, "the variant")?;
    if args.rank {
        return print_rank(&obstruction::rank(&puzzle), args.json);
    }
    if args.merge {
        return merged(args, &puzzle);
    }
    if let Some(best) = &args.park {
        return parked(args, &puzzle, best);
    }
    if let Some(part) = args.split {
        return split_part(args, &puzzle, part);
    }
    if !args.freeze.is_empty() || !args.freeze_area.is_empty() {
        let out = freeze::chosen(&puzzle, &args.freeze, &args.freeze_area)
            .and_then(|frozen| freeze::freeze(&puzzle, &frozen))
            .map_err(|m| Failure::input(format!("{file}: {m}")))?;
        write_output(
            "--output",
            args.output.as_deref(),
            native::write(&out).as_bytes(),
        )?;
        return Ok(0);
    }
    if args.remove.is_empty() {
        return Err(Failure::input(
            "say what to do: --rank to list the blocks, or --remove ROW,COL, --merge or --freeze ROW,COL to write a variant",
        ));
    }
    let mut removed = Vec::new();
    for &(r, c) in &args.remove {
        let i = variant::instance_at(&puzzle, r, c)
            .map_err(|m| Failure::input(format!("{file}: --remove {r},{c}: {m}")))?;
        if !removed.contains(&i) {
            removed.push(i);
        }
    }
    let easy = variant::remove(&puzzle, &removed);
    let out = match &args.subgoals {
        None => easy,
        Some(sol) => {
            let moves = solution_moves(sol, file)?;
            subgoals::from_solution(&puzzle, &easy, &moves, args.every, args.fix)
                .map_err(|m| Failure::input(format!("{sol}: {m}")))?
        }
    };
    write_output(
        "--output",
        args.output.as_deref(),
        native::write(&out).as_bytes(),
    )?;
    Ok(0)
}

/// `--merge`: the merged variant, or with `--subgoals` the full puzzle with
/// the merged variant's solution (its moves given the full puzzle's ids)
/// as goal sections.
fn merged(args: &VariantArgs, puzzle: &crate::model::Puzzle) -> Result<i32, Failure> {
    let file = &args.input.puzzle;
    let easy = merge::merge(puzzle).map_err(|m| Failure::input(format!("{file}: {m}")))?;
    let out = match &args.subgoals {
        None => easy,
        Some(sol) => {
            let moves = solution_moves(sol, file)?;
            merge::to_full(puzzle, &moves)
                .and_then(|full| {
                    subgoals::from_solution(puzzle, puzzle, &full, args.every, args.fix)
                })
                .map_err(|m| Failure::input(format!("{sol}: {m}")))?
        }
    };
    write_output(
        "--output",
        args.output.as_deref(),
        native::write(&out).as_bytes(),
    )?;
    Ok(0)
}

/// `--park BEST`: the puzzle with a parking section from BEST's nearest
/// position; what was parked goes to standard error.
fn parked(args: &VariantArgs, puzzle: &crate::model::Puzzle, best: &str) -> Result<i32, Failure> {
    let file = &args.input.puzzle;
    let bytes = crate::formats::read_bytes(best).map_err(|e| Failure::input(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure::input(format!(
            "{best}: not a `solver solve --best-out` file (not UTF-8)"
        ))
    })?;
    let positions: sbp_protocol::best::BestPositions =
        serde_json::from_str(&text).map_err(|e| {
            Failure::input(format!(
                "{best}: not a `solver solve --best-out` file ({e})"
            ))
        })?;
    let nearest = positions.positions.first().ok_or_else(|| {
        Failure::input(format!(
            "{best}: holds no position (the search solved the puzzle, or its algorithm keeps no visited set)"
        ))
    })?;
    let stall = native::parse(&nearest.puzzle, best)
        .map_err(|e| Failure::input(format!("{best}: its nearest position does not parse: {e}")))?;
    let (out, moved) = park::park(puzzle, &stall, args.park_blocks.unwrap_or(1))
        .map_err(|m| Failure::input(format!("{file}: --park {best}: {m}")))?;
    for p in &moved {
        eprintln!(
            "parked {} at {},{} (stands at {},{} in the nearest position, distance {})",
            p.id, p.to.0, p.to.1, p.from.0, p.from.1, nearest.distance
        );
    }
    write_output(
        "--output",
        args.output.as_deref(),
        native::write(&out).as_bytes(),
    )?;
    Ok(0)
}

/// `--split PART`: that part of the door split; for `rest`, the moves to
/// its start go to `--moves-out`.
fn split_part(
    args: &VariantArgs,
    puzzle: &crate::model::Puzzle,
    part: SplitPart,
) -> Result<i32, Failure> {
    let file = &args.input.puzzle;
    let rest_only = [
        &args.inside_solution,
        &args.outside_solution,
        &args.moves_out,
    ];
    if part != SplitPart::Rest && rest_only.iter().any(|a| a.is_some()) {
        return Err(Failure::input(
            "--inside-solution, --outside-solution and --moves-out go with --split rest",
        ));
    }
    let why = |m: String| Failure::input(format!("{file}: --split: {m}"));
    let plan = split::plan(puzzle).map_err(why)?;
    let out = match part {
        SplitPart::Inside => split::inside(puzzle, &plan).map_err(why)?,
        SplitPart::Outside => split::outside(puzzle, &plan).map_err(why)?,
        SplitPart::Rest => {
            let need = |s: &Option<String>, flag: &str| {
                s.clone()
                    .ok_or_else(|| Failure::input(format!("--split rest needs {flag} SOLUTION")))
            };
            let inside = solution_moves(&need(&args.inside_solution, "--inside-solution")?, file)?;
            let outside =
                solution_moves(&need(&args.outside_solution, "--outside-solution")?, file)?;
            let (rest, moves) = split::rest(puzzle, &plan, &inside, &outside).map_err(why)?;
            if let Some(path) = &args.moves_out {
                super::write_file("--moves-out", path, solution::write(&moves).as_bytes())?;
            }
            rest
        }
    };
    write_output(
        "--output",
        args.output.as_deref(),
        native::write(&out).as_bytes(),
    )?;
    Ok(0)
}

/// The moves of solution file `sol` (for puzzle `file`).
fn solution_moves(sol: &str, file: &str) -> Result<Vec<crate::solution::SolutionMove>, Failure> {
    let text = read_solution(sol, file)?;
    solution::parse(&text, sol).map_err(|e| Failure::input(e.to_string()))
}

fn print_rank(rank: &[obstruction::Obstruction], json: bool) -> Result<i32, Failure> {
    if json {
        let text = serde_json::to_string(rank).map_err(|e| Failure::input(e.to_string()))?;
        outln!("{text}");
        return Ok(0);
    }
    outln!("block  anchor  cells on the master's path  distance to it  goal block");
    for o in rank {
        let anchor = format!("{},{}", o.row, o.col);
        outln!(
            "{:<5}  {anchor:<6}  {:>26}  {:>14}  {}",
            o.id,
            o.cells_on_path,
            o.distance.map_or("-".to_string(), |d| d.to_string()),
            if o.goal_block { "yes" } else { "no" }
        );
    }
    Ok(0)
}
