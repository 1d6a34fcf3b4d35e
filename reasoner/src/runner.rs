//! Runs the solver as a supervised child process and reads its JSON (thesis
//! §7.1.1; the interface is the solver's command line and JSON result only).
//!
//! Supervision:
//! * Every outcome of a solve run is an [`AttemptResult`]: a crash, a signal,
//!   exit code 2 (bad input), an unexpected exit code, output that is not the
//!   expected JSON, an exit code that contradicts the JSON's status, or a
//!   timeout are all `failed` results with a reason, never errors of the
//!   reasoner. Only a solver that cannot be started at all is an error.
//! * Children are killed when their future is dropped (`kill_on_drop`), so a
//!   timeout, a cancelled attempt or an interrupted reasoner kills them. On
//!   Linux each child also asks the kernel for SIGKILL when the thread that
//!   started it dies (`PR_SET_PDEATHSIG`), so even a reasoner killed with
//!   SIGKILL leaves no solver behind; the reasoner therefore starts children
//!   from one long-lived thread (a current-thread runtime).
//! * The JSON is read whatever the exit code 0 or 1; unknown fields are
//!   ignored. Nothing of an earlier run is ever reused for a later one.
//! * Solve attempts start through a [`Launcher`] (here, `srun`, a command
//!   template; see `launch/`); feature extraction always runs here.
//! * A claimed solution is replayed by `solver verify` (see `verify.rs`),
//!   run here, before the result leaves the runner.
//! * Each process leads its own process group, killed as a whole when the
//!   process ends or is cancelled, so leftover children holding its stdout
//!   are never waited for (see `runner/group.rs`).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use sbp_protocol::{HeuristicInfo, PruningInfo, SolveReport, Status};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::features::{self, FeatureReport};
use crate::launch::{JobSpec, Launcher, Local};
use crate::params::ParamSet;
use crate::space::Space;

mod group;
mod stderr;

pub(crate) use stderr::tail;

/// How one attempt ended: the solver's [`Status`], or `failed` when the
/// run produced no valid result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Solved,
    NoSolution,
    LimitReached,
    Failed,
    /// Only of a whole cycle: stopped by SIGINT or SIGTERM.
    Interrupted,
    /// Only of an attempt: killed (or never started) because another
    /// attempt of its wave solved the puzzle first.
    Cancelled,
}

impl From<Status> for RunStatus {
    fn from(s: Status) -> RunStatus {
        match s {
            Status::Solved => RunStatus::Solved,
            Status::NoSolution => RunStatus::NoSolution,
            Status::LimitReached => RunStatus::LimitReached,
        }
    }
}

impl RunStatus {
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Solved => "solved",
            RunStatus::NoSolution => "no_solution",
            RunStatus::LimitReached => "limit_reached",
            RunStatus::Failed => "failed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Cancelled => "cancelled",
        }
    }
}

/// What the reasoner learnt from one solver run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttemptResult {
    pub status: RunStatus,
    pub steps: Option<u64>,
    pub moves: Option<u64>,
    pub positions_examined: Option<u64>,
    /// Closest the master came to its goal, and after how many positions.
    pub best_distance: Option<u32>,
    pub best_distance_positions: Option<u64>,
    /// Wall-clock time of the run as the reasoner measured it.
    pub elapsed_ms: u64,
    /// Reported once, for the whole cycle, not per attempt.
    #[serde(skip)]
    pub solution: Option<Vec<String>>,
    /// Why a failed run failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The position limit the run had (none: unlimited), as the cycle set
    /// it for this attempt: its phase's, raised for a reuse of the
    /// puzzle's own case, lowered by the budget. A retained trial keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_limit: Option<u64>,
    /// The metric in which the solver proved the solution optimal (its
    /// search was optimal there and pruned nothing: the JSON's `optimal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_in: Option<crate::params::Metric>,
    /// The solver's `lower_bound` and the metric it is in: no solution is
    /// shorter (the report's `lower_bound` takes the best of them).
    #[serde(skip)]
    pub lower_bound: Option<(crate::params::Metric, u64)>,
}

