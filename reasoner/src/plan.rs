//! Which attempts the cycle runs, decided by the seed and by the outcomes of
//! earlier attempts only, never by timing (thesis §5.4, §6.3).
//!
//! # Waves
//!
//! Attempts are planned in *waves* of a fixed size (`--wave`, default 4),
//! independent of `--jobs`. A wave is planned from what is known when it
//! starts; its attempts may then run in any order and in parallel, and their
//! outcomes are applied in plan order once the wave is over. So the set and
//! order of attempts is a function of the seed, the wave size and the
//! solver's (deterministic) answers: `--jobs 1` and `--jobs 4` plan the same
//! attempts. When an attempt solves the puzzle, the rest of its wave stops:
//! the attempts after it in plan order are reported `cancelled` even if they
//! finished first, and those before it that were still running are killed
//! and reported `cancelled` too (so with several jobs which of those finished
//! depends on timing). Otherwise only a timeout (`--attempt-timeout`) makes
//! an outcome depend on the machine's speed.
//!
//! # Reuse
//!
//! Reuse waves run the retrieved cases' parameter sets, most similar first;
//! then waves of the general settings (phase `general`,
//! [`general_settings`]: the thesis's four of §8.2, then our A* on `path`,
//! and on puzzles with units the fluid search and BFWS),
//! so that a puzzle unlike every case still gets the settings that work
//! across the collection before the proximity search. With an empty case
//! base the cycle starts from them. A set whose cutoff lies below the known
//! lower bound is lifted to the bound (§9.2.1); a set equal to one already
//! planned is skipped without using up an attempt.
//!
//! # Randomized proximity search
//!
//! Later waves draw parameter sets from a ChaCha8 generator seeded with
//! `--seed`. A draw takes a planned set at random and changes one or two of
//! its parameters by one or two unit steps (see `space.rs` for the units):
//! the algorithm; each pruning the solver lets the proximity search vary
//! (from a cutoff that is off, a cutoff is drawn between the bound and the
//! bound plus `2 s^2`, `s` the number of spaces; levels move one step; a
//! switch toggles); with an informed algorithm, the heuristic (a switch to
//! one starts its options where it declares, `pdb`'s tables at 64M), the
//! weight, and each option of the heuristic on its declared scale (`h2`'s
//! weights on `log2(1 + x)`, `pdb`'s memory halved or doubled). The set is
//! accepted only if
//! * it is not forbidden (cutoff below the known bound),
//! * it is at least `--min-distance` (0.5) from every planned set, and
//! * it is at most `--max-distance` (2) from some planned set.
//!
//! After 2000 rejected draws the maximum distance grows by one unit and draws
//! may change one more parameter (the thesis's radius "which could increase
//! with time"), up to three times; then the search has nothing left to try.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sbp_protocol::ranges;
use serde::{Deserialize, Serialize};

use sbp_protocol::pruning::{PruningKind, Setting};
use sbp_protocol::{OptionInfo, OptionKind, Vary};

use crate::bounds::Bounds;
use crate::params::{Algorithm, Heuristic, ParamSet, Value};
use crate::runner::{AttemptResult, RunStatus};
use crate::space::Space;
use crate::tried::Tried;

/// The phase an attempt belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Reuse,
    /// A general setting (the thesis's four of §8.2 and ours), tried after
    /// the retrieved cases, or first with an empty case base.
    General,
    Proximity,
    Final,
    /// An easier variant's own cycle (`variant.rs`).
    Variant,
    /// The full puzzle with a variant's subgoals (`variant.rs`).
    Subgoals,
    /// From the best positions of an earlier attempt (`restart.rs`).
    Restart,
    /// The puzzle with the blocks on the master's way parked (`park.rs`).
    Park,
    /// A part of a door split, solved on its own (`split.rs`).
    #[serde(rename = "split-part")]
    SplitPart,
    /// The full puzzle after a door split's first two parts (`split.rs`).
    Split,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Reuse => "reuse",
            Phase::General => "general",
            Phase::Proximity => "proximity",
            Phase::Final => "final",
            Phase::Variant => "variant",
            Phase::Subgoals => "subgoals",
            Phase::Restart => "restart",
            Phase::Park => "park",
            Phase::SplitPart => "split-part",
            Phase::Split => "split",
        }
    }

    /// Whether its runs search the puzzle as given, from its start to its
    /// goal, so that what they prove (a lower bound, an optimal length)
    /// holds for the puzzle: not a variant, a section of it, a restart from
    /// a best position or a part of a split.
    pub fn whole_puzzle(self) -> bool {
        match self {
            Phase::Reuse | Phase::General | Phase::Proximity | Phase::Final => true,
            Phase::Variant
            | Phase::Subgoals
            | Phase::Restart
            | Phase::Park
            | Phase::SplitPart
            | Phase::Split => false,
        }
    }
}

/// One attempt to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// 1-based position in the plan.
    pub index: usize,
    pub phase: Phase,
    /// The case whose parameters are reused (reuse phase).
    pub case: Option<String>,
    /// For the final attempt: the attempt whose parameters it repeats.
    pub from: Option<usize>,
    pub params: ParamSet,
}

