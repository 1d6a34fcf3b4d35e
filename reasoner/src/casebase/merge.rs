//! Merging case bases, e.g. the retained cases of a Slurm job array's tasks
//! (`reasoner casebase merge A.toml B.toml ... -o OUT`).
//!
//! * One case per puzzle: cases are the same puzzle when their
//!   `provenance.sha256` (the puzzle file's hash) is equal; cases without a
//!   hash (imported from the thesis's format) are the same when their names
//!   are.
//! * Of the cases of one puzzle the better is kept ([`better`]): the one whose
//!   parameters solved it examining fewer positions (unknown counts as more),
//!   then the shorter solution in steps, then in moves. Further ties are broken
//!   by the case's full text, so the choice never depends on input order.
//! * The kept case's profile is the union of the profiles of all the cases
//!   of its puzzle ([`union`]): one trial per setting and position limit;
//!   of two trials of the same setting and limit the better is kept
//!   ([`trial_order`]: solved first, then fewer positions, shorter
//!   solution, fewer seconds, then the trial's text), sorted by setting and
//!   limit.
//! * The result is sorted by case name; two different puzzles with the same
//!   name keep it apart with ` (2)`, ` (3)`... in hash order.
//! * The `[learned]` fit is kept only when every input holds the same one;
//!   else it is dropped ([`Merged::learned_dropped`]): it was fitted to other
//!   cases (`reasoner learn` fits it again).
//!
//! The same inputs in any order therefore give the same file.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use super::schema::Trial;
use super::{Case, CaseBase, Outcome};

/// What a merge did, for the summary line.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub casebase: CaseBase,
    /// Cases read from all inputs.
    pub read: usize,
    /// Cases dropped because a better case of the same puzzle was kept.
    pub dropped: usize,
    /// Cases renamed because another puzzle's case had the same name.
    pub renamed: usize,
    /// Whether an input's `[learned]` fit was dropped (the inputs' fits
    /// differ, or some have none).
    pub learned_dropped: bool,
}

/// Which setting and limit a trial is of, for [`union`]: the parameters
/// with their settings in name order (two sets are equal in any order).
fn trial_key(t: &Trial) -> (String, Option<u64>) {
    let p = &t.params;
    let mut settings: Vec<String> = p.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    settings.sort();
    let variant = p.variant.as_ref().map(|r| format!(" variant({r})"));
    let set = format!(
        "{} {} w{} {} {}{}",
        p.algorithm.name(),
        p.heuristic.name(),
        p.weight,
        p.metric.name(),
        settings.join(" "),
        variant.unwrap_or_default()
    );
    (set, t.limit)
}

/// A total order of trials of one setting and limit, best first: solved,
/// then no solution, then stopped at the limit; then fewer positions, a
/// shorter solution, fewer seconds (unknown counts as more), then the text.
pub fn trial_order(a: &Trial, b: &Trial) -> Ordering {
    use sbp_protocol::Status;
    let rank = |t: &Trial| match t.status {
        Status::Solved => 0,
        Status::NoSolution => 1,
        Status::LimitReached => 2,
    };
    let or_max = |v: Option<u64>| v.unwrap_or(u64::MAX);
    let seconds = |t: &Trial| t.seconds.unwrap_or(f64::INFINITY);
    (rank(a), a.positions, or_max(a.length))
        .cmp(&(rank(b), b.positions, or_max(b.length)))
        .then_with(|| seconds(a).total_cmp(&seconds(b)))
        .then_with(|| trial_text(a).cmp(&trial_text(b)))
}

fn trial_text(t: &Trial) -> String {
    serde_json::to_string(t).unwrap_or_default()
}

/// The union of some profiles: one trial per setting and limit, the best
/// by [`trial_order`], sorted by setting and limit; the same for any order
/// of the profiles and of their trials.
pub fn union<'a>(profiles: impl IntoIterator<Item = &'a [Trial]>) -> Vec<Trial> {
    let mut best: BTreeMap<(String, Option<u64>), &Trial> = BTreeMap::new();
    for trial in profiles.into_iter().flatten() {
        best.entry(trial_key(trial))
            .and_modify(|kept| {
                if trial_order(trial, kept) == Ordering::Less {
                    *kept = trial;
                }
            })
            .or_insert(trial);
    }
    best.into_values().cloned().collect()
}

/// Takes `new`, a case of the same puzzle, into `case` (retain and
/// `from-matrix` do): the union of their profiles, and `new`'s parameters,
/// outcome, features and provenance when its outcome is [`better`]; whether
/// those were taken. The case keeps its name and comment.
pub fn absorb(case: &mut Case, new: Case) -> bool {
    let profile = union([case.profile.as_slice(), new.profile.as_slice()]);
    let taken = better(&new.outcome, &case.outcome);
    if taken {
        case.params = new.params;
        case.outcome = new.outcome;
        case.features = new.features;
        case.provenance = new.provenance;
    }
    case.profile = profile;
    taken
}

