//! Easier variants of a puzzle (thesis §5.1.4, §8.3.4): the same board with
//! some blocks removed, whose solution, replayed, gives a subgoal sequence
//! for the full puzzle. The reasoner drives this through `solver variant`;
//! the solver only derives and writes puzzles, it decides nothing.
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | removing blocks: the variant puzzle |
//! | [`freeze`] | freezing blocks into walls (a restriction: its solutions solve the full puzzle) |
//! | [`merge`] | merging interchangeable blocks, and its solution back in the full puzzle's ids |
//! | [`obstruction`] | which blocks obstruct the master's way most |
//! | [`park`] | parking the blocks on the master's way from a stall position, as a goal section |
//! | [`subgoals`] | a variant's solution as goal sections of the full puzzle |

pub mod freeze;
pub mod merge;
pub mod obstruction;
pub mod park;
pub mod split;
pub mod subgoals;

use std::collections::VecDeque;

use crate::model::{Cell, Goal, GoalRequirement, Position, Puzzle};
use crate::moves::MoveGenerator;
use crate::params::Metric;
use crate::solution::Direction;

/// Breadth-first search over the anchors a block of type `t` reaches from
/// `from` by unit steps on the empty board, through the move generator's
/// tables (walls, doors for all but the master, a slider along its axis),
/// trying the directions in `order` (which decides among equally near
/// anchors). Returns the first anchor, in that order, where `found` holds,
/// and each reached anchor's parent (`usize::MAX` where not reached; `from`
/// is its own), for walking a route back.
pub(crate) fn search_empty_board(
    puzzle: &Puzzle,
    t: usize,
    from: usize,
    order: [Direction; 4],
    found: impl Fn(usize) -> bool,
) -> (Option<usize>, Vec<usize>) {
    let moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
    let mut parent = vec![usize::MAX; puzzle.board.len()];
    parent[from] = from;
    let mut queue = VecDeque::from([from]);
    while let Some(a) = queue.pop_front() {
        if found(a) {
            return (Some(a), parent);
        }
        for d in order {
            if let Some(b) = moves.empty_step(t, a, d as usize) {
                if parent[b] == usize::MAX {
                    parent[b] = a;
                    queue.push_back(b);
                }
            }
        }
    }
    (None, parent)
}

/// The block instance of `puzzle` whose start anchor is at `row`, `col`.
pub fn instance_at(puzzle: &Puzzle, row: usize, col: usize) -> Result<usize, String> {
    let (w, h) = (puzzle.board.width(), puzzle.board.height());
    if row >= h || col >= w {
        return Err(format!(
            "{row},{col} is off the board ({h} rows, {w} columns)"
        ));
    }
    let cell = puzzle.board.index(row, col) as Cell;
    let i = puzzle
        .start
        .anchors
        .iter()
        .position(|&a| a == cell)
        .ok_or_else(|| {
            format!("no block has its anchor (first cell in reading order) at {row},{col}: `solver show` prints the start grid")
        })?;
    if puzzle.types[puzzle.instance_type(i)].is_master {
        return Err(format!(
            "the block at {row},{col} is the master; a variant keeps it"
        ));
    }
    Ok(i)
}

/// The puzzle without the block instances `removed`. A type left with no
/// instance disappears; a goal requirement on a type that lost instances is
/// dropped (so removing a goal block other than the master also relaxes the
/// goal). The metadata measured of the puzzle (`optimum`, `measured`,
/// `reachable`, `note`) no longer holds and is left out.
pub fn remove(puzzle: &Puzzle, removed: &[usize]) -> Puzzle {
    derive(puzzle, removed, "removed")
}

