//! Breadth-first search for one-blank tile puzzles of up to 16 cells (the
//! 15-puzzle, the 8-puzzle and their kin with walls), on a word per
//! position.
//!
//! The general BFS decodes every parent into a [`State`], asks the move
//! generator for its moves, encodes each successor and keeps two queues of
//! keys beside the visited set: about 3M positions a second and 28 bytes
//! per examined position on Korf's first instance. Here a position is a
//! nibble per open cell (0 the blank, else the tile's instance plus one),
//! the blank is the one zero nibble (found by a word's arithmetic), a move
//! is an addition, and the visited set is the only store:
//!
//! - each slot is one word: a bijective hash ([`mix`]) of the position's
//!   first 15 nibbles (the 16th of a full 4x4 board is what the others
//!   leave out: their XOR), the direction in which the blank last stepped
//!   (2 bits, all the walk back from the goal needs), and a 2-bit tag: the
//!   position is in the layer being expanded, in the next one, or
//!   expanded. So a layer is found by scanning the table for its tag (64
//!   slots to a mask at a time), with no queue of keys at all;
//! - the table is cut into [`SHARDS`] open-addressing shards by the hash's
//!   top bits, each grown on its own (a growth holds one shard twice, not
//!   the table), on huge pages ([`Slots`]), and sized at each layer for the
//!   keys to be expected up to the position cap ([`to_reserve`]), so that
//!   it grows seldom and ends near [`RESERVE_LOAD`];
//! - a layer goes in rounds: every shard's next parents are expanded into
//!   per-destination batches of successors, then every shard inserts the
//!   batches bound for it, with the slots of successors a few ahead
//!   prefetched. The threads take the shards in turn, and a shard's work
//!   does not depend on which thread does it, so the counts and the
//!   solution are the same for any number of threads.
//!
//! The graph is bipartite (the blank's cell changes colour each move), so
//! no successor of a layer lies in the layer itself, and the step back to
//! the parent is left out unseen: it is in the set.
//!
//! Korf's instance 1 at 5M positions examined (`experiments/bench.md`):
//! 9.4M positions a second on one thread against 3.6M, 97 MB resident
//! against 146 MB.

use super::{add_part, Layer, CHUNK_WORDS};
use crate::encoding::Encoding;
use crate::geometry::Geometry;
use crate::heuristics::pdb::tiles::TileBoard;
use crate::model::Puzzle;
use crate::moves::State;
use crate::params::{Algorithm, SearchParams};
use crate::pruning::Prunings;
use crate::search::crew::Crew;
use crate::search::{Ending, Engine, Limit};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Shards of the visited set: enough that each thread has many and that a
/// growth's second copy of one shard costs little; a fixed number, so
/// that the order of work is the same on any number of threads.
const SHARDS: usize = 1 << SHARD_BITS;
const SHARD_BITS: u32 = 4;

/// Fill of a shard a layer's reservation aims at: the table ends near it,
/// 8.9 bytes per stored key (the 15-puzzle at 5M positions examined: 19
/// bytes per examined position, the process included, against 20.2 at
/// 0.85 and about 5% less time).
const RESERVE_LOAD: f64 = 0.9;

/// Fill of a shard above which it grows, when a layer brought more keys
/// than foreseen.
const MAX_LOAD: f64 = 0.93;

/// A shard grows by this factor when a layer brought more keys than
/// foreseen.
const GROWTH: f64 = 1.5;

/// Parents a shard gives a round: 64K parents a round, whose batches of
/// successors (about 2 a parent on the 15-puzzle, a word each) take 1 MB.
/// Korf 1 at 5M, medians of eight alternating runs, one and two threads:
/// 16K a round 0.578 and 0.357 s, 32K 0.550 and 0.335 s, 64K 0.547 and
/// 0.329 s; 128K a little faster still (0.472 and 0.284 s against 0.493
/// and 0.299 s in a calmer spell) but 1.4 MB more resident.
const ROUND: usize = 4 * CHUNK_WORDS / SHARDS;

/// How many successors ahead of the insertion their slots are prefetched.
const PREFETCH_AHEAD: usize = 16;

/// Tag bits of a slot: expanded (or the start, before its layer).
const DONE: u64 = 0;

/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// Whether a search with these parameters could run here, whatever the
/// encoding: a BFS in memory with no pruning and no locked tiles
/// (`--lock`: the kernel moves every tile) that hands no visited set on
/// (`--keep-visited`), on a one-blank tile puzzle of at most 16 open cells
/// whose goal places every tile. `--encoding auto` takes packed keys for
/// it (`encoding/choice.rs`).
pub fn may_apply(
    params: &SearchParams,
    prunings: &Prunings,
    puzzle: &Puzzle,
    geometry: &Geometry,
) -> bool {
    params.algorithm == Algorithm::Bfs
        && params.spill.is_none()
        && !params.keep_visited
        && params.lock.is_empty()
        && prunings.is_empty()
        && TileBoard::new(puzzle, geometry).is_some_and(|b| b.n <= 16)
}

