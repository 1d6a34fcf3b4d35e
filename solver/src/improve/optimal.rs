//! The search `solver solve --optimal` runs, chosen by the solver for the
//! puzzle: weight 1 and the strongest admissible heuristic it has for it
//! ([`heuristics::strongest_admissible`]), so the first solution found is
//! the shortest (under the prunings given, if any). The reasoner's improve
//! phase runs it with `--max-length` one below the solution it holds: the
//! search then either returns a shorter one or proves there is none. The
//! choice lives here, beside the declarations it reads, so that no caller
//! names a heuristic.

use crate::encoding::{self, PositionEncoding};
use crate::geometry::Geometry;
use crate::heuristics;
use crate::model::Puzzle;
use crate::moves::MoveGenerator;
use crate::params::{Algorithm, Heuristic, SearchParams};
use crate::search::{run::check_common, SearchError};

/// `base` with the algorithm, heuristic and weight of an optimal search of
/// `puzzle`: IDA* where the pattern databases of a tile puzzle serve it (it
/// stores no positions, and updates the tables' lookups per move) or where
/// a position's key is too wide to store, else A*.
pub fn choose(puzzle: &Puzzle, base: &SearchParams) -> Result<SearchParams, SearchError> {
    let goal = puzzle.goals.first().ok_or(SearchError::NoGoal)?;
    let geometry = Geometry::new(puzzle, Some(goal));
    let spec = heuristics::strongest_admissible(puzzle, &geometry);
    let locked = check_common(puzzle, base)?;
    let moves = MoveGenerator::new(puzzle, base.metric, &locked);
    let unlimited = encoding::Budget {
        max_memory: None,
        max_positions: None,
        spill_free: None,
    };
    let key_bits = encoding::choose(puzzle, &moves, base.encoding, unlimited)
        .encoding
        .key_bits();
    let tiles = spec.name == heuristics::pdb::SPEC.name;
    let algorithm = if tiles || key_bits > crate::store::MAX_KEY_BITS {
        Algorithm::Ida
    } else {
        Algorithm::Astar
    };
    Ok(SearchParams {
        algorithm,
        heuristic: Heuristic::new(spec.name),
        weight: 1.0,
        ida_limit: None,
        ..base.clone()
    })
}
