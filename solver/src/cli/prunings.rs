//! `solver prunings`: the registered prunings with their declarations (name,
//! flag, JSON name, kind, directedness, meaning). With `--json` it is how the
//! reasoner learns the prunings its parameter space holds, so that a pruning
//! registered in the solver needs no change on the reasoner's side.

use super::output::{list, ListArgs};
use super::Failure;
use crate::pruning::REGISTRY;

pub fn run(args: &ListArgs) -> Result<i32, Failure> {
    let infos: Vec<_> = REGISTRY.iter().map(|s| s.info()).collect();
    let lines = REGISTRY.iter().zip(&infos).map(|(s, info)| {
        let graph = if s.directed { "directed" } else { "undirected" };
        format!(
            "{:<18} --{} ({}; {graph}): {}",
            s.name,
            s.flag,
            info.describe(),
            s.doc
        )
    });
    list(args, &infos, lines)
}
