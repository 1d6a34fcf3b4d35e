//! `mixed`: random polyominoes (dominoes, L-, I- and T-trominoes and
//! tetrominoes, S and Z, squares) among interchangeable unit blocks; the
//! master, a square or an L, goes from the upper left to the lower right.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::{shape, Layout};
use super::{Check, Dims, Family};
use crate::model::Shape;

pub const FAMILY: Family = Family {
    name: "mixed",
    about: "random polyominoes incl. L/T/S shapes among interchangeable units",
    width: (4, 6),
    height: (4, 6),
    spaces: (2, 4),
    min_side: (3, 3),
    draw,
    check: Check::Bfs,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    let (h, w) = (d.height, d.width);
    let mut l = Layout::framed(h, w, 0);
    let s = match rng.gen_bool(0.5) {
        true => Shape::rectangle(2, 2),
        false => shape(&[(0, 0), (1, 0), (1, 1)]),
    };
    let master = l.add_type('@', s, None, true);
    let goals = l.anchors(master, |r, c| 2 * r > h && 2 * c > w);
    let Some(&goal) = goals.get(rng.gen_range(0..goals.len().max(1))) else {
        return l;
    };
    l.set_goal(goal);
    if !l.put_random(rng, master, |r, c| 2 * r <= h + 1 && 2 * c <= w + 1) {
        l.put_random(rng, master, |r, c| l_cell(w, r, c) != goal);
    }
    l.fill(rng, &kit(), d.spaces);
    l
}

/// The cell index of `(r, c)` on a framed board of inner width `w`.
fn l_cell(w: usize, r: usize, c: usize) -> usize {
    r * (w + 2) + c
}

/// Units most, then dominoes, then every tromino and tetromino shape.
fn kit() -> Vec<(char, Shape, u32)> {
    vec![
        ('o', Shape::unit(), 6),
        ('v', shape(&[(0, 0), (1, 0)]), 3),
        ('h', shape(&[(0, 0), (0, 1)]), 3),
        ('L', shape(&[(0, 0), (1, 0), (1, 1)]), 1),
        ('J', shape(&[(0, 1), (1, 0), (1, 1)]), 1),
        ('r', shape(&[(0, 0), (0, 1), (1, 0)]), 1),
        ('7', shape(&[(0, 0), (0, 1), (1, 1)]), 1),
        ('I', shape(&[(0, 0), (1, 0), (2, 0)]), 1),
        ('E', shape(&[(0, 0), (0, 1), (0, 2)]), 1),
        ('T', shape(&[(0, 0), (0, 1), (0, 2), (1, 1)]), 1),
        ('S', shape(&[(0, 1), (0, 2), (1, 0), (1, 1)]), 1),
        ('Z', shape(&[(0, 0), (0, 1), (1, 1), (1, 2)]), 1),
        ('b', Shape::rectangle(2, 2), 1),
    ]
}
