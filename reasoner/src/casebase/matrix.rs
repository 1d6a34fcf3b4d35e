//! `reasoner casebase from-matrix`: a case base built (or extended) from the
//! rows of a performance matrix (`experiments/`: every benchmark puzzle run
//! with every setting of the parameter grid, one JSON line per run).
//!
//! * One case per puzzle, named after the file's stem (made unique), with
//!   the puzzle's path and SHA-256 as its provenance and its features from
//!   `solver features`, as a retained case has them.
//! * Its parameters are the solved setting with the fewest positions (ties:
//!   the shorter solution, then the setting's name); its outcome is that
//!   row's. `found_by` is `hand-tuned` when that setting is one of the
//!   general settings (named `standard: ...`, chosen by hand in the thesis)
//!   and `proximity-search` otherwise: the grid's other points are the
//!   proximity search's draws (`grid.rs`), and the best of them was found by
//!   trying them.
//! * Its profile is every row of the puzzle but those with status `error`
//!   (a run that gave no answer says nothing about the setting), one per
//!   setting and limit, in the order a merge gives ([`super::merge::union`]).
//! * A puzzle no setting solved gives no case (counted in the summary).
//! * A puzzle the case base holds already (same SHA-256) keeps its case:
//!   the profiles are joined and the better outcome kept, as a merge does
//!   ([`super::merge::absorb`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::schema::{Case, FoundBy, Outcome, Provenance, Trial};
use crate::error::Error;
use crate::params::{Metric, ParamSet};
use crate::runner::Runner;

/// How a matrix run ended: the solver's statuses, or `error` (no answer).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RowStatus {
    Solved,
    NoSolution,
    LimitReached,
    Error,
}

/// One row of the matrix: one solver run (fields not listed, such as
/// `args` and `error`, are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct Row {
    pub puzzle: String,
    #[serde(default)]
    pub family: Option<String>,
    pub setting: String,
    pub params: ParamSet,
    #[serde(default)]
    pub limit: Option<u64>,
    status: RowStatus,
    #[serde(default)]
    pub positions: Option<u64>,
    #[serde(default)]
    pub seconds: Option<f64>,
    #[serde(default)]
    pub length: Option<u64>,
}

impl Row {
    /// The profile entry of this run; `None` for an `error` row.
    fn trial(&self) -> Option<Trial> {
        let status = match self.status {
            RowStatus::Solved => sbp_protocol::Status::Solved,
            RowStatus::NoSolution => sbp_protocol::Status::NoSolution,
            RowStatus::LimitReached => sbp_protocol::Status::LimitReached,
            RowStatus::Error => return None,
        };
        Some(Trial {
            params: self.params.clone(),
            status,
            positions: self.positions.unwrap_or(0),
            limit: self.limit,
            seconds: self.seconds,
            length: self.length,
        })
    }
}

/// The rows read, by puzzle path, each with the file and line it came from.
#[derive(Debug, Default)]
pub struct Rows {
    pub by_puzzle: BTreeMap<String, Vec<(Row, String)>>,
    /// Rows read (those of excluded families too).
    pub read: usize,
    /// Rows left out by `--exclude-family`.
    pub excluded: usize,
}

/// Reads the matrix files' rows, leaving out those of `exclude`d
/// families; a line that is not a row is an error naming file and line.
pub fn read_rows(files: &[PathBuf], exclude: &[String]) -> Result<Rows, Error> {
    let mut rows = Rows::default();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", file.display(), i + 1);
            let row: Row = serde_json::from_str(line).map_err(|e| {
                Error::Usage(format!(
                    "{at}: not a matrix row ({e}); see casebase/README.md"
                ))
            })?;
            if row.status != RowStatus::Error && row.positions.is_none() {
                return Err(Error::Usage(format!(
                    "{at}: a row of status other than error needs `positions`"
                )));
            }
            rows.read += 1;
            if row.family.as_ref().is_some_and(|f| exclude.contains(f)) {
                rows.excluded += 1;
                continue;
            }
            rows.by_puzzle
                .entry(row.puzzle.clone())
                .or_default()
                .push((row, at));
        }
    }
    Ok(rows)
}