impl AttemptResult {
    /// An attempt killed, or never started, because another attempt of its
    /// wave solved the puzzle first.
    pub fn cancelled() -> AttemptResult {
        AttemptResult {
            status: RunStatus::Cancelled,
            error: None,
            ..AttemptResult::failed("", 0)
        }
    }

    pub fn failed(reason: impl Into<String>, elapsed_ms: u64) -> AttemptResult {
        AttemptResult {
            status: RunStatus::Failed,
            steps: None,
            moves: None,
            positions_examined: None,
            best_distance: None,
            best_distance_positions: None,
            elapsed_ms,
            solution: None,
            error: Some(reason.into()),
            position_limit: None,
            optimal_in: None,
            lower_bound: None,
        }
    }
}

/// Resource limits of one solve run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunLimits {
    /// Passed as `--max-positions`.
    pub max_positions: Option<u64>,
    /// Passed as `--time-limit`: the solver stops itself and reports how far
    /// it got (the whole run's `--time-budget`).
    pub time_limit: Option<Duration>,
    /// Wall-clock limit enforced by the reasoner: the solver is killed.
    pub timeout: Option<Duration>,
    /// Passed as `--threads` when the solver runs on this machine: the
    /// final run, which runs alone, takes the cores the attempts' waves
    /// used (`--jobs`); its search is the same on any number (BFS, A*).
    /// `None`: the solver's one thread.
    pub threads: Option<usize>,
}

/// Reads one line of `solver solve --json` into the shared result type:
/// the fields of the contract (`docs/json-result.md`) must be there, but for
/// those added after it was first written (`spill_disk_bytes`,
/// `encoding_reason`), which take their defaults when an older solver
/// leaves them out; fields this reasoner does not know are ignored.
pub fn parse_solve_output(text: &str) -> Result<SolveReport, String> {
    serde_json::from_str(text.trim()).map_err(|e| {
        let shown: String = text.trim().chars().take(80).collect();
        format!("the solver's output is not the expected JSON ({e}): {shown:?}")
    })
}

/// How a solver process ended.
pub(crate) enum Exit {
    Code(i32),
    Signal(i32),
}

/// A finished solver process and what it printed.
pub(crate) struct Finished {
    pub(crate) exit: Exit,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

/// Why a solver process gave no [`Finished`].
pub(crate) enum RunError {
    Spawn(std::io::Error),
    Wait(std::io::Error),
    Timeout(Duration),
}

/// Whether `program` names a file (a path), or a file found on `PATH`.
fn findable(program: &str) -> bool {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return path.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|dirs| std::env::split_paths(&dirs).any(|d| d.join(program).is_file()))
}

/// Least time a tool call gets, whatever `--attempt-timeout` says: tool
/// calls take well under a second, and a timeout chosen to cut attempts
/// short must not fail the set-up or turn a found solution into a failure
/// (it still catches a solver that never answers).
pub const TOOL_AT_LEAST: Duration = Duration::from_secs(60);

/// Starts solver processes.
#[derive(Debug)]
pub struct Runner {
    solver: PathBuf,
    /// Bytes, passed as `--max-memory` to every solve run and to the launcher.
    pub max_memory: Option<u64>,
    /// The metric every solver call searches in (`reasoner solve --metric`):
    /// attempts, whatever their parameter set says, the improve phase's
    /// shortcuts and its optimal re-run. `None`: each set's own metric (and
    /// steps for the improve phase), as before the flag.
    pub metric: Option<crate::params::Metric>,
    /// Where solve attempts run.
    launcher: Box<dyn Launcher>,
    /// Scratch folder for solution files, removed when the runner is dropped.
    scratch: tempfile::TempDir,
}

impl Runner {
    /// A runner that starts attempts on this machine.
    pub fn new(solver: PathBuf) -> Result<Runner, Error> {
        Runner::with_launcher(solver, Box::new(Local))
    }

