//! goal-clear: the master's goal distance plus W for each cell of the
//! master's goal area that another block holds. It is not admissible, even
//! with W = 1 (its default): one step of a block can clear several goal
//! cells (a 1x2 block across the goal area's edge), so it counts cells, not
//! the steps they cost; a larger W trades optimality for speed. The worked
//! example of `docs/extending.md`: a heuristic with an option of its own is
//! this one file plus its line in `REGISTRY`.

use std::borrow::Cow;

use super::{Admissible, Context, Heuristic, Opt, Spec};
use crate::geometry::Geometry;
use crate::moves::{State, NO_OWNER};
use sbp_protocol::options::{OptionKind, Vary};

/// `--goal-clear-weight W`: what each held goal cell adds. The reasoner
/// varies it on the `log2(1 + x)` scale, as it does the weights.
pub const WEIGHT: Opt = Opt {
    flag: "goal-clear-weight",
    value_name: "W",
    json: "goal_clear.weight",
    doc: "goal-clear's cost W of each goal cell another block holds",
    kind: OptionKind::Reals {
        count: 1,
        min: 0.0,
        max: 1e6,
        default: Cow::Borrowed(&[1.0]),
    },
    vary: Vary::Log1p,
    recorded: true,
    start: None,
};

/// The registration of goal-clear (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "goal-clear",
    doc: "Master distance plus W per goal cell another block holds (--goal-clear-weight W).",
    admissible: Admissible::Never,
    options: &[WEIGHT],
    proximity: true,
    build: |cx: &Context| {
        let w = cx.puzzle.board.width() as i32;
        let goal_cells = match (cx.puzzle.master(), cx.geometry.master) {
            (Some(m), Some((_, anchor))) => cx.puzzle.types[m]
                .shape
                .offsets()
                .iter()
                .map(|&(r, c)| (anchor as i32 + r * w + c) as usize)
                .collect(),
            _ => Vec::new(),
        };
        Box::new(GoalClear {
            geometry: cx.geometry.clone(),
            goal_cells,
            weight: WEIGHT.reals(cx.params)[0],
        })
    },
};

pub struct GoalClear {
    geometry: Geometry,
    goal_cells: Vec<usize>,
    weight: f64,
}

impl Heuristic for GoalClear {
    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn estimate(&mut self, state: &State) -> u32 {
        let master = self.geometry.master.map(|(i, _)| i as u16);
        let held = self
            .goal_cells
            .iter()
            .filter(|&&c| state.owner[c] != NO_OWNER && Some(state.owner[c]) != master)
            .count();
        let d = self.geometry.goal_distance(state) as f64;
        (d + self.weight * held as f64).round() as u32
    }
}