/// The winning row of a puzzle's rows: the solved one with the fewest
/// positions, then the shortest solution, then the setting's name.
fn winner(rows: &[(Row, String)]) -> Option<&Row> {
    rows.iter()
        .map(|(r, _)| r)
        .filter(|r| r.status == RowStatus::Solved)
        .min_by(|a, b| {
            (a.positions, a.length.unwrap_or(u64::MAX), &a.setting).cmp(&(
                b.positions,
                b.length.unwrap_or(u64::MAX),
                &b.setting,
            ))
        })
}

/// The case of one puzzle's rows, its features asked of the solver; `None`
/// when no row solved it. A puzzle file that is gone is an error.
pub async fn case_of(
    runner: &Runner,
    puzzle: &str,
    rows: &[(Row, String)],
) -> Result<Option<Case>, Error> {
    let Some(win) = winner(rows) else {
        return Ok(None);
    };
    let path = Path::new(puzzle);
    if !path.is_file() {
        return Err(Error::Usage(format!(
            "{}: puzzle {puzzle} is not a file (gone, or the matrix was made in another folder: \
             its paths are read from the current folder)",
            rows[0].1
        )));
    }
    let features = runner.features(path, None).await?;
    let trials: Vec<Trial> = rows.iter().filter_map(|(r, _)| r.trial()).collect();
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| puzzle.to_string());
    let (steps, moves) = match win.params.metric {
        Metric::Moves => (None, win.length),
        Metric::Steps => (win.length, None),
    };
    let found_by = match win.setting.starts_with("standard: ") {
        true => FoundBy::HandTuned,
        false => FoundBy::ProximitySearch,
    };
    Ok(Some(Case {
        name,
        comment: None,
        provenance: Provenance {
            puzzle: Some(puzzle.to_string()),
            sha256: Some(super::sha256_file(path)?),
        },
        features: features.features,
        params: win.params.clone(),
        outcome: Outcome {
            steps,
            moves,
            positions_examined: win.positions,
            found_by,
            found_at: Some(super::schema::utc_now()),
        },
        profile: super::merge::union([&trials[..]]),
    }))
}

/// What adding cases to a case base did.
#[derive(Debug, Default, PartialEq)]
pub struct Added {
    pub added: usize,
    pub updated: usize,
    pub kept: usize,
}

/// Adds `cases` to the case base: a puzzle it holds (same SHA-256) is
/// absorbed into its case, another gets a case of its own name (made
/// unique).
pub fn add_all(cb: &mut super::Edit, cases: Vec<Case>) -> Added {
    let mut done = Added::default();
    for case in cases {
        let same = cb.cases.iter().position(|c| {
            c.provenance.sha256.is_some() && c.provenance.sha256 == case.provenance.sha256
        });
        match same {
            Some(i) => match super::merge::absorb(&mut cb.cases[i], case) {
                true => done.updated += 1,
                false => done.kept += 1,
            },
            None => {
                let name = super::unique_name(&case.name, |n| cb.find(n).is_some());
                cb.push(Case { name, ..case });
                done.added += 1;
            }
        }
    }
    done
}

/// The cases a matrix gives, and what became of its rows.
#[derive(Debug)]
pub struct Built {
    pub cases: Vec<Case>,
    pub rows: Rows,
    /// Puzzles no setting solved (no case).
    pub unsolved: usize,
}

/// Reads the matrix `files` (rows of `exclude`d families left out) and
/// makes a case of each puzzle a setting solved, in puzzle-path order.
pub async fn build(runner: &Runner, files: &[PathBuf], exclude: &[String]) -> Result<Built, Error> {
    let rows = read_rows(files, exclude)?;
    let mut cases = Vec::new();
    let mut unsolved = 0;
    for (puzzle, of_puzzle) in &rows.by_puzzle {
        match case_of(runner, puzzle, of_puzzle).await? {
            Some(case) => cases.push(case),
            None => unsolved += 1,
        }
    }
    Ok(Built {
        cases,
        rows,
        unsolved,
    })
}

impl Built {
    /// The line `from-matrix` prints when it is done.
    pub fn summary(&self, added: &Added, file: &Path) -> String {
        format!(
            "from-matrix: {} rows ({} left out by --exclude-family), {} puzzles: {} cases added \
             to {}, {} updated with better parameters, {} kept (their profiles joined), {} \
             skipped: no setting solved them",
            self.rows.read,
            self.rows.excluded,
            self.rows.by_puzzle.len(),
            added.added,
            file.display(),
            added.updated,
            added.kept,
            self.unsolved
        )
    }
}