/// Whether this BFS runs here: it [`may_apply`], the encoding is packed or
/// sets (both [`Encoding::Packed`]: the kernel's key is a packed key of
/// the same width), and nothing asks for the visited set afterwards
/// (`--best-out`) or gives positions to avoid.
pub fn applies(e: &Engine) -> bool {
    matches!(e.encoding, Encoding::Packed(_))
        && !e.keep_for_best()
        && e.forbidden.is_empty()
        && may_apply(&e.params, &e.prunings, e.puzzle, &e.geometry)
}

/// The board as the kernel sees it: open cells numbered in order.
struct Layout {
    /// Open cells.
    n: usize,
    /// The board cell of each open cell.
    cell: [u8; 16],
    /// Per open cell and direction (up, down, left, right: a direction
    /// and its reverse differ in the last bit), the open neighbour.
    next: [[u8; 4]; 16],
    /// Goal distance owed by the value v at open cell c: `dist[c][v]`.
    dist: [[u8; 16]; 16],
    /// The goal's word.
    goal: u64,
}

impl Layout {
    fn new(e: &Engine, board: &TileBoard) -> Layout {
        let mut cell = [0u8; 16];
        let mut index = [NONE; 64];
        let mut n = 0;
        for c in 0..64u8 {
            if board.open >> c & 1 == 1 {
                (cell[n], index[c as usize]) = (c, n as u8);
                n += 1;
            }
        }
        let (w, h) = (board.width as i32, board.height as i32);
        let mut next = [[NONE; 4]; 16];
        for k in 0..n {
            let (x, y) = (cell[k] as i32 % w, cell[k] as i32 / w);
            for (d, (dx, dy)) in [(0, -1), (0, 1), (-1, 0), (1, 0)].into_iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if (0..w).contains(&nx) && (0..h).contains(&ny) {
                    next[k][d] = index[(ny * w + nx) as usize];
                }
            }
        }
        // Each tile's share of the goal distance, read off the engine's own
        // measure with every other tile on its goal.
        let mut probe = State::new(e.puzzle);
        let home: Vec<u16> = board.goal.iter().map(|&g| g as u16).collect();
        let mut dist = [[0u8; 16]; 16];
        let mut goal = 0u64;
        for (i, &g) in board.goal.iter().enumerate() {
            goal |= (i as u64 + 1) << (4 * index[g as usize] as u64);
            for k in 0..n {
                probe.anchors.clone_from(&home);
                probe.anchors[i] = u16::from(cell[k]);
                let d = e.geometry.goal_distance(&probe);
                dist[k][i + 1] = d.min(255) as u8;
            }
        }
        Layout {
            n,
            cell,
            next,
            dist,
            goal: goal & LOW,
        }
    }

    /// The whole word of a stored key: the 16th nibble of a full board
    /// restored as the XOR of the others (that of 0 to 15 is 0).
    #[inline(always)]
    fn full(&self, low: u64) -> u64 {
        if self.n < 16 {
            return low;
        }
        let mut x = low;
        x ^= x >> 32;
        x ^= x >> 16;
        x ^= x >> 8;
        x ^= x >> 4;
        low | (x & 15) << 60
    }

    /// The open cell of the blank: the lowest zero nibble (cells beyond the
    /// board's are zero too, but above it).
    #[inline(always)]
    fn blank(full: u64) -> usize {
        const ONES: u64 = 0x1111_1111_1111_1111;
        const HIGHS: u64 = 0x8888_8888_8888_8888;
        let zero = full.wrapping_sub(ONES) & !full & HIGHS;
        zero.trailing_zeros() as usize / 4
    }

    /// The goal distance of a position.
    #[inline]
    fn distance(&self, full: u64) -> u32 {
        (0..self.n)
            .map(|k| u32::from(self.dist[k][(full >> (4 * k) & 15) as usize]))
            .sum()
    }

    /// The position after the blank at `b` steps to `c`.
    #[inline(always)]
    fn step(full: u64, b: usize, c: usize) -> u64 {
        let t = full >> (4 * c) & 15;
        full + (t << (4 * b)) - (t << (4 * c))
    }
}

/// The 60 bits of a position a slot keeps.
const LOW: u64 = (1 << 60) - 1;

/// A slot's word: the key's hash ([`mix`]), the blank's last direction,
/// the tag.
#[inline(always)]
fn slot(h: u64, dir: u64, tag: u64) -> u64 {
    h << 4 | dir << 2 | tag
}

/// The multipliers of [`mix`] (odd, so invertible mod 2^60).
const MUL: [u64; 2] = [0x7fb5_d329_728e_a185, 0x81da_def4_bc2d_d44d];

/// The inverse of an odd `m` mod 2^64 (so also mod 2^60), by Newton's
/// iteration: each step doubles the bits that are right.
const fn inverse(m: u64) -> u64 {
    let mut x = m;
    let mut k = 0;
    while k < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(x)));
        k += 1;
    }
    x
}

const UNMUL: [u64; 2] = [inverse(MUL[0]), inverse(MUL[1])];

