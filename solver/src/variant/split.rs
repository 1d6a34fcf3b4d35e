//! Splitting a puzzle at its master-only doors (issue 15; GNOME Klotski's
//! Ithaca, which no search of the whole level solves). Door cells are the
//! master's alone, so no other block ever crosses from one region of free
//! cells to another: the blocks of the master's start region and those of
//! the other regions meet only through the master. The split solves the
//! puzzle in three parts, each a puzzle of its own whose solution is
//! replayed into the next:
//!
//! 1. [`inside`]: the master's region, the blocks of every other region
//!    frozen into walls (a restriction: its moves are moves of the full
//!    puzzle), the goal the master at the last place of its empty-board
//!    route that lies wholly in its start region (the place it leaves from).
//! 2. [`outside`]: the other regions, the blocks of the master's region
//!    removed and its cells walled except those the master sweeps on its
//!    way out, the master placed where part 1 leaves it, the puzzle's own
//!    goal. Of its solution only the other blocks' moves made before the
//!    master first steps out of its region and the doors are kept
//!    ([`rest`]): they touch no cell of the master's region, so they are
//!    moves of the full puzzle after part 1 whatever the master's region
//!    holds, and they make the room the master's way out needs.
//! 3. [`rest`]: the full puzzle from where the first two leave it.
//!
//! On Ithaca: 337 steps (fluid search), 20 of the way out's, 10 to the
//! goal; the whole 367 steps verified (`experiments/README.md`).

use crate::formats::native;
use crate::model::{Board, CellKind, Goal, GoalRequirement, Position, Puzzle};
use crate::solution::SolutionMove;
use crate::verify::replay;

use super::{derive, freeze, obstruction};

/// Where a puzzle splits: its regions and the master's way out of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Region of each cell (free cells joined through free cells; `None`
    /// for walls and doors).
    region: Vec<Option<usize>>,
    /// The master's start region.
    home: usize,
    /// The master's anchor where it leaves its region (part 1's goal).
    exit: usize,
    /// Cells of the master's region it covers from `exit` until it has
    /// left the region (part 2 keeps them free).
    swept: Vec<bool>,
    /// Block instances (not the master) of the master's region, and of the others.
    inside: Vec<usize>,
    outside: Vec<usize>,
}

/// Finds where `puzzle` splits, or says why it does not.
pub fn plan(puzzle: &Puzzle) -> Result<Split, String> {
    let m = puzzle.master().ok_or("the puzzle has no master block")?;
    if puzzle.counts[m] != 1 || puzzle.goals.len() != 1 {
        return Err("a door split needs one master and one goal section".into());
    }
    let names_master = puzzle
        .final_goal()
        .is_some_and(|g| g.requirements.iter().any(|r| r.block_type == m));
    if !names_master {
        return Err("the goal does not place the master: there is no way out to split".into());
    }
    let region = regions(&puzzle.board);
    let start = puzzle.start.anchors[puzzle.type_range(m).start] as usize;
    let cells = |a: usize| puzzle.cells_at(m, a).unwrap_or_default();
    let home = cells(start)
        .iter()
        .find_map(|&c| region[c])
        .ok_or("the master starts on doors only")?;
    let mut route = obstruction::master_route(puzzle, start);
    if route.is_empty() {
        return Err("the master has no way to its goal even on the empty board".into());
    }
    route.reverse();
    let (exit, swept) = way_out_of(&route, &cells, &region, home)?;
    let (inside, outside) = sides(puzzle, &region, home)?;
    if inside.is_empty() || outside.is_empty() {
        return Err("no blocks on both sides of the master's door: nothing to split".into());
    }
    Ok(Split {
        region,
        home,
        exit,
        swept,
        inside,
        outside,
    })
}

