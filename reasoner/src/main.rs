//! `reasoner`: the command line over the reasoner library.
//!
//! Exit codes: 0 solved (or command done), 1 not solved, 2 bad input or setup
//! (broken case base, failed feature extraction, missing solver), 130/143
//! interrupted by SIGINT/SIGTERM (its solvers are killed).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use reasoner::budget::Budget;
use reasoner::casebase::{self, legacy, Case, CaseBase, FoundBy, Outcome, Provenance};
use reasoner::cycle::{self, CycleConfig};
use reasoner::flags::{self, parse};
use reasoner::interrupt::{Gate, Interrupt};
use reasoner::launch;
use reasoner::params::{Algorithm, Heuristic, Metric, ParamSet};
use reasoner::plan::SearchConfig;
use reasoner::runner::{RunLimits, RunStatus, Runner};
use reasoner::similarity::{scaled_size, Similarity, SCALED_SIZE};
use reasoner::space::Space;
use reasoner::Error;

/// Case-based meta-reasoner: solves sliding-block puzzles unattended by
/// running `solver` with parameters from a case base and a proximity search.
#[derive(Parser, Debug)]
#[command(name = "reasoner", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle: retrieve, reuse, proximity search, final run (exit 0 solved, 1 not).
    Solve(SolveArgs),
    /// Show a puzzle's features and the cases ranked by similarity.
    Retrieve(RetrieveArgs),
    /// Inspect and edit a case base.
    #[command(subcommand)]
    Casebase(CaseBaseCommand),
    /// Print the thesis's four general settings (§8.2) for a puzzle with S
    /// spaces, the stand-ins for cases when the case base is empty.
    Settings(SettingsArgs),
    /// Fit the retrieval to a case base's performance profiles
    /// (leave-one-out) and store it in the case base.
    Learn(LearnArgs),
    /// Print the settings the reasoner would try first on a puzzle, in
    /// order, without running them.
    Rank(RankArgs),
}

#[derive(Args, Debug)]
struct LearnArgs {
    /// Case-base file (its cases with profiles are fitted to).
    casebase: PathBuf,
}

#[derive(Args, Debug)]
struct RankArgs {
    /// Puzzle file.
    puzzle: PathBuf,
    /// Case-base file.
    #[arg(long, value_name = "FILE")]
    casebase: PathBuf,
    /// Retrieval: learned, thesis, extended, random or none (default:
    /// learned when the case base has a fit, else thesis).
    #[arg(long)]
    similarity: Option<String>,
    /// Seed of random retrieval.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON: {similarity, puzzle, settings: [{params, args, predicted_positions, source}]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    solver: SolverArg,
}

#[derive(Args, Debug)]
struct SettingsArgs {
    /// The puzzle's number of spaces, 0 to 16384 (the settings' cutoffs grow with it).
    #[arg(long, value_name = "S", value_parser = parse::spaces, allow_negative_numbers = true)]
    spaces: u64,
    /// Print JSON: a list of {name, params, args}, `args` being the solver flags.
    #[arg(long)]
    json: bool,
    /// Print N parameter sets instead: the general settings, then sets the
    /// proximity search draws over the whole parameter space (the
    /// experiments' oracle grid; the solver is asked for its heuristics and
    /// prunings).
    #[arg(long, value_name = "N", value_parser = parse::grid, allow_negative_numbers = true)]
    grid: Option<usize>,
    /// Seed of the grid's draws.
    #[arg(long, default_value_t = 0, value_parser = parse::seed, allow_negative_numbers = true)]
    seed: u64,
    #[command(flatten)]
    solver: SolverArg,
}

#[derive(Args, Debug)]
struct SolverArg {
    /// The solver binary (default: `solver` beside this program, else on PATH).
    #[arg(long, value_name = "PATH")]
    solver: Option<PathBuf>,
}

impl SolverArg {
    fn path(&self) -> PathBuf {
        self.solver.clone().unwrap_or_else(Runner::default_solver)
    }

