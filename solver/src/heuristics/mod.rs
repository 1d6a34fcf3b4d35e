//! Heuristic estimates of the distance to the goal, one file each. Each file
//! declares its heuristic's name, documentation, admissibility and options in
//! a [`Spec`]; adding a heuristic means one new file and one line in
//! [`REGISTRY`], from which the command line (`--heuristic`), the JSON, the
//! list `solver heuristics --json` prints and so the reasoner's parameter
//! space all follow. `docs/extending.md` walks through an example.

mod blind;
mod h0;
mod h1;
mod h2;
mod manhattan;
mod path;
pub mod pdb;

use crate::geometry::Geometry;
use crate::model::Puzzle;
use crate::moves::{Move, State};
use crate::params::{Heuristic as Name, SearchParams};
use sbp_protocol::HeuristicInfo;

/// Every heuristic the solver offers: the registration lines.
pub const REGISTRY: &[Spec] = &[
    h0::SPEC,
    h1::SPEC,
    h2::SPEC,
    manhattan::SPEC,
    pdb::SPEC,
    blind::SPEC,
    path::SPEC,
];

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
}

/// A heuristic's declaration, written in its own file.
pub struct Spec {
    /// The name on the command line, in the JSON and in case bases.
    pub name: &'static str,
    /// One line for `solver heuristics` and the reasoner.
    pub doc: &'static str,
    /// Never overestimates the remaining steps.
    pub admissible: bool,
    /// Flags it reads besides `--weight` (e.g. `h2`).
    pub options: &'static [&'static str],
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
            options: self.options.iter().map(|o| o.to_string()).collect(),
        }
    }
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

/// Builds the heuristic the parameters name ([`check`]ed before any search
/// starts, so the fallback to the first registered one is never taken).
pub fn build(params: &SearchParams, puzzle: &Puzzle, geometry: &Geometry) -> Box<dyn Heuristic> {
    let spec = lookup(&params.heuristic).unwrap_or(&REGISTRY[0]);
    (spec.build)(&Context {
        params,
        puzzle,
        geometry,
    })
}