/// Along `route` (start first): the master's exit, the last anchor wholly
/// in region `home` before it first covers a free cell of another region,
/// and the cells of `home` it covers from there until it has left `home`.
fn way_out_of(
    route: &[usize],
    cells: &dyn Fn(usize) -> Vec<usize>,
    region: &[Option<usize>],
    home: usize,
) -> Result<(usize, Vec<bool>), String> {
    let elsewhere = |a: usize| {
        cells(a)
            .iter()
            .any(|&c| region[c].is_some_and(|r| r != home))
    };
    let within = |a: usize| cells(a).iter().all(|&c| region[c] == Some(home));
    let leaves = route.iter().position(|&a| elsewhere(a)).ok_or(
        "the master's goal lies in its own region: there is no door to split at".to_string(),
    )?;
    let exit = route[..leaves]
        .iter()
        .rposition(|&a| within(a))
        .ok_or("the master starts partly on a door: it has no place wholly within its region")?;
    let mut swept = vec![false; region.len()];
    for &a in &route[exit..] {
        let mine: Vec<usize> = cells(a)
            .into_iter()
            .filter(|&c| region[c] == Some(home))
            .collect();
        if mine.is_empty() {
            break;
        }
        mine.into_iter().for_each(|c| swept[c] = true);
    }
    Ok((route[exit], swept))
}

/// Regions of free cells: connected through free cells (doors and walls
/// part them), numbered in reading order of their first cell.
fn regions(board: &Board) -> Vec<Option<usize>> {
    let mut region = vec![None; board.len()];
    let mut next = 0;
    for first in 0..board.len() {
        if board.kind(first) != CellKind::Free || region[first].is_some() {
            continue;
        }
        region[first] = Some(next);
        let mut stack = vec![first];
        while let Some(c) = stack.pop() {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                if let Some(n) = board.offset(c, dr, dc) {
                    if board.kind(n) == CellKind::Free && region[n].is_none() {
                        region[n] = Some(next);
                        stack.push(n);
                    }
                }
            }
        }
        next += 1;
    }
    region
}

/// The blocks other than the master in region `home`, and in the others;
/// an error for a block standing in two regions (a disconnected block
/// would join them).
fn sides(
    puzzle: &Puzzle,
    region: &[Option<usize>],
    home: usize,
) -> Result<(Vec<usize>, Vec<usize>), String> {
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    let w = puzzle.board.width();
    for i in 0..puzzle.instances() {
        let t = puzzle.instance_type(i);
        if puzzle.types[t].is_master {
            continue;
        }
        let anchor = puzzle.start.anchors[i] as usize;
        let mut at: Vec<Option<usize>> = puzzle
            .cells_at(t, anchor)
            .unwrap_or_default()
            .iter()
            .map(|&c| region[c])
            .collect();
        at.dedup();
        match at.as_slice() {
            [r] if *r == Some(home) => inside.push(i),
            [_] => outside.push(i),
            _ => {
                return Err(format!(
                    "block '{}' at {},{} stands in two regions: the regions are not apart",
                    puzzle.types[t].id,
                    anchor / w,
                    anchor % w
                ))
            }
        }
    }
    Ok((inside, outside))
}

/// Part 1: the blocks outside the master's region frozen, the goal the
/// master at its exit anchor.
pub fn inside(puzzle: &Puzzle, split: &Split) -> Result<Puzzle, String> {
    let m = puzzle.master().ok_or("the puzzle has no master block")?;
    let mut aimed = puzzle.clone();
    aimed.goals = vec![Goal {
        requirements: vec![GoalRequirement {
            block_type: m,
            anchors: vec![split.exit as u16],
        }],
    }];
    let mut part = freeze::freeze(&aimed, &split.outside)?;
    describe(
        &mut part,
        "the master's region, to the anchor it leaves from",
    );
    Ok(part)
}

