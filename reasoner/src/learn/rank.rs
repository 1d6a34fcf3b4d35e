//! `reasoner rank`: the settings the reasoner would try first on a puzzle,
//! in order, without running them, by each retrieval: the learned
//! selector's ranking, the thesis's (or extended) most similar cases'
//! parameters, the cases in a seeded random order, or none (the general
//! settings, as with an empty case base). `experiments/transfer.py` reads
//! what these orders cost from a performance matrix.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::casebase::CaseBase;
use crate::features::FeatureReport;
use crate::params::ParamSet;
use crate::similarity::{self, Similarity};

use super::{select, LearnedSimilarity};

/// The retrievals `reasoner rank --similarity` knows.
pub const MODES: [&str; 5] = ["learned", "thesis", "extended", "random", "none"];

/// Why `learned` is refused for a case base without a fit.
const NOT_FITTED: &str =
    "the case base holds no fitted retrieval for --similarity learned: run `reasoner learn CASEBASE` first";

/// One setting of a ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub params: ParamSet,
    /// The case it comes from, or `general`.
    pub source: String,
    /// The learned selector's predicted PAR2 positions.
    pub predicted: Option<f64>,
}

/// The similarity `--similarity NAME` names for case base `cb`; with no
/// name, the learned one when `cb` has a fit, else the thesis's.
pub fn similarity_for(name: Option<&str>, cb: &CaseBase) -> Result<Box<dyn Similarity>, String> {
    match (name, &cb.learned) {
        (Some("learned") | None, Some(l)) => Ok(Box::new(LearnedSimilarity::of(l))),
        (Some("learned"), None) => Err(NOT_FITTED.to_string()),
        (None, None) => Ok(Box::new(similarity::ThesisSimilarity::default())),
        (Some(n), _) => similarity::by_name(n).ok_or_else(|| {
            format!(
                "unknown similarity {n:?}; use one of {}",
                similarity::NAMES.join(", ")
            )
        }),
    }
}

/// A seed of its own per puzzle, so that random retrieval does not hand
/// every puzzle the same case (FNV-1a of its name, mixed with `seed`).
fn puzzle_seed(seed: u64, puzzle: &str) -> u64 {
    puzzle.bytes().fold(0xcbf2_9ce4_8422_2325 ^ seed, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The settings `mode` ranks for the puzzle of `found`, best first, each
/// once (a later repeat of a setting is dropped), fluid ones only where the
/// puzzle has units.
pub fn rank(
    mode: &str,
    found: &FeatureReport,
    cb: &CaseBase,
    seed: u64,
) -> Result<Vec<Ranked>, String> {
    let f = &found.features;
    let from_case = |i: usize| Ranked {
        params: cb.cases[i].params.clone(),
        source: cb.cases[i].name.clone(),
        predicted: None,
    };
    let list: Vec<Ranked> = match mode {
        "none" => crate::plan::general_settings(
            crate::features::spaces_of(f),
            found.fluid_units,
            found.goal_fixed,
        )
        .into_iter()
        .map(|(_, params)| Ranked {
            params,
            source: "general".to_string(),
            predicted: None,
        })
        .collect(),
        "random" => {
            let mut order: Vec<usize> = (0..cb.cases.len()).collect();
            order.shuffle(&mut ChaCha8Rng::seed_from_u64(puzzle_seed(
                seed,
                &found.puzzle,
            )));
            order.into_iter().map(from_case).collect()
        }
        "learned" => {
            let l = cb.learned.as_ref().ok_or(NOT_FITTED)?;
            LearnedSimilarity::of(l)
                .choices(f, cb)
                .into_iter()
                .map(|c| Ranked {
                    params: c.params,
                    source: c.source,
                    predicted: Some(c.predicted),
                })
                .collect()
        }
        other => {
            let sim = similarity_for(Some(other), cb)?;
            let cases = cb.cases.iter().map(|c| (c.name.as_str(), &c.features));
            similarity::rank(sim.as_ref(), f, cases)
                .into_iter()
                .map(|r| from_case(r.index))
                .collect()
        }
    };
    // As the cycle does: a fluid setting only where the puzzle has units
    // for it (the solver refuses it elsewhere).
    let units = found.fluid_units;
    let mut seen = std::collections::HashSet::new();
    Ok(list
        .into_iter()
        .filter(|r| crate::plan::runs_with_units(&r.params, units))
        .filter(|r| seen.insert(select::key(&r.params)))
        .collect())
}

/// The ranking as `reasoner rank --json` prints it.
pub fn to_json(mode: &str, puzzle: &str, ranked: &[Ranked]) -> serde_json::Value {
    let settings: Vec<serde_json::Value> = ranked
        .iter()
        .map(|r| {
            serde_json::json!({
                "params": r.params,
                "args": r.params.solver_args(),
                "predicted_positions": r.predicted,
                "source": r.source,
            })
        })
        .collect();
    serde_json::json!({"similarity": mode, "puzzle": puzzle, "settings": settings})
}
