//! An independent replay of a solution, for `solver verify` and for checking
//! the search's own answers. It uses only the puzzle model and a per-cell
//! occupant grid, never the move generator, so that it can catch the
//! generator's mistakes.
//!
//! A solution is legal when every unit step keeps its block on the board,
//! off walls, off doors unless it is the master, off other blocks, and
//! along a slider's axis. It solves the puzzle when the goal sections are
//! reached in order (after each step, and at the start, the position is
//! compared with the next section not yet reached) and the last position
//! still satisfies the final one: moves past the goal are no solution.

use std::fmt;

use crate::model::{Axis, CellKind, Position, Puzzle};
use crate::solution::{Direction, SolutionMove};

/// The outcome of replaying a legal solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Unit steps (one block, one cell).
    pub steps: usize,
    /// Moves: maximal runs of consecutive lines that move the same physical block.
    pub moves: usize,
    /// Goal sections reached, in order (of `puzzle.goals.len()`).
    pub goals_reached: usize,
    /// True when every goal section was reached, in order, and the last
    /// position satisfies the final one: the solution is valid. A legal
    /// sequence that stops short, or goes on past the goal, is `Ok` with
    /// `solved == false`.
    pub solved: bool,
    /// The position after the last step (canonical: anchors sorted within types).
    pub final_position: Position,
}

impl Replay {
    /// Why a legal replay of a puzzle with `total` goal sections is no
    /// solution (`solved == false`): it stops short, or goes on past the goal.
    pub fn shortfall(&self, total: usize) -> String {
        if self.goals_reached == total {
            return "the moves are legal and reach the goal, then go on past it: a solution ends at the goal (drop the moves after it)".to_string();
        }
        let next = if self.goals_reached + 1 == total {
            "the goal".to_string()
        } else {
            format!("subgoal {}", self.goals_reached + 1)
        };
        format!(
            "the moves are legal but end before reaching {next} ({} of {total} goal sections reached)",
            self.goals_reached
        )
    }
}

/// The first illegal line of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 0-based index of the move in the slice given to [`replay`].
    pub index: usize,
    /// The move as written (`ID ROW,COL STEPS`).
    pub text: String,
    /// 1-based step within the move; 0 when the move names no block.
    pub step: usize,
    /// What is wrong, e.g. "step 2 (R) is blocked: cell 3,3 is occupied by block 'b'".
    pub reason: String,
}

impl IllegalMove {
    /// The message with the solution file's line number, when known:
    /// "move 12 (line 14, `a 3,1 RR`): step 2 (R) is blocked: ...".
    pub fn describe(&self, line: Option<usize>) -> String {
        match line {
            Some(l) => format!(
                "move {} (line {l}, `{}`): {}",
                self.index + 1,
                self.text,
                self.reason
            ),
            None => format!("move {} (`{}`): {}", self.index + 1, self.text, self.reason),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(None))
    }
}

impl std::error::Error for IllegalMove {}

/// Replays `moves` from the start position of `puzzle`.
pub fn replay(puzzle: &Puzzle, moves: &[SolutionMove]) -> Result<Replay, IllegalMove> {
    replay_observed(puzzle, moves, |_, _| {})
}

/// [`replay`], calling `observe(k, anchors)` after the `k`-th move (0-based)
/// with the anchor cell of every block instance. Instances keep their
/// identity (an index is one physical block, never re-sorted), so a picture
/// of the positions can follow each block; the renderer draws its frames
/// from this instead of applying moves itself.
///
/// Every rule of a move (the block exists at its anchor, a slider's axis, the
/// board's edge, walls, doors, other blocks) is checked by [`Grid`], written
/// apart from the move generator, so that a solution is judged by code that
/// shares nothing with the search and each rule can be read against the
/// error it gives. Moves after the final goal is reached are legal, but the
/// solution then does not end at the goal, which a valid one must.
pub fn replay_observed(
    puzzle: &Puzzle,
    moves: &[SolutionMove],
    mut observe: impl FnMut(usize, &[usize]),
) -> Result<Replay, IllegalMove> {
    let mut grid = Grid::new(puzzle);
    let mut goals_reached = 0;
    let advance = |grid: &Grid, reached: &mut usize| {
        if *reached < puzzle.goals.len() {
            let p = grid.position();
            while *reached < puzzle.goals.len() && puzzle.satisfies(&p, &puzzle.goals[*reached]) {
                *reached += 1;
            }
        }
    };
    advance(&grid, &mut goals_reached);
    let (mut steps, mut move_count, mut last_block) = (0, 0, None);
    for (index, mv) in moves.iter().enumerate() {
        let illegal = |step: usize, reason: String| IllegalMove {
            index,
            text: mv.to_string(),
            step,
            reason,
        };
        let (t, block) = grid.block(mv).map_err(|why| illegal(0, why))?;
        for (s, &dir) in mv.steps.iter().enumerate() {
            grid.step(t, block, dir).map_err(|why| {
                illegal(s + 1, format!("step {} ({}) {why}", s + 1, dir.letter()))
            })?;
            steps += 1;
            advance(&grid, &mut goals_reached);
        }
        if last_block != Some(block) {
            move_count += 1;
            last_block = Some(block);
        }
        observe(index, &grid.anchors);
    }
    let final_position = grid.position();
    let ends_at_goal = puzzle
        .goals
        .last()
        .is_none_or(|g| puzzle.satisfies(&final_position, g));
    Ok(Replay {
        steps,
        moves: move_count,
        goals_reached,
        solved: goals_reached == puzzle.goals.len() && ends_at_goal,
        final_position,
    })
}

