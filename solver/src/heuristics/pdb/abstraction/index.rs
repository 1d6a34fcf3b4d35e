//! The table index of an abstract position: its permutation rank (the
//! project's [`RankEncoding`], no hash table), split by the master's anchor
//! when the abstraction keeps a single master.
//!
//! Why split: the plain rank counts every string of block symbols and spaces
//! over every open cell, door cells included. On GNOME Klotski levels the
//! master leaves the frame through a door into an area of a dozen or more
//! master-only cells; counted as open cells for every block, they multiply
//! the table by millions although no other block can stand there. Split,
//! the index is the master's anchor slot, then the rank of the other blocks
//! over the cells they may take with the master in place (door cells and the
//! master's cells made walls): a table small enough to keep every block of
//! Red Donkey, whose plain rank is about 10^21.

use crate::encoding::{PositionEncoding, RankEncoding};
use crate::model::{Board, CellKind, Position, Puzzle};
use crate::moves::{ShapeTable, State};

/// How a table indexes the abstract positions.
#[derive(Clone)]
pub enum TableIndex {
    /// The permutation rank over the whole board (boxed: the encoding's
    /// scratch makes it several times the split index's size).
    Rank(Box<RankEncoding>),
    /// The master's anchor, then the others' rank (see the module doc).
    Split(SplitIndex),
}

/// The master-split index: one rank encoding per anchor the master can take.
#[derive(Clone)]
pub struct SplitIndex {
    /// The master's instance: the last one (its type is the last type).
    master: usize,
    /// The master's cell offsets.
    master_cells: Vec<i32>,
    /// Per cell: the part whose master anchor it is, or `u32::MAX`.
    slot: Vec<u32>,
    parts: Vec<Part>,
    /// Number of indices over all parts.
    size: u64,
}

/// The positions with the master on one anchor.
#[derive(Clone)]
struct Part {
    anchor: u16,
    /// First index of this part.
    offset: u64,
    /// The other blocks' rank over the board with the master's cells walled.
    encoding: RankEncoding,
}

/// Most (master anchors x board cells) a split index may hold: each part has
/// per-cell scratch, so huge boards keep the plain rank.
const SPLIT_CELLS: usize = 1 << 22;

impl TableIndex {
    /// The index for `puzzle` (an abstraction whose master, if any, is its
    /// last type); `None` when it has 2^32 entries or more.
    pub fn new(puzzle: &Puzzle, shapes: &ShapeTable) -> Option<TableIndex> {
        if let Some(split) = SplitIndex::new(puzzle, shapes) {
            return (split.size < 1 << 32).then_some(TableIndex::Split(split));
        }
        let rank = RankEncoding::new(puzzle, shapes);
        let bound = rank.bound();
        if bound.iter().skip(1).any(|&w| w != 0) || bound[0] >= 1 << 32 {
            return None;
        }
        Some(TableIndex::Rank(Box::new(rank)))
    }

    /// Number of entries.
    pub fn size(&self) -> u64 {
        match self {
            TableIndex::Rank(r) => r.bound()[0],
            TableIndex::Split(s) => s.size,
        }
    }

    /// A short name of the layout, for the cache key.
    pub fn layout(&self) -> &'static str {
        match self {
            TableIndex::Rank(_) => "rank",
            TableIndex::Split(_) => "master-split rank",
        }
    }

    /// The index of `state`.
    #[inline]
    pub fn rank(&mut self, state: &State, key: &mut [u64]) -> usize {
        match self {
            TableIndex::Rank(r) => {
                r.encode(state, key);
                key[0] as usize
            }
            TableIndex::Split(s) => {
                let part = &mut s.parts[s.slot[state.anchors[s.master] as usize] as usize];
                part.encoding.encode(state, key);
                (part.offset + key[0]) as usize
            }
        }
    }

    /// Sets `state` (anchors and owner map) to the position of index `rank`.
    #[inline]
    pub fn unrank(&mut self, rank: usize, state: &mut State, key: &mut [u64]) {
        key.fill(0);
        match self {
            TableIndex::Rank(r) => {
                key[0] = rank as u64;
                r.decode(key, state);
            }
            TableIndex::Split(s) => {
                let k = s.parts.partition_point(|p| p.offset <= rank as u64) - 1;
                let part = &mut s.parts[k];
                key[0] = rank as u64 - part.offset;
                part.encoding.decode(key, state);
                state.anchors[s.master] = part.anchor;
                for &off in &s.master_cells {
                    state.owner[(part.anchor as i32 + off) as usize] = s.master as u16;
                }
            }
        }
    }
}

impl SplitIndex {
    /// The split index, when `puzzle`'s last type is a single master and the
    /// board is small enough (see [`SPLIT_CELLS`]).
    fn new(puzzle: &Puzzle, shapes: &ShapeTable) -> Option<SplitIndex> {
        let t = puzzle.types.len().checked_sub(1)?;
        if !puzzle.types[t].is_master || puzzle.counts[t] != 1 {
            return None;
        }
        let board = &puzzle.board;
        let anchors: Vec<usize> = (0..board.len())
            .filter(|&a| {
                puzzle
                    .cells_at(t, a)
                    .is_some_and(|cells| cells.iter().all(|&c| board.allows(c, true)))
            })
            .collect();
        if anchors.len().saturating_mul(board.len()) > SPLIT_CELLS {
            return None;
        }
        let covered: usize = (0..t)
            .map(|u| puzzle.counts[u] * puzzle.types[u].shape.size())
            .sum();
        let master_cells = shapes.cells(t).to_vec();
        let mut slot = vec![u32::MAX; board.len()];
        let mut parts: Vec<Part> = Vec::new();
        let mut size = 0u64;
        for &a in &anchors {
            let mut cells: Vec<CellKind> = board
                .cells()
                .iter()
                .map(|&k| {
                    if k == CellKind::Door {
                        CellKind::Wall
                    } else {
                        k
                    }
                })
                .collect();
            for &off in &master_cells {
                cells[(a as i32 + off) as usize] = CellKind::Wall;
            }
            if cells.iter().filter(|&&k| k == CellKind::Free).count() < covered {
                continue; // the other blocks do not fit beside the master here
            }
            let others = Puzzle::new(
                Board::new(board.width(), board.height(), cells),
                puzzle.types[..t].to_vec(),
                puzzle.counts[..t].to_vec(),
                Position {
                    anchors: puzzle.start.anchors[..puzzle.instances() - 1].to_vec(),
                },
                Vec::new(),
            );
            let encoding = RankEncoding::new(&others, &ShapeTable::new(&others));
            let bound = encoding.bound();
            if bound.iter().skip(1).any(|&w| w != 0) {
                return Some(SplitIndex::too_large(t));
            }
            let entries = bound[0];
            slot[a] = parts.len() as u32;
            parts.push(Part {
                anchor: a as u16,
                offset: size,
                encoding,
            });
            size = size.saturating_add(entries);
        }
        Some(SplitIndex {
            master: puzzle.instances() - 1,
            master_cells,
            slot,
            parts,
            size,
        })
    }

    /// A split index reporting a size too large to build.
    fn too_large(t: usize) -> SplitIndex {
        SplitIndex {
            master: t,
            master_cells: Vec::new(),
            slot: Vec::new(),
            parts: Vec::new(),
            size: u64::MAX,
        }
    }
}
