//! Solving a puzzle end to end: goal sections in turn (subgoals), each from
//! where the last ended, then the solution's lines, counts and report.

use super::{Ending, Engine, Limit, Progress, SearchError, Stats};
use crate::encoding::PositionEncoding;
use crate::heuristics::pdb::BuildDeadline;
use crate::model::{Position, Puzzle};
use crate::moves::State;
use crate::params::{Algorithm, Limits, Metric, SearchParams};
use crate::report::Status;
use crate::solution::SolutionMove;
use crate::store::VisitedSet;

/// Options of one solve that are not search parameters.
pub struct SolveOptions {
    pub progress: Progress,
    /// Best positions to collect when no solution is found (`--best-out`); 0: none.
    pub best: usize,
    /// The process's bytes to count against `--max-memory` besides the
    /// search's own (see [`Engine::new`]); `None`: measured at each start.
    pub held: Option<u64>,
}

impl SolveOptions {
    /// No progress bar, no best positions, the process's memory measured:
    /// how the tests solve.
    pub fn quiet() -> SolveOptions {
        SolveOptions {
            progress: Progress::disabled(),
            best: 0,
            held: None,
        }
    }
}

/// A best position of an unsolved search (see [`super::best`]), with the
/// whole path from the puzzle's start.
pub struct Restart {
    pub distance: u32,
    pub position: Position,
    /// Goal sections reached before it.
    pub goals_reached: usize,
    pub lines: Vec<SolutionMove>,
}

/// What solving one puzzle produced.
pub struct SolveOutput {
    pub status: Status,
    pub limit: Option<Limit>,
    pub stats: Stats,
    pub start_distance: u32,
    pub goals_reached: usize,
    /// The solution (present when solved), one line per move.
    pub solution: Option<Vec<SolutionMove>>,
    /// Where the search ended: the goal position when solved.
    pub final_position: Position,
    /// The best positions when unsolved and asked for (nearest first).
    pub best: Vec<Restart>,
    pub encoding: &'static str,
    /// Why that encoding (`--encoding auto` weighs speed against memory).
    pub encoding_reason: String,
    pub key_bits: u32,
    pub elapsed_ms: u64,
    /// A `no_solution` proved by the tiles' parity ([`super::parity`]),
    /// before any search.
    pub by_parity: bool,
    /// When an optimal search of a one-section puzzle stopped at a limit:
    /// the length no solution can be shorter than
    /// ([`Engine::proven_lower_bound`]).
    pub lower_bound: Option<u64>,
    /// Solved by an optimal search of a one-section puzzle (the searches
    /// of [`Engine::proven_lower_bound`], no pruning): no solution is
    /// shorter in the metric.
    pub optimal: bool,
}

impl SolveOutput {
    /// The output before any section has run: solved so far, at the
    /// puzzle's start, no best distance yet (`u32::MAX`).
    fn unstarted(puzzle: &Puzzle) -> SolveOutput {
        SolveOutput {
            status: Status::Solved,
            limit: None,
            stats: Stats {
                best_distance: u32::MAX,
                ..Stats::default()
            },
            start_distance: 0,
            goals_reached: 0,
            solution: None,
            final_position: puzzle.start.clone(),
            best: Vec::new(),
            encoding: "",
            encoding_reason: String::new(),
            key_bits: 0,
            elapsed_ms: 0,
            by_parity: false,
            lower_bound: None,
            optimal: false,
        }
    }

    /// The output once the sections are over: a best distance that was
    /// never measured is the start's, the solution's moves merged into
    /// lines (when solved), where the search ended, and the time taken.
    fn finished(
        mut self,
        puzzle: &Puzzle,
        solution: Vec<SolutionMove>,
        current: Option<State>,
        started: crate::clock::Instant,
    ) -> SolveOutput {
        if self.stats.best_distance == u32::MAX {
            self.stats.best_distance = self.start_distance;
        }
        self.solution = (self.status == Status::Solved).then(|| merge_runs(solution));
        if let Some(s) = current {
            self.final_position = s.to_position(puzzle);
        }
        self.elapsed_ms = started.elapsed().as_millis() as u64;
        self
    }

