//! The fluid abstraction's states and their successors (the argument that
//! it is exact is in the module doc, `fluid/mod.rs`).
//!
//! A state is one `u16` string: the anchors of the other ("big") blocks in
//! instance order, sorted within each type, then the number of units in
//! each region, the regions numbered in the order of their lowest cell. A
//! region is a connected set of fluid cells: free cells (doors excluded,
//! units never enter them) that no big block covers.

use std::ops::Range;

use crate::model::{CellKind, Puzzle};
use crate::moves::{MoveGenerator, State};

/// "No big block" in the cover map, "not fluid" in a region map.
pub const NONE: u16 = u16::MAX;

/// The cells of one region before a step that stay fluid after it and lie
/// in one region after it: `old` and `new` are those regions, `cells` how
/// many cells. The units of `old` may be shared among its pieces in any way
/// that fits (they could stand anywhere in `old` before the step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Piece {
    pub old: u16,
    pub new: u16,
    pub cells: u16,
}

/// A puzzle's tables for the abstraction, with scratch maps reused by every
/// expansion (no allocation per state once they have grown).
pub struct Fluid {
    /// Cells units may stand on.
    free: Vec<bool>,
    /// Per cell, its neighbour in each direction, [`NONE`] off the board
    /// (the move generator's table).
    neighbor: Vec<[u16; 4]>,
    /// The unit instances.
    pub units: Range<usize>,
    /// Per big index: its instance, its type, and the big indices of its
    /// type (a type's anchors are kept sorted in a state).
    big: Vec<usize>,
    big_type: Vec<usize>,
    group: Vec<Range<usize>>,
    /// Per cell: the big index covering it, or [`NONE`].
    pub cover: Vec<u16>,
    /// Per cell: its region before a step (`region`) and after it (`after`).
    pub region: Vec<u16>,
    pub after: Vec<u16>,
    /// Cells per region of `region`.
    size: Vec<u16>,
    /// Pieces of the step last measured ([`Fluid::step_pieces`]).
    pub pieces: Vec<Piece>,
    stack: Vec<u16>,
    need: Vec<u16>,
    anchors: Vec<u16>,
    totals: Vec<u16>,
    amounts: Vec<u16>,
    /// Per region after the step being emitted: its lowest cell.
    mins: Vec<u16>,
}

impl Fluid {
    /// The abstraction of `puzzle` with the instances of `unit` (a type of
    /// 1x1 blocks) as the fluid.
    pub fn new(puzzle: &Puzzle, unit: usize) -> Fluid {
        let board = &puzzle.board;
        let cells = board.len();
        let units = puzzle.type_range(unit);
        let big: Vec<usize> = (0..puzzle.instances())
            .filter(|i| !units.contains(i))
            .collect();
        let big_type: Vec<usize> = big.iter().map(|&i| puzzle.instance_type(i)).collect();
        let group = (0..big.len())
            .map(|j| {
                let t = big_type[j];
                let lo = big_type.iter().position(|&x| x == t).unwrap_or(j);
                lo..lo + puzzle.counts[t]
            })
            .collect();
        Fluid {
            free: (0..cells)
                .map(|c| board.kind(c) == CellKind::Free)
                .collect(),
            neighbor: crate::moves::neighbor_table(board),
            units,
            big,
            big_type,
            group,
            cover: vec![NONE; cells],
            region: vec![NONE; cells],
            after: vec![NONE; cells],
            size: Vec::new(),
            pieces: Vec::new(),
            stack: Vec::new(),
            need: Vec::new(),
            anchors: Vec::new(),
            totals: Vec::new(),
            amounts: Vec::new(),
            mins: Vec::new(),
        }
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.free.len()
    }

    /// The type of each big index.
    pub fn big_types(&self) -> &[usize] {
        &self.big_type
    }

    /// Units in the fluid.
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// The lowest cell of each region of the state last [`Fluid::load`]ed
    /// into `out` (regions are numbered in the order of their lowest
    /// cells, so these name them across states).
    pub fn loaded_mins(&self, out: &mut Vec<u16>) {
        lowest_cells(&self.region, self.size.len(), out);
    }

    /// Number of big blocks: the length of a state's anchor part.
    pub fn bigs(&self) -> usize {
        self.big.len()
    }

    /// The instance of big index `j`.
    pub fn instance(&self, j: usize) -> usize {
        self.big[j]
    }

    /// The big indices of big index `j`'s type.
    pub fn group(&self, j: usize) -> Range<usize> {
        self.group[j].clone()
    }

    /// A cell's neighbours ([`NONE`] off the board).
    pub fn neighbors(&self, cell: usize) -> [u16; 4] {
        self.neighbor[cell]
    }

