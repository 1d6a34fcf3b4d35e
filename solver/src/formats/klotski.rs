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
//! Empty and target cells outside the frame, that is reachable from the
//! grid's edge without crossing a wall or a door, are modelled as door cells:
//! only the master, coming through a door, can go there, so they do not count
//! as spaces for the other blocks.

use std::collections::HashMap;

use super::error::ParseError;
use super::grid::{check_size, flood};
use super::ids::IdPool;
use super::native::MASTER_ID;
use crate::model::{
    BlockType, Board, Cell, CellKind, Goal, GoalRequirement, Position, Puzzle, Shape,
};

/// The master block in a GNOME Klotski level.
pub const GNOME_MASTER: char = '*';

/// Parses one GNOME Klotski level.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let mut rows: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(i, raw)| {
            (
                i + 1,
                raw.strip_suffix('\r').unwrap_or(raw).chars().collect(),
            )
        })
        .collect();
    let blank = |r: &(usize, Vec<char>)| r.1.iter().all(|c| *c == ' ');
    while rows.last().is_some_and(blank) {
        rows.pop();
    }
    let leading = rows.iter().take_while(|r| blank(r)).count();
    rows.drain(..leading);
    if rows.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no level in it"));
    }
    let h = rows.len();
    let w = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let first_line = rows[0].0;
    check_size(file, first_line, h, w)?;
    let at = |r: usize, c: usize, message: String| ParseError::new(file, rows[r].0, c + 1, message);
    let get = |r: usize, c: usize| rows[r].1.get(c).copied().unwrap_or(' ');

    let mut kinds = vec![CellKind::Free; h * w];
    let mut targets = Vec::new();
    let mut blocks: Vec<(char, Vec<(usize, usize)>)> = Vec::new();
    let mut block_of: HashMap<char, usize> = HashMap::new();
    for r in 0..h {
        for c in 0..w {
            match get(r, c) {
                '#' => kinds[r * w + c] = CellKind::Wall,
                '-' => kinds[r * w + c] = CellKind::Door,
                ' ' => {}
                '.' => targets.push((r, c)),
                ch if ch.is_whitespace() || ch.is_control() => {
                    return Err(at(
                        r,
                        c,
                        format!(
                            "unknown character U+{:04X}: use a space for an empty cell",
                            ch as u32
                        ),
                    ))
                }
                ch => {
                    let b = *block_of.entry(ch).or_insert_with(|| {
                        blocks.push((ch, Vec::new()));
                        blocks.len() - 1
                    });
                    blocks[b].1.push((r, c));
                }
            }
        }
    }
    let is_block = |r: usize, c: usize| {
        let ch = get(r, c);
        ch != '#' && ch != '-' && ch != ' ' && ch != '.'
    };

    // Outside the frame: reachable from the edge without crossing a wall or door.
    let edge = (0..h)
        .flat_map(|r| [(r, 0), (r, w - 1)])
        .chain((0..w).flat_map(|c| [(0, c), (h - 1, c)]));
    let outside = flood(h, w, edge, |r, c| !matches!(get(r, c), '#' | '-'));
    for r in 0..h {
        for c in 0..w {
            if !outside[r * w + c] {
                continue;
            }
            if is_block(r, c) && get(r, c) != GNOME_MASTER {
                return Err(at(
                    r,
                    c,
                    format!(
                        "block '{}' stands outside the frame (reachable from the edge without \
                         crossing a wall or door), where only the master may go",
                        get(r, c)
                    ),
                ));
            }
            kinds[r * w + c] = CellKind::Door;
        }
    }
    let board = Board::new(w, h, kinds);

    let shape_of = |cells: &[(usize, usize)]| {
        Shape::new(cells.iter().map(|&(r, c)| (r as i32, c as i32)).collect())
            .expect("at least one cell")
    };
    let Some(&master) = block_of.get(&GNOME_MASTER) else {
        return Err(ParseError::new(
            file,
            first_line,
            0,
            "no master block '*' in this level",
        ));
    };
    let master_shape = shape_of(&blocks[master].1);
    let Some(&(tr, tc)) = targets.first() else {
        return Err(ParseError::new(
            file,
            first_line,
            0,
            "no target cells '.': the goal is the master covering them",
        ));
    };
    if shape_of(&targets) != master_shape {
        return Err(at(
            tr,
            tc,
            format!(
                "the {} target cells '.' do not have the shape of the master '*' ({} cells), \
                 so the master can never cover exactly them",
                targets.len(),
                master_shape.size()
            ),
        ));
    }

    let mut pool = IdPool::new();
    pool.reserve(MASTER_ID);
    let (mr, mc) = blocks[master].1[0];
    let mut types = vec![BlockType {
        id: MASTER_ID,
        shape: master_shape,
        slider: None,
        is_master: true,
    }];
    let mut instances: Vec<Vec<Cell>> = vec![vec![(mr * w + mc) as Cell]];
    let mut type_of_shape: HashMap<Shape, usize> = HashMap::new();
    for (ch, cells) in blocks.iter().filter(|b| b.0 != GNOME_MASTER) {
        let shape = shape_of(cells);
        let (r, c) = cells[0];
        let t = match type_of_shape.get(&shape) {
            Some(&t) => t,
            None => {
                let id = pool.take(Some(*ch)).ok_or_else(|| {
                    at(
                        r,
                        c,
                        "too many block shapes: no identifier left for this one".into(),
                    )
                })?;
                types.push(BlockType {
                    id,
                    shape: shape.clone(),
                    slider: None,
                    is_master: false,
                });
                instances.push(Vec::new());
                type_of_shape.insert(shape, types.len() - 1);
                types.len() - 1
            }
        };
        instances[t].push((r * w + c) as Cell);
    }
    let goal = Goal {
        requirements: vec![GoalRequirement {
            block_type: 0,
            anchors: vec![(tr * w + tc) as Cell],
        }],
    };
    let counts = instances.iter().map(Vec::len).collect();
    let anchors = instances.concat();
    Ok(Puzzle::new(
        board,
        types,
        counts,
        Position { anchors },
        vec![goal],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

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
    fn rejects_bad_levels() {
        let e = parse("####\n#ab#\n####\n", "f").unwrap_err();
        assert!(e.message.contains("no master"), "{e}");
        let e = parse("####\n#* #\n####\n", "f").unwrap_err();
        assert!(e.message.contains("no target"), "{e}");
        let e = parse("#####\n#*..#\n#####\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        let e = parse("####\n#*.#\n####\n a\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (4, 2), "{e}");
        let e = parse("####\n#*.\t\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4), "{e}");
        assert!(parse("\n  \n", "f").is_err());
    }
}
