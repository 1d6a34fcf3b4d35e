//! Import of the thesis's text case base (§7.2.1).
//!
//! The file is a list of sections, each ended by a line `!`; a line `!!` ends
//! the case base. The first section declares the feature names, one a line;
//! then each case has two sections: its features and its solution attributes,
//! both as lines `name low high`. A `comment` line carries free text (the
//! thesis's parser ignored it; the importer names the case after it). A range
//! with `low > high` is an uninitialised field and is dropped.
//!
//! Solution attributes (codes are not listed in the thesis; these readings fit
//! its example, A* with weight 30):
//!
//! | attribute                    | meaning                                    |
//! |------------------------------|--------------------------------------------|
//! | `algorithm`                  | 0 or 1 BFS, 2 A*, 3 IDA*                   |
//! | `heuristic`                  | 0 h0, 1 h1, 2 h2 (default h0)              |
//! | `heuristic_weight`, `weight` | A*'s weight                                |
//! | `h2_a`, `h2_b`, `h2_c`       | h2's three weights                         |
//! | `spacevalue`, `space_value`  | space-value cutoff; 0 or less is off       |
//! | `restingblock`, `resting`    | 0 off, 1 relaxed, 2 strict                 |
//! | `metric`                     | 0 steps, 1 moves                           |
//!
//! Unknown attributes and undeclared features are kept out of the case and
//! reported as warnings. Imported cases are `hand-tuned`, as the thesis's
//! case base was (§6.3.1).

use std::collections::HashSet;
use std::path::Path;

use crate::casebase::{Case, FoundBy, Outcome, Provenance};
use crate::error::Error;
use crate::features::{decimal_log10, Features, Range, SEARCH_SPACE_LOG10, SEARCH_SPACE_SIZE};
use crate::params::{Algorithm, Heuristic, Metric, ParamSet, Value};
use crate::plan::H2_WEIGHT_MAX;

/// Cases read from a legacy file, with warnings about what was left out.
#[derive(Debug)]
pub struct Imported {
    pub cases: Vec<Case>,
    pub warnings: Vec<String>,
}

struct Line<'a> {
    number: usize,
    name: &'a str,
    rest: &'a str,
}

/// The error for `line` of the case base at `path`.
fn syntax_error(path: &Path, line: usize, message: String) -> Error {
    Error::CaseBaseSyntax {
        path: path.to_path_buf(),
        line,
        column: 1,
        message,
    }
}

/// Reads a legacy case base; `path` names the file in errors and provenance.
pub fn import(text: &str, path: &Path) -> Result<Imported, Error> {
    let err = |line: usize, message: String| syntax_error(path, line, message);
    let last_line = text.lines().count().max(1);
    let mut sections = split_sections(text, path)?.into_iter();
    let declared: Vec<String> = sections
        .next()
        .ok_or_else(|| err(1, "missing the field-definition section".to_string()))?
        .iter()
        .map(|l| l.name.to_string())
        .collect();
    let rest: Vec<Vec<Line>> = sections.collect();
    if !rest.len().is_multiple_of(2) {
        let at = rest
            .last()
            .and_then(|s| s.last())
            .map(|l| l.number)
            .unwrap_or(last_line);
        return Err(err(
            at,
            "a case's features have no solution section after them".to_string(),
        ));
    }
    let mut imported = Imported {
        cases: Vec::new(),
        warnings: Vec::new(),
    };
    // The names given so far: a set, so that naming N cases stays linear.
    let mut taken: HashSet<String> = HashSet::new();
    for (k, pair) in rest.chunks(2).enumerate() {
        let (feature_lines, solution_lines) = (&pair[0], &pair[1]);
        let (features, comment) =
            read_features(feature_lines, &declared, path, &mut imported.warnings)?;
        let params = read_params(solution_lines, path, &mut imported.warnings)?;
        let first_line = feature_lines
            .first()
            .or(solution_lines.first())
            .map(|l| l.number)
            .unwrap_or(1);
        sbp_protocol::ranges::weight()
            .check(params.weight)
            .map_err(|m| err(first_line, format!("case {}: {m}", k + 1)))?;
        let name = unique_name(comment.as_deref(), k, &taken);
        taken.insert(name.clone());
        imported.cases.push(Case {
            name,
            comment,
            provenance: Provenance::default(),
            features,
            params,
            outcome: Outcome {
                steps: None,
                moves: None,
                positions_examined: None,
                found_by: FoundBy::HandTuned,
                found_at: None,
            },
            profile: Vec::new(),
        });
    }
    Ok(imported)
}