/// The inputs' common `[learned]` fit, and whether one was dropped.
fn common_learned(bases: &[CaseBase]) -> (Option<super::schema::Learned>, bool) {
    let first = bases.first().and_then(|b| b.learned.clone());
    let same = bases.iter().all(|b| b.learned == first);
    match same {
        true => (first, false),
        false => (None, true),
    }
}

/// Whether the outcome `new` is strictly better than `old`: fewer positions
/// examined (unknown counts as more), then fewer steps, then fewer moves.
pub fn better(new: &Outcome, old: &Outcome) -> bool {
    effort(new) < effort(old)
}

fn effort(o: &Outcome) -> (u64, u64, u64) {
    let or_max = |v: Option<u64>| v.unwrap_or(u64::MAX);
    (
        or_max(o.positions_examined),
        or_max(o.steps),
        or_max(o.moves),
    )
}

/// A total order, best first: [`better`], then the case's text.
fn order(a: &Case, b: &Case) -> Ordering {
    effort(&a.outcome)
        .cmp(&effort(&b.outcome))
        .then_with(|| case_text(a).cmp(&case_text(b)))
}

fn case_text(c: &Case) -> String {
    toml::to_string(c).unwrap_or_default()
}

/// Which puzzle a case is about.
fn puzzle_key(c: &Case) -> String {
    match &c.provenance.sha256 {
        Some(h) => format!("sha256:{h}"),
        None => format!("name:{}", c.name),
    }
}

