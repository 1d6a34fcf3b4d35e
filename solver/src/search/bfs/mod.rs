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

pub mod dense;
mod expand;
mod insert;
pub mod tiles;

use super::crew::Crew;
use super::path::Recorded;
use super::{Ending, Engine, Limit};
use crate::encoding::PositionEncoding;
use crate::moves::{State, NO_OWNER};
use crate::store::{read_key, KeyQueue, Reference, VisitedSet, TAG_BYTES};
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
        add_part(e, b.best, b.examined, b.generated);
    }
}

/// Adds one part of a chunk's counters to the engine's: its parents
/// examined, their successors, and the least goal distance among them with
/// which parent (counted from 1) had it.
fn add_part(e: &mut Engine, best: Option<(u32, u64)>, examined: u64, generated: u64) {
    if let Some((d, at)) = best {
        if d < e.stats.best_distance {
            e.stats.best_distance = d;
            e.stats.best_distance_positions = e.stats.examined + at;
        }
    }
    e.stats.examined += examined;
    e.stats.generated += generated;
}

/// Asks for the cache line of `word` (a hint that cannot fault): where a
/// chunk's successors land all over a large array (the dense array's
/// residues, the tile kernel's slots).
#[inline(always)]
fn prefetch_word(word: &u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that cannot fault; the pointer is to a
    // live word.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(word as *const u64 as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

/// Breadth-first search from `start`, layer by layer: on the dense array
/// where the encoding is `dense` and nothing asks for a visited set of
/// keys ([`dense::applies`]), by the tile kernel on small one-blank tile
/// puzzles ([`tiles::applies`]), else on the visited set.
pub fn search(e: &mut Engine, start: &State) -> Ending {
    if dense::applies(e) {
        return dense::search(e, start);
    }
    if tiles::applies(e) {
        return tiles::search(e, start);
    }
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
    // Wide keys are kept in the set in insertion order: the layers hold
    // references to them (see `gather`).
    let by_reference = set.keeps_records();
    let queue_bits = if by_reference { Reference::BITS } else { bits };
    let queue = || {
        if tagged {
            KeyQueue::tagged(queue_bits)
        } else {
            KeyQueue::new(queue_bits)
        }
    };
    let mut current = queue();
    let mut next = queue();
    let first = match by_reference {
        true => vec![set.last_stored(set.hash(&key)).0],
        false => key.clone(),
    };
    if tagged {
        current.push_tagged(&first, NO_OWNER);
    } else {
        current.push(&first);
    }
    let tag_bytes = if tagged { TAG_BYTES } else { 0 };
    // A parent's key and tag as the workers read them.
    let parent_bytes = (bits as usize).div_ceil(8).max(1) + tag_bytes;
    let mut gathered: Vec<u8> = Vec::new();
    let mut depth = 0u64;
    let mut layer = Layer::default();
    let ending = 'search: loop {
        if !e.within_length(depth + 1, 0) {
            break Ending::Exhausted; // --max-length: the next layer would be too deep
        }
        let entry_bytes = current.entry_bytes();
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
                .min(front.len() / entry_bytes)
                .min(left.min(usize::MAX as u64) as usize);
            let mut chunk = &front[..take * entry_bytes];
            if by_reference {
                gather(&set, chunk, entry_bytes, tag_bytes, &mut gathered);
                chunk = &gathered;
            }
            let ctx = Context {
                geometry: &e.geometry,
                forbidden: e.forbidden,
                set: Some(&set),
                goal_enabled: e.goal_enabled,
                measure_distance: e.measure_distance,
                deadline: e.deadline(),
                tags,
            };
            expand::chunk(&crew, &mut workers, &mut batches, chunk, parent_bytes, &ctx);
            tally(e, &batches);
            if batches.iter().any(|b| b.out_of_time) {
                break 'search Ending::Stopped(Limit::Time);
            }
            let batch_bytes: usize =
                batches.iter().map(Batch::bytes).sum::<usize>() + gathered.capacity();
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
                by_reference,
            };
            if threads > 1 && insert::parallel_fits(e, &sink, &batches) {
                insert::parallel(&crew, &mut sink, &batches, &mut marks);
            } else if let Some(end) = insert::serial(e, &mut sink, &batches, start, recorded) {
                break 'search end;
            }
            current.consume(take);
            layer.parents += take as u64;
        }
        current.clear();
        if next.is_empty() {
            break Ending::Exhausted;
        }
        std::mem::swap(&mut current, &mut next);
        depth += 1;
        e.progress.bound = depth;
        reserve_layer(e, &mut set, &crew, &mut layer, &current, &next);
    };
    e.stats.stored = set.len() as u64;
    e.stats.peak_memory = e
        .stats
        .peak_memory
        .max((set.peak_bytes() + current.bytes() + next.bytes()) as u64);
    e.leave_behind(set, recorded);
    ending
}