    /// A runner that starts attempts through `launcher`. For a launcher that
    /// may run the solver elsewhere the scratch folder is made in the working
    /// directory (shared by a cluster's nodes), else in the temporary folder.
    pub fn with_launcher(solver: PathBuf, launcher: Box<dyn Launcher>) -> Result<Runner, Error> {
        let parent = if launcher.remote() {
            std::env::current_dir().map_err(|e| Error::io(".", e))?
        } else {
            std::env::temp_dir()
        };
        let scratch = tempfile::Builder::new()
            .prefix(".reasoner-")
            .tempdir_in(&parent)
            .map_err(|e| Error::io(&parent, e))?;
        Ok(Runner {
            solver,
            max_memory: None,
            metric: None,
            launcher,
            scratch,
        })
    }

    /// The metric the improve phase counts in: `--metric`'s, else steps.
    pub fn improve_metric(&self) -> crate::params::Metric {
        self.metric.unwrap_or(crate::params::Metric::Steps)
    }

    /// The metric's flag pair for a solver call that takes `--metric`.
    pub fn metric_args(&self) -> [String; 2] {
        [
            "--metric".to_string(),
            self.improve_metric().name().to_string(),
        ]
    }

    /// Checks that the launcher can run `attempt` (e.g. "the final attempt")
    /// with these limits, before any runs (a template may need a limit that
    /// was not given).
    pub fn check_launch(&self, attempt: &str, limits: &RunLimits) -> Result<(), Error> {
        let job = self.job_spec(attempt, limits);
        let line = self
            .launcher
            .command_line(&self.solver, &[], &job)
            .map_err(Error::Usage)?;
        // A program that cannot be found would fail every attempt in turn.
        match line.first() {
            Some(program) if !findable(program) => {
                let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
                Err(self.not_started(program, &missing))
            }
            _ => Ok(()),
        }
    }

