//! A whole puzzle: board, block types, start position and goal sections.

use super::block::BlockType;
use super::board::Board;

/// A cell index on the board (boards have at most 128x128 cells).
pub type Cell = u16;

/// Where every block is: the anchor cell of each block instance. Instances
/// are grouped by type (see [`Puzzle::type_range`]) and, within a type,
/// sorted ascending, so two positions that differ only by swapping
/// interchangeable blocks are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub anchors: Vec<Cell>,
}

/// One requirement of a goal section: these anchors must all be held by
/// instances of this type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRequirement {
    pub block_type: usize,
    /// Sorted anchor cells.
    pub anchors: Vec<Cell>,
}

/// A goal section: where some blocks must be (usually only the master).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Goal {
    pub requirements: Vec<GoalRequirement>,
}

/// A sliding-block puzzle. Built by the parsers in [`crate::formats`], which
/// check every invariant documented here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Free-text name from the file's metadata, if any.
    pub name: Option<String>,
    /// `key: value` metadata lines (name, origin, optimum...).
    pub metadata: Vec<(String, String)>,
    pub board: Board,
    /// Block types; the master, if any, is a unique type.
    pub types: Vec<BlockType>,
    /// Instances per type, parallel to `types`.
    pub counts: Vec<usize>,
    pub start: Position,
    /// Goal sections in order: all but the last are subgoals.
    pub goals: Vec<Goal>,
    /// First instance index of each type, plus the total at the end.
    type_starts: Vec<usize>,
    /// Type of each instance.
    instance_types: Vec<u16>,
}

impl Puzzle {
    /// Assembles a puzzle and derives the instance layout from `counts`.
    pub fn new(
        board: Board,
        types: Vec<BlockType>,
        counts: Vec<usize>,
        start: Position,
        goals: Vec<Goal>,
    ) -> Puzzle {
        let mut type_starts = Vec::with_capacity(types.len() + 1);
        let mut instance_types = Vec::new();
        let mut total = 0;
        for (t, &n) in counts.iter().enumerate() {
            type_starts.push(total);
            total += n;
            instance_types.extend(std::iter::repeat_n(t as u16, n));
        }
        type_starts.push(total);
        let mut puzzle = Puzzle {
            name: None,
            metadata: Vec::new(),
            board,
            types,
            counts,
            start,
            goals,
            type_starts,
            instance_types,
        };
        let mut start = std::mem::take(&mut puzzle.start.anchors);
        puzzle.canonicalize_anchors(&mut start);
        puzzle.start.anchors = start;
        puzzle
    }

    /// Number of block instances.
    pub fn instances(&self) -> usize {
        self.instance_types.len()
    }

    /// Instance indices of a type.
    pub fn type_range(&self, block_type: usize) -> std::ops::Range<usize> {
        self.type_starts[block_type]..self.type_starts[block_type + 1]
    }

    /// The goal section fixing every block where `position` has it.
    pub fn goal_at(&self, position: &Position) -> Goal {
        let requirements = (0..self.types.len())
            .map(|t| {
                let mut anchors = position.anchors[self.type_range(t)].to_vec();
                anchors.sort_unstable();
                GoalRequirement {
                    block_type: t,
                    anchors,
                }
            })
            .collect();
        Goal { requirements }
    }

    /// Type of an instance.
    pub fn instance_type(&self, instance: usize) -> usize {
        self.instance_types[instance] as usize
    }

    /// Index of the master type, if the puzzle has one.
    pub fn master(&self) -> Option<usize> {
        self.types.iter().position(|t| t.is_master)
    }

    /// Index of the type with this identifier.
    pub fn type_by_id(&self, id: char) -> Option<usize> {
        self.types.iter().position(|t| t.id == id)
    }

    /// Sorts anchors within each type so that interchangeable blocks compare equal.
    pub fn canonicalize(&self, position: &mut Position) {
        self.canonicalize_anchors(&mut position.anchors);
    }

