//! `--heuristic pdb`: pattern databases. Each table holds, for every position
//! of an abstraction of the puzzle (see [`abstraction`]), the exact abstract
//! distance to the goal, found once by a backward search ([`build`]) and
//! cached on disk ([`cache`]). The estimate is the maximum over groups of
//! the sum of a group's tables (additive tile patterns form one group; block
//! abstractions one each), and never below Manhattan plus linear conflict.
//! Admissible under both metrics: each table is searched with the run's metric.
//! One-blank tile puzzles (the 15-puzzle) get their own compact tables,
//! builder and incremental lookups ([`tiles`]).

pub mod abstraction;
pub mod build;
pub mod cache;
pub mod patterns;
pub mod tiles;

use crate::clock::Instant;
#[cfg(target_arch = "wasm32")]
use crate::page::indicatif;
use std::path::PathBuf;

use super::manhattan::ManhattanLinearConflict;
use super::{Admissible, Context, Heuristic, Opt, Spec};
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::State;
use crate::params::{Metric, SearchParams};
use abstraction::Abstraction;
use sbp_protocol::options::{OptionKind, Vary};
use tiles::additive::TileDatabases;

/// `--pdb GROUPS`: the patterns as groups of block ids, automatic when unset.
pub const PATTERNS: Opt = Opt {
    flag: "pdb",
    value_name: "GROUPS",
    json: "pdb.patterns",
    doc: "the patterns as groups of block ids, e.g. 1,2,3,4,5,6/7,8,9,10,11,12/13,14,15 (default: chosen within --pdb-memory)",
    kind: OptionKind::Text,
    vary: Vary::Fixed,
    recorded: true,
    start: None,
};

/// `--pdb-memory BYTES`: what all tables may take together. Each table has
/// fewer than 2^32 one-byte entries. The reasoner halves or doubles it, and
/// starts it at 64M when it switches to pdb: tables that build in seconds
/// within an attempt, not minutes.
pub const MEMORY: Opt = Opt {
    flag: "pdb-memory",
    value_name: "BYTES",
    json: "pdb.memory",
    doc: "bytes all pattern databases may take together",
    kind: OptionKind::Whole {
        min: 1 << 10,
        max: 64 << 30,
        bytes: true,
        default: 512 << 20,
    },
    vary: Vary::Log2,
    recorded: true,
    start: Some(64 << 20),
};

/// `--pdb-cache DIR`: the folder of cached tables, `off`, or the user's cache
/// folder when unset. Where tables are kept is not part of a run's identity.
pub const CACHE: Opt = Opt {
    flag: "pdb-cache",
    value_name: "DIR",
    json: "pdb.cache",
    doc: "folder of cached tables, or `off` (default: the user's cache folder)",
    kind: OptionKind::Text,
    vary: Vary::Fixed,
    recorded: false,
    start: None,
};

/// The registration of pdb (see [`super::REGISTRY`]). Offered to the
/// reasoner's proximity search, which also varies `--pdb-memory`; a table's
/// build counts against an attempt's time, and the disk cache lets later
/// attempts on the same puzzle read it instead.
pub const SPEC: Spec = Spec {
    name: "pdb",
    doc: "Pattern databases (--pdb, --pdb-memory, --pdb-cache).",
    admissible: Admissible::Always,
    options: &[PATTERNS, MEMORY, CACHE],
    proximity: true,
    build: |cx: &Context| load(cx.puzzle, cx.geometry, cx.params, cx.memory).into_heuristic(),
};

/// One filled table.
pub struct Table {
    pub abstraction: Abstraction,
    pub values: Vec<u8>,
    /// Milliseconds spent building it (0 when read from the cache).
    pub build_ms: u64,
    pub from_cache: bool,
}

impl Table {
    /// Mean value over the positions the backward search reached.
    pub fn mean(&self) -> f64 {
        let (sum, n) = self
            .values
            .iter()
            .filter(|&&v| v != build::UNSEEN)
            .fold((0u64, 0u64), |(s, n), &v| (s + v as u64, n + 1));
        if n == 0 {
            0.0
        } else {
            sum as f64 / n as f64
        }
    }

    #[inline]
    fn lookup(&mut self, state: &State) -> u32 {
        self.values[self.abstraction.index(state)] as u32
    }
}

