//! Search algorithms, one file each, over one shared [`Engine`]: the puzzle's
//! move generator, encoding, goal geometry, prunings, limits and counters.
//! Every algorithm returns an [`Ending`]; [`run::solve`] chains goal sections
//! (subgoals) and builds the report.

mod astar;
pub mod best;
mod bfs;
pub mod bidir;
pub mod count;
mod crew;
mod error;
mod estimates;
pub mod fluid;
mod ida;
#[cfg(not(target_arch = "wasm32"))]
pub mod interrupt;
mod nbs;
mod parity;
pub mod path;
pub mod pick;
mod progress;
pub mod run;
#[cfg_attr(target_arch = "wasm32", path = "spill_off.rs")]
pub mod spill;
#[cfg(test)]
pub(crate) mod test_boxes;
mod tiles;

use crate::clock::Instant;

use crate::encoding::{self, Encoding, PositionEncoding};
use crate::geometry::Geometry;
use crate::model::{Goal, Puzzle};
use crate::moves::{MoveGenerator, State};
use crate::params::{Algorithm, EncodingKind, Limits, SearchParams};
use crate::pruning::{self, Prunings};
use crate::store::VisitedSet;

pub use bfs::dense::dense_bytes;
pub use error::SearchError;
pub use progress::Progress;
pub use run::{solve, SolveOptions, SolveOutput};

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Positions,
    Memory,
    Time,
    /// SIGINT or SIGTERM asked the process to stop ([`interrupted`]).
    Interrupted,
}

impl Limit {
    pub fn name(self) -> &'static str {
        match self {
            Limit::Positions => "max_positions",
            Limit::Memory => "max_memory",
            Limit::Time => "time_limit",
            Limit::Interrupted => "interrupted",
        }
    }
}

/// A limit's name (`Limit::name`) as the summaries say it.
pub fn limit_said(name: &str) -> &str {
    match name {
        "interrupted" => "Ctrl-C (an interrupt)",
        other => other,
    }
}

/// The signal (SIGINT, SIGTERM) that asked the process to stop, if one did
/// while signals were caught ([`interrupt::Guard`]): searches stop with
/// [`Limit::Interrupted`], and the binary exits with 128 + its number.
pub fn interrupted() -> Option<i32> {
    #[cfg(not(target_arch = "wasm32"))]
    return interrupt::received();
    #[cfg(target_arch = "wasm32")]
    None
}

/// How one search ended.
pub enum Ending {
    /// Positions from the start to a goal position, both included.
    Found(Vec<State>),
    /// Every position reachable under these settings was examined.
    Exhausted,
    Stopped(Limit),
    /// The search could not go on (a spill folder that filled up).
    Failed(SearchError),
}

/// Counters every algorithm keeps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub examined: u64,
    /// Successors generated (after pruning), for the mean branching factor.
    pub generated: u64,
    pub stored: u64,
    pub best_distance: u32,
    pub best_distance_positions: u64,
    pub peak_memory: u64,
    /// Most bytes held on disk at once by a spilled BFS (`--spill`).
    pub disk_bytes: u64,
}

/// Everything a search algorithm needs, built once per goal section.
pub struct Engine<'a> {
    pub puzzle: &'a Puzzle,
    pub geometry: Geometry,
    pub moves: MoveGenerator,
    pub encoding: Encoding,
    /// Why `encoding` was chosen (for the report).
    pub encoding_reason: String,
    /// The encoding to search with again if this one runs out of memory
    /// ([`encoding::Choice::fallback`]).
    pub encoding_fallback: Option<crate::params::EncodingKind>,
    pub prunings: Prunings,
    pub params: SearchParams,
    pub limits: Limits,
    pub stats: Stats,
    /// Positions of earlier subgoals never to revisit (`--keep-visited`).
    pub forbidden: &'a [VisitedSet],
    /// The visited set the algorithm leaves behind when `keep_visited` or
    /// `--best-out` asks for positions, and what its payloads mean.
    pub left_behind: Option<(VisitedSet, path::Recorded)>,
    /// How many best positions `--best-out` asks for (0: none); when some
    /// are, the visited set is kept for [`best::nearest`]
    /// ([`Engine::keep_for_best`]).
    pub best_count: usize,
    /// Under [`Engine::keep_for_best`], paths from the start to the best positions
    /// of an algorithm that keeps no visited set of keys (the fluid
    /// search), nearest first: `--best-out` takes them instead.
    pub best_paths: Vec<Vec<State>>,
    pub progress: Progress,
    /// False when counting: no position is a goal, the search runs until exhausted.
    pub goal_enabled: bool,
    /// BFS counts every successor, also those left out as commuting with
    /// the last step (the branching factor of a count); off, the move
    /// generator may skip them unlooked at ([`MoveGenerator::tally_left_out`]).
    pub counts_branching: bool,
    /// BFS measures every expanded position's goal distance (for the best
    /// distance): off for a count (always BFS) without a progress bar,
    /// where nothing shows it (the 15-puzzle's 15 tiles cost 460
    /// instructions a position).
    pub measure_distance: bool,
    /// What the encoding was chosen for, and what the process held then
    /// (`None`: measured when needed), for [`Engine::keep_best`].
    budget: encoding::Budget,
    held: Option<u64>,
    /// The heuristic's estimate may count against `--max-length`: it is
    /// declared admissible under the metric (under moves `h0` counts cells a
    /// single move may cover, so it is admissible under steps only).
    length_by_estimate: bool,
    started: Instant,
    deadline: Option<Instant>,
    clock: Clock,
}

