//! The thesis's old format (§7.1.3): the start grid alone, each block drawn
//! with its own character and found as a connected group of equal
//! characters; optionally followed by goal grids, each after a blank line.
//!
//! ```text
//! % name: four blocks        (optional % metadata lines)
//! ######
//! #a@@b#
//! #a@@b#
//! #c  d#
//! ######
//!                            (blank line: a goal section follows)
//! ######
//! #    #
//! #    #
//! # @@ #
//! ######
//! ```
//!
//! `@` is the master, `#` a wall, space or `.` an empty cell, `-` a door
//! (master only). Any other character is part of a block: 4-connected cells
//! of one character form one block. Blocks of the same shape are one
//! interchangeable type whatever their characters ("two blocks of the same
//! size and shape are considered indistinguishable"); the type is named after
//! the first character seen for it, or a fresh one when that character
//! already names another shape or cannot be a native identifier.
//! Goal grids follow the native conventions: only the blocks drawn are
//! fixed, and each is matched to a type by its shape (`@` to the master).

use std::collections::HashMap;

use super::error::ParseError;
use super::grid::{check_size, Grid};
use super::ids::IdPool;
use super::native::MASTER_ID;
use crate::model::{
    BlockType, Board, Cell, CellKind, Goal, GoalRequirement, Position, Puzzle, Shape,
};

/// One connected group of equal characters.
struct Component {
    ch: char,
    /// Row-major cells; the first is the anchor.
    cells: Vec<(usize, usize)>,
    shape: Shape,
}

