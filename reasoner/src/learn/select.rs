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

/// One case as the selector sees it: its terms and its profile, one cost
/// per setting of its [`Profiles`].
#[derive(Clone, Debug)]
pub struct Known {
    pub name: String,
    pub terms: Vec<Option<f64>>,
    /// PAR2 cost per setting, in the order of [`Profiles::settings`]
    /// (`None`: the case never tried it).
    pub costs: Vec<Option<f64>>,
    /// Its least cost over the profile (at least 1).
    pub best: f64,
}

/// The cases with a profile and the settings any of them tried, each
/// setting once and in the order of its key, so that a case's costs are a
/// row of numbers: the fit ranks every case hundreds of times over, and
/// a row indexed by setting keeps that from hashing or comparing strings.
#[derive(Clone, Debug, Default)]
pub struct Profiles {
    /// The settings' parameters, sorted by their [`key`].
    pub settings: Vec<ParamSet>,
    pub cases: Vec<Known>,
}

impl Profiles {
    /// The profiles of `cases`, those without one left out.
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a Case>) -> Profiles {
        let cases: Vec<&Case> = cases
            .into_iter()
            .filter(|c| !c.profile.is_empty())
            .collect();
        let mut index: BTreeMap<String, ParamSet> = BTreeMap::new();
        for t in cases.iter().flat_map(|c| &c.profile) {
            index
                .entry(key(&t.params))
                .or_insert_with(|| t.params.clone());
        }
        let at: BTreeMap<&str, usize> = index
            .keys()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let known = cases
            .iter()
            .map(|case| {
                let mut costs: Vec<Option<f64>> = vec![None; index.len()];
                for t in &case.profile {
                    let (c, new) = (&mut costs[at[key(&t.params).as_str()]], par2(t));
                    *c = Some(c.map_or(new, |c| c.min(new)));
                }
                let best = costs
                    .iter()
                    .flatten()
                    .copied()
                    .fold(f64::INFINITY, f64::min);
                Known {
                    name: case.name.clone(),
                    terms: terms::vector(&case.features),
                    costs,
                    best: best.max(1.0),
                }
            })
            .collect();
        Profiles {
            settings: index.into_values().collect(),
            cases: known,
        }
    }

    /// Number of cases with a profile.
    pub fn len(&self) -> usize {
        self.cases.len()
    }

    /// Whether no case has a profile.
    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
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

/// A setting's rank in the order of [`order`]: its index in
/// [`Profiles::settings`] and its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub setting: usize,
    pub score: f64,
    /// Σ w cost and Σ w over the neighbours that tried it.
    cost: f64,
    weight: f64,
    /// The nearest neighbour that tried it.
    source: usize,
}

/// The `k` cases nearest `query` under `weights` (`skip`: an index left
/// out, for leave-one-out), nearest first, with their distances; ties by
/// index.
fn nearest(
    weights: &[f64],
    k: usize,
    query: &[Option<f64>],
    p: &Profiles,
    skip: Option<usize>,
) -> Vec<(f64, usize)> {
    let mut near: Vec<(f64, usize)> = p
        .cases
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(i, c)| (terms::distance(weights, query, &c.terms), i))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.truncate(k.max(1));
    near
}

/// The settings tried by any of the `k` nearest cases, best score first
/// (ties: the setting's key). A setting's score is the weighted mean, over
/// the neighbours (weight `1 / (1 + distance)`), of `ln(cost / the
/// neighbour's best)`; a neighbour that never tried it counts as though it
/// had cost twice its best: unknown is not free.
pub fn order(
    weights: &[f64],
    k: usize,
    query: &[Option<f64>],
    p: &Profiles,
    skip: Option<usize>,
) -> Vec<Scored> {
    let near = nearest(weights, k, query, p, skip);
    let n = p.settings.len();
    // Per setting: Σ w ln ratio, Σ w cost, Σ w, nearest source.
    let mut lr = vec![0.0; n];
    let mut cost = vec![0.0; n];
    let mut weight = vec![0.0; n];
    let mut source = vec![usize::MAX; n];
    for (d, i) in &near {
        let case = &p.cases[*i];
        let w = 1.0 / (1.0 + d);
        for (s, c) in case.costs.iter().enumerate() {
            if let Some(c) = c {
                lr[s] += w * (c.max(1.0) / case.best).ln();
                cost[s] += w * c;
                weight[s] += w;
                if source[s] == usize::MAX {
                    source[s] = *i;
                }
            }
        }
    }
    let total: f64 = near.iter().map(|(d, _)| 1.0 / (1.0 + d)).sum();
    let mut out: Vec<Scored> = (0..n)
        .filter(|s| source[*s] != usize::MAX)
        .map(|s| {
            let missing = (total - weight[s]).max(0.0);
            Scored {
                setting: s,
                score: (lr[s] + missing * 2f64.ln()) / total.max(f64::MIN_POSITIVE),
                cost: cost[s],
                weight: weight[s],
                source: source[s],
            }
        })
        .collect();
    // Settings are indexed in key order, so the index breaks ties by key.
    out.sort_by(|a, b| a.score.total_cmp(&b.score).then(a.setting.cmp(&b.setting)));
    out
}

/// Settings ranked for a puzzle with terms `query`, from the `k` cases of
/// `p` nearest it under `weights` (`skip`: a case left out), as
/// [`order`] ranks them.
pub fn rank(
    weights: &[f64],
    k: usize,
    query: &[Option<f64>],
    p: &Profiles,
    skip: Option<usize>,
) -> Vec<Choice> {
    order(weights, k, query, p, skip)
        .into_iter()
        .map(|s| Choice {
            params: p.settings[s.setting].clone(),
            predicted: s.cost / s.weight,
            source: p.cases[s.source].name.clone(),
            score: s.score,
        })
        .collect()
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
        let cases = [
            profiled("a", 2.0, &bfs, &astar),
            profiled("b", 2.0, &bfs, &astar),
            profiled("c", 9.0, &astar, &bfs),
        ];
        let known = Profiles::of(&cases);
        let q = known.cases[0].terms.clone();
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