/// Part 2: the blocks of the master's region removed, its cells walled
/// but those the master sweeps on its way out, the master at its exit.
pub fn outside(puzzle: &Puzzle, split: &Split) -> Result<Puzzle, String> {
    let m = puzzle.master().ok_or("the puzzle has no master block")?;
    let mut part = derive(puzzle, &split.inside, "removed");
    let mut cells = puzzle.board.cells().to_vec();
    for (c, kind) in cells.iter_mut().enumerate() {
        if split.region[c] == Some(split.home) && !split.swept[c] {
            *kind = CellKind::Wall;
        }
    }
    part.board = Board::new(puzzle.board.width(), puzzle.board.height(), cells);
    let master = part
        .type_range(part.type_by_id(puzzle.types[m].id).unwrap_or(m))
        .start;
    part.start.anchors[master] = split.exit as u16;
    describe(&mut part, "the other regions, the master from its exit");
    native::parse(&native::write(&part), "the split's outside part").map_err(|e| {
        format!(
            "the outside part cannot be solved as written: {}",
            e.message
        )
    })?;
    Ok(part)
}

/// Part 3: the full puzzle from the position `inside_moves` (part 1's
/// solution) and the kept prefix of `outside_moves` (part 2's) reach, and
/// those moves (the full puzzle's, replayed by the verifier).
pub fn rest(
    puzzle: &Puzzle,
    split: &Split,
    inside_moves: &[SolutionMove],
    outside_moves: &[SolutionMove],
) -> Result<(Puzzle, Vec<SolutionMove>), String> {
    let m = puzzle.master().ok_or("the puzzle has no master block")?;
    let master_id = puzzle.types[m].id;
    let part1 = inside(puzzle, split)?;
    let done = replay(&part1, inside_moves)
        .map_err(|e| format!("the inside part's solution does not replay: {e}"))?;
    let master_at = done.final_position.anchors[part1.type_range(m).start] as usize;
    if !done.solved || master_at != split.exit {
        return Err("the inside part's solution does not end with the master at its exit".into());
    }
    let part2 = outside(puzzle, split)?;
    let out = replay(&part2, outside_moves)
        .map_err(|e| format!("the outside part's solution does not replay: {e}"))?;
    if !out.solved {
        return Err("the outside part's solution does not reach the puzzle's goal".into());
    }
    let mut moves = inside_moves.to_vec();
    moves.extend(way_out(puzzle, split, master_id, outside_moves));
    let reached = replay(puzzle, &moves)
        .map_err(|e| format!("the parts' moves do not replay on the puzzle: {e}"))?;
    let mut part = puzzle.clone();
    part.start = Position {
        anchors: reached.final_position.anchors,
    };
    part.metadata
        .retain(|(k, _)| !k.eq_ignore_ascii_case("optimum"));
    let what = format!(
        "the whole puzzle after the first two parts ({} steps)",
        reached.steps
    );
    describe(&mut part, &what);
    Ok((part, moves))
}

/// The other blocks' moves of `outside_moves` made before the master first
/// covers a free cell outside its start region: they stay in the other
/// regions, so they replay after part 1 whatever its region holds.
fn way_out(
    puzzle: &Puzzle,
    split: &Split,
    master_id: char,
    outside_moves: &[SolutionMove],
) -> Vec<SolutionMove> {
    let m = puzzle.type_by_id(master_id).unwrap_or(0);
    let mut at = split.exit;
    let mut kept = Vec::new();
    for mv in outside_moves {
        if mv.id != master_id {
            kept.push(mv.clone());
            continue;
        }
        for step in &mv.steps {
            let (dr, dc) = step.delta();
            let Some(next) = puzzle.board.offset(at, dr, dc) else {
                return kept;
            };
            at = next;
            let cells = puzzle.cells_at(m, at).unwrap_or_default();
            if cells
                .iter()
                .any(|&c| split.region[c].is_some_and(|r| r != split.home))
            {
                return kept;
            }
        }
    }
    kept
}

