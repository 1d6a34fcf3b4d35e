//! The case-base schema (version 2), documented with an example in
//! `casebase/README.md`. Version 2 adds, per case, the outcome of every
//! setting tried on its puzzle (its performance profile, [`Trial`]) and, per
//! case base, the fitted retrieval ([`Learned`]); version 1 reads as version
//! 2 with empty profiles and no fit.

use serde::{Deserialize, Serialize};

use crate::features::Features;
use crate::params::ParamSet;

/// Current schema version, written as `version = 2` at the top of the file.
pub const VERSION: u32 = 2;

/// A whole case base.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseBase {
    /// The version read; [`crate::casebase::load`] migrates an older one
    /// (it reads as [`VERSION`], and is written so).
    pub version: u32,
    /// The retrieval fitted to these cases by `reasoner learn` (absent until
    /// fitted); `reasoner solve` uses it by default when present. Declared
    /// before the cases so that it is written before them, in the prelude
    /// (`chunks.rs`): cases are then added by appending their tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<Learned>,
    #[serde(default, rename = "case")]
    pub cases: Vec<Case>,
    /// The file it was loaded from ([`crate::casebase::load`]), so that what
    /// is found wrong after loading still names the file and line; not part
    /// of the case base.
    #[serde(skip)]
    pub source: Option<std::path::PathBuf>,
    /// The comment lines the file began with, written back at its top (the
    /// default header when it had none); comments elsewhere are not kept:
    /// a note about a case goes in its `comment`.
    #[serde(skip)]
    pub header: Option<String>,
}

/// Two case bases are equal when they hold the same cases, wherever they
/// were loaded from.
impl PartialEq for CaseBase {
    fn eq(&self, other: &CaseBase) -> bool {
        self.version == other.version && self.cases == other.cases && self.learned == other.learned
    }
}

/// A solved puzzle: what it looks like, what solved it, and how well.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique within the case base.
    pub name: String,
    /// Free text (the thesis's `comment` field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default)]
    pub provenance: Provenance,
    /// Feature ranges by name (see `features.rs`).
    pub features: Features,
    /// The parameters that solved the puzzle.
    pub params: ParamSet,
    pub outcome: Outcome,
    /// Every setting tried on the puzzle and what it did (schema version 2),
    /// the winner's run included; empty for cases from version 1.
    #[serde(default, rename = "trial", skip_serializing_if = "Vec::is_empty")]
    pub profile: Vec<Trial>,
}

/// One setting tried on a case's puzzle under a position limit, and its
/// outcome: one entry of the case's performance profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trial {
    pub params: ParamSet,
    /// `solved`, `no_solution` or `limit_reached`, as the solver reports it.
    pub status: sbp_protocol::Status,
    /// Positions the run examined (up to its limit when it stopped there).
    pub positions: u64,
    /// The position limit it ran under (`None`: unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Wall-clock seconds of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// Solution length in the run's metric, when solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
}

/// A retrieval fitted to a case base (`reasoner learn`): a weight per
/// similarity term and how many nearest cases' profiles rank the settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Learned {
    /// Weight of each term of the extended similarity, by term name.
    pub weights: std::collections::BTreeMap<String, f64>,
    /// Nearest cases whose profiles rank the settings.
    pub k: u32,
    /// Cases it was fitted on.
    pub cases: u64,
    /// When, as UTC `YYYY-MM-DDTHH:MM:SSZ`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted_at: Option<String>,
}

/// Where the case's puzzle came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The puzzle file as given when the case was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
    /// SHA-256 of the puzzle file's bytes, lowercase hex (as `sha256sum` prints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// How the parameters were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FoundBy {
    /// Chosen by a person (or imported from the thesis's case base).
    HandTuned,
    /// A retrieved case's parameters solved it.
    CaseReuse,
    /// The randomized proximity search found them.
    ProximitySearch,
    /// They solved the puzzle with an easier variant's subgoals (`params.variant`).
    EasierVariant,
    /// They solved it from the best positions of an earlier attempt.
    Restart,
    /// They solved it with the blocks on the master's way parked first.
    Parking,
    /// They solved the rest of a door split (`split.rs`).
    DoorSplit,
}

impl FoundBy {
    pub fn name(self) -> &'static str {
        match self {
            FoundBy::HandTuned => "hand-tuned",
            FoundBy::CaseReuse => "case-reuse",
            FoundBy::ProximitySearch => "proximity-search",
            FoundBy::EasierVariant => "easier-variant",
            FoundBy::Restart => "restart",
            FoundBy::Parking => "parking",
            FoundBy::DoorSplit => "door-split",
        }
    }
}

/// The run that earned the case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Solution length in steps and in moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u64>,
    /// Positions the solver examined to solve it with `params`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions_examined: Option<u64>,
    pub found_by: FoundBy,
    /// When, as UTC `YYYY-MM-DDTHH:MM:SSZ`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_at: Option<String>,
}

/// Now as UTC `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc_timestamp(secs)
}

/// Seconds since 1970 as UTC `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian).
pub fn utc_timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from a day count, with 400-year eras starting on March 1st.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_timestamp(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc_timestamp(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
