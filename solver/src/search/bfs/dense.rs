//! Breadth-first search over a dense array (`--encoding dense`): the rank
//! of a position (thesis §7.1.4) is a perfect hash onto `0..ranks`, so the
//! visited set can be an array indexed by it, with no keys stored, as in
//! the large breadth-first searches of Korf and of Cooperman and
//! Finkelstein. Each rank has three bits:
//!
//! - two for its layer mod 3 plus one (0: not reached). Neighbours of a
//!   position lie one layer before it, in its own or one after, three
//!   different residues, so the walk back from the goal steps to the
//!   neighbour whose residue is one less ([`Recorded::DepthMod3`]);
//! - one frontier bit: reached and not yet expanded. A layer is the ranks
//!   whose frontier bit is set and whose residue is the layer's (the next
//!   layer's positions, found meanwhile, have the next residue).
//!
//! That is 3/8 of a byte per rank where a table of keys takes 8 to 24
//! bytes per stored position, so the array is the smaller one wherever a
//! sixtieth of the ranks or more are reached (a tile puzzle, where every
//! rank is a placement: the 10^9 bench in 377 MB, where a table would take
//! about 12 GB). It costs time, though: every successor is ranked (the
//! 10^7 bench 2.9 s against packed keys' 2.6 s, Four Balls 2.8 s against
//! 1.3 s), so `--encoding auto` takes it only where a table would crowd
//! the memory out (`encoding/choice.rs`). A layer is expanded in
//! chunks of parents found by scanning the frontier bits in rank order,
//! by the same workers as the BFS on keys ([`expand`]); the successors go
//! into the array in the workers' order, so the counts and the solution
//! are the same for any number of threads.
//!
//! Since the array keeps no tags, the moves back to the parent's parent
//! are generated and looked up rather than left out unseen.

use super::expand::{self, Batch, Context, Tags, Worker};
use super::{tally, CHUNK_WORDS};
use crate::encoding::{available_memory, Encoding, PositionEncoding};
use crate::moves::State;
use crate::params::{Algorithm, SearchParams};
use crate::pruning::Prunings;
use crate::search::crew::Crew;
use crate::search::path::{walk_back, Payloads, Recorded};
use crate::search::{Ending, Engine, Limit, SearchError};
use crate::store::append_key;

/// How far ahead of the insertion the residues are prefetched.
const PREFETCH_AHEAD: usize = 8;

/// Smallest array (bytes) whose residues are prefetched: a smaller one
/// stays in the cache.
const PREFETCH_FROM_BYTES: u64 = 1 << 20;

/// Bytes of the array for `ranks` ranks: two bits of residue and a
/// frontier bit each, in whole words.
pub fn dense_bytes(ranks: f64) -> f64 {
    (ranks / 64.0).ceil() * 8.0 * 3.0
}

/// Whether a search with these parameters could run on the dense array:
/// a BFS in memory whose graph is undirected (no pruning that closes the
/// way back, so residues mod 3 find the path) and that hands no visited
/// set of keys on to a later section (`--keep-visited`).
pub fn may_apply(params: &SearchParams, prunings: &Prunings) -> bool {
    params.algorithm == Algorithm::Bfs
        && params.spill.is_none()
        && !params.keep_visited
        && !prunings.directed()
}

/// Whether this BFS runs on the dense array: the encoding is `dense`, the
/// search [`may_apply`], no best positions are asked for (`--best-out`
/// reads a visited set of keys) and the ranks fit a word. Otherwise the
/// BFS stores the rank's keys in a table.
pub fn applies(e: &Engine) -> bool {
    let Encoding::Dense(rank) = &e.encoding else {
        return false;
    };
    may_apply(&e.params, &e.prunings)
        && !e.keep_for_best()
        && e.forbidden.is_empty()
        && rank.bound()[1..].iter().all(|&w| w == 0)
}

/// The array: per rank its residue ([`Marks::code`]) and frontier bit.
pub struct Marks {
    /// Two bits per rank: 0 not reached, else the layer mod 3, plus one.
    codes: Vec<u64>,
    /// One bit per rank: reached and not yet expanded.
    open: Vec<u64>,
    /// Ranks reached.
    len: usize,
}

impl Marks {
    fn new(ranks: u64) -> Marks {
        let words = ranks.div_ceil(64) as usize;
        Marks {
            codes: vec![0; 2 * words],
            open: vec![0; words],
            len: 0,
        }
    }

    fn bytes(&self) -> u64 {
        ((self.codes.len() + self.open.len()) * 8) as u64
    }

    /// 0 when `rank` is not reached, else its layer mod 3 plus one.
    #[inline]
    fn code(&self, rank: u64) -> u64 {
        (self.codes[(rank >> 5) as usize] >> ((rank & 31) * 2)) & 3
    }

