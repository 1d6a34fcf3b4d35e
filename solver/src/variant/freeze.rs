//! Freezing blocks: the puzzle with some blocks turned into walls where they
//! start. Unlike removing them this makes the puzzle harder, not easier: every
//! solution of the frozen puzzle is, line for line, a solution of the full one
//! (the other blocks keep their ids and anchors, and a frozen block never
//! moves). What it buys is a smaller search: the blocks of a region the master
//! does not need, such as the outside of a frame behind a master-only door, no
//! longer multiply the positions (`experiments/README.md`, Ithaca's inside).

use crate::formats::native;
use crate::model::{Board, CellKind, Puzzle};

use super::{derive, instance_at, listed};

/// A rectangle of the board: its top left and its bottom right cell, each
/// `(row, col)`, both inclusive.
pub type Area = ((usize, usize), (usize, usize));

/// The puzzle with the block instances `frozen` turned into wall cells. A goal
/// must not name a frozen block's type (its goal could then not be met, or
/// not be met as the full puzzle's is): that is an error naming the block.
pub fn freeze(puzzle: &Puzzle, frozen: &[usize]) -> Result<Puzzle, String> {
    let w = puzzle.board.width();
    let mut cells = puzzle.board.cells().to_vec();
    for &i in frozen {
        let t = puzzle.instance_type(i);
        let anchor = puzzle.start.anchors[i] as usize;
        let id = puzzle.types[t].id;
        if puzzle.types[t].is_master {
            return Err(format!(
                "the block at {},{} is the master; a variant keeps it",
                anchor / w,
                anchor % w
            ));
        }
        if puzzle
            .goals
            .iter()
            .any(|g| g.requirements.iter().any(|r| r.block_type == t))
        {
            return Err(format!(
                "block '{id}' at {},{}: a goal names blocks '{id}', so freezing one would change the goal; freeze other blocks",
                anchor / w,
                anchor % w
            ));
        }
        let covered = puzzle
            .cells_at(t, anchor)
            .expect("a start block lies on the board");
        for c in covered {
            cells[c] = CellKind::Wall;
        }
    }
    let mut variant = derive(puzzle, frozen, "frozen");
    variant.board = Board::new(w, puzzle.board.height(), cells);
    // Walls where blocks stood can make a puzzle no parser accepts (a goal
    // cell walled, a slider left no room): read the variant back as a file
    // would be, so that what is written can be solved.
    // The parser's message alone: its file and line are the variant's text,
    // which the user never sees.
    native::parse(&native::write(&variant), "the frozen variant").map_err(|e| {
        format!(
            "freezing {} gives a puzzle that cannot be solved as written: {}; freeze other blocks",
            listed(puzzle, frozen),
            e.message
        )
    })?;
    Ok(variant)
}

/// The blocks other than the master whose every start cell lies within the
/// union of `areas` (each the top left and the bottom right corner, rows
/// and columns inclusive), in instance order.
pub fn within(puzzle: &Puzzle, areas: &[Area]) -> Vec<usize> {
    let w = puzzle.board.width();
    let inside = |cell: &usize| {
        let (r, c) = (cell / w, cell % w);
        areas
            .iter()
            .any(|&((r1, c1), (r2, c2))| (r1..=r2).contains(&r) && (c1..=c2).contains(&c))
    };
    (0..puzzle.instances())
        .filter(|&i| {
            let t = puzzle.instance_type(i);
            !puzzle.types[t].is_master
                && puzzle
                    .cells_at(t, puzzle.start.anchors[i] as usize)
                    .is_some_and(|cells| cells.iter().all(inside))
        })
        .collect()
}