    fn runner(&self) -> Result<Runner, Error> {
        Runner::new(self.path())
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Puzzle file.
    puzzle: PathBuf,
    /// Case-base file (TOML; see casebase/README.md); default: the bundled seed case base (casebase/seed.toml, read-only).
    #[arg(long, value_name = "FILE")]
    casebase: Option<PathBuf>,
    /// Seed of the proximity search: the same seed gives the same attempts.
    #[arg(long, default_value_t = 0, value_parser = parse::seed, allow_negative_numbers = true)]
    seed: u64,
    /// Positions each attempt but the final may examine (1 or more).
    #[arg(long, value_name = "N", default_value_t = 5_000_000, value_parser = parse::position_limit, allow_negative_numbers = true)]
    position_limit: u64,
    /// Attempts before the final unlimited one (0 to 10000; 0: only the final).
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = parse::attempts, allow_negative_numbers = true)]
    attempts: usize,
    /// Solver processes at once, 1 to 256 (default: the number of cores); does not change the attempts.
    #[arg(long, value_name = "N", value_parser = parse::jobs, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// Attempts planned together, 1 to 1000; part of the plan (the same seed and wave give the same attempts).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = parse::wave, allow_negative_numbers = true)]
    wave: usize,
    /// Easier-variant recipes to try when the attempts fail, 0 to 100 (0: no variant phase, and no door split).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = parse::variants, allow_negative_numbers = true)]
    variants: usize,
    /// Rounds of restarts from the best positions when the attempts and variants fail, 0 to 100.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = parse::restarts, allow_negative_numbers = true)]
    restarts: usize,
    /// Rounds of parking the blocks on the master's way when the attempts fail (before the variants), 0 to 100.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = parse::parks, allow_negative_numbers = true)]
    parks: usize,
    /// Kill an attempt after S seconds, 0.001 to 1e9 (recorded as failed; default: 60 + 1 per
    /// 20,000 positions of --position-limit).
    #[arg(long, value_name = "S", value_parser = parse::seconds, allow_negative_numbers = true)]
    attempt_timeout: Option<Duration>,
    /// Kill the final unlimited attempt after S seconds, 0.001 to 1e9 (default: never).
    #[arg(long, value_name = "S", value_parser = parse::seconds, allow_negative_numbers = true)]
    final_timeout: Option<Duration>,
    /// Skip the final unlimited attempt.
    #[arg(long)]
    no_final: bool,
    /// Seconds the whole run may take, 0.001 to 1e9: the attempts, the final
    /// run and --improve share it (each solver gets what is left as its
    /// --time-limit); default: none.
    #[arg(long, value_name = "S", value_parser = parse::time_budget, allow_negative_numbers = true)]
    time_budget: Option<Duration>,
    /// Positions all solver runs together may examine (1 or more), split
    /// among the attempts that run at once; default: none.
    #[arg(long, value_name = "N", value_parser = parse::position_budget, allow_negative_numbers = true)]
    position_budget: Option<u64>,
    /// Shorten the first solution with `solver improve` (BFS shortcuts) while
    /// budget remains: the default.
    #[arg(long, overrides_with = "no_improve")]
    improve: bool,
    /// Keep the first solution as found (no improve phase).
    #[arg(long, overrides_with = "improve")]
    no_improve: bool,
    /// The measure the answer is aimed at: steps (one block one cell) or moves (one block
    /// any distance). Every attempt, the improve phase and the report use it; without it each
    /// case's parameters keep their own metric and the improve phase counts steps.
    #[arg(long, value_enum)]
    metric: Option<Metric>,
    /// Prove the final answer optimal in the metric: the improve phase's optimal re-run (the
    /// solver's --optimal, one below the length held) runs within the budget, untimed without
    /// --time-budget; the report says `optimal: true` only when it finished.
    #[arg(long, conflicts_with = "no_improve")]
    optimal: bool,
    /// Passed to the solver as --max-memory (1M to 1024T, e.g. 2G), and to the launcher.
    #[arg(long, value_name = "BYTES", value_parser = parse::max_memory, allow_negative_numbers = true)]
    max_memory: Option<u64>,
    /// Where attempts run: local, slurm (each attempt an `srun` job with its
    /// memory and time limits), or a command template with {args} (the
    /// solver's words quoted for the shell that ssh, qrsh and the like hand
    /// them to) such as 'ssh node1 {args}', or {argv} (unquoted, for a
    /// program that runs them itself) such as 'nice {argv}'; templates may
    /// also use {name}, {mem_mb}, {time_s} (see reasoner/README.md).
    #[arg(long, value_name = "HOW", default_value = "local")]
    launcher: String,
    /// Similarity measure: thesis, extended (thesis + the solver's extra
    /// features) or learned (the case base's fit, `reasoner learn`: ranks
    /// settings by their cost on the nearest cases); default: learned when
    /// the case base has a fit, else thesis.
    #[arg(long)]
    similarity: Option<String>,
    /// Which cases to reuse: similar (the most similar by --similarity), random
    /// (one case drawn from the seed) or none (the general settings, as with an
    /// empty case base); random and none are ablations for experiments.
    #[arg(long, value_name = "HOW", default_value = "similar", value_parser = parse::retrieval)]
    retrieval: reasoner::retrieval::Retrieval,
    /// Proximity search: reject sets closer than this to a tried set (0 to 1e6).
    #[arg(long, default_value_t = SearchConfig::default().min_distance, value_parser = parse::distance, allow_negative_numbers = true)]
    min_distance: f64,
    /// Proximity search: accept only sets within this distance of a tried set (0 to 1e6).
    #[arg(long, default_value_t = SearchConfig::default().max_distance, value_parser = parse::distance, allow_negative_numbers = true)]
    max_distance: f64,
    /// Add the solved puzzle to the case base (or improve its case).
    #[arg(long)]
    retain: bool,
    /// Print the report as one JSON object (the table goes to stderr).
    #[arg(long)]
    json: bool,
    /// No progress bar on stderr (it is also off with --json and when stderr is not a terminal).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    solver: SolverArg,
}

