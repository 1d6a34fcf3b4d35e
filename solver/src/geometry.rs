//! Measures of a position shared by heuristics, prunings, features and
//! progress reporting: goal distance and space value.

use crate::model::{CellKind, Goal, Puzzle};
use crate::moves::{State, NO_OWNER};

/// Most entries of [`Geometry`]'s distance rows (2 MiB): a goal that names
/// more unique blocks than that allows on its board is measured cell by cell.
const MAX_DISTANCE_ENTRIES: usize = 1 << 20;

/// Row/column tables and goal targets of one puzzle and goal section.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub width: usize,
    row: Vec<i32>,
    col: Vec<i32>,
    /// Free (non-wall, non-door) cells: where spaces are counted.
    space_cells: Vec<u16>,
    /// Per goal requirement: the instance range of its type and its target anchors.
    targets: Vec<(std::ops::Range<usize>, Vec<u16>)>,
    /// The requirements on unique blocks, flattened: (instance, goal anchor).
    unique_targets: Vec<(u16, u16)>,
    /// Per unique requirement, one row of the board's length: each
    /// anchor's Manhattan distance to the requirement's goal anchor. One
    /// load a requirement instead of four, where the 15-puzzle's fifteen
    /// made [`Geometry::goal_distance`] a tenth of a BFS's instructions.
    /// Empty when it would exceed [`MAX_DISTANCE_ENTRIES`].
    unique_distances: Vec<u16>,
    /// The requirements on interchangeable blocks.
    shared_targets: Vec<(std::ops::Range<usize>, Vec<u16>)>,
    /// The master's instance and its goal anchor, when the goal fixes the master.
    pub master: Option<(usize, u16)>,
    /// Per instance: the goal names its type.
    in_goal: Vec<bool>,
}