/// Settings of the proximity search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Sets closer than this to a planned set are rejected.
    pub min_distance: f64,
    /// A set must be at most this far from some planned set.
    pub max_distance: f64,
    /// Draws before the radius widens.
    pub draws_per_radius: usize,
    /// How often the radius widens before the search gives up.
    pub widenings: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            min_distance: 0.5,
            max_distance: 2.0,
            draws_per_radius: 2000,
            widenings: 3,
        }
    }
}

/// The upper end the solver declares for each of h2's weights
/// (`solver/src/heuristics/h2.rs`), to which the aggressive setting's
/// allowance `4 s^2` is kept on boards with over 500 spaces (huge_open has
/// 9,999); the settings are given without asking the solver, and a test
/// checks them against its declarations.
pub const H2_WEIGHT_MAX: f64 = 1e6;

/// The thesis's four general settings (§8.2), for a puzzle with `s` spaces,
/// in normal form. They name the thesis's parameters (space value, resting
/// blocks, h2) as the thesis does.
pub fn standard_settings(s: u64) -> Vec<(String, ParamSet)> {
    let s2 = s.saturating_mul(s);
    let off = |p: ParamSet| p.with("resting", Value::Text("off".into()));
    vec![
        ("standard: BFS".to_string(), off(ParamSet::default())),
        (
            "standard: aggressive BFS".to_string(),
            ParamSet::default()
                .with("space_value", Value::Whole(s2.saturating_mul(2)))
                .with("resting", Value::Text("strict".into())),
        ),
        (
            "standard: A* w5 h0".to_string(),
            off(ParamSet {
                algorithm: Algorithm::Astar,
                weight: 5.0,
                ..ParamSet::default()
            }),
        ),
        (
            "standard: aggressive A* w10 h2".to_string(),
            off(ParamSet {
                algorithm: Algorithm::Astar,
                heuristic: Heuristic::new("h2"),
                weight: 10.0,
                ..ParamSet::default()
            }
            .with(
                "h2",
                Value::Reals(vec![6.0, ((4 * s2) as f64).min(H2_WEIGHT_MAX), 2.0]),
            )),
        ),
    ]
}

/// Our general setting beyond the thesis's: A* with weight 3 on `path`,
/// the master's cheapest route through the other blocks. It solves crowded
/// GNOME levels in one attempt of 5 million positions (Transeuropa, which
/// the thesis's settings and the seed cases left unsolved; Pelopones, Shark).
pub fn route_setting() -> (String, ParamSet) {
    (
        "general: A* w3 path".to_string(),
        ParamSet {
            algorithm: Algorithm::Astar,
            heuristic: Heuristic::new("path"),
            weight: 3.0,
            ..ParamSet::default()
        }
        .with("resting", Value::Text("off".into())),
    )
}

/// Fewest units (`solver features`' `fluid_units`) for which the general
/// settings include [`fluid_setting`]: a fluid of one block is no fluid.
pub const FLUID_UNITS: u64 = 2;

/// True when the solver can run `params` on a puzzle with `units` fluid
/// units: a fluid setting needs [`FLUID_UNITS`] of them (the solver refuses
/// it elsewhere), any other runs anywhere.
pub fn runs_with_units(params: &ParamSet, units: u64) -> bool {
    !params.algorithm.fluid() || units >= FLUID_UNITS
}

/// Our general setting for puzzles with units (interchangeable 1x1 blocks):
/// [`route_setting`] (`path`, weight 3) as weighted A* over the fluid
/// abstraction (`solver --algorithm fluid`). On the GNOME levels it plans Shark in 2,318 abstract
/// states (0.01 s), Pelopones in 1.1M (6 s) and Transeuropa in 242k (2 s),
/// where the reasoner's other settings took 35M positions, 9M and 33M
/// (`experiments/hard.md`); on `h0` it stalls on Transeuropa.
pub fn fluid_setting() -> (String, ParamSet) {
    let (_, route) = route_setting();
    let fluid = ParamSet {
        algorithm: Algorithm::Fluid,
        ..route
    };
    ("general: fluid w3 path".to_string(), fluid)
}

/// Our last general setting for puzzles with units: best-first width
/// search (`solver --algorithm bfws`) over the fluid abstraction on `path`.
/// It crosses the plateaus where weighted A* stalls: Sunshine, which no
/// other setting solved, in 2.0M abstract states (56 s), American Pie in
/// 200 (`experiments/sunshine/bfws/`). Its solutions are long (93,207
/// steps on Sunshine), so it comes after the settings whose solutions are
/// short, and `--improve` shortens what it finds.
pub fn width_setting() -> (String, ParamSet) {
    let bfws = ParamSet {
        algorithm: Algorithm::Bfws,
        heuristic: Heuristic::new("path"),
        ..ParamSet::default()
    };
    ("general: bfws path".to_string(), bfws)
}

