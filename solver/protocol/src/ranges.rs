//! The numeric parameters' valid ranges, one declaration per flag
//! ([`NUMERIC_FLAGS`]; a pruning's cutoff and a heuristic's own options
//! declare their ranges in their own files of the solver, see
//! [`crate::pruning`] and [`crate::options`]): the solver's command line parses against them
//! (`solver/src/cli/ranged.rs`), the documentation's range table is rendered
//! from them, the reasoner checks case bases against them and its proximity
//! search never leaves them.

/// The values a numeric flag accepts, both ends included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRange {
    /// A whole number.
    Whole { min: u64, max: u64 },
    /// A finite real number (not NaN, not infinite).
    Real { min: f64, max: f64 },
    /// A byte count, plain or with a suffix K, M, G or T (powers of 1024).
    Bytes { min: u64, max: u64 },
}

/// How many values one use of a flag carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    One,
    /// Exactly this many, separated by commas (`--h2 A,B,C`).
    Exactly(usize),
    /// One or more, separated by commas (`bench --threads 1,2`).
    List,
}

/// One numeric flag of `solver`: its name, where it applies, the values it
/// accepts and what it means. [`NUMERIC_FLAGS`] is the one declaration the
/// command line's value parsers and the documentation's range table derive from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumericFlag {
    /// The long flag without its dashes.
    pub name: &'static str,
    /// The subcommands that take it.
    pub commands: &'static str,
    pub arity: Arity,
    pub range: ValueRange,
    pub meaning: &'static str,
}

const GIB: u64 = 1 << 30;
const TIB: u64 = 1 << 40;

/// Every numeric flag of `solver` with its valid range. Values outside are
/// refused when the command line is read (exit 2, naming flag and range);
/// the upper ends keep every valid value from panicking, overflowing or
/// allocating in proportion to the value.
pub const NUMERIC_FLAGS: &[NumericFlag] = &[
    NumericFlag {
        name: "weight",
        commands: "solve, count, pdb",
        arity: Arity::One,
        // Below 1 would weaken the heuristic below plain A*; the thesis's
        // settings use 1 to 30, the reasoner's proximity search stays here.
        range: ValueRange::Real {
            min: 1.0,
            max: 100.0,
        },
        meaning: "weight W on the heuristic: f = g + W*h",
    },
    NumericFlag {
        name: "ida-limit",
        commands: "solve, count, pdb",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u32::MAX as u64,
        },
        meaning: "IDA*'s first f bound",
    },
    NumericFlag {
        name: "threads",
        commands: "solve, count, pdb",
        arity: Arity::One,
        range: ValueRange::Whole { min: 1, max: 256 },
        meaning: "worker threads (BFS; A*'s costly estimates; pattern database builds)",
    },
    NumericFlag {
        name: "jobs",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Whole { min: 1, max: 256 },
        meaning: "puzzles of a collection searched at once",
    },
    NumericFlag {
        name: "max-positions",
        commands: "solve, count, bench",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 1,
            max: u64::MAX,
        },
        meaning: "stop after examining N positions",
    },
    NumericFlag {
        name: "max-memory",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Bytes {
            min: 1 << 20,
            max: 1024 * TIB,
        },
        meaning: "stop before the process holds more bytes",
    },
    NumericFlag {
        name: "time-limit",
        commands: "solve, count",
        arity: Arity::One,
        range: ValueRange::Real { min: 0.0, max: 1e9 },
        meaning: "stop after S seconds",
    },
    NumericFlag {
        name: "max-length",
        commands: "solve",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u32::MAX as u64,
        },
        meaning: "only solutions of at most N actions: longer ones are pruned, none within N is no_solution",
    },
    NumericFlag {
        name: "budget-bytes",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Bytes {
            min: 0,
            max: 64 * GIB,
        },
        meaning: "bytes of positions the features' BFS may store",
    },
    NumericFlag {
        name: "budget-work",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u64::MAX,
        },
        meaning: "work units the features' BFS may use",
    },
    NumericFlag {
        name: "packing-calls",
        commands: "features",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 0,
            max: u64::MAX,
        },
        meaning: "recursive calls of the packing bound",
    },
    NumericFlag {
        name: "threads",
        commands: "bench",
        arity: Arity::List,
        range: ValueRange::Whole { min: 1, max: 256 },
        meaning: "thread counts to measure",
    },
    NumericFlag {
        name: "repeat",
        commands: "bench",
        arity: Arity::One,
        range: ValueRange::Whole { min: 1, max: 1000 },
        meaning: "runs per configuration",
    },
    NumericFlag {
        name: "width",
        commands: "show, solve, count, verify, features, import, render, improve, variant, pdb",
        arity: Arity::One,
        // The board's largest side (the solver's model::MAX_SIDE, which a
        // solver test checks against this).
        range: ValueRange::Whole { min: 1, max: 128 },
        meaning: "board width for --from tiles",
    },
    NumericFlag {
        name: "index",
        commands: "verify, import, render, improve, variant",
        arity: Arity::One,
        // A collection numbers its puzzles from 1; past its size the
        // command says how many it holds.
        range: ValueRange::Whole {
            min: 1,
            max: u32::MAX as u64,
        },
        meaning: "which puzzle of a collection (1-based)",
    },
    NumericFlag {
        name: "every",
        commands: "variant",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 1,
            max: u32::MAX as u64,
        },
        meaning: "a subgoal after every N moves of the variant's solution",
    },
    NumericFlag {
        name: "park-blocks",
        commands: "variant",
        arity: Arity::One,
        // A board holds at most 128x128 cells, each at most one block.
        range: ValueRange::Whole { min: 1, max: 16384 },
        meaning: "blocks --park parks at most",
    },
    NumericFlag {
        name: "best-count",
        commands: "solve",
        arity: Arity::One,
        // Each needs its path walked back from the visited set.
        range: ValueRange::Whole { min: 1, max: 1000 },
        meaning: "best positions --best-out writes",
    },
    NumericFlag {
        name: "window",
        commands: "improve",
        arity: Arity::One,
        // A shortcut search is bounded in depth by the window: beyond a few
        // hundred actions it is a full BFS in all but name.
        range: ValueRange::Whole { min: 1, max: 10000 },
        meaning: "longest stretch of the solution (in actions) one shortcut may replace",
    },
    NumericFlag {
        name: "max-positions",
        commands: "improve",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 1,
            max: u64::MAX,
        },
        meaning: "positions one shortcut search may expand",
    },
    NumericFlag {
        name: "max-total",
        commands: "improve",
        arity: Arity::One,
        range: ValueRange::Whole {
            min: 1,
            max: u64::MAX,
        },
        meaning: "positions all shortcut searches together may expand",
    },
    NumericFlag {
        name: "time-limit",
        commands: "improve",
        arity: Arity::One,
        range: ValueRange::Real { min: 0.0, max: 1e9 },
        meaning: "stop shortening after S seconds (the best so far is kept)",
    },
];

