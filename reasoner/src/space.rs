//! The parameter space as the solver declares it: its heuristics with their
//! own options (`solver heuristics --json`) and its prunings (`solver
//! prunings --json`), read at the start of each cycle. Everything the
//! reasoner does with a parameter other than the algorithm, the heuristic's
//! name, the weight and the metric, it does through these declarations: the
//! normal form, the distance of §5.4, the checks of a case base, the
//! proximity search's changes (`plan.rs`) and the forbidden regions
//! (`bounds.rs`). A heuristic or pruning registered in the solver is so in
//! the reasoner's space with no change here.
//!
//! # Distance
//!
//! One "reasonable change" of one parameter costs one unit (§5.4); the
//! distance between two sets is the sum over parameters, of their normal
//! forms:
//!
//! * `algorithm`: 1 if different.
//! * `heuristic`: 1 if different, counted only when both sets use an
//!   informed algorithm (A*, IDA*); the heuristic of BFS is meaningless.
//! * `weight`: `|u(a) - u(b)|` with `u(x) = log2(1 + x)`, so that doubling a
//!   weight costs about one unit whatever its size (1 → 3 → 7 → 15 costs one
//!   unit a step); only when both sets are informed.
//! * a heuristic's own options, only when both sets are informed and use that
//!   heuristic, on their declared scale ([`Vary`]): reals as the weight, per
//!   component (`h2`'s `[A, B, C]`); whole numbers by `|log2(a) - log2(b)|`
//!   (halving or doubling `pdb_memory` costs one unit); anything else 1 if
//!   different. An option left out has its declared default.
//! * a cutoff pruning (`space_value`): `|a - b|` (the thesis: changing the
//!   cutoff by one costs one unit); turning it on or off costs
//!   [`CUTOFF_TOGGLE`] units.
//! * a pruning with levels (`resting`: `off` = 0, `relaxed` = 1, `strict` =
//!   2): the difference of the levels' indices; a switch: 1 if different.
//! * `metric`: 1 if different.
//!
//! The function is symmetric and zero only for equal normal forms; it is not a
//! metric (the on/off cost ignores the cutoff's value), which the proximity
//! search does not need.

use sbp_protocol::pruning::{PruningInfo, PruningKind, Setting};
use sbp_protocol::{HeuristicInfo, OptionInfo, Value, Vary};
use serde::Deserialize;

use crate::params::{Algorithm, Heuristic, Metric, ParamSet, Settings};

/// Cost of turning a cutoff pruning (the space value) on or off.
pub const CUTOFF_TOGGLE: f64 = 2.0;

/// The solver's heuristics and prunings, as it lists them.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Space {
    pub heuristics: Vec<HeuristicInfo>,
    pub prunings: Vec<PruningInfo>,
}

/// `log2(1 + x)`: the scale on which real-valued weights are compared.
pub fn weight_scale(x: f64) -> f64 {
    (1.0 + x.max(0.0)).log2()
}

impl Space {
    /// The declaration of heuristic `h`, if the solver registers it.
    pub fn heuristic(&self, h: &Heuristic) -> Option<&HeuristicInfo> {
        self.heuristics.iter().find(|i| i.name == h.name())
    }