/// Our first general setting where every goal fixes every block on a
/// roomy board (`solver features`' `goal_kind` is `fixed`): the
/// bidirectional BFS, the solver's own choice there (The Time Machine in
/// 1.3 s, where its BFS stores 28M positions: `experiments/peers.md`).
/// Its solutions are shortest.
pub fn bidir_setting() -> (String, ParamSet) {
    let bidir = ParamSet {
        algorithm: Algorithm::Bidir,
        ..ParamSet::default()
    };
    ("general: bidir".to_string(), bidir)
}

/// The general settings, tried in waves of their own after the retrieved
/// cases' (see [`Planner::with_general`]): where the goal fixes every
/// block (`goal_fixed`) the bidirectional BFS first, then the thesis's
/// four, whose BFS gives easy puzzles their optimal solutions, then ours:
/// A* on `path`, and on a puzzle with at least [`FLUID_UNITS`] units
/// (`units`, from `solver features`) the fluid search and BFWS. With an
/// empty case base the cycle starts from them.
pub fn general_settings(spaces: u64, units: u64, goal_fixed: bool) -> Vec<(String, ParamSet)> {
    let mut list: Vec<(String, ParamSet)> = goal_fixed.then(bidir_setting).into_iter().collect();
    list.extend(standard_settings(spaces));
    list.push(route_setting());
    if units >= FLUID_UNITS {
        list.push(fluid_setting());
        list.push(width_setting());
    }
    list
}

/// One unit change of a parameter set (see [`Planner::mutate`]).
#[derive(Clone)]
enum Op {
    Algorithm,
    Pruning(usize),
    Heuristic,
    Weight,
    Option(OptionInfo),
}

/// Plans the attempts of one cycle.
pub struct Planner {
    rng: ChaCha8Rng,
    config: SearchConfig,
    reuse: VecDeque<(String, ParamSet)>,
    /// The general settings, planned once the retrieved cases' are.
    general: VecDeque<(String, ParamSet)>,
    /// Every set planned so far, in plan order.
    tried: Tried,
    /// Report rows of other phases run between waves ([`Planner::skip`]):
    /// the next planned attempt's index comes after them.
    skipped: usize,
    pub bounds: Bounds,
    budget: usize,
    wave: usize,
    spaces: u64,
    /// The solver's heuristics and prunings.
    space: Space,
    /// The heuristics the proximity search switches among.
    heuristics: Vec<Heuristic>,
    exhausted: bool,
    /// Set once the solver refused an attempt because the puzzle's
    /// positions are too wide for its visited set ([`Planner::fit`]).
    depth_first_only: bool,
}

impl Planner {
    /// `reuse`: retrieved cases' sets, most similar first; `budget`: attempts
    /// before the final one; `spaces`: the puzzle's number of spaces. The
    /// parameter space is [`Planner::with_space`]'s.
    pub fn new(
        seed: u64,
        config: SearchConfig,
        reuse: Vec<(String, ParamSet)>,
        budget: usize,
        wave: usize,
        spaces: u64,
    ) -> Planner {
        Planner {
            rng: ChaCha8Rng::seed_from_u64(seed),
            config,
            reuse: reuse.into(),
            general: VecDeque::new(),
            tried: Tried::default(),
            skipped: 0,
            bounds: Bounds::default(),
            budget,
            wave: wave.max(1),
            spaces: spaces.max(1),
            space: Space::default(),
            heuristics: Vec::new(),
            exhausted: false,
            depth_first_only: false,
        }
    }

    /// Settings to plan in waves of their own once the reuse sets are
    /// planned, before the proximity search ([`general_settings`]).
    pub fn with_general(mut self, general: Vec<(String, ParamSet)>) -> Planner {
        self.general = general.into();
        self
    }

    /// The parameter space: the solver's heuristics and prunings, as
    /// `solver heuristics --json` and `solver prunings --json` list them.
    pub fn with_space(mut self, space: Space) -> Planner {
        self.heuristics = space.proximity_heuristics();
        self.bounds = Bounds::new(space.prunings.clone());
        self.space = space;
        self
    }

    pub fn space(&self) -> &Space {
        &self.space
    }

    pub fn planned(&self) -> usize {
        self.tried.len()
    }

    /// The next wave; empty when the budget is spent or nothing is left to try.
    pub fn next_wave(&mut self) -> Vec<Planned> {
        let room = self.budget.saturating_sub(self.tried.len()).min(self.wave);
        let mut queue = std::mem::take(&mut self.reuse);
        let mut wave = self.reuse_wave(&mut queue, room, Phase::Reuse);
        self.reuse = queue;
        if !wave.is_empty() {
            return wave;
        }
        let mut queue = std::mem::take(&mut self.general);
        wave = self.reuse_wave(&mut queue, room, Phase::General);
        self.general = queue;
        if !wave.is_empty() {
            return wave;
        }
        while wave.len() < room {
            match self.propose() {
                Some(p) => wave.push(self.plan(Phase::Proximity, None, p)),
                None => break,
            }
        }
        wave
    }

