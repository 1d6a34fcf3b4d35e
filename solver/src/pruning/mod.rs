//! Prunings: rules that drop successors from the search (thesis §3.2.1), one
//! file each. Each file declares its pruning's name, command-line flag, JSON
//! name, kind (a switch, named levels or a cutoff, with its range),
//! directedness and constructor in a [`Spec`]; adding a pruning means one new
//! file and one line in [`REGISTRY`], from which the command line
//! (`cli/pruning_args.rs`), the JSON `params`, the list `solver prunings
//! --json` prints and so the reasoner's parameter space all follow.
//! `docs/extending.md` walks through an example.

mod goal_radius;
mod master_never_away;
mod resting_block;
mod space_value;

use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};
use crate::params::SearchParams;
use sbp_protocol::pruning::{PruningInfo, PruningKind, Setting};

/// Every pruning the solver offers, in the order they are applied: the
/// registration lines.
pub const REGISTRY: &[Spec] = &[
    space_value::SPEC,
    resting_block::SPEC,
    master_never_away::SPEC,
    goal_radius::SPEC,
];

/// A rule that may drop the successor reached by a move.
pub trait Pruning: Send {
    /// Called once per expanded position, before its moves are filtered.
    fn prepare(&mut self, _moves: &MoveGenerator, _state: &State) {}
    /// Whether to keep the successor `after`, reached by `m`.
    fn keep(&mut self, moves: &MoveGenerator, after: &State, m: Move) -> bool;
}

/// How a pruning is switched (see [`PruningKind`], its shared description).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// `--FLAG`, off or on.
    Switch,
    /// `--FLAG LEVEL`, the first level off, each next one pruning more.
    Levels(&'static [&'static str]),
    /// `--FLAG N` within the range, absent when off; smaller prunes more.
    Cutoff { min: u64, max: u64 },
}

/// What a pruning's constructor may read.
pub struct Context<'a> {
    pub params: &'a SearchParams,
    pub geometry: &'a Geometry,
}

/// A pruning's declaration, written in its own file.
pub struct Spec {
    /// Its name in messages and `solver prunings`.
    pub name: &'static str,
    /// One line for `--help`, `solver prunings` and the reasoner.
    pub doc: &'static str,
    /// Its command-line flag, without the dashes.
    pub flag: &'static str,
    /// Its key in the JSON `params` and in case bases.
    pub json: &'static str,
    pub kind: Kind,
    /// True when the rule depends on the move and not only on the position
    /// it leads to, so that the search graph is no longer symmetric.
    pub directed: bool,
    /// Whether the reasoner's proximity search may vary it.
    pub proximity: bool,
    /// Builds the rule for one search from its setting (never the off
    /// one); `None` when it does not apply to this puzzle.
    pub build: fn(&Setting, &Context) -> Option<Box<dyn Pruning>>,
}

impl Spec {
    /// The declaration as the shared vocabulary describes it.
    pub fn info(&self) -> PruningInfo {
        let kind = match self.kind {
            Kind::Switch => PruningKind::Switch,
            Kind::Levels(levels) => PruningKind::Levels {
                levels: levels.iter().map(|l| l.to_string()).collect(),
            },
            Kind::Cutoff { min, max } => PruningKind::Cutoff { min, max },
        };
        PruningInfo {
            name: self.name.to_string(),
            doc: self.doc.to_string(),
            flag: self.flag.to_string(),
            json: self.json.to_string(),
            kind,
            directed: self.directed,
            proximity: self.proximity,
        }
    }

    /// The setting that switches it off.
    pub fn off(&self) -> Setting {
        match self.kind {
            Kind::Switch => Setting::Switch(false),
            Kind::Levels(levels) => Setting::Level(levels[0].to_string()),
            Kind::Cutoff { .. } => Setting::Cutoff(None),
        }
    }

    /// Its setting in `params` (off when absent).
    pub fn setting(&self, params: &SearchParams) -> Setting {
        params
            .prunings
            .get(self.json)
            .cloned()
            .unwrap_or_else(|| self.off())
    }
}

/// The prunings of one search, applied in order.
#[derive(Default)]
pub struct Prunings {
    rules: Vec<(&'static Spec, Box<dyn Pruning>)>,
}

impl Prunings {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// True when any rule makes the search graph directed.
    pub fn directed(&self) -> bool {
        self.rules.iter().any(|(s, _)| s.directed)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.rules.iter().map(|(s, _)| s.name).collect()
    }

    /// The names of the rules that make the search graph directed.
    pub fn directed_names(&self) -> Vec<&'static str> {
        self.rules
            .iter()
            .filter(|(s, _)| s.directed)
            .map(|(s, _)| s.name)
            .collect()
    }

    #[inline]
    pub fn prepare(&mut self, moves: &MoveGenerator, state: &State) {
        for (_, r) in &mut self.rules {
            r.prepare(moves, state);
        }
    }

    #[inline]
    pub fn keep(&mut self, moves: &MoveGenerator, after: &State, m: Move) -> bool {
        self.rules.iter_mut().all(|(_, r)| r.keep(moves, after, m))
    }
}

/// Checks every pruning setting of `params` against its declaration: a key
/// no pruning registers, or a value not of its kind, is an error.
pub fn check(params: &SearchParams) -> Result<(), String> {
    for (key, setting) in &params.prunings {
        let spec = REGISTRY.iter().find(|s| s.json == key).ok_or_else(|| {
            let known: Vec<&str> = REGISTRY.iter().map(|s| s.json).collect();
            format!("unknown pruning '{key}': use one of {}", known.join(", "))
        })?;
        spec.info().check(setting)?;
    }
    Ok(())
}

/// The prunings the parameters switch on.
pub fn build(params: &SearchParams, geometry: &Geometry) -> Prunings {
    let cx = Context { params, geometry };
    let rules = REGISTRY
        .iter()
        .filter_map(|spec| {
            let setting = spec.setting(params);
            if setting == spec.off() {
                return None;
            }
            (spec.build)(&setting, &cx).map(|rule| (spec, rule))
        })
        .collect();
    Prunings { rules }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registration_is_distinct_and_its_off_setting_is_of_its_kind() {
        for (i, a) in REGISTRY.iter().enumerate() {
            assert!(a.info().check(&a.off()).is_ok(), "{}", a.name);
            // The reasoner turns a case base's key back into the flag.
            assert_eq!(a.json, a.flag.replace('-', "_"), "{}", a.name);
            for b in &REGISTRY[i + 1..] {
                assert!(a.name != b.name && a.flag != b.flag && a.json != b.json);
            }
        }
        let mut params = SearchParams::default();
        assert!(check(&params).is_ok());
        params
            .prunings
            .insert("space_value".into(), Setting::Level("x".into()));
        assert!(check(&params).unwrap_err().contains("space-value"));
        params.prunings.clear();
        params
            .prunings
            .insert("spacevalue".into(), Setting::Cutoff(Some(3)));
        let e = check(&params).unwrap_err();
        assert!(
            e.starts_with("unknown pruning 'spacevalue': use one of space_value, resting"),
            "{e}"
        );
    }
}
