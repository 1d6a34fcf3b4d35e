//! Prunings: rules that drop successors from the search (thesis §3.2.1), one
//! file each. Adding one means a new file and a line in [`build`].

mod master_never_away;
mod resting_block;
mod space_value;

use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};
use crate::params::{Resting, SearchParams};

/// A rule that may drop the successor reached by a move.
pub trait Pruning: Send {
    fn name(&self) -> &'static str;
    /// Called once per expanded position, before its moves are filtered.
    fn prepare(&mut self, _moves: &MoveGenerator, _state: &State) {}
    /// Whether to keep the successor `after`, reached by `m`.
    fn keep(&mut self, moves: &MoveGenerator, after: &State, m: Move) -> bool;
    /// True when the rule depends on the move and not only on the position it
    /// leads to, so that the search graph is no longer symmetric.
    fn directed(&self) -> bool;
}

/// The prunings of one search, applied in order.
#[derive(Default)]
pub struct Prunings {
    rules: Vec<Box<dyn Pruning>>,
}

impl Prunings {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// True when any rule makes the search graph directed.
    pub fn directed(&self) -> bool {
        self.rules.iter().any(|r| r.directed())
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.rules.iter().map(|r| r.name()).collect()
    }

    /// The names of the rules that make the search graph directed.
    pub fn directed_names(&self) -> Vec<&'static str> {
        self.rules
            .iter()
            .filter(|r| r.directed())
            .map(|r| r.name())
            .collect()
    }

    #[inline]
    pub fn prepare(&mut self, moves: &MoveGenerator, state: &State) {
        for r in &mut self.rules {
            r.prepare(moves, state);
        }
    }

    #[inline]
    pub fn keep(&mut self, moves: &MoveGenerator, after: &State, m: Move) -> bool {
        self.rules.iter_mut().all(|r| r.keep(moves, after, m))
    }
}

/// The prunings the parameters ask for.
pub fn build(params: &SearchParams, geometry: &Geometry) -> Prunings {
    let mut rules: Vec<Box<dyn Pruning>> = Vec::new();
    if let Some(cutoff) = params.space_value {
        rules.push(Box::new(space_value::SpaceValueCutoff::new(
            geometry, cutoff,
        )));
    }
    if params.resting != Resting::Off {
        rules.push(Box::new(resting_block::RestingBlock::new(
            params.resting,
            params.metric,
        )));
    }
    if params.master_never_away {
        if let Some((master, goal)) = geometry.master {
            rules.push(Box::new(master_never_away::MasterNeverAway::new(
                geometry, master, goal,
            )));
        }
    }
    Prunings { rules }
}
