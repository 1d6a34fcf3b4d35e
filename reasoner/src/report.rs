//! The report of one cycle: a JSON object (`--json`) and a text table.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::bounds::Bounds;
use crate::budget::BudgetReport;
use crate::features::Features;
use crate::improve::Improvement;
use crate::params::{Metric, ParamSet};
use crate::plan::{Phase, Planned};
use crate::runner::{AttemptResult, RunStatus};
use crate::similarity::Ranked;

/// One solver run as reported: the plan's side and the solver's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttemptRecord {
    /// 1-based, in plan order.
    pub index: usize,
    pub phase: Phase,
    /// Reuse: the case (or standard setting) whose parameters ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// Final: the attempt whose parameters it repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<usize>,
    pub params: ParamSet,
    /// `status`, `steps`, `moves`, `positions_examined`, `best_distance`,
    /// `best_distance_positions`, `elapsed_ms`, `error`.
    #[serde(flatten)]
    pub result: AttemptResult,
}

impl AttemptRecord {
    pub fn new(p: &Planned, r: &AttemptResult) -> AttemptRecord {
        AttemptRecord {
            index: p.index,
            phase: p.phase,
            case: p.case.clone(),
            from: p.from,
            params: p.params.clone(),
            result: r.clone(),
        }
    }
}

/// What `--retain` did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Retained {
    pub case: String,
    /// `added`, `updated` (fewer positions than the old case) or `kept`.
    pub action: &'static str,
}

/// The whole report of `reasoner solve`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub puzzle: String,
    pub name: Option<String>,
    /// `solved`, `no_solution` (proved: no solution under any setting),
    /// `limit_reached`, `failed` (no attempt gave an answer), or
    /// `interrupted` (SIGINT/SIGTERM; the attempts finished before it).
    pub status: RunStatus,
    /// The metric the answer is aimed at (`--metric`; steps without it):
    /// the text report gives its length first; `steps` and `moves` are both
    /// the solution's.
    pub metric: Metric,
    pub steps: Option<u64>,
    pub moves: Option<u64>,
    /// When solved: whether the final length is proven optimal in `metric`
    /// (the attempt that solved was an optimal search, or the improve
    /// phase's optimal re-run found it or proved none shorter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    /// A length in `metric` no solution is shorter than: the final length
    /// when proven optimal, else the largest bound any solver run proved
    /// (each attempt's answer carries one, the heuristics' estimate of the
    /// start at least, and so does a stopped optimal re-run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    pub solution: Option<Vec<String>>,
    /// Index of the attempt that solved the puzzle.
    pub solved_by: Option<usize>,
    pub features: Features,
    /// The similarity measure's name.
    pub similarity: &'static str,
    /// Which cases were reused: `similar`, `random` or `none` (`--retrieval`).
    pub retrieval: &'static str,
    /// Retrieved cases with the thesis's similarity value (a distance:
    /// smaller is more similar), most similar first.
    pub retrieved: Vec<Ranked>,
    pub attempts: Vec<AttemptRecord>,
    pub seed: u64,
    pub position_limit: u64,
    pub wave: usize,
    /// Per cutoff pruning (`space_value`), the smallest cutoff still allowed
    /// at the end (steps metric) with the other prunings off and with each
    /// alone at each of its settings (`resting=strict`); `null`: no cutoff
    /// can solve there.
    pub cutoff_bounds: BTreeMap<String, BTreeMap<String, Option<u64>>>,
    pub retained: Option<Retained>,
    /// The improve phase: the first and the final solution length (`null`
    /// when it did not run: not solved, or `--no-improve`).
    pub improvement: Option<Improvement>,
    /// Seconds from the start to the first verified solution (before the
    /// improve phase); absent when unsolved. `budget.first_solution_ms`
    /// in seconds, at the top level where a person looks first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_solution_s: Option<f64>,
    /// The whole run's budget and what was used of it.
    pub budget: BudgetReport,
}

