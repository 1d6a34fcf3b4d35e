//! The SVG picture of a puzzle at one position: free cells, walls, doors,
//! goal areas (tinted and outlined in the colour of the block that must reach
//! them), exits (see [`exits`]) and the blocks, a slider's with a
//! double-headed arrow along its axis. Each block is one `<g class="block">`
//! drawn in its own coordinates and placed by a `translate`, so the HTML
//! player moves a block by changing one transform, and tests can count and
//! locate blocks from the markup (`data-type`, `data-instance`,
//! `data-cells`).

use std::fmt::Write;

use super::palette;
use crate::model::{Axis, CellKind, Puzzle};

/// Side of a cell, in SVG user units (pixels when rasterised at scale 1).
pub const CELL: usize = 40;
/// Space around the board.
pub const MARGIN: usize = 8;
/// How far a block's body stays inside its cells, so neighbours stay apart.
const INSET: f64 = 3.0;
/// The labels' font family: the font that [`super::raster`] carries, so that
/// PNG and GIF show the labels without system fonts; browsers without it take
/// their own sans-serif.
pub const FONT_FAMILY: &str = "DejaVu Sans";
/// Free cells' colour, also the opening of an exit in the wall.
const FREE: &str = "#f6f1e7";

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
    let exits = exits(puzzle);
    exit_marks(&mut s, puzzle, style, &exits);
    goals(&mut s, puzzle, style, &exits, false);
    blocks(&mut s, puzzle, style, anchors);
    goals(&mut s, puzzle, style, &exits, true);
    s.push_str("</svg>\n");
    s
}

