//! Breadth-first search: optimal in the chosen metric, and exhaustive, so an
//! empty frontier proves that no solution exists under these settings.
//!
//! Layers are flat FIFOs of keys; the visited set stores each key with its
//! depth mod 3 (or the exact depth when prunings make the graph directed),
//! which is all that reconstructing the solution needs. A layer is expanded in
//! chunks of parents: `--threads N` workers each decode, generate and encode
//! their share of a chunk into a batch of successor keys ([`expand`]), then
//! the batches are inserted ([`insert`]): by N threads at once, each owning
//! a group of the set's shards, or by one in a chunk that holds a goal or
//! nears `--max-memory`. `--max-positions N` expands exactly N positions,
//! successors included. The order of insertion, and so every count and
//! solution, is the same whatever the number of threads.
//!
//! Under `--metric moves` (and no pruning that depends on the move) each
//! queued key carries where the block that moved last stands, and that
//! block's moves are not generated: they reach only positions its previous
//! move reached, all already stored, so counts and solutions do not change.

mod expand;
mod insert;

use super::crew::Crew;
use super::path::Recorded;
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::moves::{State, NO_OWNER};
use crate::store::{KeyQueue, VisitedSet};
use expand::{Batch, Context, Tags, Worker};
use insert::{Marks, Sink};

/// Key words of the parents expanded between two checks of the limits
/// (16384 parents of one word): large enough that starting the threads
/// (twice a chunk) and waiting for the slower one cost little against the
/// work (4096 one-word parents gave 1.46-1.60x on two threads, 16384
/// 1.63-1.80x; `experiments/bench.md`), small enough that a chunk's batches
/// of successor keys stay in the core's cache: 16384 parents of Sunshine's
/// 9-word keys made 12 MB of batches, written out and read back, and a
/// fifth of that took 3.7% less CPU time. The same for any number of
/// threads, so that the limits are checked at the same points.
const CHUNK_WORDS: usize = 16384;

/// Adds the batches' counters to the engine's, in serial order: worker k's
/// parents follow worker k-1's.
fn tally(e: &mut Engine, batches: &[Batch]) {
    for b in batches {
        if let Some((d, at)) = b.best {
            if d < e.stats.best_distance {
                e.stats.best_distance = d;
                e.stats.best_distance_positions = e.stats.examined + at;
            }
        }
        e.stats.examined += b.examined;
        e.stats.generated += b.generated;
    }
}

/// Breadth-first search from `start`, layer by layer.
pub fn search(e: &mut Engine, start: &State) -> Ending {
    search_tagged(e, start, Tags::of(e))
}

