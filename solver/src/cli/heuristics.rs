//! `solver heuristics`: the registered heuristics with their declarations
//! (name, admissibility, options, meaning). With `--json` it is how the
//! reasoner learns the heuristics its parameter space may use, so that a
//! heuristic registered in the solver needs no change on the reasoner's side.

use clap::Args;

use super::Failure;
use crate::heuristics::REGISTRY;

#[derive(Args, Debug)]
pub struct HeuristicsArgs {
    /// Print one JSON list of {name, doc, admissible, options, proximity}, each option with its flag, JSON name, kind, default, range and how the reasoner varies it.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &HeuristicsArgs) -> Result<i32, Failure> {
    if args.json {
        let infos: Vec<_> = REGISTRY.iter().map(|s| s.info()).collect();
        super::output::json_list(&infos)?;
        return Ok(0);
    }
    for s in REGISTRY {
        let admissible = if s.admissible {
            "admissible"
        } else {
            "inadmissible"
        };
        let options = if s.options.is_empty() {
            String::new()
        } else {
            let flags: Vec<&str> = s.options.iter().map(|o| o.flag).collect();
            format!(", options --{}", flags.join(" --"))
        };
        outln!("{:<10} {admissible}{options}: {}", s.name, s.doc);
    }
    Ok(0)
}
