//! Space-value cutoff (thesis §3.2.1): positions whose spaces are spread so far
//! apart that their pairwise Manhattan distances sum above the cutoff are never
//! visited. Each puzzle has a threshold below which it becomes unsolvable.

use super::{Context, Kind, Pruning, Spec};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};
use sbp_protocol::pruning::Setting;

/// The registration of the space-value cutoff (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "space-value",
    doc: "Space-value cutoff: never visit positions whose spaces' pairwise distances sum above N.",
    flag: "space-value",
    json: "space_value",
    kind: Kind::Cutoff {
        min: 0,
        max: u64::MAX,
    },
    directed: false,
    proximity: true,
    build: |setting: &Setting, cx: &Context| match setting {
        Setting::Cutoff(Some(cutoff)) => {
            Some(Box::new(SpaceValueCutoff::new(cx.geometry, *cutoff)))
        }
        _ => None,
    },
};

pub struct SpaceValueCutoff {
    geometry: Geometry,
    cutoff: u64,
}

impl SpaceValueCutoff {
    pub fn new(geometry: &Geometry, cutoff: u64) -> SpaceValueCutoff {
        SpaceValueCutoff {
            geometry: geometry.clone(),
            cutoff,
        }
    }
}

impl Pruning for SpaceValueCutoff {
    fn keep(&mut self, _moves: &MoveGenerator, after: &State, _m: Move) -> bool {
        self.geometry.space_value(after) <= self.cutoff
    }
}