#[derive(Args, Debug)]
struct RetrieveArgs {
    /// Puzzle file.
    puzzle: PathBuf,
    /// Case-base file.
    #[arg(long, value_name = "FILE")]
    casebase: PathBuf,
    /// Similarity measure: thesis, extended or learned (default: learned
    /// when the case base has a fit, else thesis).
    #[arg(long)]
    similarity: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    solver: SolverArg,
}

#[derive(Subcommand, Debug)]
enum CaseBaseCommand {
    /// List the cases.
    List {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Print one case.
    Show {
        file: PathBuf,
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Add a hand-tuned case, earned by running the solver with the given parameters.
    Add(AddArgs),
    /// Remove a case.
    Remove { file: PathBuf, name: String },
    /// Merge case bases into one: one case per puzzle (by its file's SHA-256),
    /// the one solved with the fewest positions; the same result for any input order.
    Merge {
        /// Case-base files to merge.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The merged case base (written atomically; may be one of the inputs).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Build or extend a case base from performance-matrix rows (JSON Lines,
    /// one solver run each): one case per puzzle some setting solved, its
    /// profile every run (casebase/README.md).
    FromMatrix(FromMatrixArgs),
    /// Import the thesis's text case base (§7.2.1) into a TOML case base.
    Import {
        /// Legacy case-base file (`!`-separated sections, `!!` at the end).
        legacy: PathBuf,
        /// TOML case base to add the cases to (created if missing).
        #[arg(long, value_name = "FILE")]
        into: PathBuf,
        /// Replace cases of the same name instead of failing.
        #[arg(long)]
        replace: bool,
    },
}

#[derive(Args, Debug)]
struct FromMatrixArgs {
    /// Matrix files (JSON Lines, as `experiments/` writes them).
    #[arg(required = true, value_name = "MATRIX.jsonl")]
    matrices: Vec<PathBuf>,
    /// The case base to build or extend (created if missing).
    #[arg(long, value_name = "FILE")]
    casebase: PathBuf,
    /// Leave out the rows of this family (repeatable): leave-one-family-out.
    #[arg(long, value_name = "F")]
    exclude_family: Vec<String>,
    #[command(flatten)]
    solver: SolverArg,
}

#[derive(Args, Debug)]
struct AddArgs {
    /// Case-base file (created if missing).
    file: PathBuf,
    /// Puzzle file.
    puzzle: PathBuf,
    /// Case name (default: the puzzle's name, else its file name).
    #[arg(long)]
    name: Option<String>,
    /// A comment kept with the case (the case base's `comment`).
    #[arg(long)]
    comment: Option<String>,
    #[arg(long, value_enum, default_value_t = Algorithm::Bfs)]
    algorithm: Algorithm,
    /// A heuristic the solver registers (`solver heuristics` lists them).
    #[arg(long, default_value_t = Heuristic::default(), value_parser = |s: &str| Ok::<_, String>(Heuristic::new(s)))]
    heuristic: Heuristic,
    /// A*'s weight, 1 to 100 (the solver's range).
    #[arg(long, default_value_t = 1.0, value_parser = parse::weight, allow_negative_numbers = true)]
    weight: f64,
    #[arg(long, value_enum, default_value_t = Metric::Steps)]
    metric: Metric,
    /// Stop the solver after N positions, 1 or more (default: no limit).
    #[arg(long, value_name = "N", value_parser = parse::position_limit, allow_negative_numbers = true)]
    position_limit: Option<u64>,
    /// Replace a case of the same name.
    #[arg(long)]
    replace: bool,
    #[command(flatten)]
    solver: SolverArg,
    /// The prunings' and the heuristic's own flags, last, as the solver
    /// takes them (`--space-value 14 --resting strict --h2 6,16,2`; `solver
    /// prunings` and `solver heuristics` list them); `--metric` may follow.
    #[arg(
        value_name = "SOLVER FLAGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    settings: Vec<String>,
}

fn main() {
    // A closed standard output (`reasoner settings --json | head`) ends the
    // process quietly, as it does other Unix tools, instead of a panic in
    // `println!`. The reasoner writes to no other pipe: its solvers' standard
    // input is null.
    // SAFETY: restoring a signal's default disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    // One thread: every solver is started from it, so the kernel's
    // parent-death signal (see runner.rs) fires exactly when the reasoner dies.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let code = rt.block_on(async {
        match run(cli, Interrupt::listen()).await {
            Ok(code) => code,
            Err(e) => {
                eprintln!("reasoner: {e}");
                e.exit_code()
            }
        }
    });
    // Shutting the runtime down drops every task, and with it every child:
    // killed. A blocking thread a signal abandoned (one still waiting for a
    // case base's lock, see `Interrupt::blocking`) is not waited for.
    rt.shutdown_timeout(Duration::ZERO);
    std::process::exit(code);
}

/// Runs the command; SIGINT or SIGTERM stops it with exit code 130 or 143
/// (`solve` first prints the report of the attempts it finished).
async fn run(cli: Cli, mut stop: Interrupt) -> Result<i32, Error> {
    let other = match cli.command {
        Command::Solve(a) => return solve(a, stop).await,
        Command::Retrieve(a) => stop.until(retrieve(a)).await,
        Command::Casebase(CaseBaseCommand::Add(a)) => return add(a, stop).await,
        Command::Casebase(CaseBaseCommand::FromMatrix(a)) => return from_matrix(a, stop).await,
        // They read and write files only, and may wait for a case base's
        // lock: on a thread of their own, so that a signal ends the wait.
        Command::Casebase(c) => stop.blocking(move |gate| casebase_command(c, gate)).await,
        Command::Settings(a) => stop.until(settings(a)).await,
        Command::Learn(a) => stop.blocking(move |gate| learn(a, gate)).await,
        Command::Rank(a) => stop.until(rank(a)).await,
    };
    other.unwrap_or_else(|| Ok(interrupted(&stop)))
}

/// Says that a signal stopped the run; its exit code (130 or 143).
fn interrupted(stop: &Interrupt) -> i32 {
    eprintln!("reasoner: interrupted; the solvers were stopped and nothing was written");
    stop.code().unwrap_or(130)
}

/// `reasoner settings`: the general settings, from the one place they live,
/// or with `--grid` the oracle grid (`grid.rs`).
async fn settings(a: SettingsArgs) -> Result<i32, Error> {
    let all = match a.grid {
        None => reasoner::plan::standard_settings(a.spaces),
        Some(n) => {
            let space = a.solver.runner()?.space(None).await?;
            reasoner::grid::grid(a.seed, n, a.spaces, space)
        }
    };
    if a.json {
        let list: Vec<serde_json::Value> = all
            .iter()
            .map(|(name, p)| json!({"name": name, "params": p, "args": p.solver_args()}))
            .collect();
        println!("{}", serde_json::Value::Array(list));
    } else {
        for (name, p) in &all {
            println!("{name}: {}", p.solver_args().join(" "));
        }
    }
    Ok(0)
}

/// The similarity `--similarity` names for case base `cb` (its default:
/// learned when `cb` has a fit, else thesis).
fn similarity_named(name: Option<&str>, cb: &CaseBase) -> Result<Box<dyn Similarity>, Error> {
    reasoner::learn::rank::similarity_for(name, cb).map_err(Error::Usage)
}

/// `reasoner learn`: fits the retrieval to the case base under its lock.
fn learn(a: LearnArgs, gate: &Gate) -> Result<i32, Error> {
    casebase::file::regular_or_missing(&a.casebase)?;
    casebase::load(&a.casebase)?;
    let fitted = casebase::update(&a.casebase, |cb| {
        gate.pass_for(&a.casebase)?;
        let (sim, fit, n) = reasoner::learn::fit_casebase(cb).ok_or_else(|| Error::CaseBase {
            path: a.casebase.clone(),
            message: "fewer than two cases have a performance profile to learn from; \
                      build one with `reasoner casebase from-matrix` or `reasoner solve --retain`"
                .to_string(),
        })?;
        cb.learned = Some(sim.to_learned(n as u64));
        Ok((sim, fit, n))
    })?;
    let (sim, fit, n) = fitted;
    println!(
        "fitted on {n} cases with profiles: k = {}, leave-one-out PAR2 positions {:.0} (thesis weights: {:.0})",
        fit.k, fit.loss, fit.thesis_loss
    );
    for (name, w) in reasoner::learn::terms::names().iter().zip(&sim.weights) {
        if *w != 0.0 {
            println!("  {name:<26} {w:.6}");
        }
    }
    Ok(0)
}

/// `reasoner rank`: the settings a retrieval would try first, in order.
async fn rank(a: RankArgs) -> Result<i32, Error> {
    casebase::file::regular_or_missing(&a.casebase)?;
    let cb = casebase::load(&a.casebase)?;
    let fitted = if cb.learned.is_some() {
        "learned"
    } else {
        "thesis"
    };
    let mode = a.similarity.clone().unwrap_or_else(|| fitted.to_string());
    if !reasoner::learn::rank::MODES.contains(&mode.as_str()) {
        return Err(Error::Usage(format!(
            "unknown retrieval {mode:?}; use one of {}",
            reasoner::learn::rank::MODES.join(", ")
        )));
    }
    let runner = a.solver.runner()?;
    let found = runner.features(&a.puzzle, None).await?;
    let ranked = reasoner::learn::rank::rank(&mode, &found, &cb, a.seed).map_err(Error::Usage)?;
    if a.json {
        println!(
            "{}",
            reasoner::learn::rank::to_json(&mode, &found.puzzle, &ranked)
        );
        return Ok(0);
    }
    println!("settings for {} by {mode} retrieval:", a.puzzle.display());
    for (i, r) in ranked.iter().enumerate() {
        let predicted = r
            .predicted
            .map(|p| format!("{p:>12.0}"))
            .unwrap_or_default();
        println!("{:>3}: {predicted}  {}  ({})", i + 1, r.params, r.source);
    }
    Ok(0)
}

async fn solve(a: SolveArgs, mut stop: Interrupt) -> Result<i32, Error> {
    // A misspelt measure is refused before the case base is read.
    if a.similarity.as_deref() != Some("learned") {
        similarity_named(a.similarity.as_deref(), &CaseBase::new())?;
    }
    let cb = match &a.casebase {
        Some(file) => solve_casebase(file, a.retain)?,
        None if a.retain => {
            return Err(Error::Usage(
                "--retain stores the new case in a case base: name it with --casebase FILE \
                 (a copy of casebase/seed.toml is a good start)"
                    .to_string(),
            ))
        }
        None => Arc::new(casebase::bundled_seed()?),
    };
    let sim = similarity_named(a.similarity.as_deref(), &cb)?;
    let config = cycle_config(&a)?;
    let runner = solve_runner(&a, &config)?;
    let mut report = cycle::run(
        Arc::new(runner),
        &a.puzzle,
        &cb,
        sim.as_ref(),
        &config,
        &mut stop,
    )
    .await?;
    // Shared with the copy `load_or_new` kept for `update`: let go of, it
    // is taken under the lock without copying 100,000 cases (issue 44).
    drop(cb);
    if report.status == RunStatus::Interrupted {
        print_report(&report, a.json);
        eprintln!("reasoner: interrupted; the solvers were stopped");
        return Ok(stop.code().unwrap_or(130));
    }
    let mut retain_failed = None;
    if a.retain && report.status == RunStatus::Solved {
        // The case base's lock may be held by another reasoner for long:
        // a signal ends the wait, and then nothing is retained.
        let file = a
            .casebase
            .clone()
            .expect("--retain needs --casebase: checked above");
        let (puzzle, shown) = (a.puzzle.clone(), report.clone());
        let retained = stop
            .blocking(move |gate| cycle::retain(&file, &puzzle, &shown, gate))
            .await;
        match retained {
            Some(Ok(r)) => report.retained = r,
            Some(Err(e)) => retain_failed = Some(e),
            None => {
                print_report(&report, a.json);
                return Ok(interrupted(&stop));
            }
        }
    }
    print_report(&report, a.json);
    // The result is printed first: a failed write must not hide it.
    if let Some(e) = retain_failed {
        return Err(e);
    }
    Ok(if report.status == RunStatus::Solved {
        0
    } else {
        1
    })
}

/// `solve`'s case base from `file`; with `retain`, writable (checked now,
/// not after the search) and possibly new.
fn solve_casebase(file: &Path, retain: bool) -> Result<Arc<CaseBase>, Error> {
    casebase::file::regular_or_missing(file)?;
    if !retain {
        return Ok(Arc::new(casebase::load(file)?));
    }
    casebase::file::check_writable(file).map_err(|e| match e {
        Error::CaseBase { path, message } => Error::CaseBase {
            path,
            message: format!("{message}; or run without --retain"),
        },
        other => other,
    })?;
    casebase::load_or_new(file)
}

/// The cycle's settings from `solve`'s flags (each already in its range).
fn cycle_config(a: &SolveArgs) -> Result<CycleConfig, Error> {
    if a.max_distance < a.min_distance {
        return Err(Error::Usage(
            "--min-distance must be at most --max-distance".to_string(),
        ));
    }
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    Ok(CycleConfig {
        seed: a.seed,
        position_limit: a.position_limit,
        attempts: a.attempts,
        jobs: jobs.clamp(1, 256),
        wave: a.wave,
        search: SearchConfig {
            min_distance: a.min_distance,
            max_distance: a.max_distance,
            ..SearchConfig::default()
        },
        attempt_timeout: Some(
            a.attempt_timeout
                .unwrap_or_else(|| flags::default_attempt_timeout(a.position_limit)),
        ),
        final_timeout: a.final_timeout,
        final_run: !a.no_final,
        progress: !a.quiet && !a.json,
        retrieval: a.retrieval,
        variants: a.variants,
        restarts: a.restarts,
        parks: a.parks,
        budget: Arc::new(Budget::new(a.time_budget, a.position_budget)),
        improve: !a.no_improve,
        metric: a.metric,
        optimal: a.optimal,
    })
}

/// The runner of `solve`, its launcher checked against the attempts' limits
/// before anything runs.
fn solve_runner(a: &SolveArgs, config: &CycleConfig) -> Result<Runner, Error> {
    let launcher = launch::by_spec(&a.launcher).map_err(Error::Usage)?;
    let mut runner = Runner::with_launcher(a.solver.path(), launcher)?;
    runner.max_memory = a.max_memory;
    runner.metric = a.metric;
    let limits = |timeout| RunLimits {
        max_positions: None,
        timeout,
        ..RunLimits::default()
    };
    runner.check_launch("a limited attempt", &limits(config.attempt_timeout))?;
    if config.final_run {
        runner.check_launch("the final attempt", &limits(config.final_timeout))?;
    }
    Ok(runner)
}

/// Prints the report: the table on stdout, or with `json` the JSON object on
/// stdout and the table on stderr.
fn print_report(report: &reasoner::report::Report, json: bool) {
    if json {
        eprint!("{}", report.text());
        println!(
            "{}",
            serde_json::to_string(report).expect("the report serializes")
        );
    } else {
        print!("{}", report.text());
    }
}

async fn retrieve(a: RetrieveArgs) -> Result<i32, Error> {
    casebase::file::regular_or_missing(&a.casebase)?;
    let cb = casebase::load(&a.casebase)?;
    let sim = similarity_named(a.similarity.as_deref(), &cb)?;
    let runner = a.solver.runner()?;
    let found = cycle::retrieve(&runner, &a.puzzle, &cb, sim.as_ref(), None).await?;
    let f = &found.features.features;
    if a.json {
        let cases: Vec<_> = found
            .ranked
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let terms: serde_json::Map<String, serde_json::Value> = sim
                    .terms(f, &cb.cases[r.index].features)
                    .into_iter()
                    .map(|(n, v)| (n.to_string(), json!(v)))
                    .collect();
                json!({
                    "rank": i + 1,
                    "name": r.name,
                    "similarity": r.similarity,
                    "retrieved": i < found.retrieved,
                    "terms": terms,
                })
            })
            .collect();
        let out = json!({
            "puzzle": found.features.puzzle,
            "name": found.features.name,
            "features": f,
            SCALED_SIZE: scaled_size(f),
            "similarity": sim.name(),
            "cases": cases,
        });
        println!("{out}");
        return Ok(0);
    }
    println!(
        "features of {}{}:",
        a.puzzle.display(),
        found
            .features
            .name
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default()
    );
    for (name, range) in &f.0 {
        println!("  {name:<26} {range}");
    }
    if let Some(s) = scaled_size(f) {
        println!("  {SCALED_SIZE:<26} {s}  (ln size / sqrt(2)^type)");
    }
    println!(
        "cases by {} similarity (smaller is closer; * retrieved):",
        sim.name()
    );
    if found.ranked.is_empty() {
        println!("  (the case base is empty)");
    }
    for (i, r) in found.ranked.iter().enumerate() {
        let mark = if i < found.retrieved { '*' } else { ' ' };
        println!("{mark} {:>3}: {:>14.6}  {}", i + 1, r.similarity, r.name);
    }
    Ok(0)
}