    /// The recorded options of heuristic `h` (none for an unknown one).
    pub fn options_of<'a>(&'a self, h: &Heuristic) -> impl Iterator<Item = &'a OptionInfo> {
        self.heuristic(h)
            .into_iter()
            .flat_map(HeuristicInfo::recorded)
    }

    /// The heuristics the proximity search may switch among.
    pub fn proximity_heuristics(&self) -> Vec<Heuristic> {
        self.heuristics
            .iter()
            .filter(|h| h.proximity)
            .map(|h| Heuristic::new(h.name.clone()))
            .collect()
    }

    /// The setting of pruning `info` in `p` (off when left out or not of
    /// its kind, which [`Space::validate`] refuses).
    pub fn setting(info: &PruningInfo, p: &ParamSet) -> Setting {
        let read = match (&info.kind, p.settings.get(&info.json)) {
            (PruningKind::Switch, Some(Value::Bool(b))) => Some(Setting::Switch(*b)),
            (PruningKind::Levels { .. }, Some(Value::Text(l))) => Some(Setting::Level(l.clone())),
            (PruningKind::Cutoff { .. }, Some(Value::Whole(v))) => Some(Setting::Cutoff(Some(*v))),
            _ => None,
        };
        read.filter(|s| info.check(s).is_ok())
            .unwrap_or_else(|| info.off())
    }

    /// A setting as a case base stores it: `None` for a cutoff or switch
    /// that is off (a level is always named).
    pub fn stored(setting: &Setting) -> Option<Value> {
        match setting {
            Setting::Switch(true) => Some(Value::Bool(true)),
            Setting::Switch(false) | Setting::Cutoff(None) => None,
            Setting::Cutoff(Some(v)) => Some(Value::Whole(*v)),
            Setting::Level(l) => Some(Value::Text(l.clone())),
        }
    }

    /// The value of option `o` in `p`, or its default.
    pub fn option_value(o: &OptionInfo, p: &ParamSet) -> Option<Value> {
        p.settings
            .get(&o.key())
            .and_then(|v| o.check(v).ok())
            .or_else(|| o.default_value())
    }

    /// The same search with irrelevant settings reset, so that two sets
    /// that run the same search compare equal: an uninformed algorithm
    /// carries the default heuristic, one that weighs no heuristic (BFWS
    /// too) the default weight; only the options of the
    /// set's heuristic are kept, each with its value or default; every
    /// registered pruning's setting follows, cutoffs and switches only when
    /// on, except under the fluid searches, which apply none. Options
    /// first, then prunings, each in declaration order.
    pub fn normalized(&self, mut p: ParamSet) -> ParamSet {
        if !p.algorithm.informed() {
            p.heuristic = Heuristic::default();
        }
        if !p.algorithm.weighted() {
            p.weight = ParamSet::default().weight;
        }
        let mut settings = Settings::default();
        for o in self.options_of(&p.heuristic) {
            settings.set(&o.key(), Space::option_value(o, &p));
        }
        if !p.algorithm.fluid() {
            for info in &self.prunings {
                settings.set(&info.json, Space::stored(&Space::setting(info, &p)));
            }
        }
        p.settings = settings;
        p
    }

    /// Checks what a case base or command line may get wrong: the weight's
    /// range, every setting naming an option of the set's heuristic or a
    /// registered pruning, and its value of the declared kind and range.
    pub fn validate(&self, p: &ParamSet) -> Result<(), String> {
        sbp_protocol::ranges::weight().check(p.weight)?;
        for (key, value) in p.settings.iter() {
            self.check_setting(&p.heuristic, key, value)?;
        }
        Ok(())
    }

    /// Checks one setting of a set whose heuristic is `h`: `key` names a
    /// registered pruning or a recorded option (of `h`, or of another
    /// heuristic: dropped from the normal form, still checked), and `value`
    /// is of its kind and in its range.
    pub fn check_setting(&self, h: &Heuristic, key: &str, value: &Value) -> Result<(), String> {
        if let Some(info) = self.prunings.iter().find(|i| i.json == key) {
            let setting = match value {
                Value::Bool(b) => Setting::Switch(*b),
                Value::Whole(v) => Setting::Cutoff(Some(*v)),
                Value::Text(l) => Setting::Level(l.clone()),
                other => return Err(format!("{key} = {other}: {}", info.describe())),
            };
            return info.check(&setting);
        }
        let own = self.options_of(h).find(|o| o.key() == key);
        let mut all = self.heuristics.iter().flat_map(HeuristicInfo::recorded);
        let Some(o) = own.or_else(|| all.find(|o| o.key() == key)) else {
            return Err(format!(
                "unknown parameter '{key}': use an option of a heuristic or a pruning \
                 the solver lists (`solver heuristics`, `solver prunings`)"
            ));
        };
        o.check(value).map(|_| ())
    }

    /// The distance of §5.4 as documented in the module.
    pub fn distance(&self, a: &ParamSet, b: &ParamSet) -> f64 {
        self.point(a).distance(&self.point(b))
    }

    /// What the distance reads of `p`'s normal form, computed once, so
    /// that a draw is compared with thousands of tried sets without a
    /// normal form or an allocation each (`reasoner settings --grid`).
    pub fn point(&self, p: &ParamSet) -> Point {
        let p = self.normalized(p.clone());
        let options = if p.algorithm.informed() {
            self.options_of(&p.heuristic)
                .map(|o| OptionCoord::new(o.vary, p.settings.get(&o.key())))
                .collect()
        } else {
            Vec::new()
        };
        let prunings = self
            .prunings
            .iter()
            .map(|info| match Space::setting(info, &p) {
                Setting::Cutoff(v) => PruningCoord::Cutoff(v),
                other => PruningCoord::Level(info.strength(&other).ok().flatten().unwrap_or(0)),
            })
            .collect();
        Point {
            informed: p.algorithm.informed(),
            algorithm: p.algorithm,
            weight: weight_scale(p.weight),
            heuristic: p.heuristic,
            options,
            prunings,
            metric: p.metric,
        }
    }
}

