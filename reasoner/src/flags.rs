//! The reasoner's numeric command-line flags and their valid ranges, declared
//! once in [`NUMERIC_FLAGS`]: the command line's value parsers check them
//! while parsing (a value outside is exit 2 with a message naming the flag and
//! its range, before anything runs), and the README's range table is
//! [`table`] (a test keeps the two equal).
//!
//! The ranges that reach the solver (`--position-limit`, `--max-memory`,
//! `--weight`, `--h2`, `--space-value`) are the solver's own ranges for the
//! flags they become, so that no attempt fails on a value this side accepted.
//! The upper ends keep every accepted value from overflowing or allocating in
//! proportion to the value.

use std::time::Duration;

/// The values a numeric flag accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRange {
    /// A whole number from `min` to `max`.
    Whole { min: u64, max: u64 },
    /// A real number from `min` to `max` (NaN and infinities never).
    Real { min: f64, max: f64 },
    /// A size in bytes (`512M`, `2G`, ...) from `min` to `max`.
    Bytes { min: u64, max: u64 },
}

/// One numeric flag of `reasoner`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumericFlag {
    /// The long flag without its dashes.
    pub name: &'static str,
    /// The subcommands that take it.
    pub commands: &'static str,
    pub range: ValueRange,
    /// How many comma-separated values (`--h2 A,B,C`: 3).
    pub count: usize,
    pub meaning: &'static str,
}

const TIB: u64 = 1 << 40;
const SOLVE: &str = "solve";
const ADD: &str = "casebase add";

const fn flag(
    name: &'static str,
    commands: &'static str,
    range: ValueRange,
    meaning: &'static str,
) -> NumericFlag {
    NumericFlag {
        name,
        commands,
        range,
        count: 1,
        meaning,
    }
}

const ANY: ValueRange = ValueRange::Whole {
    min: 0,
    max: u64::MAX,
};
const POSITIONS: ValueRange = ValueRange::Whole {
    min: 1,
    max: u64::MAX,
};
const SECONDS: ValueRange = ValueRange::Real {
    min: 0.001,
    max: 1e9,
};
const DISTANCE: ValueRange = ValueRange::Real { min: 0.0, max: 1e6 };
const WEIGHTS: ValueRange = ValueRange::Real { min: 0.0, max: 1e6 };

/// Every numeric flag of `reasoner` with its valid range.
pub const NUMERIC_FLAGS: &[NumericFlag] = &[
    flag("seed", SOLVE, ANY, "seed of the proximity search"),
    flag(
        "position-limit",
        SOLVE,
        POSITIONS,
        "positions an attempt but the final may examine",
    ),
    flag(
        "attempts",
        SOLVE,
        ValueRange::Whole {
            min: 0,
            max: 10_000,
        },
        "attempts before the final (0: only the final)",
    ),
    flag(
        "jobs",
        SOLVE,
        ValueRange::Whole { min: 1, max: 256 },
        "solver processes at once",
    ),
    flag(
        "wave",
        SOLVE,
        ValueRange::Whole { min: 1, max: 1000 },
        "attempts planned together",
    ),
    flag(
        "attempt-timeout",
        SOLVE,
        SECONDS,
        "seconds before an attempt is killed",
    ),
    flag(
        "final-timeout",
        SOLVE,
        SECONDS,
        "seconds before the final attempt is killed",
    ),
    flag(
        "max-memory",
        SOLVE,
        ValueRange::Bytes {
            min: 1 << 20,
            max: 1024 * TIB,
        },
        "the solver's --max-memory",
    ),
    flag(
        "min-distance",
        SOLVE,
        DISTANCE,
        "proximity search: least distance to a tried set",
    ),
    flag(
        "max-distance",
        SOLVE,
        DISTANCE,
        "proximity search: most distance to a tried set",
    ),
    flag(
        "weight",
        ADD,
        ValueRange::Real {
            min: 0.001,
            max: 1e6,
        },
        "A*'s weight on the heuristic",
    ),
    NumericFlag {
        count: 3,
        ..flag("h2", ADD, WEIGHTS, "h2's weights A,B,C (each in the range)")
    },
    flag("space-value", ADD, ANY, "space-value cutoff"),
    flag(
        "position-limit",
        ADD,
        POSITIONS,
        "stop the solver after N positions",
    ),
];

/// The declaration of `--name` (first match: the same name has the same
/// range in every command that takes it).
fn declared(name: &str) -> &'static NumericFlag {
    NUMERIC_FLAGS
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no numeric flag --{name} in NUMERIC_FLAGS"))
}

impl ValueRange {
    /// `a whole number from 1 to 256`, for messages and the README.
    pub fn describe(&self) -> String {
        match *self {
            ValueRange::Whole { min, max } => format!("a whole number from {min} to {max}"),
            ValueRange::Real { min, max } => format!("a number from {min} to {max}"),
            ValueRange::Bytes { min, max } => {
                format!(
                    "a byte count from {} to {} (suffixes K, M, G, T)",
                    bytes(min),
                    bytes(max)
                )
            }
        }
    }