    /// Up to `room` attempts of `phase` from `queue` (named sets): sets
    /// lifted to the known bounds, those forbidden or already planned skipped.
    fn reuse_wave(
        &mut self,
        queue: &mut VecDeque<(String, ParamSet)>,
        room: usize,
        phase: Phase,
    ) -> Vec<Planned> {
        let mut wave = Vec::new();
        while wave.len() < room {
            let Some((case, params)) = queue.pop_front() else {
                break;
            };
            let params = self.fit(params);
            let Some(params) = self.bounds.lift(&self.space.normalized(params)) else {
                continue;
            };
            if self.tried.holds(&self.space.point(&params)) {
                continue;
            }
            wave.push(self.plan(phase, Some(case), params));
        }
        wave
    }

    /// Leaves `rows` indices to rows that another phase ran between waves
    /// (the door split after the first wave), so that attempts planned
    /// later number after them.
    pub fn skip(&mut self, rows: usize) {
        self.skipped += rows;
    }

    fn plan(&mut self, phase: Phase, case: Option<String>, params: ParamSet) -> Planned {
        self.tried.push(&self.space, params.clone());
        Planned {
            index: self.tried.len() + self.skipped,
            phase,
            case,
            from: None,
            params,
        }
    }

    /// Applies one outcome (call in plan order, after the wave).
    pub fn learn(&mut self, planned: &Planned, result: &AttemptResult) {
        if result.status == RunStatus::NoSolution {
            self.bounds.learn_no_solution(&planned.params);
        }
        if result.keys_too_wide() {
            self.depth_first_only = true;
        }
    }

    /// `p` as the solver can run it on this puzzle. Once it refused an
    /// attempt because the puzzle's positions are too wide for its visited
    /// set, it would refuse every search that stores positions the same
    /// way: such a set becomes the depth-first search of its kind, which
    /// stores none (BFS and bidirectional BFS: DFID; A* and NBS: IDA*, with
    /// the same heuristic, weight and prunings). The fluid searches store
    /// abstract states of their own and stay.
    fn fit(&self, mut p: ParamSet) -> ParamSet {
        if self.depth_first_only && p.algorithm.stores_positions() {
            p.algorithm = if p.algorithm.informed() {
                Algorithm::Ida
            } else {
                Algorithm::Dfid
            };
        }
        p
    }

    /// One accepted proximity-search draw, or `None` when nothing is left.
    fn propose(&mut self) -> Option<ParamSet> {
        if self.exhausted || self.tried.is_empty() {
            return None;
        }
        let mut radius = self.config.max_distance;
        for widening in 0..=self.config.widenings {
            for _ in 0..self.config.draws_per_radius {
                let from = self.rng.gen_range(0..self.tried.len());
                let base = self.tried.get(from).clone();
                let changes = self.rng.gen_range(1..=2 + widening);
                let mut candidate = base;
                for _ in 0..changes {
                    candidate = self.mutate(candidate);
                }
                let candidate = self.space.normalized(self.fit(candidate));
                if self.bounds.forbids(&candidate) {
                    continue;
                }
                let point = self.space.point(&candidate);
                if self
                    .tried
                    .accepts(&point, from, self.config.min_distance, radius)
                {
                    return Some(candidate);
                }
            }
            radius += 1.0;
        }
        self.exhausted = true;
        None
    }

    /// Another heuristic than `p`'s, drawn from the solver's list; its
    /// options with a declared start (`pdb`'s memory: tables that build
    /// within an attempt) begin there.
    fn switch_heuristic(&mut self, p: &mut ParamSet) {
        let others: Vec<&Heuristic> = self
            .heuristics
            .iter()
            .filter(|h| **h != p.heuristic)
            .collect();
        if !others.is_empty() {
            p.heuristic = others[self.rng.gen_range(0..others.len())].clone();
            for o in self.space.options_of(&p.heuristic) {
                if let Some(start) = &o.start {
                    p.settings.set(&o.key(), Some(start.clone()));
                }
            }
        }
    }

    /// A cutoff one or two away from `p`'s, off now and then, or a first one
    /// drawn above what the learned bounds already rule out: within `2 s^2`
    /// of the bound (the thesis's space value; `s` spaces), in its range.
    fn next_cutoff(&mut self, json: &str, range: (u64, u64), p: &ParamSet) -> Option<u64> {
        let min = self.bounds.cutoff_min(json, p);
        let min = if min == u64::MAX { 0 } else { min };
        let info = self.space.prunings.iter().find(|i| i.json == json)?;
        let next = match Space::setting(info, p) {
            Setting::Cutoff(Some(_)) if self.rng.gen_ratio(1, 8) => return None,
            Setting::Cutoff(Some(v)) => {
                let d = self.rng.gen_range(1..=2u64);
                if self.rng.gen_bool(0.5) {
                    v.saturating_add(d)
                } else {
                    v.saturating_sub(d)
                }
            }
            _ => {
                let span = 2 * self.spaces.saturating_mul(self.spaces);
                self.rng.gen_range(min..=min.saturating_add(span))
            }
        };
        Some(next.clamp(range.0, range.1))
    }

    /// One step of a pruning with levels: to the next level from either
    /// end, else one up or down.
    fn next_level(&mut self, levels: &[String], current: usize) -> usize {
        match current {
            0 => 1.min(levels.len() - 1),
            i if i + 1 == levels.len() => i - 1,
            i if self.rng.gen_bool(0.5) => i - 1,
            i => i + 1,
        }
    }

