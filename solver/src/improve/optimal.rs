//! The search `solver solve --optimal` runs, chosen by the solver for the
//! puzzle, so that the first solution found is the shortest (under the
//! prunings given, if any): IDA* with the strongest admissible heuristic
//! ([`heuristics::strongest_admissible`]) for tile puzzles and keys too
//! wide to store; where every goal fixes every block (and no pruning is
//! one-way), the bidirectional breadth-first search on a roomy board and
//! A* with that heuristic on a crowded one ([`GoalKind`]); else
//! breadth-first search. A* with Manhattan
//! distances was the last choice until measured: it examined 1-3x fewer
//! positions than BFS but took 1.3-2.3x its time on every block puzzle
//! tried (classic Klotski, Century, Baltic Sea, Fool, Rome, five Layton
//! puzzles; `experiments/defaults.md`). The reasoner's improve
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
use crate::search::pick::{self, GoalKind, Picked};
use crate::search::{run::check_common, SearchError};

/// `base` with the algorithm, heuristic and weight of an optimal search of
/// `puzzle`, and why: the bidirectional search where [`pick::goal_kind`]
/// says so (The Time Machine under moves: 1.2 s against A*'s 38 s); IDA*
/// where the pattern databases of a tile puzzle serve it (it stores no
/// positions, and updates the tables' lookups per move) or where a
/// position's key is too wide to store; else BFS.
pub fn choose(puzzle: &Puzzle, base: &SearchParams) -> Result<Picked, SearchError> {
    choose_for(puzzle, base, pick::goal_kind(puzzle, base))
}

/// [`choose`] where the goal's kind (`pick::goal_kind` of `puzzle` and
/// `base`) is known already.
pub fn choose_for(
    puzzle: &Puzzle,
    base: &SearchParams,
    kind: GoalKind,
) -> Result<Picked, SearchError> {
    let goal = puzzle.goals.first().ok_or(SearchError::NoGoal)?;
    let geometry = Geometry::new(puzzle, Some(goal));
    let spec = heuristics::strongest_admissible(puzzle, &geometry);
    let locked = check_common(puzzle, base)?;
    let moves = MoveGenerator::new(puzzle, base.metric, &locked);
    let unlimited = encoding::Budget {
        max_memory: None,
        max_positions: None,
        spill_free: None,
        dense: false,
        tiles: false,
    };
    let key_bits = encoding::choose(puzzle, &moves, base.encoding, unlimited)
        .encoding
        .key_bits();
    let tiles = spec.name == heuristics::pdb::SPEC.name;
    let wide = key_bits > crate::store::MAX_KEY_BITS;
    let (algorithm, heuristic, reason) = match kind {
        _ if tiles => (Algorithm::Ida, spec.name, "a tile puzzle: its pattern databases are the strongest admissible heuristic, and IDA* stores no positions".to_string()),
        _ if wide => (Algorithm::Ida, spec.name, format!("the keys are too wide to store ({key_bits} bits), so IDA* with the strongest admissible heuristic")),
        GoalKind::Fixed(reason) => (Algorithm::Bidir, base.heuristic.name(), reason),
        GoalKind::Crowded(reason) => (Algorithm::Astar, spec.name, format!("{reason} ({})", spec.name)),
        GoalKind::Free => (Algorithm::Bfs, base.heuristic.name(), format!("shortest by breadth-first search: the strongest admissible heuristic here ({}) saves A* fewer positions than it costs per position", spec.name)),
    };
    let params = SearchParams {
        algorithm,
        heuristic: Heuristic::new(heuristic),
        weight: 1.0,
        ida_limit: None,
        ..base.clone()
    };
    let reason = format!("{}: optimal; {reason}", algorithm.name());
    Ok(Picked { params, reason })
}