/// The `casebase` commands but `add`; `gate` is passed under the lock,
/// before a change is saved (see `Interrupt::blocking`).
fn casebase_command(c: CaseBaseCommand, gate: &Gate) -> Result<i32, Error> {
    match c {
        CaseBaseCommand::List { file, json } => {
            casebase::file::regular_or_missing(&file)?;
            let cb = casebase::load(&file)?;
            if json {
                println!("{}", serde_json::to_string(&cb).expect("serializes"));
            } else {
                for case in &cb.cases {
                    println!(
                        "{:<32}  {:<16}  {:<36}  {:>10} positions  {} steps",
                        case.name,
                        case.outcome.found_by.name(),
                        case.params.to_string(),
                        case.outcome
                            .positions_examined
                            .map(|n| n.to_string())
                            .unwrap_or_else(|| "?".to_string()),
                        case.outcome
                            .steps
                            .map(|n| n.to_string())
                            .unwrap_or_else(|| "?".to_string()),
                    );
                }
                println!("{} cases", cb.cases.len());
            }
            Ok(0)
        }
        CaseBaseCommand::Show { file, name, json } => {
            casebase::file::regular_or_missing(&file)?;
            let cb = casebase::load(&file)?;
            let case = cb.find(&name).ok_or_else(|| missing_case(&file, &name))?;
            if json {
                println!("{}", serde_json::to_string(case).expect("serializes"));
            } else {
                let one = CaseBase {
                    cases: vec![case.clone()],
                    ..CaseBase::new()
                };
                print!("{}", toml::to_string(&one).expect("serializes"));
            }
            Ok(0)
        }
        CaseBaseCommand::Remove { file, name } => {
            casebase::file::regular_or_missing(&file)?;
            casebase::load(&file)?;
            casebase::update(&file, |cb| {
                gate.pass_for(&file)?;
                let before = cb.cases.len();
                cb.cases.retain(|c| c.name != name);
                if cb.cases.len() == before {
                    return Err(missing_case(&file, &name));
                }
                Ok(())
            })?;
            println!("removed {name:?}");
            Ok(0)
        }
        CaseBaseCommand::Import {
            legacy: from,
            into,
            replace,
        } => import(&from, &into, replace, gate),
        CaseBaseCommand::Merge { inputs, output } => merge(&inputs, &output, gate),
        CaseBaseCommand::Add(a) => unreachable!("`add` runs solvers: see `run` ({a:?})"),
        CaseBaseCommand::FromMatrix(a) => {
            unreachable!("`from-matrix` runs solvers: see `run` ({a:?})")
        }
    }
}

