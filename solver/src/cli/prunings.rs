//! `solver prunings`: the registered prunings with their declarations (name,
//! flag, JSON name, kind, directedness, meaning). With `--json` it is how the
//! reasoner learns the prunings its parameter space holds, so that a pruning
//! registered in the solver needs no change on the reasoner's side.

use clap::Args;

use super::Failure;
use crate::pruning::REGISTRY;

#[derive(Args, Debug)]
pub struct PruningsArgs {
    /// Print one JSON list of {name, doc, flag, json, kind, ..., directed, proximity}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PruningsArgs) -> Result<i32, Failure> {
    if args.json {
        let infos: Vec<_> = REGISTRY.iter().map(|s| s.info()).collect();
        super::output::json_list(&infos)?;
        return Ok(0);
    }
    for s in REGISTRY {
        let info = s.info();
        let graph = if s.directed { "directed" } else { "undirected" };
        outln!(
            "{:<18} --{} ({}; {graph}): {}",
            s.name,
            s.flag,
            info.describe(),
            s.doc
        );
    }
    Ok(0)
}
