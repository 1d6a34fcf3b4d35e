//! IDA* for one-blank tile puzzles (the 15- and 24-puzzle and their kin)
//! over their additive tables, on every thread.
//!
//! The general IDA* ([`super::ida`]) walks any puzzle through the move
//! generator and the heuristic's trait: about 1.8M positions a second on
//! the 24-puzzle, where Korf and Taylor's instances take 10^8 to 10^12
//! positions. Here the position is a cell per tile and a tile per cell, a
//! move is the blank's step to a neighbouring cell, and the estimate is
//! kept per depth as the two sums (plain and through the diagonal) of
//! Manhattan distance plus twice the table entries, of which a move
//! changes one entry each ([`Tables::child`]). A node's children are
//! evaluated together before the first is entered, so that their table
//! reads (two random reads of 64 MB tables each, the cost of a node) are in
//! flight at once; they are tried smallest estimate first, and a child
//! beyond the bound is never entered, nor one whose last moves end a move
//! string that an earlier string plays to the same position ([`cycles`]:
//! an automaton's state per depth, a step per move).
//!
//! Threads: each bound's tree is cut at the shallowest depth with enough
//! subtrees for every thread to take many ([`SUBTREES_PER_THREAD`]); the
//! threads take them in order from a shared counter, and the first to find
//! a goal stops the others (any goal within the bound is optimal, since the
//! bounds before it had none). The positions above the cut are examined
//! once, by the cut. `--max-positions` is handed out in quotas so that no
//! more are examined than it allows; the calling thread watches the clock,
//! memory and Ctrl-C through the engine as the other searches do.
//!
//! The estimate is the larger of the two sums; the general heuristic also
//! takes Manhattan distance plus linear conflict where that is larger,
//! which the tables all but always are, so node counts may differ by a
//! little between the two.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

mod cycles;

use super::{Ending, Engine, Limit};
use crate::heuristics::pdb::tiles::additive::{TileDatabases, NONE};
use crate::heuristics::pdb::tiles::index::{bits, PatternIndex, MAX_TILES};
use crate::heuristics::pdb::tiles::values::Values;
use crate::moves::{Move, State};
use cycles::{Automaton, DEAD};

/// Marks the blank in [`Board::at`], and "no cell".
const BLANK: u8 = u8::MAX;
/// Positions a thread examines between looks at the shared counters.
const QUOTA: u64 = 4096;
/// Subtrees per thread a bound's tree is cut into, at least.
const SUBTREES_PER_THREAD: usize = 256;

/// One lookup of a table, as the kernel reads it.
struct Lookup<'a> {
    index: &'a PatternIndex,
    values: &'a Values,
    sources: &'a [u16],
    map: &'a [u8],
    plain: bool,
}

/// What every thread reads and none writes.
struct Tables<'a> {
    lookups: Vec<Lookup<'a>>,
    /// Per tile: the lookups that read its cell (up to two).
    by_tile: &'a [[u16; 2]],
    /// Manhattan distance of tile t at cell c: `md[t * cells + c]`.
    md: &'a [u8],
    cells: usize,
    /// Per cell: its open neighbours, each with the direction the blank
    /// steps in to it (an index of [`cycles::STEPS`]).
    neighbors: Vec<Vec<(u8, u8)>>,
    /// The move strings never tried ([`cycles`]).
    cycles: &'static Automaton,
    /// Per tile: whether its distance counts in the plain and in the reflected sum.
    in_plain: Vec<bool>,
    in_reflected: Vec<bool>,
}

/// A position: a cell per tile and a tile per cell.
#[derive(Clone)]
struct Board {
    pos: Vec<u8>,
    at: Vec<u8>,
    blank: u8,
}

impl Board {
    /// Moves the tile at `cell` (a neighbour of the blank) into the blank.
    #[inline(always)]
    fn slide(&mut self, cell: u8) {
        let t = self.at[cell as usize];
        self.at[self.blank as usize] = t;
        self.pos[t as usize] = self.blank;
        self.at[cell as usize] = BLANK;
        self.blank = cell;
    }
}

/// A position's two sums and its tiles' Manhattan distance.
#[derive(Clone, Copy, Default)]
struct Sums {
    plain: u32,
    reflected: u32,
    md: u32,
}

impl Sums {
    #[inline(always)]
    fn h(self) -> u32 {
        self.plain.max(self.reflected)
    }
}

