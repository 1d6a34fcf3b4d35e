//! GNOME Klotski level grids.
//!
//! `#` wall, space empty, `.` target cell (empty; the puzzle is solved when
//! the master covers exactly the target cells), `-` door (master only), `*`
//! the master (named `@` in the model), any other character one block: all
//! cells with that character are ONE block, connected or not. Blocks of the
//! same shape are one interchangeable type, named after the first character
//! seen for it (or a fresh identifier when that one cannot be used). Short
//! rows are padded with empty cells.
//!
//! GNOME Klotski lets every block go wherever there is no wall; only doors
//! are the master's alone. So a block outside the frame (reachable from the
//! grid's edge without crossing a wall or a door, as in Ithaca) is an
//! ordinary block, and the outside cells it can reach stay free cells. The
//! outside cells no such block can reach are modelled as door cells: only the
//! master, coming through a door, can go there, so they do not count as
//! spaces for the other blocks (the same positions, fewer phantom spaces).

use super::builder::PuzzleBuilder;
use super::error::{Loc, ParseError};
use super::grid::{flood, Grid};
use super::native::MASTER_ID;
use crate::model::{BlockType, CellKind, Puzzle, Shape};

/// The master block in a GNOME Klotski level.
pub const GNOME_MASTER: char = '*';

/// Parses one GNOME Klotski level.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let mut rows: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw.strip_suffix('\r').unwrap_or(raw)))
        .collect();
    let blank = |r: &(usize, &str)| r.1.chars().all(|c| c == ' ');
    while rows.last().is_some_and(blank) {
        rows.pop();
    }
    let leading = rows.iter().take_while(|r| blank(r)).count();
    rows.drain(..leading);
    if rows.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no level in it"));
    }
    let grid = Grid::padded(file, &rows)?;
    let mut builder = grid.builder(file, |ch| {
        (ch != ' ' && super::ids::invisible(ch)).then(|| {
            format!(
                "unknown character U+{:04X}: use a space for an empty cell",
                ch as u32
            )
        })
    })?;
    outside_is_door(&mut builder, &grid);
    let (blocks, targets) = blocks_and_targets(&grid);
    let Some(master) = blocks.iter().position(|b| b.0 == GNOME_MASTER) else {
        return Err(builder.error(
            Loc::new(grid.lines[0], 0),
            "no master block '*' in this level",
        ));
    };
    let master_shape = shape_of(&blocks[master].1);
    let Some(&(tr, tc)) = targets.first() else {
        return Err(builder.error(
            Loc::new(grid.lines[0], 0),
            "no target cells '.': the goal is the master covering them",
        ));
    };
    if shape_of(&targets) != master_shape {
        return Err(builder.error(
            grid.loc(tr, tc),
            format!(
                "the {} target cells '.' do not have the shape of the master '*' ({} cells), \
                 so the master can never cover exactly them",
                targets.len(),
                master_shape.size()
            ),
        ));
    }
    let (mr, mc) = blocks[master].1[0];
    let master_block = BlockType {
        id: MASTER_ID,
        shape: master_shape,
        slider: None,
        is_master: true,
    };
    let m = builder.declare(master_block, grid.loc(mr, mc));
    builder.place(m, builder.cell(mr, mc), grid.loc(mr, mc))?;
    for (ch, cells) in blocks.iter().filter(|b| b.0 != GNOME_MASTER) {
        let (r, c) = cells[0];
        let t = builder.type_for_shape(&shape_of(cells), *ch, grid.loc(r, c))?;
        builder.place(t, builder.cell(r, c), grid.loc(r, c))?;
    }
    builder.goal_section();
    builder.want(m, builder.cell(tr, tc), grid.loc(tr, tc))?;
    builder.build(None)
}

/// Empty and target cells outside the frame (reachable from the grid's edge
/// without crossing a wall or a door) that no block but the master can reach
/// become doors; those a block outside the frame can reach stay free.
fn outside_is_door(builder: &mut PuzzleBuilder, grid: &Grid) {
    let (h, w) = (grid.height(), grid.width);
    let edge = (0..h)
        .flat_map(|r| [(r, 0), (r, w - 1)])
        .chain((0..w).flat_map(|c| [(0, c), (h - 1, c)]));
    let open = |r: usize, c: usize| !matches!(grid.get(r, c), '#' | '-');
    let outside = flood(h, w, edge, open);
    let is_block = |ch: char| !matches!(ch, ' ' | '.' | '#' | '-' | GNOME_MASTER);
    let blocks_outside = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&(r, c)| outside[r * w + c] && is_block(grid.get(r, c)));
    let blocks_reach = flood(h, w, blocks_outside, |r, c| outside[r * w + c]);
    for r in 0..h {
        for c in 0..w {
            if outside[r * w + c] && !blocks_reach[r * w + c] {
                builder.set_kind(builder.cell(r, c), CellKind::Door);
            }
        }
    }
}

