//! Filling a tile table fast (patterns of 2 to [`MAX_FAST_TILES`] tiles, the
//! 15-puzzle's 7- and 8-tile tables): the same breadth-first search as the
//! reference builder [`super::build`], over (placement of the pattern's
//! tiles, region of the blank), organised so that it runs in cache and on
//! every thread.
//!
//! - Blocks. The cells a placement occupies decide the free cells and so
//!   the blank's possible regions; the table's index ([`PatternIndex`])
//!   keeps the k! placements of one cell set together. A block is one (cell
//!   set, region): k! states, one bit each in a `visited` and a `frontier`
//!   bitmap. A move (the tile at `a` into `b`, next to the blank's region)
//!   leads from every state of one block to a state of one other block, its
//!   tiles' order changed by the same map for all of them (the tiles between
//!   `a` and `b` shift by one position), looked up in one of at most k*k
//!   tables of k! entries; a sideways move, or one with no tile between,
//!   keeps the order and moves 64 states per word operation.
//! - Layers, pulled. Each move flips the parity of the set's cells' row plus
//!   column sum, so a layer's states all lie in blocks of one parity and the
//!   next layer's in the other: each block of the next parity gathers its
//!   new states from the frontiers of the blocks that move into it, then
//!   keeps those it has not visited. A block is written by the one thread
//!   that gathers it (threads take cell sets in chunks, so a set's regions
//!   and its k! table entries have one writer), and read only while the
//!   other parity is written: no locks, relaxed atomics for the sharing.
//! - The table holds each placement's first layer as a byte while building;
//!   the last pass turns it into (distance - Manhattan) / 2 in 4 bits,
//!   walking each set's orders in index order with the Manhattan sum kept
//!   incrementally.
//! - Stopping. Each thread asks the caller's [`Stop`] before each chunk of
//!   cell sets, in the layers and in the last pass; once it says so the
//!   build ends without a table.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};

use super::index::{bits, PatternIndex};
use super::rank::{rank, unrank};
use super::values::{nibble, Values, UNSEEN};
use super::TileBoard;
use crate::heuristics::pdb::{filled, Stop};

/// The largest pattern this builder takes (k! order maps fit `u16`).
pub const MAX_FAST_TILES: usize = 8;

/// Cell sets a thread takes at a time.
const CHUNK: usize = 16;

/// An incoming move's order map when the order does not change.
const SAME_ORDER: u16 = u16::MAX;

/// A move into a block: from the states of `source`, their order mapped
/// through `maps[map]` (or kept, [`SAME_ORDER`]).
#[derive(Clone, Copy)]
struct Incoming {
    source: u32,
    map: u16,
}

/// The blocks of a pattern's search and the moves between them.
struct Blocks {
    /// k!, and 64-bit words per block.
    perms: usize,
    words: usize,
    /// Per cell set (by rank): its first block; one more entry at the end.
    first: Vec<u32>,
    /// Per cell set: the parity of its cells' row plus column sum.
    parity: Vec<u8>,
    /// Per block: its first incoming move; one more entry at the end.
    first_in: Vec<u32>,
    incoming: Vec<Incoming>,
    /// Per (from position * k + to position): the order map, empty if unused.
    maps: Vec<Vec<u16>>,
}

/// The table of the pattern `tiles` (instances), on `threads` threads:
/// per placement index, (distance - Manhattan distance of the tiles) / 2;
/// `None` when `stop` said so. `progress` is called after each layer with
/// the placements reached so far and the distance done.
pub fn fill(
    board: &TileBoard,
    tiles: &[usize],
    (threads, stop): (usize, Stop),
    progress: &mut dyn FnMut(u64, u8),
) -> Option<Values> {
    let k = tiles.len();
    assert!(
        (2..=MAX_FAST_TILES).contains(&k),
        "layers::fill takes 2 to 8 tiles"
    );
    // Before the blocks and bitmaps are made (a second for 8 tiles).
    if stop() {
        return None;
    }
    let goals: Vec<u32> = tiles.iter().map(|&t| board.goal[t]).collect();
    let index = PatternIndex::new(board.open, k).expect("8 tiles fit");
    let blocks = Blocks::new(board, &index, k);
    let search = Search::new(&blocks, index.len(), stop)?;
    let goal_set = goals.iter().fold(0u64, |m, &c| m | 1 << c);
    let (r, p) = (
        index.set_rank(goal_set) as usize,
        index.order_rank(goal_set, &goals),
    );
    for b in blocks.first[r]..blocks.first[r + 1] {
        search.mark(b as usize, p as usize);
    }
    search.table[r * blocks.perms + p as usize].store(0, Relaxed);
    let (mut reached, mut d) = (1u64, 0u8);
    progress(reached, d);
    while d < UNSEEN - 1 {
        let parity = blocks.parity[r] ^ ((d + 1) & 1);
        let (found, any) = search.layer(d + 1, parity, (threads, stop))?;
        reached += found;
        d += 1;
        progress(reached, d);
        if !any {
            break;
        }
    }
    // The bitmaps go before the last pass allocates the 4-bit table.
    let Search {
        table,
        visited,
        frontier,
        ..
    } = search;
    drop((visited, frontier));
    finish(board, &index, &goals, &table, (threads, stop))
}

