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

use super::rank::{entries, rank, unrank};
use super::values::UNSEEN;
use super::TileBoard;

/// Expansions between two calls of the progress callback.
const REPORT_EVERY: u32 = 1 << 16;

/// The table of the pattern `tiles` (instances): per placement rank,
/// (distance - Manhattan distance of the tiles) / 2, or [`UNSEEN`].
/// `progress` is called now and then with the placements reached so far and
/// the current distance.
pub fn fill(board: &TileBoard, tiles: &[usize], progress: &mut dyn FnMut(u64, u8)) -> Vec<u8> {
    let k = tiles.len();
    let n = board.n;
    let size = entries(n, k as u32).expect("the plan checked the table's size");
    let goals: Vec<u32> = tiles.iter().map(|&t| board.goal[t]).collect();
    let md = |i: usize, cell: u32| board.manhattan(cell, goals[i]);
    let mut table = vec![UNSEEN; size as usize];
    // One bit per (placement, open cell of the blank).
    let mut visited = vec![0u64; (size * u64::from(n)).div_ceil(64) as usize];
    let root = rank(goals.iter().copied(), board.open, n);
    table[root as usize] = 0;
    let occupied = goals.iter().fold(0u64, |m, &c| m | 1 << c);
    // Every blank cell: a goal whose pattern tiles wall off part of the board
    // has one region per part, each at distance 0.
    let mut current: Vec<u64> = cells(board.open & !occupied)
        .map(|b| root << 6 | u64::from(b))
        .collect();
    let mut next = Vec::new();
    let mut cells_now = vec![0u32; k];
    let (mut reached, mut since_report, mut d) = (1u64, 0u32, 0u8);
    while !current.is_empty() && d < UNSEEN - 1 {
        for &key in &current {
            let (r, blank) = (key >> 6, (key & 63) as u32);
            let bit = r * u64::from(n) + board.open_index(blank);
            if visited[(bit >> 6) as usize] >> (bit & 63) & 1 == 1 {
                continue; // its region was expanded from another of its cells
            }
            unrank(r, k, board.open, n, &mut cells_now);
            let occupied = cells_now.iter().fold(0u64, |m, &c| m | 1 << c);
            let region = board.region(blank, occupied);
            for c in cells(region) {
                let bit = r * u64::from(n) + board.open_index(c);
                visited[(bit >> 6) as usize] |= 1 << (bit & 63);
            }
            let md_now: u32 = (0..k).map(|i| md(i, cells_now[i])).sum();
            for i in 0..k {
                let from = cells_now[i];
                for to in cells(board.neighbors(1 << from) & region) {
                    cells_now[i] = to;
                    let r2 = rank(cells_now.iter().copied(), board.open, n);
                    cells_now[i] = from;
                    let bit = r2 * u64::from(n) + board.open_index(from);
                    if visited[(bit >> 6) as usize] >> (bit & 63) & 1 == 1 {
                        continue;
                    }
                    if table[r2 as usize] == UNSEEN {
                        let md2 = md_now + md(i, to) - md(i, from);
                        table[r2 as usize] = ((u32::from(d) + 1 - md2) / 2) as u8;
                        reached += 1;
                    }
                    next.push(r2 << 6 | u64::from(from));
                }
            }
            since_report += 1;
            if since_report == REPORT_EVERY {
                since_report = 0;
                progress(reached, d);
            }
        }
        std::mem::swap(&mut current, &mut next);
        next.clear();
        d += 1;
        progress(reached, d);
    }
    table
}

/// The cells of a bitboard, lowest first.
#[inline]
fn cells(mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros();
            set &= set - 1;
            c
        })
    })
}