    fn job_spec<'a>(&self, name: &'a str, limits: &RunLimits) -> JobSpec<'a> {
        JobSpec {
            name,
            memory: self.max_memory,
            time: limits.timeout,
        }
    }

    pub fn solver(&self) -> &Path {
        &self.solver
    }

    /// The default solver: `solver` next to this executable, else `solver`
    /// looked up on `PATH`.
    pub fn default_solver() -> PathBuf {
        let name = format!("solver{}", std::env::consts::EXE_SUFFIX);
        if let Some(dir) = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            let beside = dir.join(&name);
            if beside.is_file() {
                return beside;
            }
        }
        PathBuf::from(name)
    }

    /// Why `program` (the solver, or the launcher's program) did not start.
    fn not_started(&self, program: &str, e: &std::io::Error) -> Error {
        if program != self.solver.display().to_string() {
            let hint = if e.kind() == std::io::ErrorKind::NotFound {
                "not found on PATH; install it, or choose another --launcher".to_string()
            } else {
                e.to_string()
            };
            return Error::Solver(format!(
                "cannot start `{program}` for the {} launcher: {hint}",
                self.launcher.name()
            ));
        }
        let hint = if e.kind() == std::io::ErrorKind::NotFound {
            "not found; build it with `cargo build --release --bins` or name it with --solver PATH"
                .to_string()
        } else {
            e.to_string()
        };
        Error::Solver(format!(
            "cannot start the solver `{}`: {hint}",
            self.solver.display()
        ))
    }

    /// A file in the runner's scratch folder.
    pub(crate) fn scratch_file(&self, name: &str) -> PathBuf {
        self.scratch.path().join(name)
    }

    /// Builds the process of one command line (program first): the one place
    /// where a process is described. It leads its own process group, so that
    /// the group (the solver and anything it started) can be killed as one.
    fn command(line: &[String]) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(&line[0]);
        cmd.args(&line[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        die_with_parent(&mut cmd);
        cmd
    }

    /// The timeout of a tool call (`solver features`, `heuristics`,
    /// `prunings`, `variant`, `verify`) made for attempts limited to
    /// `attempt`: at least [`TOOL_AT_LEAST`].
    pub fn tool_timeout(attempt: Option<Duration>) -> Option<Duration> {
        attempt.map(|t| t.max(TOOL_AT_LEAST))
    }

    /// Runs a command line to its end (or `timeout`) and collects what it
    /// printed.
    pub(crate) async fn run(
        &self,
        line: &[String],
        timeout: Option<Duration>,
    ) -> Result<Finished, RunError> {
        let child = Self::command(line).spawn().map_err(RunError::Spawn)?;
        group::collect(child, timeout).await
    }

    /// Runs `solver features PUZZLE --json`. Any failure is an error: the
    /// cycle never goes on with stale or partial features.
    pub async fn features(
        &self,
        puzzle: &Path,
        timeout: Option<Duration>,
    ) -> Result<FeatureReport, Error> {
        // A puzzle that cannot be read is the user's to fix: said as such,
        // not as a failed `solver features` run.
        std::fs::File::open(puzzle).map_err(|e| Error::io(puzzle, e))?;
        let shown = puzzle.display().to_string();
        let text = self
            .query(&["features", &shown, "--json"], timeout, Error::Features)
            .await?;
        let reports = text.lines().filter(|l| !l.trim().is_empty()).count();
        if reports > 1 {
            let p = puzzle.display();
            return Err(Error::Usage(format!(
                "{p} is a collection of {reports} puzzles, and the reasoner solves one \
                 puzzle at a time: pick one with `solver import {p} --index N > one.txt` \
                 (N from 1 to {reports}) and solve one.txt"
            )));
        }
        features::parse_report(&text).map_err(Error::Features)
    }

    /// Runs `solver heuristics --json`: the heuristics the solver has
    /// registered, which make up the heuristic axis of the parameter space.
    pub async fn heuristics(&self, timeout: Option<Duration>) -> Result<Vec<HeuristicInfo>, Error> {
        let text = self
            .query(&["heuristics", "--json"], timeout, Error::Solver)
            .await?;
        let list: Vec<HeuristicInfo> = serde_json::from_str(text.trim()).map_err(|e| {
            Error::Solver(format!(
                "`solver heuristics --json` printed no list of heuristics ({e})"
            ))
        })?;
        if list.is_empty() {
            return Err(Error::Solver("the solver lists no heuristics".into()));
        }
        Ok(list)
    }

    /// Runs `solver prunings --json`: the prunings the solver has registered,
    /// which make up the pruning axes of the parameter space.
    pub async fn prunings(&self, timeout: Option<Duration>) -> Result<Vec<PruningInfo>, Error> {
        let text = self
            .query(&["prunings", "--json"], timeout, Error::Solver)
            .await?;
        serde_json::from_str(text.trim()).map_err(|e| {
            Error::Solver(format!(
                "`solver prunings --json` printed no list of prunings ({e})"
            ))
        })
    }

    /// The parameter space: `solver heuristics --json` and `solver
    /// prunings --json`, asked together.
    pub async fn space(&self, timeout: Option<Duration>) -> Result<Space, Error> {
        let (heuristics, prunings) =
            tokio::try_join!(self.heuristics(timeout), self.prunings(timeout))?;
        Ok(Space {
            heuristics,
            prunings,
        })
    }

    /// Runs `solver ARGS` and returns its standard output; a failure to
    /// finish with exit 0 becomes `error(message)`.
    async fn query(
        &self,
        args: &[&str],
        timeout: Option<Duration>,
        error: fn(String) -> Error,
    ) -> Result<String, Error> {
        let mut line = vec![self.solver.display().to_string()];
        line.extend(args.iter().map(|a| a.to_string()));
        let shown = format!("`solver {}`", args.join(" "));
        let done = match self.run(&line, timeout).await {
            Ok(d) => d,
            Err(RunError::Spawn(e)) => return Err(self.not_started(&line[0], &e)),
            Err(RunError::Wait(e)) => return Err(error(e.to_string())),
            Err(RunError::Timeout(t)) => {
                return Err(error(format!(
                    "{shown} did not finish within {} s",
                    t.as_secs_f64()
                )))
            }
        };
        match done.exit {
            Exit::Code(0) => Ok(String::from_utf8_lossy(&done.stdout).into_owned()),
            // Bad input (the solver's exit 2): its own message, which names
            // the file, line and what is wrong, without the command line.
            Exit::Code(2) if !done.stderr.is_empty() => {
                let said = String::from_utf8_lossy(&done.stderr);
                let said = said.trim().trim_start_matches("error: ");
                Err(Error::Usage(said.to_string()))
            }
            Exit::Code(c) => Err(error(format!(
                "{shown} exited with code {c}{}",
                tail(&done.stderr)
            ))),
            Exit::Signal(s) => Err(error(format!("{shown} was killed by signal {s}"))),
        }
    }

    /// Runs `solver solve` with these parameters and limits; `tag` names the
    /// attempt's solution file. Never fails: every problem is a failed result,
    /// and so is a claimed solution that `solver verify` does not confirm.
    pub async fn solve(
        &self,
        puzzle: &Path,
        params: &ParamSet,
        limits: &RunLimits,
        tag: usize,
    ) -> AttemptResult {
        self.solve_with(puzzle, params, limits, tag, &[]).await
    }

    /// [`Runner::solve`] with `extra` solver flags (e.g. `--best-out FILE`).
    pub async fn solve_with(
        &self,
        puzzle: &Path,
        params: &ParamSet,
        limits: &RunLimits,
        tag: usize,
        extra: &[String],
    ) -> AttemptResult {
        let solution_file = self.scratch_file(&format!("attempt-{tag}.txt"));
        let mut args = vec![
            "solve".to_string(),
            puzzle.display().to_string(),
            "--json".to_string(),
            "--quiet".to_string(),
        ];
        args.extend(params.clone().in_metric(self.metric).solver_args());
        if let Some(n) = limits.max_positions {
            args.push("--max-positions".to_string());
            args.push(n.to_string());
        }
        if let Some(t) = limits.time_limit {
            args.push("--time-limit".to_string());
            args.push(format!("{:.3}", t.as_secs_f64()));
        }
        if let Some(m) = self.max_memory {
            args.push("--max-memory".to_string());
            args.push(m.to_string());
        }
        if let Some(n) = limits.threads.filter(|_| !self.launcher.remote()) {
            args.push("--threads".to_string());
            args.push(n.to_string());
        }
        args.push("--solution".to_string());
        args.push(solution_file.display().to_string());
        args.extend(extra.iter().cloned());
        let name = job_name(puzzle, tag);
        let line =
            match self
                .launcher
                .command_line(&self.solver, &args, &self.job_spec(&name, limits))
            {
                Ok(line) => line,
                Err(e) => return AttemptResult::failed(e, 0),
            };
        tracing::debug!(launcher = self.launcher.name(), command = %line.join(" "), "starting the solver");
        let start = Instant::now();
        let run = self.run(&line, limits.timeout).await;
        let elapsed_ms = start.elapsed().as_millis() as u64;
        let _ = std::fs::remove_file(&solution_file);
        let result = match run {
            Err(RunError::Spawn(e)) => {
                AttemptResult::failed(self.not_started(&line[0], &e).to_string(), elapsed_ms)
            }
            Err(RunError::Wait(e)) => {
                AttemptResult::failed(format!("waiting for the solver: {e}"), elapsed_ms)
            }
            Err(RunError::Timeout(t)) => AttemptResult::failed(
                format!(
                    "timed out after {} s; the solver was killed",
                    t.as_secs_f64()
                ),
                elapsed_ms,
            ),
            Ok(done) => {
                let claim = interpret(done, elapsed_ms);
                self.check_claim(puzzle, claim, tag, limits.timeout).await
            }
        };
        let result = AttemptResult {
            position_limit: limits.max_positions,
            ..result
        };
        tracing::info!(
            status = result.status.name(),
            positions = result.positions_examined,
            best_distance = result.best_distance,
            elapsed_ms,
            error = result.error.as_deref(),
            "solver finished"
        );
        result
    }
}

