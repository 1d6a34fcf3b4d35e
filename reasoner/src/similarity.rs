//! How similar a puzzle is to a case (thesis §7.2.2), behind a swappable
//! [`Similarity`] trait, and retrieval of the most similar cases (§6.3).
//!
//! The thesis's "similarity" `s` is a distance: 0 for identical features,
//! larger for less similar puzzles. This module keeps that convention: cases
//! are ranked by increasing `s`.
//!
//! # The default: [`ThesisSimilarity`]
//!
//! Manhattan distance over these terms, the features unscaled except the first:
//!
//! 1. search-space size, scaled by its type: `a1 = ln x / (sqrt 2)^y` with `x`
//!    the size and `y` its type (0 exact, 10 packing bound, 20 combinatorial
//!    bound). `ln x` comes from `search_space_log10 * ln 10`, so no size ever
//!    overflows. For ranges, `a1`'s range spans the four corners.
//! 2. `branching_factor`
//! 3. `regular_shapes`
//! 4. `block_size`
//! 5. `num_of_spaces`
//! 6. `puzzle_size`
//!
//! Each term is the [gap](crate::features::Range::gap) between the two ranges:
//! 0 when they overlap, else the distance between their nearest ends (`|a - b|`
//! for point values, the thesis's formula). A feature unknown on either side
//! adds nothing.
//!
//! `ThesisSimilarity { extended: true }` (`--similarity extended`) adds the
//! solver's further features, unscaled: [`EXTRA_FEATURES`].

use serde::Serialize;

use crate::features::{Features, Range, SEARCH_SPACE_SIZE_TYPE};

/// The thesis's unscaled features.
pub const THESIS_FEATURES: [&str; 5] = sbp_protocol::features::THESIS;

/// Features the solver reports beyond the thesis's, used by `extended`.
pub const EXTRA_FEATURES: [&str; 5] = sbp_protocol::features::EXTRA;

/// Name of the type-scaled search-space term.
pub const SCALED_SIZE: &str = "scaled_search_space";

/// A distance between a query puzzle's features and a case's features:
/// smaller is more similar.
pub trait Similarity: Send + Sync {
    /// Name used on the command line and in reports.
    fn name(&self) -> &'static str;

    /// Each term of the distance, by name.
    fn terms(&self, query: &Features, case: &Features) -> Vec<(&'static str, f64)>;

    /// The distance: the sum of the terms.
    fn distance(&self, query: &Features, case: &Features) -> f64 {
        self.terms(query, case).iter().map(|(_, v)| v).sum()
    }

    /// The settings to reuse for a puzzle of features `query`, best first,
    /// when the measure ranks settings itself (the learned selector, from
    /// the cases' performance profiles); `None`: reuse the most similar
    /// cases' parameters, as the thesis does.
    fn settings(
        &self,
        _query: &Features,
        _cb: &crate::casebase::CaseBase,
    ) -> Option<Vec<(String, crate::params::ParamSet)>> {
        None
    }
}

/// The thesis's similarity (§7.2.2), optionally with the extra features.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThesisSimilarity {
    pub extended: bool,
}

/// `ln x / (sqrt 2)^y` over the ranges of `ln x` and `y`.
pub fn scaled_size(f: &Features) -> Option<Range> {
    let ln = f.search_space_ln()?;
    let ty = f.get(SEARCH_SPACE_SIZE_TYPE)?;
    let corners = [
        ln.lo / 2f64.powf(ty.lo / 2.0),
        ln.lo / 2f64.powf(ty.hi / 2.0),
        ln.hi / 2f64.powf(ty.lo / 2.0),
        ln.hi / 2f64.powf(ty.hi / 2.0),
    ];
    let lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(Range::new(lo, hi))
}

fn gap(a: Option<Range>, b: Option<Range>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => a.gap(&b),
        _ => 0.0,
    }
}

