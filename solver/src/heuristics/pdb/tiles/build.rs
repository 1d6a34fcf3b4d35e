//! Filling one tile table: a breadth-first search from the goal over the
//! pattern tiles' cells and the blank's region. The other tiles are
//! interchangeable and their moves free, so what matters of them is only
//! where the blank can go without moving a pattern tile: its region. A
//! search state is (placement, region), marked visited on every cell of the
//! region at once, so the blank's free wandering costs one flood fill of
//! bitboards instead of a 0-cost layer of states. A placement's entry is the
//! layer it is first reached in, the least distance over the blank's
//! positions. Moves are reversible, so searching from the goal gives the
//! distances to it; only pattern-tile moves cost, so tables of disjoint
//! patterns add.

use super::index::{bits as cells, PatternIndex};
use super::values::UNSEEN;
use super::TileBoard;
use crate::heuristics::pdb::Stop;

/// Expansions between two calls of the progress callback.
const REPORT_EVERY: u32 = 1 << 16;

/// The table of the pattern `tiles` (instances): per placement rank,
/// (distance - Manhattan distance of the tiles) / 2, or [`UNSEEN`].
/// `progress` is called now and then with the placements reached so far and
/// the current distance, and `stop` asked as often: `None` when it said so.
pub fn fill(
    board: &TileBoard,
    tiles: &[usize],
    stop: Stop,
    progress: &mut dyn FnMut(u64, u8),
) -> Option<Vec<u8>> {
    if stop() {
        return None;
    }
    let k = tiles.len();
    let goals: Vec<u32> = tiles.iter().map(|&t| board.goal[t]).collect();
    let index = PatternIndex::new(board.open, k).expect("the plan checked the table's size");
    let mut search = Search::new(board, index.len());
    let root = index.index(&goals);
    let occupied = goals.iter().fold(0u64, |m, &c| m | 1 << c);
    // Every region of the goal placement is at distance 0.
    let mut current = Vec::new();
    for blank in cells(board.open & !occupied) {
        search.reach(root, blank, occupied, 0, &mut current);
    }
    // Manhattan distances per pattern tile and cell, looked up (no division).
    let md: Vec<[u32; 64]> = goals
        .iter()
        .map(|&g| std::array::from_fn(|c| board.manhattan(c as u32, g)))
        .collect();
    let mut next = Vec::new();
    let mut cells_now = vec![0u32; k];
    let (mut since_report, mut d) = (0u32, 0u8);
    while !current.is_empty() && d < UNSEEN - 1 {
        for &key in &current {
            let (r, blank) = (key >> 6, (key & 63) as u32);
            index.cells(r, &mut cells_now);
            let occupied = cells_now.iter().fold(0u64, |m, &c| m | 1 << c);
            let region = board.region(blank, occupied);
            let md_now: u32 = (0..k).map(|i| md[i][cells_now[i] as usize]).sum();
            for i in 0..k {
                let from = cells_now[i];
                for to in cells(board.neighbors(1 << from) & region) {
                    cells_now[i] = to;
                    let r2 = index.index(&cells_now);
                    cells_now[i] = from;
                    let md2 = md_now + md[i][to as usize] - md[i][from as usize];
                    let moved = occupied ^ (1 << from) ^ (1 << to);
                    let entry = (u32::from(d) + 1 - md2) / 2;
                    search.reach(r2, from, moved, entry as u8, &mut next);
                }
            }
            since_report += 1;
            if since_report == REPORT_EVERY {
                since_report = 0;
                progress(search.reached, d);
                if stop() {
                    return None;
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
        next.clear();
        d += 1;
        progress(search.reached, d);
        if stop() {
            return None;
        }
    }
    Some(search.finish())
}

/// Flag bit of a building entry: the placement's pattern tiles split the
/// free cells into several regions (kept in the entry's byte so that a
/// repeated reach costs one memory access; entries stay far below it).
const MULTI: u8 = 0x80;

/// The table being filled and which (placement, region) states were reached.
struct Search<'b> {
    board: &'b TileBoard,
    /// Entries, with [`MULTI`] set on placements that split the free cells.
    table: Vec<u8>,
    /// One bit per (placement, open cell of the blank), used only for
    /// [`MULTI`] placements: for the others (most), a placement reached is
    /// its one region reached, so a repeated reach costs one table read and
    /// no flood fill.
    split: Vec<u64>,
    reached: u64,
}

impl<'b> Search<'b> {
    fn new(board: &'b TileBoard, size: u64) -> Search<'b> {
        Search {
            board,
            table: vec![UNSEEN; size as usize],
            split: vec![0u64; (size * u64::from(board.n)).div_ceil(64) as usize],
            reached: 0,
        }
    }

    /// Reaches placement `r` (cells `occupied`) with the blank at `blank`:
    /// unless its region was reached before, marks it, records `entry` for
    /// a placement reached for the first time and queues the state on `layer`.
    #[inline]
    fn reach(&mut self, r: u64, blank: u32, occupied: u64, entry: u8, layer: &mut Vec<u64>) {
        let b = self.board;
        let old = self.table[r as usize];
        let first = old == UNSEEN;
        let base = r * u64::from(b.n);
        let bit = base + b.open_index(blank);
        if !first && (old & MULTI == 0 || self.split[(bit >> 6) as usize] >> (bit & 63) & 1 == 1) {
            return; // its one region, or this region, was reached before
        }
        let region = b.region(blank, occupied);
        let multi = region != b.open & !occupied;
        if multi {
            for c in cells(region) {
                let bit = base + b.open_index(c);
                self.split[(bit >> 6) as usize] |= 1 << (bit & 63);
            }
        }
        if first {
            self.table[r as usize] = entry | if multi { MULTI } else { 0 };
            self.reached += 1;
        }
        layer.push(r << 6 | u64::from(blank));
    }

    /// The finished entries, without the flag.
    fn finish(mut self) -> Vec<u8> {
        for v in self.table.iter_mut().filter(|v| **v != UNSEEN) {
            *v &= !MULTI;
        }
        self.table
    }
}
