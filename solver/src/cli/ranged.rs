//! Value parsers for the numeric flags, derived from the one declaration of
//! their ranges ([`NUMERIC_FLAGS`]), and the documentation's range table
//! rendered from the same declaration. A value outside its range is refused
//! while the command line is read, so clap exits 2 with a message naming the
//! flag and the range, before any puzzle is loaded.

use crate::params::{numeric_flag, NumericFlag, ValueRange, NUMERIC_FLAGS};
use sbp_protocol::ranges::parse_bytes;

/// A comma-separated list of whole numbers (`bench --threads 1,2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WholeList(pub Vec<u64>);

/// Parser for a whole-number flag of `command`, converted to `T`.
pub fn whole<T>(
    command: &'static str,
    name: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    whole_in(*numeric_flag(command, name))
}

/// Parser for a whole-number flag declared elsewhere than [`NUMERIC_FLAGS`]
/// (a pruning's cutoff), converted to `T`.
pub fn whole_in<T>(
    flag: NumericFlag,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |s| {
        let flag = &flag;
        let v = one_value(flag, s)?;
        T::try_from(v).map_err(|_| refusal(flag, s))
    }
}

/// Parser for a real-number flag of `command`.
pub fn real(
    command: &'static str,
    name: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    let flag = numeric_flag(command, name);
    move |s| real_value(flag, s.trim()).ok_or_else(|| refusal(flag, s))
}

/// Parser for a flag declared elsewhere than [`NUMERIC_FLAGS`] (a
/// heuristic's option) taking exactly `count` comma-separated reals.
pub fn reals_in(
    flag: NumericFlag,
    count: usize,
) -> impl Fn(&str) -> Result<Vec<f64>, String> + Clone + Send + Sync + 'static {
    move |s| {
        let flag = &flag;
        let values: Option<Vec<f64>> = s.split(',').map(|x| real_value(flag, x.trim())).collect();
        values
            .filter(|v| v.len() == count)
            .ok_or_else(|| refusal(flag, s))
    }
}

/// Parser for a flag of `command` taking a comma-separated list of whole numbers.
pub fn whole_list(
    command: &'static str,
    name: &'static str,
) -> impl Fn(&str) -> Result<WholeList, String> + Clone + Send + Sync + 'static {
    let flag = numeric_flag(command, name);
    move |s| {
        let values: Option<Vec<u64>> = s.split(',').map(|x| whole_value(flag, x.trim())).collect();
        values
            .filter(|v| !v.is_empty())
            .map(WholeList)
            .ok_or_else(|| refusal(flag, s))
    }
}

/// A whole or byte-count value of a single-valued flag.
fn one_value(flag: &NumericFlag, s: &str) -> Result<u64, String> {
    let t = s.trim();
    match flag.range {
        ValueRange::Bytes { min, max } => parse_bytes(t)
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| refusal(flag, s)),
        _ => whole_value(flag, t).ok_or_else(|| refusal(flag, s)),
    }
}

fn whole_value(flag: &NumericFlag, s: &str) -> Option<u64> {
    let ValueRange::Whole { min, max } = flag.range else {
        return None;
    };
    s.parse::<u64>().ok().filter(|v| (min..=max).contains(v))
}

fn real_value(flag: &NumericFlag, s: &str) -> Option<f64> {
    let ValueRange::Real { min, max } = flag.range else {
        return None;
    };
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= min && *v <= max)
}

/// The message for a refused value: the flag, what it takes, what it got.
fn refusal(flag: &NumericFlag, got: &str) -> String {
    format!("--{} takes {}; got '{got}'", flag.name, flag.describe())
}