    /// The lower bound the answer carries, given the admissible
    /// heuristics' estimate of the start (`None` on a puzzle of several
    /// goal sections): solved optimally, the length itself; solved
    /// otherwise, the estimate; stopped, the larger of the estimate and
    /// what the stopped optimal search proved.
    fn bounded(mut self, start: Option<u64>, metric: Metric) -> SolveOutput {
        self.lower_bound = match self.status {
            Status::Solved if self.optimal => match metric {
                Metric::Steps => self.steps(),
                Metric::Moves => self.moves(),
            },
            Status::Solved => start,
            Status::LimitReached => self.lower_bound.max(start),
            Status::NoSolution => None,
        };
        self
    }

    /// Solution length in unit steps.
    pub fn steps(&self) -> Option<u64> {
        self.solution
            .as_ref()
            .map(|s| s.iter().map(|m| m.steps.len() as u64).sum())
    }

    /// Solution length in moves (lines; each line is one block's run of steps).
    pub fn moves(&self) -> Option<u64> {
        self.solution.as_ref().map(|s| s.len() as u64)
    }
}

/// Checks what every search (and count) needs: the locked blocks exist and
/// every parameter is in its declared range. Returns the locked types.
pub fn check_common(puzzle: &Puzzle, params: &SearchParams) -> Result<Vec<usize>, SearchError> {
    let locked = params
        .lock
        .iter()
        .map(|&id| puzzle.type_by_id(id).ok_or(SearchError::UnknownLock(id)))
        .collect::<Result<Vec<_>, _>>()?;
    params.check_ranges().map_err(SearchError::OutOfRange)?;
    crate::pruning::check(params).map_err(SearchError::OutOfRange)?;
    crate::heuristics::check_options(params).map_err(SearchError::OutOfRange)?;
    Ok(locked)
}

/// Checks parameters against the puzzle before a solve; returns the locked
/// types. Pattern databases must fit `--pdb-memory` and their share of
/// `limits`' `--max-memory` after `held` bytes (`None`: what the process
/// holds now), as [`Engine::table_memory`] will give them.
pub fn validate(
    puzzle: &Puzzle,
    params: &SearchParams,
    limits: &Limits,
    held: Option<u64>,
) -> Result<Vec<usize>, SearchError> {
    if puzzle.goals.is_empty() {
        return Err(SearchError::NoGoal);
    }
    let locked = check_common(puzzle, params)?;
    crate::heuristics::check(&params.heuristic).map_err(SearchError::Heuristic)?;
    if params.heuristic.name() == crate::heuristics::pdb::SPEC.name && params.algorithm.informed() {
        for goal in &puzzle.goals {
            let geometry = crate::geometry::Geometry::new(puzzle, Some(goal));
            let spec = crate::heuristics::pdb::PATTERNS.text(params);
            let memory = crate::heuristics::pdb::MEMORY.whole(params);
            let parts = if params.algorithm == Algorithm::Nbs {
                2
            } else {
                1
            };
            let cap = limits.max_memory.map(|m| {
                let held = held.unwrap_or_else(super::resident_bytes);
                super::table_share(super::search_memory(m, held), parts)
            });
            crate::heuristics::pdb::patterns::plan(puzzle, &geometry, spec, (memory, cap))
                .map_err(SearchError::Heuristic)?;
        }
    }
    Ok(locked)
}

