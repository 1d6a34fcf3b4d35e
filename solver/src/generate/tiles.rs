//! `tiles`: tile puzzles (as `puzzles/tiles/`, the 8- and 15-puzzle) with a
//! few big blocks among the tiles: every block unique, one or two spaces,
//! and a goal that fixes every block, drawn as a second random arrangement
//! of the same blocks. Such spaces are too large for a breadth-first check,
//! so draws are checked by A* with the Manhattan distance (optimal);
//! arrangements of the wrong parity, which no search of the bound settles,
//! are discarded as unverified.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::Layout;
use super::{Check, Dims, Family};
use crate::formats::ids::fresh_sequence;
use crate::model::Shape;

pub const FAMILY: Family = Family {
    name: "tiles",
    about: "tile puzzles with a few big blocks: every block unique, the goal fixes them all",
    width: (3, 4),
    height: (3, 4),
    spaces: (1, 2),
    min_side: (3, 3),
    draw,
    check: Check::Manhattan,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    let (h, w) = (d.height, d.width);
    let mut start = Layout::framed(h, w, 0);
    let mut goal = Layout::framed(h, w, 0);
    let mut ids = fresh_sequence();
    let bigs = rng.gen_range(1..=2);
    let mut shapes = Vec::new();
    for _ in 0..bigs {
        shapes.push(match rng.gen_range(0..3) {
            0 => Shape::rectangle(2, 2),
            1 => Shape::rectangle(1, 2),
            _ => Shape::rectangle(2, 1),
        });
    }
    // The big blocks first (where they still fit in both arrangements),
    // then one unique tile per cell until `spaces` cells are left.
    for s in shapes {
        place(rng, &mut start, &mut goal, ids.next(), s);
    }
    // (A board larger than the identifiers keeps more spaces.)
    while start.spaces() > d.spaces {
        if !place(rng, &mut start, &mut goal, ids.next(), Shape::unit()) {
            break;
        }
    }
    for t in 0..start.types() {
        if let Some(&a) = goal.anchors_of(t).first() {
            start.want(t, a);
        }
    }
    start
}

/// Declares a unique block of `shape` in both arrangements and puts it at
/// a random anchor in each; a shape that no longer fits in both is left out
/// (false, as when no identifier is left).
fn place(
    rng: &mut ChaCha8Rng,
    start: &mut Layout,
    goal: &mut Layout,
    id: Option<char>,
    shape: Shape,
) -> bool {
    let Some(id) = id else { return false };
    let t = start.add_type(id, shape.clone(), None, false);
    goal.add_type(id, shape, None, false);
    if start.anchors(t, |_, _| true).is_empty() || goal.anchors(t, |_, _| true).is_empty() {
        start.drop_last_type();
        goal.drop_last_type();
        return false;
    }
    start.put_random(rng, t, |_, _| true);
    goal.put_random(rng, t, |_, _| true);
    true
}
