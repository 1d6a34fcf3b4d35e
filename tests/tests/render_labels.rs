//! End-to-end tests of what `solver render PUZZLE -o X.png` draws inside the
//! blocks and on the walls, read back from the PNG's pixels: the labels (the
//! font the solver carries, so on every machine), the mark of a slider along
//! its axis, and Rush Hour's exit. Each check compares the pixels where the
//! drawing must be with a place in the same picture where it must not be,
//! so it fails if the drawing disappears; nothing is compared with a stored
//! image. The pictures are kept in `target/test-artifacts/render-labels-*.png`.

use std::collections::BTreeMap;

use end_to_end::picture::{attribute, cell_of_translate, group_tags};
use end_to_end::{artifacts_dir, assert_success, run_solver};

const CELL: i64 = 40;
const MARGIN: i64 = 8;

/// A decoded picture: RGBA rows.
struct Picture {
    width: usize,
    rgba: Vec<u8>,
}

impl Picture {
    fn at(&self, x: i64, y: i64) -> [u8; 3] {
        let i = (y as usize * self.width + x as usize) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }

    /// How many pixels of the rectangle `[x0, x1) x [y0, y1)` satisfy `test`.
    fn count(
        &self,
        (x0, y0, x1, y1): (i64, i64, i64, i64),
        test: impl Fn([u8; 3]) -> bool,
    ) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| test(self.at(x, y)))
            .count()
    }
}

/// The labels' colour (white), with room for the edges of anti-aliasing:
/// no block, cell or wall colour of the pictures comes this close to white
/// (the lightest, the free cells' #f6f1e7, has blue 231).
fn is_label(p: [u8; 3]) -> bool {
    p.iter().all(|&v| v >= 245)
}

/// Clearly another colour than `fill` (more than anti-aliasing noise).
fn differs(fill: [u8; 3]) -> impl Fn([u8; 3]) -> bool {
    move |p| {
        p.iter()
            .zip(fill)
            .map(|(&a, b)| (a as i32 - b as i32).abs())
            .sum::<i32>()
            > 90
    }
}

/// A block's identifier and the board cell `(row, col)` of its anchor.
type Placed = (char, (i64, i64));

/// Renders `puzzle` as SVG and PNG; the PNG decoded, and each block's
/// identifier with the board cell `(row, col)` of its anchor from the SVG.
fn render(puzzle: &str, name: &str) -> (Picture, Vec<Placed>) {
    let dir = artifacts_dir();
    let svg_path = dir.join(format!("render-labels-{name}.svg"));
    let png_path = dir.join(format!("render-labels-{name}.png"));
    for path in [&svg_path, &png_path] {
        let out = run_solver(&["render", puzzle, "-o", path.to_str().unwrap()]);
        assert_success(
            &out,
            &format!("solver render {puzzle} -o {}", path.display()),
        );
    }
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let blocks = group_tags(&svg, "block")
        .into_iter()
        .map(|tag| {
            let id = attribute(tag, "data-type").unwrap().chars().next().unwrap();
            let anchor = cell_of_translate(attribute(tag, "transform").unwrap(), CELL, MARGIN);
            (id, anchor)
        })
        .collect();
    let bytes = std::fs::read(&png_path).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgba, png::BitDepth::Eight),
        "{puzzle}: resvg writes 8-bit RGBA"
    );
    buf.truncate(info.buffer_size());
    let picture = Picture {
        width: info.width as usize,
        rgba: buf,
    };
    (picture, blocks)
}

/// Top-left pixel of a board cell.
fn origin((r, c): (i64, i64)) -> (i64, i64) {
    (MARGIN + c * CELL, MARGIN + r * CELL)
}

/// The middle of a cell, where its label is drawn: 20 x 22 pixels (above
/// a horizontal slider's mark).
fn middle(cell: (i64, i64)) -> (i64, i64, i64, i64) {
    let (x, y) = origin(cell);
    (x + 10, y + 8, x + 30, y + 30)
}

/// The colour of a block's body, at a corner of its anchor cell that
/// nothing is drawn over.
fn fill(picture: &Picture, anchor: (i64, i64)) -> [u8; 3] {
    let (x, y) = origin(anchor);
    picture.at(x + 5, y + 5)
}

#[test]
fn every_tile_of_the_15_puzzle_shows_its_number_in_the_png() {
    let (picture, blocks) = render("puzzles/tiles/korf_01.txt", "korf_01");
    assert_eq!(blocks.len(), 15, "the 15-puzzle has 15 tiles");
    let mut shapes = BTreeMap::new();
    for &(id, cell) in &blocks {
        // The tile's own colour is no label colour, so a tile drawn without
        // its label would count 0 here.
        assert!(!is_label(fill(&picture, cell)), "tile {id}: white fill");
        let n = picture.count(middle(cell), is_label);
        assert!(
            n >= 15,
            "tile {id} at {cell:?}: {n} label pixels in its middle"
        );
        // Where in the middle the label pixels lie, relative to the cell.
        let (x0, y0, x1, y1) = middle(cell);
        let shape: Vec<(i64, i64)> = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| is_label(picture.at(x, y)))
            .map(|(x, y)| (x - x0, y - y0))
            .collect();
        shapes.insert(id, shape);
    }
    // The blank (row 3, column 2 of korf_01's start) has no label.
    assert!(!blocks.iter().any(|&(_, cell)| cell == (3, 2)));
    assert_eq!(picture.count(middle((3, 2)), is_label), 0, "the blank");
    // They are glyphs, not one blob: fifteen numbers, fifteen shapes.
    let distinct: std::collections::BTreeSet<_> = shapes.values().collect();
    assert_eq!(distinct.len(), 15, "tiles whose labels look alike");
}

