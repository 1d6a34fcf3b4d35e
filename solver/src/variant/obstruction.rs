//! Which blocks stand most in the master's way: the blocks worth removing
//! first when an easier variant is made. The master's shortest path to its
//! goal on the empty board (walls and doors only, its slider axis kept)
//! sweeps a set of cells; a block scores the number of its cells in that
//! swept set, ties broken by how close it stands to it.

use serde::Serialize;

use crate::model::Puzzle;
use crate::solution::Direction;

/// One block's obstruction, as `solver variant --rank --json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Obstruction {
    pub id: char,
    /// The block's start anchor (first cell in reading order).
    pub row: usize,
    pub col: usize,
    /// Cells of the block on the master's swept path.
    pub cells_on_path: usize,
    /// Manhattan distance from the block to the nearest swept cell (0 on
    /// it); none when nothing is swept (no master, no goal for it, or no
    /// way there on the empty board).
    pub distance: Option<u32>,
    /// The final goal fixes blocks of this block's type: removing it drops that requirement.
    pub goal_block: bool,
    /// Block instance index in the puzzle (internal order, stable per puzzle).
    #[serde(skip)]
    pub instance: usize,
}

/// Every block but the master, most obstructing first.
pub fn rank(puzzle: &Puzzle) -> Vec<Obstruction> {
    let swept = swept_cells(puzzle);
    let w = puzzle.board.width();
    let goal_types: Vec<usize> = puzzle
        .final_goal()
        .map(|g| g.requirements.iter().map(|r| r.block_type).collect())
        .unwrap_or_default();
    let mut out: Vec<Obstruction> = (0..puzzle.instances())
        .filter(|&i| !puzzle.types[puzzle.instance_type(i)].is_master)
        .map(|i| {
            let t = puzzle.instance_type(i);
            let anchor = puzzle.start.anchors[i] as usize;
            let cells = puzzle.cells_at(t, anchor).unwrap_or_default();
            let on = cells.iter().filter(|&&c| swept[c]).count();
            let distance = cells
                .iter()
                .flat_map(|&c| {
                    swept
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| **s)
                        .map(move |(s, _)| {
                            ((c / w).abs_diff(s / w) + (c % w).abs_diff(s % w)) as u32
                        })
                })
                .min();
            Obstruction {
                id: puzzle.types[t].id,
                row: anchor / w,
                col: anchor % w,
                cells_on_path: on,
                distance,
                goal_block: goal_types.contains(&t),
                instance: i,
            }
        })
        .collect();
    // A block with no distance sorts after every measured one.
    out.sort_by_key(|o| {
        let far = o.distance.unwrap_or(u32::MAX);
        (std::cmp::Reverse(o.cells_on_path), far, o.instance)
    });
    out
}

/// Cells the master covers along one shortest path from its start to its
/// final goal anchor on the empty board; all false when there is no master,
/// no master goal or no such path.
fn swept_cells(puzzle: &Puzzle) -> Vec<bool> {
    let mut swept = vec![false; puzzle.board.len()];
    let Some(m) = puzzle.master() else {
        return swept;
    };
    let start = puzzle.start.anchors[puzzle.type_range(m).start] as usize;
    for at in master_route(puzzle, start) {
        for c in puzzle.cells_at(m, at).unwrap_or_default() {
            swept[c] = true;
        }
    }
    swept
}

/// The master's anchors along one shortest path from `start` to its final
/// goal anchor on the empty board (walls and doors only, its slider axis
/// kept), the goal first and `start` last; empty when there is no master,
/// no master goal or no such path.
pub fn master_route(puzzle: &Puzzle, start: usize) -> Vec<usize> {
    let Some(m) = puzzle.master() else {
        return Vec::new();
    };
    let Some(goal) = puzzle
        .final_goal()
        .and_then(|g| g.requirements.iter().find(|r| r.block_type == m))
        .and_then(|r| r.anchors.first())
    else {
        return Vec::new();
    };
    let goal = *goal as usize;
    let order = [
        Direction::Right,
        Direction::Left,
        Direction::Down,
        Direction::Up,
    ];
    let (reached, parent) = super::search_empty_board(puzzle, m, start, order, |a| a == goal);
    if reached.is_none() {
        return Vec::new();
    }
    let mut route = vec![goal];
    let mut at = goal;
    while at != start {
        at = parent[at];
        route.push(at);
    }
    route
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    #[test]
    fn the_block_on_the_masters_way_ranks_first() {
        let p = native::parse(super::super::tests::PUZZLE, "t").unwrap();
        let r = rank(&p);
        // The master (2x2 at 1,1) goes right to 2,3: the 'o' at 1,3 and 2,3 are in its way.
        assert_eq!((r[0].row, r[0].col, r[0].cells_on_path), (1, 3, 1));
        assert_eq!((r[1].row, r[1].col, r[1].cells_on_path), (2, 3, 1));
        assert!(r[2].cells_on_path == 0 && r[2].distance >= Some(1), "{r:?}");
        assert_eq!(r.len(), 4);
    }
}
