//! The tile puzzles' `pdb` heuristic: the sum of the pattern tables, again
//! through the diagonal reflection where the goal is symmetric, the larger
//! sum, and Manhattan plus linear conflict where that is larger still.
//!
//! A depth-first search tells it each move onto and off its path
//! ([`Heuristic::advance`], [`Heuristic::retreat`]): it keeps every
//! lookup's value per depth, and a move changes only the moved tile's two
//! lookups (plain and reflected), so a node costs two ranks of k cells and
//! two table reads, with no allocation once the path's deepest row exists.

use super::index::{PatternIndex, MAX_TILES};
use super::layers::{manhattan_sums, MAX_FAST_TILES};
use super::reflect::Reflection;
use super::values::Values;
use super::TileBoard;
use crate::geometry::Geometry;
use crate::heuristics::manhattan::ManhattanLinearConflict;
use crate::heuristics::Heuristic;
use crate::model::Puzzle;
use crate::moves::{Move, State};

/// One filled table.
#[derive(Clone)]
pub struct TileTable {
    /// The pattern's tiles (instances), in the order the rank reads them.
    pub tiles: Vec<usize>,
    pub values: Values,
    /// Milliseconds spent building it (0 when read from the cache).
    pub build_ms: u64,
    pub from_cache: bool,
}

/// One way of reading a table: the instances whose cells it ranks, through
/// a cell map (the identity, or the reflection).
struct Lookup {
    table: usize,
    sources: Vec<u16>,
    map: Vec<u8>,
}

impl TileTable {
    /// The index of this table's placements on `board`.
    pub fn index(&self, board: &TileBoard) -> PatternIndex {
        PatternIndex::new(board.open, self.tiles.len()).expect("a built table's size fits")
    }
}

/// Marks "no lookup" in [`TileDatabases::by_instance`].
pub const NONE: u16 = u16::MAX;

/// The heuristic over built or loaded tile tables.
pub struct TileDatabases {
    board: TileBoard,
    tables: Vec<TileTable>,
    /// Per table: its index.
    indexes: Vec<PatternIndex>,
    /// The plain lookups, then (with a reflection) the reflected ones.
    lookups: Vec<Lookup>,
    plain: usize,
    /// Per instance: the lookups that read its cell.
    by_instance: Vec<[u16; 2]>,
    /// Manhattan distance of instance i at cell c: `md[i * cells + c]`.
    md: Vec<u8>,
    cells: usize,
    manhattan: ManhattanLinearConflict,
    /// Per depth of the path: Manhattan plus linear conflict, then every lookup's value.
    stack: Vec<u32>,
}

impl TileDatabases {
    /// The heuristic of `tables` on `board`, looked up again through
    /// `reflection` when there is one.
    pub fn new(
        puzzle: &Puzzle,
        geometry: &Geometry,
        board: TileBoard,
        tables: Vec<TileTable>,
        reflection: Option<&Reflection>,
    ) -> TileDatabases {
        let cells = puzzle.board.len();
        let identity: Vec<u8> = (0..cells as u32).map(|c| c as u8).collect();
        let mut lookups: Vec<Lookup> = tables
            .iter()
            .enumerate()
            .map(|(table, t)| Lookup {
                table,
                sources: t.tiles.iter().map(|&i| i as u16).collect(),
                map: identity.clone(),
            })
            .collect();
        let plain = lookups.len();
        if let Some(r) = reflection {
            for (table, t) in tables.iter().enumerate() {
                lookups.push(Lookup {
                    table,
                    sources: t.tiles.iter().map(|&i| r.tile[i] as u16).collect(),
                    map: r.cell.clone(),
                });
            }
        }
        let mut by_instance = vec![[NONE; 2]; puzzle.instances()];
        for (id, l) in lookups.iter().enumerate() {
            for &s in &l.sources {
                let slot = usize::from(by_instance[s as usize][0] != NONE);
                by_instance[s as usize][slot] = id as u16;
            }
        }
        let md = (0..puzzle.instances())
            .flat_map(|i| (0..cells as u32).map(move |c| (i, c)))
            .map(|(i, c)| board.manhattan(c, board.goal[i]) as u8)
            .collect();
        TileDatabases {
            manhattan: ManhattanLinearConflict::new(puzzle, geometry, false),
            indexes: tables.iter().map(|t| t.index(&board)).collect(),
            board,
            tables,
            lookups,
            plain,
            by_instance,
            md,
            cells,
            stack: Vec::new(),
        }
    }

    /// The tables, for reports.
    pub fn tables(&self) -> &[TileTable] {
        &self.tables
    }

    /// The board the tables were built on.
    pub fn board(&self) -> &TileBoard {
        &self.board
    }