/// A parameter set as the distance reads it ([`Space::point`]): its
/// algorithm, heuristic and metric, the weight on its scale, the
/// heuristic's options and each pruning's setting, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    algorithm: Algorithm,
    informed: bool,
    heuristic: Heuristic,
    /// `log2(1 + weight)`.
    weight: f64,
    options: Vec<OptionCoord>,
    prunings: Vec<PruningCoord>,
    metric: Metric,
}

/// One option's value, with its components on the option's scale.
#[derive(Clone, Debug, PartialEq)]
struct OptionCoord {
    vary: Vary,
    value: Option<Value>,
    /// `log2(1 + x)` of each component (`Log1p`), `log2(x)` of the first
    /// (`Log2`); `None` for other scales or values without components.
    scaled: Option<Vec<f64>>,
}

impl OptionCoord {
    fn new(vary: Vary, value: Option<&Value>) -> OptionCoord {
        let reals = value.and_then(Value::as_reals);
        let scaled = match (vary, reals) {
            (Vary::Log1p, Some(x)) => Some(x.iter().map(|x| weight_scale(*x)).collect()),
            (Vary::Log2, Some(x)) => x.first().map(|x| vec![x.log2()]),
            _ => None,
        };
        OptionCoord {
            vary,
            value: value.cloned(),
            scaled,
        }
    }

    /// Adds this option's share of the distance to `d`, component by
    /// component.
    fn add_distance(&self, other: &OptionCoord, d: &mut f64) {
        let (Some(a), Some(b)) = (&self.value, &other.value) else {
            *d += if self.value == other.value { 0.0 } else { 1.0 };
            return;
        };
        match (self.vary, &self.scaled, &other.scaled) {
            (Vary::Log1p, Some(x), Some(y)) => {
                for (x, y) in x.iter().zip(y) {
                    *d += (x - y).abs();
                }
            }
            (Vary::Log2, Some(x), Some(y)) => *d += (x[0] - y[0]).abs(),
            _ if a == b => {}
            _ => *d += 1.0,
        }
    }
}

/// One pruning's setting: a cutoff (off or its value), else its level
/// (a switch: 0 off, 1 on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PruningCoord {
    Cutoff(Option<u64>),
    Level(usize),
}

impl PruningCoord {
    /// This pruning's share of the distance.
    fn distance(self, other: PruningCoord) -> f64 {
        match (self, other) {
            (PruningCoord::Cutoff(None), PruningCoord::Cutoff(None)) => 0.0,
            (PruningCoord::Cutoff(Some(x)), PruningCoord::Cutoff(Some(y))) => x.abs_diff(y) as f64,
            (PruningCoord::Cutoff(_), PruningCoord::Cutoff(_)) => CUTOFF_TOGGLE,
            (PruningCoord::Level(x), PruningCoord::Level(y)) => x.abs_diff(y) as f64,
            // Not two settings of one pruning: never compared so.
            _ => 1.0,
        }
    }

    /// The part of the setting that is not a cutoff's value: whether a
    /// cutoff is on, or the level.
    fn class(self) -> PruningCoord {
        match self {
            PruningCoord::Cutoff(v) => PruningCoord::Cutoff(v.map(|_| 0)),
            level => level,
        }
    }
}

