//! A grid of parameter sets spread over the reasoner's parameter space, for
//! the "oracle" of `experiments/` (issue 18): the best single set per puzzle
//! out of this grid stands in for the thesis's hand tuning (table 8.4).
//!
//! The grid is drawn by the proximity search itself (`plan.rs`), started from
//! the thesis's four general settings with wider distances than a cycle uses,
//! so it covers exactly the space the reasoner searches (its algorithms, the
//! solver's registered heuristics with their options, weights and the
//! prunings it lets the proximity search vary, within the solver's ranges)
//! and no hand-written list. The same seed, size, number of spaces and
//! space give the same grid.
//!
//! The proximity search changes the algorithm only between A* and BFS (a
//! cycle's plans rest on that, see `plan.rs`), so a share of the grid
//! ([`VARIANT_SHARE`]) is kept for the other algorithms the solver has
//! (IDA*, bidirectional BFS, DFID, NBS, fluid, BFWS): the best-known
//! points, the general settings (ours, then the thesis's) then the grid's
//! own draws, rerun under
//! each of them in turn (an uninformed algorithm on uninformed points, an
//! informed one on informed points). The solver's `--encoding` is no
//! parameter of a set ([`ParamSet`]), so the grid does not vary it.

use crate::params::{Algorithm, ParamSet, Settings};
use crate::plan::{self, Planner, SearchConfig};
use crate::space::Space;

/// Least distance between two grid points (a cycle uses 0.5).
pub const MIN_DISTANCE: f64 = 1.0;
/// Most distance of a new point to some earlier one (a cycle uses 2).
pub const MAX_DISTANCE: f64 = 3.0;

/// One grid point in this many is an algorithm variant (see the module).
pub const VARIANT_SHARE: usize = 4;

/// `size` parameter sets for a puzzle with `spaces` spaces: the four general
/// settings first (fewer if `size` is smaller), then proximity-search draws
/// named `grid K`, then the algorithm variants, also named `grid K`. Fewer
/// when the search runs out of distinct sets.
pub fn grid(seed: u64, size: usize, spaces: u64, space: Space) -> Vec<(String, ParamSet)> {
    // The general settings always come first, whole (the experiments read
    // `--grid 4` as them): the variants' share never displaces one.
    let standard = plan::standard_settings(spaces).len();
    let drawn = (size - size / VARIANT_SHARE).max(size.min(standard));
    let mut out = proximity_draws(seed, drawn, spaces, space.clone());
    // Ours first (A* w3 path, fluid, BFWS: `path` is what the fluid
    // searches are known to work on), then the thesis's four, then the draws.
    let general = plan::general_settings(spaces, plan::FLUID_UNITS, false);
    let thesis = plan::standard_settings(spaces).len();
    let mut bases: Vec<ParamSet> = general[thesis..]
        .iter()
        .chain(&general[..thesis])
        .map(|(_, p)| p.clone())
        .collect();
    bases.extend(out.iter().map(|(_, p)| p.clone()));
    let sets: Vec<ParamSet> = out.iter().map(|(_, p)| p.clone()).collect();
    for p in variants(&space, &sets, &bases, size - out.len()) {
        out.push((format!("grid {}", out.len() + 1), p));
    }
    out
}

/// `size` proximity-search draws from the thesis's general settings.
fn proximity_draws(seed: u64, size: usize, spaces: u64, space: Space) -> Vec<(String, ParamSet)> {
    let config = SearchConfig {
        min_distance: MIN_DISTANCE,
        max_distance: MAX_DISTANCE,
        ..SearchConfig::default()
    };
    let general = plan::standard_settings(spaces);
    let mut planner = Planner::new(seed, config, general, size, size, spaces).with_space(space);
    let mut out = Vec::new();
    loop {
        let wave = planner.next_wave();
        if wave.is_empty() {
            return out;
        }
        for p in wave {
            let name = p.case.unwrap_or_else(|| format!("grid {}", p.index));
            out.push((name, p.params));
        }
    }
}

