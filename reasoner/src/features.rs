//! Puzzle features (thesis §3.2.2, §6.3.1, §7.1.5): numeric ranges read from
//! `solver features PUZZLE --json`.
//!
//! Every feature is a range `[low, high]` of reals, as in the thesis, to allow
//! for uncertain values; a point value is a range with `low == high`. The
//! search-space size may be far beyond what a float holds, so the reasoner
//! keeps its decimal logarithm as the feature `search_space_log10` (taken
//! from the solver's `search_space_log10`, or computed from the digits of
//! `search_space_size` when absent) and never converts the size itself.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub use sbp_protocol::features::{SEARCH_SPACE_LOG10, SEARCH_SPACE_SIZE, SEARCH_SPACE_SIZE_TYPE};

/// The puzzle's number of spaces from its features (at least 1; 1 when
/// unknown), as the general settings' cutoffs want it.
pub fn spaces_of(f: &Features) -> u64 {
    f.get(sbp_protocol::features::NUM_OF_SPACES)
        .map(|r| r.hi.round().max(1.0) as u64)
        .unwrap_or(1)
}

/// Features every `solver features` answer must carry (the thesis's six plus
/// the size type); the search-space size may come as its logarithm.
pub const REQUIRED: [&str; 6] = [
    SEARCH_SPACE_SIZE_TYPE,
    sbp_protocol::features::THESIS[0],
    sbp_protocol::features::THESIS[1],
    sbp_protocol::features::THESIS[2],
    sbp_protocol::features::THESIS[3],
    sbp_protocol::features::THESIS[4],
];

/// A closed range of reals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub lo: f64,
    pub hi: f64,
}

impl Range {
    pub fn new(lo: f64, hi: f64) -> Range {
        Range { lo, hi }
    }

    pub fn point(x: f64) -> Range {
        Range { lo: x, hi: x }
    }

    /// A usable range: both ends finite and `lo <= hi` (the thesis writes an
    /// unknown value as a range with `lo > hi`).
    pub fn is_known(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite() && self.lo <= self.hi
    }

    /// Distance between two ranges: 0 when they overlap, else the gap between
    /// them. For point ranges this is `|a - b|`, the thesis's term.
    pub fn gap(&self, other: &Range) -> f64 {
        if self.hi < other.lo {
            other.lo - self.hi
        } else if other.hi < self.lo {
            self.lo - other.hi
        } else {
            0.0
        }
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "[{}, {}]", self.lo, self.hi)
        }
    }
}

impl Serialize for Range {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.lo)?;
        t.serialize_element(&self.hi)?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Range {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Range;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a range [low, high] of two numbers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Range, A::Error> {
                let lo: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let hi: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(Range { lo, hi })
            }
        }
        d.deserialize_seq(V)
    }
}

/// A puzzle's features by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Features(pub BTreeMap<String, Range>);

impl Features {
    /// A known feature's range.
    pub fn get(&self, name: &str) -> Option<Range> {
        self.0.get(name).copied().filter(Range::is_known)
    }

    pub fn insert(&mut self, name: &str, range: Range) {
        self.0.insert(name.to_string(), range);
    }

    /// Natural logarithm of the search-space size, as a range.
    pub fn search_space_ln(&self) -> Option<Range> {
        let ln10 = std::f64::consts::LN_10;
        if let Some(r) = self.get(SEARCH_SPACE_LOG10) {
            return Some(Range::new(r.lo * ln10, r.hi * ln10));
        }
        self.get(SEARCH_SPACE_SIZE)
            .filter(|r| r.lo > 0.0)
            .map(|r| Range::new(r.lo.ln(), r.hi.ln()))
    }
}

/// What `solver features --json` reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FeatureReport {
    pub puzzle: String,
    pub name: Option<String>,
    pub features: Features,
    /// The blocks `solver solve --algorithm fluid` would treat as its fluid
    /// (0: the solver refuses it for this puzzle). Not a feature:
    /// similarity never sees it; the planner adds a fluid attempt by it.
    #[serde(skip_serializing_if = "is_zero")]
    pub fluid_units: u64,
    /// The puzzle's goal sections, from a solver that reports them (0: no
    /// goal, nothing to solve). Not a feature.
    #[serde(skip)]
    pub goal_sections: Option<u64>,
    /// Every goal fixes every block on a roomy board (`solver features`'
    /// `goal_kind` is `fixed`): the bidirectional search serves it, and the
    /// planner adds it to the general settings. Not a feature.
    #[serde(skip)]
    pub goal_fixed: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Deserialize)]
