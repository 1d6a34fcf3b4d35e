//! What `no_solution` results have taught (thesis §9.2.1): the forbidden
//! regions of the parameter space, over the prunings the solver declares.
//!
//! Pruning only removes positions, and in every pruning's kind each step
//! away from off prunes more (a smaller cutoff keeps a subset of the
//! positions of a larger one), so a `no_solution` under settings `P` proves
//! that a set `Q` with the same metric fails too when `Q` prunes at least
//! as much as `P` in every cutoff and, in every pruning with levels or a
//! switch, `P` is off or `Q` has the same setting. A run with such a pruning
//! on says nothing about its other settings, because that pruning may itself
//! have cut the solution (§9.2.2); a run with it off speaks for all of them
//! (the thesis's single lower bound on the space value). A `no_solution`
//! with every pruning off proves the puzzle has no solution at all.

use std::collections::BTreeMap;

use sbp_protocol::pruning::{PruningInfo, PruningKind, Setting};

use crate::params::{Metric, ParamSet};
use crate::space::Space;

/// The settings of the runs that found no solution, and the prunings they
/// are read against.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bounds {
    prunings: Vec<PruningInfo>,
    /// Each failed run's metric and every pruning's setting, in the order of
    /// `prunings`.
    failed: Vec<(Metric, Vec<Setting>)>,
    /// A run without any pruning found no solution.
    pub unsolvable: bool,
}

/// Whether `q` prunes at least as much as `p` in a cutoff (off prunes least;
/// a smaller cutoff more), or, for levels and switches, `p` is off or equal.
fn covers(info: &PruningInfo, p: &Setting, q: &Setting) -> bool {
    match (p, q) {
        (Setting::Cutoff(None), _) => true,
        (Setting::Cutoff(Some(n)), Setting::Cutoff(Some(m))) => m <= n,
        (Setting::Cutoff(Some(_)), _) => false,
        _ => *p == info.off() || p == q,
    }
}

impl Bounds {
    /// No lesson yet, over these prunings.
    pub fn new(prunings: Vec<PruningInfo>) -> Bounds {
        Bounds {
            prunings,
            ..Bounds::default()
        }
    }

    fn point(&self, p: &ParamSet) -> Vec<Setting> {
        self.prunings.iter().map(|i| Space::setting(i, p)).collect()
    }

    /// Learns from a `no_solution` result of `params`.
    pub fn learn_no_solution(&mut self, params: &ParamSet) {
        let point = self.point(params);
        if self.prunings.iter().zip(&point).all(|(i, s)| *s == i.off()) {
            self.unsolvable = true;
        }
        self.failed.push((params.metric, point));
    }