/// The markdown table of every numeric flag and its range, as README.md and
/// docs/search.md carry it (a test keeps them equal to this): the shared
/// table, then the registered heuristics' numeric options, then the
/// registered prunings' cutoffs.
pub fn markdown_table() -> String {
    let mut out = String::from("| flag | commands | valid values | meaning |\n|---|---|---|---|\n");
    let options = super::option_args::all().filter_map(super::option_args::numeric_flag);
    let cutoffs = crate::pruning::REGISTRY
        .iter()
        .filter_map(super::pruning_args::cutoff_flag);
    for flag in NUMERIC_FLAGS.iter().copied().chain(options).chain(cutoffs) {
        out.push_str(&format!(
            "| `--{}` | {} | {} | {} |\n",
            flag.name,
            flag.commands,
            flag.describe(),
            flag.meaning
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sbp_protocol::ranges::show_bytes;

    #[test]
    fn values_outside_the_range_are_refused_naming_flag_and_range() {
        let weight = real("solve", "weight");
        assert_eq!(weight("2.5"), Ok(2.5));
        for bad in ["inf", "NaN", "-1", "0.5", "1e7", "x", ""] {
            let e = weight(bad).unwrap_err();
            assert!(e.contains("--weight takes a number from 1 to 100"), "{e}");
        }
        let threads = whole::<usize>("solve", "threads");
        assert_eq!(threads("4"), Ok(4));
        assert!(threads("0").unwrap_err().contains("from 1 to 256"));
        assert!(threads("1000000").is_err() && threads("-3").is_err());
        let h2 = reals_in(
            super::super::option_args::numeric_flag(&crate::heuristics::h2::WEIGHTS).unwrap(),
            3,
        );
        assert_eq!(h2("6, 16,2"), Ok(vec![6.0, 16.0, 2.0]));
        for bad in ["1,2", "NaN,1,1", "-1,1,1", "inf,1,1", "1,2,3,4"] {
            assert!(h2(bad).unwrap_err().contains("3 comma-separated"), "{bad}");
        }
    }

    #[test]
    fn byte_counts_take_suffixes_and_respect_the_range() {
        let mem = whole::<u64>("solve", "max-memory");
        assert_eq!(mem("64M"), Ok(64 << 20));
        assert_eq!(mem("2GiB"), Ok(2 << 30));
        for bad in ["12Q", "100", "lots", "99999999999T", "-5M"] {
            let e = mem(bad).unwrap_err();
            assert!(e.contains("from 1M to 1024T"), "{bad}: {e}");
        }
        assert_eq!(parse_bytes("512k"), Some(512 << 10));
        assert_eq!(show_bytes(3 << 20), "3M");
        assert_eq!(show_bytes(1000), "1000");
    }

    #[test]
    fn lists_need_every_item_in_range() {
        let list = whole_list("bench", "threads");
        assert_eq!(list("1,2"), Ok(WholeList(vec![1, 2])));
        assert!(list("1,0").is_err() && list("").is_err() && list("1,,2").is_err());
    }

    #[test]
    fn every_flag_of_the_table_has_a_distinct_command_and_name() {
        for (i, a) in NUMERIC_FLAGS.iter().enumerate() {
            for b in &NUMERIC_FLAGS[i + 1..] {
                let shared = a.commands.split(", ").any(|c| b.commands.contains(c));
                assert!(!(a.name == b.name && shared), "--{} twice", a.name);
            }
        }
        let registered = crate::pruning::REGISTRY
            .iter()
            .map(|s| s.flag)
            .chain(super::super::option_args::all().map(|o| o.flag));
        let mut seen: Vec<&str> = Vec::new();
        for flag in registered {
            let clash = NUMERIC_FLAGS
                .iter()
                .any(|f| f.name == flag && f.commands.contains("solve"));
            assert!(
                !clash && !seen.contains(&flag),
                "--{flag} is declared twice"
            );
            seen.push(flag);
        }
        assert_eq!(
            numeric_flag("import", "width").range,
            ValueRange::Whole {
                min: 1,
                max: crate::model::MAX_SIDE as u64
            }
        );
    }
}

#[cfg(test)]
mod docs {
    /// README.md and docs/search.md carry the range table exactly as the
    /// declaration renders it; on a change, paste the printed table.
    #[test]
    fn the_docs_carry_the_range_table() {
        let table = super::markdown_table();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for doc in ["README.md", "docs/search.md"] {
            let text = std::fs::read_to_string(root.join(doc)).expect("the doc is readable");
            assert!(
                text.contains(&table),
                "{doc} must carry the range table of solver/protocol/src/ranges.rs:\n{table}"
            );
        }
    }
}
