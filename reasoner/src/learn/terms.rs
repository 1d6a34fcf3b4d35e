//! The terms the learned similarity weighs: each a number computed from a
//! puzzle's features, compared by absolute difference.
//!
//! The first eleven are the thesis's terms and the solver's extra features
//! as [`crate::similarity::ThesisSimilarity`] compares them (the midpoint of
//! each range), so that weight 1 on the thesis's six and 0 elsewhere is the
//! thesis's measure on point features: the fit starts there and can only
//! improve on it. The rest are ratios and logarithms that a copy of a puzzle
//! scaled in every dimension shares with its original (thesis §9.2.3: the
//! size terms alone make a scaled copy look like a stranger): the number of
//! blocks, the share of cells that are spaces, and the logarithms of the
//! size-like features, on which scaling is a shift by a constant.

use crate::features::{Features, Range};
use crate::similarity::{scaled_size, EXTRA_FEATURES, SCALED_SIZE, THESIS_FEATURES};

/// Terms added to the thesis's and the extra features.
pub const DERIVED: [&str; 6] = [
    "blocks",
    "space_share",
    "ln_puzzle_size",
    "ln_spaces",
    "ln_block_size",
    "ln_master_distance",
];

/// Number of terms: the thesis's six, the five extra features, the derived.
pub const COUNT: usize = 1 + THESIS_FEATURES.len() + EXTRA_FEATURES.len() + DERIVED.len();

/// Every term's name, in the order of [`vector`].
pub fn names() -> Vec<&'static str> {
    std::iter::once(SCALED_SIZE)
        .chain(THESIS_FEATURES)
        .chain(EXTRA_FEATURES)
        .chain(DERIVED)
        .collect()
}

/// The thesis's weights: 1 on its six terms, 0 on the others.
pub fn thesis_weights() -> Vec<f64> {
    (0..COUNT)
        .map(|i| if i <= THESIS_FEATURES.len() { 1.0 } else { 0.0 })
        .collect()
}

fn mid(r: Option<Range>) -> Option<f64> {
    r.filter(Range::is_known).map(|r| (r.lo + r.hi) / 2.0)
}

/// The terms of one puzzle's features; `None` where a feature is unknown
/// (a term unknown on either side adds nothing, as in the thesis).
pub fn vector(f: &Features) -> Vec<Option<f64>> {
    let get = |name: &str| mid(f.get(name));
    let mut v = vec![mid(scaled_size(f))];
    v.extend(THESIS_FEATURES.iter().map(|n| get(n)));
    v.extend(EXTRA_FEATURES.iter().map(|n| get(n)));
    let cells = get("puzzle_size");
    let spaces = get(sbp_protocol::features::NUM_OF_SPACES);
    let block = get("block_size");
    let blocks = match (cells, spaces, block) {
        (Some(c), Some(s), Some(b)) if b > 0.0 => Some((c - s).max(0.0) / b),
        _ => None,
    };
    let share = match (cells, spaces) {
        (Some(c), Some(s)) if c > 0.0 => Some(s / c),
        _ => None,
    };
    let ln = |x: Option<f64>| x.map(|x| (1.0 + x.max(0.0)).ln());
    v.extend([
        blocks,
        share,
        ln(cells),
        ln(spaces),
        ln(block),
        ln(get("master_distance")),
    ]);
    v
}

/// Weighted Manhattan distance between two term vectors.
pub fn distance(weights: &[f64], a: &[Option<f64>], b: &[Option<f64>]) -> f64 {
    weights
        .iter()
        .zip(a.iter().zip(b))
        .map(|(w, pair)| match pair {
            (Some(x), Some(y)) if *w != 0.0 => w * (x - y).abs(),
            _ => 0.0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn klotski(scale: f64) -> Features {
        let mut f = Features::default();
        let area = scale * scale;
        for (n, v) in [
            ("search_space_log10", 4.4 * area),
            ("search_space_size_type", 0.0),
            ("branching_factor", 3.2),
            ("regular_shapes", 1.0),
            ("block_size", 1.8 * area),
            ("num_of_spaces", 2.0 * area),
            ("puzzle_size", 20.0 * area),
            ("master_distance", 3.0 * scale),
        ] {
            f.insert(n, Range::point(v));
        }
        f
    }

    #[test]
    fn the_thesis_weights_give_the_thesis_distance_on_point_features() {
        let sim = crate::similarity::ThesisSimilarity::default();
        let (a, b) = (klotski(1.0), klotski(2.0));
        let d = distance(&thesis_weights(), &vector(&a), &vector(&b));
        assert!((d - crate::similarity::Similarity::distance(&sim, &a, &b)).abs() < 1e-9);
        assert_eq!(names().len(), COUNT);
        assert_eq!(vector(&a).len(), COUNT);
    }

    #[test]
    fn a_scaled_copy_keeps_its_blocks_and_space_share() {
        let (a, b) = (vector(&klotski(1.0)), vector(&klotski(2.0)));
        let at = |name: &str| names().iter().position(|n| *n == name).unwrap();
        for name in ["blocks", "space_share", "regular_shapes"] {
            let (x, y) = (a[at(name)].unwrap(), b[at(name)].unwrap());
            assert!((x - y).abs() < 1e-9, "{name}: {x} vs {y}");
        }
    }
}
