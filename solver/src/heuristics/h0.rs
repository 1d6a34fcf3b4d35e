//! h0 (thesis §3.2.1): the Manhattan distance of the goal blocks (usually
//! just the master) to their goal. Admissible for the steps metric.

use super::{Admissible, Context, Heuristic, Spec};
use crate::geometry::Geometry;
use crate::moves::State;

/// The registration of h0 (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "h0",
    doc: "Manhattan distance of the goal blocks (the master) to their goal.",
    admissible: Admissible::Steps,
    proximity: true,
    options: &[],
    build: |cx: &Context| Box::new(MasterDistance::new(cx.geometry)),
};

pub struct MasterDistance {
    geometry: Geometry,
}

impl MasterDistance {
    pub fn new(geometry: &Geometry) -> MasterDistance {
        MasterDistance {
            geometry: geometry.clone(),
        }
    }
}

impl Heuristic for MasterDistance {
    fn name(&self) -> &'static str {
        "h0"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        self.geometry.goal_distance(state)
    }
}