    /// Stores `rank` at `depth` if it is new (and puts it on the
    /// frontier); true when it was.
    #[inline]
    fn reach(&mut self, rank: u64, depth: u64) -> bool {
        if self.code(rank) != 0 {
            return false;
        }
        self.codes[(rank >> 5) as usize] |= (depth % 3 + 1) << ((rank & 31) * 2);
        self.open[(rank >> 6) as usize] |= 1 << (rank & 63);
        self.len += 1;
        true
    }

    /// Up to `take` frontier ranks of layer `depth` from word `from` on,
    /// in rank order, into `out` (emptied first); the word to go on from.
    /// Stopped within a word, it returns that word: the ranks taken leave
    /// the frontier before the next call ([`Marks::close`]).
    fn gather(&self, depth: u64, from: usize, take: usize, out: &mut Vec<u64>) -> usize {
        out.clear();
        let code = depth % 3 + 1;
        for w in from..self.open.len() {
            let mut bits = self.open[w];
            while bits != 0 {
                let rank = (w as u64) << 6 | bits.trailing_zeros() as u64;
                bits &= bits - 1;
                if self.code(rank) == code {
                    if out.len() == take {
                        return w;
                    }
                    out.push(rank);
                }
            }
        }
        self.open.len()
    }

    /// Asks for the cache line of `rank`'s residue: the successors of a
    /// chunk land all over a large array.
    #[inline]
    fn prefetch(&self, rank: u64) {
        super::prefetch_word(&self.codes[(rank >> 5) as usize]);
    }

    /// Takes expanded ranks off the frontier.
    fn close(&mut self, ranks: &[u64]) {
        for &r in ranks {
            self.open[(r >> 6) as usize] &= !(1 << (r & 63));
        }
    }
}

impl Payloads for Marks {
    fn payload(&self, key: &[u64]) -> Option<u64> {
        match self.code(key[0]) {
            0 => None,
            c => Some(c - 1),
        }
    }
    fn stored(&self) -> usize {
        self.len
    }
}

/// Refuses a BFS on the dense array ([`applies`]) whose array does not fit
/// `--max-memory` (what the search may hold of it), else the memory
/// available, before anything is allocated.
pub fn check(e: &Engine) -> Result<(), SearchError> {
    let Encoding::Dense(rank) = &e.encoding else {
        return Ok(());
    };
    if !may_apply(&e.params, &e.prunings) {
        return Ok(());
    }
    let budget = e.memory_left(0).min(available_memory());
    let bytes = dense_bytes(rank.bound_f64());
    match bytes <= budget as f64 {
        true => Ok(()),
        false => Err(SearchError::DenseTooLarge {
            bytes: bytes.min(u64::MAX as f64) as u64,
            budget,
        }),
    }
}

/// Breadth-first search from `start` on the dense array (see the module),
/// whose array [`check`] found to fit.
pub fn search(e: &mut Engine, start: &State) -> Ending {
    let ranks = match &e.encoding {
        Encoding::Dense(rank) => rank.bound()[0],
        _ => unreachable!("dense::applies holds"),
    };
    let mut marks = Marks::new(ranks);
    let mut key = [0u64];
    e.encoding.encode(start, &mut key);
    marks.reach(key[0], 0);
    e.stats.stored = 1;
    if e.is_goal(start) {
        e.examine(start);
        return Ending::Found(vec![start.clone()]);
    }
    let threads = e.params.threads.max(1);
    let crew = Crew::new(threads - 1);
    let mut workers = expand::workers(e, start, &crew);
    let mut batches: Vec<Batch> = (0..threads).map(|_| Batch::default()).collect();
    let ending = layers(e, start, &mut marks, (&crew, &mut workers, &mut batches));
    e.stats.stored = marks.len as u64;
    ending
}