/// The scheduler's name of an attempt: `reasoner-STEM-TAG`, every
/// character of the stem but ASCII letters, digits and `._-` made `_`: a
/// scheduler's name needs no more, and a launcher template may hand it to
/// a shell (`ssh node1 qsub -N {name} ...`), where a `;` or `$(...)` from a
/// file name would run.
fn job_name(puzzle: &Path, tag: usize) -> String {
    let stem: String = puzzle
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("reasoner-{stem}-{tag}")
}

/// How a failed result says the solver refused its input (exit 2): a bad
/// puzzle or flag rather than a search that went wrong.
const REJECTED: &str = "the solver rejected its input";

/// What the solver says when a puzzle's position keys are wider than its
/// visited set stores (`SearchError::KeyTooWide` in
/// `solver/src/search/error.rs`; the end-to-end test
/// `hostile_reasoner.rs` checks it against the real solver).
const KEYS_TOO_WIDE: &str = "bits the visited set stores";

impl AttemptResult {
    /// True when the solver refused its input (exit 2).
    pub fn rejected_input(&self) -> bool {
        self.status == RunStatus::Failed
            && self
                .error
                .as_deref()
                .is_some_and(|e| e.starts_with(REJECTED))
    }

    /// True when the solver refused the run because the puzzle's positions
    /// are too wide for its visited set: every search that stores
    /// positions would be refused the same way, IDA* and DFID would not.
    pub fn keys_too_wide(&self) -> bool {
        self.rejected_input()
            && self
                .error
                .as_deref()
                .is_some_and(|e| e.contains(KEYS_TOO_WIDE))
    }
}

