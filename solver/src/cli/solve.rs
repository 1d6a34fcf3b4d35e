//! `solver solve PUZZLE`: search for a solution and report it.

use clap::Args;

use super::jobs;
use super::render::draw_frames;
use super::search_args::SearchJob;
use super::{check_outputs, write_file, Failure};
use crate::model::{Position, Puzzle};
use crate::params::{Limits, SearchParams};
use crate::render::{Frames, Kind};
use crate::report::{SolveReport, Status};
use crate::search::pick::{Picked, Wants};
use crate::search::{self, Progress, SolveOptions, SolveOutput};
use crate::solution::{self, SolutionMove};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub job: SearchJob,
    /// Print one JSON object per puzzle (JSON Lines for a collection).
    #[arg(long)]
    pub json: bool,
    /// Write the solution to FILE (several puzzles: FILE.1, FILE.2, ...) and include it in the JSON.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<String>,
    /// Print the board after every move of the solution.
    #[arg(long)]
    pub show: bool,
    /// No progress bar on stderr (it is also off with --json and when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Also say why the position encoding was chosen (in the JSON: always, as encoding_reason).
    #[arg(short, long)]
    pub verbose: bool,
    /// Draw the solution found: OUT.html (player), .gif (animation), .svg/.png (the start).
    /// Several puzzles: OUT's stem numbered, e.g. play.1.html, play.2.html.
    #[arg(long, value_name = "OUT")]
    pub render: Option<String>,
    /// When no solution is found, write the positions nearest the goal (with their paths and
    /// the puzzle restarted from each) to FILE as JSON, for restarts from the best (BFS, A*).
    #[arg(long, value_name = "FILE")]
    pub best_out: Option<String>,
    /// Only solutions of at most N actions (in --metric): longer paths are cut, and a search
    /// that finds none within N reports no_solution (under that bound).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<u64>("solve", "max-length"))]
    pub max_length: Option<u64>,
    /// An optimal search of the solver's choosing: bidirectional BFS where the goal fixes every
    /// block, IDA* with the strongest admissible heuristic for tile puzzles (pattern databases)
    /// and keys too wide to store, else BFS; the JSON's params and algorithm_reason say which.
    /// Takes the place of --algorithm, --heuristic, --weight, --ida-limit.
    #[arg(long, conflicts_with_all = ["algorithm", "heuristic", "weight", "ida_limit"])]
    pub optimal: bool,
    #[command(flatten)]
    pub jobs: jobs::JobsArg,
    /// How many best positions --best-out writes (diverse: they differ in at least two blocks).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = super::ranged::whole::<usize>("solve", "best-count"))]
    pub best_count: usize,
}

pub fn run(args: &SolveArgs) -> Result<i32, Failure> {
    let puzzles = args.job.input.load_with_goals()?;
    // Before any search: what it finds must have somewhere to go (the
    // folder takes files), and not over its input (in a collection, each
    // puzzle's numbered file).
    plain_outputs(args, puzzles.len() > 1)?;
    let outputs = output_paths(args, puzzles.len());
    let outputs: Vec<(&str, &str)> = outputs.iter().map(|(f, p)| (*f, p.as_str())).collect();
    check_outputs(&outputs, &[&args.job.input.puzzle])?;
    let asked = args.job.search.params();
    let limits = Limits {
        max_length: args.max_length,
        ..args.job.limits.limits()
    };
    let many = puzzles.len() > 1;
    if many && args.best_out.is_some() {
        return Err(Failure::input(
            "--best-out takes one puzzle: choose one of the collection with `solver import --index N`",
        ));
    }
    if let Some(out) = &args.render {
        Kind::for_output(Some(out), true).map_err(Failure::input)?;
    }
    let jobs = args.jobs.for_collection(puzzles.len(), asked.threads);
    let (limits, held) = jobs::shared(limits, jobs);
    let mut code = 0;
    let work = |index: usize| solve_one(args, &puzzles[index], &asked, &limits, held, many);
    jobs::in_order(puzzles.len(), jobs, work, |index, solved| {
        let (params, reason, out, frames) = solved?;
        let puzzle = &puzzles[index];
        let mut report = make_report(args, puzzle, &out, (&params, reason), limits);
        let at = (index, many);
        let written = write_files(args, at, puzzle, &out, frames.as_ref(), &mut report);
        // The result is printed even when its file could not be written, then the error.
        if args.json {
            outln!(
                "{}",
                serde_json::to_string(&report).map_err(|e| internal_error(&e.to_string()))?
            );
        } else {
            print_summary(puzzle, &report, &out, args.verbose)?;
            let asked = args.show || args.solution.is_some() || args.render.is_some();
            if !many && !asked && out.status == Status::Solved {
                outln!("  moves: --solution FILE writes them (--solution - prints them here), --show prints the board after each, --render play.html plays them");
            }
        }
        if let (true, Some(frames)) = (args.show, &frames) {
            show_solution(puzzle, frames)?;
        }
        written?;
        code = code.max(out.status.exit_code());
        Ok(())
    })?;
    Ok(code)
}

