//! The parallel half of a BFS chunk: each worker decodes its share of the
//! parents, generates their moves and encodes the successors into a
//! [`Batch`] of keys with their hashes, ready for insertion.

use crate::clock::Instant;

use crate::encoding::{Encoding, PositionEncoding};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, Skip, State, NO_OWNER};
use crate::params::{Metric, SearchParams};
use crate::pruning::{self, Prunings};
use crate::search::crew::Crew;
use crate::search::Engine;
use crate::store::{entry_tag, read_key, VisitedSet, TAG_BYTES};

/// What a queue entry's tag says of the move that reached its position,
/// so that the expansion leaves out the moves that can only go back to a
/// stored position (see [`Skip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tags {
    /// Entries carry no tag.
    None,
    /// `--metric moves`: the cell the moved block's anchor stands on.
    Block,
    /// `--metric steps`: that cell in the low [`STEP_CELL_BITS`] bits and
    /// the step's direction in the top two.
    Step,
}

/// The bits of a steps tag that hold the cell.
const STEP_CELL_BITS: u32 = 14;

impl Tags {
    /// The tags a BFS of `e` keeps. None where a pruning makes the graph
    /// directed (the way back may be closed). Under steps only:
    /// - without prunings, where the step back is always legal and kept, so
    ///   that it is still counted as generated (the branching factor is a
    ///   feature);
    /// - for keys wider than one word, or boards with two empty cells or
    ///   more: then the tag also leaves out the steps that commute with
    ///   the last (see [`Skip::last_step`]; the 10^6 bench 16% faster,
    ///   Sunshine 40%). With one empty cell every step enters the cell
    ///   the last one vacated, so nothing commutes, and the two tag bytes
    ///   are a third of a 15-puzzle's queue entry: they took its process
    ///   from 16.0 to 17.1 bytes per stored position (5M positions), past
    ///   the 16 it is held to;
    /// - on boards whose cells fit the tag.
    pub fn of(e: &Engine) -> Tags {
        match e.params.metric {
            _ if e.prunings.directed() => Tags::None,
            Metric::Moves => Tags::Block,
            Metric::Steps
                if e.prunings.is_empty()
                    && (e.encoding.key_bits() > 64 || e.moves.spaces() >= 2)
                    && e.puzzle.board.len() < (1 << STEP_CELL_BITS) - 1 =>
            {
                Tags::Step
            }
            Metric::Steps => Tags::None,
        }
    }

    /// What a parent's `tag` leaves out of its moves (`state`: the parent,
    /// decoded); under steps also the one successor left out, to count.
    /// Under steps the steps commuting with the last are left out too when
    /// `commute` holds, which needs every position of a layer stored and
    /// expanded: not with a `forbidden` set (`--keep-visited`'s earlier
    /// sections), which keeps some out of the queue (see
    /// [`Skip::last_step`]).
    #[inline]
    fn skip(self, tag: u16, state: &State, commute: bool) -> (Skip, u64) {
        if tag == NO_OWNER {
            return (Skip::NONE, 0);
        }
        match self {
            Tags::None => (Skip::NONE, 0),
            Tags::Block => (Skip::block(state.owner[tag as usize] as usize), 0),
            Tags::Step => {
                let cell = tag & ((1 << STEP_CELL_BITS) - 1);
                let back = (tag >> STEP_CELL_BITS) as usize ^ 1;
                let i = state.owner[cell as usize] as usize;
                match commute {
                    true => (Skip::last_step(i, back), 1),
                    false => (Skip::step(i, back), 1),
                }
            }
        }
    }

    /// The tag of a successor reached by `m`.
    #[inline]
    fn of_move(self, m: Move, moves: &MoveGenerator) -> u16 {
        match self {
            Tags::Step => {
                let d = moves
                    .step_direction(m)
                    .expect("a step under --metric steps");
                m.to | (d as u16) << STEP_CELL_BITS
            }
            _ => m.to,
        }
    }
}

/// Parents expanded between two looks at the clock: on large boards one
/// parent can take milliseconds, so a whole chunk would overrun the limit.
const CLOCK_EVERY: usize = 16;

