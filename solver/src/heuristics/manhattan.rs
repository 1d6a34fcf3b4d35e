//! For goals that fix several blocks (the 15-puzzle fixes all): the sum of the
//! goal blocks' Manhattan distances plus linear conflict (Wuebbers §3.4,
//! seed 000): two unit blocks in their goal row (or column) whose goal order
//! is reversed need two extra steps, one to leave the line and one to come
//! back. Counting "line length minus its longest increasing run of goal
//! columns" per line keeps interlocked conflicts admissible. Admissible for
//! the steps metric; under the moves metric a block can cover many cells in
//! one move, so the estimate is the number of goal blocks not yet in place.

use super::Heuristic;
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{State, NO_OWNER};

pub struct ManhattanLinearConflict {
    geometry: Geometry,
    moves_metric: bool,
    /// Per instance: goal anchor for unique unit blocks with a goal (linear conflict).
    unit_goal: Vec<Option<u16>>,
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
        ManhattanLinearConflict {
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
        let g = &self.geometry;
        let mut extra = 0;
        for r in 0..self.height {
            self.line.clear();
            for c in 0..self.width {
                let o = state.owner[r * self.width + c];
                if o == NO_OWNER {
                    continue;
                }
                if let Some(goal) = self.unit_goal[o as usize] {
                    if g.row(goal as usize) == r as i32 {
                        self.line.push(g.col(goal as usize));
                    }
                }
            }
            extra += 2 * (self.line.len() - longest_increasing(&self.line)) as u32;
        }
        for c in 0..self.width {
            self.line.clear();
            for r in 0..self.height {
                let o = state.owner[r * self.width + c];
                if o == NO_OWNER {
                    continue;
                }
                if let Some(goal) = self.unit_goal[o as usize] {
                    if g.col(goal as usize) == c as i32 {
                        self.line.push(g.row(goal as usize));
                    }
                }
            }
            extra += 2 * (self.line.len() - longest_increasing(&self.line)) as u32;
        }
        extra
    }
}

/// Length of the longest strictly increasing subsequence (lines are short).
fn longest_increasing(xs: &[i32]) -> usize {
    if xs.len() < 2 {
        return xs.len();
    }
    let mut tails: [i32; crate::model::MAX_SIDE] = [0; crate::model::MAX_SIDE];
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