/// Parses one puzzle in the old format.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let mut metadata = Vec::new();
    let mut sections: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(rest) = line.strip_prefix('%') {
            if let Some((k, v)) = rest.split_once(':') {
                metadata.push((k.trim().to_string(), v.trim().to_string()));
            }
            continue;
        }
        if line.trim().is_empty() {
            if !sections.last().expect("never empty").is_empty() {
                sections.push(Vec::new());
            }
            continue;
        }
        sections
            .last_mut()
            .expect("never empty")
            .push((i + 1, line));
    }
    sections.retain(|s| !s.is_empty());
    if sections.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no puzzle in it"));
    }
    let start = Grid::from_rows(file, &sections[0])?;
    let (h, w) = (start.height(), start.width);
    check_size(file, start.lines[0], h, w)?;
    let goals: Vec<Grid> = sections[1..]
        .iter()
        .map(|rows| Grid::from_rows(file, rows))
        .collect::<Result<_, _>>()?;

    let mut kinds = vec![CellKind::Free; h * w];
    for r in 0..h {
        for c in 0..w {
            kinds[r * w + c] = cell_kind(file, &start, r, c)?;
        }
    }
    for g in &goals {
        if g.height() != h || g.width != w {
            return Err(ParseError::new(
                file,
                g.lines[0],
                1,
                format!(
                    "goal grid is {}x{} but the start grid is {h}x{w}; draw goals on the same board",
                    g.height(),
                    g.width
                ),
            ));
        }
        for r in 0..h {
            for c in 0..w {
                if cell_kind(file, g, r, c)? == CellKind::Door {
                    if kinds[r * w + c] == CellKind::Wall {
                        return Err(ParseError::new(
                            file,
                            g.lines[r],
                            c + 1,
                            "this goal marks a door (-) where the start grid has a wall",
                        ));
                    }
                    kinds[r * w + c] = CellKind::Door;
                }
            }
        }
    }
    let board = Board::new(w, h, kinds);

    // Types: the master first, then the other shapes in order of appearance.
    let found = components(&start);
    let mut pool = IdPool::new();
    pool.reserve(MASTER_ID);
    let mut types: Vec<BlockType> = Vec::new();
    let mut instances: Vec<Vec<Cell>> = Vec::new();
    let masters: Vec<&Component> = found.iter().filter(|k| k.ch == MASTER_ID).collect();
    if let Some(second) = masters.get(1) {
        let (r, c) = second.cells[0];
        return Err(ParseError::new(
            file,
            start.lines[r],
            c + 1,
            "a second master block '@': the master must be unique (its cells must be connected)",
        ));
    }
    if let Some(m) = masters.first() {
        types.push(BlockType {
            id: MASTER_ID,
            shape: m.shape.clone(),
            slider: None,
            is_master: true,
        });
        instances.push(vec![(m.cells[0].0 * w + m.cells[0].1) as Cell]);
    }
    let mut type_of_shape: HashMap<Shape, usize> = HashMap::new();
    for k in found.iter().filter(|k| k.ch != MASTER_ID) {
        let (r, c) = k.cells[0];
        // A goal grid may mark a door under a block of the start grid.
        if let Some(&(dr, dc)) = k
            .cells
            .iter()
            .find(|&&(rr, cc)| board.kind(rr * w + cc) == CellKind::Door)
        {
            return Err(ParseError::new(
                file,
                start.lines[dr],
                dc + 1,
                format!(
                    "block '{}' stands on a cell that a goal grid marks as a door (-), \
                     which only the master may occupy",
                    k.ch
                ),
            ));
        }
        let t = match type_of_shape.get(&k.shape) {
            Some(&t) => t,
            None => {
                let Some(id) = pool.take(Some(k.ch)) else {
                    return Err(ParseError::new(
                        file,
                        start.lines[r],
                        c + 1,
                        "too many block shapes: no identifier left for this one",
                    ));
                };
                types.push(BlockType {
                    id,
                    shape: k.shape.clone(),
                    slider: None,
                    is_master: false,
                });
                instances.push(Vec::new());
                type_of_shape.insert(k.shape.clone(), types.len() - 1);
                types.len() - 1
            }
        };
        instances[t].push((r * w + c) as Cell);
    }
    if types.is_empty() {
        return Err(ParseError::new(
            file,
            start.lines[0],
            0,
            "the start position contains no blocks",
        ));
    }

    let mut goal_sections = Vec::new();
    for g in &goals {
        let mut wanted: Vec<Vec<Cell>> = vec![Vec::new(); types.len()];
        for k in components(g) {
            let (r, c) = k.cells[0];
            let at = |message: String| ParseError::new(file, g.lines[r], c + 1, message);
            let t = if k.ch == MASTER_ID {
                match types.first().filter(|t| t.is_master) {
                    Some(m) if m.shape == k.shape => 0,
                    Some(_) => return Err(at(
                        "the goal's master '@' does not have the master's shape in the start grid"
                            .into(),
                    )),
                    None => {
                        return Err(at(
                            "the goal places the master '@' but the start position has no master"
                                .into(),
                        ))
                    }
                }
            } else {
                *type_of_shape.get(&k.shape).ok_or_else(|| {
                    at(format!(
                        "the goal names block '{}' ({} cells) but no block of the start grid has its shape",
                        k.ch,
                        k.cells.len()
                    ))
                })?
            };
            if k.cells
                .iter()
                .any(|&(rr, cc)| !board.allows(rr * w + cc, types[t].is_master))
            {
                return Err(at(format!(
                    "the goal places block '{}' on a wall or door, where it can never be",
                    k.ch
                )));
            }
            wanted[t].push((r * w + c) as Cell);
            if wanted[t].len() > instances[t].len() {
                return Err(at(format!(
                    "the goal places {} block(s) of this shape but the start position has {}",
                    wanted[t].len(),
                    instances[t].len()
                )));
            }
        }
        let mut goal = Goal::default();
        for (t, mut anchors) in wanted.into_iter().enumerate() {
            if !anchors.is_empty() {
                anchors.sort_unstable();
                goal.requirements.push(GoalRequirement {
                    block_type: t,
                    anchors,
                });
            }
        }
        goal_sections.push(goal);
    }

    let counts = instances.iter().map(Vec::len).collect();
    let anchors = instances.concat();
    let mut puzzle = Puzzle::new(board, types, counts, Position { anchors }, goal_sections);
    puzzle.name = metadata
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("name"))
        .map(|(_, v)| v.clone());
    puzzle.metadata = metadata;
    Ok(puzzle)
}

/// The board meaning of one grid cell (blocks stand on free cells).
fn cell_kind(file: &str, grid: &Grid, r: usize, c: usize) -> Result<CellKind, ParseError> {
    match grid.get(r, c) {
        '#' => Ok(CellKind::Wall),
        '-' => Ok(CellKind::Door),
        ' ' | '.' => Ok(CellKind::Free),
        ch if ch.is_whitespace() || ch.is_control() => Err(ParseError::new(
            file,
            grid.lines[r],
            c + 1,
            format!(
                "unknown character U+{:04X}: use a space or '.' for an empty cell",
                ch as u32
            ),
        )),
        _ => Ok(CellKind::Free),
    }
}