    /// Every lookup, the plain ones first: its table's index and values,
    /// the instances it ranks (in the table's order) and the map their
    /// cells go through (the identity, or the reflection). The tile IDA*
    /// ([`crate::search`]'s kernel for these puzzles) evaluates them itself.
    pub fn lookups(&self) -> impl Iterator<Item = (&PatternIndex, &Values, &[u16], &[u8])> {
        self.lookups.iter().map(|l| {
            let table = &self.tables[l.table];
            (
                &self.indexes[l.table],
                &table.values,
                &l.sources[..],
                &l.map[..],
            )
        })
    }

    /// How many of [`TileDatabases::lookups`] are plain (the rest reflected).
    pub fn plain_lookups(&self) -> usize {
        self.plain
    }

    /// Per instance: the ids of the lookups that read its cell (up to
    /// two, plain first; [`NONE`] for none).
    pub fn by_instance(&self) -> &[[u16; 2]] {
        &self.by_instance
    }

    /// Manhattan distance of instance i at cell c, `md[i * cells + c]`,
    /// and `cells`.
    pub fn distances(&self) -> (&[u8], usize) {
        (&self.md, self.cells)
    }

    /// True when every table is read a second time through the reflection.
    pub fn reflected(&self) -> bool {
        self.lookups.len() > self.plain
    }

    /// The mean estimate of table `t` over the placements its search reached.
    pub fn mean(&self, t: usize) -> f64 {
        let (table, pattern) = (&self.tables[t], &self.indexes[t]);
        let goals: Vec<u32> = table.tiles.iter().map(|&i| self.board.goal[i]).collect();
        let (mut sum, mut reached, mut index) = (0u64, 0u64, 0u64);
        let mut add = |md: u32, index: u64| {
            if table.values.reached(index) {
                reached += 1;
                sum += u64::from(md + 2 * table.values.get(index));
            }
        };
        if goals.len() <= MAX_FAST_TILES {
            for r in 0..pattern.sets() {
                manhattan_sums(&self.board, pattern, &goals, r, &mut |md| {
                    add(u32::from(md), index);
                    index += 1;
                });
            }
        } else {
            let mut cells = vec![0u32; goals.len()];
            for index in 0..pattern.len() {
                pattern.cells(index, &mut cells);
                let md = cells.iter().zip(&goals);
                add(md.map(|(&c, &g)| self.board.manhattan(c, g)).sum(), index);
            }
        }
        sum as f64 / reached.max(1) as f64
    }

    /// The value of lookup `id` at `state`.
    #[inline]
    fn value(&self, id: usize, state: &State) -> u32 {
        let l = &self.lookups[id];
        let anchor = |s: u16| state.anchors[s as usize] as usize;
        let md: u32 = l
            .sources
            .iter()
            .map(|&s| u32::from(self.md[s as usize * self.cells + anchor(s)]))
            .sum();
        let mut cells = [0u32; MAX_TILES];
        for (c, &s) in cells.iter_mut().zip(&l.sources) {
            *c = u32::from(l.map[anchor(s)]);
        }
        let index = self.indexes[l.table].index(&cells[..l.sources.len()]);
        md + 2 * self.tables[l.table].values.get(index)
    }

    /// The estimate from one row of the stack.
    #[inline]
    fn combine(&self, row: &[u32]) -> u32 {
        let plain: u32 = row[1..=self.plain].iter().sum();
        let reflected: u32 = row[1 + self.plain..].iter().sum();
        row[0].max(plain).max(reflected)
    }
}

impl Heuristic for TileDatabases {
    fn name(&self) -> &'static str {
        "pdb"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        let mut row = std::mem::take(&mut self.stack);
        row.clear();
        row.push(self.manhattan.estimate(state));
        for id in 0..self.lookups.len() {
            row.push(self.value(id, state));
        }
        self.stack = row;
        self.combine(&self.stack)
    }

    fn advance(&mut self, after: &State, m: Move, _before: u32) -> u32 {
        let stride = 1 + self.lookups.len();
        let Some(parent) = self.stack.len().checked_sub(stride) else {
            return self.estimate(after); // no path yet: this position is its root
        };
        self.stack.extend_from_within(parent..);
        let row = parent + stride;
        self.stack[row] = self.manhattan.estimate_after(after, m, self.stack[parent]);
        for id in self.by_instance[m.instance as usize] {
            if id != NONE {
                self.stack[row + 1 + id as usize] = self.value(id as usize, after);
            }
        }
        self.combine(&self.stack[row..])
    }

    fn retreat(&mut self) {
        let stride = 1 + self.lookups.len();
        if self.stack.len() > stride {
            self.stack.truncate(self.stack.len() - stride);
        }
    }

    fn memory_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.values.bytes()).sum()
    }
}
