//! The meta-control cycle (thesis §6.3, §9.2.1): features, retrieve, reuse,
//! revise (randomized proximity search), a final unlimited run, and retain.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::{AbortHandle, JoinSet};
use tracing::Instrument;

use crate::budget::{Budget, BudgetReport};
use crate::casebase::{self, Case, CaseBase, FoundBy, Outcome, Provenance};
use crate::error::Error;
use crate::features::FeatureReport;
use crate::improve;
use crate::interrupt::{Gate, Interrupt};
use crate::params::{Metric, ParamSet};
use crate::plan::{self, Phase, Planned, Planner, SearchConfig};
use crate::progress::WaveProgress;
use crate::report::{bounds_summary, AttemptRecord, Report, Retained};
use crate::retrieval::Retrieval as Mode;
use crate::runner::{AttemptResult, RunLimits, RunStatus, Runner};
use crate::similarity::{self, Ranked, Similarity};
use crate::space::Space;
use crate::{park, restart, split, variant};

/// Settings of one cycle.
#[derive(Clone, Debug)]
pub struct CycleConfig {
    /// Seeds the proximity search.
    pub seed: u64,
    /// Positions one limited attempt may examine (thesis: 5 million).
    pub position_limit: u64,
    /// Attempts before the final one (thesis: 25).
    pub attempts: usize,
    /// Solver processes at once.
    pub jobs: usize,
    /// Attempts planned together (see `plan.rs`); part of the plan, unlike `jobs`.
    pub wave: usize,
    pub search: SearchConfig,
    /// Wall-clock limit of limited attempts (and of feature extraction).
    pub attempt_timeout: Option<Duration>,
    /// Wall-clock limit of the final attempt.
    pub final_timeout: Option<Duration>,
    /// Whether to make the final unlimited run.
    pub final_run: bool,
    /// Whether to draw a progress bar on stderr (only if it is a terminal).
    pub progress: bool,
    /// Which cases are reused (`--retrieval`; the ablations use the others).
    pub retrieval: Mode,
    /// Variant recipes to try when the limited attempts fail (0: no variant phase).
    pub variants: usize,
    /// Rounds of restarts from the best positions (0: no restart phase).
    pub restarts: usize,
    /// Rounds of parking the blocks on the master's way (0: no parking phase).
    pub parks: usize,
    /// The whole run's budget (`--time-budget`, `--position-budget`),
    /// shared by every phase.
    pub budget: Arc<Budget>,
    /// Whether to shorten the first solution (`--improve`).
    pub improve: bool,
    /// The metric every attempt and the improve phase search in
    /// (`--metric`; the runner passes it on); `None`: each parameter set's
    /// own, as before the flag.
    pub metric: Option<Metric>,
    /// `--optimal`: the improve phase's optimal re-run decides whether the
    /// final length is proven optimal (and is not cut to a default time
    /// when the run has no time budget).
    pub optimal: bool,
}

impl CycleConfig {
    /// The limits of one solver run of the phases for hard puzzles (parking,
    /// variants, restarts): the position limit and the attempt timeout, to
    /// be cut to what is left of the budget when it starts.
    pub fn phase_limits(&self) -> RunLimits {
        RunLimits {
            max_positions: Some(self.position_limit),
            timeout: self.attempt_timeout,
            ..RunLimits::default()
        }
    }
}

impl Default for CycleConfig {
    fn default() -> Self {
        CycleConfig {
            seed: 0,
            position_limit: 5_000_000,
            attempts: 25,
            jobs: 1,
            wave: 4,
            search: SearchConfig::default(),
            attempt_timeout: None,
            final_timeout: None,
            final_run: true,
            progress: false,
            retrieval: Mode::Similar,
            variants: 3,
            restarts: 2,
            parks: 4,
            budget: Arc::new(Budget::default()),
            improve: false,
            metric: None,
            optimal: false,
        }
    }
}

/// Settings the learned selector's ranking contributes to a cycle's reuse
/// phase: as many as a schedule of `experiments/transfer.py` tries.
pub const LEARNED_REUSE: usize = 5;

