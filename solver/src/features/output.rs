//! The two renderings of [`Features`]: the JSON record the reasoner reads
//! (one object per puzzle, every feature a `[low, high]` pair) and the
//! thesis-style table (`search_space_size 25955 25955`, fig. in §7.1.1).

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{Big, Features, Packing};

/// A search-space size as a JSON number a reader can compare: an exact
/// integer below 2^128, else the nearest `f64`, else (beyond `f64::MAX`, about
/// 1.8e308) `f64::MAX` itself; `search_space_log10` then carries the size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeNumber {
    Integer(u128),
    Float(f64),
}

impl SizeNumber {
    pub fn of(x: &Big) -> SizeNumber {
        match x.to_u128() {
            Some(v) => SizeNumber::Integer(v),
            None => {
                let f = x.to_f64();
                SizeNumber::Float(if f.is_finite() { f } else { f64::MAX })
            }
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            SizeNumber::Integer(v) => v as f64,
            SizeNumber::Float(f) => f,
        }
    }
}

impl Serialize for SizeNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            SizeNumber::Integer(v) => match u64::try_from(v) {
                Ok(small) => s.serialize_u64(small),
                Err(_) => s.serialize_u128(v),
            },
            SizeNumber::Float(f) => s.serialize_f64(f),
        }
    }
}