impl Similarity for ThesisSimilarity {
    fn name(&self) -> &'static str {
        if self.extended {
            "extended"
        } else {
            "thesis"
        }
    }

    fn terms(&self, q: &Features, c: &Features) -> Vec<(&'static str, f64)> {
        let mut terms = vec![(SCALED_SIZE, gap(scaled_size(q), scaled_size(c)))];
        let extra: &[&'static str] = if self.extended { &EXTRA_FEATURES } else { &[] };
        for name in THESIS_FEATURES.iter().chain(extra) {
            terms.push((name, gap(q.get(name), c.get(name))));
        }
        terms
    }
}

/// The similarity measures known by name (`--similarity NAME`).
pub fn by_name(name: &str) -> Option<Box<dyn Similarity>> {
    match name {
        "thesis" => Some(Box::new(ThesisSimilarity { extended: false })),
        "extended" => Some(Box::new(ThesisSimilarity { extended: true })),
        _ => None,
    }
}

/// Names accepted by [`by_name`].
pub const NAMES: [&str; 2] = ["thesis", "extended"];

/// One case in the ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// Index in the case base.
    #[serde(skip)]
    pub index: usize,
    pub name: String,
    /// The thesis's similarity value: a distance, smaller is more similar.
    pub similarity: f64,
}

/// All cases by increasing distance; ties by name, then case-base order.
pub fn rank<'a>(
    sim: &dyn Similarity,
    query: &Features,
    cases: impl IntoIterator<Item = (&'a str, &'a Features)>,
) -> Vec<Ranked> {
    let mut ranked: Vec<Ranked> = cases
        .into_iter()
        .enumerate()
        .map(|(index, (name, f))| Ranked {
            index,
            name: name.to_string(),
            similarity: sim.distance(query, f),
        })
        .collect();
    ranked.sort_by(|a, b| {
        a.similarity
            .total_cmp(&b.similarity)
            .then_with(|| a.name.cmp(&b.name))
            .then(a.index.cmp(&b.index))
    });
    ranked
}

/// Moves the cases `preferred` (by case-base index) ahead of the others
/// of equal distance, keeping the order within each group: retrieval's
/// tie-break for a query in a metric (a case solved in it first).
pub fn prefer(ranked: &mut [Ranked], preferred: impl Fn(usize) -> bool) {
    ranked.sort_by(|a, b| {
        a.similarity
            .total_cmp(&b.similarity)
            .then_with(|| preferred(b.index).cmp(&preferred(a.index)))
    });
}

/// Cases always retrieved, when the case base has them (§6.3).
pub const RETRIEVE_AT_LEAST: usize = 3;
/// Further cases are retrieved while within this factor of the best's distance.
pub const RETRIEVE_FACTOR: f64 = 3.0;

