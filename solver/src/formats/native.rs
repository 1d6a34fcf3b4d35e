//! The native format: the thesis's new format (§7.1.3, fig. 7.3), extended
//! with `%` comment/metadata lines, `-` door cells and `.` as an explicit
//! empty cell. See `docs/format.md`.
//!
//! ```text
//! % name: Classic Klotski
//! !
//! @ 1,0 0,1 1,1
//! a
//! b 0,1
//! v | 0,1
//! !
//! <start grid>
//! !
//! <goal grid>   (one or more; all but the last are subgoals)
//! !
//! ```

use super::error::ParseError;
use super::grid::{split_into_shape, Grid};
use crate::model::{
    Axis, BlockType, Board, Cell, CellKind, Goal, GoalRequirement, Position, Puzzle, Shape,
};

/// Characters that cannot be block identifiers.
pub const RESERVED: &[char] = &['#', ' ', '.', '-', '!', '%', '|', '=', ',', '\t'];

/// The identifier of the master block.
pub const MASTER_ID: char = '@';

/// True when the text is in the native format: its first line that is not a
/// comment or blank is `!` alone (thesis §7.1.3).
pub fn detect(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim_end())
        .find(|l| !l.is_empty() && !l.starts_with('%'))
        .is_some_and(|l| l == "!")
}

/// Parses one puzzle in the native format.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let mut metadata = Vec::new();
    let mut sections: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut seen_bang = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.starts_with('%') {
            if let Some((k, v)) = line[1..].split_once(':') {
                metadata.push((k.trim().to_string(), v.trim().to_string()));
            }
            continue;
        }
        if line.trim_end() == "!" {
            seen_bang = true;
            sections.push(Vec::new());
            continue;
        }
        if !seen_bang {
            if line.trim().is_empty() {
                continue;
            }
            return Err(ParseError::new(
                file,
                line_no,
                1,
                "expected '!' on a line of its own before the block definitions",
            ));
        }
        sections
            .last_mut()
            .expect("a section is open")
            .push((line_no, line));
    }
    // Blank lines around grids and the empty section after the final '!' carry nothing.
    for s in &mut sections {
        while s.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            s.pop();
        }
        while s.first().is_some_and(|(_, l)| l.trim().is_empty()) {
            s.remove(0);
        }
    }
    while sections.last().is_some_and(|s| s.is_empty()) {
        sections.pop();
    }
    if sections.is_empty() {
        return Err(ParseError::new(file, 0, 0, "empty file: no puzzle in it"));
    }
    let header_end = sections[0].last().map_or(0, |l| l.0);
    let (types, header_lines) = parse_header(file, &sections[0])?;
    let Some(start_rows) = sections.get(1) else {
        return Err(ParseError::new(
            file,
            header_end + 1,
            0,
            "missing start position: expected a '!' line and the start grid after the block definitions",
        ));
    };
    let start = Grid::from_rows(file, start_rows)?;
    let goals: Vec<Grid> = sections[2..]
        .iter()
        .map(|rows| Grid::from_rows(file, rows))
        .collect::<Result<_, _>>()?;
    build(file, metadata, types, &header_lines, &start, &goals)
}

/// A block type as declared in the header, before instances are counted.
struct Declared {
    block: BlockType,
    line: usize,
}

fn parse_header(
    file: &str,
    rows: &[(usize, &str)],
) -> Result<(Vec<Declared>, Vec<usize>), ParseError> {
    let mut declared: Vec<Declared> = Vec::new();
    for &(line, text) in rows {
        if text.trim().is_empty() {
            continue;
        }
        let mut chars = text.char_indices().peekable();
        let (_, id) = chars.next().expect("non-blank line");
        if RESERVED.contains(&id) || id.is_whitespace() {
            return Err(ParseError::new(
                file,
                line,
                1,
                format!("'{id}' cannot be a block identifier (reserved characters: # . - ! % | = , and space)"),
            ));
        }
        if let Some(prev) = declared.iter().find(|d| d.block.id == id) {
            return Err(ParseError::new(
                file,
                line,
                1,
                format!(
                    "block type '{id}' is defined twice (first on line {})",
                    prev.line
                ),
            ));
        }
        let rest_start = chars.peek().map_or(text.len(), |&(i, _)| i);
        let mut slider = None;
        let mut offsets = vec![(0, 0)];
        for token in split_tokens(&text[rest_start..]) {
            let (pos, tok) = (rest_start + token.0, token.1);
            let column = text[..pos].chars().count() + 1;
            let (mark, coords) = match tok.chars().next() {
                Some(m @ ('|' | '=')) => (Some(m), &tok[1..]),
                _ => (None, tok),
            };
            if let Some(m) = mark {
                let axis = if m == '|' {
                    Axis::Vertical
                } else {
                    Axis::Horizontal
                };
                if slider.is_some_and(|s| s != axis) {
                    return Err(ParseError::new(
                        file,
                        line,
                        column,
                        format!("block type '{id}' cannot be both a vertical (|) and a horizontal (=) slider"),
                    ));
                }
                slider = Some(axis);
            }
            if coords.is_empty() {
                continue;
            }
            let parsed = coords.split_once(',').and_then(|(x, y)| {
                Some((x.trim().parse::<i32>().ok()?, y.trim().parse::<i32>().ok()?))
            });
            let Some((x, y)) = parsed.filter(|(x, y)| x.abs() < 128 && y.abs() < 128) else {
                return Err(ParseError::new(
                    file,
                    line,
                    column,
                    format!("expected a cell offset 'x,y' (column,row, each within ±127) but found '{tok}'"),
                ));
            };
            offsets.push((y, x));
        }
        let shape = Shape::new(offsets).expect("contains (0,0)");
        let block = BlockType {
            id,
            shape,
            slider,
            is_master: id == MASTER_ID,
        };
        declared.push(Declared { block, line });
    }
    if declared.is_empty() {
        return Err(ParseError::new(
            file,
            rows.first().map_or(0, |r| r.0),
            0,
            "no block types defined: the first section must list them, one per line",
        ));
    }
    let lines = declared.iter().map(|d| d.line).collect();
    Ok((declared, lines))
}

