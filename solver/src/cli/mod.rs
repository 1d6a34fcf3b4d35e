//! The `solver` command line: one file per subcommand, each a thin layer over
//! the library. Exit codes: 0 solved / success, 1 no solution or limit
//! reached, 2 bad input or usage.

use clap::{Args, Parser, Subcommand};

use crate::formats::{self, Format, ImportOptions};

#[macro_use]
pub mod output;
use crate::model::Puzzle;

pub mod bench;
pub mod best_out;
pub mod count;
pub mod features;
pub mod generate;
pub mod heuristics;
pub mod import;
pub mod improve;
pub mod jobs;
pub mod option_args;
pub mod pdb;
pub mod pruning_args;
pub mod prunings;
pub mod ranged;
pub mod render;
pub mod search_args;
pub mod shell;
pub mod show;
pub mod solve;
pub mod variant;
pub mod verify;
pub mod web_module;

/// Sliding-block puzzle solver.
#[derive(Parser, Debug)]
#[command(name = "solver", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a puzzle's start position and goals.
    Show(show::ShowArgs),
    /// Search for a solution (exit 0 solved, 1 no solution or limit reached, 2 bad input).
    Solve(solve::SolveArgs),
    /// Measure positions per second and bytes per position for each encoding and thread count (markdown table).
    Bench(bench::BenchArgs),
    /// Count every position reachable from the start (exit 0 complete, 1 stopped by a limit).
    Count(count::CountArgs),
    /// Convert a puzzle or collection (--from FORMAT) to the native format on stdout.
    Import(import::ImportArgs),
    /// Replay a solution independently of the search (exit 0 valid, 1 invalid, 2 bad input).
    Verify(verify::VerifyArgs),
    /// Shorten a valid solution with breadth-first shortcuts over windows of its path.
    Improve(improve::ImproveArgs),
    /// Extract the case-based reasoner's features (exit 0 success, 2 bad input; nothing on stdout on failure).
    Features(features::FeaturesArgs),
    /// Draw a puzzle (.svg, .png), a page to play it and its solution (.html), or a solution's animation (.gif).
    Render(render::RenderArgs),
    /// Build pattern databases ahead of a search, or print their patterns, sizes and mean values.
    Pdb(pdb::PdbArgs),
    /// List the registered heuristics: name, admissibility, options (--json for the reasoner).
    Heuristics(output::ListArgs),
    /// Easier variants: rank blocks by obstruction, remove some, or turn a variant's solution into subgoals.
    Variant(variant::VariantArgs),
    /// List the registered prunings: name, flag, values, directedness (--json for the reasoner).
    Prunings(output::ListArgs),
    /// Random puzzles of a family, kept when BFS says they meet a difficulty target (native collection).
    Generate(generate::GenerateArgs),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff): `solver man > ~/.local/share/man/man1/solver.1`.
    Man(shell::ManArgs),
}

/// Where a puzzle comes from: shared by every subcommand that reads one.
#[derive(Args, Debug, Clone)]
pub struct PuzzleInput {
    /// Puzzle file, or `-` for standard input.
    pub puzzle: String,
    /// Input format; by default native or the thesis's old format, detected.
    #[arg(long = "from", value_enum)]
    pub from: Option<Format>,
    /// Board width for `--from tiles` when the tile count is not a square.
    #[arg(long, allow_hyphen_values = true, value_parser = ranged::whole::<usize>("import", "width"))]
    pub width: Option<usize>,
    /// `--from tiles`: the goal has the blank last instead of first.
    #[arg(long)]
    pub blank_last: bool,
}

impl PuzzleInput {
    /// Loads every puzzle of the input (a collection gives several).
    pub fn load(&self) -> Result<Vec<Puzzle>, Failure> {
        self.read(false)
    }

    /// Loads every puzzle of the input for a search: a puzzle without a goal
    /// section is bad input, named by file, line and column.
    pub fn load_with_goals(&self) -> Result<Vec<Puzzle>, Failure> {
        self.read(true)
    }

    fn read(&self, need_goal: bool) -> Result<Vec<Puzzle>, Failure> {
        if (self.width.is_some() || self.blank_last) && self.from != Some(Format::Tiles) {
            return Err(Failure::input(
                "--width and --blank-last describe tile puzzles: add --from tiles, or drop them",
            ));
        }
        let options = ImportOptions {
            width: self.width,
            blank_last: self.blank_last,
            need_goal,
        };
        formats::load(&self.puzzle, self.from, &options).map_err(|e| Failure::input(e.to_string()))
    }
}

/// A failed command: the message for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: i32,
}