/// `casebase import`: the thesis's text case base into a TOML one.
fn import(from: &Path, into: &Path, replace: bool, gate: &Gate) -> Result<i32, Error> {
    casebase::file::regular_or_missing(from)?;
    casebase::file::regular_or_missing(into)?;
    let text = casebase::read_text(from)?;
    let imported = legacy::import(&text, from)?;
    if imported.cases.is_empty() {
        return Err(Error::CaseBase {
            path: from.to_path_buf(),
            message: "holds no case, so nothing was imported; expected the thesis's \
                      text case base (docs: casebase/README.md): a section of feature \
                      names, then per case a features section and a solution section, \
                      each ended by a line `!`, and `!!` at the end"
                .to_string(),
        });
    }
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    let n = imported.cases.len();
    casebase::update(into, |cb| {
        gate.pass_for(into)?;
        // Names looked up in a map, not by a scan per case: an import into
        // a large case base stays linear.
        let at: std::collections::HashMap<String, usize> = (cb.cases.iter().enumerate())
            .map(|(i, c)| (c.name.clone(), i))
            .collect();
        if let (false, Some(case)) = (
            replace,
            imported.cases.iter().find(|c| at.contains_key(&c.name)),
        ) {
            return Err(clash(into, &case.name));
        }
        for case in imported.cases {
            match at.get(&case.name) {
                Some(&i) => std::ops::DerefMut::deref_mut(cb).cases[i] = case,
                None => cb.push(case),
            }
        }
        Ok(())
    })?;
    println!("imported {n} cases into {}", into.display());
    Ok(0)
}