/// Features of a puzzle and the case base ranked against them.
pub struct Retrieval {
    pub features: FeatureReport,
    /// Every case, most similar first.
    pub ranked: Vec<Ranked>,
    /// How many of `ranked` are retrieved.
    pub retrieved: usize,
}

/// Steps 1 and 2: extract features with the solver and rank the cases.
pub async fn retrieve(
    runner: &Runner,
    puzzle: &Path,
    cb: &CaseBase,
    sim: &dyn Similarity,
    timeout: Option<Duration>,
) -> Result<Retrieval, Error> {
    let features = runner.features(puzzle, timeout).await?;
    let ranked = similarity::rank(
        sim,
        &features.features,
        cb.cases.iter().map(|c| (c.name.as_str(), &c.features)),
    );
    let retrieved = similarity::retrieved_count(&ranked);
    Ok(Retrieval {
        features,
        ranked,
        retrieved,
    })
}

/// The attempts of one cycle so far, and what the planner learnt from them.
struct Progress {
    planner: Planner,
    done: Vec<(Planned, AttemptResult)>,
    /// The set the final run uses when no attempt ran (`--attempts 0`): the
    /// most similar case's, else the first general setting.
    first: Option<(String, ParamSet)>,
    /// What a person watching sees of it.
    bar: WaveProgress,
}

impl Progress {
    fn solved(&self) -> bool {
        self.done.iter().any(|(p, r)| solves(p, r))
    }

    /// True while the puzzle is neither solved nor proved unsolvable: the
    /// door split, the phases for hard puzzles and the final run go on.
    fn goes_on(&self) -> bool {
        !self.solved() && !self.planner.bounds.unsolvable
    }

    /// [`Progress::goes_on`], and `budget` is not exhausted: a phase for
    /// hard puzzles or the final run may start.
    fn goes_on_within(&self, budget: &Budget) -> bool {
        self.goes_on() && budget.exhausted().is_none() && !crate::interrupt::stopping()
    }

    /// Rows of the variant, parking and restart phases: reported, but never learnt
    /// from (they ran on other puzzles, whose bounds are not this one's).
    fn append(&mut self, rows: Vec<(Planned, AttemptResult)>) {
        for (p, r) in rows {
            self.bar.done(&p, &r);
            self.done.push((p, r));
        }
    }

    fn record(&mut self, results: Vec<(Planned, AttemptResult)>) {
        for (p, r) in results {
            self.bar.done(&p, &r);
            self.planner.learn(&p, &r);
            self.done.push((p, r));
        }
    }
}

/// True when the row solved the puzzle itself: a variant's own cycle
/// solving the variant does not, nor a door split's part.
fn solves(p: &Planned, r: &AttemptResult) -> bool {
    r.status == RunStatus::Solved && !matches!(p.phase, Phase::Variant | Phase::SplitPart)
}

/// The retrieval (ranked, then `--retrieval`'s pick) and the solver's
/// parameter space, asked together so that one interrupt covers the solver
/// calls.
async fn retrieve_and_list(
    runner: &Runner,
    puzzle: &Path,
    cb: &CaseBase,
    sim: &dyn Similarity,
    config: &CycleConfig,
) -> Result<(Retrieval, Space), Error> {
    let timeout = Runner::tool_timeout(config.attempt_timeout);
    let (mut found, space) = tokio::try_join!(
        retrieve(runner, puzzle, cb, sim, timeout),
        runner.space(timeout)
    )?;
    if let Some(metric) = config.metric {
        // Among equally similar cases, those solved in the asked metric
        // first: their outcome is a length in it.
        similarity::prefer(&mut found.ranked, |i| cb.cases[i].params.metric == metric);
    }
    // Every attempt would be refused for the same reason: say it once.
    if found.features.goal_sections == Some(0) {
        return Err(Error::Puzzle(format!(
            "{}: the puzzle has no goal section, so there is nothing to solve: after the start grid, draw where the blocks must go (docs/format.md)",
            puzzle.display()
        )));
    }
    cb.check_against(&space)?;
    let (ranked, retrieved) = config
        .retrieval
        .pick(found.ranked, found.retrieved, config.seed);
    let found = Retrieval {
        ranked,
        retrieved,
        ..found
    };
    Ok((found, space))
}

