//! Parking the blocks on the master's way (issue 15). When searches stall
//! with the master near its goal, the position they stall in shows which
//! blocks stand on the master's last stretch: those on its shortest route
//! to the goal on the empty board. Each is given a parking place, the
//! nearest placement (on the empty board, by unit steps) off that route and
//! off the places already given, and the places become a goal section
//! inserted before the final goal: the search first clears the way, then
//! brings the master through. Repeated from the next stall, each new
//! section keeps the places of the one before (American Pie under A* w5
//! `path`: `j` and `a` parked, then `v`, solved it, where no single setting
//! did).
//!
//! A solution of the parked puzzle is a solution of the original: same
//! blocks, same start, same final goal.

use crate::model::{Cell, Goal, GoalRequirement, Puzzle};
use crate::solution::Direction;

use super::obstruction::master_route;

/// Metadata key that marks (and describes) parking sections.
const KEY: &str = "parked";

/// One block given a parking place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parked {
    pub id: char,
    /// Its anchor (row, column) in the stall position.
    pub from: (usize, usize),
    /// Its parking anchor.
    pub to: (usize, usize),
}

/// `puzzle` with one more goal section before its final goal, parking at
/// most `most` of the blocks that stand on the master's route in `stall` (a
/// position of `puzzle`, e.g. from `solver solve --best-out`), nearest the
/// goal first; the section also keeps the places of the last parking
/// section, unless they lie on the new route.
pub fn park(puzzle: &Puzzle, stall: &Puzzle, most: usize) -> Result<(Puzzle, Vec<Parked>), String> {
    same_blocks(puzzle, stall)?;
    let m = puzzle
        .master()
        .ok_or("the puzzle has no master block: there is no way to clear")?;
    let master_at = stall.start.anchors[stall.type_range(m).start] as usize;
    let route = master_route(puzzle, master_at);
    if route.is_empty() {
        return Err("the master has no way to its goal even on the empty board".to_string());
    }
    // Per cell: how near the goal the route first covers it (0: at the goal).
    let mut order = vec![usize::MAX; puzzle.board.len()];
    for (k, &at) in route.iter().enumerate() {
        for c in puzzle.cells_at(m, at).unwrap_or_default() {
            order[c] = order[c].min(k);
        }
    }
    let on_route = |c: usize| order[c] != usize::MAX;
    let mut section = kept_places(puzzle, &on_route);
    // Taken: the places kept, and the cells the final goal asks of other
    // blocks (a block parked there would have to move again).
    let mut taken = vec![false; puzzle.board.len()];
    let final_others = puzzle
        .final_goal()
        .into_iter()
        .flat_map(|g| &g.requirements)
        .filter(|r| r.block_type != m);
    for r in section.requirements.iter().chain(final_others) {
        for &a in &r.anchors {
            for c in puzzle
                .cells_at(r.block_type, a as usize)
                .unwrap_or_default()
            {
                taken[c] = true;
            }
        }
    }
    let mut parked = Vec::new();
    for (i, t) in blockers(puzzle, stall, &section, &order) {
        if parked.len() == most {
            break;
        }
        if placed(&section, t) >= puzzle.counts[t] {
            continue; // every block of its type has a place already
        }
        let from = stall.start.anchors[i] as usize;
        let free = |a: usize| {
            puzzle
                .cells_at(t, a)
                .is_some_and(|cells| cells.iter().all(|&c| !on_route(c) && !taken[c]))
        };
        let Some(to) = nearest(puzzle, t, from, free) else {
            continue;
        };
        for c in puzzle.cells_at(t, to).unwrap_or_default() {
            taken[c] = true;
        }
        require(&mut section, t, to as Cell);
        let w = puzzle.board.width();
        parked.push(Parked {
            id: puzzle.types[t].id,
            from: (from / w, from % w),
            to: (to / w, to % w),
        });
    }
    if parked.is_empty() {
        return Err("no block on the master's way could be parked off it".to_string());
    }
    Ok((with_section(puzzle, section, &parked), parked))
}

/// The stall position must have the puzzle's board, block types and counts.
fn same_blocks(puzzle: &Puzzle, stall: &Puzzle) -> Result<(), String> {
    let same = puzzle.board == stall.board
        && puzzle.counts == stall.counts
        && puzzle.types.len() == stall.types.len()
        && puzzle.types == stall.types;
    if same {
        Ok(())
    } else {
        Err(
            "the stall position is not a position of this puzzle (other board or blocks)"
                .to_string(),
        )
    }
}

/// The last parking section's places that stay off the new route (none
/// when the puzzle has no parking section yet).
fn kept_places(puzzle: &Puzzle, on_route: &dyn Fn(usize) -> bool) -> Goal {
    let n = puzzle.goals.len();
    // A variant's subgoals (`--subgoals`) added after parking would stand
    // at n - 2 instead: then nothing is kept.
    let has_parking = puzzle.metadata.iter().any(|(k, _)| k == KEY)
        && !puzzle.metadata.iter().any(|(k, _)| k == "subgoals");
    if !has_parking || n < 2 {
        return Goal {
            requirements: Vec::new(),
        };
    }
    let requirements = puzzle.goals[n - 2]
        .requirements
        .iter()
        .map(|r| GoalRequirement {
            block_type: r.block_type,
            anchors: r
                .anchors
                .iter()
                .copied()
                .filter(|&a| {
                    let cells = puzzle.cells_at(r.block_type, a as usize);
                    !cells.unwrap_or_default().into_iter().any(on_route)
                })
                .collect(),
        })
        .filter(|r| !r.anchors.is_empty())
        .collect();
    Goal { requirements }
}

