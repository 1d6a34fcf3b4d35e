//! Resting-block pruning (thesis §3.2.1, fig. 3.8). A block *rests* when it
//! touches something (wall, board edge, door it may not enter, or another
//! block) on at least one vertical and one horizontal side; otherwise it
//! *hangs* in mid-air. The thesis describes the rule but not its two levels,
//! so we define them:
//!
//! | metric | relaxed | strict |
//! |---|---|---|
//! | moves | the moved block must rest after its move | no block may hang after the move |
//! | steps | while some block hangs, only hanging blocks may move | as relaxed, and no block other than the moved one may hang after the step |
//!
//! Under steps a block passes through hanging places on its way, so the rule
//! only forces it to finish its journey before another block moves.

use super::{Context, Kind, Pruning, Spec};
use crate::moves::{Move, MoveGenerator, State};
use crate::params::{Metric, Resting};
use crate::solution::Direction;
use sbp_protocol::pruning::Setting;

/// The registration of resting-block pruning (see [`super::REGISTRY`]); its
/// levels are the names of [`Resting`], from off to the most pruning.
pub const SPEC: Spec = Spec {
    name: "resting-block",
    doc: "Resting-block pruning: a moved block must rest (relaxed), or no block may hang (strict).",
    flag: "resting",
    json: "resting",
    kind: Kind::Levels(&["off", "relaxed", "strict"]),
    directed: true,
    proximity: true,
    build: |setting: &Setting, cx: &Context| {
        let Setting::Level(name) = setting else {
            return None;
        };
        let level = name.parse::<Resting>().ok()?;
        Some(Box::new(RestingBlock::new(level, cx.params.metric)))
    },
};

pub struct RestingBlock {
    level: Resting,
    metric: Metric,
    /// Hanging instances of the position being expanded.
    hanging: Vec<bool>,
    any_hanging: bool,
}

impl RestingBlock {
    pub fn new(level: Resting, metric: Metric) -> RestingBlock {
        RestingBlock {
            level,
            metric,
            hanging: Vec::new(),
            any_hanging: false,
        }
    }
}

/// True when instance `i` touches nothing vertically or nothing horizontally.
fn hangs(moves: &MoveGenerator, state: &State, i: usize) -> bool {
    let vertical =
        !moves.can_step(state, i, Direction::Up) || !moves.can_step(state, i, Direction::Down);
    let horizontal =
        !moves.can_step(state, i, Direction::Left) || !moves.can_step(state, i, Direction::Right);
    !(vertical && horizontal)
}

/// True when no block other than `except` hangs.
fn no_block_hangs(moves: &MoveGenerator, state: &State, except: Option<usize>) -> bool {
    let mut none = true;
    moves.blocks_next_to_space(state, |i| {
        none = none && (Some(i) == except || !hangs(moves, state, i));
    });
    none
}

impl Pruning for RestingBlock {
    fn prepare(&mut self, moves: &MoveGenerator, state: &State) {
        if self.metric == Metric::Steps {
            // Only a block that can step can hang.
            self.hanging.clear();
            self.hanging.resize(state.anchors.len(), false);
            let mut any = false;
            moves.blocks_next_to_space(state, |i| {
                if !self.hanging[i] && hangs(moves, state, i) {
                    self.hanging[i] = true;
                    any = true;
                }
            });
            self.any_hanging = any;
        }
    }

    fn keep(&mut self, moves: &MoveGenerator, after: &State, m: Move) -> bool {
        let moved = m.instance as usize;
        match (self.metric, self.level) {
            (_, Resting::Off) => true,
            (Metric::Moves, Resting::Relaxed) => !hangs(moves, after, moved),
            (Metric::Moves, Resting::Strict) => no_block_hangs(moves, after, None),
            (Metric::Steps, level) => {
                if self.any_hanging && !self.hanging[moved] {
                    return false;
                }
                level == Resting::Relaxed || no_block_hangs(moves, after, Some(moved))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_levels_are_the_resting_names_in_order() {
        let Kind::Levels(levels) = SPEC.kind else {
            panic!("resting-block is declared with levels");
        };
        let names: Vec<&str> = Resting::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(levels, names.as_slice());
    }
}