/// Cells `(row, col)` in reading order.
type Cells = Vec<(usize, usize)>;

/// Cells by block character (all cells of a character are one block), in
/// order of first appearance, and the target cells, in reading order.
fn blocks_and_targets(grid: &Grid) -> (Vec<(char, Cells)>, Cells) {
    let mut blocks: Vec<(char, Cells)> = Vec::new();
    let mut targets = Vec::new();
    for r in 0..grid.height() {
        for c in 0..grid.width {
            match grid.get(r, c) {
                '#' | '-' | ' ' => {}
                '.' => targets.push((r, c)),
                ch => match blocks.iter_mut().find(|b| b.0 == ch) {
                    Some(b) => b.1.push((r, c)),
                    None => blocks.push((ch, vec![(r, c)])),
                },
            }
        }
    }
    (blocks, targets)
}

/// The shape of a set of cells.
fn shape_of(cells: &[(usize, usize)]) -> Shape {
    Shape::new(cells.iter().map(|&(r, c)| (r as i32, c as i32)).collect())
        .expect("at least one cell")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::model::Cell;

    const RED_DONKEY: &str = "\
######
#a**b#
#a**b#
#cdde#
#cfge#
#h  i#
##--##
    ..
    ..
";

    #[test]
    fn red_donkey_outside_cells_are_doors() {
        let p = parse(RED_DONKEY, "f").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (6, 9));
        assert_eq!(p.types[0].id, '@');
        // a b c e (2x1) are one type, d (1x2) one, f g h i (1x1) one.
        assert_eq!(p.types.len(), 4);
        assert_eq!(p.counts, vec![1, 4, 1, 4]);
        let b = &p.board;
        assert_eq!(b.kind(b.index(5, 2)), CellKind::Free);
        assert_eq!(b.kind(b.index(6, 2)), CellKind::Door);
        assert_eq!(b.kind(b.index(7, 0)), CellKind::Door);
        assert_eq!(b.kind(b.index(8, 5)), CellKind::Door);
        assert_eq!(
            p.goals[0].requirements[0].anchors,
            vec![b.index(7, 4) as Cell]
        );
        assert_eq!(native::parse(&native::write(&p), "w").unwrap(), p);
    }

    #[test]
    fn short_rows_are_padded_and_disconnected_blocks_allowed() {
        let p = parse("######\n#*.  #\n######\n##\n", "f").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (6, 4));
        // The padded cells of the last row are outside the frame.
        assert_eq!(p.board.kind(p.board.index(3, 3)), CellKind::Door);
        assert_eq!(p.board.kind(p.board.index(1, 3)), CellKind::Free);
        let p = parse("######\n#*a a#\n#.   #\n######\n", "f").unwrap();
        assert_eq!(p.types[1].shape.size(), 2);
        assert!(!p.types[1].shape.is_connected());
    }

    #[test]
    fn blocks_outside_the_frame_are_ordinary_blocks() {
        // 'a' stands outside the frame, left of the door; the master must
        // leave through the door to the targets on the right.
        let level = "a   ######\n    #*   -  .\n    ######\n";
        let p = parse(level, "f").unwrap();
        let b = &p.board;
        assert_eq!(p.counts, vec![1, 1]);
        // The outside cells 'a' can reach stay free ...
        assert_eq!(b.kind(b.index(0, 0)), CellKind::Free);
        assert_eq!(b.kind(b.index(2, 3)), CellKind::Free);
        // ... but beyond the door, a region 'a' cannot reach, only the
        // master may go.
        assert_eq!(b.kind(b.index(1, 12)), CellKind::Door);
        // Without the outside block, the outside is the master's alone.
        let p = parse(&level.replace('a', " "), "f").unwrap();
        assert_eq!(p.board.kind(p.board.index(1, 12)), CellKind::Door);
        assert_eq!(p.board.kind(p.board.index(0, 0)), CellKind::Door);
    }

    #[test]
    fn rejects_bad_levels() {
        let e = parse("####\n#ab#\n####\n", "f").unwrap_err();
        assert!(e.message.contains("no master"), "{e}");
        let e = parse("####\n#* #\n####\n", "f").unwrap_err();
        assert!(e.message.contains("no target"), "{e}");
        let e = parse("#####\n#*..#\n#####\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        let e = parse("####\n#*.\t\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4), "{e}");
        assert!(parse("\n  \n", "f").is_err());
    }
}