impl Blocks {
    /// The blocks of `k` tiles on `board`'s open cells and the moves into each.
    fn new(board: &TileBoard, index: &PatternIndex, k: usize) -> Blocks {
        let sets = index.sets() as usize;
        let perms = index.perms() as usize;
        let set_cells: Vec<u64> = (0..sets as u64).map(|r| index.set_of(r)).collect();
        let (mut first, mut regions) = (Vec::with_capacity(sets + 1), Vec::new());
        for &s in &set_cells {
            first.push(regions.len() as u32);
            let mut free = board.open & !s;
            while free != 0 {
                let region = board.region(free.trailing_zeros(), s);
                regions.push(region);
                free &= !region;
            }
        }
        first.push(regions.len() as u32);
        let w = board.width;
        let parity = set_cells
            .iter()
            .map(|&s| (bits(s).map(|c| c / w + c % w).sum::<u32>() & 1) as u8)
            .collect();
        let below = |set: u64, c: u32| (set & ((1u64 << c) - 1)).count_ones() as usize;
        let (mut first_in, mut incoming) = (Vec::with_capacity(regions.len() + 1), Vec::new());
        let mut used = vec![false; k * k];
        for (r2, &s2) in set_cells.iter().enumerate() {
            for &region in &regions[first[r2] as usize..first[r2 + 1] as usize] {
                first_in.push(incoming.len() as u32);
                // The blank's region holds `a`; the tile now at `b` came from `a`.
                for a in bits(region) {
                    for b in bits(board.neighbors(1 << a) & s2) {
                        let s = s2 ^ (1 << a) ^ (1 << b);
                        let r = index.set_rank(s) as usize;
                        let source = (first[r]..first[r + 1])
                            .find(|&x| regions[x as usize] >> b & 1 == 1)
                            .expect("b is free in the source set");
                        let (from, to) = (below(s, a), below(s2, b));
                        let map = if from == to {
                            SAME_ORDER
                        } else {
                            used[from * k + to] = true;
                            (from * k + to) as u16
                        };
                        incoming.push(Incoming { source, map });
                    }
                }
            }
        }
        first_in.push(incoming.len() as u32);
        let maps = (0..k * k)
            .map(|m| match used[m] {
                true => order_map(k, perms, m / k, m % k),
                false => Vec::new(),
            })
            .collect();
        Blocks {
            perms,
            words: perms.div_ceil(64),
            first,
            parity,
            first_in,
            incoming,
            maps,
        }
    }
}

/// The order map of a move from position `from` to position `to` among a
/// set's k cells: per order rank, the rank after the move (the tile at
/// `from` goes to `to`, the tiles between shift by one toward `from`).
fn order_map(k: usize, perms: usize, from: usize, to: usize) -> Vec<u16> {
    let all = (1u64 << k) - 1;
    let mut q = [0u32; MAX_FAST_TILES];
    (0..perms as u64)
        .map(|p| {
            unrank(p, k, all, k as u32, &mut q[..k]);
            let shifted = q[..k].iter().map(|&x| {
                let x = x as usize;
                (if x == from {
                    to
                } else if from < to && (from + 1..=to).contains(&x) {
                    x - 1
                } else if to < from && (to..from).contains(&x) {
                    x + 1
                } else {
                    x
                }) as u32
            });
            rank(shifted, all, k as u32) as u16
        })
        .collect()
}

