//! The reasoner's numeric command-line flags and their valid ranges, declared
//! once in [`numeric_flags`]: the command line's value parsers check them
//! while parsing (a value outside is exit 2 with a message naming the flag and
//! its range, before anything runs), and the README's range table is
//! [`table`] (`tests/tests/reasoner_flags.rs` keeps the two equal).
//!
//! The flags passed on to the solver (`--position-limit`, `--max-memory`,
//! `--weight`) take their ranges from the shared
//! declaration of the solver's flags (`sbp_protocol::ranges`), so that no
//! attempt fails on a value this side accepted; `casebase add`'s prunings'
//! and options' flags are read against the solver's own declarations
//! (`space.rs`), which the solver lists.
//! The upper ends keep every accepted value from overflowing or allocating in
//! proportion to the value.

use std::time::Duration;

use sbp_protocol::ranges::{self as shared, Arity, NumericFlag, ValueRange};

const SOLVE: &str = "solve";
const ADD: &str = "casebase add";

/// A flag of the reasoner's own.
const fn own(name: &'static str, range: ValueRange, meaning: &'static str) -> NumericFlag {
    NumericFlag {
        name,
        commands: SOLVE,
        arity: Arity::One,
        range,
        meaning,
    }
}

/// The solver's flag `solver_name`, as the reasoner's `name` of `commands`.
fn passed_on(
    name: &'static str,
    commands: &'static str,
    solver_name: &str,
    meaning: &'static str,
) -> NumericFlag {
    NumericFlag {
        name,
        commands,
        meaning,
        ..*shared::numeric_flag("solve", solver_name)
    }
}

const SECONDS: ValueRange = ValueRange::Real {
    min: 0.001,
    max: 1e9,
};
const DISTANCE: ValueRange = ValueRange::Real { min: 0.0, max: 1e6 };

/// Every numeric flag of `reasoner` with its valid range: `solve`'s, then
/// the other commands'.
pub fn numeric_flags() -> Vec<NumericFlag> {
    let mut all = solve_flags();
    all.extend(other_flags());
    all
}

fn whole_range(min: u64, max: u64) -> ValueRange {
    ValueRange::Whole { min, max }
}

/// The numeric flags of `reasoner solve`.
fn solve_flags() -> Vec<NumericFlag> {
    let any = whole_range(0, u64::MAX);
    vec![
        NumericFlag {
            commands: "solve, settings",
            ..own(
                "seed",
                any,
                "seed of the proximity search (settings: of the grid)",
            )
        },
        passed_on(
            "position-limit",
            SOLVE,
            "max-positions",
            "positions an attempt but the final may examine",
        ),
        own(
            "attempts",
            whole_range(0, 10_000),
            "attempts before the final (0: only the final)",
        ),
        own("jobs", whole_range(1, 256), "solver processes at once"),
        own(
            "time-budget",
            SECONDS,
            "seconds the whole run may take, all phases together",
        ),
        own(
            "position-budget",
            whole_range(1, u64::MAX),
            "positions all solver runs together may examine",
        ),
        own("wave", whole_range(1, 1000), "attempts planned together"),
        own(
            "variants",
            whole_range(0, 100),
            "easier-variant recipes tried when the attempts fail (0: none)",
        ),
        own(
            "restarts",
            whole_range(0, 100),
            "rounds of restarts from the best positions (0: none)",
        ),
        own(
            "parks",
            whole_range(0, 100),
            "rounds of parking the blocks on the master's way (0: none)",
        ),
        own(
            "attempt-timeout",
            SECONDS,
            "seconds before an attempt is killed",
        ),
        own(
            "final-timeout",
            SECONDS,
            "seconds before the final attempt is killed",
        ),
        passed_on(
            "max-memory",
            SOLVE,
            "max-memory",
            "the solver's --max-memory",
        ),
        own(
            "min-distance",
            DISTANCE,
            "proximity search: least distance to a tried set",
        ),
        own(
            "max-distance",
            DISTANCE,
            "proximity search: most distance to a tried set",
        ),
    ]
}

/// The numeric flags of `reasoner casebase add` and `reasoner settings`.
fn other_flags() -> Vec<NumericFlag> {
    vec![
        passed_on("weight", ADD, "weight", "A*'s weight on the heuristic"),
        passed_on(
            "position-limit",
            ADD,
            "max-positions",
            "stop the solver after N positions",
        ),
        NumericFlag {
            commands: "settings",
            ..own(
                "grid",
                whole_range(0, 10_000),
                "parameter sets printed: the general settings, then the proximity search's draws",
            )
        },
        NumericFlag {
            commands: "settings",
            // A board has at most 128 x 128 cells.
            ..own(
                "spaces",
                whole_range(0, 128 * 128),
                "the puzzle's number of spaces",
            )
        },
    ]
}