impl Point {
    /// The distance of §5.4 (see the module), summed in the order the
    /// parameters are listed there.
    pub fn distance(&self, other: &Point) -> f64 {
        let mut d = 0.0;
        if self.algorithm != other.algorithm {
            d += 1.0;
        }
        if self.informed && other.informed {
            let same = self.heuristic == other.heuristic;
            if !same {
                d += 1.0;
            }
            d += (self.weight - other.weight).abs();
            if same {
                for (a, b) in self.options.iter().zip(&other.options) {
                    a.add_distance(b, &mut d);
                }
            }
        }
        for (a, b) in self.prunings.iter().zip(&other.prunings) {
            d += a.distance(*b);
        }
        if self.metric != other.metric {
            d += 1.0;
        }
        d
    }

    /// The point's class: the parameters that take whole steps (algorithm,
    /// heuristic of an informed search, metric, levels, whether each cutoff
    /// is on), without the weight, options and cutoff values. The distance
    /// between two points is at least that between their classes
    /// ([`Point::class_distance`]).
    pub fn class(&self) -> Point {
        Point {
            algorithm: self.algorithm,
            informed: self.informed,
            heuristic: if self.informed {
                self.heuristic.clone()
            } else {
                Heuristic::default()
            },
            weight: 0.0,
            options: Vec::new(),
            prunings: self.prunings.iter().map(|p| p.class()).collect(),
            metric: self.metric,
        }
    }

    /// The point's place on the line of class `class` ([`Point::class`]):
    /// the weight on its scale if the class is informed, plus the value of
    /// each cutoff on in the class. A point of the class and this one lie
    /// no farther apart there than their distance less that of their
    /// classes: those are terms of the distance, as absolute differences,
    /// whenever this point is informed where the class is and has every
    /// cutoff on that the class has; `None` when it is not so.
    pub fn place_in(&self, class: &Point) -> Option<f64> {
        if class.informed && !self.informed {
            return None;
        }
        let mut place = if class.informed { self.weight } else { 0.0 };
        for (mine, theirs) in self.prunings.iter().zip(&class.prunings) {
            match (mine, theirs) {
                (PruningCoord::Cutoff(Some(v)), PruningCoord::Cutoff(Some(_))) => {
                    place += *v as f64
                }
                (_, PruningCoord::Cutoff(Some(_))) => return None,
                _ => {}
            }
        }
        Some(place)
    }

    /// The distance between two classes ([`Point::class`]): the whole steps
    /// alone, never more than the distance of any two points of them
    /// (floating-point sums of non-negative terms only grow).
    pub fn class_distance(&self, other: &Point) -> f64 {
        let mut d = 0.0;
        if self.algorithm != other.algorithm {
            d += 1.0;
        }
        if self.informed && other.informed && self.heuristic != other.heuristic {
            d += 1.0;
        }
        for (a, b) in self.prunings.iter().zip(&other.prunings) {
            d += a.distance(*b);
        }
        if self.metric != other.metric {
            d += 1.0;
        }
        d
    }
}

/// A setting given on a command line as the solver takes it (`--h2
/// 6,16,2`, `--space-value 14`, `--master-never-away`): the key and value
/// a set stores, read and checked against the declaration of the pruning or
/// of heuristic `h`'s option whose flag it is.
impl Space {
    /// Whether `flag` (without dashes) is a switch, which takes no value.
    pub fn is_switch(&self, flag: &str) -> bool {
        self.prunings
            .iter()
            .any(|i| i.flag == flag && i.kind == PruningKind::Switch)
    }

