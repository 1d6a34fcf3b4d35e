//! goal-radius: never visit a position whose goal blocks are, in all, more
//! than N cells (Manhattan) from their goal. It depends only on the position
//! reached, so the graph stays undirected, and a smaller radius prunes more:
//! a cutoff, like the space value. The worked example of `docs/extending.md`:
//! a pruning is this one file plus its line in `REGISTRY`.

use super::{Context, Kind, Pruning, Spec};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};
use sbp_protocol::pruning::Setting;

/// The registration of goal-radius (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "goal-radius",
    doc: "Never visit positions whose goal blocks are more than N cells from their goal.",
    flag: "goal-radius",
    json: "goal_radius",
    kind: Kind::Cutoff {
        min: 0,
        max: u32::MAX as u64,
    },
    directed: false,
    proximity: false,
    build: |setting: &Setting, cx: &Context| match setting {
        Setting::Cutoff(Some(radius)) => Some(Box::new(GoalRadius {
            geometry: cx.geometry.clone(),
            radius: *radius,
        })),
        _ => None,
    },
};

pub struct GoalRadius {
    geometry: Geometry,
    radius: u64,
}

impl Pruning for GoalRadius {
    fn keep(&mut self, _moves: &MoveGenerator, after: &State, _m: Move) -> bool {
        u64::from(self.geometry.goal_distance(after)) <= self.radius
    }
}
