//! One point of the parameter space the reasoner searches (thesis §3.2.1,
//! §5.5), as case bases store it and as it is passed to `solver solve`.
//!
//! # Parameters
//!
//! | parameter     | values                                   | solver flag       |
//! |---------------|------------------------------------------|-------------------|
//! | `algorithm`   | `bfs`, `astar`, `fluid`, `bfws` (cases may also say `ida`, `bidir`, `dfid`, `nbs`) | `--algorithm` |
//! | `heuristic`   | the solver's registered heuristics       | `--heuristic`     |
//! | `weight`      | real (`f = g + weight * h`)              | `--weight`        |
//! | each option of the set's heuristic (`h2` [A, B, C], `pdb_memory` bytes) | as declared | its flag (`--h2`, `--pdb-memory`) |
//! | each registered pruning (`space_value` cutoff, `resting` level, `master_never_away` switch, ...) | as declared | its flag |
//! | `metric`      | `steps`, `moves` (never changed by the search) | `--metric`  |
//!
//! The options and prunings are whatever the solver declares (`solver
//! heuristics --json`, `solver prunings --json`, read at the start of each
//! cycle into a [`crate::space::Space`], which holds the normal form, the
//! distance and the checks); a set keeps them in [`Settings`], keyed as case
//! bases name them: the solver's flag with `_` for `-` (`pdb_memory`; a
//! pruning's JSON name, which the solver's registry test keeps equal to it),
//! so that a set turns into `solver` flags without the declarations.
//!
//! The thesis drops IDA*, "master never away", subgoals and locked blocks from
//! the meta-level (§5.5); so does the proximity search (a pruning's or
//! heuristic's declaration says whether it may vary it), though a case may
//! still set them.
//!
//! # Case-base text
//!
//! A set is written as `algorithm`, `heuristic`, `weight`, then its settings
//! in the order they were read (the normal form's order for a new set:
//! options, then prunings, in declaration order), then `metric` and
//! `variant`. So a case base reads and writes back byte for byte; a cutoff or
//! switch that is off is left out (TOML has no null).

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use sbp_protocol::options::format_real;
pub use sbp_protocol::{Algorithm, Heuristic, Metric, Value};

/// A set's options and pruning settings by key, in the order they were read
/// or set. Two settings are equal when they hold the same keys and values,
/// in any order.
#[derive(Clone, Debug, Default)]
pub struct Settings(Vec<(String, Value)>);

impl PartialEq for Settings {
    fn eq(&self, other: &Settings) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Settings {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets `key` in place (appended when new); `None` removes it.
    pub fn set(&mut self, key: &str, value: Option<Value>) {
        let at = self.0.iter().position(|(k, _)| k == key);
        match (at, value) {
            (Some(i), Some(v)) => self.0[i].1 = v,
            (None, Some(v)) => self.0.push((key.to_string(), v)),
            (Some(i), None) => {
                self.0.remove(i);
            }
            (None, None) => {}
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

/// One point of the parameter space: everything the reasoner passes to
/// `solver solve`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSet {
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
    pub weight: f64,
    /// The heuristic's options and the prunings' settings (see the module).
    pub settings: Settings,
    pub metric: Metric,
    /// The easier variant whose solution gave the subgoals (variant phase,
    /// see `variant.rs`); absent for a direct search. Not a solver flag and
    /// not counted by the distance: it says how the puzzle was cut up.
    pub variant: Option<Recipe>,
}

/// How the variant phase derives subgoals: remove `remove` blocks picked
/// by `pick`, or merge the interchangeable blocks ([`Pick::Merge`],
/// `remove` unused), solve that variant, and take a subgoal after every
/// `every` moves of its solution fixing `fix`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    #[serde(default)]
    pub pick: Pick,
    pub remove: usize,
    pub every: usize,
    pub fix: Fix,
}

/// Which blocks a variant recipe removes (its `pick` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pick {
    /// The most obstructing, in the order of `solver variant --rank`.
    #[default]
    Most,
    /// The least obstructing: a gentler variant, closer to the puzzle.
    Least,
    /// None: the interchangeable blocks merged instead (`solver variant --merge`).
    Merge,
}

/// What each subgoal of a variant recipe fixes (its `fix` key): the values
/// of `solver variant --fix`, declared once in the shared vocabulary.
pub use sbp_protocol::SubgoalFix as Fix;

impl Pick {
    pub fn name(self) -> &'static str {
        match self {
            Pick::Most => "most",
            Pick::Least => "least",
            Pick::Merge => "merge",
        }
    }
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (every, fix) = (self.every, self.fix.name());
        match self.pick {
            Pick::Merge => write!(
                f,
                "merge interchangeable blocks, subgoal every {every} fixing {fix}"
            ),
            pick => write!(
                f,
                "remove {} {} obstructing, subgoal every {every} fixing {fix}",
                self.remove,
                pick.name()
            ),
        }
    }
}