/// Runs the whole cycle on one puzzle (without retain). When `stop` fires,
/// the running attempts are killed and the report of the finished ones has
/// status `interrupted`.
pub async fn run(
    runner: Arc<Runner>,
    puzzle: &Path,
    cb: &CaseBase,
    sim: &dyn Similarity,
    config: &CycleConfig,
    stop: &mut Interrupt,
) -> Result<Report, Error> {
    let (found, space) = match stop
        .until(retrieve_and_list(&runner, puzzle, cb, sim, config))
        .await
    {
        Some(both) => both?,
        None => {
            let nothing = Retrieval {
                features: FeatureReport::default(),
                ranked: Vec::new(),
                retrieved: 0,
            };
            return Ok(report(puzzle, sim, config, nothing, None, true));
        }
    };
    let (mut progress, reused) = plan_attempts(&found, cb, sim, config, &space);
    let hard = variant::Context {
        cb,
        sim,
        config,
        reuse: &reused,
        space: &space,
    };
    // On a signal the running attempts report how close they got (their
    // rows stay in the report); `finished` only when no signal came.
    let finished = stop
        .drain(attempts(&runner, puzzle, &hard, &mut progress))
        .await
        .is_some()
        && stop.code().is_none();
    if finished && config.improve && progress.solved() {
        progress
            .bar
            .phase("shortening the solution (windows, then an optimal re-run)");
    }
    let mut bar = std::mem::replace(&mut progress.bar, WaveProgress::new(0, false, None));
    let mut report = report(puzzle, sim, config, found, Some(progress), !finished);
    let first_solution_ms =
        (report.status == RunStatus::Solved).then(|| config.budget.elapsed_ms());
    if finished && config.improve {
        let phase = improve::run(&runner, puzzle, &mut report, &config.budget, config.optimal);
        stop.until(phase).await;
    }
    bar.finish();
    report.settle_bounds();
    report.budget = BudgetReport {
        first_solution_ms,
        ..config.budget.report()
    };
    report.first_solution_s = first_solution_ms.map(|ms| ms as f64 / 1000.0);
    Ok(report)
}

/// The cycle's plan from what was retrieved: the retrieved cases'
/// parameters (a fluid case only where the puzzle has units), then the
/// general settings, then the proximity search over `space`. Returns the
/// attempts' state and the reused parameter sets (the variant phase's).
fn plan_attempts(
    found: &Retrieval,
    cb: &CaseBase,
    sim: &dyn Similarity,
    config: &CycleConfig,
    space: &Space,
) -> (Progress, Vec<(String, ParamSet)>) {
    let spaces = crate::features::spaces_of(&found.features.features);
    // A case solved by the fluid search is no use where the solver would
    // refuse it (a puzzle without units): it is not reused there.
    let units = found.features.fluid_units;
    // A measure that ranks settings itself (the learned selector) gives
    // its best few; otherwise the retrieved cases' parameters, in order.
    let ranked = (config.retrieval == Mode::Similar)
        .then(|| sim.settings(&found.features.features, cb))
        .flatten();
    let reuse: Vec<(String, ParamSet)> = match ranked {
        Some(settings) => settings.into_iter().take(LEARNED_REUSE).collect(),
        None => found.ranked[..found.retrieved]
            .iter()
            .map(|r| (r.name.clone(), cb.cases[r.index].params.clone()))
            .collect(),
    };
    let reuse: Vec<(String, ParamSet)> = reuse
        .into_iter()
        .filter(|(_, p)| plan::runs_with_units(p, units))
        // The proximity search keeps a set's metric, so the sets it draws
        // from these are in the asked one too.
        .map(|(name, p)| (name, p.in_metric(config.metric)))
        .collect();
    let general: Vec<(String, ParamSet)> =
        plan::general_settings(spaces, units, found.features.goal_fixed)
            .into_iter()
            .map(|(name, p)| (name, p.in_metric(config.metric)))
            .collect();
    tracing::info!(
        retrieved = found.retrieved,
        best = found.ranked.first().map(|r| r.name.as_str()),
        "retrieved cases"
    );
    let first = reuse.first().or(general.first()).cloned();
    let reused = reuse.clone();
    let planner = Planner::new(
        config.seed,
        config.search,
        reuse,
        config.attempts,
        config.wave,
        spaces,
    )
    .with_general(general)
    .with_space(space.clone());
    let progress = Progress {
        planner,
        done: Vec::new(),
        first,
        bar: WaveProgress::new(config.attempts, config.progress, config.budget.time()),
    };
    (progress, reused)
}