/// A bijection of the 60-bit keys, stored instead of the key: its top bits
/// pick the shard and the next ones the slot, so that neither a shard's
/// growth nor the insertion of a successor hashes again, and the slots
/// stay in the order of their homes, which a growth reads and writes in
/// turn. Each xorshift by 30 bits or more undoes itself.
#[inline(always)]
fn mix(low: u64) -> u64 {
    let mut x = low.wrapping_mul(MUL[0]) & LOW;
    x ^= x >> 30;
    x = x.wrapping_mul(MUL[1]) & LOW;
    x ^ x >> 31
}

/// The key of a hash ([`mix`] undone).
#[inline(always)]
fn unmix(h: u64) -> u64 {
    let mut x = h ^ h >> 31;
    x = x.wrapping_mul(UNMUL[1]) & LOW;
    x ^= x >> 30;
    x.wrapping_mul(UNMUL[0]) & LOW
}

/// The shard of a hash.
#[inline(always)]
fn shard_of(h: u64) -> usize {
    (h >> (60 - SHARD_BITS)) as usize
}

/// Bytes of a huge page (x86-64 and most 64-bit Linux systems).
const HUGE_PAGE: usize = 2 << 20;

/// A shard's slots: zeroed words starting at a huge page's boundary when
/// there are many, on huge pages where the system gives them when asked
/// (Linux's `madvise` mode). A successor's slot is a random one of 85 MB
/// on the 15-puzzle at 5M positions examined: with 4-KiB pages nearly
/// every one also missed the TLB, and an allocation's own start is
/// seldom a huge page's, so the slots start at the first boundary inside
/// an allocation of a huge page more (whose head is never touched, so it
/// takes no memory).
struct Slots {
    words: Vec<u64>,
    start: usize,
    len: usize,
}

impl Slots {
    fn zeroed(len: usize) -> Slots {
        if len * 8 < 2 * HUGE_PAGE {
            return Slots {
                words: vec![0; len],
                start: 0,
                len,
            };
        }
        let words = vec![0u64; len + HUGE_PAGE / 8];
        let address = words.as_ptr() as usize;
        let start = (address.next_multiple_of(HUGE_PAGE) - address) / 8;
        #[cfg(target_os = "linux")]
        // SAFETY: advice on whole pages inside `words`' allocation; it
        // changes how they are backed, never their contents.
        unsafe {
            let from = address + start * 8;
            libc::madvise(
                from as *mut libc::c_void,
                len * 8 / HUGE_PAGE * HUGE_PAGE,
                libc::MADV_HUGEPAGE,
            );
        }
        Slots { words, start, len }
    }
}

impl std::ops::Deref for Slots {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.words[self.start..self.start + self.len]
    }
}

impl std::ops::DerefMut for Slots {
    fn deref_mut(&mut self) -> &mut [u64] {
        &mut self.words[self.start..self.start + self.len]
    }
}

/// One shard: an open-addressing table of slots (0: empty), and the scan's
/// place in it.
struct Shard {
    slots: Slots,
    len: usize,
    /// Keys above which the shard grows ([`MAX_LOAD`] of its slots).
    limit: usize,
    cursor: usize,
    /// What the last round's insertion stored here: the goal, new keys.
    found: bool,
    new: u64,
}

impl Shard {
    fn new() -> Shard {
        Shard {
            slots: Slots::zeroed(64),
            len: 0,
            limit: (64.0 * MAX_LOAD) as usize,
            cursor: 0,
            found: false,
            new: 0,
        }
    }

    /// The home slot of a hash: its 32 bits below the shard's.
    #[inline(always)]
    fn home(&self, h: u64) -> usize {
        (((h >> (28 - SHARD_BITS) & 0xffff_ffff) * self.slots.len() as u64) >> 32) as usize
    }

    #[inline(always)]
    fn prefetch(&self, h: u64) {
        super::prefetch_word(&self.slots[self.home(h)]);
    }