/// Refuses outputs that would mix with others or cannot be numbered:
/// standard output (`-`) beside `--json`'s results on it, and, in a
/// collection, anything but a file name for `--solution` and `--render`,
/// which write one numbered file per puzzle (`-.1` or `/dev/null.1` would be
/// regular files).
fn plain_outputs(args: &SolveArgs, many: bool) -> Result<(), Failure> {
    let flags = [
        ("--solution", &args.solution),
        ("--render", &args.render),
        ("--best-out", &args.best_out),
    ];
    for (flag, path) in flags {
        let Some(path) = path else { continue };
        let dest = sbp_outfile::resolve(std::path::Path::new(path));
        let is_file = matches!(dest, Ok(sbp_outfile::Dest::Replace { .. }) | Err(_));
        if args.json && matches!(dest, Ok(sbp_outfile::Dest::Stdout)) {
            return Err(Failure::input(format!(
                "{flag} {path}: --json prints the results on standard output; give {flag} a file"
            )));
        }
        if many && flag != "--best-out" && !is_file {
            return Err(Failure::input(format!(
                "{flag} {path}: a collection writes one numbered file per puzzle ({flag} FILE \
                 gives FILE.1, FILE.2, ...): give a file name, not standard output or a device"
            )));
        }
    }
    Ok(())
}

/// What one job hands back: the parameters searched with and why that
/// algorithm, the search's output, and the verifier's frames when `--show`
/// or `--render` wants them.
type Solved = (SearchParams, String, SolveOutput, Option<Frames>);

/// One puzzle's search and the verifier's replay of what it found: the work
/// of one job (`held`: see [`SolveOptions`]).
fn solve_one(
    args: &SolveArgs,
    puzzle: &Puzzle,
    asked: &SearchParams,
    limits: &Limits,
    held: Option<u64>,
    many: bool,
) -> Result<Solved, Failure> {
    let options = SolveOptions {
        progress: Progress::new(args.quiet || args.json || many)
            .with_limit(limits.max_positions)
            .with_bound_lines(!args.quiet && !many),
        best: args.best_out.as_ref().map_or(0, |_| args.best_count),
        held,
    };
    let refused = |m| Failure::refused(&args.job.input.puzzle, puzzle, many, m);
    let picked = if args.optimal {
        crate::improve::optimal::choose(puzzle, asked).map_err(refused)?
    } else if args.job.search.algorithm.is_some() {
        Picked {
            params: asked.clone(),
            reason: format!("{} (asked for)", asked.algorithm.name()),
        }
    } else {
        let wants = Wants {
            best_positions: args.best_out.is_some(),
        };
        crate::search::pick::default(puzzle, asked, wants).map_err(refused)?
    };
    let params = picked.params;
    let out = search::solve(puzzle, &params, limits, options).map_err(refused)?;
    // Every solution is replayed by the independent verifier, once, before
    // it is reported; `--show` and `--render` draw the frames of that replay.
    let frames = match &out.solution {
        Some(lines) => verified(puzzle, lines, args.show || args.render.is_some())?,
        None => None,
    };
    Ok((params, picked.reason, out, frames))
}

/// Writes what the flags ask for of one puzzle's result (`--solution`,
/// `--best-out`, `--render`; numbered in a collection: `at` is the puzzle's
/// index and whether there are many) and puts the solution in `report`.
/// Every file is tried; the first error is returned.
fn write_files(
    args: &SolveArgs,
    (index, many): (usize, bool),
    puzzle: &Puzzle,
    out: &SolveOutput,
    frames: Option<&Frames>,
    report: &mut SolveReport,
) -> Result<(), Failure> {
    let mut written = Ok(());
    if let (Some(file), Some(lines)) = (&args.solution, &out.solution) {
        let path = solution_path(file, index, many);
        written = write_file("--solution", &path, solution::write(lines).as_bytes());
        report.solution = Some(lines.iter().map(|m| m.to_string()).collect());
    }
    if let Some(path) = &args.best_out {
        written = written.and(super::best_out::write(
            path,
            &args.job.input.puzzle,
            puzzle,
            out,
        ));
    }
    if let Some(path) = &args.render {
        let path = render_path(path, index, many);
        let drawn = render_solution(puzzle, &path, &args.job.input.puzzle, frames);
        written = written.and(drawn);
    }
    written
}