/// Up to `count` sets under the algorithms none of `sets` uses, taken in
/// turn (one per algorithm per round): each is the next of `bases` of the
/// same kind (informed or not) moved to that algorithm, in normal form,
/// skipping any set already held.
fn variants(space: &Space, sets: &[ParamSet], bases: &[ParamSet], count: usize) -> Vec<ParamSet> {
    let missing: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| sets.iter().all(|p| p.algorithm != *a))
        .collect();
    let mut next = vec![0; missing.len()];
    let mut held: Vec<ParamSet> = sets.to_vec();
    let mut out = Vec::new();
    while out.len() < count {
        let before = out.len();
        for (a, at) in missing.iter().zip(next.iter_mut()) {
            if out.len() == count {
                break;
            }
            if let Some(p) = next_variant(space, *a, bases, at, &held) {
                held.push(p.clone());
                out.push(p);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out
}

/// The first of `bases` from `*at` on of `algorithm`'s kind that, moved to
/// it, gives a set not in `held`; `*at` moves past it.
fn next_variant(
    space: &Space,
    algorithm: Algorithm,
    bases: &[ParamSet],
    at: &mut usize,
    held: &[ParamSet],
) -> Option<ParamSet> {
    while let Some(b) = bases.get(*at) {
        *at += 1;
        if b.algorithm.informed() != algorithm.informed() {
            continue;
        }
        match moved(space, algorithm, b) {
            Some(p) if !held.contains(&p) => return Some(p),
            _ => {}
        }
    }
    None
}

/// `base` moved to `algorithm` as the solver accepts it, in normal form:
/// bidirectional BFS and NBS search from both ends, which a pruning makes
/// asymmetric, so they run none (and keep the heuristic's default
/// options); NBS is optimal, so it takes weight 1 and only a heuristic
/// admissible under the set's metric (`None` for another).
fn moved(space: &Space, algorithm: Algorithm, base: &ParamSet) -> Option<ParamSet> {
    let mut p = ParamSet {
        algorithm,
        ..base.clone()
    };
    if matches!(algorithm, Algorithm::Bidir | Algorithm::Nbs) {
        p.settings = Settings::default();
    }
    if algorithm == Algorithm::Nbs {
        let admissible = space.heuristic(&p.heuristic)?.admissible;
        if !admissible.under(p.metric) {
            return None;
        }
        p.weight = 1.0;
    }
    Some(space.normalized(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Value;
    use crate::space::tests::thesis_space as space;

    #[test]
    fn the_grid_starts_with_the_general_settings_and_never_repeats_a_set() {
        let space = space();
        let g = grid(7, 60, 4, space.clone());
        assert_eq!(g.len(), 60);
        let general = plan::standard_settings(4);
        assert_eq!(&g[..4], &general[..]);
        assert_eq!(g[4].0, "grid 5");
        let drawn = 60 - 60 / VARIANT_SHARE;
        for (i, (_, a)) in g[..drawn].iter().enumerate() {
            for (_, b) in &g[..i] {
                assert!(space.distance(a, b) >= MIN_DISTANCE - 1e-9, "{a} near {b}");
            }
        }
        // It reaches beyond the general settings: every heuristic, every
        // resting setting, and (below) every algorithm.
        for h in space.proximity_heuristics() {
            assert!(g.iter().any(|(_, p)| p.heuristic == h), "{h}");
        }
        let resting: std::collections::BTreeSet<String> = g
            .iter()
            .filter_map(|(_, p)| p.settings.get("resting").map(|v| v.to_string()))
            .collect();
        assert_eq!(resting.len(), 3);
    }

    #[test]
    fn the_grid_holds_every_algorithm_once_per_set() {
        let g = grid(5, 50, 2, space());
        assert_eq!(g.len(), 50);
        for a in Algorithm::ALL {
            let n = g.iter().filter(|(_, p)| p.algorithm == *a).count();
            assert!(n >= 1, "{a}: no set");
        }
        // As the solver takes them: both ends need no pruning, NBS an
        // admissible heuristic at weight 1.
        for (name, p) in &g {
            if matches!(p.algorithm, Algorithm::Bidir | Algorithm::Nbs) {
                let off = Value::Text("off".into());
                assert_eq!(p.settings.get("resting"), Some(&off), "{name}");
                assert_eq!(p.settings.get("space_value"), None, "{name}");
            }
            if p.algorithm == Algorithm::Nbs {
                assert_eq!(p.weight, 1.0, "{name}");
                assert!(
                    space()
                        .heuristic(&p.heuristic)
                        .unwrap()
                        .admissible
                        .under(p.metric),
                    "{name}"
                );
            }
        }
        for (i, (name, p)) in g.iter().enumerate() {
            assert!(g[..i].iter().all(|(_, q)| q != p), "{name} repeats a set");
            assert!(g[..i].iter().all(|(n, _)| n != name), "{name} twice");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_grid() {
        assert_eq!(grid(3, 50, 2, space()), grid(3, 50, 2, space()));
        assert_ne!(grid(3, 50, 2, space()), grid(4, 50, 2, space()));
        assert_eq!(grid(3, 2, 2, space()).len(), 2);
    }
}