/// Refuses bidirectional search where it cannot work: with a pruning that
/// makes the graph one-way, or a goal that does not fix every block; and NBS
/// where it would not be optimal (a weight, an inadmissible heuristic).
fn check_bidir(engine: &Engine, params: &SearchParams) -> Result<(), SearchError> {
    if !matches!(params.algorithm, Algorithm::Bidir | Algorithm::Nbs) {
        return Ok(());
    }
    let name = params.algorithm.name();
    let one_way = engine.prunings.directed_names();
    if !one_way.is_empty() {
        return Err(SearchError::BidirOneWay(
            name,
            one_way.iter().map(|n| n.to_string()).collect(),
        ));
    }
    if super::bidir::goal_state(engine).is_none() {
        return Err(SearchError::BidirNeedsFixedGoal(name));
    }
    if params.algorithm == Algorithm::Nbs {
        if params.weight != 1.0 {
            return Err(SearchError::NbsSetting(format!(
                "--algorithm nbs is optimal and takes no --weight (got {}): drop it, or use --algorithm astar for a weighted search",
                params.weight
            )));
        }
        let metric = params.metric;
        if crate::heuristics::lookup(&params.heuristic).is_some_and(|s| !s.admissible.under(metric))
        {
            let admissible: Vec<&str> = crate::heuristics::REGISTRY
                .iter()
                .filter(|s| s.admissible.under(metric))
                .map(|s| s.name)
                .collect();
            return Err(SearchError::NbsSetting(format!(
                "--algorithm nbs needs an admissible heuristic, and {} may overestimate under --metric {}: use one of {}",
                params.heuristic,
                metric.name(),
                admissible.join(", ")
            )));
        }
    }
    Ok(())
}

/// What is left of `limits` for the next goal section, after `examined`
/// positions, a section that ended with `ending` (its path's actions count
/// against `--max-length`) and the time since `started`.
fn spend(
    remaining: &mut Limits,
    limits: &Limits,
    started: crate::clock::Instant,
    (examined, ending): (u64, &Ending),
) {
    let length = match ending {
        Ending::Found(path) => path.len().saturating_sub(1) as u64,
        _ => 0,
    };
    if let Some(m) = remaining.max_positions.as_mut() {
        *m = m.saturating_sub(examined);
    }
    if let Some(n) = remaining.max_length.as_mut() {
        *n = n.saturating_sub(length);
    }
    if let Some(t) = remaining.time_limit_seconds.as_mut() {
        *t = (limits.time_limit_seconds.unwrap_or(0.0) - started.elapsed().as_secs_f64()).max(0.0);
    }
}

/// The engine of one goal section, refused before it searches when the key
/// is too wide, bidirectional search meets a one-way pruning, or `--spill`
/// cannot serve these settings.
fn checked<'a>(engine: Engine<'a>, params: &SearchParams) -> Result<Engine<'a>, SearchError> {
    engine.check_storage()?;
    check_bidir(&engine, params)?;
    super::spill::check(&engine)?;
    Ok(engine)
}

/// What builds the engine of one goal section, besides the puzzle, the
/// limits left and the progress bar it carries on.
#[derive(Clone, Copy)]
struct Section<'s, 'p> {
    goal: &'p crate::model::Goal,
    params: &'p SearchParams,
    locked: &'p [usize],
    held: Option<u64>,
    best: usize,
    forbidden: &'s [VisitedSet],
}

impl<'s> Section<'s, '_> {
    /// The section's engine, [`checked`].
    fn engine(
        self,
        puzzle: &'s Puzzle,
        remaining: &Limits,
        progress: Progress,
    ) -> Result<Engine<'s>, SearchError> {
        let mut engine = Engine::new(
            puzzle,
            self.goal,
            self.params,
            remaining,
            self.locked,
            progress,
            self.held,
        );
        engine.keep_best(self.best);
        let mut engine = checked(engine, self.params)?;
        engine.forbidden = self.forbidden;
        Ok(engine)
    }
}