/// When [`Engine::over_resources`] next reads the clock: after `every`
/// calls, `every` adapted so that reads come about every [`CLOCK_TARGET`]
/// whatever a call's work costs. A fixed 1,024 calls let A* on a dense
/// board (thousands of successors an expansion) run 3 s for a 1-s limit.
#[derive(Clone, Copy)]
struct Clock {
    every: u32,
    left: u32,
    last: Instant,
}

/// How often the search aims to read the clock.
const CLOCK_TARGET: std::time::Duration = std::time::Duration::from_millis(1);

/// The most calls between two reads of the clock (a read costs about 25
/// ns, a call at least as much).
const CLOCK_MAX_EVERY: u32 = 1024;

impl Clock {
    fn new(now: Instant) -> Clock {
        Clock {
            every: 1,
            left: 1,
            last: now,
        }
    }

    /// Counts a call; `Some(now)` when the clock is due, the interval
    /// doubled when the reads came faster than half the target, halved
    /// when slower than twice it.
    #[inline]
    fn due(&mut self) -> Option<Instant> {
        self.left -= 1;
        if self.left > 0 {
            return None;
        }
        let now = Instant::now();
        let gap = now.saturating_duration_since(self.last);
        if gap < CLOCK_TARGET / 2 {
            self.every = (self.every * 2).min(CLOCK_MAX_EVERY);
        } else if gap > CLOCK_TARGET * 2 {
            self.every = (self.every / 2).max(1);
        }
        (self.left, self.last) = (self.every, now);
        Some(now)
    }
}