/// Charges what the attempts examined to the run's budget. A `variant`
/// row sums the variant's own cycle, which shares this budget and has
/// charged it already (`variant.rs` charges the rest itself).
fn charge(budget: &Budget, results: &[(Planned, AttemptResult)]) {
    // The variant's own cycle and the parking rounds charge as they go.
    let own = |p: &Planned| {
        matches!(
            p.phase,
            Phase::Variant | Phase::Park | Phase::SplitPart | Phase::Split
        )
    };
    for (_, r) in results.iter().filter(|(p, _)| !own(p)) {
        budget.charge(r.positions_examined.unwrap_or(0));
    }
}

/// The limited attempts, wave by wave (no new wave once half of a budget
/// is used, when phases for hard puzzles follow), the parking, variant and
/// restart phases if they failed, then the final unlimited attempt; with
/// no attempts (`--attempts 0`) the final attempt alone.
/// Parking comes first: it solved American Pie, where the variants had not,
/// and it stops after at most one run of its own when no block stands on
/// the master's route.
async fn attempts(
    runner: &Arc<Runner>,
    puzzle: &Path,
    hard: &variant::Context<'_>,
    progress: &mut Progress,
) {
    let config = hard.config;
    // `--attempts 0` asks for the final attempt alone: no door split,
    // parking, variant or restart runs before it.
    if config.attempts > 0 {
        waves(runner, puzzle, hard, progress).await;
        hard_phases(runner, puzzle, hard, progress).await;
    }
    if !config.final_run || !progress.goes_on_within(&config.budget) {
        return;
    }
    final_attempt(runner, puzzle, config, progress).await;
}

/// The limited attempts, wave by wave, and the door-split phase once:
/// after the first wave that did not solve the puzzle, else after the
/// waves while the puzzle is open. The waves stop once the puzzle is
/// solved or proved unsolvable, the budget is exhausted, or half of it is
/// used when phases for hard puzzles follow.
async fn waves(
    runner: &Arc<Runner>,
    puzzle: &Path,
    hard: &variant::Context<'_>,
    progress: &mut Progress,
) {
    let config = hard.config;
    // The solver is told to stop a little before it would be killed, so that
    // an attempt slower than its timeout still reports how close it got.
    let limited = RunLimits {
        max_positions: Some(config.position_limit),
        time_limit: config.attempt_timeout.map(Budget::own_share),
        timeout: config.attempt_timeout,
        threads: None,
    };
    let budget = &config.budget;
    let own = OwnCase::find(puzzle, hard);
    // Half of a budget is kept for the phases that follow, if any (a
    // variant's own cycle has none).
    let phases = config.parks + config.variants + config.restarts > 0;
    let kept_for_phases = || phases && budget.attempts_share_used();
    let stop = |p: &Progress| !p.goes_on_within(budget);
    let mut split_tried = false;
    while !stop(progress) && !kept_for_phases() {
        let wave = progress.planner.next_wave();
        if wave.is_empty() {
            break;
        }
        progress.bar.wave(&wave);
        let limits = |p: &Planned| own.as_ref().map_or(limited, |o| o.limits(p, limited));
        let results = run_wave(runner, puzzle, wave, &limits, config.jobs, budget).await;
        charge(budget, &results);
        progress.record(results);
        if !split_tried && !stop(progress) {
            split_tried = true;
            split_between_waves(runner, puzzle, hard, progress).await;
        }
    }
    if !split_tried && progress.goes_on() {
        split_between_waves(runner, puzzle, hard, progress).await;
    }
}

