//! `--algorithm fluid`: weighted A* over an abstraction in which the units
//! (the most numerous type of 1x1 blocks that move freely, are not locked
//! and no goal names) and the empty cells are one fluid, then the plan
//! refined into moves ([`refine`]).
//!
//! A state is the places of every other ("big") block and the number of
//! units in each region: each connected set of free cells (doors excluded)
//! that no big block covers ([`model`]). The abstraction is exact:
//! - unlabelled tokens on a connected graph with an empty vertex reach every
//!   arrangement of their number, so within a region the units can stand
//!   anywhere;
//! - a big block may step where the cells it newly covers hold no big block
//!   and their regions have room for their units elsewhere;
//! - the units of a region that the step splits may be shared among its
//!   parts in any way that fits (they were placed before the step).
//!
//! So every plan refines into moves, and a puzzle without a plan has no
//! solution (`no_solution` is a proof, as for BFS). The search counts
//! abstract states: `examined` and `stored` in the report are those, far
//! fewer than the positions they stand for (Ithaca's inside has 19 units).
//! The estimate, times `--weight`, is `h0` (the goal blocks' Manhattan
//! distance), `path` (the master's cheapest route through the big blocks)
//! or `blind` (none), each read on the big blocks alone. The cost of a plan
//! is its big blocks' steps, so the refined solution is longer and not
//! optimal, whatever the weight. GNOME's Shark (11 units) and the inside of
//! Ithaca, which A* on the positions did not solve within millions, are
//! planned in seconds; `path` weight 3 solves 25 of the 28 GNOME levels
//! within 60 s each (`experiments/fluid.md`).

mod astar;
mod model;
mod novelty;
mod refine;
mod table;

use std::cmp::Reverse;

use super::{Ending, Engine, SearchError};
use crate::geometry::Geometry;
use crate::model::{Goal, Puzzle};
use crate::moves::State;
use crate::params::{Limits, Metric, SearchParams};

/// The heuristics the search can evaluate on an abstract state: those that
/// look at the goal blocks' places and at the cells the other blocks cover,
/// read on a position without the units (a relaxation the abstraction
/// keeps: units give way wherever their region has room).
const HEURISTICS: [&str; 3] = ["h0", "path", "blind"];

/// The type that becomes the fluid: of the 1x1 types that are neither the
/// master nor sliders, not `locked` and not `named` by the goal, the one
/// with the most blocks (the first of those on a tie).
pub fn unit_type(
    puzzle: &Puzzle,
    named: impl Fn(usize) -> bool,
    locked: &[usize],
) -> Option<usize> {
    (0..puzzle.types.len())
        .filter(|&t| {
            let ty = &puzzle.types[t];
            ty.shape.size() == 1
                && ty.slider.is_none()
                && !ty.is_master
                && puzzle.counts[t] > 0
                && !locked.contains(&t)
                && !named(t)
        })
        .min_by_key(|&t| (Reverse(puzzle.counts[t]), t))
}

/// The type that becomes the fluid under `goal` ([`unit_type`]).
pub fn unit_type_for(puzzle: &Puzzle, goal: &Goal, locked: &[usize]) -> Option<usize> {
    let named = |t| goal.requirements.iter().any(|r| r.block_type == t);
    unit_type(puzzle, named, locked)
}

