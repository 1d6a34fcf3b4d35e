//! What `solver solve` searches with when no `--algorithm` is given: the
//! algorithm a person who knows the solver would pick for the puzzle, and
//! a sentence saying which and why (the JSON result's `algorithm_reason`).
//!
//! In order:
//! - `--spill`, `--best-out`, `--keep-visited`: breadth-first search, the
//!   one algorithm that serves them all;
//! - a heuristic or a weight given: A*, which is what they are for;
//! - a tile puzzle (the strongest admissible heuristic is the pattern
//!   databases), or every goal fixes every block: the optimal search
//!   `--optimal` runs ([`crate::improve::optimal::choose`]): IDA* with the
//!   tables (the 15-puzzle's space is far too large to store), the
//!   bidirectional search on a roomy board (The Time Machine: 1.2 s
//!   against BFS's 37 s), A* with Manhattan distances on a crowded one
//!   ([`GoalKind`]);
//! - otherwise breadth-first search: a goal that leaves blocks free is no
//!   single position to search back from.

use super::SearchError;
use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::params::{Algorithm, Heuristic, SearchParams};

/// What the person asked for besides the search parameters, which bears on
/// the choice: positions nearest the goal when unsolved (`--best-out`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wants {
    pub best_positions: bool,
}

/// The parameters to search with and why that algorithm.
#[derive(Clone, Debug)]
pub struct Picked {
    pub params: SearchParams,
    pub reason: String,
}

/// `base` with the algorithm chosen for `puzzle` (see the module).
pub fn default(puzzle: &Puzzle, base: &SearchParams, wants: Wants) -> Result<Picked, SearchError> {
    let pick = |algorithm: Algorithm, reason: &str| Picked {
        params: SearchParams {
            algorithm,
            ..base.clone()
        },
        reason: format!("{}: {reason}", algorithm.name()),
    };
    if let Some(flag) = breadth_first_only(base, wants) {
        return Ok(pick(
            Algorithm::Bfs,
            &format!("{flag} serves a breadth-first search"),
        ));
    }
    let defaults = SearchParams::default();
    if base.heuristic != defaults.heuristic || base.weight != defaults.weight {
        return Ok(pick(
            Algorithm::Astar,
            "a heuristic or weight was given, and A* is the search they guide",
        ));
    }
    let kind = goal_kind(puzzle, base);
    let free = kind == GoalKind::Free;
    let optimal = crate::improve::optimal::choose_for(puzzle, base, kind)?;
    let tables = Heuristic::new(crate::heuristics::pdb::SPEC.name);
    if optimal.params.heuristic == tables || !free {
        return Ok(optimal);
    }
    Ok(pick(
        Algorithm::Bfs,
        "the goal leaves blocks free, so there is no single goal position to search back from (shortest solutions)",
    ))
}

/// The flag that only a breadth-first search serves, if one was given.
fn breadth_first_only(base: &SearchParams, wants: Wants) -> Option<&'static str> {
    if base.spill.is_some() {
        Some("--spill")
    } else if wants.best_positions {
        Some("--best-out")
    } else if base.keep_visited {
        Some("--keep-visited")
    } else {
        None
    }
}

/// How the goal bears on the choice of an optimal search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalKind {
    /// A goal leaves some block free (or a pruning makes moves one-way):
    /// no single position to search back from.
    Free,
    /// Every goal fixes every block on a roomy board: searches from both
    /// ends meet halfway. The reason says so.
    Fixed(String),
    /// Every goal fixes every block on a crowded board (fewer empty cells
    /// than blocks, like a tile puzzle): the sum of every block's Manhattan
    /// distance is a strong estimate there, and A* with it beats the
    /// bidirectional search (a 4x4 board of 13 tiles, a domino and two
    /// blanks, 49 steps from its goal: A* in 0.9 s, bidir over 60 s; The
    /// Time Machine, 8 blocks and 14 empty cells: bidir 1.4 s, A* 8.1 s).
    Crowded(String),
}

impl GoalKind {
    /// `free`, `fixed` or `crowded` (`solver features`' `goal_kind`).
    pub fn name(&self) -> &'static str {
        match self {
            GoalKind::Free => "free",
            GoalKind::Fixed(_) => "fixed",
            GoalKind::Crowded(_) => "crowded",
        }
    }
}