fn merge(inputs: &[PathBuf], output: &Path, gate: &Gate) -> Result<i32, Error> {
    for input in inputs {
        casebase::file::regular_or_missing(input)?;
    }
    // Under OUT's lock, so that a reasoner retaining into OUT (which may be
    // one of the inputs) loses no case.
    let merged = casebase::update(output, |out| {
        gate.pass_for(output)?;
        let bases = inputs
            .iter()
            .map(|p| casebase::load(p))
            .collect::<Result<Vec<_>, _>>()?;
        let merged = casebase::merge::merge(&bases);
        out.clone_from(&merged.casebase);
        Ok(merged)
    })?;
    println!(
        "merged {} cases from {} case bases into {}: {} cases, {} dropped for a better case \
         of the same puzzle, {} renamed",
        merged.read,
        inputs.len(),
        output.display(),
        merged.casebase.cases.len(),
        merged.dropped,
        merged.renamed
    );
    if merged.learned_dropped {
        println!(
            "note: the inputs' [learned] fits differ (or some have none), so none is kept: \
             it was fitted to other cases; run `reasoner learn` on the merged case base"
        );
    }
    Ok(0)
}

fn clash(file: &Path, name: &str) -> Error {
    Error::CaseBase {
        path: file.to_path_buf(),
        message: format!("already has a case {name:?} (use --replace to overwrite)"),
    }
}