/// The JSON result of one solve.
fn make_report(
    args: &SolveArgs,
    puzzle: &Puzzle,
    out: &SolveOutput,
    (params, algorithm_reason): (&SearchParams, String),
    limits: Limits,
) -> SolveReport {
    SolveReport {
        puzzle: args.job.input.puzzle.clone(),
        name: puzzle.name.clone(),
        status: out.status,
        steps: out.steps(),
        moves: out.moves(),
        positions_examined: out.stats.examined,
        positions_stored: out.stats.stored,
        best_distance: out.stats.best_distance,
        best_distance_positions: out.stats.best_distance_positions,
        start_distance: out.start_distance,
        goals_reached: out.goals_reached,
        goals_total: puzzle.goals.len(),
        elapsed_ms: out.elapsed_ms,
        peak_memory_bytes: out.stats.peak_memory,
        spill_disk_bytes: out.stats.disk_bytes,
        encoding: out.encoding.to_string(),
        encoding_reason: out.encoding_reason.clone(),
        key_bits: out.key_bits,
        limit: out.limit.map(|l| l.name().to_string()),
        lower_bound: out.lower_bound,
        optimal: out.optimal,
        algorithm_reason,
        params: params.clone(),
        limits,
        solution: None,
    }
}

/// Replays the solution found with the independent verifier: one that does
/// not reach the goal is a bug (exit 3). With `keep_frames` the positions of
/// the replay are kept for `--show` and `--render`.
fn verified(
    puzzle: &Puzzle,
    lines: &[SolutionMove],
    keep_frames: bool,
) -> Result<Option<Frames>, Failure> {
    let not_legal = |e: String| internal_error(&format!("the solution found does not replay: {e}"));
    let (solved, frames) = if keep_frames {
        let frames = Frames::replay(puzzle, lines).map_err(not_legal)?;
        (frames.solved, Some(frames))
    } else {
        let replay = crate::verify::replay(puzzle, lines).map_err(|e| not_legal(e.to_string()))?;
        (replay.solved, None)
    };
    match solved {
        true => Ok(frames),
        false => Err(internal_error("the solution found does not reach the goal")),
    }
}

/// `--render OUT`: draws the solution found (its verified frames); without
/// one, says so on stderr.
fn render_solution(
    puzzle: &Puzzle,
    path: &str,
    file: &str,
    frames: Option<&Frames>,
) -> Result<(), Failure> {
    let Some(frames) = frames else {
        eprintln!("note: no solution was found, so nothing is drawn to {path}");
        return Ok(());
    };
    let kind = Kind::for_output(Some(path), true).map_err(Failure::input)?;
    let title = puzzle.name.clone().unwrap_or_else(|| file.to_string());
    let bytes = draw_frames(puzzle, frames, kind, (None, None), &title)?;
    write_file("--render", path, &bytes)
}

/// Where the solution of puzzle `index` goes: `FILE`, or `FILE.N` in a
/// collection (`many`).
fn solution_path(file: &str, index: usize, many: bool) -> String {
    match many {
        true => format!("{file}.{}", index + 1),
        false => file.to_string(),
    }
}

/// Where the picture of puzzle `index` goes: `OUT`, or `OUT` numbered
/// before its extension in a collection (`many`).
fn render_path(path: &str, index: usize, many: bool) -> String {
    match many {
        true => numbered(path, index + 1),
        false => path.to_string(),
    }
}

/// Every file the run may write, with its flag: the solutions and pictures
/// of each of the `count` puzzles, and the best positions.
fn output_paths(args: &SolveArgs, count: usize) -> Vec<(&'static str, String)> {
    let many = count > 1;
    let mut paths = Vec::new();
    for index in 0..count {
        if let Some(file) = &args.solution {
            paths.push(("--solution", solution_path(file, index, many)));
        }
        if let Some(file) = &args.render {
            paths.push(("--render", render_path(file, index, many)));
        }
    }
    if let Some(file) = &args.best_out {
        paths.push(("--best-out", file.clone()));
    }
    paths
}

/// `play.html` numbered for the `n`-th puzzle of a collection: `play.n.html`.
fn numbered(path: &str, n: usize) -> String {
    let p = std::path::Path::new(path);
    let stem = p.file_stem().unwrap_or_default().to_string_lossy();
    let name = match p.extension() {
        Some(ext) => format!("{stem}.{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{n}"),
    };
    p.with_file_name(name).to_string_lossy().into_owned()
}

/// A bug in the solver itself: exit code 3, with a request to report it.
fn internal_error(what: &str) -> Failure {
    Failure {
        message: format!("internal error: {what}; please report this with the puzzle file"),
        code: 3,
    }
}