/// The phases for hard puzzles, each only while the puzzle is neither
/// solved nor proved unsolvable and the budget lasts: parking, variants,
/// then restarts. Their rows are reported, not learnt from.
async fn hard_phases(
    runner: &Arc<Runner>,
    puzzle: &Path,
    hard: &variant::Context<'_>,
    progress: &mut Progress,
) {
    let config = hard.config;
    let budget = &config.budget;
    if progress.goes_on_within(budget) {
        let first = progress.done.len() + 1;
        let results = park::phase(runner, puzzle, hard, &progress.done, first).await;
        charge(budget, &results);
        progress.append(results);
    }
    if progress.goes_on_within(budget) {
        let results = variant::phase(runner, puzzle, hard, progress.done.len() + 1).await;
        charge(budget, &results);
        progress.append(results);
    }
    if progress.goes_on_within(budget) {
        let first = progress.done.len() + 1;
        let results = restart::phase(runner, puzzle, config, &progress.done, first).await;
        charge(budget, &results);
        progress.append(results);
    }
}

/// The final unlimited attempt, as [`final_planned`] plans it (no plan:
/// no final run).
async fn final_attempt(
    runner: &Arc<Runner>,
    puzzle: &Path,
    config: &CycleConfig,
    progress: &mut Progress,
) {
    let Some(last) = final_planned(progress) else {
        return;
    };
    // Alone, the final run may use the cores the waves used.
    let unlimited = RunLimits {
        max_positions: None,
        timeout: config.final_timeout,
        threads: (config.jobs > 1).then_some(config.jobs),
        ..RunLimits::default()
    };
    let budget = &config.budget;
    progress.bar.wave(std::slice::from_ref(&last));
    let results = run_wave(runner, puzzle, vec![last], &|_| unlimited, 1, budget).await;
    charge(budget, &results);
    progress.record(results);
}

/// The final attempt's plan: the best limited attempt's parameters
/// ([`plan::choose_final`]), or, when no attempt ran, the first set (the
/// most similar case's or the first general setting). `None` when there
/// is neither.
fn final_planned(progress: &Progress) -> Option<Planned> {
    let index = progress.done.len() + 1;
    let pick = plan::choose_final(
        progress
            .done
            .iter()
            .filter(|(p, _)| matches!(p.phase, Phase::Reuse | Phase::General | Phase::Proximity))
            .map(|(p, r)| (p, r)),
        &progress.planner.bounds,
    );
    match (pick, &progress.first) {
        (Some(best), _) => Some(Planned {
            index,
            phase: Phase::Final,
            case: best.case.clone(),
            from: Some(best.index),
            params: best.params.clone(),
        }),
        (None, Some((case, params))) if progress.done.is_empty() => Some(Planned {
            index,
            phase: Phase::Final,
            case: Some(case.clone()),
            from: None,
            params: params.clone(),
        }),
        _ => None,
    }
}

/// The door-split phase, run once after the first wave that did not solve
/// the puzzle (with `--variants 0` not at all): where it applies, blocks on
/// both sides of a master-only door multiply the positions of every
/// attempt on the whole puzzle (Ithaca: none solved it in 20 minutes; the
/// split's runs take a second), and where it does not, `solver variant
/// --split` says so at once and no row is added. Its rows come before the
/// next wave's in the report.
async fn split_between_waves(
    runner: &Arc<Runner>,
    puzzle: &Path,
    hard: &variant::Context<'_>,
    progress: &mut Progress,
) {
    if hard.config.variants == 0 || hard.config.budget.exhausted().is_some() {
        return;
    }
    let results = split::phase(runner, puzzle, hard, progress.done.len() + 1).await;
    charge(&hard.config.budget, &results);
    progress.planner.skip(results.len());
    progress.append(results);
}

/// A retrieved case of this very puzzle (the same file's hash) whose
/// parameters needed more positions than the attempts' limit (it was
/// solved by a final unlimited run): its reuse attempt gets the positions
/// it needed, a quarter more, and the time for them, so that a puzzle solved
/// once is solved again by its first attempt instead of failing at the limit
/// as it did the first time.
struct OwnCase {
    name: String,
    positions: u64,
}