/// A section's run that ended with `ending`, in the whole run's statistics
/// and off what is left of the limits (`limits` as given, the run started
/// at `started`).
fn charge(
    out: &mut SolveOutput,
    remaining: &mut Limits,
    (limits, started): (&Limits, crate::clock::Instant),
    engine: &Engine,
    ending: &Ending,
) {
    accumulate(&mut out.stats, &engine.stats);
    spend(remaining, limits, started, (engine.stats.examined, ending));
}

/// The encoding to run a section again with: the one `--encoding auto`
/// named for when the faster one it started with runs out of memory, if
/// the section stopped there.
pub(super) fn fallback(engine: &Engine, ending: &Ending) -> Option<crate::params::EncodingKind> {
    match ending {
        Ending::Stopped(Limit::Memory) => engine.encoding_fallback,
        _ => None,
    }
}

/// The encoding's reason after a fallback: what the first encoding
/// (`stored` positions of `name`) reached, then which the section was
/// searched with again.
fn refallen((stored, name): (u64, &str), engine: &Engine) -> String {
    format!(
        "{name} first (auto: faster), but it ran out of memory after storing {stored} positions, so the section was searched again with {}, narrower ({} bits)",
        engine.encoding.name(),
        engine.encoding.key_bits()
    )
}

/// Adds one section's statistics to the whole run's: positions examined
/// add up, sizes take the largest section, the best distance is the last
/// section's.
fn accumulate(total: &mut Stats, stats: &Stats) {
    total.examined += stats.examined;
    total.stored = total.stored.max(stats.stored);
    total.peak_memory = total.peak_memory.max(stats.peak_memory);
    total.disk_bytes = total.disk_bytes.max(stats.disk_bytes);
    total.best_distance = stats.best_distance;
    total.best_distance_positions = stats.best_distance_positions;
}

/// Solves `puzzle`: every goal section in order.
pub fn solve(
    puzzle: &Puzzle,
    params: &SearchParams,
    limits: &Limits,
    options: SolveOptions,
) -> Result<SolveOutput, SearchError> {
    let locked = validate(puzzle, params, limits, options.held)?;
    if params.algorithm.fluid() {
        super::fluid::check(puzzle, params, limits, &locked)?;
    }
    let started = crate::clock::Instant::now();
    let _builds_stop = build_deadline(limits, started);
    let mut progress = options.progress;
    let mut kept: Vec<VisitedSet> = Vec::new();
    let mut out = SolveOutput::unstarted(puzzle);
    let mut solution: Vec<SolutionMove> = Vec::new();
    let mut current: Option<State> = None;
    let mut remaining = *limits;
    // The admissible heuristics' estimate of the start, on a puzzle of one
    // goal section ([`SolveOutput::bounded`]).
    let mut start_bound = None;
    for (k, goal) in puzzle.goals.iter().enumerate() {
        // With a share given, the earlier sections' kept sets count against
        // it too (measured at each start they would be in the process's).
        let held = options
            .held
            .map(|h| h + kept.iter().map(|k| k.bytes() as u64).sum::<u64>());
        let section = Section {
            goal,
            params,
            locked: &locked,
            held,
            best: options.best,
            forbidden: &kept,
        };
        let mut engine = section.engine(puzzle, &remaining, progress)?;
        let start = current
            .take()
            .unwrap_or_else(|| start_state(puzzle, &engine));
        describe_section(&mut out, puzzle, &engine, &start, k);
        if puzzle.goals.len() == 1 {
            let bound =
                crate::heuristics::admissible_bound(puzzle, &engine.geometry, params, &start);
            start_bound = Some(u64::from(bound));
        }
        let mut ending = match out.by_parity {
            true => Ending::Exhausted,
            false => run_section(&mut engine, goal, &remaining, &locked, &start),
        };
        let clock = (limits, started);
        charge(&mut out, &mut remaining, clock, &engine, &ending);
        if let Some(kind) = fallback(&engine, &ending) {
            // The faster encoding auto started with ran out of memory: the
            // section again with the narrower one, its positions counted too.
            let first = (engine.stats.stored, engine.encoding.name());
            let narrow = SearchParams {
                encoding: kind,
                ..params.clone()
            };
            let section = Section {
                params: &narrow,
                ..section
            };
            engine = section.engine(puzzle, &remaining, engine.progress)?;
            describe_section(&mut out, puzzle, &engine, &start, k);
            out.encoding_reason = refallen(first, &engine);
            ending = run_section(&mut engine, goal, &remaining, &locked, &start);
            charge(&mut out, &mut remaining, clock, &engine, &ending);
        }
        match ending {
            Ending::Found(path) => {
                out.goals_reached += 1;
                out.optimal = puzzle.goals.len() == 1 && engine.proven_lower_bound().is_some();
                out.stats.best_distance = 0;
                out.stats.best_distance_positions = out.stats.examined;
                solution.extend(super::path::lines(&mut engine, &path));
                current = path.into_iter().last();
                if let Some((set, _)) = engine.left_behind.take().filter(|_| params.keep_visited) {
                    progress = engine.progress;
                    kept.push(set);
                    continue;
                }
            }
            Ending::Exhausted => out.status = Status::NoSolution,
            Ending::Failed(err) => {
                engine.progress.finish();
                return Err(err);
            }
            Ending::Stopped(l) => {
                out.status = Status::LimitReached;
                out.limit = Some(l);
                if puzzle.goals.len() == 1 {
                    out.lower_bound = engine.proven_lower_bound();
                }
            }
        }
        if out.status != Status::Solved {
            out.best = restarts(
                &mut engine,
                &start,
                options.best,
                out.goals_reached,
                &solution,
            );
            current = Some(start);
            progress = engine.progress;
            break;
        }
        progress = engine.progress;
    }
    progress.finish();
    let out = out.finished(puzzle, solution, current, started);
    Ok(out.bounded(start_bound, params.metric))
}