    /// The stored key and value of `--flag value` (`None`: off).
    pub fn read_flag(
        &self,
        h: &Heuristic,
        flag: &str,
        value: Option<&str>,
    ) -> Result<(String, Option<Value>), String> {
        if let Some(info) = self.prunings.iter().find(|i| i.flag == flag) {
            let text = value.unwrap_or("");
            let setting = match &info.kind {
                PruningKind::Switch => Setting::Switch(true),
                PruningKind::Levels { .. } => Setting::Level(text.to_string()),
                PruningKind::Cutoff { .. } => match text.trim().parse::<u64>() {
                    Ok(v) => Setting::Cutoff(Some(v)),
                    Err(_) => {
                        return Err(format!("--{flag} takes {}; got '{text}'", info.describe()))
                    }
                },
            };
            info.check(&setting).map_err(|m| format!("--{flag}: {m}"))?;
            return Ok((info.json.clone(), Space::stored(&setting)));
        }
        let unrecorded = self.heuristics.iter().flat_map(|h| &h.options);
        if unrecorded.filter(|o| !o.recorded).any(|o| o.flag == flag) {
            return Err(format!(
                "--{flag} is not part of a run's parameters (it says where, not what); leave it out"
            ));
        }
        let Some(o) = self.options_of(h).find(|o| o.flag == flag) else {
            return Err(format!(
                "--{flag} is neither a pruning nor an option of heuristic {h} \
                 (`solver prunings`, `solver heuristics` list them)"
            ));
        };
        let text = value.unwrap_or("").trim();
        let parsed = match &o.kind {
            sbp_protocol::OptionKind::Reals { .. } => text
                .split(',')
                .map(|x| x.trim().parse::<f64>())
                .collect::<Result<Vec<f64>, _>>()
                .map(Value::Reals)
                .ok(),
            sbp_protocol::OptionKind::Whole { .. } => {
                sbp_protocol::ranges::parse_bytes(text).map(Value::Whole)
            }
            sbp_protocol::OptionKind::Text => Some(Value::Text(text.to_string())),
        };
        let value = parsed
            .ok_or_else(|| format!("--{flag} takes {}; got '{text}'", o.describe()))
            .and_then(|v| o.check(&v))?;
        Ok((o.key(), Some(value)))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::params::{Algorithm, Metric};

    /// The space as the solver lists it (`solver heuristics --json` and
    /// `solver prunings --json`, saved in `space_fixture.json`; the
    /// end-to-end test `extending.rs` checks it against the real solver).
    pub fn fixture() -> Space {
        serde_json::from_str(include_str!("space_fixture.json")).expect("the fixture reads")
    }

    /// The fixture with the heuristics the thesis's parameter space had
    /// (h0, h1, h2) and manhattan: the planners' tests draw from it.
    pub fn thesis_space() -> Space {
        let mut s = fixture();
        s.heuristics
            .retain(|h| ["h0", "h1", "h2", "manhattan"].contains(&h.name.as_str()));
        s
    }

    fn astar(h: &str, w: f64) -> ParamSet {
        ParamSet {
            algorithm: Algorithm::Astar,
            heuristic: h.into(),
            weight: w,
            ..ParamSet::default()
        }
    }

    fn h2(w: [f64; 3]) -> Value {
        Value::Reals(w.to_vec())
    }

    #[test]
    fn distance_counts_unit_steps() {
        let s = fixture();
        let bfs = ParamSet::default();
        assert_eq!(s.distance(&bfs, &bfs), 0.0);
        // Algorithm change: 1, and BFS's heuristic settings do not count.
        assert_eq!(s.distance(&bfs, &astar("h2", 7.0)), 1.0);
        // Heuristic change: 1.
        assert_eq!(s.distance(&astar("h0", 3.0), &astar("h1", 3.0)), 1.0);
        // Weight: log2(1+w), so 1 -> 3 -> 7 are one unit apart each.
        assert!((s.distance(&astar("h0", 1.0), &astar("h0", 3.0)) - 1.0).abs() < 1e-12);
        assert!((s.distance(&astar("h0", 3.0), &astar("h0", 7.0)) - 1.0).abs() < 1e-12);
        // h2 weights count only between two h2 sets.
        let h2a = astar("h2", 1.0).with("h2", h2([6.0, 16.0, 2.0]));
        let h2b = astar("h2", 1.0).with("h2", h2([6.0, 16.0, 0.0]));
        assert!((s.distance(&h2a, &h2b) - 3f64.log2()).abs() < 1e-12);
        assert_eq!(s.distance(&h2a, &astar("h1", 1.0)), 1.0);
        // Space value: 1 per unit, 2 to turn on or off.
        let sv = |v: u64| ParamSet::default().with("space_value", Value::Whole(v));
        assert_eq!(s.distance(&sv(10), &sv(14)), 4.0);
        assert_eq!(s.distance(&sv(10), &bfs), CUTOFF_TOGGLE);
        // Resting: one per level; a switch: one.
        let rest = |r: &str| ParamSet::default().with("resting", Value::Text(r.into()));
        assert_eq!(s.distance(&rest("off"), &rest("strict")), 2.0);
        let away = ParamSet::default().with("master_never_away", Value::Bool(true));
        assert_eq!(s.distance(&bfs, &away), 1.0);
        // Metric: 1.
        let moves = ParamSet {
            metric: Metric::Moves,
            ..ParamSet::default()
        };
        assert_eq!(s.distance(&bfs, &moves), 1.0);
        // Symmetric, and the sum over parameters.
        let a = astar("h2", 3.0)
            .with("space_value", Value::Whole(12))
            .with("resting", Value::Text("relaxed".into()));
        let b = astar("h0", 7.0).with("space_value", Value::Whole(15));
        assert_eq!(s.distance(&a, &b), s.distance(&b, &a));
        assert!((s.distance(&a, &b) - (1.0 + 1.0 + 3.0 + 1.0)).abs() < 1e-12);
    }

    #[test]
    fn pdb_memory_counts_in_doublings_and_only_with_pdb() {
        let s = fixture();
        let pdb = |m: Option<u64>| match m {
            Some(m) => astar("pdb", 1.0).with("pdb_memory", Value::Whole(m)),
            None => astar("pdb", 1.0),
        };
        let d = |a, b| s.distance(&pdb(a), &pdb(b));
        assert!((d(Some(64 << 20), Some(256 << 20)) - 2.0).abs() < 1e-12);
        // Absent is the solver's default (512M): three doublings from 64M.
        assert!((d(Some(64 << 20), None) - 3.0).abs() < 1e-12);
        assert_eq!(s.normalized(pdb(Some(512 << 20))), s.normalized(pdb(None)));
        let mut h0 = pdb(Some(64 << 20));
        h0.heuristic = "h0".into();
        assert_eq!(s.normalized(h0.clone()).settings.get("pdb_memory"), None);
        assert_eq!(s.distance(&h0, &pdb(Some(64 << 20))), 1.0);
        let p = s.normalized(pdb(Some(64 << 20)));
        assert_eq!(
            p.solver_args().join(" "),
            "--algorithm astar --heuristic pdb --weight 1 --pdb-memory 67108864 --resting off --metric steps"
        );
        assert!(s.validate(&pdb(Some(1))).is_err());
    }

    #[test]
    fn normal_form_drops_irrelevant_settings_and_validate_names_the_key() {
        let s = fixture();
        let p = ParamSet {
            heuristic: Heuristic::from("h2"),
            weight: 9.0,
            ..ParamSet::default()
        }
        .with("h2", h2([1.0, 2.0, 3.0]));
        let bfs = s.normalized(p);
        assert_eq!(bfs, s.normalized(ParamSet::default()));
        assert_eq!(
            bfs.solver_args(),
            [
                "--algorithm",
                "bfs",
                "--resting",
                "off",
                "--metric",
                "steps"
            ]
        );
        let q = s.normalized(
            astar("h2", 10.0)
                .with("space_value", Value::Whole(32))
                .with("h2", h2([6.0, 64.0, 2.5])),
        );
        assert_eq!(
            q.solver_args().join(" "),
            "--algorithm astar --heuristic h2 --weight 10 --h2 6,64,2.5 --space-value 32 --resting off --metric steps"
        );
        assert_eq!(
            toml::to_string(&q).unwrap(),
            "algorithm = \"astar\"\nheuristic = \"h2\"\nweight = 10.0\nh2 = [6.0, 64.0, 2.5]\n\
             space_value = 32\nresting = \"off\"\nmetric = \"steps\"\n"
        );
        let typo = ParamSet::default().with("spacevalue", Value::Whole(3));
        assert!(s
            .validate(&typo)
            .unwrap_err()
            .contains("unknown parameter 'spacevalue'"));
        let wrong = ParamSet::default().with("resting", Value::Text("most".into()));
        assert!(s
            .validate(&wrong)
            .unwrap_err()
            .contains("one of off, relaxed, strict"));
        let weights = astar("h2", 1.0).with("h2", h2([1.0, -1.0, 1.0]));
        assert!(s.validate(&weights).unwrap_err().contains("--h2 takes 3"));
        // Another heuristic's option is dropped from the normal form, but
        // checked all the same.
        let other = astar("h0", 1.0).with("h2", h2([1.0, -1.0, 1.0]));
        assert!(s.validate(&other).is_err());
        assert!(s
            .validate(&astar("h0", 1.0).with("h2", h2([6.0, 16.0, 2.0])))
            .is_ok());
    }
}