    /// The unit changes [`Planner::mutate`] draws from for `p`: the
    /// algorithm; a pruning the solver lets the proximity search vary; with
    /// an informed algorithm the heuristic, the weight and the heuristic's
    /// varied options. The fluid search applies no prunings and reads its
    /// heuristic on positions without the units (the solver refuses most),
    /// so a fluid set varies its algorithm and weight only.
    fn operations(&self, p: &ParamSet) -> Vec<Op> {
        let mut ops = vec![Op::Algorithm];
        if p.algorithm.fluid() {
            if p.algorithm.weighted() {
                ops.push(Op::Weight);
            }
            return ops;
        }
        let varied = self
            .space
            .prunings
            .iter()
            .enumerate()
            .filter(|(_, i)| i.proximity);
        ops.extend(varied.map(|(k, _)| Op::Pruning(k)));
        if p.algorithm.informed() {
            ops.extend([Op::Heuristic, Op::Weight]);
            let options = self.space.options_of(&p.heuristic);
            ops.extend(
                options
                    .filter(|o| o.vary != Vary::Fixed)
                    .cloned()
                    .map(Op::Option),
            );
        }
        ops
    }

    /// One random unit change of one parameter: the algorithm, a pruning the
    /// solver lets the proximity search vary, and with an informed algorithm
    /// the heuristic, the weight or one of the heuristic's varied options.
    fn mutate(&mut self, mut p: ParamSet) -> ParamSet {
        let ops = self.operations(&p);
        match ops[self.rng.gen_range(0..ops.len())].clone() {
            // Between the depth-first pair where only they can run.
            Op::Algorithm => {
                p.algorithm = match p.algorithm {
                    Algorithm::Astar => Algorithm::Bfs,
                    Algorithm::Ida if self.depth_first_only => Algorithm::Dfid,
                    Algorithm::Dfid if self.depth_first_only => Algorithm::Ida,
                    _ => Algorithm::Astar,
                };
            }
            Op::Heuristic => self.switch_heuristic(&mut p),
            Op::Weight => {
                let s = step(&mut self.rng);
                p.weight = ranges::weight().clamp(rescale(p.weight, s));
            }
            Op::Option(o) => self.vary_option(&o, &mut p),
            Op::Pruning(k) => self.vary_pruning(k, &mut p),
        }
        p
    }

    /// One unit change of pruning `k` of the space.
    fn vary_pruning(&mut self, k: usize, p: &mut ParamSet) {
        let info = self.space.prunings[k].clone();
        let next = match &info.kind {
            PruningKind::Switch => Setting::Switch(Space::setting(&info, p) == info.off()),
            PruningKind::Levels { levels } => {
                let current = info.strength(&Space::setting(&info, p));
                let i = self.next_level(levels, current.ok().flatten().unwrap_or(0));
                Setting::Level(levels[i].clone())
            }
            PruningKind::Cutoff { min, max } => {
                Setting::Cutoff(self.next_cutoff(&info.json, (*min, *max), p))
            }
        };
        p.settings.set(&info.json, Space::stored(&next));
    }

    /// One unit change of option `o` on its declared scale.
    fn vary_option(&mut self, o: &OptionInfo, p: &mut ParamSet) {
        let Some(value) = Space::option_value(o, p) else {
            return;
        };
        let next = match (o.vary, &o.kind, value) {
            (
                Vary::Log1p,
                OptionKind::Reals {
                    count, min, max, ..
                },
                Value::Reals(mut v),
            ) => {
                let k = self.rng.gen_range(0..*count);
                let s = step(&mut self.rng);
                v[k] = rescale(v[k], s).clamp(*min, *max);
                Value::Reals(v)
            }
            (Vary::Log2, _, Value::Whole(m)) => {
                let next = if self.rng.gen_bool(0.5) {
                    m / 2
                } else {
                    m.saturating_mul(2)
                };
                match o.check(&Value::Whole(next)) {
                    Ok(v) => v,
                    Err(_) => return,
                }
            }
            _ => return,
        };
        p.settings.set(&o.key(), Some(next));
    }
}

/// A step of 0.5 or 1 units, up or down.
fn step(rng: &mut ChaCha8Rng) -> f64 {
    let size = if rng.gen_bool(0.5) { 0.5 } else { 1.0 };
    if rng.gen_bool(0.5) {
        size
    } else {
        -size
    }
}

/// Moves `x` by `s` units on the `log2(1 + x)` scale, to two decimals.
fn rescale(x: f64, s: f64) -> f64 {
    let u = (1.0 + x.max(0.0)).log2() + s;
    ((u.exp2() - 1.0).max(0.0) * 100.0).round() / 100.0
}

