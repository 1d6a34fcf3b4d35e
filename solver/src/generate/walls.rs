//! `walls`: Klotski-like boxes (the `klotski` family's blocks and goal) with
//! wall cells inside the board, which the blocks must work around.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::Layout;
use super::{klotski, Check, Dims, Family};

pub const FAMILY: Family = Family {
    name: "walls",
    about: "Klotski-like with 2-4 wall cells inside the board",
    width: (4, 6),
    height: (5, 7),
    spaces: (2, 4),
    min_side: (3, 4),
    draw,
    check: Check::Bfs,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    let walls = rng.gen_range(2..=4).min(d.width * d.height / 6).max(1);
    klotski::draw_box(rng, d, walls)
}