/// Pattern-database builds of this search stop at its `--time-limit`
/// (counted from `started`), until the value is dropped.
fn build_deadline(limits: &Limits, started: crate::clock::Instant) -> BuildDeadline {
    let deadline = limits
        .time_limit_seconds
        .and_then(|s| started.checked_add(std::time::Duration::try_from_secs_f64(s).ok()?));
    BuildDeadline::set(deadline)
}

/// Positions a breadth-first probe examines at most before IDA* or DFID,
/// which store no positions and so can never prove that no position
/// reaches the goal: a reachable space this small is settled by the probe
/// (in milliseconds) instead of deepening forever, and a goal this near is
/// reached by it without the repeated iterations.
const PROBE_POSITIONS: u64 = 100_000;

/// Runs one section from `start`: for IDA* and DFID, first a BFS probe of
/// at most [`PROBE_POSITIONS`]; when it exhausts the reachable space
/// (`no_solution`) or reaches the goal (by a shortest path, which IDA* and
/// DFID would also find), its ending and statistics stand for the
/// section's; else the engine's own search.
/// `goal`, `limits` and `locked` are the ones the engine was made with
/// (`limits` before the engine takes the process's memory off them).
fn run_section(
    engine: &mut Engine,
    goal: &crate::model::Goal,
    limits: &Limits,
    locked: &[usize],
    start: &State,
) -> Ending {
    if matches!(engine.params.algorithm, Algorithm::Ida | Algorithm::Dfid) {
        if let Some((ending, stats)) = probe(engine, goal, limits, locked, start) {
            engine.stats = stats;
            return within_length(ending, limits.max_length);
        }
    }
    within_length(engine.run(start), limits.max_length)
}

