//! `gnome`: GNOME-Klotski-like levels (as `puzzles/klotski/red_donkey.txt`):
//! a larger box with a few wall cells inside, and an exit door in the
//! bottom of the frame that only the master may pass; the goal is the
//! master outside, in the door cells beyond the frame.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::layout::{shape, Layout};
use super::{klotski, Check, Dims, Family};
use crate::model::{CellKind, Shape};

pub const FAMILY: Family = Family {
    name: "gnome",
    about: "GNOME-Klotski-like: inner walls, an exit door only the master may pass",
    width: (4, 6),
    height: (5, 7),
    spaces: (2, 4),
    min_side: (3, 4),
    draw,
    check: Check::Bfs,
};

fn draw(rng: &mut ChaCha8Rng, d: &Dims) -> Layout {
    // A 2x2 master most of the time, else a 1x2 one lying down.
    let (mh, mw) = if rng.gen_bool(0.7) { (2, 2) } else { (1, 2) };
    let mut l = Layout::framed(d.height, d.width, mh - 1);
    let gap = rng.gen_range(1..=d.width + 1 - mw);
    for r in d.height + 1..d.height + 1 + mh {
        for c in gap..gap + mw {
            let x = l.cell(r, c);
            l.set_kind(x, CellKind::Door);
        }
    }
    let master = l.add_type('@', Shape::rectangle(mh as i32, mw as i32), None, true);
    let goal = l.cell(d.height + 1, gap);
    l.set_goal(goal);
    let (h, w) = (d.height, d.width);
    // The master first, so walls never take all its room (a board with
    // no master would be no puzzle); walls go to the cells it left.
    if !l.put_random(rng, master, |r, _| r <= (h / 2).max(1)) {
        l.put_random(rng, master, |r, _| r < h);
    }
    let walls = rng.gen_range(1..=3).min(w * h / 8).max(1);
    // No wall right above the door, which would close it.
    l.add_walls(rng, walls, |r, c| r < h || !(gap..gap + mw).contains(&c));
    l.fill(rng, &kit(), d.spaces);
    l
}

/// The Klotski blocks and, now and then, a 1x3 bar or an L of three cells.
fn kit() -> Vec<(char, Shape, u32)> {
    let mut kit = klotski::kit();
    kit.push(('i', shape(&[(0, 0), (1, 0), (2, 0)]), 1));
    kit.push(('L', shape(&[(0, 0), (1, 0), (1, 1)]), 1));
    kit
}
