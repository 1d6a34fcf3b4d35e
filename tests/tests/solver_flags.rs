//! End-to-end tests of the solver's numeric flags: every value outside its
//! documented range exits 2 naming the flag and the range, and huge but
//! valid values neither panic nor allocate in proportion to the value.

use end_to_end::run_solver as solver;

const CLASSIC: &str = "puzzles/klotski/classic.txt";

#[test]
fn values_outside_the_range_exit_2_naming_flag_and_range() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", CLASSIC, "--weight", "inf"], "from 1 to 100"),
        (&["solve", CLASSIC, "--weight", "-1"], "from 1 to 100"),
        (&["solve", CLASSIC, "--weight", "0.5"], "from 1 to 100"),
        (&["solve", CLASSIC, "--h2", "NaN,1,1"], "from 0 to 1000000"),
        (&["solve", CLASSIC, "--h2", "-1,1,1"], "from 0 to 1000000"),
        (
            &["solve", CLASSIC, "--ida-limit", "4294967296"],
            "to 4294967295",
        ),
        (&["count", CLASSIC, "--threads", "1000000"], "from 1 to 256"),
        (&["count", CLASSIC, "--threads", "0"], "from 1 to 256"),
        (&["solve", CLASSIC, "--time-limit", "1e19"], "to 1000000000"),
        (&["solve", CLASSIC, "--time-limit", "inf"], "to 1000000000"),
        (
            &["solve", CLASSIC, "--max-memory", "12Q"],
            "from 1M to 1024T",
        ),
        (&["solve", CLASSIC, "--max-positions", "-5"], "from 1 to"),
        (&["solve", CLASSIC, "--space-value", "NaN"], "whole number"),
        (&["features", CLASSIC, "--budget-bytes", "65G"], "to 64G"),
        (&["bench", CLASSIC, "--threads", "1,0"], "from 1 to 256"),
        (&["bench", CLASSIC, "--repeat", "0"], "from 1 to 1000"),
        (&["show", CLASSIC, "--width", "129"], "from 1 to 128"),
    ];
    for (args, range) in cases {
        let out = solver(args);
        let err = String::from_utf8_lossy(&out.stderr);
        let flag = args[2];
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{flag} takes")) && err.contains(range),
            "{args:?} must name {flag} and its range {range}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?} printed a result");
    }
}
