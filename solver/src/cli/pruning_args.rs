//! The prunings' command-line flags, made from their registrations
//! ([`crate::pruning::REGISTRY`]) rather than written out: a switch is
//! `--FLAG`, levels are `--FLAG LEVEL` (default the first, off), a cutoff is
//! `--FLAG N` checked against its declared range. `solve` and `count` flatten
//! [`PruningArgs`] into their search flags, so a registered pruning is on
//! their command line with no change here.

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::ranged::whole_in;
use crate::params::{Arity, NumericFlag, ValueRange};
use crate::pruning::{Kind, Spec, REGISTRY};
use sbp_protocol::pruning::{PruningSettings, Setting};

/// Every registered pruning's setting, as the command line gave it (off
/// when not given), keyed by its JSON name.
#[derive(Clone, Debug, Default)]
pub struct PruningArgs(pub PruningSettings);

/// A cutoff's flag as a numeric flag of `solve` and `count`, so that it is
/// parsed, refused and tabulated like every other numeric flag.
pub fn cutoff_flag(spec: &'static Spec) -> Option<NumericFlag> {
    let Kind::Cutoff { min, max } = spec.kind else {
        return None;
    };
    Some(NumericFlag {
        name: spec.flag,
        commands: "solve, count, pdb",
        arity: Arity::One,
        range: ValueRange::Whole { min, max },
        meaning: spec.doc,
    })
}

/// The flag of one registered pruning.
fn arg(spec: &'static Spec) -> Arg {
    let arg = Arg::new(spec.json).long(spec.flag).help(spec.doc);
    match spec.kind {
        Kind::Switch => arg.action(ArgAction::SetTrue),
        Kind::Levels(levels) => arg
            .value_name("LEVEL")
            .value_parser(PossibleValuesParser::new(levels))
            .default_value(levels[0]),
        Kind::Cutoff { .. } => {
            let flag = cutoff_flag(spec).expect("a cutoff");
            arg.value_name("N")
                .allow_hyphen_values(true)
                .value_parser(whole_in::<u64>(flag))
        }
    }
}

impl Args for PruningArgs {
    fn augment_args(cmd: Command) -> Command {
        REGISTRY.iter().fold(cmd, |cmd, spec| cmd.arg(arg(spec)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for PruningArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let settings = REGISTRY
            .iter()
            .map(|spec| {
                let setting = match spec.kind {
                    Kind::Switch => Setting::Switch(m.get_flag(spec.json)),
                    Kind::Levels(_) => m
                        .get_one::<String>(spec.json)
                        .map_or_else(|| spec.off(), |l| Setting::Level(l.clone())),
                    Kind::Cutoff { .. } => Setting::Cutoff(m.get_one::<u64>(spec.json).copied()),
                };
                (spec.json.to_string(), setting)
            })
            .collect();
        Ok(PruningArgs(settings))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
