//! Ranking settings by what they cost on the nearest cases (issue 45): the
//! k cases nearest a puzzle by the learned distance each say, through their
//! performance profiles, how much every setting tried on them cost; a
//! setting's predicted cost is the distance-weighted mean of its costs
//! relative to each case's best, and settings are ranked by it. Unlike
//! replaying the nearest case's winner, one case's luck does not decide: a
//! setting that did well on all of the k beats one that won narrowly on one.

use std::collections::BTreeMap;

use crate::casebase::schema::Trial;
use crate::casebase::Case;
use crate::params::ParamSet;

use super::terms;

/// A setting's PAR2 cost on a case: its positions when it solved the puzzle,
/// twice its position limit (or twice what it examined, unlimited) when not.
pub fn par2(t: &Trial) -> f64 {
    if t.status == sbp_protocol::Status::Solved {
        t.positions as f64
    } else {
        2.0 * t.limit.unwrap_or(t.positions).max(t.positions) as f64
    }
}

/// The identity of a setting within profiles: its JSON, which holds every
/// parameter the solver is given.
pub fn key(p: &ParamSet) -> String {
    serde_json::to_string(p).unwrap_or_else(|_| p.to_string())
}

/// One case as the selector sees it: its terms and its profile by setting.
#[derive(Clone, Debug)]
pub struct Known {
    pub name: String,
    pub terms: Vec<Option<f64>>,
    /// Setting key -> (params, PAR2 cost).
    pub costs: BTreeMap<String, (ParamSet, f64)>,
    /// Its least cost over the profile (at least 1).
    pub best: f64,
}

impl Known {
    /// A case with a non-empty profile (`None` without one).
    pub fn of(case: &Case) -> Option<Known> {
        let mut costs: BTreeMap<String, (ParamSet, f64)> = BTreeMap::new();
        for t in &case.profile {
            let c = par2(t);
            let e = costs.entry(key(&t.params)).or_insert((t.params.clone(), c));
            e.1 = e.1.min(c);
        }
        let best = costs
            .values()
            .map(|(_, c)| *c)
            .fold(f64::INFINITY, f64::min);
        (!costs.is_empty()).then(|| Known {
            name: case.name.clone(),
            terms: terms::vector(&case.features),
            costs,
            best: best.max(1.0),
        })
    }
}

/// A ranked setting: its parameters, its predicted PAR2 positions (the
/// weighted mean over the neighbours that tried it) and the nearest case
/// that tried it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub params: ParamSet,
    pub predicted: f64,
    pub source: String,
    /// The weighted mean of `ln(cost / case best)`: what ranks it.
    pub score: f64,
}

/// Settings ranked for a puzzle with terms `query`, from the `k` cases of
/// `known` nearest it under `weights` (`skip`: an index left out, for
/// leave-one-out). Ties: by score, then the setting's key.
pub fn rank(
    weights: &[f64],
    k: usize,
    query: &[Option<f64>],
    known: &[Known],
    skip: Option<usize>,
) -> Vec<Choice> {
    let mut near: Vec<(f64, usize)> = known
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(i, c)| (terms::distance(weights, query, &c.terms), i))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.truncate(k.max(1));
    // Setting key -> (params, Σ w ln ratio, Σ w cost, Σ w, nearest source).
    let mut acc: BTreeMap<&str, (&ParamSet, f64, f64, f64, &str)> = BTreeMap::new();
    for (d, i) in &near {
        let case = &known[*i];
        let w = 1.0 / (1.0 + d);
        for (k, (p, c)) in &case.costs {
            let e = acc.entry(k).or_insert((p, 0.0, 0.0, 0.0, &case.name));
            e.1 += w * (c.max(1.0) / case.best).ln();
            e.2 += w * c;
            e.3 += w;
        }
    }
    // A setting tried by few of the neighbours is predicted from those
    // alone, but pays for the neighbours that never tried it as though it
    // had cost them twice their best: unknown is not free.
    let total: f64 = near.iter().map(|(d, _)| 1.0 / (1.0 + d)).sum();
    let mut out: Vec<(String, Choice)> = acc
        .into_iter()
        .map(|(k, (p, lr, c, w, src))| {
            let missing = (total - w).max(0.0);
            let score = (lr + missing * 2f64.ln()) / total.max(f64::MIN_POSITIVE);
            let choice = Choice {
                params: p.clone(),
                predicted: c / w,
                source: src.to_string(),
                score,
            };
            (k.to_string(), choice)
        })
        .collect();
    out.sort_by(|a, b| a.1.score.total_cmp(&b.1.score).then_with(|| a.0.cmp(&b.0)));
    out.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::casebase::{FoundBy, Outcome, Provenance};
    use crate::features::{Features, Range};
    use crate::params::Algorithm;
    use sbp_protocol::Status;

    pub fn trial(p: &ParamSet, solved: bool, positions: u64) -> Trial {
        Trial {
            params: p.clone(),
            status: if solved {
                Status::Solved
            } else {
                Status::LimitReached
            },
            positions,
            limit: Some(1000),
            seconds: None,
            length: None,
        }
    }

    pub fn algo(a: Algorithm) -> ParamSet {
        ParamSet {
            algorithm: a,
            ..ParamSet::default()
        }
    }

    /// A case with `spaces` spaces on which `good` costs 10 and `bad` fails.
    pub fn profiled(name: &str, spaces: f64, good: &ParamSet, bad: &ParamSet) -> Case {
        let mut features = Features::default();
        features.insert("num_of_spaces", Range::point(spaces));
        features.insert("puzzle_size", Range::point(20.0));
        features.insert("block_size", Range::point(1.5));
        Case {
            name: name.to_string(),
            comment: None,
            provenance: Provenance::default(),
            features,
            params: good.clone(),
            outcome: Outcome {
                steps: None,
                moves: None,
                positions_examined: Some(10),
                found_by: FoundBy::HandTuned,
                found_at: None,
            },
            profile: vec![trial(good, true, 10), trial(bad, false, 1000)],
        }
    }

    #[test]
    fn the_neighbours_cheapest_setting_ranks_first() {
        let (bfs, astar) = (algo(Algorithm::Bfs), algo(Algorithm::Astar));
        let known: Vec<Known> = [
            profiled("a", 2.0, &bfs, &astar),
            profiled("b", 2.0, &bfs, &astar),
            profiled("c", 9.0, &astar, &bfs),
        ]
        .iter()
        .filter_map(Known::of)
        .collect();
        let q = known[0].terms.clone();
        let w = terms::thesis_weights();
        let r = rank(&w, 2, &q, &known, Some(0));
        assert_eq!(r[0].params, bfs, "b, nearest, says BFS");
        assert_eq!(r[0].source, "b");
        // Its predicted cost: 10 on b (weight 1), failed on c (2 x 1000,
        // weight 1/(1+7)).
        assert!((r[0].predicted - (10.0 + 2000.0 / 8.0) / (1.0 + 1.0 / 8.0)).abs() < 1e-9);
        // With k = 3 the two near cases still outvote the far one.
        assert_eq!(rank(&w, 3, &q, &known, None)[0].params, bfs);
        assert_eq!(par2(&trial(&bfs, false, 5)), 2000.0);
    }
}