/// Free cells, doors and walls.
fn board(s: &mut String, puzzle: &Puzzle) {
    s.push_str("<g class=\"board\" stroke=\"#d9d2c3\" stroke-width=\"1\">\n");
    for cell in 0..puzzle.board.len() {
        let (x, y) = cell_origin(puzzle, cell);
        let (class, fill) = match puzzle.board.kind(cell) {
            CellKind::Free => ("cell", FREE),
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

/// An exit: a wall cell on the board's edge beside the final goal of a
/// slider master, along its axis (the master drives out there, as Rush
/// Hour's red car does). `anchor` is the goal placement it belongs to,
/// `(dr, dc)` the way out.
struct Exit {
    anchor: usize,
    wall: usize,
    out: (i32, i32),
}

/// The exits of a puzzle: none unless the master is a slider whose final
/// goal puts it against the board's outer wall along its axis.
fn exits(puzzle: &Puzzle) -> Vec<Exit> {
    let mut found = Vec::new();
    let Some(goal) = puzzle.goals.last() else {
        return found;
    };
    let board = &puzzle.board;
    for req in &goal.requirements {
        let t = &puzzle.types[req.block_type];
        let ways: [(i32, i32); 2] = match (t.is_master, t.slider) {
            (true, Some(Axis::Horizontal)) => [(0, 1), (0, -1)],
            (true, Some(Axis::Vertical)) => [(1, 0), (-1, 0)],
            _ => continue,
        };
        for &anchor in &req.anchors {
            let anchor = anchor as usize;
            let Some(cells) = puzzle.cells_at(req.block_type, anchor) else {
                continue;
            };
            for &cell in &cells {
                for (dr, dc) in ways {
                    let Some(wall) = board.offset(cell, dr, dc) else {
                        continue;
                    };
                    if board.kind(wall) == CellKind::Wall && board.offset(wall, dr, dc).is_none() {
                        found.push(Exit {
                            anchor,
                            wall,
                            out: (dr, dc),
                        });
                    }
                }
            }
        }
    }
    found
}

/// Each exit as an opening through its wall cell (in the free cells'
/// colour) with an arrow pointing out, in the colour of the master.
fn exit_marks(s: &mut String, puzzle: &Puzzle, style: &Style, exits: &[Exit]) {
    if exits.is_empty() {
        return;
    }
    let master = puzzle.types.iter().position(|t| t.is_master);
    let colour = master.map_or(palette::MASTER, |t| style.colours[t].as_str());
    s.push_str("<g class=\"exits\">\n");
    for exit in exits {
        let (x, y) = cell_origin(puzzle, exit.wall);
        let (r, c) = puzzle.board.coordinates(exit.wall);
        let angle = match exit.out {
            (0, 1) => 0,
            (1, 0) => 90,
            (0, -1) => 180,
            _ => 270,
        };
        let half = CELL / 2;
        let _ = writeln!(
            s,
            "<g class=\"exit\" data-row=\"{r}\" data-col=\"{c}\" \
             transform=\"translate({x} {y}) rotate({angle} {half} {half})\">\n\
             <rect y=\"{INSET}\" width=\"{CELL}\" height=\"{}\" fill=\"{FREE}\"/>\n\
             <path d=\"M13 11L27 20L13 29z\" fill=\"{colour}\"/>\n</g>",
            CELL as f64 - 2.0 * INSET
        );
    }
    s.push_str("</g>\n");
}

/// Goal areas, one group per required block: the final goal strongly,
/// earlier subgoals faintly. The tint lies under the blocks and the dashed
/// outline over them, so a goal stays visible when a block covers it. A
/// goal at an exit (see [`exits`]) is not tinted and its outline lies under
/// the blocks: the exit's arrow shows it, and other vehicles that stand on
/// the way out are not crossed out.
fn goals(s: &mut String, puzzle: &Puzzle, style: &Style, exits: &[Exit], outlines: bool) {
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
                let at_exit = section == last && exits.iter().any(|e| e.anchor == anchor as usize);
                if outlines && at_exit {
                    continue;
                }
                if outlines {
                    let _ = writeln!(
                        s,
                        "<g {place} stroke=\"{colour}\" stroke-opacity=\"{}\">",
                        outline_opacity(opacity)
                    );
                    outline(s, t.shape.offsets());
                } else {
                    let (r, c) = puzzle.board.coordinates(anchor as usize);
                    let paint = if at_exit {
                        format!(
                            "fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"{}\" stroke-width=\"2\" \
                             stroke-dasharray=\"6 4\"",
                            outline_opacity(opacity)
                        )
                    } else {
                        format!("fill=\"{colour}\" fill-opacity=\"{opacity}\"")
                    };
                    let _ = writeln!(
                        s,
                        "<g class=\"{class}\" data-section=\"{}\" data-type=\"{}\" data-row=\"{r}\" \
                         data-col=\"{c}\" data-cells=\"{}\" {place} {paint}>",
                        section + 1,
                        escape(&t.id.to_string()),
                        cells_attribute(t.shape.offsets())
                    );
                    if at_exit {
                        outline(s, t.shape.offsets());
                    } else {
                        body(s, t.shape.offsets(), 0.0);
                    }
                }
                s.push_str("</g>\n");
            }
        }
    }
    s.push_str("</g>\n");
}

