//! `rush`: Rush-Hour-like boards (as `puzzles/rushhour/`): vehicles of two
//! or three cells that slide only along their length, each its own type;
//! the master, a horizontal car of two, must reach the right edge of its
//! row. `--spaces` is the number of empty cells the vehicles leave (on
//! the 6x6 board, 10 to 16).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::Layout;
use super::{Check, Dims, Family};
use crate::formats::ids::fresh_sequence;
use crate::model::{Axis, Shape};

pub const FAMILY: Family = Family {
    name: "rush",
    about: "Rush-Hour-like: sliders along one axis, the master car to the right edge",
    width: (6, 6),
    height: (6, 6),
    spaces: (10, 16),
    min_side: (4, 4),
    draw,
    check: Check::Bfs,
};

/// Vehicles tried at most per board.
const TRIES: usize = 60;

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    let (h, w) = (d.height, d.width);
    let mut l = Layout::framed(h, w, 0);
    let row = h / 2;
    let master = l.add_type('@', Shape::rectangle(1, 2), Some(Axis::Horizontal), true);
    let goal = l.cell(row, w - 1);
    l.set_goal(goal);
    l.put_random(rng, master, |r, c| r == row && c + 3 <= w);
    let mut ids = fresh_sequence();
    for _ in 0..TRIES {
        if l.spaces() <= d.spaces {
            break;
        }
        let len = if rng.gen_bool(0.75) { 2 } else { 3 };
        let (axis, s) = match rng.gen_bool(0.5) {
            true => (Axis::Horizontal, Shape::rectangle(1, len)),
            false => (Axis::Vertical, Shape::rectangle(len, 1)),
        };
        let Some(id) = ids.next() else { break };
        let t = l.add_type(id, s, Some(axis), false);
        // A horizontal vehicle in the master's row would bar its way for good.
        let horizontal = axis == Axis::Horizontal;
        if !l.put_random(rng, t, |r, _| !(horizontal && r == row)) {
            l.drop_last_type();
        }
    }
    l
}
