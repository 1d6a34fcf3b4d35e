//! Never move the master away from its goal (thesis §1.2.1): master moves
//! that increase its Manhattan distance to the goal are dropped.

use super::{Context, Kind, Pruning, Spec};
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};
use sbp_protocol::pruning::Setting;

/// The registration of master-never-away (see [`super::REGISTRY`]). The
/// thesis keeps it out of the meta-level (§5.5), so the reasoner does not vary it.
pub const SPEC: Spec = Spec {
    name: "master-never-away",
    doc: "Never move the master away from its goal.",
    flag: "master-never-away",
    json: "master_never_away",
    kind: Kind::Switch,
    directed: true,
    proximity: false,
    build: |_setting: &Setting, cx: &Context| {
        let (master, goal) = cx.geometry.master?;
        Some(Box::new(MasterNeverAway::new(cx.geometry, master, goal)))
    },
};

pub struct MasterNeverAway {
    geometry: Geometry,
    master: usize,
    goal: u16,
}

impl MasterNeverAway {
    pub fn new(geometry: &Geometry, master: usize, goal: u16) -> MasterNeverAway {
        MasterNeverAway {
            geometry: geometry.clone(),
            master,
            goal,
        }
    }
}

impl Pruning for MasterNeverAway {
    fn keep(&mut self, _moves: &MoveGenerator, _after: &State, m: Move) -> bool {
        m.instance as usize != self.master
            || self.geometry.manhattan(m.to as usize, self.goal as usize)
                <= self.geometry.manhattan(m.from as usize, self.goal as usize)
    }
}
