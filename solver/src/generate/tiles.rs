//! `tiles`: a tile-puzzle-like board packed with interchangeable 1x1
//! blocks, one or two spaces and one or two big blocks (each unique); the
//! goal is the 1x1 master from the upper left to the lower right corner.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::Layout;
use super::{Dims, Family};
use crate::model::Shape;

pub const FAMILY: Family = Family {
    name: "tiles",
    about: "tile-like: interchangeable 1x1 pieces, a few big blocks, master to a corner",
    width: (3, 5),
    height: (3, 5),
    spaces: (1, 2),
    min_side: (3, 3),
    draw,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    let (h, w) = (d.height, d.width);
    let mut l = Layout::framed(h, w, 0);
    let master = l.add_type('@', Shape::unit(), None, true);
    let goal = l.cell(h, w);
    l.set_goal(goal);
    l.put_random(rng, master, |r, c| 2 * r <= h + 1 && 2 * c <= w + 1);
    let bigs = rng.gen_range(1..=2);
    for id in ['A', 'B'].into_iter().take(bigs) {
        let s = match rng.gen_range(0..3) {
            0 => Shape::rectangle(2, 2),
            1 => Shape::rectangle(1, 2),
            _ => Shape::rectangle(2, 1),
        };
        let t = l.add_type(id, s, None, false);
        if !l.put_random(rng, t, |r, c| (r, c) != (h, w)) {
            l.drop_last_type();
        }
    }
    l.fill(rng, &[('o', Shape::unit(), 1)], d.spaces);
    l
}