impl Default for ParamSet {
    fn default() -> Self {
        ParamSet {
            algorithm: Algorithm::default(),
            heuristic: Heuristic::default(),
            weight: sbp_protocol::SearchParams::default().weight,
            settings: Settings::default(),
            metric: Metric::Steps,
            variant: None,
        }
    }
}

/// The length of a solution of `steps` steps and `moves` moves in `metric`.
pub fn length_in(metric: Metric, steps: Option<u64>, moves: Option<u64>) -> Option<u64> {
    match metric {
        Metric::Steps => steps,
        Metric::Moves => moves,
    }
}

impl ParamSet {
    /// The set in `metric` when one is asked for (`reasoner solve
    /// --metric`), else as it is.
    pub fn in_metric(self, metric: Option<Metric>) -> ParamSet {
        match metric {
            Some(metric) => ParamSet { metric, ..self },
            None => self,
        }
    }

    /// The set as a search on positions: a fluid or BFWS set becomes A*
    /// with the same heuristic and weight, others stay as they are. For
    /// puzzles whose goals may name every type (subgoal sections fixing all
    /// blocks, parked blocks), which the fluid searches refuse when they
    /// name their units.
    pub fn on_positions(mut self) -> ParamSet {
        if self.algorithm.fluid() {
            self.algorithm = Algorithm::Astar;
        }
        self
    }

    /// This set with `key` set to `value` (see [`Settings::set`]).
    pub fn with(mut self, key: &str, value: Value) -> ParamSet {
        self.settings.set(key, Some(value));
        self
    }

    /// The `solver solve` flags for this set (pass a normal form): every
    /// setting as its flag, a switch that is on as the flag alone.
    pub fn solver_args(&self) -> Vec<String> {
        let mut args = vec!["--algorithm".to_string(), self.algorithm.name().to_string()];
        if self.algorithm.informed() {
            args.extend(["--heuristic".to_string(), self.heuristic.name().to_string()]);
        }
        if self.algorithm.weighted() {
            args.extend(["--weight".to_string(), format_real(self.weight)]);
        }
        for (key, value) in self.settings.iter() {
            let flag = format!("--{}", key.replace('_', "-"));
            match value {
                Value::Bool(false) => {}
                Value::Bool(true) => args.push(flag),
                other => args.extend([flag, other.to_string()]),
            }
        }
        args.push("--metric".to_string());
        args.push(self.metric.name().to_string());
        args
    }
}

/// A compact one-line description, e.g. `astar h2 w3 h2=6,16,2 space_value=14 resting=strict`.
impl fmt::Display for ParamSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.algorithm.name())?;
        if self.algorithm.informed() {
            write!(f, " {}", self.heuristic.name())?;
        }
        if self.algorithm.weighted() {
            write!(f, " w{}", format_real(self.weight))?;
        }
        for (key, value) in self.settings.iter() {
            write!(f, " {key}={value}")?;
        }
        if self.metric != Metric::Steps {
            write!(f, " {}", self.metric.name())?;
        }
        if let Some(r) = &self.variant {
            write!(f, " variant({r})")?;
        }
        Ok(())
    }
}

