//! The parameter space the reasoner searches (thesis §3.2.1, §5.5), the
//! distance between two parameter sets (§5.4) and the forbidden regions
//! learnt from `no_solution` results (§6.3, §9.2.1).
//!
//! # Parameters
//!
//! | parameter     | values                                   | solver flag       |
//! |---------------|------------------------------------------|-------------------|
//! | `algorithm`   | `bfs`, `astar` (cases may also say `ida`, `bidir`) | `--algorithm` |
//! | `heuristic`   | the solver's registered heuristics       | `--heuristic`     |
//! | `weight`      | real (`f = g + weight * h`)              | `--weight`        |
//! | `h2`          | three reals `[A, B, C]`                  | `--h2 A,B,C`      |
//! | `space_value` | integer cutoff, or absent for off        | `--space-value`   |
//! | `pdb_memory`  | bytes of `pdb`'s tables, or absent for the solver's default | `--pdb-memory` |
//!
//! The names, defaults and valid ranges are the solver's, declared once in
//! the vocabulary crate `sbp-protocol` (see the range table in `docs/search.md`); case bases
//! are checked against them and the proximity search stays inside them.
//! | `resting`     | `off`, `relaxed`, `strict`               | `--resting`       |
//! | `metric`      | `steps`, `moves` (never changed by the search) | `--metric`  |
//!
//! The thesis drops IDA*, "master never away", subgoals and locked blocks from
//! the meta-level (§5.5); so does this parameter space. Its heuristics are
//! whatever the solver registers (`solver heuristics --json`, read at the
//! start of each cycle): beyond the thesis's h0/h1/h2 that includes
//! `manhattan`, which sliding-tile puzzles need. A parameter set is kept
//! in [normal form](ParamSet::normalized): an uninformed algorithm carries
//! the default heuristic settings, `h2` weights are only kept with `h2`, and
//! `pdb_memory` only with `pdb` (and absent when it is the solver's default).
//!
//! # Distance
//!
//! One "reasonable change" of one parameter costs one unit (§5.4); the
//! distance between two sets is the sum over parameters:
//!
//! * `algorithm`: 1 if different.
//! * `heuristic`: 1 if different, counted only when both sets use an
//!   informed algorithm (A*, IDA*); the heuristic of BFS is meaningless.
//! * `weight` and each of the three `h2` weights: `|u(a) - u(b)|` with
//!   `u(x) = log2(1 + x)`, so that doubling a weight costs about one unit
//!   whatever its size (1 → 3 → 7 → 15 costs one unit a step). The weight
//!   counts only when both sets are informed; the `h2` weights only when both
//!   use `h2`.
//! * `pdb_memory`: `|log2(a) - log2(b)|` (halving or doubling the tables'
//!   memory costs one unit), only when both sets are informed and use `pdb`;
//!   absent counts as the solver's default.
//! * `space_value`: `|a - b|` (the thesis: changing the cutoff by one costs
//!   one unit). Turning the cutoff on or off costs [`SPACE_VALUE_TOGGLE`] units.
//! * `resting`: `off` = 0, `relaxed` = 1, `strict` = 2; the difference.
//! * `metric`: 1 if different.
//!
//! The function is symmetric and zero only for equal normal forms; it is not a
//! metric (the on/off cost ignores the cutoff's value), which the proximity
//! search does not need.

use std::fmt;

use sbp_protocol::ranges;
use serde::{Deserialize, Serialize};

pub use sbp_protocol::{Algorithm, Heuristic, Metric, Resting};

/// Cost of turning the space-value cutoff on or off.
pub const SPACE_VALUE_TOGGLE: f64 = 2.0;

/// Default `h2` weights (the solver's defaults).
pub const DEFAULT_H2: [f64; 3] = ranges::H2_DEFAULT;

/// The solver's `--pdb-memory` when none is given.
pub const DEFAULT_PDB_MEMORY: u64 = ranges::PDB_MEMORY_DEFAULT;

fn default_weight() -> f64 {
    sbp_protocol::SearchParams::default().weight
}
fn default_h2() -> [f64; 3] {
    DEFAULT_H2
}