impl OwnCase {
    fn find(puzzle: &Path, hard: &variant::Context<'_>) -> Option<OwnCase> {
        let sha256 = casebase::sha256_file(puzzle).ok()?;
        let limit = hard.config.position_limit;
        hard.cb
            .cases
            .iter()
            .filter(|c| c.provenance.sha256.as_deref() == Some(sha256.as_str()))
            .filter(|c| hard.reuse.iter().any(|(name, _)| *name == c.name))
            .find_map(|c| {
                let needed = c.outcome.positions_examined?;
                (needed > limit).then(|| OwnCase {
                    name: c.name.clone(),
                    positions: needed.saturating_add(needed / 4),
                })
            })
    }

    /// The limits of attempt `p`: raised when it reuses this case.
    fn limits(&self, p: &Planned, limited: RunLimits) -> RunLimits {
        if p.phase != Phase::Reuse || p.case.as_deref() != Some(self.name.as_str()) {
            return limited;
        }
        let timeout = crate::flags::default_attempt_timeout(self.positions);
        let timeout = limited.timeout.map_or(timeout, |t| t.max(timeout));
        RunLimits {
            max_positions: Some(self.positions),
            time_limit: Some(Budget::own_share(timeout)),
            timeout: Some(timeout),
            threads: None,
        }
    }
}

/// The report of a cycle: `progress` is `None` when it was interrupted
/// before any attempt was planned.
fn report(
    puzzle: &Path,
    sim: &dyn Similarity,
    config: &CycleConfig,
    found: Retrieval,
    progress: Option<Progress>,
    interrupted: bool,
) -> Report {
    let (done, bounds) = match progress {
        Some(p) => (p.done, p.planner.bounds),
        None => (Vec::new(), Default::default()),
    };
    let winner = done.iter().find(|(p, r)| solves(p, r));
    let status = if winner.is_some() {
        RunStatus::Solved
    } else if interrupted {
        RunStatus::Interrupted
    } else if bounds.unsolvable {
        RunStatus::NoSolution
    } else if done.iter().all(|(_, r)| r.status == RunStatus::Failed) {
        // Also when no attempt ran at all: nothing gave an answer.
        RunStatus::Failed
    } else {
        RunStatus::LimitReached
    };
    // What ran: the runner passes `--metric` to every attempt, also to
    // the hard phases' own sets (parking, variants, splits, restarts).
    let attempts = done
        .iter()
        .map(|(p, r)| AttemptRecord::new(p, r))
        .map(|mut a| {
            a.params = a.params.in_metric(config.metric);
            a
        })
        .collect();
    Report {
        puzzle: puzzle.display().to_string(),
        name: found.features.name.clone(),
        status,
        metric: config.metric.unwrap_or(Metric::Steps),
        steps: winner.and_then(|(_, r)| r.steps),
        moves: winner.and_then(|(_, r)| r.moves),
        optimal: None,
        lower_bound: None,
        solution: winner.and_then(|(_, r)| r.solution.clone()),
        solved_by: winner.map(|(p, _)| p.index),
        features: found.features.features,
        similarity: sim.name(),
        retrieval: config.retrieval.name(),
        retrieved: found.ranked[..found.retrieved].to_vec(),
        attempts,
        seed: config.seed,
        position_limit: config.position_limit,
        wave: config.wave,
        cutoff_bounds: bounds_summary(&bounds),
        retained: None,
        improvement: None,
        first_solution_s: None,
        budget: config.budget.report(),
    }
}

