//! Never move the master away from its goal (thesis §1.2.1): master moves
//! that increase its Manhattan distance to the goal are dropped.

use super::Pruning;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveGenerator, State};

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
    fn name(&self) -> &'static str {
        "master-never-away"
    }

    fn keep(&mut self, _moves: &MoveGenerator, _after: &State, m: Move) -> bool {
        m.instance as usize != self.master
            || self.geometry.manhattan(m.to as usize, self.goal as usize)
                <= self.geometry.manhattan(m.from as usize, self.goal as usize)
    }

    fn directed(&self) -> bool {
        true
    }
}