fn missing_case(file: &Path, name: &str) -> Error {
    Error::CaseBase {
        path: file.to_path_buf(),
        message: format!("no case named {name:?}"),
    }
}

/// The set `casebase add` was given: its fixed flags, then the solver's
/// flags of prunings and options read against the solver's declarations.
fn added_params(a: &AddArgs, space: &Space) -> Result<ParamSet, Error> {
    let mut params = ParamSet {
        algorithm: a.algorithm,
        heuristic: a.heuristic.clone(),
        weight: a.weight,
        metric: a.metric,
        ..ParamSet::default()
    };
    let mut words = a.settings.iter();
    while let Some(word) = words.next() {
        let Some(flag) = word.strip_prefix("--") else {
            return Err(Error::Usage(format!(
                "'{word}': expected a solver flag such as --space-value N"
            )));
        };
        let (flag, inline) = match flag.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (flag, None),
        };
        let value = match inline {
            Some(v) => Some(v),
            None if space.is_switch(flag) => None,
            None => words.next().cloned(),
        };
        if flag == "metric" {
            params.metric = value.unwrap_or_default().parse().map_err(Error::Usage)?;
            continue;
        }
        let (key, v) = space
            .read_flag(&params.heuristic, flag, value.as_deref())
            .map_err(Error::Usage)?;
        params.settings.set(&key, v);
    }
    let params = space.normalized(params);
    space.validate(&params).map_err(Error::Usage)?;
    Ok(params)
}