/// A child of the node on top of the path: the cell the blank moves to,
/// the moved tile's new entries in its lookups, the child's sums.
#[derive(Clone, Copy, Default)]
struct Kid {
    cell: u8,
    values: [u8; 2],
    sums: Sums,
    /// The estimate: the larger sum, or one sum alone when that already
    /// puts the child beyond the bound (the other lookup is not read).
    h: u32,
    /// The state of the forbidden strings' automaton after the move.
    state: u32,
}

/// A node on the path: its children, the next to try, and the cell the
/// blank came from (never stepped back to at once).
#[derive(Clone, Copy, Default)]
struct Frame {
    came_from: u8,
    kids: [Kid; 4],
    n: u8,
    next: u8,
}

impl<'a> Tables<'a> {
    fn new(db: &'a TileDatabases, instances: usize, cycles: &'static Automaton) -> Tables<'a> {
        let board = db.board();
        let (md, cells) = db.distances();
        let plain = db.plain_lookups();
        let lookups: Vec<Lookup> = db
            .lookups()
            .enumerate()
            .map(|(id, (index, values, sources, map))| Lookup {
                index,
                values,
                sources,
                map,
                plain: id < plain,
            })
            .collect();
        let (mut in_plain, mut in_reflected) = (vec![false; instances], vec![false; instances]);
        for l in &lookups {
            let counted = if l.plain {
                &mut in_plain
            } else {
                &mut in_reflected
            };
            for &s in l.sources {
                counted[s as usize] = true;
            }
        }
        let width = board.width as i32;
        let neighbors = (0..cells as u32)
            .map(|c| {
                let dir = |n: u32| {
                    let delta = n as i32 - c as i32;
                    let step = match delta {
                        1 | -1 => (0, delta),
                        _ => (delta / width, 0),
                    };
                    cycles::STEPS.iter().position(|&s| s == step)
                };
                bits(board.neighbors(1 << c))
                    .map(|n| (n as u8, dir(n).expect("a neighbour is one step away") as u8))
                    .collect()
            })
            .collect();
        Tables {
            lookups,
            by_tile: db.by_instance(),
            md,
            cells,
            neighbors,
            cycles,
            in_plain,
            in_reflected,
        }
    }

    /// The table index of lookup `l` at `board` with tile `t` moved to
    /// `cell` (`t` = [`BLANK`]: as it stands).
    #[inline(always)]
    fn index(&self, l: usize, board: &Board, t: u8, cell: u8) -> u64 {
        let lookup = &self.lookups[l];
        let mut cells = [0u32; MAX_TILES];
        for (x, &s) in cells.iter_mut().zip(lookup.sources) {
            let at = if s as u8 == t {
                cell
            } else {
                board.pos[s as usize]
            };
            *x = u32::from(lookup.map[at as usize]);
        }
        lookup.index.index(&cells[..lookup.sources.len()])
    }

    /// The entry of lookup `l` at `board` as it stands.
    fn value(&self, l: usize, board: &Board) -> u8 {
        self.lookups[l].values.get(self.index(l, board, BLANK, 0)) as u8
    }

    /// The sums of `board` from nothing, its entries written into `values`.
    fn evaluate(&self, board: &Board, values: &mut [u8]) -> Sums {
        let mut sums = Sums::default();
        for (t, &c) in board.pos.iter().enumerate() {
            let d = u32::from(self.md[t * self.cells + c as usize]);
            sums.md += d;
            sums.plain += d * u32::from(self.in_plain[t]);
            sums.reflected += d * u32::from(self.in_reflected[t]);
        }
        for (l, lookup) in self.lookups.iter().enumerate() {
            values[l] = self.value(l, board);
            let sum = if lookup.plain {
                &mut sums.plain
            } else {
                &mut sums.reflected
            };
            *sum += 2 * u32::from(values[l]);
        }
        sums
    }

    /// The child of `board` (sums `sums`) where the tile at `cell` moves
    /// into the blank, up to its table reads: its Manhattan part and the
    /// index its first lookup reads.
    #[inline(always)]
    fn pending(&self, board: &Board, sums: Sums, cell: u8) -> Pending {
        let t = board.at[cell as usize];
        let row = t as usize * self.cells;
        let (old, new) = (
            u32::from(self.md[row + cell as usize]),
            u32::from(self.md[row + board.blank as usize]),
        );
        let mut s = sums;
        s.md = s.md + new - old;
        if self.in_plain[t as usize] {
            s.plain = s.plain + new - old;
        }
        if self.in_reflected[t as usize] {
            s.reflected = s.reflected + new - old;
        }
        let first = self.by_tile[t as usize][0];
        Pending {
            kid: Kid {
                cell,
                values: [0; 2],
                sums: s,
                h: s.h(),
                state: 0,
            },
            tile: t,
            index: match first {
                NONE => 0,
                l => self.index(l as usize, board, t, board.blank),
            },
        }
    }

    /// Reads lookup `slot` of the moved tile at `p.index` into the child
    /// (the node's entries `values`). After the first, the child's `h` is
    /// the sum that lookup belongs to alone (the other may still change),
    /// a lower bound already; after the second, the larger of the two.
    #[inline(always)]
    fn read(&self, p: &mut Pending, slot: usize, values: &[u8]) {
        let lookups = self.by_tile[p.tile as usize];
        let l = lookups[slot];
        if l == NONE {
            return;
        }
        let lookup = &self.lookups[l as usize];
        let v = lookup.values.get(p.index) as u8;
        let kid = &mut p.kid;
        kid.values[slot] = v;
        let sum = if lookup.plain {
            &mut kid.sums.plain
        } else {
            &mut kid.sums.reflected
        };
        *sum = *sum + 2 * u32::from(v) - 2 * u32::from(values[l as usize]);
        kid.h = if slot == 0 && lookups[1] != NONE {
            *sum
        } else {
            kid.sums.h()
        };
    }

    /// Makes `p` ready for the second read: its index, `false` when the
    /// moved tile has no second lookup.
    #[inline(always)]
    fn second(&self, p: &mut Pending, board: &Board) -> bool {
        match self.by_tile[p.tile as usize][1] {
            NONE => false,
            l => {
                p.index = self.index(l as usize, board, p.tile, board.blank);
                true
            }
        }
    }
}