    /// The failed runs whose lesson applies to `q` in every pruning but
    /// the one at `skip`.
    fn covering<'a>(
        &'a self,
        q: &'a ParamSet,
        skip: Option<usize>,
    ) -> impl Iterator<Item = &'a Vec<Setting>> + 'a {
        let at = self.point(q);
        self.failed
            .iter()
            .filter(move |(m, _)| *m == q.metric)
            .map(|(_, p)| p)
            .filter(move |p| {
                (0..p.len())
                    .filter(|k| Some(*k) != skip)
                    .all(|k| covers(&self.prunings[k], &p[k], &at[k]))
            })
    }

    /// Whether a set lies in a forbidden region.
    pub fn forbids(&self, params: &ParamSet) -> bool {
        self.covering(params, None).next().is_some()
    }

    /// Smallest cutoff `json` may have in `params` (its other settings as
    /// they are) not known to fail; `u64::MAX`: none, not even off, can
    /// solve; 0 for a pruning that is not a cutoff.
    pub fn cutoff_min(&self, json: &str, params: &ParamSet) -> u64 {
        let Some(k) = self.prunings.iter().position(|i| i.json == json) else {
            return 0;
        };
        self.covering(params, Some(k))
            .map(|p| match p[k] {
                Setting::Cutoff(Some(n)) => n.saturating_add(1),
                Setting::Cutoff(None) => u64::MAX,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// The nearest allowed set: every cutoff that is on raised to its bound.
    /// `None` when no cutoff can help under these settings.
    pub fn lift(&self, params: &ParamSet) -> Option<ParamSet> {
        let mut p = params.clone();
        for info in &self.prunings {
            let PruningKind::Cutoff { .. } = info.kind else {
                continue;
            };
            let min = self.cutoff_min(&info.json, &p);
            if min == u64::MAX {
                return None;
            }
            if let Setting::Cutoff(Some(v)) = Space::setting(info, &p) {
                let raised = Setting::Cutoff(Some(v.max(min)));
                p.settings.set(&info.json, Space::stored(&raised));
            }
        }
        (!self.forbids(&p)).then_some(p)
    }

    /// For reports: per cutoff, the smallest value still allowed (steps
    /// metric) with every other pruning off, and with each other pruning
    /// alone at each of its settings (`resting=strict`); `None`: no cutoff
    /// can solve there.
    pub fn summary(&self) -> BTreeMap<String, BTreeMap<String, Option<u64>>> {
        let mut out = BTreeMap::new();
        for cutoff in &self.prunings {
            let PruningKind::Cutoff { .. } = cutoff.kind else {
                continue;
            };
            let mut rows = BTreeMap::new();
            let mut at = |label: String, p: &ParamSet| {
                let v = self.cutoff_min(&cutoff.json, p);
                rows.insert(label, (v != u64::MAX).then_some(v));
            };
            at("others off".to_string(), &ParamSet::default());
            for other in &self.prunings {
                let settings = match &other.kind {
                    PruningKind::Levels { levels } => levels
                        .iter()
                        .skip(1)
                        .map(|l| Setting::Level(l.clone()))
                        .collect(),
                    PruningKind::Switch => vec![Setting::Switch(true)],
                    PruningKind::Cutoff { .. } => Vec::new(),
                };
                for s in settings {
                    let mut p = ParamSet::default();
                    p.settings.set(&other.json, Space::stored(&s));
                    at(format!("{}={s}", other.json), &p);
                }
            }
            out.insert(cutoff.json.clone(), rows);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Value;

    fn sv(v: Option<u64>, r: &str) -> ParamSet {
        let p = ParamSet::default().with("resting", Value::Text(r.into()));
        match v {
            Some(v) => p.with("space_value", Value::Whole(v)),
            None => p,
        }
    }

    #[test]
    fn no_solution_raises_the_space_value_bound() {
        let mut b = Bounds::new(crate::space::tests::fixture().prunings);
        assert!(!b.forbids(&sv(Some(3), "off")));
        b.learn_no_solution(&sv(Some(10), "off"));
        assert!(b.forbids(&sv(Some(10), "off")));
        assert!(b.forbids(&sv(Some(7), "strict")));
        assert!(!b.forbids(&sv(Some(11), "off")));
        assert!(!b.forbids(&sv(None, "off")));
        assert_eq!(b.lift(&sv(Some(4), "off")), Some(sv(Some(11), "off")));
        // Strict pruning's failure says nothing about the other settings.
        b.learn_no_solution(&sv(Some(20), "strict"));
        assert!(b.forbids(&sv(Some(20), "strict")));
        assert!(!b.forbids(&sv(Some(20), "relaxed")));
        // Never lowered.
        b.learn_no_solution(&sv(Some(5), "off"));
        assert_eq!(b.cutoff_min("space_value", &sv(None, "off")), 11);
        // Cutoff off and relaxed pruning failing forbids relaxed entirely.
        b.learn_no_solution(&sv(None, "relaxed"));
        assert!(b.forbids(&sv(None, "relaxed")));
        assert_eq!(b.lift(&sv(Some(30), "relaxed")), None);
        assert!(!b.unsolvable);
        let summary = &b.summary()["space_value"];
        assert_eq!(summary["others off"], Some(11));
        assert_eq!(summary["resting=strict"], Some(21));
        assert_eq!(summary["resting=relaxed"], None);
        b.learn_no_solution(&sv(None, "off"));
        assert!(b.unsolvable);
    }

    /// A second declared cutoff is learnt the same way, and a run with it
    /// on says nothing about the space value's bound with it off.
    #[test]
    fn every_declared_cutoff_has_its_own_bound() {
        let prunings = crate::space::tests::fixture().prunings;
        let second = prunings
            .iter()
            .filter(|p| matches!(p.kind, PruningKind::Cutoff { .. }))
            .nth(1)
            .expect("the solver declares a second cutoff")
            .json
            .clone();
        let mut b = Bounds::new(prunings);
        let radius = |r: u64| sv(Some(30), "off").with(&second, Value::Whole(r));
        b.learn_no_solution(&radius(3));
        assert!(b.forbids(&radius(2)) && b.forbids(&radius(3)));
        assert!(!b.forbids(&radius(4)));
        assert!(!b.forbids(&sv(Some(30), "off")));
        assert_eq!(b.cutoff_min(&second, &radius(1)), 4);
        // Lifting raises the cutoffs in declaration order: the space value
        // first, which already leaves the region.
        let lifted = b.lift(&radius(1)).unwrap();
        assert!(!b.forbids(&lifted), "{lifted}");
    }
}