/// The search's shared state: per block a visited and a frontier bitmap and
/// whether its frontier has any state; per placement its first layer.
struct Search<'b> {
    blocks: &'b Blocks,
    visited: Vec<AtomicU64>,
    frontier: Vec<AtomicU64>,
    busy: Vec<AtomicBool>,
    table: Vec<AtomicU8>,
}

impl<'b> Search<'b> {
    /// The search's arrays, made with `stop` asked as they are
    /// ([`filled`]); `None` when it says so.
    fn new(blocks: &'b Blocks, len: u64, stop: Stop) -> Option<Search<'b>> {
        let n = *blocks.first.last().unwrap_or(&0) as usize;
        let words = (n * blocks.words) as u64;
        Some(Search {
            blocks,
            visited: filled(words, || AtomicU64::new(0), stop)?,
            frontier: filled(words, || AtomicU64::new(0), stop)?,
            busy: filled(n as u64, || AtomicBool::new(false), stop)?,
            table: filled(len, || AtomicU8::new(UNSEEN), stop)?,
        })
    }

    /// Puts state `p` of block `b` on the frontier (the start).
    fn mark(&self, b: usize, p: usize) {
        let w = b * self.blocks.words + p / 64;
        self.visited[w].fetch_or(1 << (p % 64), Relaxed);
        self.frontier[w].fetch_or(1 << (p % 64), Relaxed);
        self.busy[b].store(true, Relaxed);
    }

    /// Gathers layer `d` into the blocks of the cell sets of `parity`, on
    /// `threads` threads: the placements reached for the first time, and
    /// whether the layer has any state; `None` when `stop` said so.
    fn layer(&self, d: u8, parity: u8, (threads, stop): (usize, Stop)) -> Option<(u64, bool)> {
        let next = AtomicUsize::new(0);
        let stopped = AtomicBool::new(false);
        let sets = self.blocks.parity.len();
        let results: Vec<(u64, bool)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut scratch = vec![0u64; self.blocks.words];
                        let (mut found, mut any) = (0u64, false);
                        loop {
                            if stopped.load(Relaxed) || stop() {
                                stopped.store(true, Relaxed);
                                return (found, any);
                            }
                            let start = next.fetch_add(CHUNK, Relaxed);
                            if start >= sets {
                                return (found, any);
                            }
                            for r in (start..sets.min(start + CHUNK))
                                .filter(|&r| self.blocks.parity[r] == parity)
                            {
                                let (f, a) = self.gather_set(r, d, &mut scratch);
                                found += f;
                                any |= a;
                            }
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a table builder thread panicked"))
                .collect()
        });
        if stopped.into_inner() {
            return None;
        }
        let sum = results
            .into_iter()
            .fold((0, false), |(f, a), (f2, a2)| (f + f2, a || a2));
        Some(sum)
    }

    /// Gathers layer `d` into every block of cell set `r` (see [`Search::layer`]).
    fn gather_set(&self, r: usize, d: u8, scratch: &mut [u64]) -> (u64, bool) {
        let b = self.blocks;
        let (mut found, mut any) = (0u64, false);
        let single = b.first[r + 1] - b.first[r] == 1;
        for t in b.first[r] as usize..b.first[r + 1] as usize {
            let fed = self.pull(t, scratch);
            let words = t * b.words..(t + 1) * b.words;
            let (mine, seen) = (&self.frontier[words.clone()], &self.visited[words]);
            if !fed {
                if self.busy[t].swap(false, Relaxed) {
                    mine.iter().for_each(|w| w.store(0, Relaxed));
                }
                continue;
            }
            let mut busy = false;
            for (w, (m, s)) in mine.iter().zip(seen).enumerate() {
                let old = s.load(Relaxed);
                let new = scratch[w] & !old;
                m.store(new, Relaxed);
                if new == 0 {
                    continue;
                }
                busy = true;
                s.store(old | new, Relaxed);
                let entries = &self.table[r * b.perms + w * 64..];
                if single {
                    // The set's one region: a state new to it is a new placement.
                    bits(new).for_each(|bit| entries[bit as usize].store(d, Relaxed));
                    found += u64::from(new.count_ones());
                    continue;
                }
                for bit in bits(new) {
                    let entry = &entries[bit as usize];
                    if entry.load(Relaxed) == UNSEEN {
                        entry.store(d, Relaxed);
                        found += 1;
                    }
                }
            }
            self.busy[t].store(busy, Relaxed);
            any |= busy;
        }
        (found, any)
    }

