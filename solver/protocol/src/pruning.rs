//! Prunings are an open set, like the heuristics: each is declared in its own
//! file of the solver (`solver/src/pruning/`) and registered there with one
//! line. The vocabulary therefore carries a pruning's setting by its JSON
//! name in a map ([`PruningSettings`], flattened into `params` so that the
//! JSON keeps one key per pruning: `"space_value": 14`, `"resting": "strict"`,
//! `"master_never_away": false`), and describes each pruning with
//! [`PruningInfo`], which `solver prunings --json` prints so that the
//! reasoner's parameter space holds exactly the solver's prunings.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// How a pruning is switched on the command line, in the JSON and in case
/// bases; in every kind the first or absent value is off, and each step away
/// from it prunes more (which the reasoner's forbidden regions rely on).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PruningKind {
    /// Off or on: a flag without a value (`--master-never-away`); JSON `false`/`true`.
    Switch,
    /// Named levels from off to the most pruning (`--resting off|relaxed|strict`).
    Levels { levels: Vec<String> },
    /// A whole-number cutoff, absent (JSON `null`) when off; a smaller cutoff
    /// prunes more (`--space-value N`).
    Cutoff { min: u64, max: u64 },
}

/// What a pruning declares about itself where it is registered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PruningInfo {
    /// Its name in messages and `solver prunings`.
    pub name: String,
    /// One line for `--help` and the docs.
    pub doc: String,
    /// Its command-line flag without the dashes.
    pub flag: String,
    /// Its key in the JSON `params` and in case bases.
    pub json: String,
    #[serde(flatten)]
    pub kind: PruningKind,
    /// The rule depends on the move, not only on the position it leads to,
    /// so the search graph is no longer symmetric (no bidirectional search).
    pub directed: bool,
    /// Whether the reasoner's proximity search may vary it.
    pub proximity: bool,
}

impl PruningInfo {
    /// The setting that switches it off.
    pub fn off(&self) -> Setting {
        match &self.kind {
            PruningKind::Switch => Setting::Switch(false),
            PruningKind::Levels { levels } => Setting::Level(levels[0].clone()),
            PruningKind::Cutoff { .. } => Setting::Cutoff(None),
        }
    }

    /// How far `setting` is from off: 0 off, then 1, 2... for levels and the
    /// switch; `None` for a cutoff that is on (cutoffs compare by value).
    /// `Err` when the setting is not of this pruning's kind.
    pub fn strength(&self, setting: &Setting) -> Result<Option<usize>, String> {
        match (&self.kind, setting) {
            (PruningKind::Switch, Setting::Switch(on)) => Ok(Some(*on as usize)),
            (PruningKind::Levels { levels }, Setting::Level(name)) => levels
                .iter()
                .position(|l| l == name)
                .map(Some)
                .ok_or_else(|| self.refusal(setting)),
            (PruningKind::Cutoff { min, max }, Setting::Cutoff(v)) => match v {
                None => Ok(Some(0)),
                Some(v) if (min..=max).contains(&v) => Ok(None),
                Some(_) => Err(self.refusal(setting)),
            },
            _ => Err(self.refusal(setting)),
        }
    }

    /// Checks that `setting` is one this pruning takes.
    pub fn check(&self, setting: &Setting) -> Result<(), String> {
        self.strength(setting).map(|_| ())
    }

    /// What the pruning takes, in words.
    pub fn describe(&self) -> String {
        match &self.kind {
            PruningKind::Switch => "true or false".to_string(),
            PruningKind::Levels { levels } => format!("one of {}", levels.join(", ")),
            PruningKind::Cutoff { min, max } => {
                format!("a whole number from {min} to {max}, or nothing for off")
            }
        }
    }

    fn refusal(&self, setting: &Setting) -> String {
        format!(
            "{} (`{}`) takes {}; got {setting}",
            self.name,
            self.json,
            self.describe()
        )
    }
}

/// One pruning's setting, in the JSON shape its kind has.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Setting {
    Switch(bool),
    Cutoff(Option<u64>),
    Level(String),
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Switch(b) => write!(f, "{b}"),
            Setting::Cutoff(Some(v)) => write!(f, "{v}"),
            Setting::Cutoff(None) => f.write_str("off"),
            Setting::Level(name) => f.write_str(name),
        }
    }
}

/// Every pruning's setting, keyed by its JSON name (a pruning left out is
/// off). Flattened into the parameters, so each is one key of its own.
pub type PruningSettings = BTreeMap<String, Setting>;

/// Reads the prunings' settings out of the JSON `params`' keys that no fixed
/// field takes: the scalars (the lists and objects are the heuristics'
/// options, [`crate::options::read_settings`]).
pub fn read_settings<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PruningSettings, D::Error> {
    let entries: BTreeMap<String, crate::options::Entry> = BTreeMap::deserialize(d)?;
    Ok(entries
        .into_iter()
        .filter_map(|(k, e)| match e {
            crate::options::Entry::Setting(s) => Some((k, s)),
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(kind: PruningKind) -> PruningInfo {
        PruningInfo {
            name: "p".into(),
            doc: String::new(),
            flag: "p".into(),
            json: "p".into(),
            kind,
            directed: false,
            proximity: true,
        }
    }

    #[test]
    fn settings_keep_the_json_shape_of_their_kind() {
        let read = |s: &str| serde_json::from_str::<Setting>(s).unwrap();
        assert_eq!(read("null"), Setting::Cutoff(None));
        assert_eq!(read("14"), Setting::Cutoff(Some(14)));
        assert_eq!(read("false"), Setting::Switch(false));
        assert_eq!(read("\"strict\""), Setting::Level("strict".into()));
        let all = [
            Setting::Cutoff(None),
            Setting::Cutoff(Some(3)),
            Setting::Switch(true),
        ];
        for s in all {
            assert_eq!(read(&serde_json::to_string(&s).unwrap()), s);
        }
    }

    #[test]
    fn strength_orders_levels_and_refuses_the_wrong_kind() {
        let levels = info(PruningKind::Levels {
            levels: vec!["off".into(), "some".into(), "all".into()],
        });
        assert_eq!(levels.strength(&Setting::Level("all".into())), Ok(Some(2)));
        assert_eq!(levels.off(), Setting::Level("off".into()));
        let e = levels.check(&Setting::Level("most".into())).unwrap_err();
        assert_eq!(e, "p (`p`) takes one of off, some, all; got most");
        let cutoff = info(PruningKind::Cutoff { min: 1, max: 9 });
        assert_eq!(cutoff.strength(&Setting::Cutoff(None)), Ok(Some(0)));
        assert_eq!(cutoff.strength(&Setting::Cutoff(Some(4))), Ok(None));
        assert!(cutoff.check(&Setting::Cutoff(Some(10))).is_err());
        assert!(cutoff.check(&Setting::Switch(true)).is_err());
        let json = serde_json::to_string(&cutoff).unwrap();
        assert!(
            json.contains("\"kind\":\"cutoff\",\"min\":1,\"max\":9"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<PruningInfo>(&json).unwrap(), cutoff);
    }
}