    /// Stores `word` (a [`slot`]) unless its key is there; true when new.
    #[inline(always)]
    fn insert(&mut self, word: u64) -> bool {
        let h = word >> 4;
        if self.len == self.limit {
            self.grow(self.grown());
        }
        let n = self.slots.len();
        let mut i = self.home(h);
        loop {
            let s = self.slots[i];
            if s == 0 {
                self.slots[i] = word;
                self.len += 1;
                return true;
            }
            if s >> 4 == word >> 4 {
                return false;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// The slot of the key whose hash is `h`, if stored.
    fn get(&self, h: u64) -> Option<u64> {
        let n = self.slots.len();
        let mut i = self.home(h);
        loop {
            match self.slots[i] {
                0 => return None,
                s if s >> 4 == h => return Some(s),
                _ => i = (i + 1) % n,
            }
        }
    }

    /// Slots after a growth by [`GROWTH`], when it fills.
    fn grown(&self) -> usize {
        (self.slots.len() as f64 * GROWTH) as usize
    }

    /// Moves the slots into a table of `size` slots; the scan starts over
    /// (the expanded slots it passes again are tagged so).
    fn grow(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, Slots::zeroed(size));
        (self.len, self.limit, self.cursor) = (0, (size as f64 * MAX_LOAD) as usize, 0);
        for &s in old.iter().filter(|&&s| s != 0) {
            self.insert(s);
        }
    }

    fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}

/// What a shard's parents of one round brought: successors per
/// destination shard (as slots tagged for the next layer), and counters.
struct Lane {
    out: Vec<Vec<u64>>,
    examined: u64,
    generated: u64,
    /// The least goal distance and which of the round's parents had it
    /// (counted from 1).
    best: Option<(u32, u64)>,
    /// Parents this round may take from the shard.
    quota: usize,
}

impl Lane {
    fn new() -> Lane {
        Lane {
            out: (0..SHARDS).map(|_| Vec::new()).collect(),
            examined: 0,
            generated: 0,
            best: None,
            quota: 0,
        }
    }

    fn bytes(&self) -> usize {
        self.out.iter().map(|o| o.capacity() * 8).sum()
    }
}

/// What every round reads: the board, the layer's tags, the start (the
/// one position with no step back) and the goal, whether to measure
/// distances.
struct Round<'a> {
    layout: &'a Layout,
    current: u64,
    next: u64,
    /// The hashes ([`mix`]) of the start and of the goal.
    start: u64,
    goal: u64,
    measure: bool,
}

impl Round<'_> {
    /// Expands up to the lane's quota of the shard's parents of the
    /// current layer, from where its scan stands. A hot loop.
    fn expand(&self, shard: &mut Shard, lane: &mut Lane) {
        for o in lane.out.iter_mut() {
            o.clear();
        }
        (lane.examined, lane.generated, lane.best) = (0, 0, None);
        let n = shard.slots.len();
        let slots = &mut shard.slots;
        let mut i = shard.cursor;
        // The slots are read 64 at a time into a mask of the current
        // layer's (an empty slot's tag is 0, never a layer's): a slot at a
        // time, the branch on its tag missed about as often as not and
        // the scan took a third of the expansion.
        'scan: while i < n {
            let end = (i + 64).min(n);
            let mut mask = 0u64;
            for (k, &s) in slots[i..end].iter().enumerate() {
                mask |= u64::from(s & 3 == self.current) << k;
            }
            while mask != 0 {
                let at = i + mask.trailing_zeros() as usize;
                if lane.examined as usize == lane.quota {
                    i = at;
                    break 'scan;
                }
                mask &= mask - 1;
                let s = slots[at];
                slots[at] = s & !3 | DONE;
                self.expand_one(s, lane);
            }
            i = end;
        }
        shard.cursor = i;
    }

    /// Expands the position of slot `s` into the lane.
    #[inline(always)]
    fn expand_one(&self, s: u64, lane: &mut Lane) {
        lane.examined += 1;
        let full = self.layout.full(unmix(s >> 4));
        if self.measure {
            let d = self.layout.distance(full);
            if lane.best.is_none_or(|(b, _)| d < b) {
                lane.best = Some((d, lane.examined));
            }
        }
        let b = Layout::blank(full);
        let back = match s >> 4 == self.start {
            true => NONE as u64,
            false => (s >> 2 & 3) ^ 1,
        };
        for (d, &c) in self.layout.next[b].iter().enumerate() {
            if c == NONE {
                continue;
            }
            lane.generated += 1;
            if d as u64 == back {
                continue;
            }
            let h = mix(Layout::step(full, b, c as usize) & LOW);
            lane.out[shard_of(h)].push(slot(h, d as u64, self.next));
        }
    }

    /// Inserts the round's successors bound for shard `dst`, in the
    /// order of their source shards. A hot loop.
    fn insert(&self, dst: usize, shard: &mut Shard, lanes: &[&Lane]) {
        (shard.found, shard.new) = (false, 0);
        // A batch holds a few successors (a round's parents of one shard
        // bound for one other): the slots are asked for [`PREFETCH_AHEAD`]
        // successors ahead across the batches.
        let batches = lanes.iter().flat_map(|lane| lane.out[dst].iter());
        let mut ahead = batches.clone().skip(PREFETCH_AHEAD);
        for &w in batches {
            if let Some(&a) = ahead.next() {
                shard.prefetch(a >> 4);
            }
            if shard.insert(w) {
                shard.new += 1;
                shard.found |= w >> 4 == self.goal;
            }
        }
    }
}

/// The visited set and the rounds' batches: a shard and a lane for each
/// shard index. Between the rounds' steps the threads take the shards in
/// turn from a counter, so that a thread slowed down (by the other
/// processes of a shared machine) takes fewer; what a shard's work does
/// does not depend on the thread.
struct Table {
    shards: Vec<Mutex<Shard>>,
    lanes: Vec<Mutex<Lane>>,
}