impl Serialize for ParamSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("algorithm", &self.algorithm)?;
        map.serialize_entry("heuristic", &self.heuristic)?;
        map.serialize_entry("weight", &self.weight)?;
        for (key, value) in self.settings.iter() {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("metric", &self.metric)?;
        if let Some(r) = &self.variant {
            map.serialize_entry("variant", r)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ParamSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ParamSet, D::Error> {
        d.deserialize_map(ParamSetVisitor)
    }
}

/// Reads a set's table key by key, keeping the settings' order.
struct ParamSetVisitor;

impl<'de> Visitor<'de> for ParamSetVisitor {
    type Value = ParamSet;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of parameters")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamSet, A::Error> {
        let mut p = ParamSet::default();
        let mut algorithm = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "algorithm" => algorithm = Some(map.next_value()?),
                "heuristic" => p.heuristic = map.next_value()?,
                "weight" => p.weight = map.next_value()?,
                "metric" => p.metric = map.next_value()?,
                "variant" => p.variant = Some(map.next_value()?),
                _ if p.settings.get(&key).is_some() => {
                    return Err(serde::de::Error::custom(format!("duplicate key `{key}`")))
                }
                _ => {
                    let value: Value = map.next_value()?;
                    p.settings.set(&key, Some(value));
                }
            }
        }
        p.algorithm = algorithm.ok_or_else(|| serde::de::Error::missing_field("algorithm"))?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_reads_and_writes_back_its_keys_in_order() {
        let text = "algorithm = \"astar\"\nheuristic = \"pdb\"\nweight = 2.0\nh2 = [1.0, 0.0, 1.0]\nspace_value = 14\npdb_memory = 67108864\nresting = \"off\"\nmetric = \"steps\"\n";
        let p: ParamSet = toml::from_str(text).unwrap();
        assert_eq!(toml::to_string(&p).unwrap(), text);
        assert_eq!(p.settings.get("space_value"), Some(&Value::Whole(14)));
        assert_eq!(
            p.solver_args().join(" "),
            "--algorithm astar --heuristic pdb --weight 2 --h2 1,0,1 --space-value 14 \
             --pdb-memory 67108864 --resting off --metric steps"
        );
        assert_eq!(
            p.to_string(),
            "astar pdb w2 h2=1,0,1 space_value=14 pdb_memory=67108864 resting=off"
        );
        let short: ParamSet = toml::from_str("algorithm = \"bfs\"\nspace_value = 7").unwrap();
        assert_eq!(
            short.settings,
            Settings(vec![("space_value".into(), Value::Whole(7))])
        );
        let twice = toml::from_str::<ParamSet>("algorithm = \"bfs\"\nweight = \"x\"");
        assert!(twice.is_err());
        assert!(toml::from_str::<ParamSet>("heuristic = \"h0\"").is_err());
    }

    #[test]
    fn settings_compare_in_any_order() {
        let a = ParamSet::default()
            .with("resting", Value::Text("strict".into()))
            .with("space_value", Value::Whole(3));
        let b = ParamSet::default()
            .with("space_value", Value::Whole(3))
            .with("resting", Value::Text("strict".into()));
        assert_eq!(a, b);
        let mut c = b.clone();
        c.settings.set("space_value", None);
        assert_ne!(a, c);
        assert_eq!(
            c.solver_args(),
            [
                "--algorithm",
                "bfs",
                "--resting",
                "strict",
                "--metric",
                "steps"
            ]
        );
    }

    #[test]
    fn a_fluid_set_runs_on_positions_as_a_star_with_its_heuristic_and_weight() {
        let fluid = ParamSet {
            algorithm: Algorithm::Fluid,
            heuristic: Heuristic::new("path"),
            weight: 3.0,
            ..ParamSet::default()
        };
        let astar = fluid.clone().on_positions();
        assert_eq!(astar.algorithm, Algorithm::Astar);
        assert_eq!((astar.heuristic.name(), astar.weight), ("path", 3.0));
        let bfs = ParamSet::default();
        assert_eq!(bfs.clone().on_positions(), bfs);
    }
}