/// A child whose table reads are still to come.
#[derive(Clone, Copy, Default)]
struct Pending {
    kid: Kid,
    tile: u8,
    /// The index the next read reads.
    index: u64,
}

/// What one search below a node came to.
enum Outcome {
    Found,
    NotHere,
    /// Told to stop: why is in [`Shared`].
    Stop,
}

/// What the threads share during one bound.
struct Shared {
    stop: AtomicBool,
    /// Why the threads stopped, when it was a limit (set once).
    limit: Mutex<Option<Limit>>,
    /// Positions examined so far, flushed every [`QUOTA`].
    examined: AtomicU64,
    generated: AtomicU64,
    /// `--max-positions` not yet handed out (`u64::MAX`: no limit).
    remaining: AtomicU64,
    next_bound: AtomicU64,
    best_md: AtomicU64,
    /// The path of the first goal found: the blank's cells from the root.
    solution: Mutex<Option<Vec<u8>>>,
    /// The next subtree to take.
    next: AtomicUsize,
}

impl Shared {
    fn halt(&self, limit: Option<Limit>) {
        if let Some(l) = limit {
            let mut slot = self.limit.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(l);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Up to [`QUOTA`] positions from `--max-positions` (0: none left).
    fn take_quota(&self) -> u64 {
        let mut left = self.remaining.load(Ordering::Relaxed);
        loop {
            if left == u64::MAX {
                return QUOTA;
            }
            let take = left.min(QUOTA);
            if take == 0 {
                return 0;
            }
            match self.remaining.compare_exchange_weak(
                left,
                left - take,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return take,
                Err(now) => left = now,
            }
        }
    }
}

/// One thread's search: its position, path and counters.
struct Walker<'t, 'a> {
    tables: &'t Tables<'a>,
    board: Board,
    frames: Vec<Frame>,
    /// Per depth: the entries of every lookup.
    values: Vec<u8>,
    sums: Vec<Sums>,
    /// The blank's cells from the root to the node on top.
    path: Vec<u8>,
    quota: u64,
    examined: u64,
    generated: u64,
    best_md: u32,
    next_bound: u64,
    /// `--max-length`, or `u64::MAX`.
    max_length: u64,
    /// Depth at which nodes are not expanded but cut off as subtrees
    /// (`u32::MAX`: none); the cut ones are written to `leaves`.
    cut: u32,
    leaves: Vec<u8>,
    /// Where the blank came from into the root, and the automaton's state
    /// there.
    root_came_from: u8,
    root_state: u32,
}

impl<'t, 'a> Walker<'t, 'a> {
    fn new(tables: &'t Tables<'a>, board: Board, max_length: u64) -> Walker<'t, 'a> {
        Walker {
            tables,
            board,
            frames: Vec::new(),
            values: Vec::new(),
            sums: Vec::new(),
            path: Vec::new(),
            quota: 0,
            examined: 0,
            generated: 0,
            best_md: u32::MAX,
            next_bound: u64::MAX,
            max_length,
            cut: u32::MAX,
            leaves: Vec::new(),
            root_came_from: BLANK,
            root_state: 0,
        }
    }

    /// Adds this walker's counts to `shared` and takes a new quota;
    /// `false` when the search must stop.
    fn flush(&mut self, shared: &Shared) -> bool {
        self.hand_over(shared);
        if shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        self.quota = shared.take_quota();
        if self.quota == 0 {
            shared.halt(Some(Limit::Positions));
        }
        self.quota > 0
    }

    /// Lists the children of the node on top of the path (depth `d`,
    /// entered from `came_from` in the automaton's `state`) but those that
    /// end a forbidden string, smallest estimate first; `limit` is the most their path length
    /// `g` plus estimate may be (the bound, or `--max-length` if lower).
    /// Every child's first lookup is read, then the second of those the
    /// first leaves within the limit: the reads are cache misses (64 MB
    /// tables), independent ones overlap, and a child the first already
    /// puts beyond the bound (most of those cut) needs no second.
    #[inline(always)]
    fn expand(&mut self, d: usize, (came_from, state): (u8, u32), g: u64, limit: u64) {
        let stride = self.tables.lookups.len();
        let (sums, values) = (self.sums[d], &self.values[d * stride..(d + 1) * stride]);
        let mut frame = Frame {
            came_from,
            ..Frame::default()
        };
        let mut pending = [Pending::default(); 4];
        let n = &mut frame.n;
        for &(c, dir) in &self.tables.neighbors[self.board.blank as usize] {
            let next = self.tables.cycles.step(state, dir);
            if c != came_from && next != DEAD {
                let p = &mut pending[*n as usize];
                *p = self.tables.pending(&self.board, sums, c);
                p.kid.state = next;
                *n += 1;
            }
        }
        let pending = &mut pending[..frame.n as usize];
        for p in pending.iter_mut() {
            self.tables.read(p, 0, values);
        }
        let mut second = [false; 4];
        for (p, again) in pending.iter_mut().zip(&mut second) {
            *again = g + u64::from(p.kid.h) <= limit && self.tables.second(p, &self.board);
        }
        for (p, _) in pending.iter_mut().zip(second).filter(|(_, again)| *again) {
            self.tables.read(p, 1, values);
        }
        for (kid, p) in frame.kids.iter_mut().zip(pending.iter()) {
            *kid = p.kid;
        }
        let kids = &mut frame.kids[..frame.n as usize];
        kids.sort_unstable_by_key(|k| k.h);
        self.generated += u64::from(frame.n);
        if self.frames.len() <= d {
            self.frames.resize(d + 1, Frame::default());
        }
        self.frames[d] = frame;
    }

    /// Makes the current position the root (depth 0), reached by a move
    /// of the blank from `came_from` ([`BLANK`]: none) with the automaton
    /// in `state`.
    fn root(&mut self, (came_from, state): (u8, u32)) -> Sums {
        let stride = self.tables.lookups.len();
        self.values.resize(stride.max(1), 0);
        let sums = self
            .tables
            .evaluate(&self.board, &mut self.values[..stride]);
        self.sums.clear();
        self.sums.push(sums);
        (self.root_came_from, self.root_state) = (came_from, state);
        sums
    }

    /// Counts a position (Manhattan distance `md`) as examined; `false`
    /// when the search must stop (`--max-positions` spent, or told to).
    #[inline(always)]
    fn examine(&mut self, shared: &Shared, md: u32) -> bool {
        if self.quota == 0 && !self.flush(shared) {
            return false;
        }
        self.quota -= 1;
        self.examined += 1;
        self.best_md = self.best_md.min(md);
        true
    }

    /// Hands this walker's counts, next bound and unused quota back.
    fn finish(&mut self, shared: &Shared) {
        self.hand_over(shared);
        shared
            .next_bound
            .fetch_min(self.next_bound, Ordering::Relaxed);
        if shared.remaining.load(Ordering::Relaxed) != u64::MAX {
            shared.remaining.fetch_add(self.quota, Ordering::Relaxed);
        }
        self.quota = 0;
    }

    /// Adds the positions examined and generated since the last hand-over,
    /// and the best Manhattan distance, to `shared`.
    fn hand_over(&mut self, shared: &Shared) {
        shared.examined.fetch_add(self.examined, Ordering::Relaxed);
        shared
            .generated
            .fetch_add(self.generated, Ordering::Relaxed);
        shared
            .best_md
            .fetch_min(u64::from(self.best_md), Ordering::Relaxed);
        (self.examined, self.generated) = (0, 0);
    }

    /// Enters the child `kid` of the node at depth `d`: the position,
    /// its sums and entries one level down.
    #[inline(always)]
    fn descend(&mut self, d: usize, kid: Kid) {
        let stride = self.tables.lookups.len();
        let t = self.board.at[kid.cell as usize];
        self.board.slide(kid.cell);
        let need = (d + 2) * stride;
        if self.values.len() < need {
            self.values.resize(need, 0);
        }
        self.values
            .copy_within(d * stride..(d + 1) * stride, (d + 1) * stride);
        for (slot, &l) in self.tables.by_tile[t as usize].iter().enumerate() {
            if l != NONE {
                self.values[(d + 1) * stride + l as usize] = kid.values[slot];
            }
        }
        if self.sums.len() <= d + 1 {
            self.sums.resize(d + 2, Sums::default());
        }
        self.sums[d + 1] = kid.sums;
        self.path.push(kid.cell);
    }

    /// Undoes the move into the node at depth `d` (d >= 1).
    #[inline(always)]
    fn ascend(&mut self, d: usize) {
        self.board.slide(self.frames[d].came_from);
        self.path.pop();
    }

    /// The bounded depth-first search below the root (at path length
    /// `g0`, already examined and expanded). A hot loop: one iteration per
    /// child tried, so it is written out in one piece.
    fn search(&mut self, g0: u64, bound: u64, shared: &Shared) -> Outcome {
        let limit = bound.min(self.max_length);
        self.expand(0, (self.root_came_from, self.root_state), g0 + 1, limit);
        let mut d = 0usize;
        loop {
            let frame = &mut self.frames[d];
            if frame.next == frame.n {
                if d == 0 {
                    return Outcome::NotHere;
                }
                self.ascend(d);
                d -= 1;
                continue;
            }
            let kid = frame.kids[frame.next as usize];
            frame.next += 1;
            let g = g0 + d as u64 + 1;
            let f = g + u64::from(kid.h);
            if f > self.max_length {
                continue;
            }
            if f > bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let came_from = self.board.blank;
            self.descend(d, kid);
            d += 1;
            if kid.sums.md == 0 {
                return Outcome::Found;
            }
            if g == u64::from(self.cut) {
                self.leaves.extend_from_slice(&self.path);
                self.board.slide(came_from);
                self.path.pop();
                d -= 1;
                continue;
            }
            if !self.examine(shared, kid.sums.md) {
                return Outcome::Stop;
            }
            self.expand(d, (came_from, kid.state), g + 1, limit);
        }
    }
}

impl Shared {
    fn new(remaining: u64) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            limit: Mutex::new(None),
            examined: AtomicU64::new(0),
            generated: AtomicU64::new(0),
            remaining: AtomicU64::new(remaining),
            next_bound: AtomicU64::new(u64::MAX),
            best_md: AtomicU64::new(u64::MAX),
            solution: Mutex::new(None),
            next: AtomicUsize::new(0),
        }
    }
}

