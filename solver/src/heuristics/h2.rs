//! h2 (thesis §3.2.1): an overestimate from the master's goal distance, how
//! far the spaces are from the master, and the space value. The thesis names
//! the ingredients and three weights (its "aggressive" setting is
//! `(6, 4*s^2, 2)` for `s` spaces) but not the formula; ours is
//!
//! `h2 = A * d + C * mean_space_distance + max(0, space_value - B)`
//!
//! with `d` the master's Manhattan distance to its goal, `mean_space_distance`
//! the mean Manhattan distance from each space to the nearest master cell
//! (spaces must gather at the master for it to move), and `B` an allowance of
//! space value above which scattered spaces are penalised one for one. With
//! `B = 4*s^2` the penalty only bites on badly scattered positions, which is
//! what the thesis's setting suggests. Not admissible.

use std::borrow::Cow;

use super::{Admissible, Context, Heuristic, Opt, Spec};
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::State;
use sbp_protocol::options::{OptionKind, Vary};

/// h2's weights `--h2 A,B,C`: varied by the reasoner on the `log2(1 + x)`
/// scale, where doubling a weight costs about one unit.
pub const WEIGHTS: Opt = Opt {
    flag: "h2",
    value_name: "A,B,C",
    json: "h2",
    doc:
        "h2's weights A,B,C: master distance, space-value allowance, spaces' distance to the master",
    kind: OptionKind::Reals {
        count: 3,
        min: 0.0,
        max: 1e6,
        default: Cow::Borrowed(&[1.0, 0.0, 1.0]),
    },
    vary: Vary::Log1p,
    recorded: true,
    start: None,
};

/// The registration of h2 (see [`super::REGISTRY`]); its weights are `--h2 A,B,C`.
pub const SPEC: Spec = Spec {
    name: "h2",
    doc: "Overestimate from master distance, spaces' distance to the master and space value, weighted by --h2 A,B,C.",
    admissible: Admissible::Never,
    proximity: true,
    options: &[WEIGHTS],
    build: |cx: &Context| {
        let w = WEIGHTS.reals(cx.params);
        Box::new(SpacesAndMaster::new(cx.puzzle, cx.geometry, [w[0], w[1], w[2]]))
    },
};

pub struct SpacesAndMaster {
    geometry: Geometry,
    weights: [f64; 3],
    master_cells: Vec<i32>,
}

impl SpacesAndMaster {
    pub fn new(puzzle: &Puzzle, geometry: &Geometry, weights: [f64; 3]) -> SpacesAndMaster {
        let w = puzzle.board.width() as i32;
        let master_cells = puzzle
            .master()
            .map(|m| {
                puzzle.types[m]
                    .shape
                    .offsets()
                    .iter()
                    .map(|&(r, c)| r * w + c)
                    .collect()
            })
            .unwrap_or_default();
        SpacesAndMaster {
            geometry: geometry.clone(),
            weights,
            master_cells,
        }
    }
}

impl Heuristic for SpacesAndMaster {
    fn name(&self) -> &'static str {
        "h2"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        let [a, b, c] = self.weights;
        let g = &self.geometry;
        let d = g.goal_distance(state) as f64;
        let mut spread = 0.0;
        if let Some((m, _)) = g.master {
            let anchor = state.anchors[m] as i32;
            let (mut sum, mut n) = (0u64, 0u64);
            for s in g.spaces(state) {
                let near = self
                    .master_cells
                    .iter()
                    .map(|&off| g.manhattan(s, (anchor + off) as usize))
                    .min()
                    .unwrap_or(0);
                sum += near as u64;
                n += 1;
            }
            if n > 0 {
                spread = sum as f64 / n as f64;
            }
        }
        let scatter = (g.space_value(state) as f64 - b).max(0.0);
        (a * d + c * spread + scatter).round().max(0.0) as u32
    }
}