/// The stall's non-master blocks with a cell on the route, nearest the
/// goal first, except those of types whose every block already has a place.
fn blockers(
    puzzle: &Puzzle,
    stall: &Puzzle,
    section: &Goal,
    order: &[usize],
) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize, usize)> = (0..stall.instances())
        .filter_map(|i| {
            let t = stall.instance_type(i);
            if stall.types[t].is_master || placed(section, t) >= puzzle.counts[t] {
                return None;
            }
            let cells = stall.cells_at(t, stall.start.anchors[i] as usize)?;
            let near = cells.iter().map(|&c| order[c]).min()?;
            (near != usize::MAX).then_some((near, i, t))
        })
        .collect();
    found.sort_unstable();
    found.into_iter().map(|(_, i, t)| (i, t)).collect()
}

/// The first anchor, in breadth-first order of unit steps on the empty
/// board from `from` (up, right, down, left), where `free` holds.
fn nearest(puzzle: &Puzzle, t: usize, from: usize, free: impl Fn(usize) -> bool) -> Option<usize> {
    let order = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];
    super::search_empty_board(puzzle, t, from, order, free).0
}

/// How many blocks of type `t` `goal` gives a place.
fn placed(goal: &Goal, t: usize) -> usize {
    goal.requirements
        .iter()
        .filter(|r| r.block_type == t)
        .map(|r| r.anchors.len())
        .sum()
}

/// Adds anchor `a` of type `t` to `goal`'s requirements.
fn require(goal: &mut Goal, t: usize, a: Cell) {
    match goal.requirements.iter_mut().find(|r| r.block_type == t) {
        Some(r) => {
            r.anchors.push(a);
            r.anchors.sort_unstable();
        }
        None => goal.requirements.push(GoalRequirement {
            block_type: t,
            anchors: vec![a],
        }),
    }
}

/// `puzzle` with `section` inserted before its final goal, and the
/// parking described in its metadata. The `optimum` metadata no longer
/// holds (the sections may lengthen the shortest solution) and is left out.
fn with_section(puzzle: &Puzzle, section: Goal, parked: &[Parked]) -> Puzzle {
    let mut out = puzzle.clone();
    out.metadata
        .retain(|(k, _)| !k.eq_ignore_ascii_case("optimum"));
    let at = out.goals.len().saturating_sub(1);
    out.goals.insert(at, section);
    let what: Vec<String> = parked
        .iter()
        .map(|p| {
            format!(
                "{} {},{} -> {},{}",
                p.id, p.from.0, p.from.1, p.to.0, p.to.1
            )
        })
        .collect();
    let rounds = out.metadata.iter().filter(|(k, _)| k == KEY).count() + 1;
    out.metadata.push((
        KEY.to_string(),
        format!("round {rounds}: {}", what.join(", ")),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    /// The master (2x2) must go right, then down through the doors at the
    /// bottom right; the two `o` stand on that way, `x` off it.
    const PUZZLE: &str = "!\n@ 1,0 0,1 1,1\no\nx\n!\n######\n#@@ o#\n#@@ o#\n#x   #\n#    #\n###--#\n###--#\n!\n######\n#    #\n#    #\n#    #\n#    #\n###@@#\n###@@#\n!\n";

    #[test]
    fn the_block_on_the_route_is_parked_off_it_and_the_section_precedes_the_goal() {
        let p = native::parse(PUZZLE, "t").unwrap();
        let (out, parked) = park(&p, &p, 3).unwrap();
        assert_eq!(out.goals.len(), 2);
        assert_eq!(out.goals.last(), p.goals.last());
        let ids: Vec<char> = parked.iter().map(|b| b.id).collect();
        assert!(ids.iter().all(|&c| c == 'o'), "{parked:?}");
        assert!(!parked.is_empty());
        // No parking place lies on the master's route.
        let m = p.master().unwrap();
        let start = p.start.anchors[p.type_range(m).start] as usize;
        let route: Vec<usize> = master_route(&p, start)
            .into_iter()
            .flat_map(|a| p.cells_at(m, a).unwrap())
            .collect();
        let o = p.type_by_id('o').unwrap();
        for r in &out.goals[0].requirements {
            assert_eq!(r.block_type, o);
            for &a in &r.anchors {
                assert!(p
                    .cells_at(o, a as usize)
                    .unwrap()
                    .iter()
                    .all(|c| !route.contains(c)));
            }
        }
        // One block at most: one place.
        let (_, one) = park(&p, &p, 1).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0], parked[0]);
        // A second round from the same stall keeps the first round's place
        // and parks the other `o` beside it, in a section of its own.
        let (first, _) = park(&p, &p, 1).unwrap();
        let (second, more) = park(&first, &p, 1).unwrap();
        assert_eq!(second.goals.len(), 3);
        assert_eq!(second.goals[0], first.goals[0]);
        let kept = &first.goals[0].requirements[0].anchors;
        let now = &second.goals[1].requirements[0].anchors;
        assert_eq!(now.len(), 2, "{now:?}");
        assert!(kept.iter().all(|a| now.contains(a)), "{kept:?} {now:?}");
        assert_eq!(more.len(), 1);
        assert_ne!(more[0].to, one[0].to);
        // Both `o` have places: a third round has nothing left to park.
        assert!(park(&second, &p, 1)
            .unwrap_err()
            .contains("could be parked"));
    }

    #[test]
    fn a_stall_of_another_puzzle_is_refused() {
        let p = native::parse(PUZZLE, "t").unwrap();
        let other =
            native::parse("!\n@\n!\n###\n#@#\n# #\n###\n!\n###\n# #\n#@#\n###\n", "o").unwrap();
        assert!(park(&p, &other, 3)
            .unwrap_err()
            .contains("not a position of this puzzle"));
    }
}