/// A BFS from `start` under `engine`'s prunings, metric and forbidden
/// positions and the section's `limits`, capped at [`PROBE_POSITIONS`]:
/// its ending and statistics when it exhausts the reachable space or
/// reaches `goal`; `None` when it stops at a limit or cannot store the
/// puzzle's keys.
fn probe(
    engine: &Engine,
    goal: &crate::model::Goal,
    limits: &Limits,
    locked: &[usize],
    start: &State,
) -> Option<(Ending, Stats)> {
    let params = SearchParams {
        algorithm: Algorithm::Bfs,
        spill: None,
        threads: 1,
        ..engine.params.clone()
    };
    let cap = limits
        .max_positions
        .map_or(PROBE_POSITIONS, |m| m.min(PROBE_POSITIONS));
    let limits = Limits {
        max_positions: Some(cap),
        ..*limits
    };
    let mut probe = Engine::new(
        engine.puzzle,
        goal,
        &params,
        &limits,
        locked,
        Progress::disabled(),
        None,
    );
    probe.forbidden = engine.forbidden;
    probe.check_storage().ok()?;
    match probe.run(start) {
        ending @ (Ending::Exhausted | Ending::Found(_)) => Some((ending, probe.stats)),
        _ => None,
    }
}

/// Records in `out` what section `k`'s engine chose (the encoding) and, for
/// the first section, which starts from the puzzle's start, its distance to
/// the goal and whether the tiles' parity already rules the goal out.
fn describe_section(
    out: &mut SolveOutput,
    puzzle: &Puzzle,
    engine: &Engine,
    start: &State,
    k: usize,
) {
    if k == 0 {
        out.start_distance = engine.geometry.goal_distance(start);
        out.by_parity = super::parity::unreachable(puzzle, &engine.geometry);
    }
    out.encoding = engine.encoding.name();
    out.encoding_reason.clone_from(&engine.encoding_reason);
    out.key_bits = engine.encoding.key_bits();
}

/// The puzzle's start position as a search state (the first section's start).
fn start_state(puzzle: &Puzzle, engine: &Engine) -> State {
    let mut s = State::new(puzzle);
    s.load(&puzzle.start, engine.moves.shapes());
    s
}

/// A section's solution longer than what is left of `--max-length` is none:
/// the algorithms that do not cut paths by the bound themselves (spilled
/// BFS, bidirectional BFS, NBS) are optimal, so a longer one proves that no
/// solution within the bound exists.
fn within_length(ending: Ending, max_length: Option<u64>) -> Ending {
    match ending {
        Ending::Found(path)
            if max_length.is_some_and(|n| path.len().saturating_sub(1) as u64 > n) =>
        {
            Ending::Exhausted
        }
        other => other,
    }
}

/// The best positions of a section that ended unsolved, their paths
/// prefixed by the `before` lines of the sections already solved.
fn restarts(
    engine: &mut Engine,
    start: &State,
    count: usize,
    goals_reached: usize,
    before: &[SolutionMove],
) -> Vec<Restart> {
    let best = match engine.left_behind.take() {
        Some((set, recorded)) => super::best::nearest(engine, &set, start, recorded, count),
        None => super::best::handed_over(engine, count),
    };
    best.into_iter()
        .map(|b| Restart {
            distance: b.distance,
            position: b.position,
            goals_reached,
            lines: merge_runs(before.iter().cloned().chain(b.lines).collect()),
        })
        .collect()
}

/// Joins lines where one subgoal's last move and the next one's first move
/// are the same block continuing.
fn merge_runs(lines: Vec<SolutionMove>) -> Vec<SolutionMove> {
    let mut out: Vec<SolutionMove> = Vec::with_capacity(lines.len());
    for line in lines {
        if let Some(last) = out.last_mut() {
            let (mut r, mut c) = (last.row as i64, last.col as i64);
            for s in &last.steps {
                let (dr, dc) = s.delta();
                r += dr as i64;
                c += dc as i64;
            }
            if last.id == line.id && (r, c) == (line.row as i64, line.col as i64) {
                last.steps.extend(line.steps);
                continue;
            }
        }
        out.push(line);
    }
    out
}
