//! The whole run's budget (`--time-budget S`, `--position-budget N`): one
//! clock and one position counter shared by every phase (the attempts, the
//! final run, the improvement, and any later phase), so that the run as a
//! whole stops within it. Each solver process gets what is left, split
//! among the processes that run at once; what a process examined is charged
//! when it ends. The report says how much was used and which budget, if any,
//! ran out.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::runner::RunLimits;

/// Share of the time left a solver is asked to stop by (`--time-limit`);
/// it is killed when the time is up. The rest is room for a solver that
/// overruns its own limit (a table growing on a loaded machine takes
/// seconds), so that it stops itself and reports how far it got, and the
/// run still ends within its budget.
const OWN_LIMIT_SHARE: f64 = 0.9;

/// Share of a budget the limited attempts may use while the puzzle is
/// unsolved: the rest is kept for the phases for hard puzzles (parking,
/// variants, restarts) and the final run. Without it the 25 attempts of 5M
/// positions on American Pie take the whole 20 minutes on two cores, and
/// the parking phase that solves it never starts.
const ATTEMPTS_SHARE: f64 = 0.5;

/// The run's budget and what has been used of it. Shared (`Arc`) by the
/// phases; the position counter is atomic so concurrent attempts can charge it.
#[derive(Debug)]
pub struct Budget {
    time: Option<Duration>,
    positions: Option<u64>,
    started: Instant,
    used: AtomicU64,
}

impl Default for Budget {
    /// No budget: every phase runs to its own limits.
    fn default() -> Self {
        Budget::new(None, None)
    }
}

/// What the report says of the budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BudgetReport {
    /// `--time-budget` in seconds, `null` when none.
    pub time_budget_s: Option<f64>,
    /// `--position-budget`, `null` when none.
    pub position_budget: Option<u64>,
    /// Wall time from the start of the run to the report.
    pub elapsed_ms: u64,
    /// Wall time from the start of the run to its first verified
    /// solution, before `--improve` shortened it (`null`: not solved). A
    /// solved run's `elapsed_ms` also counts the improve phase, which takes
    /// what is left of a time budget.
    pub first_solution_ms: Option<u64>,
    /// Positions the solver processes examined, all phases together.
    pub positions_used: u64,
    /// `time` or `positions` when that budget ran out (later phases were
    /// cut short or skipped), else `null`.
    pub exhausted: Option<&'static str>,
}

impl Budget {
    /// A budget starting now.
    pub fn new(time: Option<Duration>, positions: Option<u64>) -> Budget {
        Budget {
            time,
            positions,
            started: Instant::now(),
            used: AtomicU64::new(0),
        }
    }

    /// The time budget (`--time-budget`), `None` when there is none.
    pub fn time(&self) -> Option<Duration> {
        self.time
    }

    /// Time left, `None` when there is no time budget.
    pub fn time_left(&self) -> Option<Duration> {
        self.time.map(|t| t.saturating_sub(self.started.elapsed()))
    }

    /// Positions left, `None` when there is no position budget.
    pub fn positions_left(&self) -> Option<u64> {
        self.positions
            .map(|p| p.saturating_sub(self.used.load(Ordering::Relaxed)))
    }

    /// Charges positions a finished solver process examined.
    pub fn charge(&self, positions: u64) {
        self.used.fetch_add(positions, Ordering::Relaxed);
    }