/// What the goals of `puzzle` are for the search under `params`.
pub fn goal_kind(puzzle: &Puzzle, params: &SearchParams) -> GoalKind {
    for goal in &puzzle.goals {
        let geometry = Geometry::new(puzzle, Some(goal));
        if !super::bidir::fixes_every_block(puzzle, &geometry) {
            return GoalKind::Free;
        }
        if !crate::pruning::build(params, &geometry)
            .directed_names()
            .is_empty()
        {
            return GoalKind::Free;
        }
    }
    let (spaces, blocks) = (crate::features::spaces_at_start(puzzle), puzzle.instances());
    if spaces < blocks {
        return GoalKind::Crowded(format!(
            "the goal fixes every block on a crowded board ({spaces} empty cells for {blocks} blocks), where the sum of the blocks' Manhattan distances guides A* well"
        ));
    }
    GoalKind::Fixed(format!(
        "the goal fixes every block and the board is roomy ({spaces} empty cells for {blocks} blocks), so breadth-first searches from the start and from the goal meet halfway (shortest solutions, far fewer positions than one BFS)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;

    fn picked(file: &str, base: SearchParams) -> Picked {
        default(&formats::bundled(file), &base, Wants::default()).unwrap()
    }

    #[test]
    fn a_goal_fixing_every_block_takes_the_bidirectional_search() {
        let p = picked("layton/the_time_machine.txt", SearchParams::default());
        assert_eq!(p.params.algorithm, Algorithm::Bidir, "{}", p.reason);
        assert!(p.reason.contains("fixes every block"), "{}", p.reason);
        // The same goal on a crowded board: A* with Manhattan distances.
        let crowded = crate::formats::native::parse(
            "!\n1 0,1\n2\n3\n4\n5\n6\n!\n#####\n#123#\n#145#\n#  6#\n#####\n!\n#####\n#  1#\n#231#\n#456#\n#####\n",
            "crowded",
        )
        .unwrap();
        let p = default(&crowded, &SearchParams::default(), Wants::default()).unwrap();
        assert_eq!(p.params.algorithm, Algorithm::Astar, "{}", p.reason);
        assert!(p.reason.contains("crowded"), "{}", p.reason);
        // Classic Klotski's goal places the master only.
        let p = picked("klotski/classic.txt", SearchParams::default());
        assert_eq!(p.params.algorithm, Algorithm::Bfs, "{}", p.reason);
        assert!(p.reason.contains("leaves blocks free"), "{}", p.reason);
    }

    /// `solver features` reports the goal's kind by name, which the
    /// reasoner plans its bidirectional attempt by.
    #[test]
    fn the_goal_kinds_have_the_names_features_report() {
        let kind = |file: &str| {
            let p = formats::bundled(file);
            let f = crate::features::extract(&p, &Default::default());
            assert_eq!(f.goal_kind, goal_kind(&p, &SearchParams::default()).name());
            f.goal_kind
        };
        assert_eq!(kind("layton/the_time_machine.txt"), "fixed");
        assert_eq!(kind("tiles/eight_hardest_a.txt"), "crowded");
        assert_eq!(kind("klotski/classic.txt"), "free");
    }

    #[test]
    fn tile_puzzles_take_the_optimal_search_and_flags_their_algorithm() {
        let p = picked("tiles/eight_hardest_a.txt", SearchParams::default());
        assert_eq!(p.params.algorithm, Algorithm::Ida, "{}", p.reason);
        assert_eq!(p.params.heuristic.name(), "pdb", "{}", p.reason);
        let weighted = SearchParams {
            weight: 2.0,
            ..SearchParams::default()
        };
        let p = picked("layton/the_time_machine.txt", weighted);
        assert_eq!(p.params.algorithm, Algorithm::Astar, "{}", p.reason);
        let best = Wants {
            best_positions: true,
        };
        let puzzle = formats::bundled("layton/the_time_machine.txt");
        let p = default(&puzzle, &SearchParams::default(), best).unwrap();
        assert_eq!(p.params.algorithm, Algorithm::Bfs, "{}", p.reason);
        assert!(p.reason.contains("--best-out"), "{}", p.reason);
    }
}