/// Runs one wave with at most `jobs` solvers at once, starting attempts in
/// plan order. Once one solves the puzzle the rest of the wave stops: the
/// running solvers are killed and they, and those not started, are
/// recorded as `cancelled`, as are those after the first solving attempt in
/// plan order that finished anyway and those the run's budget leaves no
/// room for. Each attempt gets `limits` cut to what is left of the budget when it
/// starts, the positions split evenly over the wave. Returns the outcomes in
/// plan order.
async fn run_wave(
    runner: &Arc<Runner>,
    puzzle: &Path,
    wave: Vec<Planned>,
    limits: &dyn Fn(&Planned) -> RunLimits,
    jobs: usize,
    budget: &Budget,
) -> Vec<(Planned, AttemptResult)> {
    let n = wave.len();
    let mut results: Vec<Option<AttemptResult>> = vec![None; n];
    let mut handles: Vec<Option<AbortHandle>> = vec![None; n];
    let mut set = JoinSet::new();
    let (mut next, mut running, mut solved) = (0, 0, false);
    loop {
        while running < jobs.max(1)
            && next < n
            && !solved
            && budget.exhausted().is_none()
            && !crate::interrupt::stopping()
        {
            let (i, runner, puzzle) = (next, Arc::clone(runner), puzzle.to_path_buf());
            let planned = wave[i].clone();
            let limits = budget.limit(limits(&planned), n);
            let span = tracing::info_span!(
                "attempt",
                index = planned.index,
                phase = planned.phase.name(),
                params = %planned.params
            );
            let task = async move {
                let extra = restart::best_out_args(&runner, &puzzle, planned.index);
                let r = runner
                    .solve_with(&puzzle, &planned.params, &limits, planned.index, &extra)
                    .await;
                (i, r)
            };
            handles[i] = Some(set.spawn(task.instrument(span)));
            next += 1;
            running += 1;
        }
        if running == 0 {
            break;
        }
        let Some(joined) = set.join_next().await else {
            break;
        };
        running -= 1;
        let (i, r) = match joined {
            Ok(x) => x,
            Err(e) if e.is_cancelled() => continue,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        };
        if r.status == RunStatus::Solved && !solved {
            solved = true;
            for h in handles.iter().flatten() {
                h.abort();
            }
        }
        results[i] = Some(r);
    }
    // Dropping the set cancels what still runs; their solvers are killed.
    drop(set);
    // Attempts after the first solving one in plan order count as cancelled
    // even when they finished first: with one job they would not have run,
    // so the report does not depend on how many ran at once.
    if let Some(w) = results
        .iter()
        .position(|r| r.as_ref().is_some_and(|r| r.status == RunStatus::Solved))
    {
        results[w + 1..].iter_mut().for_each(|r| *r = None);
    }
    wave.into_iter()
        .zip(results)
        .map(|(p, r)| (p, r.unwrap_or_else(AttemptResult::cancelled)))
        .collect()
}

/// How the winning attempt's set was found. A final run with no attempt
/// before it (`--attempts 0`) reuses a set as a reuse attempt does.
fn found_by(origin: &AttemptRecord, report: &Report) -> FoundBy {
    match (origin.phase, &origin.case) {
        (Phase::Variant | Phase::Subgoals, _) => FoundBy::EasierVariant,
        (Phase::Restart, _) => FoundBy::Restart,
        (Phase::Park, _) => FoundBy::Parking,
        (Phase::Split | Phase::SplitPart, _) => FoundBy::DoorSplit,
        (Phase::Proximity, _) | (_, None) => FoundBy::ProximitySearch,
        (_, Some(case)) if report.retrieved.iter().any(|r| &r.name == case) => FoundBy::CaseReuse,
        // The thesis's general settings were chosen by hand.
        _ => FoundBy::HandTuned,
    }
}

/// Step 6: makes the solved puzzle a case of the case base at `path`, or
/// updates its case (same puzzle content) when the new parameters needed
/// fewer positions. The file is re-read, changed and replaced atomically
/// under its lock (see `casebase::lock`); once the lock is held, `gate`
/// says whether a signal came while waiting for it (then nothing is
/// written).
pub fn retain(
    path: &Path,
    puzzle: &Path,
    report: &Report,
    gate: &Gate,
) -> Result<Option<Retained>, Error> {
    let Some(index) = report.solved_by else {
        return Ok(None);
    };
    let by_index = |i: usize| report.attempts.iter().find(|a| a.index == i);
    let Some(winner) = by_index(index) else {
        return Ok(None);
    };
    // The final run repeats an earlier attempt: credit that attempt's phase.
    let origin = match winner.from {
        Some(from) => by_index(from).unwrap_or(winner),
        None => winner,
    };
    let found_by = found_by(origin, report);
    let sha256 = casebase::sha256_file(puzzle)?;
    let positions_examined = solution_positions(winner, report);
    let outcome = Outcome {
        steps: winner.result.steps,
        moves: winner.result.moves,
        positions_examined,
        found_by,
        found_at: Some(casebase::schema::utc_now()),
    };
    let provenance = Provenance {
        puzzle: Some(puzzle.display().to_string()),
        sha256: Some(sha256.clone()),
    };
    // Re-read, merged and written under the case base's lock: a case another
    // reasoner added meanwhile is kept.
    let retained = casebase::update(path, |cb| {
        gate.pass_for(path)?;
        // Found without a mutable access, so that adding a case does not
        // copy the others (`casebase::Edit`).
        let existing = cb
            .cases
            .iter()
            .position(|c| c.provenance.sha256.as_deref() == Some(sha256.as_str()));
        let retained = match existing {
            Some(i) => {
                let case = &mut cb.cases[i];
                case.profile = casebase::merge::union([&case.profile[..], &profile(report)[..]]);
                update_case(case, winner, report, outcome, provenance)
            }
            None => add_case(cb, puzzle, winner, report, outcome, provenance),
        };
        Ok(retained)
    })?;
    Ok(Some(retained))
}