/// Whether this IDA* runs here: the heuristic is the pattern databases at
/// weight 1, on a one-blank tile puzzle, with no pruning, no locked tile
/// (the kernel moves every tile), no positions to
/// avoid and no best positions asked for. The caller builds the tables and
/// comes back with them ([`search`]).
pub fn applies(e: &Engine) -> bool {
    e.params.heuristic.name() == "pdb"
        && e.params.weight == 1.0
        && e.params.lock.is_empty()
        && e.prunings.is_empty()
        && e.forbidden.is_empty()
        && e.best_count == 0
        && crate::heuristics::pdb::tiles::TileBoard::new(e.puzzle, &e.geometry).is_some()
}

/// How one bound's search ended.
enum Bound {
    Found(Vec<u8>),
    Beyond(u64),
    Stop(Limit),
}

/// The automaton of the move strings the search of `start` never tries
/// ([`cycles`]), built before the tables are read so that the two never
/// take memory at once: strings up to 14 moves where the start is far
/// from the goal (Manhattan distance 50 or more: searches of minutes, for
/// which the 24-puzzle's 1 s and 300 MB of finding them pay many times
/// over), up to 12 otherwise (0.1 s), fewer under a tight --max-memory.
pub fn cycles(e: &Engine, start: &State) -> &'static Automaton {
    let board = crate::heuristics::pdb::tiles::TileBoard::new(e.puzzle, &e.geometry)
        .expect("the kernel applies");
    let md: u32 = (start.anchors.iter().zip(&board.goal))
        .map(|(&a, &g)| board.manhattan(a as u32, g))
        .sum();
    // Finding the strings takes memory --max-memory does not see (about
    // 300 MB for 14 moves on 5x5, 40 MB for 12, under 1 MB for 8): a tight
    // limit gets shorter strings.
    let budget = e.limits.max_memory.unwrap_or(u64::MAX);
    let depth = match (md >= 50, budget) {
        (true, b) if b >= 1 << 30 => 14,
        (_, b) if b >= 256 << 20 => 12,
        _ => 8,
    };
    Automaton::shared((board.width, board.height), depth)
}