impl Geometry {
    pub fn new(puzzle: &Puzzle, goal: Option<&Goal>) -> Geometry {
        let w = puzzle.board.width();
        let n = puzzle.board.len();
        let targets: Vec<_> = goal
            .map(|g| {
                g.requirements
                    .iter()
                    .map(|r| (puzzle.type_range(r.block_type), r.anchors.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let master = puzzle.master().and_then(|m| {
            let req = goal?.requirements.iter().find(|r| r.block_type == m)?;
            Some((puzzle.type_range(m).start, req.anchors[0]))
        });
        let unique_targets = targets
            .iter()
            .filter(|(r, _)| r.len() == 1)
            .flat_map(|(r, a)| a.iter().map(move |&g| (r.start as u16, g)))
            .collect();
        let shared_targets = targets
            .iter()
            .filter(|(r, _)| r.len() != 1)
            .cloned()
            .collect();
        let mut in_goal = vec![false; puzzle.instances()];
        for (r, _) in &targets {
            in_goal[r.clone()].fill(true);
        }
        let mut geometry = Geometry {
            in_goal,
            unique_targets,
            unique_distances: Vec::new(),
            shared_targets,
            width: w,
            row: (0..n).map(|c| (c / w) as i32).collect(),
            col: (0..n).map(|c| (c % w) as i32).collect(),
            space_cells: (0..n)
                .filter(|&c| puzzle.board.kind(c) == CellKind::Free)
                .map(|c| c as u16)
                .collect(),
            targets,
            master,
        };
        geometry.unique_distances = geometry.distance_rows();
        geometry
    }

    /// [`Geometry::unique_distances`]: per unique requirement, each cell's
    /// [`Geometry::manhattan`] distance to its goal anchor (empty past
    /// [`MAX_DISTANCE_ENTRIES`]).
    fn distance_rows(&self) -> Vec<u16> {
        let n = self.row.len();
        if self.unique_targets.len() * n > MAX_DISTANCE_ENTRIES {
            return Vec::new();
        }
        self.unique_targets
            .iter()
            .flat_map(|&(_, g)| (0..n).map(move |c| self.manhattan(c, g as usize) as u16))
            .collect()
    }

    /// Manhattan distance between two cells.
    #[inline]
    pub fn manhattan(&self, a: usize, b: usize) -> u32 {
        ((self.row[a] - self.row[b]).abs() + (self.col[a] - self.col[b]).abs()) as u32
    }

    pub fn row(&self, cell: usize) -> i32 {
        self.row[cell]
    }

    pub fn col(&self, cell: usize) -> i32 {
        self.col[cell]
    }

    /// Goal requirements: instance range and target anchors.
    pub fn targets(&self) -> &[(std::ops::Range<usize>, Vec<u16>)] {
        &self.targets
    }

    /// Sum over the goal's target anchors of the Manhattan distance to the
    /// nearest instance of the required type: the master's distance for the
    /// usual one-block goal (the progress measure of thesis §6.3).
    #[inline]
    pub fn goal_distance(&self, state: &State) -> u32 {
        let mut total = 0;
        if self.unique_distances.is_empty() {
            for &(i, g) in &self.unique_targets {
                total += self.manhattan(state.anchors[i as usize] as usize, g as usize);
            }
        } else {
            let rows = self.unique_distances.chunks_exact(self.row.len());
            for (&(i, _), row) in self.unique_targets.iter().zip(rows) {
                total += row[state.anchors[i as usize] as usize] as u32;
            }
        }
        total + self.shared_goal_distance(state)
    }

    /// The goal's requirements on unique blocks: (instance, goal anchor).
    pub fn unique_targets(&self) -> &[(u16, u16)] {
        &self.unique_targets
    }

    /// The part of [`Geometry::goal_distance`] owed by interchangeable goal
    /// blocks (0 for the usual master-only goal).
    pub fn shared_goal_distance(&self, state: &State) -> u32 {
        let mut total = 0;
        for (range, anchors) in &self.shared_targets {
            for &g in anchors {
                total += state.anchors[range.clone()]
                    .iter()
                    .map(|&a| self.manhattan(a as usize, g as usize))
                    .min()
                    .unwrap_or(0);
            }
        }
        total
    }

    /// [`Geometry::goal_distance`] after move `m`, from the distance before it:
    /// constant work unless the moved block is interchangeable with a goal block.
    #[inline]
    pub fn distance_after(&self, before: u32, m: crate::moves::Move, after: &State) -> u32 {
        let i = m.instance as usize;
        if self.shared_targets.iter().any(|(r, _)| r.contains(&i)) {
            return self.goal_distance(after);
        }
        let mut d = before as i64;
        for &(t, g) in &self.unique_targets {
            if t as usize == i {
                d += self.manhattan(m.to as usize, g as usize) as i64
                    - self.manhattan(m.from as usize, g as usize) as i64;
            }
        }
        d as u32
    }

    /// True when the goal names instance `i`'s type. A move of any other
    /// block cannot turn a position that is not a goal into one.
    #[inline]
    pub fn in_goal(&self, i: usize) -> bool {
        self.in_goal[i]
    }

    /// True when [`Geometry::is_goal`] reads the owner map: a goal cell
    /// that any of several interchangeable blocks may fill. Otherwise it
    /// reads the anchors only.
    pub fn goal_reads_owner(&self) -> bool {
        !self.shared_targets.is_empty()
    }

    /// True when `state` meets the goal.
    #[inline]
    pub fn is_goal(&self, state: &State) -> bool {
        self.unique_targets
            .iter()
            .all(|&(i, g)| state.anchors[i as usize] == g)
            && self.shared_targets.iter().all(|(range, anchors)| {
                anchors.iter().all(|&g| {
                    let o = state.owner[g as usize];
                    o != NO_OWNER && range.contains(&(o as usize)) && state.anchors[o as usize] == g
                })
            })
    }

    /// Empty free cells (doors excluded).
    pub fn spaces<'a>(&'a self, state: &'a State) -> impl Iterator<Item = usize> + 'a {
        self.space_cells
            .iter()
            .map(|&c| c as usize)
            .filter(move |&c| state.owner[c] == NO_OWNER)
    }

    /// The space value (thesis §3.2.1): the sum of Manhattan distances over all
    /// pairs of spaces. Computed from row and column histograms in linear time.
    pub fn space_value(&self, state: &State) -> u64 {
        // Spaces come in row-major order, so rows are already sorted.
        let mut row_sum = 0i64;
        let mut row_part = 0i64;
        let mut col_count = [0i64; crate::model::MAX_SIDE];
        for (n, c) in self.spaces(state).enumerate() {
            let r = self.row[c] as i64;
            row_part += r * n as i64 - row_sum;
            row_sum += r;
            col_count[self.col[c] as usize] += 1;
        }
        let mut col_part = 0i64;
        let (mut seen, mut seen_sum) = (0i64, 0i64);
        for (x, &k) in col_count.iter().enumerate().take(self.width) {
            if k > 0 {
                col_part += k * (x as i64 * seen - seen_sum);
                seen += k;
                seen_sum += k * x as i64;
            }
        }
        (row_part + col_part) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveGenerator;
    use crate::params::Metric;

    /// The distance rows give the sum of the cell-by-cell Manhattan
    /// distances along a walk, on the 15-puzzle (fifteen unique targets) and
    /// on a Klotski level (the master alone).
    #[test]
    fn goal_distance_from_rows_equals_manhattan_sums() {
        for file in ["tiles/korf_01.txt", "klotski/classic.txt"] {
            let p = crate::formats::bundled(file);
            let g = Geometry::new(&p, p.goals.first());
            assert!(!g.unique_distances.is_empty(), "{file}");
            let mut moves = MoveGenerator::new(&p, Metric::Steps, &[]);
            let mut state = State::new(&p);
            state.load(&p.start, moves.shapes());
            let mut list = Vec::new();
            for step in 0..300 {
                let by_cell: u32 = g
                    .unique_targets
                    .iter()
                    .map(|&(i, t)| g.manhattan(state.anchors[i as usize] as usize, t as usize))
                    .sum();
                assert_eq!(
                    g.goal_distance(&state),
                    by_cell + g.shared_goal_distance(&state),
                    "{file}"
                );
                moves.generate(&state, &mut list);
                moves.apply(&mut state, list[(step * 7 + 3) % list.len()]);
            }
        }
    }
}