    fn canonicalize_anchors(&self, anchors: &mut [Cell]) {
        if anchors.len() != self.instances() {
            return;
        }
        for t in 0..self.types.len() {
            let r = self.type_range(t);
            if r.len() > 1 {
                anchors[r].sort_unstable();
            }
        }
    }

    /// The cells covered by a block of `block_type` anchored at `anchor`, or
    /// `None` if part of it would leave the board.
    pub fn cells_at(&self, block_type: usize, anchor: usize) -> Option<Vec<usize>> {
        self.types[block_type]
            .shape
            .offsets()
            .iter()
            .map(|&(dr, dc)| self.board.offset(anchor, dr, dc))
            .collect()
    }

    /// Per-cell occupant: `Some(instance)` or `None`.
    pub fn occupants(&self, position: &Position) -> Vec<Option<usize>> {
        let mut grid = vec![None; self.board.len()];
        for (i, &a) in position.anchors.iter().enumerate() {
            if let Some(cells) = self.cells_at(self.instance_type(i), a as usize) {
                for c in cells {
                    grid[c] = Some(i);
                }
            }
        }
        grid
    }

    /// True when `position` meets every requirement of `goal`.
    pub fn satisfies(&self, position: &Position, goal: &Goal) -> bool {
        goal.requirements.iter().all(|req| {
            let have = &position.anchors[self.type_range(req.block_type)];
            req.anchors.iter().all(|a| have.binary_search(a).is_ok())
        })
    }

    /// The final goal, if any.
    pub fn final_goal(&self) -> Option<&Goal> {
        self.goals.last()
    }

    /// Sum over a goal's required anchors of the Manhattan distance to the
    /// nearest instance of that type: the master's distance to its goal for the
    /// usual one-block goal (the thesis's progress measure, §6.3).
    pub fn goal_distance(&self, position: &Position, goal: &Goal) -> u32 {
        let w = self.board.width();
        let mut total = 0u32;
        for req in &goal.requirements {
            let have = &position.anchors[self.type_range(req.block_type)];
            for &g in &req.anchors {
                let (gr, gc) = ((g as usize / w) as i32, (g as usize % w) as i32);
                let best = have
                    .iter()
                    .map(|&a| {
                        let (r, c) = ((a as usize / w) as i32, (a as usize % w) as i32);
                        (r - gr).unsigned_abs() + (c - gc).unsigned_abs()
                    })
                    .min()
                    .unwrap_or(0);
                total += best;
            }
        }
        total
    }

    /// The grid of a position as text: block ids, `#` walls, `-` empty doors,
    /// spaces for empty free cells; one line per row, trailing spaces kept.
    pub fn render(&self, position: &Position) -> String {
        self.render_cells(&self.occupants(position), |i| {
            self.types[self.instance_type(i)].id
        })
    }

    /// The grid of a goal section: only the blocks it fixes are drawn.
    pub fn render_goal(&self, goal: &Goal) -> String {
        let mut grid = vec![None; self.board.len()];
        for req in &goal.requirements {
            for &a in &req.anchors {
                for c in self
                    .cells_at(req.block_type, a as usize)
                    .unwrap_or_default()
                {
                    grid[c] = Some(req.block_type);
                }
            }
        }
        self.render_cells(&grid, |t| self.types[t].id)
    }

    fn render_cells(&self, grid: &[Option<usize>], id: impl Fn(usize) -> char) -> String {
        use super::board::CellKind;
        let mut out = String::with_capacity(grid.len() + self.board.height());
        for r in 0..self.board.height() {
            for c in 0..self.board.width() {
                let cell = self.board.index(r, c);
                out.push(match (grid[cell], self.board.kind(cell)) {
                    (Some(i), _) => id(i),
                    (None, CellKind::Wall) => '#',
                    (None, CellKind::Door) => '-',
                    (None, CellKind::Free) => ' ',
                });
            }
            out.push('\n');
        }
        out
    }
}