/// IDA* from `start` over the tile tables `db` with the forbidden strings
/// of `cycles` (see the module's comment).
pub fn search(
    e: &mut Engine,
    start: &State,
    db: &TileDatabases,
    cycles: &'static Automaton,
) -> Ending {
    let tables = Tables::new(db, e.puzzle.instances(), cycles);
    let root = Board {
        pos: start.anchors.iter().map(|&a| a as u8).collect(),
        at: (0..tables.cells)
            .map(|c| match start.owner[c] {
                o if (o as usize) < e.puzzle.instances() => o as u8,
                _ => BLANK,
            })
            .collect(),
        blank: {
            let occupied = start.anchors.iter().fold(0u64, |m, &a| m | 1 << a);
            (db.board().open & !occupied).trailing_zeros() as u8
        },
    };
    let memory = crate::heuristics::Heuristic::memory_bytes(db) + cycles.bytes();
    e.stats.peak_memory = e.stats.peak_memory.max(memory);
    let max_length = e.limits.max_length.unwrap_or(u64::MAX);
    let mut probe = Walker::new(&tables, root.clone(), max_length);
    let sums = probe.root((BLANK, 0));
    if sums.md == 0 {
        return Ending::Found(vec![start.clone()]);
    }
    if u64::from(sums.h()) > max_length {
        return Ending::Exhausted;
    }
    // A first bound below the root's estimate would only find that estimate.
    let h = u64::from(sums.h());
    let mut bound = e.params.ida_limit.map_or(h, |l| u64::from(l).max(h));
    loop {
        e.progress.new_bound(bound, &e.stats);
        match one_bound(e, &tables, &root, bound, memory) {
            Bound::Found(path) => return Ending::Found(replay(e, start, &path)),
            Bound::Stop(limit) => {
                e.progress.new_bound(bound, &e.stats);
                return Ending::Stopped(limit);
            }
            Bound::Beyond(u64::MAX) => return Ending::Exhausted,
            Bound::Beyond(next) => bound = next,
        }
    }
}