fn is_block_char(ch: char) -> bool {
    !matches!(ch, '#' | '-' | ' ' | '.') && !ch.is_whitespace() && !ch.is_control()
}

/// The 4-connected groups of equal block characters, in reading order of
/// their first cells.
fn components(grid: &Grid) -> Vec<Component> {
    let (h, w) = (grid.height(), grid.width);
    let mut done = vec![false; h * w];
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let ch = grid.get(r, c);
            if done[r * w + c] || !is_block_char(ch) {
                continue;
            }
            let mut cells = vec![(r, c)];
            done[r * w + c] = true;
            let mut next = 0;
            while next < cells.len() {
                let (rr, cc) = cells[next];
                next += 1;
                let neighbours = [
                    (rr.wrapping_sub(1), cc),
                    (rr + 1, cc),
                    (rr, cc.wrapping_sub(1)),
                    (rr, cc + 1),
                ];
                for (nr, nc) in neighbours {
                    if nr < h && nc < w && !done[nr * w + nc] && grid.get(nr, nc) == ch {
                        done[nr * w + nc] = true;
                        cells.push((nr, nc));
                    }
                }
            }
            cells.sort_unstable();
            let shape = Shape::new(
                cells
                    .iter()
                    .map(|&(rr, cc)| (rr as i32, cc as i32))
                    .collect(),
            )
            .expect("at least one cell");
            out.push(Component { ch, cells, shape });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    const FOUR: &str = "\
######
#a@@b#
#a@@b#
#c  d#
######

######
#    #
# @@ #
# @@ #
######
";

    #[test]
    fn same_shapes_become_one_type_named_after_the_first() {
        let p = parse(FOUR, "f").unwrap();
        assert_eq!(p.types.len(), 3);
        assert_eq!(p.types[0].id, '@');
        assert!(p.types[0].is_master);
        assert_eq!(p.types[1].id, 'a');
        assert_eq!(p.types[1].shape, Shape::rectangle(2, 1));
        assert_eq!(p.counts, vec![1, 2, 2]);
        assert_eq!(p.types[2].id, 'c');
        assert_eq!(p.goals.len(), 1);
        assert!(!p.satisfies(&p.start, &p.goals[0]));
    }

    #[test]
    fn a_character_reused_for_another_shape_gets_a_fresh_identifier() {
        let text = "#####\n#aa #\n#@ a#\n#####\n";
        let p = parse(text, "f").unwrap();
        assert_eq!(p.types.len(), 3);
        assert_eq!(p.types[1].id, 'a');
        assert_eq!(p.types[2].id, '1');
    }

    #[test]
    fn connected_equal_characters_are_one_block() {
        let p = parse("#####\n#xx@#\n#x  #\n#####\n", "f").unwrap();
        assert_eq!(p.types[1].shape.size(), 3);
        assert_eq!(p.counts[1], 1);
    }

    #[test]
    fn round_trips_through_the_native_format() {
        let p = parse(FOUR, "f").unwrap();
        let back = native::parse(&native::write(&p), "w").unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("####\n#@\t#\n####\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        let e = parse("####\n#@ #\n###\n", "f").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("ragged"), "{e}");
        let e = parse("#####\n#@ @#\n#####\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4), "{e}");
        let e = parse("####\n#a #\n####\n\n####\n# @#\n####\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (6, 3), "{e}");
        assert!(e.message.contains("no master"), "{e}");
        let e = parse("####\n#a #\n####\n\n####\n#bb#\n####\n", "f").unwrap_err();
        assert!(e.message.contains("shape"), "{e}");
        assert!(parse("\n\n", "f").unwrap_err().message.contains("empty"));
    }

    /// Found by fuzzing: a goal grid's door under a block of the start grid
    /// was accepted, and the native text written for it did not read back.
    #[test]
    fn a_goal_door_under_a_start_block_is_an_error() {
        let e = parse("\n!**1.\n\n#-*1.\n", "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2), "{e}");
        assert!(e.message.contains("door"), "{e}");
    }
}
