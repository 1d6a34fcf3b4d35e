//! Several puzzles of a collection at a time (`solver solve --jobs N`).
//!
//! The puzzles of a collection are independent searches. Most of a Rush
//! Hour database's boards hold a few thousand positions, too few for one
//! search to use a second core (its crew of threads costs more than it
//! saves there), so the collection goes through N boards at a time instead.
//! Results come back in the collection's order, each as soon as it and every
//! one before it are done: the output is the same as one at a time.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use clap::Args;

use crate::encoding::available_memory;
use crate::params::Limits;
use crate::search::resident_bytes;

/// `--jobs N` of `solve` and `count`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct JobsArg {
    /// Puzzles of a collection searched at once, each its own search (default: one per core).
    /// They share the memory: each may hold 1/N of --max-memory (or of the available memory).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("solve", "jobs"))]
    pub jobs: Option<usize>,
}

impl JobsArg {
    /// How many of `puzzles` go at once: as asked (at most one per puzzle),
    /// else [`default_jobs`].
    pub fn for_collection(self, puzzles: usize) -> usize {
        self.jobs
            .unwrap_or_else(|| default_jobs(puzzles))
            .min(puzzles.max(1))
    }
}

/// How many puzzles run at once when `--jobs` is not given: one per core
/// for a collection, one for a single puzzle.
pub fn default_jobs(puzzles: usize) -> usize {
    match puzzles {
        0 | 1 => 1,
        n => std::thread::available_parallelism().map_or(1, |c| c.get().min(n)),
    }
}

/// The limits of each of `jobs` searches at once: an even share of the
/// memory the process may hold (`--max-memory`, else the machine's
/// available memory), and an even share of what it holds now to count
/// against it (the `held` of `Engine::new`), so that no search counts
/// another's tables as its own. One job: the limits as asked, the process
/// measured at each start.
pub fn shared(limits: Limits, jobs: usize) -> (Limits, Option<u64>) {
    if jobs <= 1 {
        return (limits, None);
    }
    let n = jobs as u64;
    let total = limits.max_memory.unwrap_or_else(available_memory);
    let limits = Limits {
        max_memory: Some(total / n),
        ..limits
    };
    (limits, Some(resident_bytes() / n))
}

/// Runs `work(i)` for every `i` in `0..n`, on up to `jobs` threads taking
/// the next index as they finish one, and hands each result to `emit` on the
/// calling thread in increasing `i`. Once `emit` returns an error no further
/// work starts (work under way finishes and is dropped) and that error is
/// returned. With one job everything runs on the calling thread.
pub fn in_order<T: Send, E>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    mut emit: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    if jobs <= 1 || n <= 1 {
        return (0..n).try_for_each(|i| emit(i, work(i)));
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(n) {
            let (tx, next, stop, work) = (tx.clone(), &next, &stop, &work);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    // A closed channel: the caller has stopped reading.
                    if i >= n || tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results that came before their turn, by index.
        let mut early = BTreeMap::new();
        let mut due = 0;
        for (i, result) in rx.iter() {
            early.insert(i, result);
            while let Some(result) = early.remove(&due) {
                if let Err(e) = emit(due, result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Later indices finish first (they sleep less), and still every result
    /// is handed on in index order, each once, on every job count.
    #[test]
    fn results_come_in_index_order_whatever_order_they_finish_in() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let work = |i: usize| {
                std::thread::sleep(Duration::from_millis((12 - i as u64) * 2));
                i * 10
            };
            let done: Result<(), ()> = in_order(12, jobs, work, |i, r| {
                seen.push((i, r));
                Ok(())
            });
            assert_eq!(done, Ok(()));
            let expected: Vec<_> = (0..12).map(|i| (i, i * 10)).collect();
            assert_eq!(seen, expected, "{jobs} jobs");
        }
    }

    /// An error from `emit` ends the run with that error: nothing after it
    /// is emitted, and work not yet started is not started.
    #[test]
    fn an_error_stops_the_run_and_is_returned() {
        let started = AtomicUsize::new(0);
        let mut emitted = Vec::new();
        let work = |i: usize| {
            started.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(5));
            i
        };
        let done = in_order(1000, 2, work, |i, _| {
            emitted.push(i);
            if i == 3 {
                Err(format!("puzzle {i}"))
            } else {
                Ok(())
            }
        });
        assert_eq!(done, Err("puzzle 3".to_string()));
        assert_eq!(emitted, vec![0, 1, 2, 3]);
        let n = started.load(Ordering::Relaxed);
        assert!(n < 20, "{n} of 1000 started after the error at 3");
    }

    #[test]
    fn one_puzzle_is_one_job_and_a_collection_at_most_one_per_puzzle() {
        assert_eq!(default_jobs(1), 1);
        assert_eq!(default_jobs(0), 1);
        assert!((1..=2).contains(&default_jobs(2)));
    }
}