/// The successors of a run of parents, encoded, waiting for insertion.
/// Aligned (as [`Worker`] is) so that neighbouring batches, each written by
/// its own thread at every successor (lengths, counters), share no cache
/// line.
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Batch {
    pub keys: Vec<u64>,
    pub hashes: Vec<u64>,
    /// The indices of the successors that are goals (rare: a list, not a
    /// flag pushed per successor).
    pub goals: Vec<u32>,
    /// Per key, when tagged: its tag ([`Tags`]: the moved block's anchor,
    /// under steps with the step's direction).
    pub moved: Vec<u16>,
    pub examined: u64,
    pub generated: u64,
    /// Smallest goal distance among the parents and its 1-based index.
    pub best: Option<(u32, u64)>,
    /// The time limit passed before every parent was expanded.
    pub out_of_time: bool,
}

impl Batch {
    /// Empties the batch for the next chunk, keeping its buffers.
    pub fn reset(&mut self) {
        self.keys.clear();
        self.hashes.clear();
        self.goals.clear();
        self.moved.clear();
        self.examined = 0;
        self.generated = 0;
        self.best = None;
        self.out_of_time = false;
    }

    /// Bytes its buffers hold.
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.hashes.capacity() * 8
            + self.goals.capacity() * 4
            + self.moved.capacity() * 2
    }

    /// Number of successors.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Some successor is a goal.
    pub fn any_goal(&self) -> bool {
        !self.goals.is_empty()
    }
}

/// Expands the parents in `keys` (byte-packed, `entry_bytes` each) into one
/// batch per worker, each worker taking an equal share in order (the
/// calling thread the first), each batch emptied first.
pub(super) fn chunk(
    crew: &Crew,
    workers: &mut [Worker],
    batches: &mut [Batch],
    keys: &[u8],
    entry_bytes: usize,
    ctx: &Context,
) {
    for b in batches.iter_mut() {
        b.reset();
    }
    if workers.len() == 1 {
        workers[0].expand(keys, entry_bytes, ctx, &mut batches[0]);
        return;
    }
    let per = (keys.len() / entry_bytes).div_ceil(workers.len()) * entry_bytes;
    let mut jobs: Vec<_> = workers
        .iter_mut()
        .zip(batches.iter_mut())
        .zip(keys.chunks(per.max(entry_bytes)))
        .collect();
    crew.each(&mut jobs, |_, ((worker, batch), part)| {
        worker.expand(part, entry_bytes, ctx, batch)
    });
}

/// One worker per thread of `crew`, each built on the thread that will run
/// it, so that its buffers (the move generator's stamps and queues, the
/// encoder's scratch) come from that thread's allocator arena and not from
/// beside the first worker's: built side by side by one thread, two workers
/// wrote to the same cache lines at every position, and two threads ran
/// 1.05-1.43x one instead of 1.67-1.73x (`experiments/bench.md`).
pub(super) fn workers(e: &Engine, start: &State, crew: &Crew) -> Vec<Worker> {
    let (moves, encoding, params, geometry) = (&e.moves, &e.encoding, &e.params, &e.geometry);
    let tally = e.counts_branching;
    let mut built: Vec<Option<Worker>> = (0..crew.size()).map(|_| None).collect();
    crew.each(&mut built, |_, slot| {
        let mut worker = Worker::new(moves, encoding, params, geometry, start);
        worker.moves.tally_left_out(tally);
        *slot = Some(worker)
    });
    built.into_iter().flatten().collect()
}

/// Read-only data the workers share.
pub(super) struct Context<'a> {
    pub geometry: &'a Geometry,
    pub forbidden: &'a [VisitedSet],
    /// The set whose hash each successor gets (none for the dense array,
    /// which indexes by the key itself: the hashes are then 0).
    pub set: Option<&'a VisitedSet>,
    pub goal_enabled: bool,
    /// Measure each parent's goal distance ([`Engine::measure_distance`]).
    pub measure_distance: bool,
    pub deadline: Option<Instant>,
    /// What queue entries carry of the move that reached them.
    pub tags: Tags,
}

/// One thread's copy of what expanding a position needs.
#[repr(align(128))]
pub(super) struct Worker {
    moves: MoveGenerator,
    encoding: Encoding,
    prunings: Prunings,
    state: State,
    list: Vec<Move>,
    key: Vec<u64>,
    /// The key decoded before `key`: `state` holds its position until the
    /// next is decoded (moves are undone), so that the next parent, often
    /// a sibling, is decoded from it by the blocks that differ.
    previous: Vec<u64>,
    successor: Vec<u64>,
}