impl<'a> Engine<'a> {
    /// An engine for reaching `goal` in `puzzle`. `locked` are type indices.
    /// `held`: the bytes of the process that count against `--max-memory`
    /// besides the search's own tables; `None`: what the process holds now
    /// (a collection solved several puzzles at a time passes each its share
    /// of what the process held before, not the other searches' tables).
    pub fn new(
        puzzle: &'a Puzzle,
        goal: &Goal,
        params: &SearchParams,
        limits: &Limits,
        locked: &[usize],
        progress: Progress,
        held: Option<u64>,
    ) -> Engine<'a> {
        let geometry = Geometry::new(puzzle, Some(goal));
        let moves = MoveGenerator::new(puzzle, params.metric, locked);
        let prunings = pruning::build(params, &geometry);
        let started = Instant::now();
        // What the process already holds (code, libraries, the puzzle, an
        // earlier subgoal's tables) counts against --max-memory too, so that
        // the whole process, not only the search's own tables, stays within
        // it ([`search_memory`]).
        let share = held;
        let held = || held.unwrap_or_else(resident_bytes);
        let mut limits = *limits;
        if let Some(m) = limits.max_memory.as_mut() {
            *m = search_memory(*m, held());
        }
        let budget = encoding::Budget {
            max_memory: limits.max_memory,
            max_positions: limits.max_positions,
            // Only a BFS spills (`spill::check` refuses the rest).
            spill_free: params
                .spill
                .as_deref()
                .filter(|_| params.algorithm == crate::params::Algorithm::Bfs)
                .and_then(spill::free_bytes),
            dense: bfs::dense::may_apply(params, &prunings),
            tiles: bfs::tiles::may_apply(params, &prunings, puzzle, &geometry),
        };
        let choice = encoding::choose(puzzle, &moves, params.encoding, budget);
        hold_to_guard(&mut limits, &choice, held);
        // A limit too far away to represent is no limit (never a panic).
        let deadline = limits
            .time_limit_seconds
            .and_then(|s| std::time::Duration::try_from_secs_f64(s.max(0.0)).ok())
            .and_then(|d| started.checked_add(d));
        Engine {
            puzzle,
            geometry,
            moves,
            encoding: choice.encoding,
            encoding_reason: choice.reason,
            encoding_fallback: choice.fallback,
            prunings,
            params: params.clone(),
            limits,
            stats: Stats {
                best_distance: u32::MAX,
                ..Stats::default()
            },
            forbidden: &[],
            left_behind: None,
            best_count: 0,
            best_paths: Vec::new(),
            progress,
            goal_enabled: true,
            counts_branching: false,
            measure_distance: true,
            budget,
            held: share,
            length_by_estimate: crate::heuristics::lookup(&params.heuristic)
                .is_some_and(|s| s.admissible.under(params.metric)),
            started,
            deadline,
            clock: Clock::new(started),
        }
    }

    /// Hands the visited set over when a later step needs it: the next goal
    /// section (`--keep-visited`) or the best positions (`--best-out`).
    pub fn leave_behind(&mut self, set: VisitedSet, recorded: path::Recorded) {
        if self.params.keep_visited || self.keep_for_best() {
            self.left_behind = Some((set, recorded));
        }
    }

    /// Asks for `count` best positions (`--best-out`), which a visited set
    /// of keys gives: the tile kernel ([`bfs::tiles`]) then stands down,
    /// and where `--encoding auto` took packed keys for it alone, the
    /// encoding is chosen again as for the general BFS.
    pub fn keep_best(&mut self, count: usize) {
        self.best_count = count;
        if count == 0 || !self.budget.tiles || self.params.encoding != EncodingKind::Auto {
            return;
        }
        self.budget.tiles = false;
        let choice = encoding::choose(self.puzzle, &self.moves, self.params.encoding, self.budget);
        let held = self.held;
        hold_to_guard(&mut self.limits, &choice, || {
            held.unwrap_or_else(resident_bytes)
        });
        self.encoding = choice.encoding;
        self.encoding_reason = choice.reason;
        self.encoding_fallback = choice.fallback;
    }

    /// Whether `--best-out` asks for best positions, so that the visited
    /// set is kept for them.
    pub fn keep_for_best(&self) -> bool {
        self.best_count > 0
    }

    /// Words per key.
    pub fn key_words(&self) -> usize {
        self.encoding.words()
    }

    /// A length no solution of this section can be shorter than (in the
    /// metric), proven by an optimal search that stopped before it found
    /// one: BFS and the bidirectional BFS have looked at every position
    /// within the depth reached (so one more); A* with an admissible
    /// heuristic at weight 1 popped a position of that `f`, never above
    /// the optimum; IDA* (from its own first bound) and NBS have ruled out
    /// every path below their bound. `None` for the other searches, and
    /// where a pruning is on: it may drop the shortest paths.
    pub fn proven_lower_bound(&self) -> Option<u64> {
        if !self.prunings.is_empty() {
            return None;
        }
        let bound = self.progress.bound;
        let exact = self.params.weight == 1.0 && self.length_by_estimate;
        match self.params.algorithm {
            Algorithm::Bfs if self.params.spill.is_none() => Some(bound + 1),
            Algorithm::Bidir => Some(bound + 1),
            Algorithm::Astar | Algorithm::Nbs if exact => Some(bound),
            Algorithm::Ida if exact && self.params.ida_limit.is_none() => Some(bound),
            _ => None,
        }
    }

    /// Runs the algorithm the parameters name from `start`.
    pub fn run(&mut self, start: &State) -> Ending {
        match self.params.algorithm {
            Algorithm::Bfs if self.params.spill.is_some() => spill::search(self, start),
            Algorithm::Bfs => bfs::search(self, start),
            Algorithm::Astar => astar::search(self, start),
            Algorithm::Ida | Algorithm::Dfid => ida::search(self, start),
            Algorithm::Bidir => bidir::search(self, start),
            Algorithm::Nbs => nbs::search(self, start),
            Algorithm::Fluid | Algorithm::Bfws => fluid::search(self, start),
        }
    }

    /// Counts an expansion and records the best goal distance (thesis §6.3).
    #[inline]
    pub fn examine(&mut self, state: &State) {
        let d = self.geometry.goal_distance(state);
        self.examine_at(d);
    }

    /// [`Engine::examine`] when the goal distance `d` is already known.
    #[inline]
    pub fn examine_at(&mut self, d: u32) {
        self.stats.examined += 1;
        if d < self.stats.best_distance {
            self.stats.best_distance = d;
            self.stats.best_distance_positions = self.stats.examined;
        }
    }

    /// Checks the position, time and memory limits; `memory` is what the
    /// algorithm holds now.
    #[inline]
    pub fn over_limit(&mut self, memory: u64) -> Option<Limit> {
        if self
            .limits
            .max_positions
            .is_some_and(|m| self.stats.examined >= m)
        {
            return Some(Limit::Positions);
        }
        self.over_resources(memory)
    }

    /// Checks the time and memory limits only (for algorithms that count
    /// positions against `--max-positions` themselves), and ticks the progress line.
    #[inline]
    pub fn over_resources(&mut self, memory: u64) -> Option<Limit> {
        self.stats.peak_memory = self.stats.peak_memory.max(memory);
        if self.limits.max_memory.is_some_and(|m| memory > m) {
            return Some(Limit::Memory);
        }
        if let Some(now) = self.clock.due() {
            if self.deadline.is_some_and(|d| now >= d) {
                return Some(Limit::Time);
            }
            if interrupted().is_some() {
                return Some(Limit::Interrupted);
            }
            self.progress.tick(&self.stats, memory);
        }
        None
    }

    /// Whether the time limit has passed (for work outside the checks of
    /// [`Engine::over_resources`]: a long expansion's successors).
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether a path of `g` actions to a position estimated `h` from the
    /// goal may still end within `--max-length`: with an admissible
    /// heuristic `g + h` must not exceed it, with any other `g` alone. An
    /// algorithm that never extends a path beyond it exhausts (`no_solution`
    /// under the bound) where no solution that short exists.
    #[inline]
    pub fn within_length(&self, g: u64, h: u32) -> bool {
        let h = if self.length_by_estimate { h as u64 } else { 0 };
        self.limits.max_length.is_none_or(|n| g + h <= n)
    }

    /// When the time limit runs out, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// When work after a search that hit the time limit (the scan for
    /// `--best-out`) must stop: the deadline plus a twentieth of the limit.
    /// Without it the scan of a large visited set ran 50-90 s past a 200-s
    /// limit (Ithaca, rank keys), beyond the reasoner's timeout for the
    /// attempt, which then lost its result; with a floor of a second, which
    /// it had, `--best-out` (passed to every limited attempt) made a 2-s
    /// limit last 2.9 s. A scan cut short still gives valid restarts.
    pub fn grace_deadline(&self) -> Option<Instant> {
        self.deadline.map(|d| d + (d - self.started) / 20)
    }

    /// Refuses a puzzle whose keys the visited set cannot store, unless the
    /// algorithm stores no positions (IDA*, DFID), and a BFS on the dense
    /// array where the array does not fit ([`bfs::dense::check`]).
    pub fn check_storage(&self) -> Result<(), SearchError> {
        bfs::dense::check(self)?;
        let bits = self.encoding.key_bits();
        if self.params.algorithm.stores_positions() && bits > crate::store::MAX_KEY_BITS {
            return Err(SearchError::KeyTooWide {
                bits,
                max: crate::store::MAX_KEY_BITS,
            });
        }
        Ok(())
    }

    /// The bytes a heuristic's tables (pattern databases) may hold, their
    /// builds included, when `parts` heuristics are built (NBS: one per
    /// direction): half of what the search may hold under `--max-memory`
    /// ([`table_share`]); `None` without a limit.
    pub fn table_memory(&self, parts: u64) -> Option<u64> {
        self.limits.max_memory.map(|m| table_share(m, parts))
    }

    /// Memory still available under `--max-memory` after `held` bytes.
    pub fn memory_left(&self, held: u64) -> u64 {
        self.limits
            .max_memory
            .map_or(u64::MAX, |m| m.saturating_sub(held))
    }

    /// Milliseconds since the engine was built.
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// True when `state` is a goal position (never while counting).
    #[inline]
    pub fn is_goal(&self, state: &State) -> bool {
        self.goal_enabled && self.geometry.is_goal(state)
    }

    /// True when positions in an earlier subgoal's visited set are excluded.
    #[inline]
    pub fn is_forbidden(&self, key: &[u64]) -> bool {
        self.forbidden.iter().any(|f| f.get(key).is_some())
    }
}