/// `cutoff_bounds` of a report.
pub fn bounds_summary(bounds: &Bounds) -> BTreeMap<String, BTreeMap<String, Option<u64>>> {
    bounds.summary()
}

/// One optimal re-run's line of the text report, `what` naming it.
fn rerun_line(out: &mut String, what: &str, r: &crate::rerun::Rerun) {
    let _ = writeln!(
        out,
        "  {what} within {} {}{}: {}{} ({} positions, {}){}",
        r.bound,
        r.metric,
        r.search
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default(),
        r.status,
        r.steps
            .zip(r.moves)
            .map(|(s, m)| format!(", {s} steps, {m} moves"))
            .unwrap_or_default(),
        r.positions_examined,
        duration(r.elapsed_ms),
        r.error
            .as_deref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default()
    );
}

/// `850 ms`, `12.3 s`.
fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_else(|| "-".to_string())
}

/// The attempts as a text table.
pub fn attempts_table(attempts: &[AttemptRecord]) -> String {
    let rows: Vec<[String; 7]> = attempts
        .iter()
        .map(|a| {
            let best = match (a.result.best_distance, a.result.best_distance_positions) {
                (Some(d), Some(at)) => format!("{d} @ {at}"),
                (Some(d), None) => d.to_string(),
                _ => "-".to_string(),
            };
            let mut outcome = a.result.status.name().to_string();
            if a.phase == Phase::Variant {
                // The variant's own result, not the puzzle's.
                outcome = format!("variant {outcome}");
            }
            if let Some(s) = a.result.steps {
                outcome.push_str(&format!(" ({s} steps)"));
            }
            [
                a.index.to_string(),
                a.phase.name().to_string(),
                a.params.to_string(),
                outcome,
                opt(a.result.positions_examined),
                best,
                duration(a.result.elapsed_ms),
            ]
        })
        .collect();
    let header = [
        "#",
        "phase",
        "parameters",
        "outcome",
        "positions",
        "best distance",
        "time",
    ];
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: Vec<&str>| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            // Numbers right-aligned, text left-aligned.
            if matches!(i, 0 | 4 | 5 | 6) {
                let _ = write!(s, "{c:>w$}  ");
            } else {
                let _ = write!(s, "{c:<w$}  ");
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut out, header.to_vec());
    for r in &rows {
        line(&mut out, r.iter().map(String::as_str).collect());
    }
    for a in attempts.iter().filter(|a| a.result.error.is_some()) {
        let _ = writeln!(
            out,
            "attempt {} failed: {}",
            a.index,
            a.result.error.as_deref().unwrap_or("")
        );
    }
    out
}

impl Report {
    /// The final lengths, the asked metric's first: `91 steps (54 moves)`.
    fn lengths(&self) -> String {
        let (steps, moves) = (opt(self.steps), opt(self.moves));
        match self.metric {
            Metric::Steps => format!("{steps} steps ({moves} moves)"),
            Metric::Moves => format!("{moves} moves ({steps} steps)"),
        }
    }

