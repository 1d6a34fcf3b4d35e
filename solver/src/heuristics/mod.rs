//! Heuristic estimates of the distance to the goal, one file each. Each file
//! declares its heuristic's name, documentation, admissibility and options of
//! its own ([`Opt`]: flag, JSON name, kind, default, range, how the reasoner
//! varies it) in a [`Spec`]; adding a heuristic means one new file and one
//! line in [`REGISTRY`], from which the command line (`--heuristic` and the
//! options' flags, `cli/option_args.rs`), the JSON, the range table of the
//! docs, the list `solver heuristics --json` prints and so the reasoner's
//! parameter space all follow. `docs/extending.md` walks through an example.

mod blind;
mod goal_clear;
mod h0;
mod h1;
pub mod h2;
mod manhattan;
mod path;
pub mod pdb;

use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{Move, State};
use crate::params::{Heuristic as Name, SearchParams};
use sbp_protocol::options::{OptionInfo, OptionKind, Value, Vary};
pub use sbp_protocol::Admissible;
use sbp_protocol::HeuristicInfo;

/// Every heuristic the solver offers: the registration lines.
pub const REGISTRY: &[Spec] = &[
    h0::SPEC,
    h1::SPEC,
    h2::SPEC,
    manhattan::SPEC,
    pdb::SPEC,
    blind::SPEC,
    goal_clear::SPEC,
    path::SPEC,
];

/// The largest estimate of `state` among the heuristics admissible under
/// `params.metric` that build no tables (the pattern databases are built
/// only for a search that asks for them): no solution from `state` to the
/// goal of `geometry` is shorter, whatever searched for it.
pub fn admissible_bound(
    puzzle: &Puzzle,
    geometry: &Geometry,
    params: &SearchParams,
    state: &State,
) -> u32 {
    let context = Context {
        params,
        puzzle,
        geometry,
        memory: None,
    };
    REGISTRY
        .iter()
        .filter(|s| s.admissible.under(params.metric) && s.name != pdb::SPEC.name)
        .map(|s| (s.build)(&context).estimate(state))
        .max()
        .unwrap_or(0)
}

/// Estimates how far a position is from the goal.
pub trait Heuristic: Send {
    fn name(&self) -> &'static str;
    /// The estimate for `state` (0 at the goal).
    fn estimate(&mut self, state: &State) -> u32;
    /// The estimate for `after`, reached by `m` from a position estimated at
    /// `before`: depth-first searches use it to update instead of recompute.
    fn estimate_after(&mut self, after: &State, _m: Move, _before: u32) -> u32 {
        self.estimate(after)
    }
    /// [`Heuristic::estimate_after`] for a move that extends the path of a
    /// depth-first search, which calls [`Heuristic::retreat`] when it undoes
    /// it and [`Heuristic::estimate`] on the path's root first: a heuristic
    /// made of parts (pattern databases) keeps them per depth and updates
    /// only the parts the move changes.
    fn advance(&mut self, after: &State, m: Move, before: u32) -> u32 {
        self.estimate_after(after, m, before)
    }
    /// The last [`Heuristic::advance`]d move was undone.
    fn retreat(&mut self) {}
    /// Bytes of precomputed tables it holds (counted in `--max-memory`).
    fn memory_bytes(&self) -> u64 {
        0
    }
}

/// What a heuristic's constructor may read.
pub struct Context<'a> {
    pub params: &'a SearchParams,
    pub puzzle: &'a Puzzle,
    pub geometry: &'a Geometry,
    /// The most bytes precomputed tables may hold, building included
    /// (pattern databases; `None`: no limit).
    pub memory: Option<u64>,
}

/// A heuristic's declaration, written in its own file.
pub struct Spec {
    /// The name on the command line, in the JSON and in case bases.
    pub name: &'static str,
    /// One line for `solver heuristics` and the reasoner.
    pub doc: &'static str,
    /// Under which metrics it never overestimates the remaining cost.
    pub admissible: Admissible,
    /// Options of its own besides `--weight` (e.g. `h2`'s `--h2 A,B,C`).
    pub options: &'static [Opt],
    /// Whether the reasoner's proximity search may switch to it.
    pub proximity: bool,
    /// Builds it for one search.
    pub build: fn(&Context) -> Box<dyn Heuristic>,
}

impl Spec {
    /// The declaration as the shared vocabulary describes it.
    pub fn info(&self) -> HeuristicInfo {
        HeuristicInfo {
            name: self.name.to_string(),
            doc: self.doc.to_string(),
            admissible: self.admissible,
            proximity: self.proximity,
            options: self.options.iter().map(Opt::info).collect(),
        }
    }
}

/// An option of a heuristic's own, declared in its file (the shared
/// vocabulary describes it as [`OptionInfo`]).
pub struct Opt {
    /// Its command-line flag, without the dashes.
    pub flag: &'static str,
    /// What `--help` shows for its value (`GROUPS`, `BYTES`, `A,B,C`).
    pub value_name: &'static str,
    /// Its key in the JSON `params`: `name`, or `group.name` for a key of the
    /// object `group` (a key of its own must be a list of reals). In case
    /// bases its key is the flag with `_` for `-`.
    pub json: &'static str,
    /// One line for `--help`, the range table and `solver heuristics`.
    pub doc: &'static str,
    pub kind: OptionKind,
    /// How the reasoner's proximity search varies it and its distance
    /// compares it.
    pub vary: Vary,
    /// Part of a run's identity (JSON, case bases); a cache folder is not.
    pub recorded: bool,
    /// Where the reasoner's proximity search starts it when it switches to
    /// this heuristic (a whole number; `None`: the default).
    pub start: Option<u64>,
}

