//! `klotski`: Klotski-like boards of 4x5 to 6x8 cells inside a wall frame,
//! filled with 1x1, 1x2, 2x1 and 2x2 blocks (same shapes interchangeable,
//! as in `puzzles/klotski/classic.txt`), 2 to 4 spaces; the 2x2 master
//! starts in the upper half and must reach the bottom edge.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::{shape, Layout};
use super::{Check, Dims, Family};
use crate::model::Shape;

pub const FAMILY: Family = Family {
    name: "klotski",
    about: "Klotski-like: 1x1/1x2/2x1/2x2 blocks, 2x2 master to the bottom edge",
    width: (4, 6),
    height: (5, 8),
    spaces: (2, 4),
    min_side: (3, 4),
    draw,
    check: Check::Bfs,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    draw_box(rng, d, 0)
}

/// The blocks of a Klotski fill: mostly dominoes, some units, a few squares.
pub fn kit() -> Vec<(char, Shape, u32)> {
    vec![
        ('v', shape(&[(0, 0), (1, 0)]), 4),
        ('h', shape(&[(0, 0), (0, 1)]), 3),
        ('o', Shape::unit(), 3),
        ('b', Shape::rectangle(2, 2), 1),
    ]
}

/// A Klotski box with `walls` wall cells inside (the `walls` family): the
/// goal on the bottom edge, walls off the goal's cells, the master in the
/// upper half, the rest filled from [`kit`].
pub fn draw_box(rng: &mut ChaCha8Rng, d: &Dims, walls: usize) -> Layout {
    let mut l = Layout::framed(d.height, d.width, 0);
    let master = l.add_type('@', Shape::rectangle(2, 2), None, true);
    let goal_col = rng.gen_range(1..d.width);
    let goal = l.cell(d.height - 1, goal_col);
    l.set_goal(goal);
    let (h, gc) = (d.height, goal_col);
    l.add_walls(rng, walls, |r, c| r + 1 < h || !(gc..=gc + 1).contains(&c));
    let top = (d.height / 2).max(1);
    if !l.put_random(rng, master, |r, _| r <= top) {
        l.put_random(rng, master, |r, c| (r, c) != (h - 1, gc));
    }
    l.fill(rng, &kit(), d.spaces);
    l
}
