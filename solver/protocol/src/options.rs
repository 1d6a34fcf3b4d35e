//! A heuristic's own options (`--h2 A,B,C`, `--pdb-memory BYTES`), declared
//! in the heuristic's file of the solver and described here by
//! [`OptionInfo`], which `solver heuristics --json` prints inside each
//! [`crate::HeuristicInfo`]. From that one declaration the solver's command
//! line makes the flag and checks its range, the JSON result records its
//! value, the range table of the docs lists it, and the reasoner's parameter
//! space holds it (varied and compared on the declared [`Vary`] scale).
//!
//! Values travel as [`Value`]s keyed by the option's `json` name in
//! [`OptionSettings`], flattened into the JSON `params`: a name without a dot
//! is a key of its own (`"h2": [1.0, 0.0, 1.0]`), `group.name` is a key of
//! the object `group` (`"pdb": {"patterns": null, "memory": 536870912}`), as
//! the JSON had them before options were declared. A key of its own holds a
//! list, so that it cannot be taken for a pruning's setting (the solver's
//! registry test checks this).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ranges::{self, Arity, ValueRange};

/// One value of an option (or, in the reasoner's case bases, of any
/// registered parameter): the JSON or TOML shape it has.
///
/// Read by hand ([`ValueVisitor`]) rather than as an untagged enum, so that a
/// value of another shape (a table, a list of texts) is refused naming the
/// shapes it may have, not with "did not match any variant".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Whole(u64),
    Real(f64),
    Reals(Vec<f64>),
    Text(String),
}

impl Value {
    /// The value as a real number (whole numbers included).
    pub fn as_real(&self) -> Option<f64> {
        match self {
            Value::Whole(v) => Some(*v as f64),
            Value::Real(v) => Some(*v),
            _ => None,
        }
    }

    /// The value as reals: a list, or one number as a list of one.
    pub fn as_reals(&self) -> Option<Vec<f64>> {
        match self {
            Value::Reals(v) => Some(v.clone()),
            other => other.as_real().map(|x| vec![x]),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Whole(v) => write!(f, "{v}"),
            Value::Real(v) => write!(f, "{}", format_real(*v)),
            Value::Reals(v) => {
                let parts: Vec<String> = v.iter().map(|x| format_real(*x)).collect();
                f.write_str(&parts.join(","))
            }
            Value::Text(s) => f.write_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

/// Takes each shape a [`Value`] has, as the untagged enum did in the order
/// of its variants: a whole number that is not negative is `Whole`, any
/// other number `Real`, a list (of numbers) `Reals`.
struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean, a number, a list of numbers or a text")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Whole(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(u64::try_from(v).map_or(Value::Real(v as f64), Value::Whole))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Real(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Text(v.to_string()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut reals = Vec::new();
        while let Some(x) = seq.next_element::<f64>()? {
            reals.push(x);
        }
        Ok(Value::Reals(reals))
    }
}

/// Shortest decimal form of a real (`3` rather than `3.0`), as the command
/// line takes it back.
pub fn format_real(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// What an option takes. The solver declares it in a constant (hence the
/// borrowed default), the reasoner reads it from `solver heuristics --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionKind {
    /// `count` comma-separated reals, each within `min..=max`.
    Reals {
        count: usize,
        min: f64,
        max: f64,
        default: Cow<'static, [f64]>,
    },
    /// A whole number (`bytes`: with suffixes K, M, G, T) within `min..=max`.
    Whole {
        min: u64,
        max: u64,
        bytes: bool,
        default: u64,
    },
    /// Free text; unset (JSON `null`) by default.
    Text,
}

/// How the reasoner's proximity search varies an option and how its
/// distance (thesis §5.4) compares two values: one unit a reasonable change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vary {
    /// Never varied; two different values are one unit apart.
    Fixed,
    /// Reals on the `log2(1 + x)` scale: a step of 0.5 or 1 up or down on
    /// one component, rounded to two decimals, kept in range; the distance
    /// is the sum over components of the difference on that scale.
    Log1p,
    /// A whole number on the `log2` scale: halved or doubled (if still in
    /// range); the distance is the difference of the logarithms.
    Log2,
}