    /// The first solution's time, the improve phase's and the budget's
    /// lines of the text report.
    fn phases_text(&self, out: &mut String) {
        if let Some(ms) = self.budget.first_solution_ms {
            let _ = writeln!(out, "first solution after {}", duration(ms));
        }
        if let Some(i) = &self.improvement {
            // The phase's whole time on its own line; each step's positions
            // and time on the lines below, in the order they ran.
            let _ = writeln!(
                out,
                "improve: {} ({} -> {} steps, {} -> {} moves) in {}{}",
                i.status,
                opt(i.first_steps),
                opt(i.steps),
                opt(i.first_moves),
                opt(i.moves),
                duration(i.elapsed_ms),
                i.error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            );
            if let Some(r) = &i.quick_rerun {
                rerun_line(out, "quick re-run", r);
            }
            if i.quick_rerun.is_some() || i.shortcuts > 0 || i.positions_examined > 0 {
                let _ = writeln!(
                    out,
                    "  windows: {} shortcut(s), {} positions",
                    i.shortcuts, i.positions_examined
                );
            }
            if let Some(r) = &i.rerun {
                rerun_line(out, "re-run", r);
            }
            if i.first_optimal {
                let _ = writeln!(
                    out,
                    "  the first solution is optimal (the solver's search proved it in {}): nothing to shorten",
                    self.metric.name()
                );
            }
            let _ = writeln!(out, "  final length from: {}", i.final_by);
        }
        let b = &self.budget;
        if b.time_budget_s.is_none() && b.position_budget.is_none() {
            return;
        }
        let _ = writeln!(
            out,
            "budget: {} of {} s, {} of {} positions used{}",
            duration(b.elapsed_ms),
            opt(b.time_budget_s),
            b.positions_used,
            opt(b.position_budget),
            b.exhausted
                .map(|e| format!("; the {e} budget ran out, so the run stopped there"))
                .unwrap_or_default()
        );
    }

    /// Sets `optimal` (when solved) and `lower_bound` from what the runs
    /// of the puzzle as given proved in the report's metric: the attempts'
    /// answers, the improve phase's re-runs, an optimal first solution.
    pub fn settle_bounds(&mut self) {
        let metric = self.metric;
        let proved = self.status == RunStatus::Solved
            && (self
                .improvement
                .as_ref()
                .is_some_and(|i| i.proved_optimal())
                || crate::improve::first_optimal_in(self) == Some(metric));
        if self.status == RunStatus::Solved {
            self.optimal = Some(proved);
        }
        let length = crate::params::length_in(metric, self.steps, self.moves);
        let attempts = (self.attempts.iter())
            .filter(|a| a.phase.whole_puzzle())
            .filter_map(|a| a.result.lower_bound)
            .filter(|&(m, _)| m == metric)
            .map(|(_, n)| n);
        let reruns = self.improvement.as_ref().and_then(|i| i.lower_bound());
        self.lower_bound = match proved {
            true => length,
            false => attempts.chain(reruns).max(),
        };
    }

    /// The human-readable report: retrieved cases, the attempts, the result.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let title = self.name.as_deref().unwrap_or(&self.puzzle);
        let _ = writeln!(out, "puzzle: {title}");
        let _ = writeln!(
            out,
            "retrieved ({} similarity, smaller is closer):",
            self.similarity
        );
        if self.retrieved.is_empty() {
            let _ = writeln!(
                out,
                "  (empty case base: the four standard settings stand in)"
            );
        }
        for r in &self.retrieved {
            let _ = writeln!(out, "  {:>12.6}  {}", r.similarity, r.name);
        }
        let _ = writeln!(out, "attempts (seed {}):", self.seed);
        out.push_str(&attempts_table(&self.attempts));
        let result = match self.status {
            RunStatus::Solved => format!(
                "solved in {} by attempt {}{}",
                self.lengths(),
                opt(self.solved_by),
                match (self.optimal, self.lower_bound) {
                    (Some(true), _) => format!(" (optimal in {})", self.metric.name()),
                    (_, Some(n)) if n > 0 =>
                        format!("; the optimum is at least {n} {}", self.metric.name()),
                    _ => String::new(),
                }
            ),
            RunStatus::NoSolution => {
                "no solution: a run without solution-losing pruning examined every position"
                    .to_string()
            }
            RunStatus::LimitReached => "not solved: every attempt stopped at a limit".to_string(),
            RunStatus::Failed => "failed: no attempt gave an answer".to_string(),
            RunStatus::Interrupted => {
                "interrupted: the attempts that were running stopped and say how close they got; no new one started".to_string()
            }
            RunStatus::Cancelled => "cancelled".to_string(),
        };
        let _ = writeln!(out, "result: {result}");
        self.phases_text(&mut out);
        if let Some(r) = &self.retained {
            let _ = writeln!(out, "case base: {} case {:?}", r.action, r.case);
        }
        out
    }
}
