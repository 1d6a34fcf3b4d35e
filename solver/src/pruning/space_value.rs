//! Space-value cutoff (thesis §3.2.1): positions whose spaces are spread so far
//! apart that their pairwise Manhattan distances sum above the cutoff are never
//! visited. Each puzzle has a threshold below which it becomes unsolvable.

use super::Pruning;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};

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
    fn name(&self) -> &'static str {
        "space-value"
    }

    fn keep(&mut self, _moves: &MoveGenerator, after: &State, _m: Move) -> bool {
        self.geometry.space_value(after) <= self.cutoff
    }

    fn directed(&self) -> bool {
        false
    }
}