thread_local! {
    /// When table builds on this thread stop: the time limit of the search
    /// that asked for them ([`BuildDeadline`]).
    static BUILD_DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Holds the time by which the pattern-database builds of a search on this
/// thread stop (its `--time-limit`), until dropped. A stopped build gives
/// an admissible but weaker table (an abstraction's: [`build`]'s doc) or
/// none (a tile table: the tables finished are still an admissible sum),
/// and the search then meets its own time limit at its first check,
/// instead of the build running on past the limit: a tile puzzle's 7-8
/// tables took 37-60 s on a loaded machine, for a 2-s limit.
pub struct BuildDeadline(Option<Instant>);

impl BuildDeadline {
    pub fn set(deadline: Option<Instant>) -> BuildDeadline {
        BuildDeadline(BUILD_DEADLINE.replace(deadline))
    }

    /// Whether the builds on this thread must stop now, as a [`Stop`]
    /// that the builders' threads may ask.
    fn stop() -> impl Fn() -> bool + Sync {
        let deadline = BUILD_DEADLINE.get();
        move || deadline.is_some_and(|t| Instant::now() >= t)
    }
}

/// Asked by a table builder now and then (each thread before each chunk of
/// its work): true when the build must stop.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// Entries made between two asks of [`filled`]'s `stop`.
const FILL_CHUNK: usize = 1 << 24;

/// `len` values made by `make`, [`FILL_CHUNK`] at a time with `stop`
/// asked before each; `None` when it says so. Making the 15-puzzle's
/// 8-tile table (518,918,400 entries and its bitmaps) took 1.5 s on a
/// loaded machine, the whole of a short time limit and more.
pub(crate) fn filled<T>(len: u64, make: impl Fn() -> T, stop: Stop) -> Option<Vec<T>> {
    let len = usize::try_from(len).ok()?;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        if stop() {
            return None;
        }
        let more = (len - out.len()).min(FILL_CHUNK);
        out.extend((0..more).map(|_| make()));
    }
    Some(out)
}

impl Drop for BuildDeadline {
    fn drop(&mut self) {
        BUILD_DEADLINE.set(self.0);
    }
}

/// Loads or builds every table of `plan` (building on `threads` threads);
/// `cache` off when `None`. A cache that cannot be written is reported on
/// stderr and the search goes on.
pub fn load_tables(
    puzzle: &Puzzle,
    geometry: &Geometry,
    plan: &patterns::Plan,
    metric: Metric,
    cache_dir: Option<&PathBuf>,
    threads: usize,
) -> Vec<Vec<Table>> {
    let announce = std::io::IsTerminal::is_terminal(&std::io::stderr());
    plan.groups
        .iter()
        .map(|group| {
            group
                .iter()
                .filter_map(|p| Abstraction::new(puzzle, geometry, p, metric))
                .map(|mut abstraction| {
                    let key = cache::key(&abstraction, metric);
                    if let Some(values) =
                        cache_dir.and_then(|d| cache::load(d, &key, abstraction.size))
                    {
                        return Table {
                            abstraction,
                            values,
                            build_ms: 0,
                            from_cache: true,
                        };
                    }
                    let bar = build_bar(announce, abstraction.size);
                    let started = Instant::now();
                    let (values, complete) = build::fill(
                        &mut abstraction,
                        threads,
                        &BuildDeadline::stop(),
                        &mut |reached, depth| {
                            bar.set_position(reached);
                            bar.set_message(format!("distance {depth}"));
                        },
                    );
                    bar.finish_and_clear();
                    let build_ms = started.elapsed().as_millis() as u64;
                    if let Some(dir) = cache_dir.filter(|_| complete) {
                        if let Err(e) = cache::store(dir, &key, &values) {
                            eprintln!(
                                "warning: cannot cache a pattern database in {}: {e} \
                                 (pass --pdb-cache DIR with a writable folder)",
                                dir.display()
                            );
                        }
                    }
                    Table {
                        abstraction,
                        values,
                        build_ms,
                        from_cache: false,
                    }
                })
                .collect()
        })
        .collect()
}

/// The tables of one puzzle and goal: a tile puzzle's or the abstractions'.
pub enum Databases {
    Tiles(TileDatabases),
    Blocks(PatternDatabases),
}