/// Where the encoding `choice` counted on the positions to be expected
/// and no `--max-memory` was given, holds the search to the memory it was
/// chosen for, less what the process holds (`held`), as for --max-memory.
fn hold_to_guard(limits: &mut Limits, choice: &encoding::Choice, held: impl FnOnce() -> u64) {
    if let (None, Some(guard)) = (limits.max_memory, choice.memory_guard) {
        limits.max_memory = Some(search_memory(guard, held()));
    }
}

/// What a search may hold under a memory limit of `max` bytes when the
/// process holds `held` already. A sixteenth more is kept back for what the
/// search holds outside its counted tables (allocator slack, worker
/// batches, thread stacks): measured at 6-9% of the limit on the 10^7
/// bench puzzle.
pub fn search_memory(max: u64, held: u64) -> u64 {
    max.saturating_sub(held + max / 16)
}

/// The share of `search` bytes (what the search may hold) the tables of
/// one of `parts` heuristics get: half, split among the parts; the other
/// half is for the positions the search stores.
pub fn table_share(search: u64, parts: u64) -> u64 {
    search / 2 / parts.max(1)
}

/// The process's resident memory in bytes now (Linux: `VmRSS` of
/// `/proc/self/status`, in kB whatever the page size; `/proc/self/statm`
/// counts pages, whose size differs between machines). 0 where that cannot
/// be read, so the limit then covers the search alone.
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| vm_rss_bytes(&s))
        .unwrap_or(0)
}

