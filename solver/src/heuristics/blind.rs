//! blind: estimates 0 for every position. A* with it is
//! uniform-cost search, which makes it the baseline any other heuristic must
//! beat.

use super::{Admissible, Context, Heuristic, Spec};
use crate::moves::State;

/// The registration of blind (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "blind",
    doc: "0 everywhere: A* becomes uniform-cost search, the baseline.",
    admissible: Admissible::Always,
    options: &[],
    proximity: true,
    build: |_cx: &Context| Box::new(Blind),
};

pub struct Blind;

impl Heuristic for Blind {
    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn estimate(&mut self, _state: &State) -> u32 {
        0
    }
}