/// Merges case bases as described in the module documentation.
pub fn merge(bases: &[CaseBase]) -> Merged {
    let read = bases.iter().map(|b| b.cases.len()).sum();
    let mut best: BTreeMap<String, (&Case, Vec<&[Trial]>)> = BTreeMap::new();
    for case in bases.iter().flat_map(|b| &b.cases) {
        best.entry(puzzle_key(case))
            .and_modify(|(kept, profiles)| {
                if order(case, kept) == Ordering::Less {
                    *kept = case;
                }
                profiles.push(&case.profile);
            })
            .or_insert((case, vec![&case.profile]));
    }
    let dropped = read - best.len();
    let mut kept: Vec<(String, Case)> = best
        .into_iter()
        .map(|(key, (case, profiles))| {
            let profile = match profiles.len() {
                1 => case.profile.clone(),
                _ => union(profiles),
            };
            (
                key,
                Case {
                    profile,
                    ..case.clone()
                },
            )
        })
        .collect();
    kept.sort_by(|(ka, a), (kb, b)| a.name.cmp(&b.name).then_with(|| ka.cmp(kb)));
    // Every name given in the inputs stays taken, so a suffix never lands on
    // the name of another kept case.
    let mut taken: BTreeSet<String> = kept.iter().map(|(_, c)| c.name.clone()).collect();
    let mut merged = CaseBase::new();
    let mut renamed = 0;
    // The names placed in `merged` so far (a set: a scan of `merged` for
    // every case made merging quadratic in the cases).
    let mut placed: BTreeSet<String> = BTreeSet::new();
    for (_, mut case) in kept {
        if placed.contains(&case.name) {
            // The bare name is held in `merged`; a suffix must be free of
            // every kept case's name.
            let base = case.name.clone();
            case.name = super::unique_name(&base, |n| n == base || taken.contains(n));
            taken.insert(case.name.clone());
            renamed += 1;
        }
        placed.insert(case.name.clone());
        merged.cases.push(case);
    }
    merged.cases.sort_by(|a, b| a.name.cmp(&b.name));
    let (learned, learned_dropped) = common_learned(bases);
    merged.learned = learned;
    Merged {
        casebase: merged,
        read,
        dropped,
        renamed,
        learned_dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::casebase::tests::case;

    fn solved(name: &str, hash: char, positions: Option<u64>, steps: u64) -> Case {
        let mut c = case(name);
        c.provenance.sha256 = Some(hash.to_string().repeat(64));
        c.outcome.positions_examined = positions;
        c.outcome.steps = Some(steps);
        c
    }

    fn base(cases: Vec<Case>) -> CaseBase {
        CaseBase {
            cases,
            ..CaseBase::new()
        }
    }

    /// Merging is not quadratic in the cases: 60,000 of them merge in about
    /// a second of a debug build (the scan of the merged cases for each
    /// name it used to make took 129 s).
    #[test]
    fn merging_many_cases_takes_time_linear_in_them() {
        let n = 60_000;
        let cases = (0..n)
            .map(|k| {
                let mut c = case(&format!("puzzle #{k:06}"));
                c.provenance.sha256 = Some(format!("{k:064x}"));
                c
            })
            .collect();
        let start = std::time::Instant::now();
        let merged = merge(&[base(cases)]);
        let took = start.elapsed();
        assert_eq!((merged.read, merged.dropped, merged.renamed), (n, 0, 0));
        assert_eq!(merged.casebase.cases.len(), n);
        assert!(
            took < std::time::Duration::from_secs(8),
            "merging took {took:?}"
        );
    }

    #[test]
    fn keeps_one_case_per_puzzle_the_one_with_fewer_positions() {
        let a = base(vec![
            solved("klotski", 'a', Some(900), 116),
            solved("century", 'b', Some(50), 131),
        ]);
        let b = base(vec![
            solved("klotski again", 'a', Some(400), 140),
            solved("century", 'b', None, 100),
            solved("rush", 'c', Some(7), 20),
        ]);
        let m = merge(&[a.clone(), b.clone()]);
        let names: Vec<&str> = m.casebase.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["century", "klotski again", "rush"]);
        assert_eq!(m.casebase.cases[0].outcome.positions_examined, Some(50));
        assert_eq!(m.casebase.cases[1].outcome.positions_examined, Some(400));
        assert_eq!((m.read, m.dropped, m.renamed), (5, 2, 0));
        // Any order of the inputs gives the same case base.
        assert_eq!(merge(&[b, a]).casebase, m.casebase);
    }

    #[test]
    fn ties_go_to_fewer_steps_and_never_to_input_order() {
        let long = solved("x", 'a', Some(10), 90);
        let short = solved("x short", 'a', Some(10), 80);
        let m = merge(&[base(vec![long.clone()]), base(vec![short.clone()])]);
        assert_eq!(m.casebase.cases[0].name, "x short");
        let mut twin = short.clone();
        twin.comment = Some("same effort, other text".to_string());
        let one = merge(&[base(vec![short.clone()]), base(vec![twin.clone()])]);
        let two = merge(&[base(vec![twin]), base(vec![short])]);
        assert_eq!(one.casebase, two.casebase);
        assert_eq!(one.casebase.cases.len(), 1);
    }

    #[test]
    fn different_puzzles_with_one_name_are_kept_apart() {
        let m = merge(&[
            base(vec![solved("level", 'b', Some(5), 1)]),
            base(vec![
                solved("level", 'a', Some(9), 1),
                solved("level (2)", 'c', Some(1), 1),
            ]),
        ]);
        let names: Vec<&str> = m.casebase.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["level", "level (2)", "level (3)"]);
        assert_eq!(m.renamed, 1);
        // Cases without a hash are told apart by name.
        let mut x = case("imported");
        x.provenance.sha256 = None;
        let m = merge(&[base(vec![x.clone()]), base(vec![x])]);
        assert_eq!((m.casebase.cases.len(), m.dropped), (1, 1));
    }

    /// Two cases of one puzzle merge into one holding the union of their
    /// profiles: a trial of the same setting and limit once, the better
    /// (solved before stopped, then fewer positions), for any input order.
    #[test]
    fn merging_keeps_the_union_of_the_profiles() {
        use crate::casebase::tests::profiled;
        use sbp_protocol::Status;
        let a = profiled("a");
        let mut b = profiled("a again");
        b.profile.remove(0);
        // The same setting and limit as a's second trial, solved: better.
        b.profile[0].status = Status::Solved;
        b.profile[0].positions = 150_000;
        b.profile[0].length = Some(120);
        // A new limit for the same setting: a trial of its own.
        let mut wider = a.profile[1].clone();
        wider.limit = Some(5_000_000);
        b.profile.push(wider.clone());
        let m = merge(&[base(vec![a.clone()]), base(vec![b.clone()])]);
        assert_eq!(m.casebase.cases.len(), 1);
        let profile = &m.casebase.cases[0].profile;
        assert_eq!(profile.len(), 4, "{profile:#?}");
        for t in [&a.profile[0], &a.profile[2], &b.profile[0], &wider] {
            assert!(profile.contains(t), "{t:?} in {profile:#?}");
        }
        assert!(!profile.contains(&a.profile[1]));
        assert_eq!(merge(&[base(vec![b]), base(vec![a])]).casebase, m.casebase);
    }

    /// The `[learned]` fit survives a merge only when every input has the
    /// same one.
    #[test]
    fn a_learned_fit_is_kept_only_when_every_input_has_it() {
        use crate::casebase::tests::learned;
        let with = CaseBase {
            learned: Some(learned()),
            ..base(vec![solved("x", 'a', Some(1), 1)])
        };
        let m = merge(&[with.clone(), with.clone()]);
        assert_eq!(
            (m.casebase.learned, m.learned_dropped),
            (Some(learned()), false)
        );
        let m = merge(&[with.clone(), base(vec![solved("y", 'b', Some(1), 1)])]);
        assert_eq!((m.casebase.learned, m.learned_dropped), (None, true));
        let mut other = with.clone();
        other.learned.as_mut().unwrap().k = 3;
        assert!(merge(&[with, other]).learned_dropped);
    }

    #[test]
    fn better_means_fewer_positions_then_steps() {
        let o = |p: Option<u64>, s: u64| Outcome {
            positions_examined: p,
            steps: Some(s),
            ..case("o").outcome
        };
        assert!(better(&o(Some(5), 9), &o(Some(6), 1)));
        assert!(better(&o(Some(5), 9), &o(None, 1)));
        assert!(better(&o(Some(5), 8), &o(Some(5), 9)));
        assert!(!better(&o(Some(5), 9), &o(Some(5), 9)));
        assert!(!better(&o(None, 1), &o(Some(6), 9)));
    }
}
