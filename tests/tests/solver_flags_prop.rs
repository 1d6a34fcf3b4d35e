//! Property test over every numeric flag of `solver`: random values, biased
//! towards the hostile ones (0, negative, NaN, infinities, huge, overflowing,
//! malformed), run through the real binary on a tiny puzzle with small
//! position and time limits. Whatever the value, the solver answers with an
//! exit code of 0, 1 or 2, never a panic, an abort or a signal.

use std::path::PathBuf;

use end_to_end::run_solver;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// A 3x2 room with a master and one other block: a handful of positions.
const TINY: &str = "!\n@\no\n!\n#####\n#@o #\n#  o#\n#####\n!\n#####\n#   #\n#  @#\n#####\n!\n";

/// (subcommand, flag, how many comma-separated values)
const FLAGS: &[(&str, &str, usize)] = &[
    ("solve", "--weight", 1),
    ("solve", "--h2", 3),
    ("solve", "--ida-limit", 1),
    ("solve", "--space-value", 1),
    ("solve", "--threads", 1),
    ("solve", "--max-positions", 1),
    ("solve", "--max-memory", 1),
    ("solve", "--time-limit", 1),
    ("count", "--threads", 1),
    ("count", "--max-memory", 1),
    ("features", "--budget-bytes", 1),
    ("features", "--budget-work", 1),
    ("features", "--packing-calls", 1),
    ("bench", "--threads", 2),
    ("bench", "--repeat", 1),
    ("bench", "--max-positions", 1),
    ("show", "--width", 1),
];

fn tiny_puzzle() -> PathBuf {
    let path = std::env::temp_dir().join(format!("flags-prop-{}.txt", std::process::id()));
    std::fs::write(&path, TINY).expect("the tiny puzzle is written");
    path
}

/// One value: hostile constants, random integers and reals, byte counts.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-0",
            "-1",
            "1",
            "NaN",
            "nan",
            "inf",
            "-inf",
            "1e308",
            "1e19",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999",
            "",
            "1.5",
            "0x10",
            "12Q",
            "1T",
            "1024T",
            "1025T",
            "0K",
            "16M",
            "abc",
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        (0u64..1 << 20).prop_map(|v| v.to_string()),
        (
            0u64..100_000,
            prop::sample::select(vec!["K", "M", "G", "T"])
        )
            .prop_map(|(n, unit)| format!("{n}{unit}")),
    ]
}

/// The limits that keep each run short, unless the flag under test is one.
fn bounds<'a>(command: &str, flag: &str) -> Vec<&'a str> {
    let mut args = Vec::new();
    if matches!(command, "solve" | "count") {
        args.extend(["--quiet", "--algorithm", "ida", "--heuristic", "h2"]);
        if flag != "--max-positions" {
            args.extend(["--max-positions", "3000"]);
        }
        if flag != "--time-limit" {
            args.extend(["--time-limit", "5"]);
        }
    }
    args
}

proptest! {
    #![proptest_config(Config { cases: 256, failure_persistence: None, ..Config::default() })]

    #[test]
    fn no_numeric_flag_value_panics_or_aborts(
        which in 0..FLAGS.len(),
        values in prop::collection::vec(value(), 3),
    ) {
        let (command, flag, arity) = FLAGS[which];
        let value = values[..arity].join(",");
        let puzzle = tiny_puzzle();
        let mut args = vec![command, puzzle.to_str().unwrap(), flag, value.as_str()];
        args.extend(bounds(command, flag));
        let out = run_solver(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{args:?} ended with {:?}: {stderr}", out.status
        );
        prop_assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        if out.status.code() == Some(2) {
            prop_assert!(stderr.contains(flag), "{args:?} must name {flag}: {stderr}");
        }
    }
}