impl<'de> Deserialize<'de> for SizeNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SizeNumber, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = SizeNumber;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a non-negative number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SizeNumber, E> {
                Ok(SizeNumber::Integer(v as u128))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<SizeNumber, E> {
                Ok(SizeNumber::Integer(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SizeNumber, E> {
                u128::try_from(v)
                    .map(SizeNumber::Integer)
                    .map_err(|_| E::custom("negative search-space size"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<SizeNumber, E> {
                Ok(SizeNumber::Float(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// The features as `[low, high]` ranges, in the thesis's order, then the
/// extra ones. These names are the reasoner's interface: do not rename.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureRanges {
    pub search_space_size: [SizeNumber; 2],
    /// 0 exact, 10 packing bound, 20 combinatorial bound.
    pub search_space_size_type: [u8; 2],
    pub branching_factor: [f64; 2],
    pub regular_shapes: [f64; 2],
    pub block_size: [f64; 2],
    pub num_of_spaces: [u64; 2],
    pub puzzle_size: [u64; 2],
    pub master_distance: [u64; 2],
    pub block_types: [u64; 2],
    pub slider_share: [f64; 2],
    pub goal_blocks: [u64; 2],
    pub largest_block_to_spaces: [f64; 2],
}

/// One line of `solver features --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeaturesRecord {
    pub puzzle: String,
    pub name: Option<String>,
    pub features: FeatureRanges,
    /// Base-10 logarithm of the search-space size, exact in any magnitude.
    pub search_space_log10: [f64; 2],
    /// Every decimal digit of the search-space size.
    #[serde(default)]
    pub search_space_decimal: String,
    /// Distinct positions the budgeted breadth-first search reached: a
    /// lower bound on the reachable space.
    #[serde(default)]
    pub search_space_reached: u64,
    #[serde(default)]
    pub combinatorial_log10: f64,
    /// `not needed`, `counted` or `gave up`.
    #[serde(default)]
    pub packing: String,
    #[serde(default)]
    pub packing_calls_used: u64,
    /// Positions the branching factor averages over.
    #[serde(default)]
    pub branching_positions: u64,
    #[serde(default)]
    pub bfs_complete: bool,
    /// Positions the budgets let the breadth-first search examine.
    #[serde(default)]
    pub bfs_allowed_positions: u64,
    #[serde(default)]
    pub budget_bytes: u64,
    #[serde(default)]
    pub budget_work: u64,
    #[serde(default)]
    pub packing_calls: u64,
    /// Blocks `--algorithm fluid` would treat as its fluid (0: it refuses
    /// the puzzle); see [`super::Features::fluid_units`].
    #[serde(default)]
    pub fluid_units: u64,
    /// The puzzle's goal sections (see [`super::Features::goal_sections`]).
    #[serde(default)]
    pub goal_sections: u64,
    /// `free`, `fixed` or `crowded` (see [`super::Features::goal_kind`]).
    #[serde(default)]
    pub goal_kind: String,
}

impl Features {
    /// The `[low, high]` ranges (equal ends: every value here is a point).
    pub fn ranges(&self) -> FeatureRanges {
        let size = SizeNumber::of(&self.search_space);
        let t = self.size_kind.code();
        let bf = self.exploration.branching_factor;
        FeatureRanges {
            search_space_size: [size, size],
            search_space_size_type: [t, t],
            branching_factor: [bf, bf],
            regular_shapes: [self.regular_shapes; 2],
            block_size: [self.block_size; 2],
            num_of_spaces: [self.num_of_spaces; 2],
            puzzle_size: [self.puzzle_size; 2],
            master_distance: [self.master_distance; 2],
            block_types: [self.block_types; 2],
            slider_share: [self.slider_share; 2],
            goal_blocks: [self.goal_blocks; 2],
            largest_block_to_spaces: [self.largest_block_to_spaces; 2],
        }
    }

    /// The JSON record for the puzzle read from `path`.
    pub fn record(&self, path: &str, name: Option<&str>) -> FeaturesRecord {
        let log10 = self.search_space.log10();
        let (packing, calls) = match &self.packing {
            None => ("not needed", 0),
            Some(Packing::Counted { calls, .. }) => ("counted", *calls),
            Some(Packing::GaveUp { calls }) => ("gave up", *calls),
        };
        FeaturesRecord {
            puzzle: path.to_string(),
            name: name.map(str::to_string),
            features: self.ranges(),
            search_space_log10: [log10, log10],
            search_space_decimal: self.search_space.to_decimal(),
            search_space_reached: self.exploration.reached,
            combinatorial_log10: self.combinatorial.log10(),
            packing: packing.to_string(),
            packing_calls_used: calls,
            branching_positions: self.exploration.expanded,
            bfs_complete: self.exploration.complete,
            bfs_allowed_positions: self.exploration.allowed,
            budget_bytes: self.options.budget_bytes,
            budget_work: self.options.budget_work,
            packing_calls: self.options.packing_calls,
            fluid_units: self.fluid_units,
            goal_sections: self.goal_sections,
            goal_kind: self.goal_kind.to_string(),
        }
    }

    /// The thesis-style table: a `%` line naming the columns, then `field
    /// low high` per line, a `comment` line first (the case base ignores
    /// it) and `%` notes after.
    pub fn table(&self, label: &str) -> String {
        let r = self.ranges();
        let size = if self.search_space.to_u128().is_some() {
            self.search_space.to_decimal()
        } else {
            scientific(self.search_space.log10())
        };
        let mut rows: Vec<(&str, String)> = vec![
            ("search_space_size", size),
            (
                "search_space_size_type",
                r.search_space_size_type[0].to_string(),
            ),
            ("branching_factor", number(r.branching_factor[0])),
            ("regular_shapes", number(r.regular_shapes[0])),
            ("block_size", number(r.block_size[0])),
            ("num_of_spaces", r.num_of_spaces[0].to_string()),
            ("puzzle_size", r.puzzle_size[0].to_string()),
            ("master_distance", r.master_distance[0].to_string()),
            ("block_types", r.block_types[0].to_string()),
            ("slider_share", number(r.slider_share[0])),
            ("goal_blocks", r.goal_blocks[0].to_string()),
            (
                "largest_block_to_spaces",
                number(r.largest_block_to_spaces[0]),
            ),
        ];
        // The two columns are a case's range of each feature: for one
        // puzzle both are its value.
        let mut out = format!(
            "% {:<22} low high (a case's range of each feature; one puzzle's: its value twice)\n{:<24} {label}\n",
            "feature", "comment"
        );
        for (name, v) in rows.drain(..) {
            out.push_str(&format!("{name:<24} {v} {v}\n"));
        }
        let e = &self.exploration;
        out.push_str(&format!(
            "% search space: {} (log10 {:.4}); combinatorial bound log10 {:.4}\n",
            self.size_kind.name(),
            self.search_space.log10(),
            self.combinatorial.log10()
        ));
        out.push_str(&format!(
            "% breadth-first search: {} positions reached, branching factor over {} positions, {}\n",
            e.reached,
            e.expanded,
            if e.complete {
                "complete".to_string()
            } else if e.ran {
                format!("stopped at the budget of {} positions", e.allowed)
            } else {
                "not run (position keys too wide); start position only".to_string()
            }
        ));
        if let Some(p) = &self.packing {
            out.push_str(&match p {
                Packing::Counted { calls, .. } => {
                    format!("% packing bound: counted in {calls} calls\n")
                }
                Packing::GaveUp { calls } => format!(
                    "% packing bound: gave up after {calls} calls (budget {})\n",
                    self.options.packing_calls
                ),
            });
        }
        out
    }
}

/// A value with at most six decimals, trailing zeros dropped.
fn number(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// `1.234568e4930` from a base-10 logarithm.
fn scientific(log10: f64) -> String {
    let e = log10.floor();
    let m = 10f64.powf(log10 - e);
    // Rounding can give a mantissa of 10.000000.
    let (m, e) = if format!("{m:.6}").starts_with("10") {
        (1.0, e + 1.0)
    } else {
        (m, e)
    };
    format!("{m:.6}e{e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_names_are_the_shared_vocabulary() {
        let zero = SizeNumber::Integer(0);
        let ranges = FeatureRanges {
            search_space_size: [zero, zero],
            search_space_size_type: [0; 2],
            branching_factor: [0.0; 2],
            regular_shapes: [0.0; 2],
            block_size: [0.0; 2],
            num_of_spaces: [0; 2],
            puzzle_size: [0; 2],
            master_distance: [0; 2],
            block_types: [0; 2],
            slider_share: [0.0; 2],
            goal_blocks: [0; 2],
            largest_block_to_spaces: [0.0; 2],
        };
        let json = serde_json::to_value(&ranges).unwrap();
        let names: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        let mut expected = sbp_protocol::features::ALL.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected);
    }

    #[test]
    fn sizes_serialize_as_comparable_numbers() {
        let small = SizeNumber::of(&Big::from_u64(25_955));
        assert_eq!(serde_json::to_string(&small).unwrap(), "25955");
        let wide = SizeNumber::of(&Big::from_u128(u128::MAX));
        assert_eq!(
            serde_json::to_string(&wide).unwrap(),
            "340282366920938463463374607431768211455"
        );
        let mut x = Big::from_u128(u128::MAX);
        x.add(&Big::from_u64(1));
        let json = serde_json::to_string(&SizeNumber::of(&x)).unwrap();
        assert_eq!(json.parse::<f64>().unwrap(), 2f64.powi(128));
        for _ in 0..40 {
            x.mul_small(u64::MAX);
        }
        assert!(x.log10() > 308.5);
        assert_eq!(SizeNumber::of(&x), SizeNumber::Float(f64::MAX));
        let back: SizeNumber = serde_json::from_str(&json).unwrap();
        assert_eq!(back.as_f64(), 2f64.powi(128));
    }

    #[test]
    fn numbers_print_like_the_thesis() {
        assert_eq!(number(3.2323637064), "3.232364");
        assert_eq!(number(1.8), "1.8");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(0.0), "0");
        assert_eq!(scientific(4930.0913), "1.233957e4930");
        assert_eq!(scientific(2.9999999999), "1.000000e3");
    }
}
