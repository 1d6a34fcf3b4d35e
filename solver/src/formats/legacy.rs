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

use super::builder::{comment, Metadata, PuzzleBuilder};
use super::error::{Loc, ParseError};
use super::grid::Grid;
use super::native::MASTER_ID;
use super::ImportOptions;
use crate::model::{Puzzle, Shape};

/// One connected group of equal characters.
struct Component {
    ch: char,
    /// Row-major cells; the first is the anchor.
    cells: Vec<(usize, usize)>,
    shape: Shape,
}

/// Parses one puzzle in the old format.
pub fn parse(text: &str, file: &str, options: &ImportOptions) -> Result<Puzzle, ParseError> {
    let (metadata, sections) = split_sections(text);
    if sections.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no puzzle in it"));
    }
    let start = Grid::from_rows(file, &sections[0])?;
    let goals: Vec<Grid> = sections[1..]
        .iter()
        .map(|rows| Grid::from_rows(file, rows))
        .collect::<Result<_, _>>()?;
    let mut builder = start.builder(file, unknown)?;
    for goal in &goals {
        goal.check(file, unknown)?;
        start.goal_doors(goal, &mut builder)?;
    }
    place_blocks(&mut builder, &start)?;
    for goal in &goals {
        want_blocks(&mut builder, goal)?;
    }
    builder.metadata(metadata);
    let after_start = start.lines[start.height() - 1] + 1;
    builder.build(options.need_goal.then_some(Loc::new(after_start, 1)))
}

/// The `% key: value` metadata and the grids, each a run of non-blank lines
/// with their line numbers.
fn split_sections(text: &str) -> (Metadata, Vec<Vec<(usize, &str)>>) {
    let mut metadata = Vec::new();
    let mut sections: Vec<Vec<(usize, &str)>> = vec![Vec::new()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(key_value) = comment(line) {
            metadata.extend(key_value);
        } else if line.trim().is_empty() {
            if !sections.last().expect("never empty").is_empty() {
                sections.push(Vec::new());
            }
        } else {
            sections
                .last_mut()
                .expect("never empty")
                .push((i + 1, line));
        }
    }
    sections.retain(|s| !s.is_empty());
    (metadata, sections)
}

/// The message for a grid character the old format does not know.
fn unknown(ch: char) -> Option<String> {
    (ch != ' ' && super::ids::invisible(ch)).then(|| {
        format!(
            "unknown character U+{:04X}: use a space or '.' for an empty cell",
            ch as u32
        )
    })
}

/// The start grid's blocks: the master first, then the other shapes in
/// order of appearance, one interchangeable type per shape.
fn place_blocks(builder: &mut PuzzleBuilder, start: &Grid) -> Result<(), ParseError> {
    let found = components(start);
    let mut master_type = None;
    for m in found.iter().filter(|k| k.ch == MASTER_ID) {
        let (r, c) = m.cells[0];
        let t = *master_type
            .get_or_insert_with(|| builder.declare(master(m.shape.clone()), start.loc(r, c)));
        builder.place(t, builder.cell(r, c), start.loc(r, c))?;
    }
    for k in found.iter().filter(|k| k.ch != MASTER_ID) {
        let (r, c) = k.cells[0];
        let t = builder.type_for_shape(&k.shape, k.ch, start.loc(r, c))?;
        builder.place(t, builder.cell(r, c), start.loc(r, c))?;
    }
    Ok(())
}

/// The master type of the given shape.
fn master(shape: Shape) -> crate::model::BlockType {
    crate::model::BlockType {
        id: MASTER_ID,
        shape,
        slider: None,
        is_master: true,
    }
}

/// A goal grid's blocks, each matched to a type by its shape (`@` to the master).
fn want_blocks(builder: &mut PuzzleBuilder, goal: &Grid) -> Result<(), ParseError> {
    builder.goal_section();
    for k in components(goal) {
        let (r, c) = k.cells[0];
        let at = goal.loc(r, c);
        let t = if k.ch == MASTER_ID {
            match builder.master() {
                Some(m) if *builder.shape(m) == k.shape => m,
                Some(_) => {
                    return Err(builder.error(
                        at,
                        "the goal's master '@' does not have the master's shape in the start grid",
                    ))
                }
                // No master in the start: the builder says so.
                None => builder.declare(master(k.shape.clone()), at),
            }
        } else {
            builder.shape_type(&k.shape).ok_or_else(|| {
                builder.error(
                    at,
                    format!(
                        "the goal names block '{}' ({} cells) but no block of the start grid has its shape",
                        k.ch,
                        k.cells.len()
                    ),
                )
            })?
        };
        builder.want(t, builder.cell(r, c), at)?;
    }
    Ok(())
}

fn is_block_char(ch: char) -> bool {
    !matches!(ch, '#' | '-' | ' ' | '.') && !super::ids::invisible(ch)
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

    fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
        super::parse(text, file, &ImportOptions::default())
    }

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

    /// Issue 12: a search on a puzzle without a goal section said so
    /// without a line or column.
    #[test]
    fn a_search_needs_a_goal_section_where_it_would_go() {
        let mut need = ImportOptions::default();
        let text = "% name: x\n####\n#@ #\n####\n\n";
        assert!(super::parse(text, "f", &need).unwrap().goals.is_empty());
        need.need_goal = true;
        let e = super::parse(text, "f", &need).unwrap_err();
        assert_eq!((e.line, e.column), (5, 1), "{e}");
        assert!(e.message.contains("no goal section"), "{e}");
        assert_eq!(super::parse(FOUR, "f", &need).unwrap().goals.len(), 1);
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