    /// The abstract state of the concrete `state`, written into `key`.
    pub fn key_of(&mut self, moves: &MoveGenerator, state: &State, key: &mut Vec<u16>) {
        key.clear();
        key.extend(self.big.iter().map(|&i| state.anchors[i]));
        for j in 0..self.big.len() {
            let g = self.group(j);
            if g.start == j {
                key[g].sort_unstable();
            }
        }
        let regions = self.load(moves, &key[..self.big.len()]);
        let counts = key.len();
        key.resize(counts + regions, 0);
        for i in self.units.clone() {
            key[counts + self.region[state.anchors[i] as usize] as usize] += 1;
        }
    }

    /// Covers the big blocks at `anchors` (per big index) and numbers the
    /// regions of the rest into `region`; returns how many.
    pub fn load(&mut self, moves: &MoveGenerator, anchors: &[u16]) -> usize {
        self.cover.fill(NONE);
        for (j, &a) in anchors.iter().enumerate() {
            self.place(moves, j, a as usize, j as u16);
        }
        let n = flood(
            &self.free,
            &self.neighbor,
            &self.cover,
            &mut self.region,
            &mut self.stack,
        );
        self.size.clear();
        self.size.resize(n, 0);
        for &r in &self.region {
            if r != NONE {
                self.size[r as usize] += 1;
            }
        }
        n
    }

    /// Writes `value` into the cover map over big index `j`'s cells at `anchor`.
    fn place(&mut self, moves: &MoveGenerator, j: usize, anchor: usize, value: u16) {
        for &off in moves.shapes().cells(self.big_type[j]) {
            self.cover[(anchor as i32 + off) as usize] = value;
        }
    }

    /// Moves big index `j` from `from` to `to` in the cover map, numbers the
    /// regions after the step into `after`, and lists the pieces of the
    /// regions that hold units (`units[r]` for region `r` of `region`)
    /// into `pieces`, sorted. Returns the regions after the step. The cover
    /// map keeps the step: [`Fluid::unstep`] takes it back.
    pub fn step_pieces(
        &mut self,
        moves: &MoveGenerator,
        (j, from, to): (usize, usize, usize),
        units: &[u16],
    ) -> usize {
        self.place(moves, j, from, NONE);
        self.place(moves, j, to, j as u16);
        let n = flood(
            &self.free,
            &self.neighbor,
            &self.cover,
            &mut self.after,
            &mut self.stack,
        );
        self.pieces.clear();
        for (&old, &new) in self.region.iter().zip(&self.after) {
            if old == NONE || new == NONE || units[old as usize] == 0 {
                continue;
            }
            match self
                .pieces
                .iter_mut()
                .find(|p| p.old == old && p.new == new)
            {
                Some(p) => p.cells += 1,
                None => self.pieces.push(Piece { old, new, cells: 1 }),
            }
        }
        self.pieces.sort_unstable();
        n
    }

    /// Takes back the step of [`Fluid::step_pieces`] in the cover map.
    pub fn unstep(&mut self, moves: &MoveGenerator, (j, from, to): (usize, usize, usize)) {
        self.place(moves, j, to, NONE);
        self.place(moves, j, from, j as u16);
    }

    /// Calls `emit` with every successor of the state `key`, which must be
    /// the state last [`Fluid::load`]ed (the caller may read its regions
    /// first): each step of a big block onto cells that are free of big
    /// blocks and whose regions keep room for their units, once per way of
    /// sharing each split region's units among its pieces, with the lowest
    /// cell of each of its regions. Stops early when `emit` returns true.
    pub fn successors(
        &mut self,
        moves: &MoveGenerator,
        key: &[u16],
        emit: &mut dyn FnMut(&[u16], &[u16]) -> bool,
    ) {
        let b = self.big.len();
        let (anchors, counts) = key.split_at(b);
        debug_assert_eq!(self.size.len(), counts.len(), "`key` is the state loaded");
        for j in 0..b {
            if !moves.movable(self.big[j]) {
                continue;
            }
            let (t, a) = (self.big_type[j], anchors[j] as usize);
            for d in 0..4 {
                let Some(to) = moves.empty_step(t, a, d) else {
                    continue;
                };
                if !self.room(moves.leading_edge(t, d), a, counts) {
                    continue;
                }
                let n = self.step_pieces(moves, (j, a, to), counts);
                let mut mins = std::mem::take(&mut self.mins);
                lowest_cells(&self.after, n, &mut mins);
                self.anchors.clear();
                self.anchors.extend_from_slice(anchors);
                self.anchors[j] = to as u16;
                self.anchors[self.group[j].clone()].sort_unstable();
                let pieces = std::mem::take(&mut self.pieces);
                let (mut totals, mut amounts) = (
                    std::mem::take(&mut self.totals),
                    std::mem::take(&mut self.amounts),
                );
                totals.clear();
                totals.resize(n, 0);
                let prefix = &mut self.anchors;
                let mut next = |totals: &[u16], _: &[u16]| {
                    let at = prefix.len();
                    prefix.extend_from_slice(totals);
                    let stop = emit(prefix, &mins);
                    prefix.truncate(at);
                    stop
                };
                let stop = each_share(&pieces, counts, &mut totals, &mut amounts, &mut next);
                (self.pieces, self.totals, self.amounts) = (pieces, totals, amounts);
                self.mins = mins;
                self.unstep(moves, (j, a, to));
                if stop {
                    return;
                }
            }
        }
    }