/// The attempt whose parameters the final run repeats (§6.3): among runs
/// stopped by the limit and not since forbidden, the one that brought the
/// master closest to its goal; ties go to the fewest positions examined when
/// that distance was first reached, then to the earlier attempt.
pub fn choose_final<'a>(
    attempts: impl IntoIterator<Item = (&'a Planned, &'a AttemptResult)>,
    bounds: &Bounds,
) -> Option<&'a Planned> {
    attempts
        .into_iter()
        .filter(|(p, r)| r.status == RunStatus::LimitReached && !bounds.forbids(&p.params))
        .min_by_key(|(p, r)| {
            (
                r.best_distance.unwrap_or(u32::MAX),
                r.best_distance_positions
                    .or(r.positions_examined)
                    .unwrap_or(u64::MAX),
                p.index,
            )
        })
        .map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::tests::{fixture, thesis_space as space};

    #[test]
    fn the_general_settings_stay_in_the_solver_s_ranges_on_any_board() {
        for s in [0, 1, 4, 500, 9_999, 16_384] {
            for (name, p) in standard_settings(s) {
                assert_eq!(fixture().validate(&p), Ok(()), "{name} with {s} spaces");
            }
        }
        assert_eq!(
            standard_settings(4)[3].1.settings.get("h2"),
            Some(&Value::Reals(vec![6.0, 64.0, 2.0]))
        );
    }

    /// Where every goal fixes every block the bidirectional BFS comes
    /// first, the other general settings after it unchanged.
    #[test]
    fn a_fixed_goal_puts_the_bidirectional_search_first() {
        let fixed = general_settings(4, FLUID_UNITS, true);
        let free = general_settings(4, FLUID_UNITS, false);
        assert_eq!(fixed[0].0, "general: bidir");
        assert_eq!(fixed[0].1.algorithm, Algorithm::Bidir);
        assert_eq!(fixture().validate(&fixed[0].1), Ok(()));
        let names = |l: &[(String, ParamSet)]| l.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(&fixed[1..]), names(&free));
        assert!(free.iter().all(|(_, p)| p.algorithm != Algorithm::Bidir));
    }

    #[test]
    fn the_fluid_settings_come_last_and_only_where_there_are_units() {
        let names = |units| -> Vec<String> {
            general_settings(4, units, false)
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(names(0).len(), 5);
        assert_eq!(names(1), names(0));
        let with = names(FLUID_UNITS);
        assert_eq!(with[..5], names(0)[..]);
        assert_eq!(with[5..], ["general: fluid w3 path", "general: bfws path"]);
        for (_, p) in [fluid_setting(), width_setting()] {
            assert_eq!(fixture().validate(&p), Ok(()));
            assert_eq!(p.heuristic.name(), "path");
            assert!(p.algorithm.fluid());
        }
    }

    /// The solver refuses the fluid search with most heuristics and it
    /// applies no prunings: proximity drawn from a fluid set keeps its
    /// heuristic and varies its weight (or it becomes A* or BFS), never
    /// proposing the same fluid search twice.
    #[test]
    fn proposals_from_a_fluid_set_never_change_its_heuristic() {
        let (_, fluid) = fluid_setting();
        let config = SearchConfig::default();
        let reuse = vec![("fluid".to_string(), fluid)];
        let mut p = Planner::new(5, config, reuse, 40, 4, 3).with_space(space());
        let mut weights = Vec::new();
        loop {
            let w = p.next_wave();
            if w.is_empty() {
                break;
            }
            for a in w {
                if a.params.algorithm == Algorithm::Fluid {
                    assert_eq!(a.params.heuristic.name(), "path", "{}", a.params);
                    // No pruning (the search applies none), so no run repeats another.
                    assert_eq!(p.space().normalized(a.params.clone()), a.params);
                    assert!(!weights.contains(&a.params.weight), "{}", a.params);
                    weights.push(a.params.weight);
                }
                p.learn(&a, &result(RunStatus::LimitReached, Some(3), Some(10)));
            }
        }
        assert!(weights.len() > 1, "the weight varies");
    }

    /// BFWS weighs no heuristic: proximity drawn from a BFWS set changes
    /// its algorithm alone, so the set is never proposed again with
    /// another weight.
    #[test]
    fn proposals_from_a_bfws_set_change_its_algorithm() {
        let (_, bfws) = width_setting();
        let reuse = vec![("bfws".to_string(), bfws.clone())];
        let mut p = Planner::new(5, SearchConfig::default(), reuse, 40, 4, 3).with_space(space());
        let (mut runs, mut others) = (0, 0);
        loop {
            let w = p.next_wave();
            if w.is_empty() {
                break;
            }
            for a in w {
                if a.params.algorithm == Algorithm::Bfws {
                    assert_eq!(a.params, p.space().normalized(bfws.clone()));
                    runs += 1;
                } else {
                    others += 1;
                }
                p.learn(&a, &result(RunStatus::LimitReached, Some(3), Some(10)));
            }
        }
        assert_eq!(runs, 1, "one BFWS run");
        assert!(others > 1, "proposals from it search positions");
    }

    /// Once the solver refuses an attempt because the puzzle's keys are too
    /// wide for its visited set, the rest of the plan is IDA* and DFID,
    /// which store no positions: the general settings become them, and so
    /// does every proximity draw, both of them drawn.
    #[test]
    fn keys_too_wide_leave_only_the_depth_first_searches() {
        let general = general_settings(4, 0, false);
        let mut p =
            Planner::new(2, SearchConfig::default(), Vec::new(), 25, 4, 4).with_space(fixture());
        p = p.with_general(general);
        let refused = AttemptResult {
            error: Some(
                "the solver rejected its input (exit 2): w.txt: this puzzle's positions \
                 take 5085-bit keys, more than the 4064 bits the visited set stores"
                    .to_string(),
            ),
            ..AttemptResult::failed("", 0)
        };
        let first = p.next_wave();
        assert_eq!(first.len(), 4);
        assert!(first.iter().all(|a| a.params.algorithm.stores_positions()));
        for a in &first {
            p.learn(a, &refused);
        }
        let mut later = Vec::new();
        loop {
            let w = p.next_wave();
            if w.is_empty() {
                break;
            }
            for a in &w {
                p.learn(a, &result(RunStatus::LimitReached, Some(3), Some(10)));
            }
            later.extend(w);
        }
        assert_eq!(later.len(), 21, "the attempts are all used");
        assert_eq!(later[0].phase, Phase::General);
        assert_eq!(later[0].params.algorithm, Algorithm::Ida, "A* w3 path");
        assert_eq!(later[0].params.heuristic.name(), "path");
        for a in &later {
            assert!(!a.params.algorithm.stores_positions(), "{}", a.params);
        }
        for algorithm in [Algorithm::Ida, Algorithm::Dfid] {
            assert!(later.iter().any(|a| a.params.algorithm == algorithm));
        }
    }

    fn result(status: RunStatus, best: Option<u32>, at: Option<u64>) -> AttemptResult {
        AttemptResult {
            status,
            steps: None,
            moves: None,
            positions_examined: Some(100),
            best_distance: best,
            best_distance_positions: at,
            elapsed_ms: 0,
            solution: None,
            error: None,
            position_limit: None,
            optimal_in: None,
            lower_bound: None,
        }
    }

    fn case(sv: u64) -> (String, ParamSet) {
        (format!("sv{sv}"), with_sv(ParamSet::default(), sv))
    }

    fn with_sv(p: ParamSet, sv: u64) -> ParamSet {
        p.with("space_value", Value::Whole(sv))
    }

    fn sv_of(p: &ParamSet) -> Option<u64> {
        match p.settings.get("space_value") {
            Some(Value::Whole(v)) => Some(*v),
            _ => None,
        }
    }

    /// Every attempt `p` plans when each one stops at the limit, best
    /// distance 3.
    fn drain(mut p: Planner) -> Vec<ParamSet> {
        let mut out = Vec::new();
        loop {
            let w = p.next_wave();
            if w.is_empty() {
                break;
            }
            for a in &w {
                p.learn(a, &result(RunStatus::LimitReached, Some(3), None));
                out.push(a.params.clone());
            }
        }
        out
    }

    fn all_attempts(seed: u64, wave: usize) -> Vec<ParamSet> {
        drain(
            Planner::new(seed, SearchConfig::default(), vec![case(10)], 25, wave, 4)
                .with_space(space()),
        )
    }

    #[test]
    fn the_plan_is_a_function_of_the_seed() {
        let a = all_attempts(7, 4);
        assert_eq!(a.len(), 25);
        assert_eq!(a, all_attempts(7, 4));
        assert_ne!(a, all_attempts(8, 4));
    }

    #[test]
    fn proposals_respect_the_distances_and_the_bound() {
        let config = SearchConfig::default();
        let mut p = Planner::new(3, config, vec![case(10)], 25, 4, 3).with_space(space());
        let first = p.next_wave();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].phase, Phase::Reuse);
        p.learn(&first[0], &result(RunStatus::NoSolution, Some(2), None));
        let mut planned = vec![first[0].params.clone()];
        loop {
            let w = p.next_wave();
            if w.is_empty() {
                break;
            }
            for a in w {
                assert_eq!(a.phase, Phase::Proximity);
                assert!(!p.bounds.forbids(&a.params), "{}", a.params);
                if let Some(v) = sv_of(&a.params) {
                    assert!(v >= 11, "{}", a.params);
                }
                let d: Vec<f64> = planned
                    .iter()
                    .map(|t| p.space().distance(t, &a.params))
                    .collect();
                assert!(d.iter().all(|d| *d >= config.min_distance), "{}", a.params);
                assert!(d.iter().any(|d| *d <= config.max_distance + 3.0));
                planned.push(a.params);
            }
        }
        assert_eq!(planned.len(), 25);
    }

    #[test]
    fn proximity_search_proposes_pdb_and_varies_its_memory() {
        let astar = ParamSet {
            algorithm: Algorithm::Astar,
            ..ParamSet::default()
        };
        let mut with_pdb = fixture();
        with_pdb.heuristics.retain(|h| h.name != "blind");
        let p = Planner::new(
            5,
            SearchConfig::default(),
            vec![("a".into(), astar)],
            60,
            4,
            3,
        )
        .with_space(with_pdb);
        let mut memories = Vec::new();
        for params in drain(p) {
            if params.heuristic.name() == "pdb" && params.algorithm.informed() {
                let Some(Value::Whole(m)) = params.settings.get("pdb_memory") else {
                    panic!("a pdb set without its memory: {params}");
                };
                memories.push(*m);
                let args = params.solver_args().join(" ");
                assert!(args.contains("--heuristic pdb"), "{args}");
            }
        }
        const START: u64 = 64 << 20;
        assert!(memories.contains(&START), "{memories:?}");
        assert!(
            memories.iter().any(|&m| m != START),
            "the memory never changed: {memories:?}"
        );
        assert!(
            memories.iter().all(|&m| m.is_power_of_two()),
            "{memories:?}"
        );
    }

    #[test]
    fn reuse_lifts_cutoffs_and_skips_repeats() {
        let reuse = vec![case(10), case(12), case(11), case(20)];
        let mut p = Planner::new(1, SearchConfig::default(), reuse, 25, 1, 3).with_space(space());
        let a = p.next_wave();
        p.learn(&a[0], &result(RunStatus::NoSolution, None, None));
        // sv12 stays, sv11 would be lifted to 11 (allowed), sv20 stays.
        let b = p.next_wave();
        assert_eq!(sv_of(&b[0].params), Some(12));
        p.learn(&b[0], &result(RunStatus::NoSolution, None, None));
        // sv11 is now lifted to 13.
        let c = p.next_wave();
        assert_eq!(sv_of(&c[0].params), Some(13));
        assert_eq!(c[0].case.as_deref(), Some("sv11"));
        let mut q = Planner::new(1, SearchConfig::default(), vec![case(5), case(5)], 25, 4, 3)
            .with_space(space());
        assert_eq!(q.next_wave().len(), 1);
    }

    #[test]
    fn final_prefers_closest_then_fewest_positions() {
        let plan = |i: usize, sv: u64| Planned {
            index: i,
            phase: Phase::Proximity,
            case: None,
            from: None,
            params: with_sv(ParamSet::default(), sv),
        };
        let attempts = [
            (
                plan(1, 20),
                result(RunStatus::LimitReached, Some(4), Some(10)),
            ),
            (
                plan(2, 21),
                result(RunStatus::LimitReached, Some(2), Some(500)),
            ),
            (
                plan(3, 22),
                result(RunStatus::LimitReached, Some(2), Some(300)),
            ),
            (
                plan(4, 5),
                result(RunStatus::LimitReached, Some(1), Some(1)),
            ),
            (plan(5, 23), result(RunStatus::Failed, None, None)),
            (plan(6, 6), result(RunStatus::NoSolution, Some(0), Some(1))),
        ];
        let mut bounds = Bounds::new(space().prunings);
        bounds.learn_no_solution(&attempts[5].0.params);
        let pick = choose_final(attempts.iter().map(|(p, r)| (p, r)), &bounds).unwrap();
        assert_eq!(pick.index, 3);
        assert!(choose_final(attempts[4..].iter().map(|(p, r)| (p, r)), &bounds).is_none());
    }

    #[test]
    fn rescale_moves_on_the_log_scale() {
        assert_eq!(rescale(1.0, 1.0), 3.0);
        assert_eq!(rescale(3.0, -1.0), 1.0);
        assert_eq!(rescale(0.0, 1.0), 1.0);
        assert_eq!(rescale(1.0, 0.5), 1.83);
    }

    /// The proximity search draws what it drew before prunings and options
    /// were read from the solver's declarations: `plan_draws_before.txt`
    /// holds the attempts five planners made then (the reasoner of commit
    /// 5dfee73; a `no_solution` every fifth attempt, with and without
    /// `pdb`), the solver flags of each; `--pdb-memory` at its default was
    /// left out then.
    #[test]
    fn the_draws_are_those_of_before_the_declarations() {
        let mut out = String::new();
        for (seed, spaces, pdb) in [
            (7, 4, false),
            (8, 4, false),
            (5, 3, true),
            (11, 2, true),
            (3, 6, true),
        ] {
            let mut space = fixture();
            space.heuristics.retain(|h| {
                ["h0", "h1", "h2", "manhattan"].contains(&h.name.as_str())
                    || (pdb && h.name == "pdb")
            });
            let astar = ParamSet {
                algorithm: Algorithm::Astar,
                ..ParamSet::default()
            };
            let reuse = vec![case(10), ("b".to_string(), astar)];
            let mut p =
                Planner::new(seed, SearchConfig::default(), reuse, 60, 4, spaces).with_space(space);
            let mut k = 0;
            loop {
                let wave = p.next_wave();
                if wave.is_empty() {
                    break;
                }
                for a in &wave {
                    k += 1;
                    let status = if k % 5 == 0 {
                        RunStatus::NoSolution
                    } else {
                        RunStatus::LimitReached
                    };
                    p.learn(a, &result(status, Some(3), None));
                    let args = a.params.solver_args().join(" ");
                    let args = args.replace(" --pdb-memory 536870912", "");
                    out.push_str(&format!("{seed} {} {args}\n", a.index));
                }
            }
        }
        assert_eq!(out, include_str!("plan_draws_before.txt"));
    }
}