/// The positions of the blank's `path` from `start`, as the general moves.
pub(in crate::search) fn replay(e: &mut Engine, start: &State, path: &[u8]) -> Vec<State> {
    let mut positions = vec![start.clone()];
    let mut s = start.clone();
    let mut moves = Vec::new();
    for &cell in path {
        moves.clear();
        e.moves.generate(&s, &mut moves);
        let m: Move = *moves
            .iter()
            .find(|m| m.from == u16::from(cell))
            .expect("the kernel's move is a move of the puzzle");
        e.moves.apply(&mut s, m);
        positions.push(s.clone());
    }
    positions
}

/// The `--max-positions` left (`u64::MAX`: no limit).
fn positions_left(e: &Engine) -> u64 {
    e.limits
        .max_positions
        .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined))
}

/// One bound's depth-first search on `e.params.threads` threads.
fn one_bound(e: &mut Engine, tables: &Tables, root: &Board, bound: u64, memory: u64) -> Bound {
    let threads = e.params.threads.max(1);
    let max_length = e.limits.max_length.unwrap_or(u64::MAX);
    let (shared, cut, leaves) = if threads == 1 {
        (Shared::new(positions_left(e)), 0, Vec::new())
    } else {
        match cut_tree(e, tables, root, bound, threads) {
            Ok(cut) => cut,
            Err(decided) => return decided,
        }
    };
    let count = if threads == 1 {
        1
    } else {
        leaves.len() / cut as usize
    };
    let (tx, rx) = mpsc::channel::<()>();
    let base = e.stats.examined;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (shared, leaves) = (&shared, &leaves);
            scope.spawn(move || {
                let mut w = Walker::new(tables, root.clone(), max_length);
                take_subtrees(&mut w, shared, leaves, (cut, count), bound);
                w.finish(shared);
                let _ = tx.send(());
            });
        }
        drop(tx);
        let mut done = 0;
        while done < threads {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(()) => done += 1,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    e.stats.examined = base + shared.examined.load(Ordering::Relaxed);
                    if let Some(limit) = e.over_limit(memory) {
                        shared.halt(Some(limit));
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    settle(e, base, &shared)
}

/// Adds a bound's counts to the engine's and says how it ended.
fn settle(e: &mut Engine, base: u64, shared: &Shared) -> Bound {
    e.stats.examined = base + shared.examined.load(Ordering::Relaxed);
    e.stats.generated += shared.generated.load(Ordering::Relaxed);
    let md = shared
        .best_md
        .load(Ordering::Relaxed)
        .min(u64::from(u32::MAX)) as u32;
    if md < e.stats.best_distance {
        e.stats.best_distance = md;
        e.stats.best_distance_positions = e.stats.examined;
    }
    let solution = shared
        .solution
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    if let Some(path) = solution {
        return Bound::Found(path);
    }
    let limit = *shared.limit.lock().unwrap_or_else(|p| p.into_inner());
    match limit {
        Some(limit) => Bound::Stop(limit),
        None => Bound::Beyond(shared.next_bound.load(Ordering::Relaxed)),
    }
}

/// The tree of one bound cut at the shallowest depth with at least
/// [`SUBTREES_PER_THREAD`] subtrees per thread: the shared state the
/// threads start from (the positions above the cut examined, its quota
/// spent), the depth, and the subtrees' paths one after another. `Err`
/// when the cut decided the bound (a goal above it, no subtree, a limit).
fn cut_tree(
    e: &mut Engine,
    tables: &Tables,
    root: &Board,
    bound: u64,
    threads: usize,
) -> Result<(Shared, u32, Vec<u8>), Bound> {
    let max_length = e.limits.max_length.unwrap_or(u64::MAX);
    let base = e.stats.examined;
    for cut in 1u32.. {
        let shared = Shared::new(positions_left(e));
        let mut w = Walker::new(tables, root.clone(), max_length);
        w.cut = cut;
        let sums = w.root((BLANK, 0));
        let outcome = match w.examine(&shared, sums.md) {
            true => w.search(0, bound, &shared),
            false => Outcome::Stop,
        };
        w.finish(&shared);
        let enough = w.leaves.len() / cut as usize >= threads * SUBTREES_PER_THREAD;
        match outcome {
            Outcome::Found => {
                *shared.solution.lock().unwrap_or_else(|p| p.into_inner()) = Some(w.path.clone());
                return Err(settle(e, base, &shared));
            }
            Outcome::Stop => return Err(settle(e, base, &shared)),
            Outcome::NotHere if w.leaves.is_empty() => return Err(settle(e, base, &shared)),
            Outcome::NotHere if enough => {
                // The threads examine the subtrees' roots; the cut's counts stand.
                shared.next_bound.store(u64::MAX, Ordering::Relaxed);
                let Bound::Beyond(_) = settle(e, base, &shared) else {
                    unreachable!("no goal and no limit in the cut")
                };
                let rest = Shared::new(shared.remaining.load(Ordering::Relaxed));
                rest.next_bound
                    .store(shared.next_bound.load(Ordering::Relaxed), Ordering::Relaxed);
                return Ok((rest, cut, w.leaves));
            }
            Outcome::NotHere => {}
        }
    }
    unreachable!("the cut deepens until it decides or has enough subtrees")
}

/// A thread's share of a bound: subtrees taken in turn until none is left
/// or the search stops (`count` subtrees of `cut` steps each in `leaves`;
/// cut 0: the one tree from the root).
fn take_subtrees(
    w: &mut Walker,
    shared: &Shared,
    leaves: &[u8],
    (cut, count): (u32, usize),
    bound: u64,
) {
    let root = w.board.clone();
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= count || shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let path = &leaves[i * cut as usize..(i + 1) * cut as usize];
        w.board.clone_from(&root);
        let (mut came_from, mut state) = (BLANK, 0);
        for &c in path {
            came_from = w.board.blank;
            let &(_, dir) = w.tables.neighbors[came_from as usize]
                .iter()
                .find(|(n, _)| *n == c)
                .expect("a subtree's path steps to neighbours");
            state = w.tables.cycles.step(state, dir);
            w.board.slide(c);
        }
        w.path.clear();
        w.path.extend_from_slice(path);
        let sums = w.root((came_from, state));
        if sums.md == 0 {
            // Only the one tree from the root can start at a goal (the cut
            // stops at goals above it); the caller answered that one already.
            *shared.solution.lock().unwrap_or_else(|p| p.into_inner()) = Some(w.path.clone());
            shared.halt(None);
            return;
        }
        if !w.examine(shared, sums.md) {
            return;
        }
        match w.search(u64::from(cut), bound, shared) {
            Outcome::Found => {
                let mut solution = shared.solution.lock().unwrap_or_else(|p| p.into_inner());
                solution.get_or_insert_with(|| w.path.clone());
                shared.halt(None);
                return;
            }
            Outcome::Stop => return,
            Outcome::NotHere => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::formats::{self, ImportOptions};
    use crate::model::Puzzle;
    use crate::params::{Algorithm, Heuristic, Limits, SearchParams};
    use crate::search::run::{solve, SolveOptions};
    use crate::search::test_boxes::solution_steps;

    /// A 24-puzzle `steps` random moves of the blank from the goal (Korf's
    /// layout, the blank first), never straight back.
    fn scramble(rng: &mut ChaCha8Rng, steps: usize) -> Puzzle {
        let mut tiles: Vec<usize> = (0..25).collect();
        let (mut blank, mut last) = (0usize, usize::MAX);
        for _ in 0..steps {
            let (r, c) = (blank / 5, blank % 5);
            let near: Vec<usize> = [(r > 0, blank.wrapping_sub(5)), (r < 4, blank + 5)]
                .into_iter()
                .chain([(c > 0, blank.wrapping_sub(1)), (c < 4, blank + 1)])
                .filter(|&(ok, n)| ok && n != last)
                .map(|(_, n)| n)
                .collect();
            let next = near[rng.gen_range(0..near.len())];
            tiles.swap(blank, next);
            (last, blank) = (blank, next);
        }
        let line: Vec<String> = tiles.iter().map(usize::to_string).collect();
        formats::tiles::parse(&line.join(" "), "scramble", &ImportOptions::default())
            .expect("a 24-puzzle line")
            .remove(0)
    }

    /// IDA* on the tile kernel with the automatic 5x5 tables (6-6-6-6 and
    /// the diagonal) returns, on one thread and on two, a solution the
    /// verifier accepts and as short as BFS's, on scrambles too deep for
    /// the breadth-first probe that runs before it (so the kernel answers);
    /// `--max-positions` stops it having examined no more than it allows.
    #[test]
    fn ida_on_the_tile_kernel_is_as_short_as_bfs_on_24_puzzle_scrambles() {
        let mut rng = ChaCha8Rng::seed_from_u64(24);
        let bfs = SearchParams {
            algorithm: Algorithm::Bfs,
            ..SearchParams::default()
        };
        let ida = |threads| SearchParams {
            algorithm: Algorithm::Ida,
            heuristic: Heuristic::new("pdb"),
            threads,
            ..SearchParams::default()
        };
        let deep = Limits {
            max_positions: Some(1_500_000),
            ..Limits::default()
        };
        let mut checked = 0;
        while checked < 3 {
            let p = scramble(&mut rng, 18);
            let Some(shortest) = solution_steps(&p, &bfs, &deep) else {
                continue; // deeper than BFS settles here
            };
            if shortest < 14 {
                continue; // the probe (100,000 positions) would answer
            }
            for threads in [1, 2] {
                let out = solve(&p, &ida(threads), &Limits::default(), SolveOptions::quiet())
                    .expect("IDA* serves the puzzle");
                let moves = out.solution.expect("solved");
                let replay = crate::verify::replay(&p, &moves).expect("legal moves");
                assert!(replay.solved, "{threads} threads: not a solution");
                assert_eq!(replay.steps, shortest, "{threads} threads");
                assert_eq!(out.stats.stored, 0, "the breadth-first probe answered");
            }
            checked += 1;
        }
        // Korf and Taylor's instance 2 (95 steps) takes 10^8 positions.
        let line = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
        let p = formats::tiles::parse(line, "korf24", &ImportOptions::default()).unwrap();
        let capped = Limits {
            max_positions: Some(150_000),
            ..Limits::default()
        };
        for threads in [1, 2] {
            let out = solve(&p[0], &ida(threads), &capped, SolveOptions::quiet()).expect("runs");
            assert!(out.solution.is_none(), "{threads} threads");
            assert_eq!(out.stats.examined, 150_000, "{threads} threads");
        }
    }
}