/// Refuses what the fluid searches cannot serve: a puzzle without units
/// under some goal section, `--metric moves`, a heuristic that reads the
/// units, a `--weight` for BFWS (which weighs nothing), `--max-length` (its
/// plan's length is not the solution's), and prunings (they apply none).
pub fn check(
    puzzle: &Puzzle,
    params: &SearchParams,
    limits: &Limits,
    locked: &[usize],
) -> Result<(), SearchError> {
    let refuse = |why: String| Err(SearchError::Fluid(why));
    let name = params.algorithm.name();
    if params.metric != Metric::Steps {
        return refuse(format!(
            "--algorithm {name} plans one-cell steps: use --metric steps (the default)"
        ));
    }
    if !HEURISTICS.contains(&params.heuristic.name()) {
        return refuse(format!(
            "--algorithm {name} estimates on positions without the units, which only {} read correctly: use one of them (not {})",
            HEURISTICS.join(", "),
            params.heuristic
        ));
    }
    if params.algorithm == crate::params::Algorithm::Bfws && params.weight != 1.0 {
        return refuse(format!(
            "--algorithm bfws orders states by novelty, then by the bare estimate, and takes no --weight (got {}): drop it, or use --algorithm fluid for a weighted search",
            params.weight
        ));
    }
    if limits.max_length.is_some() {
        return refuse(
            format!("--algorithm {name} does not bound the solution's length: drop --max-length, or use --algorithm bfs or astar"),
        );
    }
    if puzzle
        .goals
        .iter()
        .any(|g| unit_type_for(puzzle, g, locked).is_none())
    {
        return refuse(
            format!("--algorithm {name} needs a type of 1x1 blocks that move freely (not the master, not sliders, not locked, not named by a goal): this puzzle has none; use --algorithm astar"),
        );
    }
    let prunings = crate::pruning::build(params, &Geometry::new(puzzle, puzzle.goals.first()));
    if !prunings.is_empty() {
        return refuse(format!(
            "--algorithm {name} applies no prunings: drop {}",
            prunings.names().join(", ")
        ));
    }
    Ok(())
}