/// Whitespace-separated tokens with their byte offsets.
fn split_tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(st)) => {
                out.push((st, &s[st..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn build(
    file: &str,
    metadata: Vec<(String, String)>,
    declared: Vec<Declared>,
    _header_lines: &[usize],
    start: &Grid,
    goals: &[Grid],
) -> Result<Puzzle, ParseError> {
    let (h, w) = (start.height(), start.width);
    if h < 1 || w < 1 {
        return Err(ParseError::new(
            file,
            start.lines[0],
            1,
            "the start grid is empty",
        ));
    }
    // Cell kinds: walls and doors from the start grid; a door may also be
    // marked in a goal grid (where the start grid shows the master on it).
    let mut kinds = vec![CellKind::Free; h * w];
    for r in 0..h {
        for c in 0..w {
            let ch = start.get(r, c);
            kinds[r * w + c] = match ch {
                '#' => CellKind::Wall,
                '-' => CellKind::Door,
                ' ' | '.' => CellKind::Free,
                _ if declared.iter().any(|d| d.block.id == ch) => CellKind::Free,
                _ => {
                    return Err(ParseError::new(
                        file,
                        start.lines[r],
                        c + 1,
                        format!("unknown character '{ch}': not a wall (#), empty cell (space or .), door (-) or a block defined in the header"),
                    ))
                }
            };
        }
    }
    for g in goals {
        check_goal_size(file, start, g)?;
        for r in 0..g.height() {
            for c in 0..g.width {
                if g.get(r, c) == '-' {
                    kinds[r * w + c] = CellKind::Door;
                }
            }
        }
    }
    let board = Board::new(w, h, kinds);

    let mut types = Vec::new();
    let mut counts = Vec::new();
    let mut anchors: Vec<Cell> = Vec::new();
    let mut type_of_declared = vec![None; declared.len()];
    for (di, d) in declared.iter().enumerate() {
        let found = split_into_shape(start, d.block.id, &d.block.shape).map_err(|(r, c)| {
            ParseError::new(
                file,
                start.lines[r],
                c + 1,
                format!(
                    "the cells marked '{}' do not form the shape declared for it on line {}",
                    d.block.id, d.line
                ),
            )
        })?;
        if found.is_empty() {
            continue;
        }
        if d.block.is_master && found.len() > 1 {
            let (r, c) = found[1];
            return Err(ParseError::new(
                file,
                start.lines[r],
                c + 1,
                "the master block '@' appears more than once; it must be unique",
            ));
        }
        for &(r, c) in &found {
            let cell = r * w + c;
            let on_door = d.block.shape.offsets().iter().any(|&(dr, dc)| {
                board
                    .offset(cell, dr, dc)
                    .is_some_and(|x| board.kind(x) == CellKind::Door)
            });
            if on_door && !d.block.is_master {
                return Err(ParseError::new(
                    file,
                    start.lines[r],
                    c + 1,
                    format!(
                        "block '{}' stands on a door cell, which only the master may occupy",
                        d.block.id
                    ),
                ));
            }
            anchors.push(cell as Cell);
        }
        if let Some(axis) = d.block.slider {
            check_slider_can_slide(file, d, axis, &board)?;
        }
        type_of_declared[di] = Some(types.len());
        types.push(d.block.clone());
        counts.push(found.len());
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
    for g in goals {
        let mut goal = Goal::default();
        for r in 0..g.height() {
            for c in 0..g.width {
                let ch = g.get(r, c);
                if matches!(ch, '#' | ' ' | '.' | '-') {
                    continue;
                }
                if !declared.iter().any(|d| d.block.id == ch) {
                    return Err(ParseError::new(
                        file,
                        g.lines[r],
                        c + 1,
                        format!("the goal names block '{ch}', which the header does not define"),
                    ));
                }
            }
        }
        for (di, d) in declared.iter().enumerate() {
            let found = split_into_shape(g, d.block.id, &d.block.shape).map_err(|(r, c)| {
                ParseError::new(
                    file,
                    g.lines[r],
                    c + 1,
                    format!(
                        "the goal cells marked '{}' do not form the shape declared for it on line {}",
                        d.block.id, d.line
                    ),
                )
            })?;
            if found.is_empty() {
                continue;
            }
            let available = type_of_declared[di].map_or(0, |t| counts[t]);
            if found.len() > available {
                let (r, c) = found[available.min(found.len() - 1)];
                let what = if d.block.is_master {
                    "the goal places the master '@' but the start position has no master"
                        .to_string()
                } else {
                    format!(
                        "the goal places {} block(s) '{}' but the start position has {available}",
                        found.len(),
                        d.block.id
                    )
                };
                return Err(ParseError::new(file, g.lines[r], c + 1, what));
            }
            let mut req_anchors: Vec<Cell> =
                found.iter().map(|&(r, c)| (r * w + c) as Cell).collect();
            req_anchors.sort_unstable();
            goal.requirements.push(GoalRequirement {
                block_type: type_of_declared[di].expect("available > 0"),
                anchors: req_anchors,
            });
        }
        goal_sections.push(goal);
    }

    let mut puzzle = Puzzle::new(board, types, counts, Position { anchors }, goal_sections);
    puzzle.name = metadata
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("name"))
        .map(|(_, v)| v.clone());
    puzzle.metadata = metadata;
    Ok(puzzle)
}

fn check_goal_size(file: &str, start: &Grid, goal: &Grid) -> Result<(), ParseError> {
    if goal.height() != start.height() || goal.width != start.width {
        return Err(ParseError::new(
            file,
            goal.lines[0],
            1,
            format!(
                "goal grid is {}x{} but the start grid is {}x{}; draw goals on the same board",
                goal.height(),
                goal.width,
                start.height(),
                start.width
            ),
        ));
    }
    Ok(())
}

/// A slider must have at least one other place along its axis on the empty board.
fn check_slider_can_slide(
    file: &str,
    d: &Declared,
    axis: Axis,
    board: &Board,
) -> Result<(), ParseError> {
    let (dr, dc) = match axis {
        Axis::Horizontal => (0, 1),
        Axis::Vertical => (1, 0),
    };
    let fits = |anchor: usize| {
        d.block.shape.offsets().iter().all(|&(r, c)| {
            board
                .offset(anchor, r, c)
                .is_some_and(|x| board.allows(x, d.block.is_master))
        })
    };
    let can = (0..board.len()).any(|a| {
        fits(a)
            && (board.offset(a, dr, dc).is_some_and(fits)
                || board.offset(a, -dr, -dc).is_some_and(fits))
    });
    if can {
        Ok(())
    } else {
        Err(ParseError::new(
            file,
            d.line,
            1,
            format!(
                "slider '{}' can never slide: its shape has no room to move {} anywhere on this board",
                d.block.id,
                if axis == Axis::Vertical { "vertically" } else { "horizontally" }
            ),
        ))
    }
}

/// Writes a puzzle in the native format; `parse(write(p))` gives `p` back.
pub fn write(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    for (k, v) in &puzzle.metadata {
        out.push_str(&format!("% {k}: {v}\n"));
    }
    if puzzle.name.is_some()
        && !puzzle
            .metadata
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("name"))
    {
        out.push_str(&format!(
            "% name: {}\n",
            puzzle.name.as_deref().unwrap_or_default()
        ));
    }
    out.push_str("!\n");
    for t in &puzzle.types {
        out.push(t.id);
        match t.slider {
            Some(Axis::Vertical) => out.push_str(" |"),
            Some(Axis::Horizontal) => out.push_str(" ="),
            None => {}
        }
        for &(dr, dc) in &t.shape.offsets()[1..] {
            out.push_str(&format!(" {dc},{dr}"));
        }
        out.push('\n');
    }
    out.push_str("!\n");
    out.push_str(&protect_trailing_spaces(&puzzle.render(&puzzle.start)));
    for g in &puzzle.goals {
        out.push_str("!\n");
        out.push_str(&protect_trailing_spaces(&puzzle.render_goal(g)));
    }
    out.push_str("!\n");
    out
}

/// Editors strip trailing spaces; an empty cell at the end of a row is written as '.'.
fn protect_trailing_spaces(grid: &str) -> String {
    let mut out = String::with_capacity(grid.len());
    for line in grid.lines() {
        let trimmed = line.trim_end_matches(' ');
        out.push_str(trimmed);
        out.extend(std::iter::repeat('.').take(line.len() - trimmed.len()));
        out.push('\n');
    }
    out
}