/// The `VmRSS:   1234 kB` line of a `/proc/PID/status` text, in bytes.
fn vm_rss_bytes(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let mut words = line["VmRSS:".len()..].split_whitespace();
    let kib = words.next()?.parse::<u64>().ok()?;
    (words.next() == Some("kB")).then(|| kib.saturating_mul(1024))
}

/// An engine for a test: `puzzle`'s final goal, `params` and `limits`, no
/// locks, no progress bar, the process measured at its start.
#[cfg(test)]
pub(crate) fn test_engine<'a>(
    puzzle: &'a Puzzle,
    params: &SearchParams,
    limits: &Limits,
) -> Engine<'a> {
    let goal = puzzle.final_goal().cloned().unwrap_or_default();
    Engine::new(
        puzzle,
        &goal,
        params,
        limits,
        &[],
        Progress::disabled(),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_in_kilobytes_whatever_the_page_size() {
        let status = "Name:\tsolver\nVmPeak:\t  9000 kB\nVmRSS:\t    5120 kB\nThreads:\t1\n";
        assert_eq!(vm_rss_bytes(status), Some(5120 * 1024));
        assert_eq!(vm_rss_bytes("Name:\tsolver\n"), None);
        assert_eq!(vm_rss_bytes("VmRSS:\t12 pages\n"), None);
        // This process holds at least its code: more than 1 MiB, less than 1 TiB.
        let now = resident_bytes();
        assert!(now > 1 << 20 && now < 1 << 40, "{now}");
    }

    /// Calls slower than the target read the clock every time (a 1,024-call
    /// interval let a dense board's A* run 6.5 s for a 1-s limit); fast
    /// calls read it rarely.
    #[test]
    fn the_clock_is_read_at_every_slow_call_and_rarely_at_fast_ones() {
        let mut clock = Clock::new(Instant::now());
        for call in 0..5 {
            std::thread::sleep(CLOCK_TARGET * 3);
            assert!(clock.due().is_some(), "slow call {call}");
        }
        let reads = (0..100_000).filter(|_| clock.due().is_some()).count();
        assert!(reads < 2_000, "{reads} reads in 100,000 fast calls");
    }

    /// The scan for `--best-out` after a time limit gets a twentieth of it
    /// (a floor of a second made a 2-s limit last 2.9 s).
    #[test]
    fn the_best_out_grace_is_a_twentieth_of_the_limit() {
        let puzzle = crate::formats::bundled("klotski/classic.txt");
        let limits = Limits {
            time_limit_seconds: Some(2.0),
            ..Limits::default()
        };
        let e = test_engine(&puzzle, &SearchParams::default(), &limits);
        let (deadline, grace) = (e.deadline().unwrap(), e.grace_deadline().unwrap());
        assert_eq!(grace - deadline, std::time::Duration::from_millis(100));
    }
}