impl Worker {
    fn new(
        moves: &MoveGenerator,
        encoding: &Encoding,
        params: &SearchParams,
        geometry: &Geometry,
        start: &State,
    ) -> Worker {
        let words = encoding.words();
        Worker {
            moves: moves.clone(),
            encoding: encoding.clone(),
            prunings: pruning::build(params, geometry),
            state: start.clone(),
            list: Vec::new(),
            key: vec![0; words],
            previous: vec![0; words],
            successor: vec![0; words],
        }
    }

    /// Expands the parents in `keys` (byte-packed, `entry_bytes` each: the
    /// key, then its tag's bytes if any) into `batch`. Over 80 lines: it
    /// is the search's hot loop, kept whole so that nothing in it is a call.
    pub fn expand(&mut self, keys: &[u8], entry_bytes: usize, ctx: &Context, batch: &mut Batch) {
        let tagged = ctx.tags != Tags::None;
        let key_bytes = entry_bytes - if tagged { TAG_BYTES } else { 0 };
        // Without prunings, with a key written from the parent's and a goal
        // read from the anchors, nothing reads a successor's owner map: a
        // move then sets the moved anchor only, and apply's and undo's
        // owner writes are left out.
        let anchors_only = self.prunings.is_empty()
            && !self.encoding.successor_reads_owner()
            && !(ctx.goal_enabled && ctx.geometry.goal_reads_owner());
        for (k, bytes) in keys.chunks(entry_bytes).enumerate() {
            if k % CLOCK_EVERY == CLOCK_EVERY - 1
                && ctx.deadline.is_some_and(|d| Instant::now() >= d)
            {
                batch.out_of_time = true;
                return;
            }
            std::mem::swap(&mut self.key, &mut self.previous);
            read_key(&bytes[..key_bytes], &mut self.key);
            // The first parent of a call is decoded whole: the state holds
            // the previous call's last parent, or the start.
            if k == 0 {
                self.encoding.decode(&self.key, &mut self.state);
            } else {
                self.encoding
                    .decode_after(&self.previous, &self.key, &mut self.state);
            }
            #[cfg(debug_assertions)]
            {
                let mut whole = self.state.clone();
                self.encoding.decode(&self.key, &mut whole);
                debug_assert_eq!(whole, self.state, "decoding from the previous parent");
            }
            // The block that moved last (decoding renumbers instances, so
            // the tag names the cell it stands on).
            let (skip, left_out) = match tagged {
                true => ctx
                    .tags
                    .skip(entry_tag(bytes), &self.state, ctx.forbidden.is_empty()),
                false => (Skip::NONE, 0),
            };
            batch.examined += 1;
            batch.generated += left_out;
            // How near the goal the search came.
            if ctx.measure_distance {
                let d = ctx.geometry.goal_distance(&self.state);
                if batch.best.is_none_or(|(b, _)| d < b) {
                    batch.best = Some((d, k as u64 + 1));
                }
            }
            self.prunings.prepare(&self.moves, &self.state);
            // Steps left out as commuting with the last still count as
            // generated (the branching factor is a feature).
            batch.generated +=
                self.moves
                    .generate_skipping(&self.state, skip, &mut self.list) as u64;
            for &m in &self.list {
                if anchors_only {
                    self.state.anchors[m.instance as usize] = m.to;
                } else {
                    self.moves.apply(&mut self.state, m);
                }
                if self.prunings.keep(&self.moves, &self.state, m) {
                    batch.generated += 1;
                    self.encoding
                        .encode_successor(&self.key, m, &self.state, &mut self.successor);
                    if !ctx
                        .forbidden
                        .iter()
                        .any(|f| f.get(&self.successor).is_some())
                    {
                        let h = ctx.set.map_or(0, |set| set.hash(&self.successor));
                        match self.successor[..] {
                            // One word (most keys): a push, not a copy call.
                            [word] => batch.keys.push(word),
                            _ => batch.keys.extend_from_slice(&self.successor),
                        }
                        // The parent is no goal (the start is checked
                        // before the search, every other parent when it
                        // was stored), so only a move of a block the goal
                        // names can reach one.
                        if ctx.goal_enabled
                            && ctx.geometry.in_goal(m.instance as usize)
                            && ctx.geometry.is_goal(&self.state)
                        {
                            batch.goals.push(batch.hashes.len() as u32);
                        }
                        batch.hashes.push(h);
                        if tagged {
                            batch.moved.push(ctx.tags.of_move(m, &self.moves));
                        }
                    }
                }
                if anchors_only {
                    self.state.anchors[m.instance as usize] = m.from;
                } else {
                    self.moves.undo(&mut self.state, m);
                }
            }
        }
    }
}