/// Makes the set ready at once for the new keys the layer in `current` is
/// expected to bring ([`Layer::next`]), the crew's threads each growing
/// their own group of shards as when inserting. Only for a layer expected
/// to fit whole, its next queue too: where the memory limit will stop the
/// search within the layer, the set grows key by key as before, and so
/// stops where it did.
fn reserve_layer(
    e: &Engine,
    set: &mut VisitedSet,
    crew: &Crew,
    layer: &mut Layer,
    current: &KeyQueue,
    next: &KeyQueue,
) {
    let left = e
        .limits
        .max_positions
        .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined));
    let expected = layer.next(current.len() as u64, left);
    let budget = e.memory_left((current.bytes() + next.bytes_after(expected)) as u64);
    set.reserve(expected, budget, crew.size(), |groups, per| {
        crew.each(groups, |_, group| group.reserve(per))
    });
}

/// A layer's count of parents expanded and the new keys per parent of the
/// layers before it, from which the next layer's new keys are foreseen.
#[derive(Default)]
struct Layer {
    parents: u64,
    rate: Option<f64>,
}

impl Layer {
    /// The new keys the layer of `queued` parents (of which the position
    /// cap leaves `left`) is expected to bring, from the layer just ended:
    /// its new keys (`queued` itself) per parent expanded, and where that
    /// rate fell from the layer before, carried one layer further down.
    /// A set made ready for them at once ([`reserve_layer`]) moves
    /// each key once a layer instead of once a growth (x1.33-1.5): on the
    /// 15-puzzle at 5M positions, growth took a fifth of the time. Erring
    /// low only leaves the last keys to grow the set as before; the rate
    /// falling is where erring high would leave a table larger than its
    /// keys need.
    fn next(&mut self, queued: u64, left: u64) -> usize {
        let rate = queued as f64 / self.parents.max(1) as f64;
        let foreseen = match self.rate {
            Some(before) if rate < before => rate * rate / before,
            _ => rate,
        };
        self.rate = Some(rate);
        self.parents = 0;
        (queued.min(left) as f64 * foreseen) as usize
    }
}

/// How many parents ahead [`gather`] prefetches a stored key: a layer's
/// references jump between the 64 shards' keys, more streams than the
/// hardware prefetcher follows.
const GATHER_AHEAD: usize = 8;