/// One point of the parameter space: everything the reasoner passes to
/// `solver solve`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSet {
    pub algorithm: Algorithm,
    #[serde(default)]
    pub heuristic: Heuristic,
    #[serde(default = "default_weight")]
    pub weight: f64,
    #[serde(default = "default_h2")]
    pub h2: [f64; 3],
    /// Space-value cutoff; absent (TOML) or `null` (JSON) is off.
    #[serde(default)]
    pub space_value: Option<u64>,
    /// Bytes the `pdb` heuristic's tables may take; absent is the solver's
    /// default (and left out when written, so other sets read as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb_memory: Option<u64>,
    #[serde(default)]
    pub resting: Resting,
    #[serde(default)]
    pub metric: Metric,
    /// The easier variant whose solution gave the subgoals (variant phase,
    /// see `variant.rs`); absent for a direct search. Not a solver flag and
    /// not counted by the distance: it says how the puzzle was cut up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Recipe>,
}

/// How the variant phase derives subgoals: remove `remove` blocks, the
/// most obstructing (`pick = "most"`, the order of `solver variant --rank`)
/// or the least (`"least"`: a gentler variant, closer to the puzzle), solve
/// that variant, and take a subgoal after every `every` moves of its
/// solution fixing `fix` (`all` kept blocks or the `master` alone).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    #[serde(default = "most")]
    pub pick: String,
    pub remove: usize,
    pub every: usize,
    pub fix: String,
}

fn most() -> String {
    "most".to_string()
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "remove {} {} obstructing, subgoal every {} fixing {}",
            self.remove, self.pick, self.every, self.fix
        )
    }
}

impl Default for ParamSet {
    fn default() -> Self {
        ParamSet {
            algorithm: Algorithm::default(),
            heuristic: Heuristic::default(),
            weight: default_weight(),
            h2: DEFAULT_H2,
            space_value: None,
            pdb_memory: None,
            resting: Resting::Off,
            metric: Metric::Steps,
            variant: None,
        }
    }
}

/// `log2(1 + x)`: the scale on which real-valued weights are compared.
fn weight_scale(x: f64) -> f64 {
    (1.0 + x.max(0.0)).log2()
}

impl ParamSet {
    /// The same search with irrelevant settings reset to their defaults, so
    /// that two sets that run the same search compare equal.
    pub fn normalized(mut self) -> Self {
        if !self.algorithm.informed() {
            self.heuristic = Heuristic::default();
            self.weight = default_weight();
        }
        if !self.heuristic.takes_h2_weights() {
            self.h2 = DEFAULT_H2;
        }
        if !self.heuristic.takes_pdb_memory() || self.pdb_memory == Some(DEFAULT_PDB_MEMORY) {
            self.pdb_memory = None;
        }
        self
    }

    /// The bytes `pdb`'s tables get under these settings.
    pub fn pdb_bytes(&self) -> u64 {
        self.pdb_memory.unwrap_or(DEFAULT_PDB_MEMORY)
    }

    /// Checks the values a case base or command line may get wrong against
    /// the ranges the solver accepts (declared in `sbp-protocol`).
    pub fn validate(&self) -> Result<(), String> {
        ranges::weight().check(self.weight)?;
        for w in self.h2 {
            ranges::h2().check(w)?;
        }
        if let Some(m) = self.pdb_memory {
            ranges::pdb_memory().check(m as f64)?;
        }
        Ok(())
    }

    /// The distance of §5.4 as documented in the module.
    pub fn distance(&self, other: &ParamSet) -> f64 {
        let a = self.clone().normalized();
        let b = other.clone().normalized();
        let mut d = 0.0;
        if a.algorithm != b.algorithm {
            d += 1.0;
        }
        if a.algorithm.informed() && b.algorithm.informed() {
            if a.heuristic != b.heuristic {
                d += 1.0;
            }
            d += (weight_scale(a.weight) - weight_scale(b.weight)).abs();
            if a.heuristic.takes_h2_weights() && b.heuristic.takes_h2_weights() {
                for k in 0..3 {
                    d += (weight_scale(a.h2[k]) - weight_scale(b.h2[k])).abs();
                }
            }
            if a.heuristic.takes_pdb_memory() && b.heuristic.takes_pdb_memory() {
                d += ((a.pdb_bytes() as f64).log2() - (b.pdb_bytes() as f64).log2()).abs();
            }
        }
        d += match (a.space_value, b.space_value) {
            (None, None) => 0.0,
            (Some(x), Some(y)) => x.abs_diff(y) as f64,
            _ => SPACE_VALUE_TOGGLE,
        };
        d += a.resting.level().abs_diff(b.resting.level()) as f64;
        if a.metric != b.metric {
            d += 1.0;
        }
        d
    }

