//! Exhaustive counting: a breadth-first search with no goal, under the same
//! parameters and limits as a search. Gives the exact size of the reachable
//! space and its mean branching factor (features, `solver count`).

use super::{Ending, Engine, Limit, Progress, SearchError};
use crate::model::{Goal, Puzzle};
use crate::moves::State;
use crate::params::{Algorithm, Limits, SearchParams};

/// What an exhaustive count found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count {
    /// Distinct positions reached (exact when `complete`).
    pub positions: u64,
    /// True when the whole reachable space was examined.
    pub complete: bool,
    /// What stopped it otherwise.
    pub limit: Option<Limit>,
    /// Successors of the examined positions, every step that commutative
    /// pruning leaves out included (none when the count was asked not to
    /// tally them); see [`Count::branching_factor`].
    pub generated: Option<u64>,
    pub examined: u64,
    pub peak_memory: u64,
    /// Most bytes a spilled count held on disk at once (0: in memory).
    pub disk_bytes: u64,
    pub elapsed_ms: u64,
    /// The encoding used and its key width.
    pub encoding: &'static str,
    pub key_bits: u32,
}

impl Count {
    /// Mean number of successors over the examined positions (0 when none
    /// was examined), when the count tallied them.
    pub fn branching_factor(&self) -> Option<f64> {
        self.generated.map(|g| match self.examined {
            0 => 0.0,
            n => g as f64 / n as f64,
        })
    }
}

/// Counts the positions reachable from the start of `puzzle` under `params`
/// (prunings included; the algorithm is always BFS); `held`: see
/// [`Engine::new`].
///
/// With `branching`, every step is tallied for the mean branching factor,
/// those that commutative pruning leaves out included. Without it the
/// count runs as a BFS solve does, faster where steps are counted per
/// leading edge, as on Ithaca, whose blocks' steps far from the last must
/// otherwise all be tallied (0.95 s against 0.70 s at 1M positions). A
/// complete count finds the same positions either way (every layer is the
/// same set); one stopped midway by a limit may store a few more or fewer,
/// since the last layer's positions come in another order (six of the 67
/// puzzle files under `puzzles/` at 3M positions, by at most 0.1%).
pub fn reachable(
    puzzle: &Puzzle,
    params: &SearchParams,
    limits: &Limits,
    progress: Progress,
    held: Option<u64>,
    branching: bool,
) -> Result<Count, SearchError> {
    let mut params = params.clone();
    params.algorithm = Algorithm::Bfs;
    let locked = super::run::check_common(puzzle, &params)?;
    let goal = puzzle.final_goal().cloned().unwrap_or_else(Goal::default);
    let setup = (&goal, limits, &locked[..], held, branching);
    let mut engine = counting_engine(puzzle, &params, setup, progress)?;
    let mut start = State::new(puzzle);
    start.load(&puzzle.start, engine.moves.shapes());
    let mut ending = engine.run(&start);
    let mut examined = 0;
    if let Some(kind) = super::run::fallback(&engine, &ending) {
        // `--encoding auto` started with the faster keys on the chance
        // that the space is far below its bound; it is not: count again
        // with the narrower ones (the positions examined add up).
        examined = engine.stats.examined;
        params.encoding = kind;
        engine = counting_engine(puzzle, &params, setup, engine.progress)?;
        ending = engine.run(&start);
    }
    engine.progress.finish();
    engine.stats.examined += examined;
    let s = engine.stats;
    let (complete, limit) = match ending {
        Ending::Exhausted => (true, None),
        Ending::Stopped(l) => (false, Some(l)),
        Ending::Found(_) => (false, None),
        Ending::Failed(err) => return Err(err),
    };
    Ok(Count {
        positions: s.stored,
        complete,
        limit,
        generated: branching.then_some(s.generated),
        examined: s.examined,
        peak_memory: s.peak_memory,
        disk_bytes: s.disk_bytes,
        elapsed_ms: engine.elapsed_ms(),
        encoding: crate::encoding::PositionEncoding::name(&engine.encoding),
        key_bits: crate::encoding::PositionEncoding::key_bits(&engine.encoding),
    })
}

/// The engine of a count: BFS with no goal (`setup`: the goal whose
/// geometry it uses, the limits, the locked types, the held bytes and
/// whether to tally every step).
fn counting_engine<'a>(
    puzzle: &'a Puzzle,
    params: &SearchParams,
    (goal, limits, locked, held, branching): (&Goal, &Limits, &[usize], Option<u64>, bool),
    progress: Progress,
) -> Result<Engine<'a>, SearchError> {
    let mut engine = Engine::new(puzzle, goal, params, limits, locked, progress, held);
    engine.check_storage()?;
    super::spill::check(&engine)?;
    engine.goal_enabled = false;
    engine.counts_branching = branching;
    // A count reports no distance; only its progress bar shows one.
    engine.measure_distance = engine.progress.is_enabled();
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::moves::MoveGenerator;
    use crate::params::Metric;
    use crate::search::test_boxes::random_long_box;

    /// On random boxes (long blocks, many spaces: steps counted per leading
    /// edge), a count of whole layers (every position within a number of
    /// steps, a bound the search prunes by, so the count ends exhausted)
    /// finds the same positions and examines as many with the branching
    /// tally as without, and only the tallied count has a branching
    /// factor, above one.
    #[test]
    fn the_branching_tally_changes_no_whole_layer() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let limits = Limits {
            max_length: Some(8),
            ..Limits::default()
        };
        let params = SearchParams::default();
        let mut compared = 0;
        for _ in 0..40 {
            let Some(p) = random_long_box(&mut rng) else {
                continue;
            };
            if !MoveGenerator::new(&p, Metric::Steps, &[]).counts_steps() {
                continue;
            }
            let count = |branching| {
                reachable(&p, &params, &limits, Progress::disabled(), None, branching).unwrap()
            };
            let (tallied, plain) = (count(true), count(false));
            if !tallied.complete {
                continue;
            }
            assert_eq!(
                (plain.positions, plain.examined, plain.complete),
                (tallied.positions, tallied.examined, true),
                "{p:?}"
            );
            assert!(tallied.branching_factor().is_some_and(|b| b > 1.0), "{p:?}");
            assert_eq!(plain.generated, None);
            compared += (tallied.positions > 10_000) as usize;
        }
        assert!(compared > 10, "{compared} counts of over 10,000 compared");
    }
}