/// The value behind a lock no thread holds (a worker's panic is raised by
/// the crew, so a poisoned lock is never read on).
fn inner<T>(m: &mut Mutex<T>) -> &mut T {
    m.get_mut().unwrap_or_else(|p| p.into_inner())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Table {
    fn new() -> Table {
        Table {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::new())).collect(),
            lanes: (0..SHARDS).map(|_| Mutex::new(Lane::new())).collect(),
        }
    }

    /// The slot of a key, if stored.
    fn get(&mut self, low: u64) -> Option<u64> {
        let h = mix(low);
        inner(&mut self.shards[shard_of(h)]).get(h)
    }

    fn len(&mut self) -> u64 {
        self.shards.iter_mut().map(|s| inner(s).len as u64).sum()
    }

    fn bytes(&mut self) -> u64 {
        let shards: usize = self.shards.iter_mut().map(|s| inner(s).bytes()).sum();
        let lanes: usize = self.lanes.iter_mut().map(|l| inner(l).bytes()).sum();
        (shards + lanes) as u64
    }

    /// Sends every shard's scan back to its start, for a new layer.
    fn rewind(&mut self) {
        for s in self.shards.iter_mut() {
            inner(s).cursor = 0;
        }
    }

    /// Shares `left` parents out among the shards, [`ROUND`] each while
    /// there are enough; else in shard order among those whose scan has
    /// not reached the end, so that a round always moves some scan on.
    fn share(&mut self, left: u64) {
        let mut rest = left.min(usize::MAX as u64) as usize;
        let even = rest >= ROUND * SHARDS;
        for (shard, lane) in self.shards.iter_mut().zip(self.lanes.iter_mut()) {
            let shard = inner(shard);
            let quota = match (even, shard.cursor < shard.slots.len()) {
                (true, _) => ROUND,
                (false, true) => ROUND.min(rest),
                (false, false) => 0,
            };
            rest -= quota.min(rest);
            inner(lane).quota = quota;
        }
    }

    /// Whether every shard's scan has reached its end: the layer is done.
    fn scanned(&mut self) -> bool {
        self.shards.iter_mut().all(|s| {
            let s = inner(s);
            s.cursor >= s.slots.len()
        })
    }

    /// Makes every shard ready for its share of `more` new keys, where the
    /// memory left allows. On one thread: the growth is mostly the
    /// kernel's zeroing of new pages, and two threads faulting at once
    /// took longer than one here (a virtual machine: Korf 1 at 5M on two
    /// threads 0.454 s against 0.397 s, medians of eight).
    fn reserve(&mut self, more: usize, budget: u64) {
        let per = more / SHARDS;
        let size = |sh: &Shard| ((sh.len + per) as f64 / RESERVE_LOAD) as usize + 1;
        let extra: usize = (self.shards.iter_mut())
            .map(|sh| {
                let sh = inner(sh);
                size(sh).saturating_sub(sh.slots.len()) * 8
            })
            .sum();
        if extra as u64 <= budget {
            for sh in self.shards.iter_mut().map(inner) {
                if size(sh) > sh.slots.len() {
                    sh.grow(size(sh));
                }
            }
        }
    }

    /// One round's expansion: every shard's parents, the shards taken in
    /// turn by the crew's threads.
    fn expand(&mut self, crew: &Crew, round: &Round) {
        let (shards, lanes) = (&self.shards, &self.lanes);
        in_turn(crew, |i| {
            round.expand(&mut lock(&shards[i]), &mut lock(&lanes[i]))
        });
    }

    /// One round's insertion: every shard's successors, in turn as above.
    fn insert(&mut self, crew: &Crew, round: &Round) {
        let lanes: Vec<&Lane> = self.lanes.iter_mut().map(|l| &*inner(l)).collect();
        let shards = &self.shards;
        in_turn(crew, |i| round.insert(i, &mut lock(&shards[i]), &lanes));
    }

    /// Bytes the round's insertion could add at most: every shard its
    /// successors might fill past its limit grows by half, and holds both
    /// copies meanwhile. Checked against `--max-memory` before inserting,
    /// as the general BFS does, so that a growth never takes the search
    /// past the limit.
    fn growth(&mut self) -> u64 {
        let mut incoming = [0usize; SHARDS];
        for lane in self.lanes.iter_mut().map(inner) {
            for (n, out) in incoming.iter_mut().zip(&lane.out) {
                *n += out.len();
            }
        }
        let shards = self.shards.iter_mut().map(inner);
        (shards.zip(incoming))
            .filter(|(sh, n)| sh.len + n >= sh.limit)
            .map(|(sh, _)| sh.grown() as u64 * 8)
            .sum()
    }

    /// What the round's insertion stored: new keys, and whether the goal.
    fn stored(&mut self) -> (u64, bool) {
        let shards = self.shards.iter_mut().map(inner);
        shards.fold((0, false), |(n, f), s| (n + s.new, f || s.found))
    }
}

/// Runs `work(i)` for every shard index, the crew's threads taking the
/// indices in turn from a counter.
fn in_turn(crew: &Crew, work: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    crew.each(&mut vec![(); crew.size()], |_, _| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= SHARDS {
            break;
        }
        work(i);
    });
}

/// Adds the round's counters to the engine's, in shard order; the parents
/// of the round.
fn tally(e: &mut Engine, table: &mut Table) -> u64 {
    let mut taken = 0;
    for lane in table.lanes.iter_mut().map(inner) {
        add_part(e, lane.best, lane.examined, lane.generated);
        taken += lane.examined;
    }
    taken
}