    /// True when the cells `edge` (offsets from `anchor`) that a step newly
    /// covers hold no big block and their regions have room for their units
    /// beside them.
    fn room(&mut self, edge: &[i32], anchor: usize, counts: &[u16]) -> bool {
        self.need.clear();
        self.need.resize(counts.len(), 0);
        for &off in edge {
            let x = (anchor as i32 + off) as usize;
            if self.cover[x] != NONE {
                return false;
            }
            if self.free[x] {
                self.need[self.region[x] as usize] += 1;
            }
        }
        (0..counts.len()).all(|r| counts[r] + self.need[r] <= self.size[r])
    }
}

/// The lowest cell of each of the `n` regions numbered in `map` into `out`
/// (one pass, stopping once every region is met).
fn lowest_cells(map: &[u16], n: usize, out: &mut Vec<u16>) {
    out.clear();
    out.resize(n, NONE);
    let mut found = 0;
    for (c, &r) in map.iter().enumerate() {
        if r != NONE && out[r as usize] == NONE {
            out[r as usize] = c as u16;
            found += 1;
            if found == n {
                break;
            }
        }
    }
}

/// Numbers the connected regions of the cells that are `free` and not
/// covered into `out` (others [`NONE`]), in the order of their lowest
/// cell; returns how many.
fn flood(
    free: &[bool],
    neighbor: &[[u16; 4]],
    cover: &[u16],
    out: &mut [u16],
    stack: &mut Vec<u16>,
) -> usize {
    out.fill(NONE);
    let mut n = 0u16;
    for c in 0..out.len() {
        if !free[c] || cover[c] != NONE || out[c] != NONE {
            continue;
        }
        out[c] = n;
        stack.push(c as u16);
        while let Some(x) = stack.pop() {
            for &y in &neighbor[x as usize] {
                let y = y as usize;
                if y != NONE as usize && free[y] && cover[y] == NONE && out[y] == NONE {
                    out[y] = n;
                    stack.push(y as u16);
                }
            }
        }
        n += 1;
    }
    n as usize
}

/// Enumerates the ways to share each old region's units (`units[old]`)
/// among its `pieces` (sorted by `old`, each taking at most its cells):
/// calls `emit(totals, amounts)` with the units per new region and per
/// piece, until it returns true (then returns true itself).
pub fn each_share(
    pieces: &[Piece],
    units: &[u16],
    totals: &mut [u16],
    amounts: &mut Vec<u16>,
    emit: &mut dyn FnMut(&[u16], &[u16]) -> bool,
) -> bool {
    amounts.clear();
    match pieces.first() {
        None => emit(totals, amounts),
        Some(p) => share_from(
            pieces,
            0,
            units[p.old as usize],
            units,
            totals,
            amounts,
            emit,
        ),
    }
}

/// [`each_share`] from piece `p` on, `left` units of its region not yet placed.
fn share_from(
    pieces: &[Piece],
    p: usize,
    left: u16,
    units: &[u16],
    totals: &mut [u16],
    amounts: &mut Vec<u16>,
    emit: &mut dyn FnMut(&[u16], &[u16]) -> bool,
) -> bool {
    let Some(&piece) = pieces.get(p) else {
        return emit(totals, amounts);
    };
    let rest: u16 = pieces[p + 1..]
        .iter()
        .take_while(|q| q.old == piece.old)
        .map(|q| q.cells)
        .sum();
    let last = pieces.get(p + 1).is_none_or(|q| q.old != piece.old);
    for take in left.saturating_sub(rest)..=left.min(piece.cells) {
        let next = match pieces.get(p + 1) {
            Some(q) if last => units[q.old as usize],
            _ => left - take,
        };
        totals[piece.new as usize] += take;
        amounts.push(take);
        let done = share_from(pieces, p + 1, next, units, totals, amounts, emit);
        amounts.pop();
        totals[piece.new as usize] -= take;
        if done {
            return true;
        }
    }
    false
}