impl Databases {
    /// The heuristic they make.
    pub fn into_heuristic(self) -> Box<dyn Heuristic> {
        match self {
            Databases::Tiles(t) => Box::new(t),
            Databases::Blocks(b) => Box::new(b),
        }
    }
}

/// Builds (or loads) the tables `params` ask for, their builds' peak
/// within `memory` bytes when given (their share of `--max-memory`). The
/// plan was checked when the run's parameters were validated; should it
/// fail here anyway (the process grew in between), the estimate falls back
/// to Manhattan plus linear conflict alone.
pub fn load(
    puzzle: &Puzzle,
    geometry: &Geometry,
    params: &SearchParams,
    memory: Option<u64>,
) -> Databases {
    let spec = PATTERNS.text(params);
    match patterns::plan(puzzle, geometry, spec, (MEMORY.whole(params), memory)) {
        Ok(plan) => load_plan(puzzle, geometry, &plan, params),
        Err(_) => Databases::Blocks(PatternDatabases::from_tables(
            puzzle,
            geometry,
            params.metric,
            Vec::new(),
        )),
    }
}

/// The tables of `plan`: a one-blank tile puzzle's compact tables, else the
/// abstractions' ([`load_tables`]).
pub fn load_plan(
    puzzle: &Puzzle,
    geometry: &Geometry,
    plan: &patterns::Plan,
    params: &SearchParams,
) -> Databases {
    let dir = cache_dir(params);
    if let (Some(board), [group]) = (tiles::TileBoard::new(puzzle, geometry), &plan.groups[..]) {
        let patterns: Vec<Vec<usize>> = group.iter().map(|p| p.counted.clone()).collect();
        let (threads, stop) = (params.threads, BuildDeadline::stop());
        let tables = tiles::load::tables(
            &board,
            &patterns,
            params.metric,
            dir.as_deref(),
            (threads, &stop),
        );
        let reflection = tiles::reflect::diagonal(&board);
        return Databases::Tiles(TileDatabases::new(
            puzzle,
            geometry,
            board,
            tables,
            reflection.as_ref(),
        ));
    }
    let groups = load_tables(
        puzzle,
        geometry,
        plan,
        params.metric,
        dir.as_ref(),
        params.threads,
    );
    Databases::Blocks(PatternDatabases::from_tables(
        puzzle,
        geometry,
        params.metric,
        groups,
    ))
}

/// A progress bar for building a table of `size` entries on stderr (entries
/// reached, distance, elapsed); hidden when stderr is not a terminal.
pub(crate) fn build_bar(shown: bool, size: u64) -> indicatif::ProgressBar {
    if !shown {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(size);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "pdb table {bar:30} {human_pos}/{human_len} entries, {msg} [{elapsed}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The cache folder `params` ask for: `--pdb-cache DIR`, `off`, or the default.
pub fn cache_dir(params: &SearchParams) -> Option<PathBuf> {
    match CACHE.text(params) {
        Some("off") => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => cache::default_dir(),
    }
}

/// The heuristic: tables combined, and Manhattan plus linear conflict.
pub struct PatternDatabases {
    groups: Vec<Vec<Table>>,
    manhattan: ManhattanLinearConflict,
    bytes: u64,
}

impl PatternDatabases {
    /// The heuristic over tables already built or loaded (groups added,
    /// groups combined by maximum, never below Manhattan plus linear conflict).
    pub fn from_tables(
        puzzle: &Puzzle,
        geometry: &Geometry,
        metric: Metric,
        groups: Vec<Vec<Table>>,
    ) -> PatternDatabases {
        let bytes = groups.iter().flatten().map(|t| t.values.len() as u64).sum();
        PatternDatabases {
            groups,
            manhattan: ManhattanLinearConflict::new(puzzle, geometry, metric == Metric::Moves),
            bytes,
        }
    }
}

impl PatternDatabases {
    /// The tables, by group.
    pub fn tables(&self) -> &[Vec<Table>] {
        &self.groups
    }
}

impl Heuristic for PatternDatabases {
    fn name(&self) -> &'static str {
        "pdb"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        let mut best = self.manhattan.estimate(state);
        for group in &mut self.groups {
            let sum: u32 = group.iter_mut().map(|t| t.lookup(state)).sum();
            best = best.max(sum);
        }
        best
    }

    fn memory_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests;
