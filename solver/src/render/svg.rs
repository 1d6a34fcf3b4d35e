//! The SVG picture of a puzzle at one position: free cells, walls, doors,
//! goal areas (tinted and outlined in the colour of the block that must reach
//! them) and the blocks. Each block is one `<g class="block">` drawn in its
//! own coordinates and placed by a `translate`, so the HTML player moves a
//! block by changing one transform, and tests can count and locate blocks
//! from the markup (`data-type`, `data-instance`, `data-cells`).

use std::fmt::Write;

use super::palette;
use crate::model::{CellKind, Puzzle};

/// Side of a cell, in SVG user units (pixels when rasterised at scale 1).
pub const CELL: usize = 40;
/// Space around the board.
pub const MARGIN: usize = 8;
/// How far a block's body stays inside its cells, so neighbours stay apart.
const INSET: f64 = 3.0;

/// Colours and size of a puzzle's picture.
pub struct Style {
    /// Colour per block type (see [`palette::type_colours`]).
    pub colours: Vec<String>,
    pub width: usize,
    pub height: usize,
}

impl Style {
    /// The style of one puzzle.
    pub fn of(puzzle: &Puzzle) -> Style {
        Style {
            colours: palette::type_colours(puzzle.types.iter().map(|t| t.is_master)),
            width: puzzle.board.width() * CELL + 2 * MARGIN,
            height: puzzle.board.height() * CELL + 2 * MARGIN,
        }
    }
}

/// Top-left corner, in SVG units, of the cell with this index.
pub fn cell_origin(puzzle: &Puzzle, cell: usize) -> (usize, usize) {
    let (r, c) = puzzle.board.coordinates(cell);
    (MARGIN + c * CELL, MARGIN + r * CELL)
}

/// The whole picture: `anchors[i]` is the anchor cell of block instance `i`.
pub fn document(puzzle: &Puzzle, style: &Style, anchors: &[usize]) -> String {
    let (w, h) = (style.width, style.height);
    let mut s = String::with_capacity(4096);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"puzzle\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" data-rows=\"{}\" data-cols=\"{}\" data-cell=\"{CELL}\" data-margin=\"{MARGIN}\">",
        puzzle.board.height(),
        puzzle.board.width()
    );
    if let Some(name) = &puzzle.name {
        let _ = writeln!(s, "<title>{}</title>", escape(name));
    }
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
    board(&mut s, puzzle);
    goals(&mut s, puzzle, style, false);
    blocks(&mut s, puzzle, style, anchors);
    goals(&mut s, puzzle, style, true);
    s.push_str("</svg>\n");
    s
}

/// Free cells, doors and walls.
fn board(s: &mut String, puzzle: &Puzzle) {
    s.push_str("<g class=\"board\" stroke=\"#d9d2c3\" stroke-width=\"1\">\n");
    for cell in 0..puzzle.board.len() {
        let (x, y) = cell_origin(puzzle, cell);
        let (class, fill) = match puzzle.board.kind(cell) {
            CellKind::Free => ("cell", "#f6f1e7"),
            CellKind::Door => ("door", "#f2c76e"),
            CellKind::Wall => ("wall", "#3d3a36"),
        };
        let _ = writeln!(
            s,
            "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
        );
    }
    s.push_str("</g>\n");
}

/// Goal areas, one group per required block: the final goal strongly,
/// earlier subgoals faintly. The tint lies under the blocks and the dashed
/// outline over them, so a goal stays visible when a block covers it.
fn goals(s: &mut String, puzzle: &Puzzle, style: &Style, outlines: bool) {
    s.push_str(if outlines {
        "<g class=\"goal-outlines\" fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"6 4\">\n"
    } else {
        "<g class=\"goals\" stroke=\"none\">\n"
    });
    let last = puzzle.goals.len().saturating_sub(1);
    for (section, goal) in puzzle.goals.iter().enumerate() {
        let (class, opacity) = if section == last {
            ("goal", 0.3)
        } else {
            ("subgoal", 0.12)
        };
        for req in &goal.requirements {
            let t = &puzzle.types[req.block_type];
            let colour = &style.colours[req.block_type];
            for &anchor in &req.anchors {
                let (x, y) = cell_origin(puzzle, anchor as usize);
                let place = format!("transform=\"translate({x} {y})\"");
                if outlines {
                    let _ = writeln!(
                        s,
                        "<g {place} stroke=\"{colour}\" stroke-opacity=\"{}\">",
                        opacity * 3.0
                    );
                    outline(s, t.shape.offsets());
                } else {
                    let (r, c) = puzzle.board.coordinates(anchor as usize);
                    let _ = writeln!(
                        s,
                        "<g class=\"{class}\" data-section=\"{}\" data-type=\"{}\" data-row=\"{r}\" \
                         data-col=\"{c}\" data-cells=\"{}\" {place} fill=\"{colour}\" fill-opacity=\"{opacity}\">",
                        section + 1,
                        escape(&t.id.to_string()),
                        cells_attribute(t.shape.offsets())
                    );
                    body(s, t.shape.offsets(), 0.0);
                }
                s.push_str("</g>\n");
            }
        }
    }
    s.push_str("</g>\n");
}