/// The replay's board: every instance's anchor (never re-sorted, so an
/// index is one physical block) and which instance covers each cell.
struct Grid<'p> {
    puzzle: &'p Puzzle,
    anchors: Vec<usize>,
    occupant: Vec<Option<usize>>,
}

impl<'p> Grid<'p> {
    fn new(puzzle: &'p Puzzle) -> Grid<'p> {
        let anchors: Vec<usize> = puzzle.start.anchors.iter().map(|&a| a as usize).collect();
        let mut occupant = vec![None; puzzle.board.len()];
        for (i, &a) in anchors.iter().enumerate() {
            for cell in puzzle
                .cells_at(puzzle.instance_type(i), a)
                .unwrap_or_default()
            {
                occupant[cell] = Some(i);
            }
        }
        Grid {
            puzzle,
            anchors,
            occupant,
        }
    }

    /// The position now (canonical: anchors sorted within types).
    fn position(&self) -> Position {
        let mut p = Position {
            anchors: self.anchors.iter().map(|&a| a as u16).collect(),
        };
        self.puzzle.canonicalize(&mut p);
        p
    }

    /// The type and instance `mv` names (by its type's id and the anchor it
    /// stands on now), or why there is none.
    fn block(&self, mv: &SolutionMove) -> Result<(usize, usize), String> {
        let (puzzle, w) = (self.puzzle, self.puzzle.board.width());
        let Some(t) = puzzle.type_by_id(mv.id) else {
            return Err(format!("there is no block '{}' in this puzzle", mv.id));
        };
        let anchor = (mv.row < puzzle.board.height() && mv.col < w).then(|| mv.row * w + mv.col);
        if let Some(block) = puzzle
            .type_range(t)
            .find(|&i| Some(self.anchors[i]) == anchor)
        {
            return Ok((t, block));
        }
        let mut at: Vec<String> = puzzle
            .type_range(t)
            .map(|i| format!("{},{}", self.anchors[i] / w, self.anchors[i] % w))
            .collect();
        at.sort();
        Err(format!(
            "no block '{}' has its anchor (first cell in reading order) at {},{}; blocks '{}' are at {}",
            mv.id,
            mv.row,
            mv.col,
            mv.id,
            at.join(" ")
        ))
    }

    /// Moves instance `block` of type `t` one cell toward `dir`, or says
    /// what forbids it (the text after "step N (D)").
    fn step(&mut self, t: usize, block: usize, dir: Direction) -> Result<(), String> {
        let (puzzle, board) = (self.puzzle, &self.puzzle.board);
        let kind = &puzzle.types[t];
        let along = match kind.slider {
            Some(Axis::Horizontal) => matches!(dir, Direction::Left | Direction::Right),
            Some(Axis::Vertical) => matches!(dir, Direction::Up | Direction::Down),
            None => true,
        };
        if !along {
            let axis = match kind.slider {
                Some(Axis::Horizontal) => "horizontal",
                _ => "vertical",
            };
            return Err(format!(
                "is not allowed: block '{}' is a {axis} slider",
                kind.id
            ));
        }
        let (dr, dc) = dir.delta();
        let moved = board.offset(self.anchors[block], dr, dc);
        let Some((target, cells)) = moved.and_then(|a| Some((a, puzzle.cells_at(t, a)?))) else {
            return Err("leaves the board".to_string());
        };
        for &cell in &cells {
            let blocked = match (board.kind(cell), self.occupant[cell]) {
                (CellKind::Wall, _) => Some("is a wall".to_string()),
                (CellKind::Door, _) if !kind.is_master => {
                    Some("is a door, which only the master may enter".to_string())
                }
                (_, Some(other)) if other != block => Some(format!(
                    "is occupied by block '{}'",
                    puzzle.types[puzzle.instance_type(other)].id
                )),
                _ => None,
            };
            if let Some(why) = blocked {
                let (r, c) = (cell / board.width(), cell % board.width());
                return Err(format!("is blocked: cell {r},{c} {why}"));
            }
        }
        for cell in puzzle.cells_at(t, self.anchors[block]).unwrap_or_default() {
            self.occupant[cell] = None;
        }
        for &cell in &cells {
            self.occupant[cell] = Some(block);
        }
        self.anchors[block] = target;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::solution;

    /// A 2x2 master that must go down past a unit block; a vertical slider
    /// and a door (row 5) that only the master may enter.
    const SMALL: &str = include_str!("../tests/common/small.txt");

    fn puzzle() -> Puzzle {
        native::parse(SMALL, "small").unwrap()
    }

    fn moves(text: &str) -> Vec<SolutionMove> {
        solution::parse(text, "sol").unwrap()
    }

    #[test]
    fn accepts_a_solution_and_counts_steps_and_moves() {
        let p = puzzle();
        let r = replay(&p, &moves("a 3,1 R\na 3,2 R\n@ 1,1 DD\n")).unwrap();
        assert!(r.solved);
        assert_eq!((r.steps, r.moves, r.goals_reached), (4, 2, 1));
    }

    #[test]
    fn names_the_first_illegal_step() {
        let p = puzzle();
        let e = replay(&p, &moves("a 3,1 R\n@ 1,1 D\n")).unwrap_err();
        assert_eq!((e.index, e.step), (1, 1));
        assert_eq!(
            e.reason,
            "step 1 (D) is blocked: cell 3,2 is occupied by block 'a'"
        );
        let e = replay(&p, &moves("v 1,3 L\n")).unwrap_err();
        assert_eq!(
            e.reason,
            "step 1 (L) is not allowed: block 'v' is a vertical slider"
        );
        let e = replay(&p, &moves("a 3,1 U\n")).unwrap_err();
        assert!(e.reason.contains("occupied by block '@'"), "{e}");
        let e = replay(&p, &moves("a 3,1 L\n")).unwrap_err();
        assert!(e.reason.contains("cell 3,0 is a wall"), "{e}");
        let e = replay(&p, &moves("a 3,1 DD\n")).unwrap_err();
        assert!(e.reason.contains("step 2 (D)"), "{e}");
        assert!(e.reason.contains("door"), "{e}");
        let e = replay(&p, &moves("a 2,2 R\n")).unwrap_err();
        assert_eq!(e.step, 0);
        assert!(e.reason.contains("are at 3,1"), "{e}");
        let e = replay(&p, &moves("z 2,2 R\n")).unwrap_err();
        assert!(e.reason.contains("no block 'z'"), "{e}");
        let e = replay(&p, &moves("a 99999,99999 R\n")).unwrap_err();
        assert_eq!(e.step, 0);
    }

    #[test]
    fn a_legal_but_short_solution_is_not_solved() {
        let p = puzzle();
        let r = replay(&p, &moves("a 3,1 R\n")).unwrap();
        assert!(!r.solved);
        assert_eq!(r.goals_reached, 0);
        assert_eq!(r.final_position.anchors[2] as usize, p.board.index(3, 2));
    }

    /// A solution that reaches the goal and then moves on is legal but no
    /// solution: it must end at the goal. A subgoal may be passed through.
    #[test]
    fn moves_past_the_goal_are_no_solution() {
        let p = puzzle();
        let r = replay(&p, &moves("a 3,1 R\na 3,2 R\n@ 1,1 DD\n@ 3,1 U\n")).unwrap();
        assert_eq!((r.goals_reached, r.solved), (1, false));
        assert!(
            r.shortfall(1).contains("then go on past it"),
            "{}",
            r.shortfall(1)
        );
        let text =
            "!\n@\n!\n#####\n#@  #\n#####\n!\n#####\n# @ #\n#####\n!\n#####\n#  @#\n#####\n!\n";
        let q = native::parse(text, "t").unwrap();
        let r = replay(&q, &moves("@ 1,1 RR\n")).unwrap();
        assert!(r.solved, "passing through the subgoal counts");
        let r = replay(&q, &moves("@ 1,1 R\n")).unwrap();
        assert!(
            r.shortfall(2)
                .contains("end before reaching the goal (1 of 2"),
            "{}",
            r.shortfall(2)
        );
    }

    #[test]
    fn goal_sections_are_reached_in_order() {
        let text = "!\n@\n!\n####\n#@ #\n####\n!\n####\n# @#\n####\n!\n####\n#@ #\n####\n!\n";
        let p = native::parse(text, "t").unwrap();
        let r = replay(&p, &moves("@ 1,1 R\n")).unwrap();
        assert_eq!(
            r.goals_reached, 1,
            "the last section is not reached before the first"
        );
        let r = replay(&p, &moves("@ 1,1 R\n@ 1,2 L\n")).unwrap();
        assert!(r.solved);
        assert_eq!(r.moves, 1);
    }

    #[test]
    fn the_master_may_use_doors() {
        let text = "!\n@\n!\n####\n#@-#\n####\n!\n####\n# @#\n####\n!\n";
        let p = native::parse(text, "t").unwrap();
        assert!(replay(&p, &moves("@ 1,1 R\n")).unwrap().solved);
    }
}