struct RawReport<'a> {
    #[serde(default)]
    puzzle: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(borrow)]
    features: BTreeMap<String, &'a RawValue>,
    #[serde(default, borrow)]
    search_space_log10: Option<&'a RawValue>,
    #[serde(default)]
    fluid_units: u64,
    #[serde(default)]
    goal_sections: Option<u64>,
    #[serde(default)]
    goal_kind: Option<String>,
}

/// Reads the JSON printed by `solver features PUZZLE --json`.
///
/// Unknown fields and features are accepted; a known feature that is not a
/// range of two numbers is an error, an unknown one is dropped. Numbers too
/// large for a float are read digit by digit for their logarithm.
pub fn parse_report(text: &str) -> Result<FeatureReport, String> {
    let raw: RawReport = serde_json::from_str(text.trim())
        .map_err(|e| format!("`solver features` printed invalid JSON: {e}"))?;
    let mut features = Features::default();
    let mut size_log10 = None;
    for (name, value) in &raw.features {
        let tokens = range_tokens(value.get());
        let required = REQUIRED.contains(&name.as_str()) || name == SEARCH_SPACE_SIZE;
        let range = tokens
            .as_ref()
            .and_then(|t| Some(Range::new(parse_real(&t.0)?, parse_real(&t.1)?)));
        if name == SEARCH_SPACE_SIZE {
            size_log10 = tokens
                .as_ref()
                .and_then(|t| Some(Range::new(decimal_log10(&t.0)?, decimal_log10(&t.1)?)));
        }
        match range {
            Some(r) if r.lo.is_finite() && r.hi.is_finite() => features.insert(name, r),
            _ if required && name != SEARCH_SPACE_SIZE => {
                return Err(format!(
                    "`solver features`: feature {name} is not a range [low, high] of numbers: {}",
                    value.get()
                ))
            }
            _ => {}
        }
    }
    let log10 = match raw.search_space_log10 {
        Some(v) => {
            let t = range_tokens(v.get()).ok_or_else(|| {
                format!(
                    "`solver features`: search_space_log10 is not a range: {}",
                    v.get()
                )
            })?;
            Some(Range::new(
                parse_real(&t.0).ok_or("bad search_space_log10")?,
                parse_real(&t.1).ok_or("bad search_space_log10")?,
            ))
        }
        None => size_log10,
    };
    match log10 {
        Some(r) if r.is_known() => features.insert(SEARCH_SPACE_LOG10, r),
        _ => {
            return Err(
                "`solver features` gave neither search_space_log10 nor a usable search_space_size"
                    .to_string(),
            )
        }
    }
    for name in REQUIRED {
        if features.get(name).is_none() {
            return Err(format!(
                "`solver features` did not report the feature {name}"
            ));
        }
    }
    Ok(FeatureReport {
        puzzle: raw.puzzle,
        name: raw.name,
        features,
        fluid_units: raw.fluid_units,
        goal_sections: raw.goal_sections,
        goal_fixed: raw.goal_kind.as_deref() == Some("fixed"),
    })
}

/// Splits the JSON text `[a, b]` into its two tokens.
fn range_tokens(json: &str) -> Option<(String, String)> {
    let inner = json.trim().strip_prefix('[')?.strip_suffix(']')?;
    let mut parts = inner.split(',').map(|s| s.trim().to_string());
    let a = parts.next()?;
    let b = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    Some((a, b))
}

/// A JSON number as a float (`null` and non-numbers are `None`; numbers
/// beyond the float range come out infinite).
fn parse_real(token: &str) -> Option<f64> {
    let ok = !token.is_empty()
        && token
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'));
    if ok {
        token.parse().ok()
    } else {
        None
    }
}