/// The instances `--freeze ROW,COL` names (by start anchor, as `--remove`
/// does) and those the `--freeze-area` rectangles hold together, each once.
pub fn chosen(
    puzzle: &Puzzle,
    anchors: &[(usize, usize)],
    areas: &[Area],
) -> Result<Vec<usize>, String> {
    let mut frozen = Vec::new();
    for &(r, c) in anchors {
        let i = instance_at(puzzle, r, c).map_err(|m| format!("--freeze {r},{c}: {m}"))?;
        frozen.push(i);
    }
    let (h, w) = (puzzle.board.height(), puzzle.board.width());
    for &(from, to) in areas {
        if from.0 > to.0 || from.1 > to.1 || to.0 >= h || to.1 >= w {
            return Err(format!(
                "--freeze-area {},{},{},{}: expected the top left then the bottom right corner, both on the board ({h} rows, {w} columns)",
                from.0, from.1, to.0, to.1
            ));
        }
    }
    if !areas.is_empty() {
        let held = within(puzzle, areas);
        if held.is_empty() {
            return Err(
                "--freeze-area: no block other than the master lies wholly within the areas given"
                    .to_string(),
            );
        }
        frozen.extend(held);
    }
    let mut seen = vec![false; puzzle.instances()];
    frozen.retain(|&i| !std::mem::replace(&mut seen[i], true));
    Ok(frozen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::variant::tests::PUZZLE;

    #[test]
    fn a_frozen_block_becomes_wall_where_it_stands() {
        let p = native::parse(PUZZLE, "t").unwrap();
        let o = instance_at(&p, 1, 3).unwrap();
        let v = freeze(&p, &[o]).unwrap();
        assert_eq!(v.counts, vec![1, 3]);
        assert_eq!(v.goals, p.goals);
        assert_eq!(v.board.kind(v.board.index(1, 3)), CellKind::Wall);
        // The other blocks keep their anchors, so solutions carry over.
        let kept: Vec<u16> = (0..p.instances())
            .filter(|&i| i != o)
            .map(|i| p.start.anchors[i])
            .collect();
        let mut have = v.start.anchors.clone();
        let mut want = kept;
        have.sort_unstable();
        want.sort_unstable();
        assert_eq!(have, want);
        let text = native::write(&v);
        assert!(text.contains("% variant: frozen o 1,3"), "{text}");
        assert_eq!(native::parse(&text, "v").unwrap(), v);
    }

    #[test]
    fn the_master_and_goal_blocks_stay_free() {
        // The second type is named by the goal here.
        let goal_o = PUZZLE.replace("#  @@#\n#  @@#\n######\n!\n", "#o @@#\n#  @@#\n######\n!\n");
        let p = native::parse(&goal_o, "t").unwrap();
        let o = instance_at(&p, 1, 3).unwrap();
        let err = freeze(&p, &[o]).unwrap_err();
        assert!(err.contains("a goal names blocks 'o'"), "{err}");
        let master = (0..p.instances())
            .find(|&i| p.types[p.instance_type(i)].is_master)
            .unwrap();
        assert!(freeze(&p, &[master]).unwrap_err().contains("master"));
    }

    #[test]
    fn a_block_under_a_goal_cell_stays_free() {
        // Classic's goal puts the master on rows 4-5, columns 2-3, where the
        // two `o` of row 4 stand at the start.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../puzzles/klotski/classic.txt"
        ))
        .unwrap();
        let p = native::parse(&text, "classic").unwrap();
        let o = instance_at(&p, 4, 2).unwrap();
        let err = freeze(&p, &[o]).unwrap_err();
        assert!(
            err.contains("freezing o 4,2 gives a puzzle that cannot be solved"),
            "{err}"
        );
        assert!(err.contains("on a wall"), "{err}");
    }

    #[test]
    fn an_area_takes_the_blocks_wholly_inside_it() {
        let p = native::parse(PUZZLE, "t").unwrap();
        // Rows 1-3, column 3 hold the two stacked `o` at column 3 only.
        let got = within(&p, &[((1, 3), (3, 3))]);
        let anchors: Vec<(usize, usize)> = got
            .iter()
            .map(|&i| p.board.coordinates(p.start.anchors[i] as usize))
            .collect();
        assert_eq!(anchors, vec![(1, 3), (2, 3)]);
        assert!(chosen(&p, &[], &[((3, 4), (3, 4))])
            .unwrap_err()
            .contains("no block"));
        assert!(chosen(&p, &[], &[((2, 2), (1, 1))])
            .unwrap_err()
            .contains("top left"));
        assert_eq!(chosen(&p, &[(1, 3)], &[((1, 3), (3, 3))]).unwrap().len(), 2);
    }

    #[test]
    fn a_block_across_two_areas_is_within_their_union() {
        let text = "!\n@\nh 0,1\n!\n#####\n#@ h#\n#  h#\n#####\n!\n#####\n#  @#\n#   #\n#####\n!\n";
        let p = native::parse(text, "t").unwrap();
        assert!(within(&p, &[((1, 3), (1, 3))]).is_empty());
        assert_eq!(within(&p, &[((1, 3), (1, 3)), ((2, 0), (2, 4))]).len(), 1);
    }
}