impl Failure {
    /// Bad input or usage: exit code 2.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A puzzle of `file` that the search refused (exit code 2); in a
    /// collection (`many`) the puzzle's name says which one.
    pub fn refused(
        file: &str,
        puzzle: &crate::model::Puzzle,
        many: bool,
        why: impl std::fmt::Display,
    ) -> Failure {
        match (many, &puzzle.name) {
            (true, Some(name)) => Failure::input(format!("{file} ({name}): {why}")),
            _ => Failure::input(format!("{file}: {why}")),
        }
    }
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> Result<i32, Failure> {
    // Ctrl-C during a search asks it to stop: it ends with its summary and
    // what it has, then the binary exits 130 (`search::interrupt`).
    let stoppable = |run: &dyn Fn() -> Result<i32, Failure>| {
        let _signals = crate::search::interrupt::Guard::new();
        run()
    };
    match cli.command {
        Command::Show(args) => show::run(&args),
        Command::Solve(args) => stoppable(&|| solve::run(&args)),
        Command::Bench(args) => bench::run(&args),
        Command::Count(args) => stoppable(&|| count::run(&args)),
        Command::Import(args) => import::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Improve(args) => stoppable(&|| improve::run(&args)),
        Command::Features(args) => features::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Pdb(args) => pdb::run(&args),
        Command::Heuristics(args) => heuristics::run(&args),
        Command::Variant(args) => variant::run(&args),
        Command::Prunings(args) => prunings::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Completions(args) => shell::completions(&args),
        Command::Man(args) => shell::man(&args),
    }
}

/// Writes `flag`'s output `path` by the rules of [`sbp_outfile`], the one
/// writer behind every file a command writes: a regular file is replaced
/// atomically (its mode kept, a symlink written through, a read-only file
/// refused), a device or FIFO is written in place, `-` is standard output.
pub fn write_file(flag: &str, path: &str, bytes: &[u8]) -> Result<(), Failure> {
    let path = std::path::Path::new(path);
    let fail = |e| out_failure(flag, path, e);
    match sbp_outfile::resolve(path).map_err(fail)? {
        sbp_outfile::Dest::Stdout => output::text(bytes),
        dest => dest.write(bytes).map_err(fail),
    }
}

/// Writes a command's output to `path` ([`write_file`]) or, without one, to
/// standard output (see [`output::text`]).
pub fn write_output(flag: &str, path: Option<&str>, bytes: &[u8]) -> Result<(), Failure> {
    match path {
        Some(path) => write_file(flag, path, bytes),
        None => output::text(bytes),
    }
}

/// Checks, before any work, every file a command will write
/// ([`sbp_outfile::check_outputs`]): each could be written now, none is one
/// of the command's `inputs`, and no two name the same file. `outputs` are
/// (flag, path) pairs.
pub fn check_outputs(outputs: &[(&str, &str)], inputs: &[&str]) -> Result<(), Failure> {
    use std::path::Path;
    let inputs: Vec<&Path> = inputs.iter().map(Path::new).collect();
    let paths: Vec<(&str, &Path)> = outputs.iter().map(|&(f, p)| (f, Path::new(p))).collect();
    sbp_outfile::check_outputs(&paths, &inputs).map_err(|(k, e)| match e {
        // Names both outputs itself.
        sbp_outfile::Error::SameOutput { .. } => Failure::input(e.to_string()),
        e => out_failure(paths[k].0, paths[k].1, e),
    })
}

/// The failure for output `flag` `path` that cannot be written: exit 2 with
/// the writer's reason, which says what to do.
fn out_failure(flag: &str, path: &std::path::Path, e: sbp_outfile::Error) -> Failure {
    Failure::input(format!("{flag} {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use clap::{Args, CommandFactory};

    /// `solver --help` gives each subcommand its own line: a variant without
    /// a doc comment would show the text of a struct flattened into it.
    #[test]
    fn every_subcommand_has_its_own_description() {
        let flattened = super::PuzzleInput::augment_args(clap::Command::new("x"))
            .get_about()
            .map(|a| a.to_string());
        assert_eq!(
            flattened.as_deref(),
            Some("Where a puzzle comes from: shared by every subcommand that reads one")
        );
        let cli = super::Cli::command();
        let mut seen: Vec<String> = Vec::new();
        for sub in cli.get_subcommands() {
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(!about.is_empty(), "{} has no description", sub.get_name());
            assert_ne!(Some(&about), flattened.as_ref(), "{}", sub.get_name());
            assert!(
                !seen.contains(&about),
                "{} repeats {about:?}",
                sub.get_name()
            );
            seen.push(about);
        }
        assert_eq!(seen.len(), 16);
        let count = cli.find_subcommand("count").unwrap().get_about().unwrap();
        assert!(count
            .to_string()
            .starts_with("Count every position reachable"));
    }

    /// A heuristic's option shows its declared value name in `--help`
    /// (`--pdb <GROUPS>`, not a generic `<TEXT>`).
    #[test]
    fn options_show_their_value_names() {
        let mut cli = super::Cli::command();
        let help = cli
            .find_subcommand_mut("solve")
            .unwrap()
            .render_help()
            .to_string();
        for shown in [
            "--pdb <GROUPS>",
            "--pdb-cache <DIR>",
            "--pdb-memory <BYTES>",
        ] {
            assert!(help.contains(shown), "{shown} not in {help}");
        }
    }
}