/// The declaration of `--name` (first match: the same name has the same
/// range in every command that takes it).
fn declared(name: &str) -> NumericFlag {
    numeric_flags()
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no numeric flag --{name} in numeric_flags()"))
}

/// Reads one value of `flag` as a real number (whole numbers and sizes
/// exactly); the message says what the flag takes.
fn read(flag: &NumericFlag, s: &str) -> Result<f64, String> {
    let t = s.trim();
    let value = match flag.range {
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
    value.ok_or_else(|| format!("must be {}", flag.describe()))
}

/// Reads `--name`'s whole-number value, checking its range.
pub fn whole(name: &str, s: &str) -> Result<u64, String> {
    read(&declared(name), s).and_then(|_| s.trim().parse().map_err(|e| format!("{e}")))
}

/// Reads `--name`'s real value(s), `count` of them separated by commas.
pub fn reals(name: &str, s: &str) -> Result<Vec<f64>, String> {
    let f = declared(name);
    let parts: Vec<&str> = s.split(',').collect();
    let count = match f.arity {
        Arity::Exactly(n) => n,
        _ => 1,
    };
    if parts.len() != count {
        return Err(format!("must be {}", f.describe()));
    }
    let one = NumericFlag {
        arity: Arity::One,
        ..f
    };
    parts
        .iter()
        .map(|p| read(&one, p).map_err(|_| format!("must be {}", f.describe())))
        .collect()
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
    pub fn grid(s: &str) -> Result<usize, String> {
        whole("grid", s).map(|n| n as usize)
    }
    pub fn spaces(s: &str) -> Result<u64, String> {
        whole("spaces", s)
    }
    pub fn attempts(s: &str) -> Result<usize, String> {
        whole("attempts", s).map(|n| n as usize)
    }
    pub fn position_budget(s: &str) -> Result<u64, String> {
        whole("position-budget", s)
    }
    pub fn time_budget(s: &str) -> Result<Duration, String> {
        let x = reals("time-budget", s)?[0];
        Ok(Duration::from_secs_f64(x))
    }
    pub fn jobs(s: &str) -> Result<usize, String> {
        whole("jobs", s).map(|n| n as usize)
    }
    pub fn wave(s: &str) -> Result<usize, String> {
        whole("wave", s).map(|n| n as usize)
    }
    pub fn variants(s: &str) -> Result<usize, String> {
        whole("variants", s).map(|n| n as usize)
    }
    pub fn restarts(s: &str) -> Result<usize, String> {
        whole("restarts", s).map(|n| n as usize)
    }
    pub fn parks(s: &str) -> Result<usize, String> {
        whole("parks", s).map(|n| n as usize)
    }
    pub fn seconds(s: &str) -> Result<Duration, String> {
        let x = reals("attempt-timeout", s)?[0];
        Ok(Duration::from_secs_f64(x))
    }
    pub fn max_memory(s: &str) -> Result<u64, String> {
        read(&declared("max-memory"), s).map(|n| n as u64)
    }
    pub fn distance(s: &str) -> Result<f64, String> {
        Ok(reals("min-distance", s)?[0])
    }
    pub fn weight(s: &str) -> Result<f64, String> {
        Ok(reals("weight", s)?[0])
    }
    /// `--retrieval`: one of [`crate::retrieval::NAMES`].
    pub fn retrieval(s: &str) -> Result<crate::retrieval::Retrieval, String> {
        crate::retrieval::Retrieval::by_name(s.trim()).ok_or_else(|| {
            format!(
                "must be one of {} (similar: the cases --similarity ranks first)",
                crate::retrieval::NAMES.join(", ")
            )
        })
    }
}

/// The README's table of numeric flags.
pub fn table() -> String {
    let mut t = String::from("| flag | command | valid values | meaning |\n|---|---|---|---|\n");
    for f in numeric_flags() {
        t.push_str(&format!(
            "| `--{}` | {} | {} | {} |\n",
            f.name,
            f.commands,
            f.describe(),
            f.meaning
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
        assert!(weight("inf").is_err() && weight("0").is_err());
        assert!(distance("NaN").is_err());
        assert_eq!(retrieval("none"), Ok(crate::retrieval::Retrieval::None));
        assert!(retrieval("thesis")
            .unwrap_err()
            .starts_with("must be one of similar, random, none"));
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