/// Reads a finished solve run.
fn interpret(done: Finished, elapsed_ms: u64) -> AttemptResult {
    let code = match done.exit {
        // The reasoner was interrupted and passed the signal on, and this
        // solver died of it before it reported: stopped, not failed.
        Exit::Signal(_) if crate::interrupt::stopping() => return AttemptResult::cancelled(),
        Exit::Signal(s) => {
            return AttemptResult::failed(
                format!("the solver was killed by signal {s}{}", tail(&done.stderr)),
                elapsed_ms,
            )
        }
        Exit::Code(c @ (0 | 1)) => c,
        // Interrupted (the reasoner passed its SIGINT on): the JSON result
        // says how close the search got; it is a stopped search.
        Exit::Code(130) => 1,
        Exit::Code(2) => {
            return AttemptResult::failed(
                format!("{REJECTED} (exit 2){}", tail(&done.stderr)),
                elapsed_ms,
            )
        }
        Exit::Code(c) => {
            return AttemptResult::failed(
                format!("the solver exited with code {c}{}", tail(&done.stderr)),
                elapsed_ms,
            )
        }
    };
    let text = String::from_utf8_lossy(&done.stdout);
    let json = match parse_solve_output(&text) {
        Ok(j) => j,
        Err(e) => return AttemptResult::failed(format!("{e}{}", tail(&done.stderr)), elapsed_ms),
    };
    let status = RunStatus::from(json.status);
    if (code == 0) != (status == RunStatus::Solved) {
        return AttemptResult::failed(
            format!(
                "the solver's exit code {code} contradicts its status {}",
                status.name()
            ),
            elapsed_ms,
        );
    }
    AttemptResult {
        status,
        steps: json.steps,
        moves: json.moves,
        positions_examined: Some(json.positions_examined),
        best_distance: Some(json.best_distance),
        best_distance_positions: Some(json.best_distance_positions),
        elapsed_ms,
        solution: json.solution,
        error: None,
        position_limit: None,
        optimal_in: json.optimal.then_some(json.params.metric),
        lower_bound: json.lower_bound.map(|n| (json.params.metric, n)),
    }
}

