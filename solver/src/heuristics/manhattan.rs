//! For goals that fix several blocks (the 15-puzzle fixes all): the sum of the
//! goal blocks' Manhattan distances plus linear conflict (Wuebbers §3.4,
//! seed 000): two unit blocks in their goal row (or column) whose goal order
//! is reversed need two extra steps, one to leave the line and one to come
//! back. Counting "line length minus its longest increasing run of goal
//! columns" per line keeps interlocked conflicts admissible. Admissible for
//! the steps metric; under the moves metric a block can cover many cells in
//! one move, so the estimate is the number of goal blocks not yet in place.
//! The modified linear conflict adds one step for a row where a goal tile
//! must pass a 1x1 block that has no goal.

use super::{Admissible, Context, Heuristic, Spec};
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{Move, State, NO_OWNER};
use crate::params::Metric;

/// The registration of manhattan (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "manhattan",
    doc: "Sum of goal blocks' Manhattan distances plus linear conflict.",
    admissible: Admissible::Always,
    proximity: true,
    options: &[],
    build: |cx: &Context| {
        Box::new(ManhattanLinearConflict::new(
            cx.puzzle,
            cx.geometry,
            cx.params.metric == Metric::Moves,
        ))
    },
};

pub struct ManhattanLinearConflict {
    geometry: Geometry,
    moves_metric: bool,
    /// Per instance: goal anchor for unique unit blocks with a goal (linear conflict).
    unit_goal: Vec<Option<u16>>,
    /// Per instance: a 1x1 block without any goal (modified linear conflict).
    free_unit: Vec<bool>,
    /// Scratch: (column, goal column) of the row's goal tiles, columns of its free unit blocks.
    tiles: Vec<(i32, i32)>,
    free: Vec<i32>,
    height: usize,
    width: usize,
    line: Vec<i32>,
}

impl ManhattanLinearConflict {
    pub fn new(
        puzzle: &Puzzle,
        geometry: &Geometry,
        moves_metric: bool,
    ) -> ManhattanLinearConflict {
        let mut unit_goal = vec![None; puzzle.instances()];
        for (range, anchors) in geometry.targets() {
            let t = puzzle.instance_type(range.start);
            if range.len() == 1 && anchors.len() == 1 && puzzle.types[t].shape.size() == 1 {
                unit_goal[range.start] = Some(anchors[0]);
            }
        }
        let mut free_unit: Vec<bool> = (0..puzzle.instances())
            .map(|i| puzzle.types[puzzle.instance_type(i)].shape.size() == 1)
            .collect();
        for (range, _) in geometry.targets() {
            for i in range.clone() {
                free_unit[i] = false;
            }
        }
        ManhattanLinearConflict {
            free_unit,
            tiles: Vec::new(),
            free: Vec::new(),
            geometry: geometry.clone(),
            moves_metric,
            unit_goal,
            height: puzzle.board.height(),
            width: puzzle.board.width(),
            line: Vec::new(),
        }
    }

    /// Extra steps from linear conflicts in every row and column.
    fn linear_conflict(&mut self, state: &State) -> u32 {
        let mut extra = 0;
        for r in 0..self.height {
            extra += self.line_conflict(state, Line::Row(r), None);
        }
        for c in 0..self.width {
            extra += self.line_conflict(state, Line::Column(c), None);
        }
        extra
    }