/// Breadth-first search from `start` (see the module), where [`applies`].
pub fn search(e: &mut Engine, start: &State) -> Ending {
    if e.is_goal(start) {
        e.examine(start);
        e.stats.stored = 1;
        return Ending::Found(vec![start.clone()]);
    }
    let board = TileBoard::new(e.puzzle, &e.geometry).expect("the kernel applies");
    let layout = Layout::new(e, &board);
    let crew = Crew::new(e.params.threads.clamp(1, SHARDS) - 1);
    let mut table = Table::new();
    let low = word_of(&layout, start);
    inner(&mut table.shards[shard_of(mix(low))]).insert(slot(mix(low), 0, 1));
    let outcome = layers(e, &layout, &mut table, &crew, low);
    e.stats.stored = table.len();
    e.stats.peak_memory = e.stats.peak_memory.max(table.bytes());
    match outcome {
        Outcome::End(ending) => ending,
        Outcome::Goal => {
            let path = walk_back(&layout, &mut table, low);
            Ending::Found(crate::search::tiles::replay(e, start, &path))
        }
    }
}

/// How [`layers`] ended.
enum Outcome {
    End(Ending),
    /// The goal is stored.
    Goal,
}

/// The layers until one is empty, a limit stops the search or the goal is
/// stored: at each layer's start the table is made ready, then rounds of
/// expansion, the limits, and insertion.
fn layers(e: &mut Engine, layout: &Layout, table: &mut Table, crew: &Crew, start: u64) -> Outcome {
    let mut depth = 0u64;
    let mut layer = Layer::default();
    let mut queued = 1u64;
    let left = |e: &Engine| {
        e.limits
            .max_positions
            .map_or(u64::MAX, |m| m.saturating_sub(e.stats.examined))
    };
    loop {
        if !e.within_length(depth + 1, 0) {
            return Outcome::End(Ending::Exhausted); // --max-length: the next layer would be too deep
        }
        let cap = left(e);
        let expected = layer.next(queued, cap);
        let budget = e.memory_left(table.bytes());
        table.reserve(to_reserve(expected, queued.min(cap), cap), budget);
        table.rewind();
        let round = Round {
            layout,
            current: 1 + (depth & 1),
            next: 1 + ((depth + 1) & 1),
            start: mix(start),
            goal: mix(layout.goal),
            measure: e.measure_distance,
        };
        let mut new = 0;
        loop {
            // With no parents left to take, the round's scans still run to
            // the next parent of each shard: where there is none, the cap
            // fell at the layer's end, which then ends as usual (and the
            // search as exhausted where no new position came).
            let left = left(e);
            table.share(left);
            table.expand(crew, &round);
            let taken = tally(e, table);
            if taken == 0 && table.scanned() {
                break;
            }
            if left == 0 {
                return Outcome::End(Ending::Stopped(Limit::Positions));
            }
            layer.parents += taken;
            let bytes = table.bytes();
            if let Some(limit) = e.over_resources(bytes) {
                return Outcome::End(Ending::Stopped(limit));
            }
            if table.growth() > e.memory_left(bytes) {
                return Outcome::End(Ending::Stopped(Limit::Memory));
            }
            table.insert(crew, &round);
            let (stored, found) = table.stored();
            new += stored;
            if e.goal_enabled && found {
                return Outcome::Goal;
            }
        }
        if new == 0 {
            return Outcome::End(Ending::Exhausted);
        }
        queued = new;
        depth += 1;
        e.progress.bound = depth;
    }
}

/// New keys to make room for at a layer's start, where `expected` are
/// foreseen from its first `parents` ([`Layer::next`]) and the position
/// cap leaves `left`: those of every layer to the cap at the same rate
/// once that is at most sixteen times the layer's own, so that the table
/// grows once for the last layers instead of once for each (every growth
/// moves every key and has the kernel zero new pages: a fifth of the time
/// on the 15-puzzle at 5M positions when each layer grew it), else the
/// layer's. A hundredth more: the
/// foresight errs a little, and a shard that overflows grows by half.
fn to_reserve(expected: usize, parents: u64, left: u64) -> usize {
    let rate = expected as f64 / parents.max(1) as f64;
    let to_cap = left as f64 * rate;
    let keys = match to_cap <= 16.0 * expected as f64 {
        true => to_cap,
        false => expected as f64,
    };
    (keys * 1.01) as usize
}

/// The word of a position.
fn word_of(layout: &Layout, state: &State) -> u64 {
    let mut word = 0u64;
    for (i, &a) in state.anchors.iter().enumerate() {
        let k = layout.cell[..layout.n]
            .iter()
            .position(|&c| u16::from(c) == a)
            .expect("a tile on an open cell");
        word |= (i as u64 + 1) << (4 * k);
    }
    word & LOW
}