#[test]
fn block_letters_show_in_the_png_of_klotski() {
    let (picture, blocks) = render("puzzles/klotski/classic.txt", "classic");
    assert_eq!(blocks.len(), 10);
    for &(id, cell) in &blocks {
        assert!(!is_label(fill(&picture, cell)), "block {id}: white fill");
        let n = picture.count(middle(cell), is_label);
        assert!(n >= 15, "block {id} at {cell:?}: {n} label pixels");
    }
}

/// Pixels of the mark of a slider anchored at `anchor`, along `run` cells:
/// a strip 3 pixels wide near the bottom (horizontal) or right (vertical)
/// edge, away from the arrow heads' tips and from the label.
fn mark_strip(anchor: (i64, i64), vertical: bool, run: i64) -> (i64, i64, i64, i64) {
    let (x, y) = origin(anchor);
    if vertical {
        (x + 31, y + 14, x + 34, y + run * CELL - 14)
    } else {
        (x + 14, y + 31, x + run * CELL - 14, y + 34)
    }
}

#[test]
fn a_slider_carries_a_mark_along_its_axis_and_other_blocks_do_not() {
    // Thesis fig. 7.3 b): the two `v` (1x2 upright) are vertical sliders,
    // the two `b` of the same shape move freely.
    let (picture, blocks) = render("puzzles/special/fig7_3b_sliders.txt", "sliders");
    let of = |want: char| -> Vec<(i64, i64)> {
        blocks
            .iter()
            .filter(|&&(id, _)| id == want)
            .map(|&(_, cell)| cell)
            .collect()
    };
    let (sliders, free) = (of('v'), of('b'));
    assert_eq!((sliders.len(), free.len()), (2, 2), "{blocks:?}");
    let strip_len = (CELL * 2 - 28) as usize;
    for anchor in sliders {
        let marked = picture.count(mark_strip(anchor, true, 2), differs(fill(&picture, anchor)));
        assert!(
            marked >= strip_len,
            "slider v at {anchor:?}: {marked} mark pixels"
        );
        // Across the axis (horizontally) the block has no such line.
        let across = picture.count(
            mark_strip(anchor, false, 1),
            differs(fill(&picture, anchor)),
        );
        assert!(across < strip_len / 2, "slider v at {anchor:?}: {across}");
    }
    for anchor in free {
        // Only the goal's dashed outline, drawn over the blocks, crosses
        // the strip of a free block (a few pixels).
        let marked = picture.count(mark_strip(anchor, true, 2), differs(fill(&picture, anchor)));
        assert!(
            marked < strip_len / 4,
            "free block b at {anchor:?}: {marked}"
        );
    }
}

#[test]
fn rush_hour_cars_show_their_axis_and_the_exit_opens_the_wall() {
    let (picture, blocks) = render("puzzles/rushhour/rush_40.txt", "rush_40");
    let anchor = |want: char| blocks.iter().find(|&&(id, _)| id == want).unwrap().1;
    // `@` (the red car) and `B` run across, `G` (three cells) up and down.
    for (id, vertical, run) in [('@', false, 2), ('B', false, 2), ('G', true, 3)] {
        let at = anchor(id);
        let strip_len = (CELL * run - 28) as usize;
        let marked = picture.count(mark_strip(at, vertical, run), differs(fill(&picture, at)));
        assert!(
            marked >= strip_len,
            "car {id} at {at:?}: {marked} mark pixels"
        );
        let n = picture.count(middle(at), is_label);
        assert!(n >= 15, "car {id} at {at:?}: {n} label pixels");
    }
    // The exit: the wall right of the goal (row 3, column 7) opens in the
    // free cells' colour around an arrow in the red car's colour, where the
    // wall below it (row 5, column 7) is wall through and through.
    let red = fill(&picture, anchor('@'));
    let wall = {
        let (x, y) = origin((5, 7));
        picture.at(x + 20, y + 20)
    };
    let (x, y) = origin((3, 7));
    let free = picture.at(x + 5, y + 20);
    assert!(
        differs(wall)(free),
        "the exit's opening: {free:?} vs wall {wall:?}"
    );
    assert!(
        !differs(red)(picture.at(x + 18, y + 20)),
        "the exit's arrow"
    );
    let exit = picture.count((x + 2, y + 8, x + 38, y + 32), differs(wall));
    let solid = {
        let (x, y) = origin((5, 7));
        picture.count((x + 2, y + 8, x + 38, y + 32), differs(wall))
    };
    assert!(
        exit > 36 * 24 * 3 / 4 && solid == 0,
        "exit {exit}, wall {solid}"
    );
}