/// Decimal logarithm of a positive decimal number given as text, exact to
/// float precision however many digits it has (`"1e400"`, a 500-digit
/// integer). `None` for zero, negatives and non-numbers.
pub fn decimal_log10(token: &str) -> Option<f64> {
    let t = token.trim();
    if t.starts_with('-') {
        return None;
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    // All digits as one string, and the power of ten of its last digit.
    let digits: String = int.chars().chain(frac.chars()).collect();
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return None;
    }
    let scale = exp - frac.len() as i64;
    // The leading 17 significant digits carry all a float can hold.
    let lead = &digits[..digits.len().min(17)];
    let rest = (digits.len() - lead.len()) as i64;
    let lead_value: f64 = lead.parse().ok()?;
    Some(lead_value.log10() + (rest + scale) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str = r#"{"puzzle":"classic.txt","name":"Classic","features":{
        "search_space_size":[25955,25955],"search_space_size_type":[0,0],
        "branching_factor":[3.2324,3.2324],"regular_shapes":[1,1],"block_size":[1.8,1.8],
        "num_of_spaces":[2,2],"puzzle_size":[20,20],"master_distance":[3,3],
        "brand_new":[1,2],"odd":"text"},"search_space_log10":[4.414,4.414],"extra":true}"#;

    #[test]
    fn reads_the_solver_schema_and_ignores_unknown_fields() {
        let r = parse_report(CLASSIC).unwrap();
        assert_eq!(r.name.as_deref(), Some("Classic"));
        assert_eq!(r.features.get("num_of_spaces"), Some(Range::point(2.0)));
        assert_eq!(r.features.get("brand_new"), Some(Range::new(1.0, 2.0)));
        assert_eq!(r.features.get("odd"), None);
        assert_eq!(
            r.features.get(SEARCH_SPACE_LOG10),
            Some(Range::point(4.414))
        );
    }

    /// The goal's kind is a fact beside the features: `fixed` alone sets
    /// `goal_fixed`, and a solver that does not report it leaves it unset.
    #[test]
    fn a_fixed_goal_is_read_beside_the_features() {
        assert!(!parse_report(CLASSIC).unwrap().goal_fixed);
        for (kind, fixed) in [("fixed", true), ("crowded", false), ("free", false)] {
            let text = CLASSIC.replace(",\"extra\":true", &format!(",\"goal_kind\":\"{kind}\""));
            let r = parse_report(&text).unwrap();
            assert_eq!(r.goal_fixed, fixed, "{kind}");
            assert!(r.features.get("goal_kind").is_none());
        }
    }

    #[test]
    fn huge_sizes_are_read_as_logarithms() {
        let big = "1".to_string() + &"0".repeat(500);
        let text = CLASSIC
            .replace("[25955,25955]", &format!("[{big},1e600]"))
            .replace(",\"search_space_log10\":[4.414,4.414]", "");
        let r = parse_report(&text).unwrap();
        let l = r.features.get(SEARCH_SPACE_LOG10).unwrap();
        assert!((l.lo - 500.0).abs() < 1e-9 && (l.hi - 600.0).abs() < 1e-9);
        assert!((decimal_log10("25955").unwrap() - 25955f64.log10()).abs() < 1e-12);
        assert!((decimal_log10("0.0012e3").unwrap() - 1.2f64.log10()).abs() < 1e-12);
        assert_eq!(decimal_log10("0"), None);
        assert_eq!(decimal_log10("-5"), None);
    }

    #[test]
    fn missing_or_broken_features_are_errors() {
        let no_spaces = CLASSIC.replace("\"num_of_spaces\":[2,2],", "");
        assert!(parse_report(&no_spaces)
            .unwrap_err()
            .contains("num_of_spaces"));
        let broken = CLASSIC.replace("\"block_size\":[1.8,1.8]", "\"block_size\":[1.8]");
        assert!(parse_report(&broken).unwrap_err().contains("block_size"));
        assert!(parse_report("not json").is_err());
    }

    #[test]
    fn range_gap() {
        let a = Range::new(1.0, 3.0);
        assert_eq!(a.gap(&Range::new(2.0, 5.0)), 0.0);
        assert_eq!(a.gap(&Range::new(4.5, 5.0)), 1.5);
        assert_eq!(Range::new(4.5, 5.0).gap(&a), 1.5);
        assert_eq!(Range::point(2.0).gap(&Range::point(7.0)), 5.0);
        assert!(!Range::new(10100.0, -10100.0).is_known());
    }
}