    /// Linear conflict of one line. With `undo = Some(m)` the line is read as
    /// it was before move `m` (the block back at `m.from`).
    fn line_conflict(&mut self, state: &State, line: Line, undo: Option<Move>) -> u32 {
        let g = &self.geometry;
        let (count, first, stride) = match line {
            Line::Row(r) => (self.width, r * self.width, 1),
            Line::Column(c) => (self.height, c, self.width),
        };
        self.line.clear();
        self.tiles.clear();
        self.free.clear();
        for k in 0..count {
            let cell = first + k * stride;
            let mut o = state.owner[cell];
            if let Some(m) = undo {
                if cell == m.to as usize {
                    o = NO_OWNER;
                } else if cell == m.from as usize {
                    o = m.instance;
                }
            }
            if o == NO_OWNER {
                continue;
            }
            if self.free_unit[o as usize] {
                self.free.push(k as i32);
            }
            if let Some(goal) = self.unit_goal[o as usize] {
                let goal = goal as usize;
                match line {
                    Line::Row(r) if g.row(goal) == r as i32 => {
                        self.line.push(g.col(goal));
                        self.tiles.push((k as i32, g.col(goal)));
                    }
                    Line::Column(c) if g.col(goal) == c as i32 => self.line.push(g.row(goal)),
                    _ => {}
                }
            }
        }
        let conflict = 2 * (self.line.len() - longest_increasing(&self.line)) as u32;
        if conflict > 0 || self.free.is_empty() {
            return conflict;
        }
        // Modified linear conflict (Wuebbers §3.5), rows only: a goal tile
        // whose goal lies beyond a 1x1 block without a goal needs one more
        // step, the blocker's (uncounted) move or its own detour. Counting a
        // row at most once and only 1x1 blockers (each in one row) keeps it
        // admissible: one move clears at most one row's blockage.
        let blocked = self.tiles.iter().any(|&(at, goal)| {
            let (lo, hi) = (at.min(goal), at.max(goal));
            self.free.iter().any(|&b| lo < b && b < hi)
        });
        u32::from(blocked)
    }
}

#[derive(Clone, Copy)]
enum Line {
    Row(usize),
    Column(usize),
}

/// Length of the longest strictly increasing subsequence (lines are short).
fn longest_increasing(xs: &[i32]) -> usize {
    if xs.len() < 2 {
        return xs.len();
    }
    let mut small = [0i32; 16];
    let mut large = Vec::new();
    let tails: &mut [i32] = if xs.len() <= small.len() {
        &mut small[..xs.len()]
    } else {
        large.resize(xs.len(), 0);
        &mut large
    };
    let mut len = 0;
    for &x in xs {
        let pos = tails[..len].partition_point(|&t| t < x);
        tails[pos] = x;
        if pos == len {
            len += 1;
        }
    }
    len
}

impl Heuristic for ManhattanLinearConflict {
    fn name(&self) -> &'static str {
        "manhattan"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        if self.moves_metric {
            return self
                .geometry
                .targets()
                .iter()
                .map(|(range, anchors)| {
                    anchors
                        .iter()
                        .filter(|&&a| !state.anchors[range.clone()].contains(&a))
                        .count() as u32
                })
                .sum();
        }
        self.geometry.goal_distance(state) + self.linear_conflict(state)
    }

    fn estimate_after(&mut self, after: &State, m: Move, before: u32) -> u32 {
        let i = m.instance as usize;
        let unit_step = self.geometry.manhattan(m.from as usize, m.to as usize) == 1;
        if self.moves_metric || !unit_step || self.unit_goal[i].is_none() {
            return self.estimate(after);
        }
        // Only the moved tile's distance and the two lines it crossed change;
        // the line it moved along keeps its order.
        let g = &self.geometry;
        let goal = self.unit_goal[i].expect("checked") as usize;
        let mut h = before as i64 + g.manhattan(m.to as usize, goal) as i64
            - g.manhattan(m.from as usize, goal) as i64;
        let lines = if g.row(m.from as usize) == g.row(m.to as usize) {
            [
                Line::Column(g.col(m.from as usize) as usize),
                Line::Column(g.col(m.to as usize) as usize),
            ]
        } else {
            [
                Line::Row(g.row(m.from as usize) as usize),
                Line::Row(g.row(m.to as usize) as usize),
            ]
        };
        for line in lines {
            h += self.line_conflict(after, line, None) as i64
                - self.line_conflict(after, line, Some(m)) as i64;
        }
        h as u32
    }
}

#[cfg(test)]
mod tests {
    use super::longest_increasing;

    #[test]
    fn longest_increasing_run() {
        assert_eq!(longest_increasing(&[]), 0);
        assert_eq!(longest_increasing(&[3, 1, 2]), 2);
        assert_eq!(longest_increasing(&[4, 3, 2, 1]), 1);
        assert_eq!(longest_increasing(&[1, 2, 3]), 3);
    }
}