/// The puzzle without the block instances `removed`, named and described as a
/// variant whose blocks were `verb` ("removed", "frozen"); the board is
/// `puzzle`'s.
pub(crate) fn derive(puzzle: &Puzzle, removed: &[usize], verb: &str) -> Puzzle {
    let mut counts = puzzle.counts.clone();
    for &i in removed {
        counts[puzzle.instance_type(i)] -= 1;
    }
    let kept_types: Vec<usize> = (0..puzzle.types.len()).filter(|&t| counts[t] > 0).collect();
    let new_index = |t: usize| kept_types.iter().position(|&k| k == t);
    let anchors: Vec<Cell> = (0..puzzle.instances())
        .filter(|i| !removed.contains(i))
        .map(|i| puzzle.start.anchors[i])
        .collect();
    let goals = goals_renumbered(puzzle, |t| {
        new_index(t).filter(|_| counts[t] == puzzle.counts[t])
    });
    let mut variant = Puzzle::new(
        puzzle.board.clone(),
        kept_types
            .iter()
            .map(|&t| puzzle.types[t].clone())
            .collect(),
        kept_types.iter().map(|&t| counts[t]).collect(),
        Position { anchors },
        goals,
    );
    let name = format!(
        "{} (variant: {} block(s) {verb})",
        puzzle.name.as_deref().unwrap_or("puzzle"),
        removed.len()
    );
    variant.metadata = vec![("name".to_string(), name.clone())];
    variant.metadata.extend(
        puzzle
            .metadata
            .iter()
            // What was measured of the puzzle (its optimum, reachable
            // count, notes on searches) does not hold for a variant.
            .filter(|(k, _)| {
                !["optimum", "name", "measured", "reachable", "note"]
                    .iter()
                    .any(|n| k.eq_ignore_ascii_case(n))
            })
            .cloned(),
    );
    variant
        .metadata
        .push(("variant".to_string(), describe(puzzle, removed, verb)));
    variant.name = Some(name);
    variant
}

/// `puzzle`'s goal sections for a variant whose block type `t` is
/// `new_type(t)`: a requirement on a type it maps to `None` is dropped.
pub(crate) fn goals_renumbered(
    puzzle: &Puzzle,
    new_type: impl Fn(usize) -> Option<usize>,
) -> Vec<Goal> {
    puzzle
        .goals
        .iter()
        .map(|g| Goal {
            requirements: g
                .requirements
                .iter()
                .filter_map(|r| {
                    Some(GoalRequirement {
                        block_type: new_type(r.block_type)?,
                        anchors: r.anchors.clone(),
                    })
                })
                .collect(),
        })
        .collect()
}

/// `removed a 3,1; b 4,2`: the blocks by id and start anchor, after `verb`.
pub fn describe(puzzle: &Puzzle, removed: &[usize], verb: &str) -> String {
    format!("{verb} {}", listed(puzzle, removed))
}

/// `a 3,1; b 4,2`: the block instances by id and start anchor.
pub(crate) fn listed(puzzle: &Puzzle, instances: &[usize]) -> String {
    let w = puzzle.board.width();
    let parts: Vec<String> = instances
        .iter()
        .map(|&i| {
            let a = puzzle.start.anchors[i] as usize;
            let id = puzzle.types[puzzle.instance_type(i)].id;
            format!("{id} {},{}", a / w, a % w)
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    pub(crate) const PUZZLE: &str = "!\n@ 1,0 0,1 1,1\no\n!\n######\n#@@o #\n#@@o #\n#oo  #\n######\n!\n######\n#    #\n#  @@#\n#  @@#\n######\n!\n";

    #[test]
    fn removing_a_block_keeps_the_rest_and_the_goal() {
        let p = native::parse(PUZZLE, "t").unwrap();
        let i = instance_at(&p, 1, 3).unwrap();
        let v = remove(&p, &[i]);
        assert_eq!(v.counts, vec![1, 3]);
        assert_eq!(v.goals, p.goals);
        let text = native::write(&v);
        assert!(text.contains("% variant: removed o 1,3"), "{text}");
        assert_eq!(native::parse(&text, "v").unwrap(), v);
    }

    #[test]
    fn the_master_and_empty_cells_cannot_be_removed() {
        let p = native::parse(PUZZLE, "t").unwrap();
        assert!(instance_at(&p, 1, 1).unwrap_err().contains("master"));
        assert!(instance_at(&p, 1, 4).unwrap_err().contains("no block"));
        assert!(instance_at(&p, 9, 1).unwrap_err().contains("off the board"));
    }
}