/// The parents of a chunk of queue entries (`entry_bytes` each: a
/// [`Reference`], then a tag of `tag_bytes`) as the workers read them:
/// each stored key's bytes, then its tag, in `out` (emptied first).
///
/// Keys wider than two words live in the set anyway, in insertion order
/// and never moved, so a layer of Ithaca's 477-bit keys held each key
/// twice; as 38-bit references its queue entries take 7 bytes, not 62.
/// A layer's references run through each shard's keys in order, so the
/// gather reads them nearly sequentially.
fn gather(set: &VisitedSet, chunk: &[u8], entry_bytes: usize, tag_bytes: usize, out: &mut Vec<u8>) {
    out.clear();
    let reference = |entry: &[u8]| {
        let mut r = [0u64];
        read_key(&entry[..entry_bytes - tag_bytes], &mut r);
        Reference(r[0])
    };
    let n = chunk.len() / entry_bytes;
    for j in 0..n {
        if j + GATHER_AHEAD < n {
            let ahead = (j + GATHER_AHEAD) * entry_bytes;
            set.prefetch_stored(reference(&chunk[ahead..ahead + entry_bytes]));
        }
        let entry = &chunk[j * entry_bytes..(j + 1) * entry_bytes];
        set.stored_key(reference(entry), out);
        out.extend_from_slice(&entry[entry_bytes - tag_bytes..]);
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::formats;
    use crate::model::{Goal, Puzzle};
    use crate::moves::MoveGenerator;
    use crate::params::{Limits, Metric, SearchParams};
    use crate::search::test_boxes::{random_box, random_long_box, solution_steps};
    use crate::search::test_engine;

    /// Runs BFS on a bundled puzzle (a count when `goal` is false) with
    /// the tags given; the ending's path length and the counters.
    fn run(
        file: &str,
        goal: bool,
        cap: Option<u64>,
        tags: Option<Tags>,
    ) -> (Option<usize>, [u64; 3]) {
        run_on(&formats::bundled(file), goal, cap, tags)
    }

    /// [`run`] on a puzzle.
    fn run_on(
        puzzle: &Puzzle,
        goal: bool,
        cap: Option<u64>,
        tags: Option<Tags>,
    ) -> (Option<usize>, [u64; 3]) {
        let params = SearchParams::default();
        let limits = Limits {
            max_positions: cap,
            ..Limits::default()
        };
        let mut e = test_engine(puzzle, &params, &limits);
        e.goal_enabled = goal;
        // A count tallies every step, as `count::reachable` does.
        e.counts_branching = !goal;
        let mut start = State::new(puzzle);
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
    /// step back and the steps commuting with it that rank below it, and
    /// that changes nothing but the work: the same solution length and,
    /// in a count that runs to the end, the same positions examined,
    /// stored and generated (the branching factor counts what is left
    /// out). A search stopped midway through a layer (at a cap, or at the
    /// goal) examines as many positions, but the layer's order differs.
    #[test]
    fn skipping_the_step_back_and_commuting_steps_changes_no_count() {
        for (file, goal) in [
            ("klotski/only_18_steps.txt", true),
            ("klotski/only_18_steps.txt", false),
            ("special/twin_solvable.txt", false),
            ("bench/bench_1e5.txt", false),
        ] {
            let (length, counts) = run(file, goal, None, None);
            let (plain_length, plain) = run(file, goal, None, Some(Tags::None));
            assert_eq!(length, plain_length, "{file}");
            if !goal {
                assert_eq!(counts, plain, "{file}");
            }
            assert!(counts[1] > 1000, "{file}: a search of some size");
        }
        assert_eq!(
            run("klotski/only_18_steps.txt", true, None, None).0,
            Some(33)
        );
        let (_, capped) = run("klotski/sunshine.txt", false, Some(20_011), None);
        let (_, plain) = run(
            "klotski/sunshine.txt",
            false,
            Some(20_011),
            Some(Tags::None),
        );
        assert_eq!(capped[0], plain[0], "the cap counts positions examined");
    }

    /// On random boxes whose steps are counted per leading edge (long
    /// blocks, many spaces), skipping the blocks whose steps all rank
    /// below the last (a search's generator) changes no solution length,
    /// against searches that leave nothing out; the goal is the whole
    /// position after a random walk from the start.
    #[test]
    fn on_long_boxes_skipping_unranked_blocks_changes_no_length() {
        let mut rng = ChaCha8Rng::seed_from_u64(26);
        let (mut compared, mut longer) = (0, 0);
        for _ in 0..60 {
            let Some(mut p) = random_long_box(&mut rng) else {
                continue;
            };
            let e = test_engine(&p, &SearchParams::default(), &Limits::default());
            if !e.moves.counts_steps() || Tags::of(&e) != Tags::Step {
                continue;
            }
            p.goals = vec![walk_from_start(&p, 7, &mut rng)];
            let cap = Some(100_000);
            let (length, _) = run_on(&p, true, cap, Some(Tags::Step));
            let (plain_length, _) = run_on(&p, true, cap, Some(Tags::None));
            assert!(plain_length.is_some(), "the walk's end found in\n{p:?}");
            assert_eq!(length, plain_length, "shortest solution of\n{p:?}");
            compared += 1;
            longer += plain_length.is_some_and(|n| n > 5) as usize;
        }
        assert!(
            compared > 20 && longer > 10,
            "{compared} compared, {longer} longer"
        );
    }

    /// Where every block stands after `steps` random steps from the start
    /// of `p`, as a goal.
    fn walk_from_start(p: &Puzzle, steps: usize, rng: &mut ChaCha8Rng) -> Goal {
        use rand::Rng;
        let mut moves = MoveGenerator::new(p, Metric::Steps, &[]);
        let mut state = State::new(p);
        state.load(&p.start, moves.shapes());
        let mut list = Vec::new();
        for _ in 0..steps {
            moves.generate(&state, &mut list);
            moves.apply(&mut state, list[rng.gen_range(0..list.len())]);
        }
        p.goal_at(&state.to_position(p))
    }

    /// Two sections whose second, with `--keep-visited`, may not pass
    /// through the first's positions (found by a review: leaving out the
    /// steps commuting with the last gave 7 steps instead of 4).
    const KEPT_SHORT: &str = "!\n@\na\n!\n#####\n#   #\n##@##\n## a#\n#####\n!\n\
        #####\n#@  #\n## ##\n##  #\n#####\n!\n#####\n# @ #\n## ##\n##  #\n#####\n!\n";

    /// The same with an L-shaped master, dominoes, a disconnected block
    /// and a slider (there the second section's solution was lost).
    const KEPT_LOST: &str = "!\n@ 0,1 0,2 1,2\nJ 0,1\na\nd 1,1\nu =\n!\n\
        ########\n#  @J J#\n# J@J#J#\n#dJ@@a #\n#ud  u #\n########\n!\n\
        ########\n# @    #\n# @  # #\n# @@   #\n#      #\n########\n!\n\
        ########\n#      #\n#   @# #\n#   @  #\n#   @@ #\n########\n!\n";

    /// With `--keep-visited` a later section never enters an earlier
    /// section's positions, so not every position of a layer is expanded:
    /// only the step back is left out there, and the solutions are those
    /// found without any tag.
    #[test]
    fn with_kept_sections_only_the_step_back_is_left_out() {
        for (text, want) in [(KEPT_SHORT, 4), (KEPT_LOST, 18)] {
            let p = formats::native::parse(text, "kept").unwrap();
            let params = SearchParams {
                keep_visited: true,
                ..SearchParams::default()
            };
            let steps = solution_steps(&p, &params, &Limits::default());
            assert_eq!(steps, Some(want), "{text}");
        }
    }

    /// On random boxes, with the queue tagged whatever the key's width,
    /// leaving out the steps that commute with the last changes neither a
    /// complete count (positions examined, stored, generated) nor the
    /// length of the shortest solution.
    #[test]
    fn on_random_boxes_commuting_steps_left_out_change_no_count_nor_length() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let (mut compared, mut solved) = (0, 0);
        for _ in 0..300 {
            let Some(p) = random_box(&mut rng) else {
                continue;
            };
            let cap = Some(30_000);
            let (_, tagged) = run_on(&p, false, cap, Some(Tags::Step));
            let (_, plain) = run_on(&p, false, cap, Some(Tags::None));
            if plain[0] == 30_000 {
                continue;
            }
            assert_eq!(tagged, plain, "count of\n{p:?}");
            let (length, _) = run_on(&p, true, cap, Some(Tags::Step));
            let (plain_length, _) = run_on(&p, true, cap, Some(Tags::None));
            assert_eq!(length, plain_length, "shortest solution of\n{p:?}");
            compared += 1;
            solved += length.is_some() as usize;
        }
        assert!(
            compared > 100 && solved > 40,
            "{compared} compared, {solved} solved"
        );
    }

    /// Steps tags only where no pruning is on and the key is wider than a
    /// word or two cells or more stand empty.
    #[test]
    fn steps_tags_for_wide_keys_and_several_spaces_only() {
        let tags = |file: &str| {
            let puzzle = formats::bundled(file);
            let e = test_engine(&puzzle, &SearchParams::default(), &Limits::default());
            Tags::of(&e)
        };
        assert_eq!(tags("klotski/sunshine.txt"), Tags::Step);
        assert_eq!(tags("bench/bench_1e6.txt"), Tags::Step);
        assert_eq!(tags("tiles/korf_01.txt"), Tags::None);
        assert_eq!(tags("bench/bench_1e7.txt"), Tags::None);
    }
}