/// What a heuristic declares about one option of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionInfo {
    /// Its command-line flag without the dashes.
    pub flag: String,
    /// Its key in the JSON `params` (`h2`, or `pdb.memory` in object `pdb`).
    pub json: String,
    /// One line for `--help` and the docs.
    pub doc: String,
    #[serde(flatten)]
    pub kind: OptionKind,
    pub vary: Vary,
    /// Part of a run's identity: in the JSON and the reasoner's space. A
    /// cache folder is not (it changes where, not what).
    pub recorded: bool,
    /// The value the reasoner's proximity search starts from when it
    /// switches to this heuristic (`None`: the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Value>,
}

impl OptionInfo {
    /// Its key in the reasoner's case bases: the flag with `_` for `-`
    /// (`pdb-memory` is `pdb_memory`), as a pruning's JSON name is its
    /// flag's; so the reasoner turns a key back into the flag.
    pub fn key(&self) -> String {
        self.flag.replace('-', "_")
    }

    /// Its default value; `None` for text, which is unset by default.
    pub fn default_value(&self) -> Option<Value> {
        match &self.kind {
            OptionKind::Reals { default, .. } => Some(Value::Reals(default.to_vec())),
            OptionKind::Whole { default, .. } => Some(Value::Whole(*default)),
            OptionKind::Text => None,
        }
    }

    /// The range of one value (one component of a list); `None` for text.
    pub fn range(&self) -> Option<ValueRange> {
        match self.kind {
            OptionKind::Reals { min, max, .. } => Some(ValueRange::Real { min, max }),
            OptionKind::Whole {
                min, max, bytes, ..
            } if bytes => Some(ValueRange::Bytes { min, max }),
            OptionKind::Whole { min, max, .. } => Some(ValueRange::Whole { min, max }),
            OptionKind::Text => None,
        }
    }

    /// How many values one use of its flag carries: a list's count, else one.
    pub fn arity(&self) -> Arity {
        match self.kind {
            OptionKind::Reals { count, .. } if count != 1 => Arity::Exactly(count),
            _ => Arity::One,
        }
    }

    /// What it takes, in words, as a numeric flag of the solver says it.
    pub fn describe(&self) -> String {
        match self.range() {
            Some(range) => ranges::describe(self.arity(), range),
            None => "text".to_string(),
        }
    }

    /// `value` in the shape of this option, checked against its range; the
    /// message names the flag and what it takes.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let refused = || format!("--{} takes {}; got {value}", self.flag, self.describe());
        match &self.kind {
            OptionKind::Reals {
                count, min, max, ..
            } => {
                let v = value.as_reals().ok_or_else(refused)?;
                let ok =
                    v.len() == *count && v.iter().all(|x| x.is_finite() && x >= min && x <= max);
                ok.then_some(Value::Reals(v)).ok_or_else(refused)
            }
            OptionKind::Whole { min, max, .. } => match value {
                Value::Whole(v) if (min..=max).contains(&v) => Ok(Value::Whole(*v)),
                _ => Err(refused()),
            },
            OptionKind::Text => match value {
                Value::Text(_) => Ok(value.clone()),
                _ => Err(refused()),
            },
        }
    }
}

/// Every recorded option's value by its `json` name (an option left out
/// has its default). Flattened into the parameters; see the module doc
/// for its JSON shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionSettings(pub BTreeMap<String, Option<Value>>);

impl OptionSettings {
    /// The value set for `json`, if any.
    pub fn get(&self, json: &str) -> Option<&Value> {
        self.0.get(json).and_then(Option::as_ref)
    }
}

impl Serialize for OptionSettings {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut own: BTreeMap<&str, &Option<Value>> = BTreeMap::new();
        let mut groups: BTreeMap<&str, BTreeMap<&str, &Option<Value>>> = BTreeMap::new();
        for (json, value) in &self.0 {
            match json.split_once('.') {
                Some((group, name)) => {
                    groups.entry(group).or_default().insert(name, value);
                }
                None => {
                    own.insert(json, value);
                }
            }
        }
        let mut map = s.serialize_map(Some(own.len() + groups.len()))?;
        for (k, v) in own {
            map.serialize_entry(k, v)?;
        }
        for (k, v) in groups {
            map.serialize_entry(k, &v)?;
        }
        map.end()
    }
}

