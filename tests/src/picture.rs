//! Reading `solver render`'s pictures back for the tests: which board cells
//! the blocks and goal areas of an SVG (or of a player page's DOM) cover,
//! and the same from `solver show`'s text grids, so a picture can be checked
//! against an independent rendering of the same puzzle.

use std::collections::BTreeMap;

/// Board cells `(row, col)` mapped to the block identifier drawn there.
pub type Cells = BTreeMap<(i64, i64), char>;

/// One grid `solver show` prints: its label (`start`, `subgoal N`, `goal`) and rows.
pub type Grid = (String, Vec<String>);

/// The grids `solver show` prints for one puzzle, in order, plus the
/// board's `(width, height)`.
pub fn show_grids(show_output: &str) -> (Vec<Grid>, (usize, usize)) {
    let mut lines = show_output.lines();
    let size = lines
        .by_ref()
        .find_map(|l| {
            let (dims, _) = l.split_once(" board, ")?;
            let (w, h) = dims.split_once('x')?;
            Some((w.parse().ok()?, h.parse().ok()?))
        })
        .expect("`solver show` prints WxH board");
    let mut grids = Vec::new();
    // The grids end at the key (`key: # wall, ...`).
    while let Some(label) = lines.next().filter(|l| !l.starts_with("key: ")) {
        let label = label
            .strip_suffix(':')
            .expect("a section label")
            .to_string();
        let rows = lines.by_ref().take(size.1).map(str::to_string).collect();
        grids.push((label, rows));
    }
    (grids, size)
}

/// The block cells of a text grid: every character but walls, doors and spaces.
pub fn grid_cells(rows: &[String]) -> Cells {
    let mut cells = Cells::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if !matches!(ch, ' ' | '#' | '-') {
                cells.insert((r as i64, c as i64), ch);
            }
        }
    }
    cells
}

/// Adds the cells of one drawn shape: `data-cells` offsets from the anchor.
pub fn add_shape(cells: &mut Cells, id: char, anchor: (i64, i64), data_cells: &str) {
    for offset in data_cells.split_whitespace() {
        let (dr, dc) = offset.split_once(',').expect("data-cells holds row,col");
        let cell = (
            anchor.0 + dr.parse::<i64>().unwrap(),
            anchor.1 + dc.parse::<i64>().unwrap(),
        );
        let previous = cells.insert(cell, id);
        assert!(previous.is_none(), "two shapes drawn on cell {cell:?}");
    }
}

/// The board cell of a `translate(X Y)` / `translate(Xpx, Ypx)` transform.
pub fn cell_of_translate(transform: &str, cell: i64, margin: i64) -> (i64, i64) {
    let inner = transform
        .split_once("translate(")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(inner, _)| inner)
        .unwrap_or_else(|| panic!("no translate in {transform:?}"));
    let numbers: Vec<f64> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches("px").parse().unwrap())
        .collect();
    let (x, y) = (numbers[0] as i64, numbers[1] as i64);
    assert_eq!(
        ((x - margin) % cell, (y - margin) % cell),
        (0, 0),
        "off the grid: {transform}"
    );
    ((y - margin) / cell, (x - margin) / cell)
}

/// The value of attribute `name` in one HTML/SVG start tag's text.
pub fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// The start tags `<g class="CLASS" ...>` in markup, in document order.
pub fn group_tags<'a>(markup: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<g class=\"{class}\"");
    markup
        .match_indices(&open)
        .map(|(i, _)| {
            let end = markup[i..].find('>').expect("a closed tag");
            &markup[i..i + end]
        })
        .collect()
}

/// How many images a GIF holds, read from its block structure (header,
/// colour tables, extensions and image descriptors with their data
/// sub-blocks); `None` for bytes that are no complete GIF.
pub fn gif_frames(bytes: &[u8]) -> Option<usize> {
    let table = |flags: u8| {
        if flags & 0x80 != 0 {
            3 << ((flags & 7) + 1)
        } else {
            0
        }
    };
    // Skips data sub-blocks from `at`, returning where the terminator ends.
    let sub_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let n = *bytes.get(at)? as usize;
            at += 1 + n;
            if n == 0 {
                return Some(at);
            }
        }
    };
    if !bytes.starts_with(b"GIF8") {
        return None;
    }
    let mut at = 13 + table(*bytes.get(10)?);
    let mut frames = 0;
    loop {
        match *bytes.get(at)? {
            0x3B => return Some(frames),
            0x21 => at = sub_blocks(at + 2)?,
            0x2C => {
                frames += 1;
                at += 10 + table(*bytes.get(at + 9)?);
                at = sub_blocks(at + 1)?;
            }
            _ => return None,
        }
    }
}