fn print_summary(
    puzzle: &Puzzle,
    r: &SolveReport,
    out: &SolveOutput,
    verbose: bool,
) -> Result<(), Failure> {
    let name = puzzle.name.as_deref().unwrap_or(&r.puzzle);
    match r.status {
        Status::Solved => outln!(
            "{name}: solved in {} steps, {} moves{}",
            r.steps.unwrap_or(0),
            r.moves.unwrap_or(0),
            match (r.optimal, r.lower_bound) {
                (true, _) => format!(" (optimal in {})", r.params.metric.name()),
                (false, Some(n)) if n > 0 =>
                    format!("; the optimum is at least {n} {}", r.params.metric.name()),
                _ => String::new(),
            }
        ),
        Status::NoSolution if out.by_parity => outln!(
            "{name}: no solution: the parity of the tiles' permutation differs from that of the blank's distance to its goal cell, and every move flips both (no search needed)"
        ),
        Status::NoSolution => outln!(
            "{name}: no solution under these settings (every reachable position examined); the master came within {} steps of its goal (from {} at the start)",
            r.best_distance, r.start_distance
        ),
        Status::LimitReached => outln!(
            "{name}: stopped by {} before a solution; the master came within {} steps of its goal (from {} at the start; first after {} positions){}",
            crate::search::limit_said(r.limit.as_deref().unwrap_or("a limit")),
            r.best_distance,
            r.start_distance,
            r.best_distance_positions,
            r.lower_bound
                .map(|n| format!("; every solution takes at least {n} {}", r.params.metric.name()))
                .unwrap_or_default()
        ),
    }
    if let Some(next) = next_step(r) {
        outln!("  next: {next}");
    }
    outln!("  algorithm: {}", r.algorithm_reason);
    let secs = r.elapsed_ms as f64 / 1000.0;
    let rate = r.positions_examined as f64 / secs.max(1e-6);
    let mib = r.peak_memory_bytes as f64 / (1 << 20) as f64;
    if r.params.algorithm.fluid() {
        // The fluid search stores abstract states, not position keys.
        outln!(
            "  {} abstract states examined (units counted per region), {} stored, {secs:.3} s ({rate:.0} states/s), peak {mib:.1} MiB",
            r.positions_examined,
            r.positions_stored,
        );
    } else {
        outln!(
            "  {} positions examined, {} stored, {secs:.3} s ({rate:.0} positions/s), peak {mib:.1} MiB, {} encoding ({} bits)",
            r.positions_examined,
            r.positions_stored,
            out.encoding,
            out.key_bits
        );
        if verbose {
            outln!("  encoding: {}", out.encoding_reason);
        }
    }
    if puzzle.goals.len() > 1 {
        outln!(
            "  goal sections reached: {} of {}",
            r.goals_reached,
            r.goals_total
        );
    }
    Ok(())
}

/// Prints the board before the solution and after each move, the positions
/// replayed by the verifier (the same frames `--render` draws).
/// What a person can do after a search that found no solution: the limit
/// that stopped it, or the settings that cut the space, and the reasoner,
/// which chooses settings itself. `None` when solved or interrupted.
fn next_step(r: &SolveReport) -> Option<&'static str> {
    match (r.status, r.limit.as_deref()) {
        (Status::LimitReached, Some("max_positions")) => Some(
            "raise --max-positions, try a search that reaches far with fewer positions \
             (--algorithm bfws --heuristic path), or let the reasoner choose (`reasoner solve PUZZLE`)",
        ),
        (Status::LimitReached, Some("time_limit")) => Some(
            "raise --time-limit, try another search (--algorithm bfws --heuristic path), \
             or let the reasoner choose (`reasoner solve PUZZLE`)",
        ),
        (Status::LimitReached, Some("max_memory")) => Some(
            "raise --max-memory, give a BFS room on disk (--spill DIR), search with less memory \
             (--algorithm ida), or let the reasoner choose (`reasoner solve PUZZLE`)",
        ),
        (Status::NoSolution, _) if !r.params.prunings.is_empty() || !r.params.lock.is_empty() => Some(
            "the prunings or --lock may cut off every solution: search again without them",
        ),
        _ => None,
    }
}

fn show_solution(puzzle: &Puzzle, frames: &Frames) -> Result<(), Failure> {
    for (k, anchors) in frames.anchors.iter().enumerate() {
        let position = Position {
            anchors: anchors.iter().map(|&a| a as u16).collect(),
        };
        match k {
            0 => outln!("start:\n{}", puzzle.render(&position)),
            _ => outln!(
                "move {k}: {}\n{}",
                frames.moves[k - 1],
                puzzle.render(&position)
            ),
        }
    }
    Ok(())
}
