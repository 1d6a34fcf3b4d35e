//! Retrieval that learns (issue 45): a similarity whose term weights are
//! fitted to the case base ([`fit`]), and a selector that ranks settings by
//! their cost on the nearest cases' performance profiles ([`select`])
//! rather than replaying one case's winner. `reasoner learn` stores the fit
//! in the case base (`[learned]`); `reasoner solve` and `reasoner rank` use
//! it by default when it is there.

pub mod fit;
pub mod rank;
pub mod select;
pub mod terms;

use crate::casebase::schema::Learned;
use crate::casebase::CaseBase;
use crate::features::Features;
use crate::params::ParamSet;
use crate::similarity::Similarity;

pub use select::{Choice, Known, Profiles};

/// The learned similarity: the weights of a fit over [`terms`].
#[derive(Clone, Debug)]
pub struct LearnedSimilarity {
    pub weights: Vec<f64>,
    pub k: usize,
}

impl LearnedSimilarity {
    /// The similarity a case base's fit describes (terms it does not name
    /// weigh 0, so a fit from an older term list still reads).
    pub fn of(l: &Learned) -> LearnedSimilarity {
        let weights = terms::names()
            .iter()
            .map(|n| l.weights.get(*n).copied().unwrap_or(0.0))
            .collect();
        LearnedSimilarity {
            weights,
            k: l.k.max(1) as usize,
        }
    }

    /// The fit as the case base stores it.
    pub fn to_learned(&self, cases: u64) -> Learned {
        Learned {
            weights: terms::names()
                .into_iter()
                .map(str::to_string)
                .zip(self.weights.iter().copied())
                .collect(),
            k: self.k as u32,
            cases,
            fitted_at: Some(crate::casebase::schema::utc_now()),
        }
    }

    /// The settings ranked for a puzzle of features `query` from the cases
    /// of `cb` with profiles, cheapest predicted first.
    pub fn choices(&self, query: &Features, cb: &CaseBase) -> Vec<Choice> {
        select::rank(
            &self.weights,
            self.k,
            &terms::vector(query),
            &known(cb),
            None,
        )
    }
}

impl Similarity for LearnedSimilarity {
    fn name(&self) -> &'static str {
        "learned"
    }

    fn terms(&self, q: &Features, c: &Features) -> Vec<(&'static str, f64)> {
        let (a, b) = (terms::vector(q), terms::vector(c));
        terms::names()
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                let w = self.weights[i];
                let d = match (a[i], b[i]) {
                    (Some(x), Some(y)) if w != 0.0 => w * (x - y).abs(),
                    _ => 0.0,
                };
                (n, d)
            })
            .collect()
    }

    fn settings(&self, query: &Features, cb: &CaseBase) -> Option<Vec<(String, ParamSet)>> {
        Some(
            self.choices(query, cb)
                .into_iter()
                .map(|c| (format!("learned: {}", c.source), c.params))
                .collect(),
        )
    }
}

/// The cases of `cb` with a profile, as the selector sees them.
fn known(cb: &CaseBase) -> Profiles {
    Profiles::of(&cb.cases)
}

/// Fits the learned similarity to `cb`'s cases with profiles; `None` when
/// fewer than two have one.
pub fn fit_casebase(cb: &CaseBase) -> Option<(LearnedSimilarity, fit::Fit, usize)> {
    let known = known(cb);
    if known.len() < 2 {
        return None;
    }
    let f = fit::fit(&known);
    let sim = LearnedSimilarity {
        weights: f.weights.clone(),
        k: f.k,
    };
    Some((sim, f, known.len()))
}
