//! Heuristic estimates of the distance to the goal, one file each. Adding a
//! heuristic means one new file and one line in [`build`].

mod h0;
mod h1;
mod h2;
mod manhattan;
pub mod pdb;

use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{Move, State};
use crate::params::{Heuristic as Kind, Metric, SearchParams};

/// Estimates how far a position is from the goal.
pub trait Heuristic: Send {
    fn name(&self) -> &'static str;
    /// The estimate for `state` (0 at the goal).
    fn estimate(&mut self, state: &State) -> u32;
    /// The estimate for `after`, reached by `m` from a position estimated at
    /// `before`: depth-first searches use it to update instead of recompute.
    fn estimate_after(&mut self, after: &State, _m: Move, _before: u32) -> u32 {
        self.estimate(after)
    }
    /// Bytes of precomputed tables it holds (counted in `--max-memory`).
    fn memory_bytes(&self) -> u64 {
        0
    }
}

/// The heuristic of `--algorithm dfid`: zero everywhere, so IDA* becomes
/// depth-first iterative deepening.
pub struct Zero;

impl Heuristic for Zero {
    fn name(&self) -> &'static str {
        "zero"
    }

    fn estimate(&mut self, _state: &State) -> u32 {
        0
    }
}

/// Builds the heuristic the parameters name.
pub fn build(
    kind: Kind,
    params: &SearchParams,
    puzzle: &Puzzle,
    geometry: &Geometry,
) -> Box<dyn Heuristic> {
    match kind {
        Kind::H0 => Box::new(h0::MasterDistance::new(geometry)),
        Kind::H1 => Box::new(h1::StepsPerMasterStep::new(puzzle, geometry)),
        Kind::H2 => Box::new(h2::SpacesAndMaster::new(puzzle, geometry, params.h2)),
        Kind::Manhattan => Box::new(manhattan::ManhattanLinearConflict::new(
            puzzle,
            geometry,
            params.metric == Metric::Moves,
        )),
        Kind::Pdb => Box::new(pdb::PatternDatabases::new(puzzle, geometry, params)),
    }
}
