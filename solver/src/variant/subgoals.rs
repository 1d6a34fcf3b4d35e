//! A variant's solution as a subgoal sequence for the full puzzle (thesis
//! §5.1.4; our Century experiment did it by hand): the variant's solution is
//! replayed by the verifier, and the position after every `every`-th move
//! becomes a goal section of the full puzzle that fixes the blocks the
//! variant kept (the removed ones may be anywhere), or with [`Fix::Master`]
//! only the master's place (looser: such a subgoal is more often reachable
//! with the removed blocks back on the board); the full puzzle's own goal
//! sections follow. The solver then solves section by section.

use crate::model::{Cell, Goal, GoalRequirement, Puzzle};
use crate::solution::SolutionMove;
use crate::verify::replay_observed;

/// Which blocks a subgoal fixes (declared in the shared vocabulary, which
/// the reasoner's variant recipes use too).
pub use sbp_protocol::SubgoalFix as Fix;

/// The full puzzle with the subgoals taken from `variant`'s `solution`.
/// `variant` must be `full` with blocks removed (types are matched by id).
pub fn from_solution(
    full: &Puzzle,
    variant: &Puzzle,
    solution: &[SolutionMove],
    every: usize,
    fix: Fix,
) -> Result<Puzzle, String> {
    let every = every.max(1);
    let mut points: Vec<Vec<usize>> = Vec::new();
    let replay = replay_observed(variant, solution, |k, anchors| {
        if (k + 1) % every == 0 && k + 1 < solution.len() {
            points.push(anchors.to_vec());
        }
    })
    .map_err(|e| format!("the variant's solution does not replay: {e}"))?;
    if !replay.solved {
        return Err("the variant's solution does not reach the variant's goal".to_string());
    }
    let to_full: Vec<usize> = variant
        .types
        .iter()
        .map(|t| {
            full.type_by_id(t.id)
                .filter(|&f| full.types[f].shape == t.shape)
                .ok_or_else(|| format!("block type '{}' of the variant is not in the puzzle", t.id))
        })
        .collect::<Result<_, _>>()?;
    let mut goals: Vec<Goal> = points
        .iter()
        .map(|anchors| goal_of(variant, &to_full, anchors, fix))
        .collect();
    goals.dedup();
    let sections = goals.len();
    goals.extend(full.goals.iter().cloned());
    let mut out = full.clone();
    out.goals = goals;
    out.metadata
        .retain(|(k, _)| !k.eq_ignore_ascii_case("subgoals"));
    out.metadata.push((
        "subgoals".to_string(),
        format!(
            "{sections} from a variant's {}-move solution (every {every} moves, fixing {})",
            solution.len(),
            match fix {
                Fix::All => "every kept block",
                Fix::Master => "the master",
            }
        ),
    ));
    Ok(out)
}

/// A goal section fixing every block of a variant position (per-instance
/// anchors), with the variant's types mapped to the full puzzle's.
fn goal_of(variant: &Puzzle, to_full: &[usize], anchors: &[usize], fix: Fix) -> Goal {
    let requirements = (0..variant.types.len())
        .filter(|&t| fix == Fix::All || variant.types[t].is_master)
        .map(|t| {
            let mut cells: Vec<Cell> = variant.type_range(t).map(|i| anchors[i] as Cell).collect();
            cells.sort_unstable();
            GoalRequirement {
                block_type: to_full[t],
                anchors: cells,
            }
        })
        .collect();
    Goal { requirements }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::solution;
    use crate::verify::replay;

    #[test]
    fn the_variants_positions_become_subgoals_that_a_solution_reaches_in_order() {
        let full = native::parse(super::super::tests::PUZZLE, "t").unwrap();
        let i = super::super::instance_at(&full, 1, 3).unwrap();
        let variant = super::super::remove(&full, &[i]);
        // The variant's optimal solution (BFS, 6 steps).
        let moves = solution::parse("o 2,3 D\n@ 1,1 RR\no 3,2 U\no 3,3 L\n@ 1,3 D\n", "s").unwrap();
        assert!(replay(&variant, &moves).unwrap().solved);
        let sub = from_solution(&full, &variant, &moves, 1, Fix::All).unwrap();
        // A subgoal after each move but the last, then the goal.
        assert_eq!(sub.goals.len(), 4 + 1);
        assert_eq!(sub.goals.last(), full.goals.last());
        // The first subgoal fixes the master and the three kept 'o' blocks.
        let fixed: usize = sub.goals[0]
            .requirements
            .iter()
            .map(|r| r.anchors.len())
            .sum();
        assert_eq!(fixed, 4);
        // Every 2 moves: subgoals after moves 2 and 4, then the goal.
        assert_eq!(
            from_solution(&full, &variant, &moves, 2, Fix::All)
                .unwrap()
                .goals
                .len(),
            3
        );
        // Fixing the master alone: its places after moves 1 to 4, repeats
        // merged (it stands at 1,1, then 1,3), then the goal.
        let loose = from_solution(&full, &variant, &moves, 1, Fix::Master).unwrap();
        assert_eq!(loose.goals.len(), 2 + 1);
        assert_eq!(loose.goals[0].requirements.len(), 1);
        let bad = solution::parse("@ 1,1 L\n", "s").unwrap();
        assert!(from_solution(&full, &variant, &bad, 1, Fix::All)
            .unwrap_err()
            .contains("does not replay"));
    }
}