    /// The `solver solve` flags for this set (normal form).
    pub fn solver_args(&self) -> Vec<String> {
        let p = self.clone().normalized();
        let mut args = vec!["--algorithm".to_string(), p.algorithm.name().to_string()];
        if p.algorithm.informed() {
            args.extend([
                "--heuristic".to_string(),
                p.heuristic.name().to_string(),
                "--weight".to_string(),
                format_real(p.weight),
            ]);
            if p.heuristic.takes_h2_weights() {
                args.push("--h2".to_string());
                args.push(
                    p.h2.iter()
                        .map(|w| format_real(*w))
                        .collect::<Vec<_>>()
                        .join(","),
                );
            }
            if let Some(m) = p.pdb_memory {
                args.push("--pdb-memory".to_string());
                args.push(m.to_string());
            }
        }
        if let Some(v) = p.space_value {
            args.push("--space-value".to_string());
            args.push(v.to_string());
        }
        args.push("--resting".to_string());
        args.push(p.resting.name().to_string());
        args.push("--metric".to_string());
        args.push(p.metric.name().to_string());
        args
    }
}

/// Shortest decimal form of a real (`3` rather than `3.0`).
pub fn format_real(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A compact one-line description, e.g. `astar h2 w3 (6,16,2) sv14 rest:strict`.
impl fmt::Display for ParamSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.clone().normalized();
        write!(f, "{}", p.algorithm.name())?;
        if p.algorithm.informed() {
            write!(f, " {} w{}", p.heuristic.name(), format_real(p.weight))?;
            if p.heuristic.takes_h2_weights() {
                write!(
                    f,
                    " ({},{},{})",
                    format_real(p.h2[0]),
                    format_real(p.h2[1]),
                    format_real(p.h2[2])
                )?;
            }
            if let Some(m) = p.pdb_memory {
                write!(f, " mem{}", ranges::show_bytes(m))?;
            }
        }
        match p.space_value {
            Some(v) => write!(f, " sv{v}")?,
            None => write!(f, " sv-off")?,
        }
        if p.resting != Resting::Off {
            write!(f, " rest:{}", p.resting.name())?;
        }
        if p.metric != Metric::Steps {
            write!(f, " {}", p.metric.name())?;
        }
        if let Some(r) = &p.variant {
            write!(f, " variant({r})")?;
        }
        Ok(())
    }
}

/// What `no_solution` results have taught about the space-value cutoff
/// (§9.2.1): for each metric and resting-block setting, the smallest cutoff
/// not yet known to lose every solution.
///
/// Pruning only removes positions, and a larger cutoff keeps a superset of
/// the positions of a smaller one, so a `no_solution` with cutoff `n`
/// proves that every cutoff `<= n` fails under the same metric and the same
/// or stricter pruning. A run without resting-block pruning raises the bound
/// of every resting setting (the thesis's single lower bound); a run with
/// resting-block pruning raises only its own, because that pruning may itself
/// have cut the solution (§9.2.2). A `no_solution` with the cutoff off forbids
/// that resting setting altogether; with resting pruning off too it proves
/// the puzzle has no solution at all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// `[metric][resting]`: smallest allowed cutoff; `u64::MAX` = no cutoff
    /// (not even off) can solve under this setting.
    space_value_min: [[u64; 3]; 2],
    /// A run without any solution-losing pruning found no solution.
    pub unsolvable: bool,
}

impl Bounds {
    /// Smallest allowed cutoff for this metric and resting setting.
    pub fn space_value_min(&self, metric: Metric, resting: Resting) -> u64 {
        self.space_value_min[metric as usize][resting.level()]
    }