    /// The states the moves into block `t` reach from their sources'
    /// frontiers, as a bitmap in `scratch`; false when no source has any.
    /// The hot loop of the build: one table read and one bit set per state
    /// for moves that reorder, one word operation per 64 states otherwise.
    #[inline]
    fn pull(&self, t: usize, scratch: &mut [u64]) -> bool {
        let b = self.blocks;
        scratch.fill(0);
        let mut fed = false;
        for m in &b.incoming[b.first_in[t] as usize..b.first_in[t + 1] as usize] {
            let source = m.source as usize;
            if !self.busy[source].load(Relaxed) {
                continue;
            }
            fed = true;
            let words = &self.frontier[source * b.words..(source + 1) * b.words];
            if m.map == SAME_ORDER {
                for (s, f) in scratch.iter_mut().zip(words) {
                    *s |= f.load(Relaxed);
                }
                continue;
            }
            let map = &b.maps[m.map as usize];
            for (w, f) in words.iter().enumerate() {
                for bit in bits(f.load(Relaxed)) {
                    let p = map[w * 64 + bit as usize] as usize;
                    scratch[p / 64] |= 1 << (p % 64);
                }
            }
        }
        fed
    }
}

/// The finished table: per placement (first layer - Manhattan) / 2 in 4
/// bits, the cell sets split among `threads` threads; `None` when `stop`
/// said so (asked every [`CHUNK`] sets).
fn finish(
    board: &TileBoard,
    index: &PatternIndex,
    goals: &[u32],
    table: &[AtomicU8],
    (threads, stop): (usize, Stop),
) -> Option<Values> {
    let (perms, sets) = (index.perms() as usize, index.sets() as usize);
    let mut data = vec![0u8; Values::bytes_for(index.len()) as usize];
    let per_thread = sets.div_ceil(threads.max(1));
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for (part, out) in data.chunks_mut(per_thread * perms / 2).enumerate() {
            let stopped = &stopped;
            scope.spawn(move || {
                for (i, out) in out.chunks_mut(perms / 2).enumerate() {
                    if i % CHUNK == 0 && (stopped.load(Relaxed) || stop()) {
                        stopped.store(true, Relaxed);
                        return;
                    }
                    let r = part * per_thread + i;
                    let entries = &table[r * perms..(r + 1) * perms];
                    let mut p = 0usize;
                    manhattan_sums(board, index, goals, r as u64, &mut |sum| {
                        let layer = entries[p].load(Relaxed);
                        let entry = if layer == UNSEEN {
                            UNSEEN
                        } else {
                            (layer - sum) / 2
                        };
                        out[p / 2] |= nibble(entry) << (4 * (p % 2));
                        p += 1;
                    });
                }
            });
        }
    });
    (!stopped.into_inner()).then(|| Values::from_packed(data, index.len()))
}

/// Calls `leaf` with the pattern tiles' Manhattan distance (to `goals`) at
/// every placement on cell set `r`, in index order: k! calls for about
/// 2.7 k! additions (the sums are kept incrementally).
pub fn manhattan_sums(
    board: &TileBoard,
    index: &PatternIndex,
    goals: &[u32],
    r: u64,
    leaf: &mut dyn FnMut(u8),
) {
    let k = goals.len();
    assert!(k <= MAX_FAST_TILES, "manhattan_sums takes at most 8 tiles");
    let mut md = [[0u8; MAX_FAST_TILES]; MAX_FAST_TILES];
    for (row, &goal) in md.iter_mut().zip(goals) {
        for (slot, c) in row.iter_mut().zip(bits(index.set_of(r))) {
            *slot = board.manhattan(c, goal) as u8;
        }
    }
    orders(&md[..k], 0, (1 << k) - 1, 0, leaf);
}

/// Calls `leaf` with the Manhattan sum of every order of the tiles on a
/// set's positions, in order-rank order: tile `i` takes each `free`
/// position, lowest first (its Lehmer digit counting up).
fn orders(md: &[[u8; MAX_FAST_TILES]], i: usize, free: u32, sum: u8, leaf: &mut dyn FnMut(u8)) {
    if i + 1 == md.len() {
        leaf(sum + md[i][free.trailing_zeros() as usize]);
        return;
    }
    for j in bits(u64::from(free)) {
        orders(md, i + 1, free & !(1 << j), sum + md[i][j as usize], leaf);
    }
}