/// The declaration of flag `name` as `command` takes it.
///
/// # Panics
/// When the table has no such flag: a programming error caught by every test.
pub fn numeric_flag(command: &str, name: &str) -> &'static NumericFlag {
    NUMERIC_FLAGS
        .iter()
        .find(|f| f.name == name && f.commands.contains(command))
        .unwrap_or_else(|| panic!("no numeric flag --{name} for {command} in NUMERIC_FLAGS"))
}

/// What `arity` values within `range` are, in words: "a whole number from 1
/// to 256", "3 comma-separated values, each a number from 0 to 1000000".
pub fn describe(arity: Arity, range: ValueRange) -> String {
    let one = match range {
        ValueRange::Whole { min, max } => format!("a whole number from {min} to {max}"),
        ValueRange::Real { min, max } => format!("a number from {min} to {max}"),
        ValueRange::Bytes { min, max } => format!(
            "a byte count from {} to {} (suffixes K, M, G, T)",
            show_bytes(min),
            show_bytes(max)
        ),
    };
    match arity {
        Arity::One => one,
        Arity::Exactly(n) => format!("{n} comma-separated values, each {one}"),
        Arity::List => format!("comma-separated values, each {one}"),
    }
}

impl NumericFlag {
    /// What the flag accepts, in words ([`describe`]).
    pub fn describe(&self) -> String {
        describe(self.arity, self.range)
    }

    /// Checks one value (whole numbers as reals); the message names the
    /// flag and its range, as the solver's command line would.
    pub fn check(&self, x: f64) -> Result<(), String> {
        let ok = match self.range {
            ValueRange::Real { min, max } => x.is_finite() && x >= min && x <= max,
            ValueRange::Whole { min, max } | ValueRange::Bytes { min, max } => {
                x.fract() == 0.0 && x >= min as f64 && x <= max as f64
            }
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "--{} takes {}; got {x}",
                self.name,
                self.describe()
            ))
        }
    }

    /// `x` moved to the nearest value inside a real range (unchanged for
    /// other ranges).
    pub fn clamp(&self, x: f64) -> f64 {
        match self.range {
            ValueRange::Real { min, max } => x.clamp(min, max),
            _ => x,
        }
    }
}

/// `1048576`, `512K`, `64M`, `2G`, `1T` (powers of 1024); `None` when
/// unreadable or too large for 64 bits.
pub fn parse_bytes(s: &str) -> Option<u64> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = (&t[..split], t[split..].trim().to_ascii_uppercase());
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// A byte count with the largest suffix that divides it.
pub fn show_bytes(n: u64) -> String {
    for (shift, suffix) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if n > 0 && n.is_multiple_of(1u64 << shift) {
            return format!("{}{suffix}", n >> shift);
        }
    }
    n.to_string()
}

/// The weight of A* and IDA*.
pub fn weight() -> &'static NumericFlag {
    numeric_flag("solve", "weight")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_the_flag_and_the_range() {
        assert!(weight().check(1.0).is_ok() && weight().check(100.0).is_ok());
        assert_eq!(
            weight().check(0.5).unwrap_err(),
            "--weight takes a number from 1 to 100; got 0.5"
        );
        assert!(weight().check(f64::NAN).is_err());
        assert!(numeric_flag("solve", "threads").check(2.5).is_err());
        assert_eq!(weight().clamp(250.0), 100.0);
        assert_eq!(show_bytes(3 << 20), "3M");
    }

    #[test]
    fn byte_counts_read_as_the_solver_and_the_reasoner_need() {
        assert_eq!(parse_bytes("512k"), Some(512 << 10));
        assert_eq!(parse_bytes(" 2GiB "), Some(2 << 30));
        assert_eq!(parse_bytes("1000"), Some(1000));
        for bad in ["", "12Q", "-5M", "99999999999T"] {
            assert_eq!(parse_bytes(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_defaults_lie_in_their_ranges() {
        let defaults = crate::params::SearchParams::default();
        assert_eq!(defaults.check_ranges(), Ok(()));
        // And the check can fail: a weight below the range is refused.
        let light = crate::params::SearchParams {
            weight: 0.5,
            ..defaults
        };
        assert!(light.check_ranges().unwrap_err().contains("--weight"));
    }
}