/// The opacity of a goal's outline, three times its tint's, written short
/// (`0.9`, not `0.8999999999999999`).
fn outline_opacity(tint: f64) -> f64 {
    (tint * 3000.0).round() / 1000.0
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
        if let Some(axis) = kind.slider {
            slider_mark(
                s,
                kind.shape.offsets(),
                axis,
                palette::ink(&style.colours[t]),
            );
        }
        let half = CELL / 2;
        let _ = writeln!(
            s,
            "<text x=\"{half}\" y=\"{half}\" fill=\"#ffffff\" font-family=\"{FONT_FAMILY}, sans-serif\" font-size=\"16\" \
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

/// Offset of a slider's mark from the edge of its cells (across the axis it
/// lies near the bottom or right edge, clear of the label in the middle of
/// the first cell), and along the axis from the ends of its run of cells.
const SLIDER_MARK: usize = 8;

/// A slider's mark: a thin double-headed arrow along its axis, over the run
/// of cells from the anchor in that direction (so it stays on the block
/// whatever its shape), in `ink`.
fn slider_mark(s: &mut String, offsets: &[(i32, i32)], axis: Axis, ink: &str) {
    let step = match axis {
        Axis::Horizontal => (0, 1),
        Axis::Vertical => (1, 0),
    };
    let run = (0..)
        .take_while(|&k| offsets.contains(&(step.0 * k, step.1 * k)))
        .count();
    let across = CELL - SLIDER_MARK;
    let (from, to) = (SLIDER_MARK, run * CELL - SLIDER_MARK);
    let (name, d) = match axis {
        Axis::Horizontal => (
            "horizontal",
            format!("M{from} {across}H{to}M{from} {across}l5 -3v6zM{to} {across}l-5 -3v6z"),
        ),
        Axis::Vertical => (
            "vertical",
            format!("M{across} {from}V{to}M{across} {from}l-3 5h6zM{across} {to}l-3 -5h6z"),
        ),
    };
    let _ = writeln!(
        s,
        "<path class=\"slider\" data-axis=\"{name}\" d=\"{d}\" fill=\"{ink}\" stroke=\"{ink}\" \
         stroke-width=\"1.5\" stroke-linejoin=\"round\"/>"
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    fn picture(path: &str) -> String {
        let file = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&file).unwrap();
        let puzzle = native::parse(&text, &file).unwrap();
        let anchors: Vec<usize> = puzzle.start.anchors.iter().map(|&a| a as usize).collect();
        document(&puzzle, &Style::of(&puzzle), &anchors)
    }

    #[test]
    fn the_rush_hour_exit_is_an_opening_in_the_wall_and_the_goal_an_outline() {
        let svg = picture("puzzles/rushhour/rush_40.txt");
        // The master reaches row 3, columns 5-6; the frame beside it opens.
        assert_eq!(svg.matches("<g class=\"exit\"").count(), 1, "{svg}");
        assert!(svg.contains("<g class=\"exit\" data-row=\"3\" data-col=\"7\""));
        let goal = svg
            .lines()
            .find(|l| l.starts_with("<g class=\"goal\""))
            .unwrap();
        assert!(goal.contains("fill=\"none\"") && goal.contains("stroke-dasharray"));
        // Its outline lies under the vehicles, none over them.
        let over = &svg[svg.find("<g class=\"goal-outlines\"").unwrap()..];
        assert!(!over.contains("<path"), "{over}");
        // Every vehicle is a slider: one mark each, along its length.
        let blocks = svg.matches("<g class=\"block\"").count();
        assert_eq!(svg.matches("<path class=\"slider\"").count(), blocks);
        assert!(svg.contains("data-axis=\"vertical\"") && svg.contains("data-axis=\"horizontal\""));
    }

    #[test]
    fn klotski_keeps_its_tinted_goal_and_has_no_exit_or_slider_marks() {
        let svg = picture("puzzles/klotski/classic.txt");
        assert!(!svg.contains("class=\"exit"));
        assert!(!svg.contains("class=\"slider\""));
        let goal = svg
            .lines()
            .find(|l| l.starts_with("<g class=\"goal\""))
            .unwrap();
        assert!(goal.contains("fill-opacity=\"0.3\""), "{goal}");
        assert!(svg.contains("stroke-opacity=\"0.9\""));
        let sliders = picture("puzzles/special/fig7_3b_sliders.txt");
        assert_eq!(sliders.matches("data-axis=\"vertical\"").count(), 2);
        assert!(!sliders.contains("class=\"exit"), "the master is no slider");
    }

    #[test]
    fn labels_name_the_carried_font_first() {
        let svg = picture("puzzles/tiles/korf_01.txt");
        let want = format!("font-family=\"{FONT_FAMILY}, sans-serif\"");
        assert_eq!(svg.matches(&want).count(), 15);
    }
}
