//! `solver heuristics`: the registered heuristics with their declarations
//! (name, admissibility, options, meaning). With `--json` it is how the
//! reasoner learns the heuristics its parameter space may use and their
//! options (flag, JSON name, kind, default, range, how it varies them), so
//! that a heuristic registered in the solver needs no change on the
//! reasoner's side.

use super::output::{list, ListArgs};
use super::Failure;
use crate::heuristics::REGISTRY;

pub fn run(args: &ListArgs) -> Result<i32, Failure> {
    let infos: Vec<_> = REGISTRY.iter().map(|s| s.info()).collect();
    let lines = REGISTRY.iter().map(|s| {
        let admissible = s.admissible.describe();
        let flags: Vec<&str> = s.options.iter().map(|o| o.flag).collect();
        let options = if flags.is_empty() {
            String::new()
        } else {
            format!(", options --{}", flags.join(" --"))
        };
        format!("{:<10} {admissible}{options}: {}", s.name, s.doc)
    });
    list(args, &infos, lines)
}
