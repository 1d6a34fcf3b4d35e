//! Which cases the cycle reuses (`--retrieval`): the most similar ones (the
//! thesis's retrieval, §6.3), one case drawn at random, or none at all.
//!
//! The last two exist for the ablations of `experiments/` (issue 18): they
//! keep the rest of the cycle (reuse, proximity search, final run) as it is,
//! so that a difference in what the reasoner solves is retrieval's doing.
//! With `none` the cycle starts from the thesis's four general settings, as
//! with an empty case base. The random case is drawn from the seed alone, so
//! a run stays reproducible.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::similarity::Ranked;

/// How the cycle picks the cases it reuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Retrieval {
    /// The most similar cases by `--similarity` (the thesis's retrieval).
    #[default]
    Similar,
    /// One case drawn uniformly at random, from the seed.
    Random,
    /// No case: the general settings stand in, as with an empty case base.
    None,
}

/// Names accepted by [`Retrieval::by_name`], in the order of the variants.
pub const NAMES: [&str; 3] = ["similar", "random", "none"];

/// Mixed into the seed so that the random case does not follow the
/// proximity search's first draw.
const STREAM: u64 = 0x7265_7472_6965_7665;

impl Retrieval {
    /// The mode called `name` on the command line.
    pub fn by_name(name: &str) -> Option<Retrieval> {
        match name {
            "similar" => Some(Retrieval::Similar),
            "random" => Some(Retrieval::Random),
            "none" => Some(Retrieval::None),
            _ => None,
        }
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Retrieval::Similar => NAMES[0],
            Retrieval::Random => NAMES[1],
            Retrieval::None => NAMES[2],
        }
    }

    /// Applies the mode to the cases `ranked` by similarity, of which the
    /// first `retrieved` are the similar ones: returns the ranking with the
    /// reused cases first, and how many are reused.
    pub fn pick(
        self,
        mut ranked: Vec<Ranked>,
        retrieved: usize,
        seed: u64,
    ) -> (Vec<Ranked>, usize) {
        match self {
            Retrieval::Similar => (ranked, retrieved),
            Retrieval::None => (ranked, 0),
            Retrieval::Random if ranked.is_empty() => (ranked, 0),
            Retrieval::Random => {
                let i = ChaCha8Rng::seed_from_u64(seed ^ STREAM).gen_range(0..ranked.len());
                let chosen = ranked.remove(i);
                ranked.insert(0, chosen);
                (ranked, 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(n: usize) -> Vec<Ranked> {
        (0..n)
            .map(|i| Ranked {
                index: i,
                name: format!("case{i}"),
                similarity: i as f64,
            })
            .collect()
    }

    #[test]
    fn names_round_trip() {
        for name in NAMES {
            assert_eq!(Retrieval::by_name(name).unwrap().name(), name);
        }
        assert_eq!(Retrieval::by_name("thesis"), None);
    }

    #[test]
    fn similar_keeps_the_ranking_and_none_reuses_nothing() {
        assert_eq!(Retrieval::Similar.pick(ranked(5), 3, 1), (ranked(5), 3));
        assert_eq!(Retrieval::None.pick(ranked(5), 3, 1), (ranked(5), 0));
        assert_eq!(Retrieval::Random.pick(ranked(0), 0, 1), (ranked(0), 0));
    }

    #[test]
    fn random_reuses_one_case_chosen_by_the_seed() {
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let (order, n) = Retrieval::Random.pick(ranked(6), 3, seed);
            assert_eq!(n, 1);
            // The same seed picks the same case; every case is kept once.
            assert_eq!(Retrieval::Random.pick(ranked(6), 3, seed).0, order);
            let mut names: Vec<&str> = order.iter().map(|r| r.name.as_str()).collect();
            names.sort();
            assert_eq!(
                names,
                ["case0", "case1", "case2", "case3", "case4", "case5"]
            );
            firsts.insert(order[0].index);
        }
        // Over 40 seeds every one of the 6 cases is drawn, not only the nearest.
        assert_eq!(firsts.len(), 6, "{firsts:?}");
    }
}