    /// Learns from a `no_solution` result of `params`.
    pub fn learn_no_solution(&mut self, params: &ParamSet) {
        let m = params.metric as usize;
        let raised = match params.space_value {
            Some(n) => n.saturating_add(1),
            None => u64::MAX,
        };
        let levels: &[Resting] = if params.resting == Resting::Off {
            Resting::ALL
        } else {
            std::slice::from_ref(&params.resting)
        };
        for r in levels {
            let slot = &mut self.space_value_min[m][r.level()];
            *slot = (*slot).max(raised);
        }
        if params.space_value.is_none() && params.resting == Resting::Off {
            self.unsolvable = true;
        }
    }

    /// Whether a set lies in a forbidden region (a cutoff known to fail).
    pub fn forbids(&self, params: &ParamSet) -> bool {
        let min = self.space_value_min(params.metric, params.resting);
        match params.space_value {
            _ if min == u64::MAX => true,
            Some(v) => v < min,
            None => false,
        }
    }

    /// The nearest allowed set: the cutoff raised to the bound. `None` when
    /// no cutoff can help under this setting.
    pub fn lift(&self, params: &ParamSet) -> Option<ParamSet> {
        let min = self.space_value_min(params.metric, params.resting);
        if min == u64::MAX {
            return None;
        }
        let mut p = params.clone();
        if let Some(v) = p.space_value {
            p.space_value = Some(v.max(min));
        }
        Some(p)
    }