    /// Reads one value as a real number (whole numbers and sizes exactly).
    fn read(&self, s: &str) -> Result<f64, String> {
        let t = s.trim();
        let value = match *self {
            ValueRange::Whole { min, max } => t
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(|n| n as f64),
            ValueRange::Real { min, max } => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (min..=max).contains(x)),
            ValueRange::Bytes { min, max } => sbp_protocol::ranges::parse_bytes(t)
                .filter(|n| (min..=max).contains(n))
                .map(|n| n as f64),
        };
        value.ok_or_else(|| format!("must be {}", self.describe()))
    }
}

/// `1M`, `1024T`: a size in the units `--max-memory` reads.
fn bytes(n: u64) -> String {
    for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{}{unit}", n >> shift);
        }
    }
    n.to_string()
}

/// Reads `--name`'s whole-number value, checking its range.
pub fn whole(name: &str, s: &str) -> Result<u64, String> {
    declared(name)
        .range
        .read(s)
        .and_then(|_| s.trim().parse().map_err(|e| format!("{e}")))
}

/// Reads `--name`'s real value(s), `count` of them separated by commas.
pub fn reals(name: &str, s: &str) -> Result<Vec<f64>, String> {
    let f = declared(name);
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != f.count {
        return Err(format!(
            "must be {} comma-separated values, each {}",
            f.count,
            f.range.describe()
        ));
    }
    parts.iter().map(|p| f.range.read(p)).collect()
}

/// Clap value parsers, one per flag.
pub mod parse {
    use super::*;

    pub fn seed(s: &str) -> Result<u64, String> {
        whole("seed", s)
    }
    pub fn position_limit(s: &str) -> Result<u64, String> {
        whole("position-limit", s)
    }
    pub fn space_value(s: &str) -> Result<u64, String> {
        whole("space-value", s)
    }
    pub fn attempts(s: &str) -> Result<usize, String> {
        whole("attempts", s).map(|n| n as usize)
    }
    pub fn jobs(s: &str) -> Result<usize, String> {
        whole("jobs", s).map(|n| n as usize)
    }
    pub fn wave(s: &str) -> Result<usize, String> {
        whole("wave", s).map(|n| n as usize)
    }
    pub fn seconds(s: &str) -> Result<Duration, String> {
        let x = reals("attempt-timeout", s)?[0];
        Ok(Duration::from_secs_f64(x))
    }
    pub fn max_memory(s: &str) -> Result<u64, String> {
        declared("max-memory").range.read(s).map(|n| n as u64)
    }
    pub fn distance(s: &str) -> Result<f64, String> {
        Ok(reals("min-distance", s)?[0])
    }
    pub fn weight(s: &str) -> Result<f64, String> {
        Ok(reals("weight", s)?[0])
    }
    pub fn h2(s: &str) -> Result<[f64; 3], String> {
        let v = reals("h2", s)?;
        Ok([v[0], v[1], v[2]])
    }
}

/// The README's table of numeric flags.
pub fn table() -> String {
    let mut t = String::from("| flag | command | valid values | meaning |\n|---|---|---|---|\n");
    for f in NUMERIC_FLAGS {
        let values = match f.count {
            1 => f.range.describe(),
            n => format!("{n} comma-separated values, each {}", f.range.describe()),
        };
        t.push_str(&format!(
            "| `--{}` | {} | {values} | {} |\n",
            f.name, f.commands, f.meaning
        ));
    }
    t
}

/// Default wall-clock limit of a limited attempt, so that a solver that
/// never ends is caught: 60 s plus 1 s per 20,000 positions of the limit
/// (about 5 minutes at the default 5 million), far above what an attempt
/// needs at the solver's slowest rates.
pub fn default_attempt_timeout(position_limit: u64) -> Duration {
    Duration::from_secs(60 + position_limit / 20_000)
}

#[cfg(test)]
mod tests {
    use super::parse::*;
    use super::*;

    #[test]
    fn values_outside_the_range_name_it() {
        assert_eq!(jobs("4"), Ok(4));
        assert_eq!(
            jobs("0").unwrap_err(),
            "must be a whole number from 1 to 256"
        );
        assert!(wave("-1").is_err() && wave("1001").is_err() && wave("x").is_err());
        assert_eq!(attempts("0"), Ok(0));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert!(seed("18446744073709551616").is_err());
        for bad in ["NaN", "inf", "-1", "0", "1e10", ""] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(max_memory("2G"), Ok(2 << 30));
        assert_eq!(
            max_memory("12Q").unwrap_err(),
            "must be a byte count from 1M to 1024T (suffixes K, M, G, T)"
        );
        assert!(max_memory("1K").is_err());
        assert_eq!(h2("1,0,1"), Ok([1.0, 0.0, 1.0]));
        assert!(h2("NaN,1,1").is_err() && h2("-1,1,1").is_err() && h2("1,1").is_err());
        assert!(weight("inf").is_err() && weight("0").is_err());
        assert!(distance("NaN").is_err());
    }

    #[test]
    fn the_readme_lists_every_flag_with_its_range() {
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(&table()),
            "README.md's table of the reasoner's numeric flags must read:\n{}",
            table()
        );
    }

    #[test]
    fn the_default_timeout_grows_with_the_limit() {
        assert_eq!(default_attempt_timeout(5_000_000), Duration::from_secs(310));
        assert_eq!(
            default_attempt_timeout(u64::MAX).as_secs(),
            60 + u64::MAX / 20_000
        );
    }
}