/// Plans on the abstraction from `start`, and refines the plan into the
/// positions from `start` to a goal position ([`astar::search`]).
pub fn search(e: &mut Engine, start: &State) -> Ending {
    let range = |t| e.puzzle.type_range(t);
    let locked: Vec<usize> = (0..e.puzzle.types.len())
        .filter(|&t| !range(t).is_empty() && !e.moves.movable(range(t).start))
        .collect();
    let named = |t| !range(t).is_empty() && e.geometry.in_goal(range(t).start);
    match unit_type(e.puzzle, named, &locked) {
        Some(unit) => astar::search(e, start, unit),
        None => Ending::Failed(SearchError::Fluid(
            "--algorithm fluid found no type of units in this goal section".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::formats::native;
    use crate::params::{Algorithm, Heuristic};
    use crate::report::Status;
    use crate::search::{solve, SolveOptions, SolveOutput};

    fn run(text: &str, algorithm: Algorithm) -> Result<SolveOutput, SearchError> {
        run_with(text, algorithm, "h0")
    }

    fn run_with(
        text: &str,
        algorithm: Algorithm,
        heuristic: &str,
    ) -> Result<SolveOutput, SearchError> {
        let puzzle = native::parse(text, "t").expect("a valid test puzzle");
        let limits = Limits {
            max_positions: Some(2_000_000),
            ..Limits::default()
        };
        solve_quietly(&puzzle, &params(algorithm, heuristic), &limits, 0)
    }

    fn params(algorithm: Algorithm, heuristic: &str) -> SearchParams {
        SearchParams {
            algorithm,
            heuristic: Heuristic::new(heuristic),
            ..SearchParams::default()
        }
    }

    /// Solves without a progress bar, asking for `best` best positions.
    fn solve_quietly(
        puzzle: &Puzzle,
        params: &SearchParams,
        limits: &Limits,
        best: usize,
    ) -> Result<SolveOutput, SearchError> {
        let options = SolveOptions {
            best,
            ..SolveOptions::quiet()
        };
        solve(puzzle, params, limits, options)
    }

    /// Solves with `fluid` and `bfws` (each on `h0` and on `path`) and with
    /// BFS; asserts they agree on whether a solution exists and that the
    /// fluid searches' solutions replay to the goal. Returns BFS's status.
    fn agrees(text: &str) -> Status {
        let bfs = run(text, Algorithm::Bfs).expect("bfs serves the puzzle");
        assert_ne!(bfs.status, Status::LimitReached, "{text}");
        let puzzle = native::parse(text, "t").unwrap();
        for algorithm in [Algorithm::Fluid, Algorithm::Bfws] {
            for heuristic in ["h0", "path"] {
                let fluid = run_with(text, algorithm, heuristic).expect("fluid serves it");
                assert_eq!(fluid.status, bfs.status, "{algorithm} {heuristic}: {text}");
                if let Some(lines) = &fluid.solution {
                    let replay = crate::verify::replay(&puzzle, lines).expect("legal moves");
                    assert!(replay.solved, "{algorithm} {heuristic}: {text}");
                    assert!(replay.steps as u64 >= bfs.steps().unwrap(), "{text}");
                }
            }
        }
        bfs.status
    }

    /// Three units in a corridor: the master must get past them, and there
    /// is room for them only in the side pocket.
    const POCKET: &str = "\
!
@ 1,0
a
!
#######
#@@aaa#
#   ###
#######
!
#######
#   @@#
#   ###
#######
!
";

    #[test]
    fn units_are_moved_out_of_the_way_and_the_solution_replays() {
        assert_eq!(agrees(POCKET), Status::Solved);
    }

    #[test]
    fn too_many_units_is_a_proof_of_no_solution() {
        // A fourth unit fills the pocket's last room.
        let full = POCKET.replace(
            "#   ###\n#######\n!\n#######",
            "#a  ###\n#######\n!\n#######",
        );
        assert_eq!(agrees(&full), Status::NoSolution);
    }

    #[test]
    fn a_puzzle_without_units_or_with_moves_metric_is_refused() {
        let none = POCKET
            .replace('a', "b")
            .replace("!\n@ 1,0\nb\n", "!\n@ 1,0\nb 1,0\n");
        let err = run(&none.replace("bbb", "bb "), Algorithm::Fluid).err();
        assert!(
            matches!(err, Some(SearchError::Fluid(ref m)) if m.contains("1x1")),
            "{err:?}"
        );
        let puzzle = native::parse(POCKET, "t").unwrap();
        let params = SearchParams {
            algorithm: Algorithm::Fluid,
            metric: Metric::Moves,
            ..SearchParams::default()
        };
        let err = check(&puzzle, &params, &Limits::default(), &[]).err();
        assert!(matches!(err, Some(SearchError::Fluid(ref m)) if m.contains("--metric steps")));
    }

    /// Stopped early, the search hands its nearest states, refined into
    /// moves, to `--best-out`: each path replays to its position.
    #[test]
    fn the_best_states_of_a_stopped_search_become_positions_with_their_moves() {
        let puzzle = native::parse(POCKET, "t").unwrap();
        let limits = Limits {
            max_positions: Some(3),
            ..Limits::default()
        };
        let params = params(Algorithm::Fluid, "h0");
        let out = solve_quietly(&puzzle, &params, &limits, 2).unwrap();
        assert_eq!(out.status, Status::LimitReached);
        assert!(!out.best.is_empty() && out.best.len() <= 2);
        for b in &out.best {
            let replay = crate::verify::replay(&puzzle, &b.lines).expect("legal moves");
            assert_eq!(replay.final_position, b.position);
            assert!(
                b.distance < out.start_distance,
                "{} of {}",
                b.distance,
                out.start_distance
            );
        }
    }

    /// A bar of `2k - 1` cells over `2k` one-cell pockets (two rows of `k`),
    /// the first `k` holding units; the master beside the bar, its goal in
    /// the first pocket.
    fn comb(k: usize) -> String {
        let width = 2 * k + 3;
        let wall = "#".repeat(width);
        let pockets = |row: usize, unit: char| -> String {
            let cells: String = (0..2 * k - 1)
                .map(|i| match i % 2 {
                    0 if (i / 2) * 2 + row < k => unit,
                    0 => ' ',
                    _ => '#',
                })
                .collect();
            format!("#{cells}###")
        };
        let bar: Vec<String> = (1..2 * k - 1).map(|x| format!("{x},0")).collect();
        let open = format!("#{}#", " ".repeat(2 * k + 1));
        let goal_row = format!("#@{}", &pockets(1, ' ')[2..]);
        format!(
            "!\n@\na\nb {}\n!\n{wall}\n#{}  #\n#{} @#\n{}\n{}\n{wall}\n!\n{wall}\n{open}\n{open}\n{}\n{goal_row}\n{wall}\n!\n",
            bar.join(" "),
            "b".repeat(2 * k - 1),
            " ".repeat(2 * k - 1),
            pockets(0, 'a'),
            pockets(1, 'a'),
            pockets(0, ' '),
        )
    }

    /// One expansion may emit very many states (every way to share a split
    /// region's units among its pieces: here twenty units that may stand in
    /// any of forty pockets); the time limit stops it within the
    /// expansion, and a pruning is refused.
    #[test]
    fn limits_hold_within_one_expansion_and_prunings_are_refused() {
        let comb = comb(20);
        let puzzle = native::parse(&comb, "comb").expect("the comb parses");
        let params = params(Algorithm::Fluid, "h0");
        let limits = Limits {
            time_limit_seconds: Some(0.2),
            ..Limits::default()
        };
        let started = crate::clock::Instant::now();
        let out = solve_quietly(&puzzle, &params, &limits, 0).unwrap();
        assert_eq!(out.status, Status::LimitReached);
        assert_eq!(out.limit, Some(crate::search::Limit::Time));
        assert!(out.stats.examined <= 2, "{}", out.stats.examined);
        assert!(started.elapsed().as_secs() < 10);
        let mut pruned = params;
        let cutoff = sbp_protocol::Setting::Cutoff(Some(3));
        pruned.prunings.insert("space_value".into(), cutoff);
        let err = check(&puzzle, &pruned, &Limits::default(), &[]).err();
        assert!(
            matches!(err, Some(SearchError::Fluid(ref m)) if m.contains("no prunings")),
            "{err:?}"
        );
    }

    /// A random small puzzle: a walled box with a few inner walls, maybe a
    /// door, a horizontal domino master, maybe a vertical domino, 1-6
    /// units, and a goal for the master.
    fn random_puzzle(rng: &mut ChaCha8Rng) -> String {
        let (h, w) = (rng.gen_range(2..5), rng.gen_range(3..6));
        let mut grid = vec![vec!['#'; w + 2]; h + 2];
        for row in grid.iter_mut().take(h + 1).skip(1) {
            for cell in row.iter_mut().take(w + 1).skip(1) {
                *cell = match rng.gen_range(0..20) {
                    0 | 1 => '#',
                    2 => '-',
                    _ => ' ',
                };
            }
        }
        let goal_grid = grid.clone();
        let units = rng.gen_range(1..7);
        let mut place = |grid: &mut Vec<Vec<char>>, id: char, (dr, dc): (usize, usize)| {
            for _ in 0..30 {
                let (r, c) = (rng.gen_range(1..=h), rng.gen_range(1..=w));
                let fits = |x: char| x == ' ' || (id == '@' && x == '-');
                if r + dr <= h && c + dc <= w && fits(grid[r][c]) && fits(grid[r + dr][c + dc]) {
                    grid[r][c] = id;
                    grid[r + dr][c + dc] = id;
                    return true;
                }
            }
            false
        };
        let mut start = grid.clone();
        let mut goal = goal_grid;
        if !place(&mut start, '@', (0, 1)) || !place(&mut goal, '@', (0, 1)) {
            return String::new();
        }
        let domino = place(&mut start, 'b', (1, 0));
        let placed = (0..units)
            .filter(|_| place(&mut start, 'a', (0, 0)))
            .count();
        if placed == 0 {
            return String::new();
        }
        let text = |g: &Vec<Vec<char>>| -> String {
            g.iter()
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect()
        };
        let header = if domino {
            "@ 1,0\na\nb 0,1\n"
        } else {
            "@ 1,0\na\n"
        };
        format!("!\n{header}!\n{}!\n{}!\n", text(&start), text(&goal))
    }

    /// The abstraction is exact: on 300 random small puzzles with units
    /// (doors and inner walls among them), the fluid search finds a
    /// solution exactly where BFS does, and each one it finds replays.
    #[test]
    fn fluid_and_bfs_agree_on_random_small_puzzles() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let (mut solved, mut unsolvable) = (0, 0);
        let mut tried = 0;
        while tried < 300 {
            let text = random_puzzle(&mut rng);
            if text.is_empty() || native::parse(&text, "t").is_err() {
                continue;
            }
            tried += 1;
            match agrees(&text) {
                Status::Solved => solved += 1,
                _ => unsolvable += 1,
            }
        }
        // Both outcomes are exercised.
        assert!(
            solved > 50 && unsolvable > 20,
            "{solved} solved, {unsolvable} not"
        );
    }
}