/// How many of the ranked cases are retrieved: the three most similar, and
/// every further one whose distance is at most three times the best's.
pub fn retrieved_count(ranked: &[Ranked]) -> usize {
    let Some(best) = ranked.first() else {
        return 0;
    };
    let limit = best.similarity * RETRIEVE_FACTOR;
    ranked
        .iter()
        .enumerate()
        .take_while(|(i, r)| *i < RETRIEVE_AT_LEAST || r.similarity <= limit)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::SEARCH_SPACE_LOG10;

    #[test]
    fn a_case_in_the_asked_metric_is_retrieved_before_an_equal_one() {
        // Two cases with the same features: "a steps case" ranks first by
        // name; the moves query prefers the one retained under moves, and
        // a nearer case stays ahead of both.
        let f = features(6.0, 4.0, 2.5, 0.5, 2.0, 2.0, 20.0);
        let near = features(6.0, 4.0, 2.5, 0.5, 2.0, 2.0, 21.0);
        let cases = [("a steps case", &f), ("b moves case", &f), ("c", &near)];
        let query = features(6.0, 4.0, 2.5, 0.5, 2.0, 2.0, 21.0);
        let mut ranked = rank(&ThesisSimilarity::default(), &query, cases);
        let names = |r: &[Ranked]| r.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&ranked), ["c", "a steps case", "b moves case"]);
        prefer(&mut ranked, |i| i == 1);
        assert_eq!(names(&ranked), ["c", "b moves case", "a steps case"]);
    }

    fn features(log10: f64, ty: f64, bf: f64, rs: f64, bs: f64, sp: f64, ps: f64) -> Features {
        let mut f = Features::default();
        f.insert(SEARCH_SPACE_LOG10, Range::point(log10));
        f.insert(SEARCH_SPACE_SIZE_TYPE, Range::point(ty));
        for (n, v) in THESIS_FEATURES.iter().zip([bf, rs, bs, sp, ps]) {
            f.insert(n, Range::point(v));
        }
        f
    }

    #[test]
    fn reproduces_the_thesis_screenshot() {
        // Fig. 6.1: puzzle 04 against its own case, which differs only in the
        // search-space size (combinatorial bounds): 0.0057.
        let query = features(
            38209180095646556000f64.log10(),
            20.0,
            9.73991,
            0.96,
            2.0,
            6.0,
            56.0,
        );
        let case = features(
            110000000000000000f64.log10(),
            20.0,
            9.73991,
            0.96,
            2.0,
            6.0,
            56.0,
        );
        let s = ThesisSimilarity::default().distance(&query, &case);
        let by_hand = (38209180095646556000f64.ln() - 110000000000000000f64.ln()) / 1024.0;
        assert!((s - by_hand).abs() < 1e-12);
        assert!((s - 0.0057).abs() < 1e-4, "{s}");
    }

    #[test]
    fn manhattan_over_the_six_terms() {
        let q = features(4.0, 0.0, 3.0, 1.0, 2.0, 2.0, 20.0);
        let c = features(2.0, 10.0, 2.5, 0.5, 1.0, 4.0, 30.0);
        let a1 = (4.0 * std::f64::consts::LN_10 - 2.0 * std::f64::consts::LN_10 / 32.0).abs();
        let expected = a1 + 0.5 + 0.5 + 1.0 + 2.0 + 10.0;
        let sim = ThesisSimilarity::default();
        assert!((sim.distance(&q, &c) - expected).abs() < 1e-12);
        assert_eq!(sim.distance(&q, &c), sim.distance(&c, &q));
        assert_eq!(sim.distance(&q, &q), 0.0);
        // Extra features count only in the extended measure.
        let mut q2 = q.clone();
        q2.insert("master_distance", Range::point(5.0));
        let mut c2 = c.clone();
        c2.insert("master_distance", Range::point(1.0));
        assert_eq!(sim.distance(&q2, &c2), sim.distance(&q, &c));
        let ext = ThesisSimilarity { extended: true };
        assert!((ext.distance(&q2, &c2) - expected - 4.0).abs() < 1e-12);
    }

    #[test]
    fn retrieval_takes_three_and_those_within_three_times_the_best() {
        let r = |s: &[f64]| -> Vec<Ranked> {
            s.iter()
                .enumerate()
                .map(|(i, v)| Ranked {
                    index: i,
                    name: format!("c{i}"),
                    similarity: *v,
                })
                .collect()
        };
        assert_eq!(retrieved_count(&r(&[])), 0);
        assert_eq!(retrieved_count(&r(&[5.0, 40.0])), 2);
        assert_eq!(retrieved_count(&r(&[1.0, 10.0, 20.0, 30.0])), 3);
        assert_eq!(retrieved_count(&r(&[2.0, 3.0, 4.0, 5.0, 6.0, 6.5])), 5);
        assert_eq!(retrieved_count(&r(&[0.0, 0.0, 1.0, 2.0])), 3);
    }

    #[test]
    fn ranking_is_by_distance_then_name() {
        let q = features(4.0, 0.0, 3.0, 1.0, 2.0, 2.0, 20.0);
        let far = features(4.0, 0.0, 3.0, 1.0, 2.0, 2.0, 40.0);
        let near = features(4.0, 0.0, 3.0, 1.0, 2.0, 3.0, 20.0);
        let cases = [("far", &far), ("zz", &near), ("aa", &near)];
        let ranked = rank(&ThesisSimilarity::default(), &q, cases);
        let names: Vec<_> = ranked.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["aa", "zz", "far"]);
        assert_eq!(ranked[0].index, 2);
    }
}