/// One key of the JSON `params` that no fixed field takes: a pruning's
/// setting (a scalar), an option of its own (a list) or a group of options
/// (an object).
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum Entry {
    Setting(crate::pruning::Setting),
    Own(Vec<f64>),
    Group(BTreeMap<String, Option<Value>>),
}

/// Reads the options out of the JSON `params`' keys that no fixed field
/// takes (see [`Entry`]): lists and objects; the scalars are the prunings'.
pub fn read_settings<'de, D: serde::Deserializer<'de>>(d: D) -> Result<OptionSettings, D::Error> {
    let entries: BTreeMap<String, Entry> = BTreeMap::deserialize(d)?;
    let mut out = BTreeMap::new();
    for (key, entry) in entries {
        match entry {
            Entry::Own(v) => {
                out.insert(key, Some(Value::Reals(v)));
            }
            Entry::Group(group) => {
                for (name, v) in group {
                    out.insert(format!("{key}.{name}"), v);
                }
            }
            Entry::Setting(_) => {}
        }
    }
    Ok(OptionSettings(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape reads as the untagged enum read it, and another shape is
    /// refused naming the shapes a value may have.
    #[test]
    fn values_read_by_shape() {
        let read = |t: &str| serde_json::from_str::<Value>(t);
        assert_eq!(read("true").unwrap(), Value::Bool(true));
        assert_eq!(read("7").unwrap(), Value::Whole(7));
        assert_eq!(read("-2").unwrap(), Value::Real(-2.0));
        assert_eq!(read("1.5").unwrap(), Value::Real(1.5));
        assert_eq!(read("[1, 0.5]").unwrap(), Value::Reals(vec![1.0, 0.5]));
        assert_eq!(read("\"x\"").unwrap(), Value::Text("x".into()));
        let err = read("{\"a\": 1}").unwrap_err().to_string();
        assert!(
            err.contains("expected a boolean, a number, a list of numbers or a text"),
            "{err}"
        );
        assert!(read("[\"a\"]").is_err());
    }

    fn memory() -> OptionInfo {
        OptionInfo {
            flag: "pdb-memory".into(),
            json: "pdb.memory".into(),
            doc: String::new(),
            kind: OptionKind::Whole {
                min: 1 << 10,
                max: 1 << 36,
                bytes: true,
                default: 512 << 20,
            },
            vary: Vary::Log2,
            recorded: true,
            start: Some(Value::Whole(64 << 20)),
        }
    }

    #[test]
    fn options_keep_the_json_shape_of_before() {
        let mut o = OptionSettings::default();
        o.0.insert("h2".into(), Some(Value::Reals(vec![1.0, 0.0, 1.0])));
        o.0.insert("pdb.patterns".into(), None);
        o.0.insert("pdb.memory".into(), Some(Value::Whole(536870912)));
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(
            json,
            r#"{"h2":[1.0,0.0,1.0],"pdb":{"memory":536870912,"patterns":null}}"#
        );
        let back = read_settings(&mut serde_json::Deserializer::from_str(
            r#"{"h2":[1.0,0.0,1.0],"space_value":3,"pdb":{"memory":536870912,"patterns":null}}"#,
        ))
        .unwrap();
        assert_eq!(back, o);
    }

    #[test]
    fn a_declaration_checks_and_describes_its_values() {
        let m = memory();
        assert_eq!(m.key(), "pdb_memory");
        assert_eq!(m.check(&Value::Whole(2048)), Ok(Value::Whole(2048)));
        let e = m.check(&Value::Whole(1)).unwrap_err();
        assert_eq!(
            e,
            "--pdb-memory takes a byte count from 1K to 64G (suffixes K, M, G, T); got 1"
        );
        let json = serde_json::to_string(&m).unwrap();
        assert!(json.contains(r#""kind":"whole","min":1024"#), "{json}");
        assert_eq!(serde_json::from_str::<OptionInfo>(&json).unwrap(), m);
        assert_eq!(Value::Reals(vec![6.0, 16.0, 2.5]).to_string(), "6,16,2.5");
    }
}