/// Splits the text into its `!`-ended sections of non-blank lines, checking
/// that a `!!` line closes it and nothing follows.
fn split_sections<'a>(text: &'a str, path: &Path) -> Result<Vec<Vec<Line<'a>>>, Error> {
    let mut sections: Vec<Vec<Line>> = Vec::new();
    let mut current: Vec<Line> = Vec::new();
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if ended {
            return Err(syntax_error(
                path,
                number,
                "text after the closing `!!`".to_string(),
            ));
        }
        match line {
            "!!" => {
                if !current.is_empty() {
                    sections.push(std::mem::take(&mut current));
                }
                ended = true;
            }
            "!" => sections.push(std::mem::take(&mut current)),
            _ => {
                let (name, rest) = line
                    .split_once(char::is_whitespace)
                    .map(|(n, r)| (n, r.trim()))
                    .unwrap_or((line, ""));
                current.push(Line { number, name, rest });
            }
        }
    }
    if !ended {
        let last_line = text.lines().count().max(1);
        return Err(syntax_error(
            path,
            last_line,
            "missing the closing `!!` line".to_string(),
        ));
    }
    Ok(sections)
}

/// Reads a case's feature section into its features and its `comment`;
/// undeclared features are left out with a warning, uninitialised ranges
/// dropped.
fn read_features(
    lines: &[Line],
    declared: &[String],
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<(Features, Option<String>), Error> {
    let mut features = Features::default();
    let mut comment = None;
    for l in lines {
        if l.name == "comment" {
            comment = Some(l.rest.to_string());
            continue;
        }
        let (lo, hi) = range_of(l).map_err(|m| syntax_error(path, l.number, m))?;
        if !declared.iter().any(|d| d == l.name) {
            warnings.push(format!(
                "{}:{}: feature {} is not declared in the first section; left out",
                path.display(),
                l.number,
                l.name
            ));
            continue;
        }
        let (lo_v, hi_v) = numeric_range(l, lo, hi, path)?;
        if lo_v > hi_v {
            continue; // uninitialised
        }
        if l.name == SEARCH_SPACE_SIZE {
            if let (Some(a), Some(b)) = (decimal_log10(lo), decimal_log10(hi)) {
                features.insert(SEARCH_SPACE_LOG10, Range::new(a, b));
            }
            if !(lo_v.is_finite() && hi_v.is_finite()) {
                continue;
            }
        }
        features.insert(l.name, Range::new(lo_v, hi_v));
    }
    Ok((features, comment))
}

/// The two bounds of a line's range as numbers.
fn numeric_range(l: &Line, lo: &str, hi: &str, path: &Path) -> Result<(f64, f64), Error> {
    match (lo.parse::<f64>().ok(), hi.parse::<f64>().ok()) {
        (Some(lo_v), Some(hi_v)) => Ok((lo_v, hi_v)),
        _ => Err(syntax_error(
            path,
            l.number,
            format!("{}: not a number range", l.name),
        )),
    }
}

/// Reads a case's solution section into parameters (codes in the module
/// table); unknown attributes are left out with a warning.
fn read_params(lines: &[Line], path: &Path, warnings: &mut Vec<String>) -> Result<ParamSet, Error> {
    let mut params = ParamSet::default();
    // The thesis's h2 weights, kept with the h2 heuristic only (its default
    // weights otherwise, as the solver declares them).
    let mut h2 = [1.0, 0.0, 1.0];
    for l in lines {
        if l.name == "comment" {
            continue;
        }
        let (lo, hi) = range_of(l).map_err(|m| syntax_error(path, l.number, m))?;
        let (v, hi_v) = numeric_range(l, lo, hi, path)?;
        if v > hi_v {
            continue; // uninitialised
        }
        let code = |table: &[(i64, &'static str)]| -> Result<&'static str, Error> {
            table
                .iter()
                .find(|(c, _)| *c as f64 == v)
                .map(|(_, n)| *n)
                .ok_or_else(|| {
                    syntax_error(path, l.number, format!("{}: unknown code {v}", l.name))
                })
        };
        match l.name {
            "algorithm" => {
                params.algorithm = match code(&[(0, "bfs"), (1, "bfs"), (2, "astar"), (3, "ida")])?
                {
                    "bfs" => Algorithm::Bfs,
                    "astar" => Algorithm::Astar,
                    _ => Algorithm::Ida,
                }
            }
            "heuristic" => {
                params.heuristic = Heuristic::new(code(&[(0, "h0"), (1, "h1"), (2, "h2")])?)
            }
            "heuristic_weight" | "weight" => params.weight = v,
            "h2_a" | "h2_b" | "h2_c" => {
                let k = (l.name.as_bytes()[3] - b'a') as usize;
                h2[k] = h2_weight(l, v, path)?;
            }
            "spacevalue" | "space_value" => {
                let cutoff = space_value(l, v, path)?;
                params.settings.set("space_value", cutoff)
            }
            "restingblock" | "resting" => {
                let level = code(&[(0, "off"), (1, "relaxed"), (2, "strict")])?;
                params
                    .settings
                    .set("resting", Some(Value::Text(level.into())))
            }
            "metric" => {
                params.metric = match code(&[(0, "steps"), (1, "moves")])? {
                    "steps" => Metric::Steps,
                    _ => Metric::Moves,
                }
            }
            other => warnings.push(format!(
                "{}:{}: unknown solution attribute {other}; left out",
                path.display(),
                l.number
            )),
        }
    }
    if params.algorithm.informed() && params.heuristic.name() == "h2" {
        params.settings.set("h2", Some(Value::Reals(h2.to_vec())));
    }
    if !params.algorithm.informed() {
        params.heuristic = Heuristic::default();
        params.weight = ParamSet::default().weight;
    }
    Ok(params)
}

/// The space-value cutoff of line `l`: none at 0 or below (the thesis's
/// "off"), else the value rounded, which a case base must be able to hold
/// (a whole number up to `i64::MAX`, TOML's integers); a larger one, an
/// infinity or NaN is an error at the line rather than a cutoff the file
/// never said.
fn space_value(l: &Line, v: f64, path: &Path) -> Result<Option<Value>, Error> {
    if v <= 0.0 {
        return Ok(None);
    }
    // 2^63 as f64; the rounded values below it fit i64.
    if v.is_finite() && v.round() < 9_223_372_036_854_775_808.0 {
        return Ok(Some(Value::Whole(v.round() as u64)));
    }
    let m = format!(
        "{}: the space-value cutoff is a whole number up to {}; got {v}",
        l.name,
        i64::MAX
    );
    Err(syntax_error(path, l.number, m))
}

/// One of the thesis's h2 weights, refused at its line outside the range
/// the solver declares (checked in plan.rs's tests), so that no case is
/// written that a cycle would refuse.
fn h2_weight(l: &Line, v: f64, path: &Path) -> Result<f64, Error> {
    if (0.0..=H2_WEIGHT_MAX).contains(&v) {
        return Ok(v);
    }
    let m = format!(
        "{}: h2's weights are numbers from 0 to {H2_WEIGHT_MAX}; got {v}",
        l.name
    );
    Err(syntax_error(path, l.number, m))
}

/// The name of case `k` (from 0): its comment, or `legacy case N`, with
/// ` (2)`, ` (3)`, ... added while it clashes with a case already read.
fn unique_name(comment: Option<&str>, k: usize, taken: &HashSet<String>) -> String {
    let base_name = comment
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| format!("legacy case {}", k + 1));
    super::unique_name(&base_name, |n| taken.contains(n))
}

/// The two tokens of `name low high`.
fn range_of<'a>(l: &Line<'a>) -> Result<(&'a str, &'a str), String> {
    let mut it = l.rest.split_whitespace();
    match (it.next(), it.next(), it.next()) {
        (Some(a), Some(b), None) => Ok((a, b)),
        _ => Err(format!(
            "{}: expected `{} LOW HIGH`, got `{} {}`",
            l.name, l.name, l.name, l.rest
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THESIS: &str = "search_space_size
search_space_size_type
branching_factor
regular_shapes
block_size
num_of_spaces
puzzle_size
!

comment                puzzle 04 american pie
search_space_size      110000000000000000 110000000000000000
search_space_size_type 20 20
branching_factor       9.73991 9.73991
regular_shapes        0.96 0.96
block_size            2 2
num_of_spaces         6 6
puzzle_size           56 56
!
algorithm             2 2
heuristic_weight      30 30
spacevalue            45 45
restingblock          2 2
!
comment  huge
search_space_size 1e400 1e400
search_space_size_type 20 20
puzzle_size 10100 -10100
mystery 1 1
!
algorithm 1 1
queue_size 5 5
!
!!
";

    #[test]
    fn imports_the_thesis_example() {
        let got = import(THESIS, Path::new("old.txt")).unwrap();
        assert_eq!(got.cases.len(), 2);
        let c = &got.cases[0];
        assert_eq!(c.name, "puzzle 04 american pie");
        assert_eq!(c.params.algorithm, Algorithm::Astar);
        assert_eq!(c.params.weight, 30.0);
        assert_eq!(
            c.params.settings.get("space_value"),
            Some(&Value::Whole(45))
        );
        assert_eq!(
            c.params.settings.get("resting"),
            Some(&Value::Text("strict".into()))
        );
        assert_eq!(c.features.get("num_of_spaces"), Some(Range::point(6.0)));
        let l = c.features.get(SEARCH_SPACE_LOG10).unwrap();
        assert!((l.lo - 1.1e17f64.log10()).abs() < 1e-12);
        assert_eq!(c.outcome.found_by, FoundBy::HandTuned);
        let h = &got.cases[1];
        assert_eq!(h.params, ParamSet::default());
        assert_eq!(h.features.get(SEARCH_SPACE_SIZE), None);
        assert!((h.features.get(SEARCH_SPACE_LOG10).unwrap().lo - 400.0).abs() < 1e-9);
        assert_eq!(h.features.get("puzzle_size"), None);
        assert_eq!(got.warnings.len(), 2, "{:?}", got.warnings);
        assert!(
            got.warnings[0].contains("old.txt:28:"),
            "{:?}",
            got.warnings
        );
    }

    #[test]
    fn errors_carry_the_line() {
        let bad = THESIS.replace("block_size            2 2", "block_size 2");
        let e = import(&bad, Path::new("old.txt")).unwrap_err();
        assert!(e.to_string().starts_with("old.txt:15:"), "{e}");
        let open = THESIS.replace("!!\n", "");
        assert!(import(&open, Path::new("old.txt"))
            .unwrap_err()
            .to_string()
            .contains("!!"));
        let code = THESIS.replace("restingblock          2 2", "restingblock 7 7");
        let e = import(&code, Path::new("old.txt")).unwrap_err();
        assert!(e.to_string().starts_with("old.txt:22:"), "{e}");
        // An h2 weight the solver would refuse is refused here, not written.
        let h2 = THESIS.replace("restingblock          2 2", "h2_b -1 -1");
        let e = import(&h2, Path::new("old.txt")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("old.txt:22:1: h2_b: h2's weights"),
            "{e}"
        );
        // A cutoff no case base can hold is refused at its line, not turned
        // into u64::MAX (which saving would then refuse, naming a number the
        // file never said).
        for huge in ["1e30", "inf", "NaN", "9223372036854775808"] {
            let text = THESIS.replace(
                "spacevalue            45 45",
                &format!("spacevalue {huge} {huge}"),
            );
            let e = import(&text, Path::new("old.txt")).unwrap_err().to_string();
            assert!(
                e.starts_with("old.txt:21:1: spacevalue: the space-value cutoff is a whole number up to 9223372036854775807"),
                "{huge}: {e}"
            );
        }
        let text = THESIS.replace(
            "spacevalue            45 45",
            "spacevalue 9223372036854774784 9223372036854774784",
        );
        let c = &import(&text, Path::new("old.txt")).unwrap().cases[0];
        assert_eq!(
            c.params.settings.get("space_value"),
            Some(&Value::Whole(9223372036854774784))
        );
    }
}