/// Names a part as a variant of the puzzle (`% split: ...`).
fn describe(part: &mut Puzzle, what: &str) {
    part.metadata.retain(|(k, _)| k != "variant");
    part.metadata
        .push(("split".to_string(), format!("door split, {what}")));
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::params::{Limits, SearchParams};
    use crate::search::{solve, SolveOptions};
    use crate::solution;

    /// A frame whose door (`-`, 2,2) lets only the master out: inside,
    /// `b` stands on the master's way to the door; outside, `a` stands on
    /// the master's goal.
    const FRAME: &str = "!\n@\na\nb\n!\na      \n  #####\n  -b @#\n  #   #\n  #####\n!\n@      \n  #####\n  -   #\n  #   #\n  #####\n!\n";

    #[test]
    fn a_frame_splits_at_its_door_and_the_parts_join() {
        let p = native::parse(FRAME, "frame").unwrap();
        let s = plan(&p).unwrap();
        assert_eq!(s.exit, p.board.index(2, 3));
        assert_eq!((s.inside.len(), s.outside.len()), (1, 1));
        let part1 = inside(&p, &s).unwrap();
        let sol1 = solution::parse("b 2,3 D\n@ 2,5 LL\n", "s1").unwrap();
        assert!(replay(&part1, &sol1).unwrap().solved);
        // Part 2 has no 'b', and the master's region is walled but where it stands.
        let part2 = outside(&p, &s).unwrap();
        assert_eq!(part2.instances(), 2);
        assert_eq!(part2.board.kind(p.board.index(2, 4)), CellKind::Wall);
        assert_eq!(part2.board.kind(p.board.index(2, 3)), CellKind::Free);
        let sol2 = solution::parse("a 0,0 R\n@ 2,3 LLLUU\n", "s2").unwrap();
        assert!(replay(&part2, &sol2).unwrap().solved);
        // Only 'a''s move is kept: the master's way comes from part 3.
        let (part3, moves) = rest(&p, &s, &sol1, &sol2).unwrap();
        assert_eq!(solution::write(&moves), "b 2,3 D\n@ 2,5 LL\na 0,0 R\n");
        let sol3 = solution::parse("@ 2,3 LLLUU\n", "s3").unwrap();
        assert!(replay(&part3, &sol3).unwrap().solved);
        let mut whole = moves;
        whole.extend(sol3);
        assert!(replay(&p, &whole).unwrap().solved);
    }

    #[test]
    fn a_door_within_the_masters_region_or_a_goal_without_it_does_not_split() {
        // The door is a shortcut within the master's region, and its goal
        // lies in that region too.
        let shortcut = "!\n@\na\n!\n#######\n#@ -  #\n# ### #\n#     #\n###a###\n#######\n!\n#######\n#    @#\n# ### #\n#     #\n### ###\n#######\n!\n";
        let p = native::parse(shortcut, "shortcut").unwrap();
        assert!(
            plan(&p).unwrap_err().contains("own region"),
            "{:?}",
            plan(&p)
        );
        let no_master = FRAME.replace("!\n@      \n  #####", "!\na      \n  #####");
        let p = native::parse(&no_master, "goal a").unwrap();
        assert!(plan(&p).unwrap_err().contains("does not place the master"));
    }

    #[test]
    fn the_rest_refuses_solutions_of_other_puzzles() {
        let p = native::parse(FRAME, "frame").unwrap();
        let s = plan(&p).unwrap();
        let sol1 = solution::parse("b 2,3 D\n@ 2,5 LL\n", "s1").unwrap();
        // The whole puzzle's solution is not the outside part's.
        let whole = solution::parse("b 2,3 D\n@ 2,5 LL\na 0,0 R\n@ 2,3 LLLUU\n", "w").unwrap();
        let err = rest(&p, &s, &sol1, &whole).unwrap_err();
        assert!(
            err.contains("outside part's solution does not replay"),
            "{err}"
        );
        // An inside solution that leaves the master short of its exit.
        let short = solution::parse("b 2,3 D\n@ 2,5 L\n", "s").unwrap();
        let err = rest(&p, &s, &short, &[]).unwrap_err();
        assert!(err.contains("master at its exit"), "{err}");
    }

    #[test]
    fn a_puzzle_without_a_door_does_not_split() {
        let p = native::parse(super::super::tests::PUZZLE, "t").unwrap();
        assert!(
            plan(&p).unwrap_err().contains("own region"),
            "{:?}",
            plan(&p)
        );
    }

    /// A random frame: a walled box parted by a wall column with one or two
    /// door cells, the master (one cell) on the left, its goal on the
    /// right, 1-4 units on each side and a few inner walls.
    fn random_frame(rng: &mut ChaCha8Rng) -> String {
        let (h, w) = (rng.gen_range(2..5), rng.gen_range(5..8));
        let mut grid = vec![vec!['#'; w + 2]; h + 2];
        let wall = rng.gen_range(2..w);
        for row in grid.iter_mut().take(h + 1).skip(1) {
            for (c, cell) in row.iter_mut().enumerate().take(w + 1).skip(1) {
                *cell = if c == wall || rng.gen_range(0..12) == 0 {
                    '#'
                } else {
                    ' '
                };
            }
        }
        for _ in 0..rng.gen_range(1..3) {
            grid[rng.gen_range(1..=h)][wall] = '-';
        }
        let free = |rng: &mut ChaCha8Rng, g: &Vec<Vec<char>>, left: bool| {
            let cols = if left { 1..wall } else { wall + 1..w + 1 };
            (0..20)
                .map(|_| (rng.gen_range(1..=h), rng.gen_range(cols.clone())))
                .find(|&(r, c)| g[r][c] == ' ')
        };
        let mut start = grid.clone();
        let mut goal = grid;
        let (Some(m), Some(g)) = (free(rng, &start, true), free(rng, &goal, false)) else {
            return String::new();
        };
        start[m.0][m.1] = '@';
        goal[g.0][g.1] = '@';
        for left in [true, false] {
            for _ in 0..rng.gen_range(1..5) {
                if let Some((r, c)) = free(rng, &start, left) {
                    start[r][c] = 'a';
                }
            }
        }
        let text = |g: &Vec<Vec<char>>| -> String {
            g.iter()
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect()
        };
        format!("!\n@\na\n!\n{}!\n{}!\n", text(&start), text(&goal))
    }

    fn bfs(puzzle: &Puzzle) -> Option<Vec<SolutionMove>> {
        let limits = Limits {
            max_positions: Some(200_000),
            ..Limits::default()
        };
        solve(
            puzzle,
            &SearchParams::default(),
            &limits,
            SolveOptions::quiet(),
        )
        .expect("BFS serves the puzzle")
        .solution
    }

    /// On random frames, whenever BFS solves the inside and the outside
    /// part, the rest is a puzzle (the kept moves replay after the inside's
    /// solution), and the moves with the rest's BFS solution solve the
    /// frame; where BFS finds the frame unsolvable, so does the split.
    #[test]
    fn on_random_frames_the_parts_join_into_solutions_that_replay() {
        let mut rng = ChaCha8Rng::seed_from_u64(26);
        let (mut tried, mut joined) = (0, 0);
        while tried < 300 {
            let text = random_frame(&mut rng);
            let Ok(p) = native::parse(&text, "frame") else {
                continue;
            };
            let Ok(s) = plan(&p) else {
                continue;
            };
            tried += 1;
            let whole = bfs(&p);
            let (Some(s1), Some(s2)) = (
                bfs(&inside(&p, &s).unwrap()),
                bfs(&outside(&p, &s).unwrap()),
            ) else {
                continue;
            };
            let (rest_puzzle, mut moves) = rest(&p, &s, &s1, &s2).expect(&text);
            if let Some(s3) = bfs(&rest_puzzle) {
                moves.extend(s3);
                assert!(replay(&p, &moves).unwrap().solved, "{text}");
                assert!(whole.is_some(), "{text}");
                joined += 1;
            }
        }
        // 175 of the 300 join with this seed.
        assert!(joined >= 150, "only {joined} of {tried} frames joined");
    }
}
