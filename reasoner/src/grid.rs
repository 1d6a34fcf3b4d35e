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

use crate::params::ParamSet;
use crate::plan::{self, Planner, SearchConfig};
use crate::space::Space;

/// Least distance between two grid points (a cycle uses 0.5).
pub const MIN_DISTANCE: f64 = 1.0;
/// Most distance of a new point to some earlier one (a cycle uses 2).
pub const MAX_DISTANCE: f64 = 3.0;

/// `size` parameter sets for a puzzle with `spaces` spaces: the four general
/// settings first (fewer if `size` is smaller), then proximity-search draws
/// named `grid K`. Fewer when the search runs out of distinct sets.
pub fn grid(seed: u64, size: usize, spaces: u64, space: Space) -> Vec<(String, ParamSet)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::tests::thesis_space as space;

    #[test]
    fn the_grid_starts_with_the_general_settings_and_never_repeats_a_set() {
        let space = space();
        let g = grid(7, 60, 4, space.clone());
        assert_eq!(g.len(), 60);
        let general = plan::standard_settings(4);
        assert_eq!(&g[..4], &general[..]);
        assert_eq!(g[4].0, "grid 5");
        for (i, (_, a)) in g.iter().enumerate() {
            for (_, b) in &g[..i] {
                assert!(space.distance(a, b) >= MIN_DISTANCE - 1e-9, "{a} near {b}");
            }
        }
        // It reaches beyond the general settings: every heuristic, both
        // algorithms, every resting setting.
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
    fn the_same_seed_gives_the_same_grid() {
        assert_eq!(grid(3, 50, 2, space()), grid(3, 50, 2, space()));
        assert_ne!(grid(3, 50, 2, space()), grid(4, 50, 2, space()));
        assert_eq!(grid(3, 2, 2, space()).len(), 2);
    }
}