/// Asks the kernel to SIGKILL the child when the thread that spawned it dies.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut tokio::process::Command) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before exec and only makes
    // async-signal-safe system calls (prctl, getppid, _exit).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died before the request took effect.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut tokio::process::Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(code: i32, stdout: &str) -> Finished {
        Finished {
            exit: Exit::Code(code),
            stdout: stdout.as_bytes().to_vec(),
            stderr: b"progress\nboom\n".to_vec(),
        }
    }

    /// A complete solver result with `status`, then `fields` set over it.
    fn report(status: Status, fields: serde_json::Value) -> String {
        let r = SolveReport {
            puzzle: "p.txt".into(),
            name: None,
            status,
            steps: None,
            moves: None,
            positions_examined: 9,
            positions_stored: 9,
            best_distance: 3,
            best_distance_positions: 4,
            start_distance: 5,
            goals_reached: 0,
            goals_total: 1,
            elapsed_ms: 1,
            peak_memory_bytes: 100,
            spill_disk_bytes: 0,
            encoding: "rank".into(),
            encoding_reason: "rank (asked for)".into(),
            key_bits: 20,
            limit: None,
            algorithm_reason: String::new(),
            lower_bound: None,
            optimal: false,
            params: Default::default(),
            limits: Default::default(),
            solution: None,
        };
        let mut v = serde_json::to_value(r).unwrap();
        for (k, x) in fields.as_object().unwrap() {
            v[k] = x.clone();
        }
        v.to_string()
    }

    #[test]
    fn reads_the_solve_json_and_ignores_unknown_fields() {
        let out = report(
            Status::Solved,
            serde_json::json!({"steps": 116, "moves": 81, "positions_examined": 25000,
                "best_distance": 0, "new_field": [1], "solution": ["a down"]}),
        );
        let r = interpret(finished(0, &out), 5);
        assert_eq!(r.status, RunStatus::Solved);
        assert_eq!(r.steps, Some(116));
        assert_eq!(r.positions_examined, Some(25000));
        assert_eq!(r.solution.as_deref(), Some(&["a down".to_string()][..]));
        let out = report(
            Status::LimitReached,
            serde_json::json!({"limit": "max_positions"}),
        );
        let r = interpret(finished(1, &out), 5);
        assert_eq!(r.status, RunStatus::LimitReached);
        assert_eq!(r.best_distance, Some(3));
    }

    #[test]
    fn a_job_name_holds_nothing_a_shell_would_read() {
        let name = job_name(Path::new("dir/a;touch X $(id) 'q\".txt"), 3);
        assert_eq!(name, "reasoner-a_touch_X___id___q_-3");
        assert_eq!(job_name(Path::new("classic.txt"), 1), "reasoner-classic-1");
    }

    #[test]
    fn anything_else_is_a_failed_attempt() {
        let failed = |f: Finished| {
            let r = interpret(f, 1);
            assert_eq!(r.status, RunStatus::Failed);
            r.error.unwrap()
        };
        assert!(failed(finished(0, "garbage")).contains("not the expected JSON"));
        assert!(failed(finished(1, "")).contains("not the expected JSON"));
        assert!(failed(finished(2, "")).contains("exit 2"));
        let wide = Finished {
            stderr: b"error: w.txt: this puzzle's positions take 5085-bit keys, more than the \
                4064 bits the visited set stores: use --algorithm ida or dfid\n"
                .to_vec(),
            ..finished(2, "")
        };
        assert!(interpret(wide, 1).keys_too_wide());
        assert!(!interpret(finished(2, ""), 1).keys_too_wide());
        assert!(failed(finished(101, "")).ends_with("code 101: boom"));
        let limited = report(Status::LimitReached, serde_json::json!({}));
        assert!(failed(finished(0, &limited)).contains("contradicts"));
        let weird = report(Status::Solved, serde_json::json!({"status": "weird"}));
        assert!(failed(finished(0, &weird)).contains("JSON"));
        let partial = r#"{"status":"solved","positions_examined":9}"#;
        assert!(failed(finished(0, partial)).contains("missing field"));
        assert!(failed(Finished {
            exit: Exit::Signal(11),
            stdout: vec![],
            stderr: vec![]
        })
        .contains("signal 11"));
    }
}