impl Opt {
    /// The declaration as the shared vocabulary describes it.
    pub fn info(&self) -> OptionInfo {
        OptionInfo {
            flag: self.flag.to_string(),
            json: self.json.to_string(),
            doc: self.doc.to_string(),
            kind: self.kind.clone(),
            vary: self.vary,
            recorded: self.recorded,
            start: self.start.map(Value::Whole),
        }
    }

    /// Its value in `params`: the recorded ones by JSON name, the others by
    /// flag; `None` when unset (the default, for text).
    pub fn value<'p>(&self, params: &'p SearchParams) -> Option<&'p Value> {
        if self.recorded {
            params.options.get(self.json)
        } else {
            params.local.get(self.flag)
        }
    }

    /// Its reals in `params`, or the default.
    pub fn reals(&self, params: &SearchParams) -> Vec<f64> {
        match (self.value(params).and_then(Value::as_reals), &self.kind) {
            (Some(v), _) => v,
            (None, OptionKind::Reals { default, .. }) => default.to_vec(),
            (None, _) => Vec::new(),
        }
    }

    /// Its whole number in `params`, or the default.
    pub fn whole(&self, params: &SearchParams) -> u64 {
        match (self.value(params), &self.kind) {
            (Some(Value::Whole(v)), _) => *v,
            (_, OptionKind::Whole { default, .. }) => *default,
            _ => 0,
        }
    }

    /// Its text in `params`, if set.
    pub fn text<'p>(&self, params: &'p SearchParams) -> Option<&'p str> {
        match self.value(params) {
            Some(Value::Text(s)) => Some(s),
            _ => None,
        }
    }
}

/// Checks every recorded option of `params` against its declaration: a JSON
/// name no heuristic registers, or a value out of its range, is an error.
pub fn check_options(params: &SearchParams) -> Result<(), String> {
    for (json, value) in &params.options.0 {
        let opt = REGISTRY
            .iter()
            .flat_map(|s| s.options)
            .find(|o| o.recorded && o.json == json)
            .ok_or_else(|| format!("unknown heuristic option '{json}'"))?;
        if let Some(v) = value {
            opt.info().check(v)?;
        }
    }
    Ok(())
}

/// The registered heuristic of this name.
pub fn lookup(name: &Name) -> Option<&'static Spec> {
    REGISTRY.iter().find(|s| s.name == name.name())
}

/// Checks that the parameters name a registered heuristic.
pub fn check(name: &Name) -> Result<(), String> {
    match lookup(name) {
        Some(_) => Ok(()),
        None => Err(format!(
            "unknown heuristic '{name}': use one of {}",
            names().join(", ")
        )),
    }
}

/// The registered names, in registration order.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|s| s.name).collect()
}

/// The admissible heuristic an optimal search of `puzzle` (under the goal
/// of `geometry`) is best served by (`solver solve --optimal`): pattern
/// databases where their compact tile tables apply (one-blank tile puzzles:
/// built in seconds, far above Manhattan distance), else `manhattan`,
/// admissible under both metrics and never below `h0`. A block puzzle's
/// pattern database is passed over: its build is a backward BFS over the
/// puzzle's positions (`experiments/pdb.md`: up to minutes), which costs as
/// much as the bounded search it would serve.
pub fn strongest_admissible(puzzle: &Puzzle, geometry: &Geometry) -> &'static Spec {
    if pdb::tiles::TileBoard::new(puzzle, geometry).is_some() {
        &pdb::SPEC
    } else {
        &manhattan::SPEC
    }
}

/// Builds the heuristic the parameters name ([`check`]ed before any search
/// starts, so the fallback to the first registered one is never taken).
/// `memory`: the bytes its tables may hold at most, building included
/// ([`crate::search::Engine::table_memory`]); `None`: no limit.
pub fn build(
    params: &SearchParams,
    puzzle: &Puzzle,
    geometry: &Geometry,
    memory: Option<u64>,
) -> Box<dyn Heuristic> {
    let spec = lookup(&params.heuristic).unwrap_or(&REGISTRY[0]);
    (spec.build)(&Context {
        params,
        puzzle,
        geometry,
        memory,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are distinct, defaults lie in their ranges, and an option that
    /// is a JSON key of its own is a list (so that the JSON `params` cannot
    /// take it for a pruning's setting; see `sbp_protocol::options`).
    #[test]
    fn every_option_is_distinct_in_range_and_of_a_readable_shape() {
        let opts: Vec<&Opt> = REGISTRY.iter().flat_map(|s| s.options).collect();
        for (i, a) in opts.iter().enumerate() {
            let info = a.info();
            if let Some(d) = info.default_value() {
                assert_eq!(info.check(&d), Ok(d), "--{}", a.flag);
            }
            let own_key = !a.json.contains('.');
            assert!(
                !own_key || matches!(a.kind, OptionKind::Reals { .. }),
                "--{}: a key of its own must be a list of reals",
                a.flag
            );
            for b in &opts[i + 1..] {
                assert!(a.flag != b.flag && a.json != b.json, "--{}", a.flag);
            }
            let pruning = crate::pruning::REGISTRY
                .iter()
                .any(|p| p.json == info.key() || p.flag == a.flag);
            assert!(!pruning, "--{} is also a pruning", a.flag);
        }
        let mut params = SearchParams::default();
        params
            .options
            .0
            .insert("h2".into(), Some(Value::Reals(vec![1.0, -1.0, 1.0])));
        assert!(check_options(&params).unwrap_err().contains("--h2 takes 3"));
        params.options.0.clear();
        params.options.0.insert("h3".into(), None);
        assert!(check_options(&params).is_err());
    }
}