/// The layers of [`search`] until one is empty, a goal is reached or a
/// limit stops it. Over 80 lines: the search's loop, whose order of events
/// (gather, expand, limits, insert) is clearer in one place.
fn layers(
    e: &mut Engine,
    start: &State,
    marks: &mut Marks,
    (crew, workers, batches): (&Crew, &mut [Worker], &mut [Batch]),
) -> Ending {
    let key_bytes = (e.encoding.key_bits() as usize).div_ceil(8).max(1);
    let mut parents: Vec<u64> = Vec::with_capacity(CHUNK_WORDS);
    let mut chunk: Vec<u8> = Vec::with_capacity(CHUNK_WORDS * key_bytes);
    let mut depth = 0u64;
    loop {
        if !e.within_length(depth + 1, 0) {
            return Ending::Exhausted; // --max-length: the next layer would be too deep
        }
        let (mut word, mut new) = (0, 0u64);
        loop {
            let left = e
                .limits
                .max_positions
                .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined));
            let take = CHUNK_WORDS.min(left.min(usize::MAX as u64) as usize);
            word = marks.gather(depth, word, take, &mut parents);
            if parents.is_empty() {
                if take == 0 && word < marks.open.len() {
                    return Ending::Stopped(Limit::Positions);
                }
                break;
            }
            chunk.clear();
            for &r in &parents {
                append_key(&mut chunk, &[r], key_bytes);
            }
            let ctx = Context {
                geometry: &e.geometry,
                forbidden: e.forbidden,
                set: None,
                goal_enabled: e.goal_enabled,
                measure_distance: e.measure_distance,
                deadline: e.deadline(),
                tags: Tags::None,
            };
            expand::chunk(crew, workers, batches, &chunk, key_bytes, &ctx);
            tally(e, batches);
            if batches.iter().any(|b| b.out_of_time) {
                return Ending::Stopped(Limit::Time);
            }
            let buffers: usize = batches.iter().map(Batch::bytes).sum::<usize>()
                + chunk.capacity()
                + parents.capacity() * 8;
            if let Some(limit) = e.over_resources(marks.bytes() + buffers as u64) {
                return Ending::Stopped(limit);
            }
            marks.close(&parents);
            let prefetch = marks.bytes() >= PREFETCH_FROM_BYTES;
            for b in batches.iter() {
                for (i, &rank) in b.keys.iter().enumerate() {
                    if prefetch && i + PREFETCH_AHEAD < b.keys.len() {
                        marks.prefetch(b.keys[i + PREFETCH_AHEAD]);
                    }
                    if !marks.reach(rank, depth + 1) {
                        continue;
                    }
                    new += 1;
                    if b.any_goal() && b.goals.contains(&(i as u32)) {
                        let mut goal = start.clone();
                        e.encoding.decode(&[rank], &mut goal);
                        e.stats.stored = marks.len as u64;
                        let path = walk_back(e, &*marks, start, &goal, Recorded::DepthMod3);
                        return path.map_or(Ending::Exhausted, Ending::Found);
                    }
                }
            }
        }
        if new == 0 {
            return Ending::Exhausted;
        }
        depth += 1;
        e.progress.bound = depth;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;
    use crate::model::Puzzle;
    use crate::params::{EncodingKind, Limits, Metric};
    use crate::search::count::{reachable, Count};
    use crate::search::{solve, Progress, SolveOptions};

    /// Tile puzzles (every rank a placement: the 8-puzzle-sized bench and
    /// one of the hardest 8-puzzles) and block puzzles (classic Klotski,
    /// Century, the thesis's sliders board and a small box), in both metrics.
    const PUZZLES: &[&str] = &[
        "bench/bench_1e5.txt",
        "tiles/eight_hardest_a.txt",
        "klotski/classic.txt",
        "klotski/century.txt",
        "special/fig7_3b_sliders.txt",
        "special/twin_solvable.txt",
    ];

    fn params(encoding: EncodingKind, metric: Metric, threads: usize) -> SearchParams {
        SearchParams {
            encoding,
            metric,
            threads,
            ..SearchParams::default()
        }
    }

    fn count(p: &Puzzle, params: &SearchParams, limits: &Limits) -> Count {
        reachable(p, params, limits, Progress::disabled(), None, true).unwrap()
    }

    /// The dense array and the table of rank keys count the same positions
    /// layer by layer: the counts bounded by `--max-length L` (the
    /// positions within L actions) agree for L = 0, 1, 2, 3, 5, 8, ... up
    /// to the whole space, on one thread and on two, in the positions
    /// stored and examined and, under steps, generated (under moves the
    /// table's BFS leaves the last-moved block's moves out unseen).
    #[test]
    fn the_dense_array_counts_every_layer_as_the_table_does() {
        for file in PUZZLES {
            let p = formats::bundled(file);
            for metric in [Metric::Steps, Metric::Moves] {
                let whole = count(
                    &p,
                    &params(EncodingKind::Rank, metric, 1),
                    &Limits::default(),
                );
                assert!(whole.complete, "{file}");
                let (mut a, mut b, mut compared) = (0u64, 1u64, 0);
                loop {
                    let limits = Limits {
                        max_length: Some(a),
                        ..Limits::default()
                    };
                    let table = count(&p, &params(EncodingKind::Rank, metric, 1), &limits);
                    for threads in [1, 2] {
                        let dense =
                            count(&p, &params(EncodingKind::Dense, metric, threads), &limits);
                        assert_eq!(dense.encoding, "dense", "{file}");
                        let fields = |c: &Count| {
                            let generated = c.generated.filter(|_| metric == Metric::Steps);
                            (c.positions, c.examined, generated, c.complete)
                        };
                        assert_eq!(fields(&dense), fields(&table), "{file} {metric:?} {a}");
                    }
                    compared += 1;
                    if table.positions == whole.positions {
                        break;
                    }
                    (a, b) = (b, a + b);
                }
                assert!(compared > 5, "{file}: {compared} depths");
            }
        }
    }

    /// The dense BFS solves at the table's length, its solution replayed by
    /// the verifier, the same on one and two threads; `--max-positions N`
    /// expands exactly N positions.
    #[test]
    fn the_dense_array_solves_at_the_shortest_length() {
        for file in PUZZLES {
            let p = formats::bundled(file);
            for metric in [Metric::Steps, Metric::Moves] {
                let run = |encoding, threads, limits: &Limits| {
                    solve(
                        &p,
                        &params(encoding, metric, threads),
                        limits,
                        SolveOptions::quiet(),
                    )
                    .unwrap()
                };
                let none = Limits::default();
                let table = run(EncodingKind::Rank, 1, &none);
                let dense = run(EncodingKind::Dense, 1, &none);
                let two = run(EncodingKind::Dense, 2, &none);
                assert_eq!(dense.encoding, "dense");
                let moves = dense.solution.clone().expect("solved");
                let replay = crate::verify::replay(&p, &moves).unwrap();
                assert!(replay.solved, "{file}");
                let length = |o: &crate::search::SolveOutput| match metric {
                    Metric::Steps => {
                        crate::verify::replay(&p, o.solution.as_ref().unwrap())
                            .unwrap()
                            .steps
                    }
                    Metric::Moves => {
                        crate::verify::replay(&p, o.solution.as_ref().unwrap())
                            .unwrap()
                            .moves
                    }
                };
                assert_eq!(length(&dense), length(&table), "{file} {metric:?}");
                assert_eq!(two.solution, dense.solution, "{file}: threads");
                let capped = Limits {
                    max_positions: Some(dense.stats.examined / 2),
                    ..Limits::default()
                };
                let half = run(EncodingKind::Dense, 2, &capped);
                assert_eq!(half.stats.examined, dense.stats.examined / 2, "{file}");
                assert!(half.solution.is_none(), "{file}");
            }
        }
    }

    /// `--encoding auto` takes the dense array for a BFS where a table of
    /// keys might crowd the memory out: the 10^9 bench (about 12 GB of
    /// table in 4 GiB), the 10^7 bench in 256 MiB, classic Klotski in 8
    /// MiB; not where the table is small beside the budget, not for the
    /// 15-puzzle (2^44 ranks, no array fits), not for a search that cannot
    /// keep it, not under a cap that leaves the table small.
    #[test]
    fn auto_takes_the_dense_array_where_a_table_would_crowd_the_memory() {
        use crate::encoding::{choose, Budget};
        use crate::moves::MoveGenerator;
        let name = |file: &str, dense: bool, max_memory: u64, max_positions: Option<u64>| {
            let p = formats::bundled(file);
            let moves = MoveGenerator::new(&p, Metric::Steps, &[]);
            let budget = Budget {
                max_memory: Some(max_memory << 20),
                max_positions,
                spill_free: None,
                dense,
                tiles: false,
            };
            let c = choose(&p, &moves, EncodingKind::Auto, budget);
            (c.encoding.name(), c.reason)
        };
        let (taken, reason) = name("bench/bench_1e9.txt", true, 4096, None);
        assert_eq!(taken, "dense", "{reason}");
        assert!(reason.contains("every block is one cell"), "{reason}");
        assert_eq!(name("bench/bench_1e7.txt", true, 256, None).0, "dense");
        assert_ne!(name("bench/bench_1e7.txt", true, 4096, None).0, "dense");
        let (taken, reason) = name("klotski/classic.txt", true, 8, None);
        assert_eq!(taken, "dense", "{reason}");
        assert!(reason.contains("the ranks are few"), "{reason}");
        assert_ne!(name("klotski/classic.txt", true, 4096, None).0, "dense");
        assert_ne!(name("tiles/korf_01.txt", true, 4096, None).0, "dense");
        assert_ne!(name("bench/bench_1e9.txt", false, 4096, None).0, "dense");
        assert_ne!(
            name("bench/bench_1e9.txt", true, 4096, Some(1000)).0,
            "dense"
        );
        let many = Some(500_000_000);
        assert_eq!(name("bench/bench_1e9.txt", true, 4096, many).0, "dense");
    }
}