/// `casebase add`: the case earned by a solver run (killed by a signal),
/// then added under the case base's lock (a signal ends the wait).
async fn add(a: AddArgs, mut stop: Interrupt) -> Result<i32, Error> {
    casebase::file::regular_or_missing(&a.file)?;
    let earned = match stop.until(earn(&a)).await {
        None => return Ok(interrupted(&stop)),
        Some(earned) => earned?,
    };
    let (case, summary) = match earned {
        Ok(both) => both,
        Err(code) => return Ok(code),
    };
    let (file, replace) = (a.file.clone(), a.replace);
    let added = stop.blocking(move |gate| {
        casebase::update(&file, |cb| {
            gate.pass_for(&file)?;
            if !replace && cb.find(&case.name).is_some() {
                return Err(clash(&file, &case.name));
            }
            cb.upsert(case);
            Ok(())
        })
    });
    match added.await {
        None => Ok(interrupted(&stop)),
        Some(done) => {
            done?;
            println!("{summary}");
            Ok(0)
        }
    }
}

/// `casebase from-matrix`: the cases built from the matrix (`solver
/// features` for each puzzle), then added under the case base's lock.
async fn from_matrix(a: FromMatrixArgs, mut stop: Interrupt) -> Result<i32, Error> {
    casebase::file::regular_or_missing(&a.casebase)?;
    casebase::file::check_writable(&a.casebase)?;
    let runner = a.solver.runner()?;
    let build = casebase::matrix::build(&runner, &a.matrices, &a.exclude_family);
    let mut built = match stop.until(build).await {
        None => return Ok(interrupted(&stop)),
        Some(built) => built?,
    };
    let (file, cases) = (a.casebase.clone(), std::mem::take(&mut built.cases));
    let added = stop.blocking(move |gate| {
        casebase::update(&file, |cb| {
            gate.pass_for(&file)?;
            Ok(casebase::matrix::add_all(cb, cases))
        })
    });
    match added.await {
        None => Ok(interrupted(&stop)),
        Some(added) => {
            println!("{}", built.summary(&added?, &a.casebase));
            Ok(0)
        }
    }
}

/// The case `casebase add` adds and the line that says so, or, when the
/// solver did not solve the puzzle with the given parameters, the exit code
/// (2 when it refused its input, else 1; the reason is printed).
async fn earn(a: &AddArgs) -> Result<Result<(Case, String), i32>, Error> {
    let runner = a.solver.runner()?;
    let space = runner.space(None).await?;
    let params = added_params(a, &space)?;
    let cb = casebase::load_or_new(&a.file)?;
    casebase::file::check_writable(&a.file)?;
    let features = runner.features(&a.puzzle, None).await?;
    let name = a
        .name
        .clone()
        .or(features.name.clone())
        .or_else(|| {
            a.puzzle
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "puzzle".to_string());
    if !a.replace && cb.find(&name).is_some() {
        return Err(clash(&a.file, &name));
    }
    let limits = RunLimits {
        max_positions: a.position_limit,
        ..RunLimits::default()
    };
    let result = runner.solve(&a.puzzle, &params, &limits, 0).await;
    if result.status != RunStatus::Solved {
        eprintln!(
            "reasoner: {} with {params}: {}{}; no case added",
            a.puzzle.display(),
            result.status.name(),
            result
                .error
                .as_deref()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        );
        // Bad input is exit 2, as everywhere; a search that did not solve, 1.
        return Ok(Err(if result.rejected_input() { 2 } else { 1 }));
    }
    let summary = format!(
        "added {name:?}: {} steps, {} positions",
        result.steps.unwrap_or(0),
        result.positions_examined.unwrap_or(0)
    );
    let case = Case {
        name,
        comment: a.comment.clone(),
        provenance: Provenance {
            puzzle: Some(a.puzzle.display().to_string()),
            sha256: Some(casebase::sha256_file(&a.puzzle)?),
        },
        features: features.features,
        params,
        profile: Vec::new(),
        outcome: Outcome {
            steps: result.steps,
            moves: result.moves,
            positions_examined: result.positions_examined,
            found_by: FoundBy::HandTuned,
            found_at: Some(casebase::schema::utc_now()),
        },
    };
    Ok(Ok((case, summary)))
}