    /// Which budget has run out, if one has.
    pub fn exhausted(&self) -> Option<&'static str> {
        if self.time_left().is_some_and(|t| t.is_zero()) {
            Some("time")
        } else if self.positions_left() == Some(0) {
            Some("positions")
        } else {
            None
        }
    }

    /// True once the limited attempts have used their share of a budget
    /// ([`ATTEMPTS_SHARE`] of the time or of the positions); never without one.
    pub fn attempts_share_used(&self) -> bool {
        let time = self
            .time
            .is_some_and(|t| self.started.elapsed() >= t.mul_f64(ATTEMPTS_SHARE));
        let positions = self
            .positions
            .is_some_and(|p| self.used.load(Ordering::Relaxed) as f64 >= p as f64 * ATTEMPTS_SHARE);
        time || positions
    }

    /// The time a solver is told to stop itself within, when it will be
    /// killed after `time`: [`OWN_LIMIT_SHARE`] of it.
    pub fn own_share(time: Duration) -> Duration {
        time.mul_f64(OWN_LIMIT_SHARE)
    }

    /// `limits` cut to what is left, shared among `at_once` processes: the
    /// positions split evenly, the time as a kill when it is up and, a
    /// little before, a `--time-limit` for the solver.
    pub fn limit(&self, limits: RunLimits, at_once: usize) -> RunLimits {
        let share = self
            .positions_left()
            .map(|p| (p / at_once.max(1) as u64).max(1));
        let max_positions = match (limits.max_positions, share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some(left) = self.time_left() else {
            return RunLimits {
                max_positions,
                ..limits
            };
        };
        let own = Budget::own_share(left);
        RunLimits {
            max_positions,
            time_limit: Some(limits.time_limit.map_or(own, |t| t.min(own))),
            timeout: Some(limits.timeout.map_or(left, |t| t.min(left))),
            ..limits
        }
    }

    /// Wall time since the run started, in milliseconds.
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The report's view of the budget (`first_solution_ms` is the cycle's
    /// to fill in).
    pub fn report(&self) -> BudgetReport {
        BudgetReport {
            time_budget_s: self.time.map(|t| t.as_secs_f64()),
            position_budget: self.positions,
            elapsed_ms: self.elapsed_ms(),
            first_solution_ms: None,
            positions_used: self.used.load(Ordering::Relaxed),
            exhausted: self.exhausted(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_split_and_charged() {
        let b = Budget::new(None, Some(1000));
        let unlimited = RunLimits::default();
        assert_eq!(b.limit(unlimited, 4).max_positions, Some(250));
        let capped = RunLimits {
            max_positions: Some(100),
            ..RunLimits::default()
        };
        assert_eq!(b.limit(capped, 2).max_positions, Some(100));
        b.charge(990);
        assert_eq!(b.positions_left(), Some(10));
        assert_eq!(b.limit(unlimited, 4).max_positions, Some(2));
        assert_eq!(b.exhausted(), None);
        b.charge(20);
        assert_eq!(
            (b.positions_left(), b.exhausted()),
            (Some(0), Some("positions"))
        );
        assert_eq!(b.report().positions_used, 1010);
    }

    #[test]
    fn time_becomes_a_solver_limit_and_a_kill() {
        let b = Budget::new(Some(Duration::from_secs(100)), None);
        let l = b.limit(RunLimits::default(), 1);
        let (t, kill) = (l.time_limit.unwrap(), l.timeout.unwrap());
        assert!(kill <= Duration::from_secs(100) && kill > Duration::from_secs(99));
        assert!(t < kill && t > kill.mul_f64(0.89), "{t:?} {kill:?}");
        let gone = Budget::new(Some(Duration::ZERO), None);
        assert_eq!(gone.exhausted(), Some("time"));
        assert_eq!(
            Budget::default().limit(RunLimits::default(), 3),
            RunLimits::default()
        );
    }

    #[test]
    fn the_attempts_stop_at_half_a_budget() {
        let b = Budget::new(None, Some(1000));
        assert!(!b.attempts_share_used());
        b.charge(499);
        assert!(!b.attempts_share_used());
        b.charge(1);
        assert!(b.attempts_share_used() && b.exhausted().is_none());
        assert!(Budget::new(Some(Duration::ZERO), None).attempts_share_used());
        assert!(!Budget::new(Some(Duration::from_secs(100)), None).attempts_share_used());
        assert!(!Budget::default().attempts_share_used());
    }
}