/// The profile a cycle gives its puzzle's case: every attempt that ran on
/// the puzzle and answered (not cancelled or failed; not a variant's or a
/// door split part's, which ran other puzzles), the winner included, each
/// with the position limit it ran under (none for the final run).
fn profile(report: &Report) -> Vec<casebase::schema::Trial> {
    use sbp_protocol::Status;
    let trial = |a: &AttemptRecord| {
        let status = match a.result.status {
            RunStatus::Solved => Status::Solved,
            RunStatus::NoSolution => Status::NoSolution,
            RunStatus::LimitReached => Status::LimitReached,
            _ => return None,
        };
        let length = crate::params::length_in(a.params.metric, a.result.steps, a.result.moves);
        Some(casebase::schema::Trial {
            params: a.params.clone(),
            status,
            positions: a.result.positions_examined.unwrap_or(0),
            limit: a.result.position_limit,
            seconds: Some(a.result.elapsed_ms as f64 / 1000.0),
            length,
        })
    };
    let trials: Vec<_> = report
        .attempts
        .iter()
        .filter(|a| !matches!(a.phase, Phase::Variant | Phase::SplitPart))
        .filter_map(trial)
        .collect();
    casebase::merge::union([&trials[..]])
}

/// The positions the winning attempt's solution cost. A door split's
/// solution cost its parts' runs too: the case counts them all, so that it
/// never looks cheaper than a whole-puzzle case.
fn solution_positions(winner: &AttemptRecord, report: &Report) -> Option<u64> {
    match winner.phase {
        Phase::Split => Some(
            report
                .attempts
                .iter()
                .filter(|a| matches!(a.phase, Phase::SplitPart | Phase::Split))
                .filter_map(|a| a.result.positions_examined)
                .sum(),
        ),
        _ => winner.result.positions_examined,
    }
}

/// The puzzle's existing `case` takes the winner's parameters, outcome,
/// features and provenance only when the new outcome is better
/// (`casebase::merge::better`); otherwise it is kept as it is.
fn update_case(
    case: &mut Case,
    winner: &AttemptRecord,
    report: &Report,
    outcome: Outcome,
    provenance: Provenance,
) -> Retained {
    if !casebase::merge::better(&outcome, &case.outcome) {
        return Retained {
            case: case.name.clone(),
            action: "kept",
        };
    }
    case.params = winner.params.clone();
    case.outcome = outcome;
    case.features = report.features.clone();
    case.provenance = provenance;
    Retained {
        case: case.name.clone(),
        action: "updated",
    }
}

/// A new case for a puzzle the case base does not hold, named after the
/// report's puzzle name (else the file's stem, else `puzzle`), made unique
/// among the case base's names.
fn add_case(
    cb: &mut casebase::Edit,
    puzzle: &Path,
    winner: &AttemptRecord,
    report: &Report,
    outcome: Outcome,
    provenance: Provenance,
) -> Retained {
    let base = report
        .name
        .clone()
        .or_else(|| puzzle.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "puzzle".to_string());
    let name = casebase::unique_name(&base, |n| cb.find(n).is_some());
    cb.push(Case {
        name: name.clone(),
        comment: None,
        provenance,
        features: report.features.clone(),
        params: winner.params.clone(),
        outcome,
        profile: profile(report),
    });
    Retained {
        case: name,
        action: "added",
    }
}
