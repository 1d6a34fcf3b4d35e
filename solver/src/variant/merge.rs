//! The variant recipe "merge interchangeable blocks" (issue 15): block types
//! of one shape and one kind of slider, neither the master nor named by a
//! goal, become one type with several instances. The moves are the same,
//! but positions that differ only in which of those blocks stands where are
//! now one, so the variant has fewer positions (k types merged: up to k!
//! positions become one).
//!
//! Its solution moves the same blocks over the same cells, so it is a move
//! sequence of the full puzzle once each move names the block that stands
//! on its cell there ([`to_full`]); the subgoals then fix every block of
//! the full puzzle by its own id.

use crate::model::{Cell, Position, Puzzle};
use crate::solution::SolutionMove;

/// For each type of `puzzle`, the type it merges into (its own index when
/// it keeps to itself): the first type of the same shape and slider among
/// those a goal does not name, the master excepted.
pub fn groups(puzzle: &Puzzle) -> Vec<usize> {
    let in_goal = |t: usize| {
        puzzle
            .goals
            .iter()
            .any(|g| g.requirements.iter().any(|r| r.block_type == t))
    };
    let free = |t: usize| !puzzle.types[t].is_master && !in_goal(t);
    (0..puzzle.types.len())
        .map(|t| {
            let (a, b) = (&puzzle.types[t], t);
            (0..b)
                .find(|&u| {
                    free(u)
                        && free(b)
                        && puzzle.types[u].shape == a.shape
                        && puzzle.types[u].slider == a.slider
                })
                .unwrap_or(t)
        })
        .collect()
}

/// The variant with the interchangeable blocks merged, or why there is none
/// (no two types to merge).
pub fn merge(puzzle: &Puzzle) -> Result<Puzzle, String> {
    let into = groups(puzzle);
    let kept: Vec<usize> = (0..into.len()).filter(|&t| into[t] == t).collect();
    if kept.len() == into.len() {
        return Err("no two block types share a shape outside the goal: nothing to merge".into());
    }
    let new_index = |t: usize| kept.iter().position(|&k| k == into[t]).unwrap_or(0);
    let mut counts = vec![0; kept.len()];
    let mut anchors: Vec<Vec<Cell>> = vec![Vec::new(); kept.len()];
    for i in 0..puzzle.instances() {
        let t = new_index(puzzle.instance_type(i));
        counts[t] += 1;
        anchors[t].push(puzzle.start.anchors[i]);
    }
    let goals = super::goals_renumbered(puzzle, |t| Some(new_index(t)));
    let mut variant = Puzzle::new(
        puzzle.board.clone(),
        kept.iter().map(|&t| puzzle.types[t].clone()).collect(),
        counts,
        Position {
            anchors: anchors.concat(),
        },
        goals,
    );
    let merged = into.len() - kept.len();
    let name = format!(
        "{} (variant: {merged} block type(s) merged)",
        puzzle.name.as_deref().unwrap_or("puzzle")
    );
    variant.metadata = vec![
        ("name".to_string(), name.clone()),
        ("variant".to_string(), describe(puzzle, &into)),
    ];
    variant.name = Some(name);
    Ok(variant)
}

/// `b c d into a`: which ids merged into which.
fn describe(puzzle: &Puzzle, into: &[usize]) -> String {
    let parts: Vec<String> = (0..into.len())
        .filter(|&t| into[t] == t && into.iter().filter(|&&u| u == t).count() > 1)
        .map(|t| {
            let ids: String = (0..into.len())
                .filter(|&u| into[u] == t && u != t)
                .map(|u| puzzle.types[u].id)
                .collect();
            format!("{ids} into {}", puzzle.types[t].id)
        })
        .collect();
    format!("merged {}", parts.join("; "))
}

/// The merged variant's `solution` as moves of `full`: each move names the
/// full puzzle's block whose anchor stands on the move's cell at that point
/// (among the types merged into the move's id). Errors name the first move
/// no block of the full puzzle can make.
pub fn to_full(full: &Puzzle, solution: &[SolutionMove]) -> Result<Vec<SolutionMove>, String> {
    let into = groups(full);
    let w = full.board.width() as i64;
    let mut anchors: Vec<i64> = full.start.anchors.iter().map(|&a| a as i64).collect();
    let mut out = Vec::with_capacity(solution.len());
    for (k, m) in solution.iter().enumerate() {
        let at = m.row as i64 * w + m.col as i64;
        let merged = full.type_by_id(m.id).map(|t| into[t]);
        let i = (0..anchors.len())
            .find(|&i| anchors[i] == at && Some(into[full.instance_type(i)]) == merged)
            .ok_or_else(|| {
                format!(
                    "move {} ({m}): no block '{}' or one merged into it stands at {},{}",
                    k + 1,
                    m.id,
                    m.row,
                    m.col
                )
            })?;
        for s in &m.steps {
            let (dr, dc) = s.delta();
            anchors[i] += dr as i64 * w + dc as i64;
        }
        out.push(SolutionMove {
            id: full.types[full.instance_type(i)].id,
            ..m.clone()
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::verify::replay;

    /// Two 1x1 blocks of their own types (a, b) under a master that must go
    /// down one row.
    const PUZZLE: &str = "!\n@ 1,0 0,1 1,1\na\nb\n!\n######\n#@@  #\n#@@  #\n#ab  #\n######\n!\n######\n#    #\n#@@  #\n#@@  #\n######\n!\n";

    #[test]
    fn same_shaped_types_merge_and_the_solution_maps_back() {
        let p = native::parse(PUZZLE, "t").unwrap();
        let v = merge(&p).unwrap();
        assert_eq!((v.types.len(), v.counts.iter().sum::<usize>()), (2, 3));
        let text = native::write(&v);
        assert!(text.contains("merged b into a"), "{text}");
        // In the variant both small blocks are `a`: move them away, then the master.
        let lines = "a 3,2 RR\na 3,1 RR\n@ 1,1 D";
        let moves = crate::solution::parse(lines, "s").unwrap();
        assert!(replay(&v, &moves).unwrap().solved);
        let full = to_full(&p, &moves).unwrap();
        assert_eq!((full[0].id, full[1].id), ('b', 'a'));
        assert!(replay(&p, &full).unwrap().solved);
    }

    #[test]
    fn nothing_to_merge_is_said() {
        let one = PUZZLE.replace("\nb\n", "\n").replace("#ab", "#a ");
        let p = native::parse(&one, "t").unwrap();
        assert!(merge(&p).unwrap_err().contains("nothing to merge"));
    }
}