/// One group per block instance, placed at its anchor.
fn blocks(s: &mut String, puzzle: &Puzzle, style: &Style, anchors: &[usize]) {
    s.push_str("<g class=\"blocks\">\n");
    for (i, &anchor) in anchors.iter().enumerate() {
        let t = puzzle.instance_type(i);
        let kind = &puzzle.types[t];
        let id = escape(&kind.id.to_string());
        let (x, y) = cell_origin(puzzle, anchor);
        let _ = writeln!(
            s,
            "<g class=\"block\" data-type=\"{id}\" data-instance=\"{i}\" data-cells=\"{}\" \
             transform=\"translate({x} {y})\" fill=\"{}\">\n<title>block '{id}'</title>",
            cells_attribute(kind.shape.offsets()),
            style.colours[t]
        );
        body(s, kind.shape.offsets(), INSET);
        let half = CELL / 2;
        let _ = writeln!(
            s,
            "<text x=\"{half}\" y=\"{half}\" fill=\"#ffffff\" font-family=\"sans-serif\" font-size=\"16\" \
             font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\">{id}</text>"
        );
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n");
}

/// The cells of a shape (offsets from its anchor) as squares inset by
/// `inset`, with the gaps between neighbouring cells filled so that a
/// polyomino reads as one piece. One path (its squares all wound the same
/// way) so that renderers leave no seams where the squares meet.
fn body(s: &mut String, offsets: &[(i32, i32)], inset: f64) {
    let has = |r: i32, c: i32| offsets.contains(&(r, c));
    let size = CELL as f64;
    let inner = size - 2.0 * inset;
    let bridge = 2.0 * inset;
    let mut d = String::new();
    let mut square = |x: f64, y: f64, w: f64, h: f64| {
        let _ = write!(d, "M{x} {y}h{w}v{h}h{}z", -w);
    };
    for &(r, c) in offsets {
        let (x, y) = (c as f64 * size, r as f64 * size);
        square(x + inset, y + inset, inner, inner);
        if inset == 0.0 {
            continue;
        }
        if has(r, c + 1) {
            square(x + size - inset, y + inset, bridge, inner);
        }
        if has(r + 1, c) {
            square(x + inset, y + size - inset, inner, bridge);
        }
        if has(r, c + 1) && has(r + 1, c) && has(r + 1, c + 1) {
            square(x + size - inset, y + size - inset, bridge, bridge);
        }
    }
    let _ = writeln!(s, "<path d=\"{d}\"/>");
}

/// The boundary of a shape: every cell edge with no cell of the shape beyond it.
fn outline(s: &mut String, offsets: &[(i32, i32)]) {
    let has = |r: i32, c: i32| offsets.contains(&(r, c));
    let size = CELL as i32;
    let mut d = String::new();
    for &(r, c) in offsets {
        let (x, y) = (c * size, r * size);
        if !has(r - 1, c) {
            let _ = write!(d, "M{x} {y}h{size}");
        }
        if !has(r + 1, c) {
            let _ = write!(d, "M{x} {}h{size}", y + size);
        }
        if !has(r, c - 1) {
            let _ = write!(d, "M{x} {y}v{size}");
        }
        if !has(r, c + 1) {
            let _ = write!(d, "M{} {y}v{size}", x + size);
        }
    }
    let _ = writeln!(s, "<path d=\"{d}\" fill=\"none\"/>");
}

/// A shape's cells for `data-cells`: `row,col` offsets from the anchor, space-separated.
fn cells_attribute(offsets: &[(i32, i32)]) -> String {
    let cells: Vec<String> = offsets.iter().map(|(r, c)| format!("{r},{c}")).collect();
    cells.join(" ")
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(ch),
        }
    }
    out
}