/// [`search`] with the queue entries' tags given (the tests compare it
/// without them).
///
/// Long on purpose: this is the hot loop. Each layer is cut into chunks,
/// expanded by the workers, checked against the limits and inserted; those
/// steps share the visited set, the queues, the batches and the counters,
/// and keeping them as locals of one function keeps the loop's order of
/// events (and its limits) visible in one place.
fn search_tagged(e: &mut Engine, start: &State, tags: Tags) -> Ending {
    let words = e.key_words();
    let bits = e.encoding.key_bits();
    // A count has no goal and leaves no set behind: no path is walked back.
    let walks_back = e.goal_enabled || e.keep_for_best() || e.params.keep_visited;
    let recorded = if !walks_back {
        Recorded::Nothing
    } else if e.prunings.directed() {
        Recorded::Depth
    } else {
        Recorded::DepthMod3
    };
    let mut set = VisitedSet::new(bits, recorded.bits());
    let mut key = vec![0u64; words];
    e.encoding.encode(start, &mut key);
    set.insert(&key, 0);
    if e.is_goal(start) {
        e.examine(start);
        e.stats.stored = 1;
        return Ending::Found(vec![start.clone()]);
    }
    let threads = e.params.threads.max(1);
    let crew = Crew::new(threads - 1);
    let mut workers: Vec<Worker> = expand::workers(e, start, &crew);
    let mut batches: Vec<Batch> = (0..threads).map(|_| Batch::default()).collect();
    let mut marks: Vec<Marks> = Vec::new();
    let tagged = tags != Tags::None;
    let queue = || {
        if tagged {
            KeyQueue::tagged(bits)
        } else {
            KeyQueue::new(bits)
        }
    };
    let mut current = queue();
    let mut next = queue();
    if tagged {
        current.push_tagged(&key, NO_OWNER);
    } else {
        current.push(&key);
    }
    let mut depth = 0u64;
    let ending = 'search: loop {
        if !e.within_length(depth + 1, 0) {
            break Ending::Exhausted; // --max-length: the next layer would be too deep
        }
        let key_bytes = current.entry_bytes();
        while !current.is_empty() {
            let left = e
                .limits
                .max_positions
                .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined));
            if left == 0 {
                break 'search Ending::Stopped(Limit::Positions);
            }
            let front = current.front();
            let take = (CHUNK_WORDS / words)
                .min(front.len() / key_bytes)
                .min(left.min(usize::MAX as u64) as usize);
            let chunk = &front[..take * key_bytes];
            let ctx = Context {
                geometry: &e.geometry,
                forbidden: e.forbidden,
                set: &set,
                goal_enabled: e.goal_enabled,
                measure_distance: e.measure_distance,
                deadline: e.deadline(),
                tags,
            };
            expand::chunk(&crew, &mut workers, &mut batches, chunk, key_bytes, &ctx);
            tally(e, &batches);
            if batches.iter().any(|b| b.out_of_time) {
                break 'search Ending::Stopped(Limit::Time);
            }
            let batch_bytes: usize = batches.iter().map(Batch::bytes).sum();
            let held = (current.bytes() + next.bytes() + batch_bytes) as u64;
            if let Some(limit) = e.over_resources(set.bytes() as u64 + held) {
                break 'search Ending::Stopped(limit);
            }
            let mut sink = Sink {
                set: &mut set,
                next: &mut next,
                others: current.bytes() + batch_bytes,
                payload: recorded.payload(depth + 1),
                tagged,
                words,
            };
            if threads > 1 && insert::parallel_fits(e, &sink, &batches) {
                insert::parallel(&crew, &mut sink, &batches, &mut marks);
            } else if let Some(end) = insert::serial(e, &mut sink, &batches, start, recorded) {
                break 'search end;
            }
            current.consume(take);
        }
        current.clear();
        if next.is_empty() {
            break Ending::Exhausted;
        }
        std::mem::swap(&mut current, &mut next);
        depth += 1;
        e.progress.bound = depth;
    };
    e.stats.stored = set.len() as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max((set.peak_bytes() + current.bytes() + next.bytes()) as u64);
    e.leave_behind(set, recorded);
    ending
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;
    use crate::params::{Limits, SearchParams};
    use crate::search::test_engine;

    /// Runs BFS on a bundled puzzle (a count when `goal` is false) with
    /// the tags given; the ending's path length and the counters.
    fn run(
        file: &str,
        goal: bool,
        cap: Option<u64>,
        tags: Option<Tags>,
    ) -> (Option<usize>, [u64; 3]) {
        let puzzle = formats::bundled(file);
        let params = SearchParams::default();
        let limits = Limits {
            max_positions: cap,
            ..Limits::default()
        };
        let mut e = test_engine(&puzzle, &params, &limits);
        e.goal_enabled = goal;
        let mut start = State::new(&puzzle);
        start.load(&puzzle.start, e.moves.shapes());
        let tags = tags.unwrap_or_else(|| Tags::of(&e));
        let length = match search_tagged(&mut e, &start, tags) {
            Ending::Found(path) => Some(path.len()),
            _ => None,
        };
        (
            length,
            [e.stats.examined, e.stats.stored, e.stats.generated],
        )
    }

    /// Wide keys under `--metric steps` skip the block that moved last's
    /// step back, and that changes nothing but the work: the same solution
    /// length, positions examined, stored (also when a cap stops the search
    /// mid-layer, so the order is the same) and generated (the branching
    /// factor counts the step back).
    #[test]
    fn skipping_the_step_back_changes_no_count_nor_order() {
        for (file, goal, cap) in [
            ("klotski/only_18_steps.txt", true, None),
            ("klotski/only_18_steps.txt", false, None),
            ("klotski/sunshine.txt", false, Some(3_000)),
            ("klotski/sunshine.txt", false, Some(20_011)),
        ] {
            let (length, counts) = run(file, goal, cap, None);
            let (plain_length, plain) = run(file, goal, cap, Some(Tags::None));
            assert_eq!(length, plain_length, "{file}");
            assert_eq!(counts, plain, "{file} capped at {cap:?}");
            assert!(counts[1] > 1000, "{file}: a search of some size");
        }
        assert_eq!(
            run("klotski/only_18_steps.txt", true, None, None).0,
            Some(33)
        );
    }

    /// Steps tags only where the key is wider than a word and no pruning is on.
    #[test]
    fn steps_tags_for_wide_keys_only() {
        let tags = |file: &str| {
            let puzzle = formats::bundled(file);
            let e = test_engine(&puzzle, &SearchParams::default(), &Limits::default());
            Tags::of(&e)
        };
        assert_eq!(tags("klotski/sunshine.txt"), Tags::Step);
        assert_eq!(tags("tiles/korf_01.txt"), Tags::None);
    }
}