/// The board cells the blank steps to on the way from the start to the
/// goal, read back from the goal's slot through each parent's.
fn walk_back(layout: &Layout, table: &mut Table, start: u64) -> Vec<u8> {
    let mut cells = Vec::new();
    let mut low = layout.goal;
    while low != start {
        let s = table.get(low).expect("every parent is stored");
        let full = layout.full(low);
        let b = Layout::blank(full);
        cells.push(layout.cell[b]);
        let from = layout.next[b][(s >> 2 & 3) as usize ^ 1] as usize;
        low = Layout::step(full, b, from) & LOW;
    }
    cells.reverse();
    cells
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::formats;
    use crate::params::{EncodingKind, Limits};
    use crate::search::count::reachable;
    use crate::search::{solve, test_engine, Progress, SolveOptions};
    use crate::verify::replay;

    /// A 3x3 board with a wall in a corner: a tile puzzle whose goal
    /// places every tile (27 steps), as the native format writes it.
    const WALLED: &str = "!\n1\n2\n3\n4\n5\n6\n7\n!\n\
        #####\n#7 5#\n#643#\n##12#\n#####\n!\n\
        #####\n#123#\n#456#\n##7 #\n#####\n!\n";

    fn params(encoding: EncodingKind, threads: usize) -> SearchParams {
        SearchParams {
            algorithm: Algorithm::Bfs,
            encoding,
            threads,
            ..SearchParams::default()
        }
    }

    /// The solution's steps, replayed by the verifier (which must find it
    /// reaching the goal), and the counters (examined, stored, generated).
    fn solved(p: &Puzzle, params: &SearchParams, cap: Option<u64>) -> (Option<usize>, [u64; 3]) {
        let limits = Limits {
            max_positions: cap,
            ..Limits::default()
        };
        let out = solve(p, params, &limits, SolveOptions::quiet()).expect("a search");
        let steps = out.solution.as_ref().map(|moves| {
            let r = replay(p, moves).expect("legal moves");
            assert!(r.solved, "the solution reaches the goal");
            r.steps
        });
        let s = &out.stats;
        (steps, [s.examined, s.stored, s.generated])
    }

    fn puzzles() -> Vec<Puzzle> {
        let mut all: Vec<Puzzle> = [
            "eight_hardest_a",
            "eight_hardest_b",
            "eight_hardest_blank_first",
        ]
        .iter()
        .map(|f| formats::bundled(&format!("tiles/{f}.txt")))
        .collect();
        all.push(formats::native::parse(WALLED, "walled").unwrap());
        let options = formats::ImportOptions {
            width: Some(4),
            ..Default::default()
        };
        all.push(formats::tiles::parse_line("7 6 5 4 3 2 1 0", 1, "t", &options).unwrap());
        all
    }

    /// The kernel runs where it should: on packed keys of these puzzles,
    /// not on rank keys, not on the 24-puzzle (25 cells).
    #[test]
    fn the_kernel_takes_small_tile_puzzles_on_packed_keys() {
        let limits = Limits::default();
        for p in puzzles() {
            let e = test_engine(&p, &params(EncodingKind::Packed, 1), &limits);
            assert!(applies(&e), "{:?}", p.name);
            let e = test_engine(&p, &params(EncodingKind::Rank, 1), &limits);
            assert!(!applies(&e), "{:?}", p.name);
        }
        let big = formats::tiles::parse_line(
            &(0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
            1,
            "t",
            &formats::ImportOptions::default(),
        )
        .unwrap();
        let e = test_engine(&big, &params(EncodingKind::Packed, 1), &limits);
        assert!(!applies(&e));
        let classic = formats::bundled("klotski/classic.txt");
        let e = test_engine(&classic, &params(EncodingKind::Packed, 1), &limits);
        assert!(!applies(&e));
        // A locked tile: the kernel would move it (a review found the
        // replay of its solution failing).
        let eight = formats::bundled("tiles/eight_hardest_a.txt");
        let locked = SearchParams {
            lock: vec!['1'],
            ..params(EncodingKind::Packed, 1)
        };
        let e = test_engine(&eight, &locked, &limits);
        assert!(!applies(&e));
        assert_eq!(
            solved(&eight, &locked, None).0,
            None,
            "no solution with tile 1 fixed"
        );
    }

    /// `--encoding auto` takes packed keys for the kernel, and chooses
    /// again as for the general BFS where `--best-out` turns the kernel off
    /// (a review found the kernel's reason given for the general BFS).
    #[test]
    fn auto_takes_packed_keys_for_the_kernel_only_where_it_runs() {
        let korf = formats::bundled("tiles/korf_01.txt");
        let limits = Limits {
            max_memory: Some(64 << 20),
            ..Limits::default()
        };
        let mut e = test_engine(&korf, &params(EncodingKind::Auto, 1), &limits);
        assert!(applies(&e), "{}", e.encoding_reason);
        assert!(
            e.encoding_reason.contains("one word per position"),
            "{}",
            e.encoding_reason
        );
        e.keep_best(3);
        assert!(!applies(&e));
        assert!(
            !e.encoding_reason.contains("one word per position"),
            "{}",
            e.encoding_reason
        );
    }

    /// A position cap that falls exactly at the end of the search leaves a
    /// complete count, as in the general BFS (the kernel said "stopped" at
    /// first); one position fewer does not.
    #[test]
    fn a_cap_at_the_very_end_leaves_the_count_complete() {
        let eight = formats::bundled("tiles/eight_hardest_a.txt");
        let count = |cap| {
            let limits = Limits {
                max_positions: Some(cap),
                ..Limits::default()
            };
            let p = params(EncodingKind::Packed, 1);
            reachable(&eight, &p, &limits, Progress::disabled(), None, false).unwrap()
        };
        let full = count(181_440);
        assert!(full.complete && full.positions == 181_440, "{full:?}");
        let short = count(181_439);
        assert!(!short.complete, "{short:?}");
    }

    /// Against the general BFS (on rank keys): the same shortest solution
    /// length, replayed by the verifier, and in a complete count the same
    /// positions and successors (the 8-puzzle's 181,440, the walled
    /// board's and 2x4's 20,160).
    #[test]
    fn the_kernel_finds_what_the_general_bfs_finds() {
        let limits = Limits::default();
        for p in puzzles() {
            let (steps, _) = solved(&p, &params(EncodingKind::Packed, 1), None);
            let (want, _) = solved(&p, &params(EncodingKind::Rank, 1), None);
            assert_eq!(steps, want, "{:?}", p.name);
            let count = |encoding| {
                let c = reachable(
                    &p,
                    &params(encoding, 1),
                    &limits,
                    Progress::disabled(),
                    None,
                    true,
                )
                .unwrap();
                assert!(c.complete);
                (c.positions, c.generated)
            };
            assert_eq!(
                count(EncodingKind::Packed),
                count(EncodingKind::Rank),
                "{:?}",
                p.name
            );
        }
        let eight = formats::bundled("tiles/eight_hardest_a.txt");
        assert_eq!(
            solved(&eight, &params(EncodingKind::Packed, 1), None).0,
            Some(31)
        );
        let count = reachable(
            &eight,
            &params(EncodingKind::Packed, 1),
            &limits,
            Progress::disabled(),
            None,
            true,
        )
        .unwrap();
        assert_eq!(count.positions, 181_440);
    }

    /// On 15-puzzle scrambles (random walks of 12-30 steps from Korf's
    /// first instance's goal, solved back), the kernel's solution is as
    /// short as the general BFS's.
    #[test]
    fn on_scrambled_fifteen_puzzles_the_lengths_agree() {
        let korf = formats::bundled("tiles/korf_01.txt");
        let mut rng = ChaCha8Rng::seed_from_u64(47);
        let mut longest = 0;
        for _ in 0..6 {
            let mut p = korf.clone();
            p.start = scramble(&korf, rng.gen_range(12..30), &mut rng);
            let (steps, _) = solved(&p, &params(EncodingKind::Packed, 2), None);
            let (want, _) = solved(&p, &params(EncodingKind::Rank, 1), None);
            assert_eq!(steps, want);
            longest = longest.max(steps.unwrap());
        }
        assert!(longest >= 10, "scrambles of some length: {longest}");
    }

    /// The goal position of `p` after `steps` random moves.
    fn scramble(p: &Puzzle, steps: usize, rng: &mut ChaCha8Rng) -> crate::model::Position {
        use crate::moves::MoveGenerator;
        use crate::params::Metric;
        let mut moves = MoveGenerator::new(p, Metric::Steps, &[]);
        let e = test_engine(p, &params(EncodingKind::Packed, 1), &Limits::default());
        let mut s = State::new(p);
        s.load(&p.start, moves.shapes());
        let board = TileBoard::new(p, &e.geometry).unwrap();
        for (i, &g) in board.goal.iter().enumerate() {
            s.anchors[i] = g as u16;
        }
        s.owner.fill(crate::moves::NO_OWNER);
        for (i, &a) in s.anchors.iter().enumerate() {
            s.owner[a as usize] = i as u16;
        }
        let mut list = Vec::new();
        for _ in 0..steps {
            moves.generate(&s, &mut list);
            moves.apply(&mut s, list[rng.gen_range(0..list.len())]);
        }
        s.to_position(p)
    }

    /// A search stopped by the position cap examines, stores and generates
    /// as many positions on any number of threads, and exactly the cap.
    #[test]
    fn threads_change_no_count() {
        let korf = formats::bundled("tiles/korf_01.txt");
        let runs: Vec<_> = (1..=3)
            .map(|t| solved(&korf, &params(EncodingKind::Packed, t), Some(200_000)))
            .collect();
        assert_eq!(runs[0].0, None);
        assert_eq!(runs[0].1[0], 200_000);
        assert!(runs[0].1[1] > 300_000, "{:?}", runs[0].1);
        assert!(runs.iter().all(|r| r == &runs[0]), "{runs:?}");
    }

    /// The stored hash is a bijection of the 60-bit keys.
    #[test]
    fn mix_is_undone() {
        let mut rng = ChaCha8Rng::seed_from_u64(60);
        for _ in 0..10_000 {
            let k = rng.gen::<u64>() & LOW;
            assert_eq!(unmix(mix(k)), k);
            assert!(mix(k) <= LOW);
        }
    }
}