    /// The bounds per resting setting for the given metric, for reports.
    pub fn summary(&self, metric: Metric) -> Vec<(Resting, Option<u64>)> {
        Resting::ALL
            .iter()
            .map(|r| {
                let v = self.space_value_min(metric, *r);
                (*r, (v != u64::MAX).then_some(v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn astar(h: &str, w: f64) -> ParamSet {
        ParamSet {
            algorithm: Algorithm::Astar,
            heuristic: h.into(),
            weight: w,
            ..ParamSet::default()
        }
    }

    #[test]
    fn distance_counts_unit_steps() {
        let bfs = ParamSet::default();
        assert_eq!(bfs.distance(&bfs), 0.0);
        // Algorithm change: 1, and BFS's heuristic settings do not count.
        let a = astar("h2", 7.0);
        assert_eq!(bfs.distance(&a), 1.0);
        // Heuristic change: 1.
        assert_eq!(astar("h0", 3.0).distance(&astar("h1", 3.0)), 1.0);
        // Weight: log2(1+w), so 1 -> 3 -> 7 are one unit apart each.
        assert!((astar("h0", 1.0).distance(&astar("h0", 3.0)) - 1.0).abs() < 1e-12);
        assert!((astar("h0", 3.0).distance(&astar("h0", 7.0)) - 1.0).abs() < 1e-12);
        // h2 weights count only between two h2 sets.
        let mut h2a = astar("h2", 1.0);
        h2a.h2 = [6.0, 16.0, 2.0];
        let mut h2b = h2a.clone();
        h2b.h2 = [6.0, 16.0, 0.0];
        assert!((h2a.distance(&h2b) - 3f64.log2()).abs() < 1e-12);
        assert_eq!(h2a.distance(&astar("h1", 1.0)), 1.0);
        // Space value: 1 per unit, 2 to turn on or off.
        let sv = |v: Option<u64>| ParamSet {
            space_value: v,
            ..ParamSet::default()
        };
        assert_eq!(sv(Some(10)).distance(&sv(Some(14))), 4.0);
        assert_eq!(sv(Some(10)).distance(&sv(None)), SPACE_VALUE_TOGGLE);
        // Resting: one per level.
        let rest = |r| ParamSet {
            resting: r,
            ..ParamSet::default()
        };
        assert_eq!(rest(Resting::Off).distance(&rest(Resting::Strict)), 2.0);
        // Metric: 1.
        let moves = ParamSet {
            metric: Metric::Moves,
            ..ParamSet::default()
        };
        assert_eq!(bfs.distance(&moves), 1.0);
    }

    #[test]
    fn pdb_memory_counts_in_doublings_and_only_with_pdb() {
        let pdb = |m: Option<u64>| ParamSet {
            pdb_memory: m,
            ..astar("pdb", 1.0)
        };
        assert!((pdb(Some(64 << 20)).distance(&pdb(Some(256 << 20))) - 2.0).abs() < 1e-12);
        // Absent is the solver's default (512M): three doublings from 64M.
        assert!((pdb(Some(64 << 20)).distance(&pdb(None)) - 3.0).abs() < 1e-12);
        assert_eq!(pdb(Some(DEFAULT_PDB_MEMORY)).normalized(), pdb(None));
        let mut h0 = pdb(Some(64 << 20));
        h0.heuristic = "h0".into();
        assert_eq!(h0.clone().normalized().pdb_memory, None);
        assert_eq!(h0.distance(&pdb(Some(64 << 20))), 1.0);
        let p = pdb(Some(64 << 20));
        assert_eq!(
            p.solver_args().join(" "),
            "--algorithm astar --heuristic pdb --weight 1 --pdb-memory 67108864 --resting off --metric steps"
        );
        assert_eq!(p.to_string(), "astar pdb w1 mem64M sv-off");
        assert!(pdb(Some(1)).validate().is_err());
    }

    #[test]
    fn distance_is_symmetric_and_adds_over_parameters() {
        let mut a = astar("h2", 3.0);
        a.space_value = Some(12);
        a.resting = Resting::Relaxed;
        let mut b = astar("h0", 7.0);
        b.space_value = Some(15);
        assert_eq!(a.distance(&b), b.distance(&a));
        assert!((a.distance(&b) - (1.0 + 1.0 + 3.0 + 1.0)).abs() < 1e-12);
    }

    #[test]
    fn normal_form_drops_irrelevant_settings() {
        let p = ParamSet {
            heuristic: Heuristic::from("h2"),
            weight: 9.0,
            h2: [1.0, 2.0, 3.0],
            ..ParamSet::default()
        };
        assert_eq!(p.normalized(), ParamSet::default());
        assert_eq!(
            ParamSet::default().solver_args(),
            [
                "--algorithm",
                "bfs",
                "--resting",
                "off",
                "--metric",
                "steps"
            ]
        );
        let mut q = astar("h2", 10.0);
        q.h2 = [6.0, 64.0, 2.5];
        q.space_value = Some(32);
        assert_eq!(
            q.solver_args().join(" "),
            "--algorithm astar --heuristic h2 --weight 10 --h2 6,64,2.5 --space-value 32 --resting off --metric steps"
        );
        assert_eq!(q.to_string(), "astar h2 w10 (6,64,2.5) sv32");
    }

    #[test]
    fn no_solution_raises_the_space_value_bound() {
        let mut b = Bounds::default();
        let sv = |v, r| ParamSet {
            space_value: v,
            resting: r,
            ..ParamSet::default()
        };
        assert!(!b.forbids(&sv(Some(3), Resting::Off)));
        b.learn_no_solution(&sv(Some(10), Resting::Off));
        assert!(b.forbids(&sv(Some(10), Resting::Off)));
        assert!(b.forbids(&sv(Some(7), Resting::Strict)));
        assert!(!b.forbids(&sv(Some(11), Resting::Off)));
        assert!(!b.forbids(&sv(None, Resting::Off)));
        assert_eq!(
            b.lift(&sv(Some(4), Resting::Off)),
            Some(sv(Some(11), Resting::Off))
        );
        // Strict pruning's failure says nothing about the other settings.
        b.learn_no_solution(&sv(Some(20), Resting::Strict));
        assert!(b.forbids(&sv(Some(20), Resting::Strict)));
        assert!(!b.forbids(&sv(Some(20), Resting::Relaxed)));
        // Never lowered.
        b.learn_no_solution(&sv(Some(5), Resting::Off));
        assert_eq!(b.space_value_min(Metric::Steps, Resting::Off), 11);
        // Cutoff off and relaxed pruning failing forbids relaxed entirely.
        b.learn_no_solution(&sv(None, Resting::Relaxed));
        assert!(b.forbids(&sv(None, Resting::Relaxed)));
        assert_eq!(b.lift(&sv(Some(30), Resting::Relaxed)), None);
        assert!(!b.unsolvable);
        b.learn_no_solution(&sv(None, Resting::Off));
        assert!(b.unsolvable);
    }
}
