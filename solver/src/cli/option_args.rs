//! The heuristics' own options as command-line flags, made from their
//! declarations ([`crate::heuristics::Opt`] in each heuristic's file) rather
//! than written out, as `pruning_args.rs` does for the prunings: reals are
//! `--FLAG A,B,...` with the declared count, whole numbers and byte counts
//! `--FLAG N`, each checked against its declared range; text is taken as
//! given. `solve`, `count` and `pdb` flatten [`OptionArgs`] into their
//! search flags, so a registered heuristic's option is on their command line
//! with no change here. An option not given has its declared default, so
//! that the JSON records every recorded option.

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

use super::ranged::{reals_in, whole_in};
use crate::heuristics::{Opt, REGISTRY};
use crate::params::NumericFlag;
use sbp_protocol::options::{OptionKind, OptionSettings, Value};
use sbp_protocol::ranges::show_bytes;

/// Every registered option's value as the command line gave it (or its
/// default): the recorded ones by JSON name, the others (a cache folder) by
/// flag.
#[derive(Clone, Debug, Default)]
pub struct OptionArgs {
    pub recorded: OptionSettings,
    pub local: std::collections::BTreeMap<String, Value>,
}

/// Every option of every registered heuristic, in registration order.
pub fn all() -> impl Iterator<Item = &'static Opt> {
    REGISTRY.iter().flat_map(|s| s.options.iter())
}

/// A numeric option's flag as a numeric flag of `solve`, `count` and `pdb`,
/// so that it is parsed, refused and tabulated like every other one.
pub fn numeric_flag(opt: &'static Opt) -> Option<NumericFlag> {
    let info = opt.info();
    Some(NumericFlag {
        name: opt.flag,
        commands: "solve, count, pdb",
        arity: info.arity(),
        range: info.range()?,
        meaning: opt.doc,
    })
}

/// The flag of one option; its help says the default, as clap's own
/// defaults do (`--pdb-memory` said `[default: 536870912]` before options
/// were declared).
fn arg(opt: &'static Opt) -> Arg {
    let help = match (&opt.kind, opt.info().default_value()) {
        (OptionKind::Whole { bytes: true, .. }, Some(Value::Whole(b))) => {
            format!("{} [default: {}]", opt.doc, show_bytes(b))
        }
        (_, Some(d)) => format!("{} [default: {d}]", opt.doc),
        (_, None) => opt.doc.to_string(),
    };
    let arg = Arg::new(opt.flag)
        .long(opt.flag)
        .help(help)
        .value_name(opt.value_name);
    match (&opt.kind, numeric_flag(opt)) {
        (OptionKind::Reals { count, .. }, Some(flag)) => arg
            .allow_hyphen_values(true)
            .value_parser(reals_in(flag, *count)),
        (OptionKind::Whole { .. }, Some(flag)) => arg
            .allow_hyphen_values(true)
            .value_parser(whole_in::<u64>(flag)),
        _ => arg,
    }
}

/// The value the command line gave `opt`, or its default.
fn value(opt: &Opt, m: &ArgMatches) -> Option<Value> {
    match &opt.kind {
        OptionKind::Reals { default, .. } => Some(Value::Reals(
            m.get_one::<Vec<f64>>(opt.flag)
                .cloned()
                .unwrap_or_else(|| default.to_vec()),
        )),
        OptionKind::Whole { default, .. } => Some(Value::Whole(
            m.get_one::<u64>(opt.flag).copied().unwrap_or(*default),
        )),
        OptionKind::Text => m.get_one::<String>(opt.flag).cloned().map(Value::Text),
    }
}

impl Args for OptionArgs {
    fn augment_args(cmd: Command) -> Command {
        all().fold(cmd, |cmd, opt| cmd.arg(arg(opt)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for OptionArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut out = OptionArgs::default();
        for opt in all() {
            let v = value(opt, m);
            if opt.recorded {
                out.recorded.0.insert(opt.json.to_string(), v);
            } else if let Some(v) = v {
                out.local.insert(opt.flag.to_string(), v);
            }
        }
        Ok(out)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
