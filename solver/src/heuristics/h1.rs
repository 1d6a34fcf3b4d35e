//! h1 (thesis §3.2.1): h0 times an estimate of the steps needed per master
//! step. The thesis bases it on the master's size and the number of spaces
//! without giving the formula; we use `1 + e / s`, where `e` is the master's
//! mean side (the cells its leading edge must clear) and `s` the number of
//! spaces: with as many spaces as the edge is long, each master step costs
//! about one step to clear plus the step itself. Not admissible.

use super::{Admissible, Context, Heuristic, Spec};
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::State;

/// The registration of h1 (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "h1",
    doc: "h0 times an estimate of the steps needed per master step.",
    admissible: Admissible::Never,
    proximity: true,
    options: &[],
    build: |cx: &Context| Box::new(StepsPerMasterStep::new(cx.puzzle, cx.geometry)),
};

pub struct StepsPerMasterStep {
    geometry: Geometry,
    factor: f64,
}

impl StepsPerMasterStep {
    pub fn new(puzzle: &Puzzle, geometry: &Geometry) -> StepsPerMasterStep {
        let edge = puzzle.master().map_or(1.0, |m| {
            let (h, w) = puzzle.types[m].shape.bounding_box();
            (h + w) as f64 / 2.0
        });
        let spaces = spaces_in(puzzle).max(1) as f64;
        StepsPerMasterStep {
            geometry: geometry.clone(),
            factor: 1.0 + edge / spaces,
        }
    }
}

/// Empty free cells of the start position.
pub(crate) fn spaces_in(puzzle: &Puzzle) -> usize {
    let occupied: usize = (0..puzzle.types.len())
        .map(|t| puzzle.counts[t] * puzzle.types[t].shape.size())
        .sum();
    let free = puzzle
        .board
        .cells()
        .iter()
        .filter(|k| **k == crate::model::CellKind::Free)
        .count();
    let on_doors = puzzle
        .occupants(&puzzle.start)
        .iter()
        .enumerate()
        .filter(|(c, o)| o.is_some() && puzzle.board.kind(*c) == crate::model::CellKind::Door)
        .count();
    (free + on_doors).saturating_sub(occupied)
}

impl Heuristic for StepsPerMasterStep {
    fn name(&self) -> &'static str {
        "h1"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        (self.geometry.goal_distance(state) as f64 * self.factor).round() as u32
    }
}
