//! Several puzzles of a collection at a time (`solver solve` and `solver count`, `--jobs N`).
//!
//! The puzzles of a collection are independent searches. Most of a Rush
//! Hour database's boards hold a few thousand positions, too few for one
//! search to use a second core (its crew of threads costs more than it
//! saves there), so the collection goes through N boards at a time instead.
//! Results come back in the collection's order, each as soon as it and every
//! one before it are done: the output is the same as one at a time.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use clap::Args;

use crate::encoding::available_memory;
use crate::params::Limits;
use crate::search::resident_bytes;

/// `--jobs N` of `solve` and `count`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct JobsArg {
    /// Puzzles of a collection searched at once, each its own search (default: the cores over
    /// --threads).
    /// They share the memory: each may hold 1/N of --max-memory (or of the available memory).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::ranged::whole::<usize>("solve", "jobs"))]
    pub jobs: Option<usize>,
}

impl JobsArg {
    /// How many of `puzzles` go at once, each search on `threads` threads:
    /// as asked (at most one per puzzle), else [`default_jobs`].
    pub fn for_collection(self, puzzles: usize, threads: usize) -> usize {
        self.jobs
            .unwrap_or_else(|| default_jobs(puzzles, threads, cores()))
            .min(puzzles.max(1))
    }
}

/// The machine's cores (1 where that cannot be read).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// How many puzzles run at once when `--jobs` is not given: as many as keep
/// every one of `cores` busy with searches of `threads` threads each (at
/// least one), no more than there are puzzles.
pub fn default_jobs(puzzles: usize, threads: usize, cores: usize) -> usize {
    (cores / threads.max(1)).clamp(1, puzzles.max(1))
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
/// returned; a `work` that panics stops the run the same way, and the panic
/// goes on on the calling thread when its turn comes, after every result
/// before it. No thread runs more than `2 * jobs` indices ahead of the
/// result awaited, so results waiting for a slow one stay few. With one job
/// everything runs on the calling thread.
pub fn in_order<T: Send, E>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    mut emit: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    if jobs <= 1 || n <= 1 {
        return (0..n).try_for_each(|i| emit(i, work(i)));
    }
    let shared = Shared {
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        due: Mutex::new(0),
        turned: Condvar::new(),
        ahead: 2 * jobs,
    };
    std::thread::scope(|scope| {
        // However this closure ends (an error, or a panic of `emit`), the
        // threads stop taking indices and waiting ones wake, so that the
        // scope's join does not wait on a window that no longer moves.
        let _halt = Halt(&shared);
        // Made here, so that an early return drops the receiver and a
        // thread's next send fails.
        let (tx, rx) = mpsc::channel();
        for _ in 0..jobs.min(n) {
            let (tx, shared, work) = (tx.clone(), &shared, &work);
            scope.spawn(move || shared.worker(n, tx, work));
        }
        drop(tx);
        // Results that came before their turn, by index.
        let mut early = BTreeMap::new();
        let mut due = 0;
        for (i, result) in rx.iter() {
            early.insert(i, result);
            while let Some(result) = early.remove(&due) {
                let emitted = match result {
                    Ok(value) => emit(due, value),
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                if let Err(e) = emitted {
                    shared.halt();
                    return Err(e);
                }
                due += 1;
                *shared.due.lock().unwrap_or_else(|e| e.into_inner()) = due;
                shared.turned.notify_all();
            }
        }
        // Every index below a panic is run, so its turn comes above; should
        // one not have been, the panic is still raised, never a quiet end.
        if let Some(panic) = early.into_values().find_map(Result::err) {
            std::panic::resume_unwind(panic);
        }
        Ok(())
    })
}

/// Halts the run when dropped (see [`Shared::halt`]).
struct Halt<'a>(&'a Shared);

impl Drop for Halt<'_> {
    fn drop(&mut self) {
        self.0.halt();
    }
}

/// What the threads of [`in_order`] share.
struct Shared {
    /// The next index to take.
    next: AtomicUsize,
    /// Set when the run ends early: no index is taken after it.
    stop: AtomicBool,
    /// The index whose result is awaited, and its change.
    due: Mutex<usize>,
    turned: Condvar,
    /// How far past `due` a thread may take an index.
    ahead: usize,
}

impl Shared {
    /// One thread: takes indices until none are left or the run stops,
    /// waiting while it would run too far ahead, and sends each result (or
    /// the panic of its `work`, which stops the run).
    fn worker<T>(
        &self,
        n: usize,
        tx: mpsc::Sender<(usize, std::thread::Result<T>)>,
        work: &(impl Fn(usize) -> T + Sync),
    ) {
        while !self.stop.load(Ordering::Relaxed) {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let mut due = self.due.lock().unwrap_or_else(|e| e.into_inner());
            while i >= *due + self.ahead && !self.stop.load(Ordering::Relaxed) {
                due = self.turned.wait(due).unwrap_or_else(|e| e.into_inner());
            }
            drop(due);
            // A taken index is run even after a stop (one more job a thread
            // at most): every index below a panicking one is run, so its
            // results come out before the panic is raised.
            let result = std::panic::catch_unwind(AssertUnwindSafe(|| work(i)));
            if result.is_err() {
                self.halt();
            }
            if tx.send((i, result)).is_err() {
                break;
            }
        }
    }

    /// Stops the run: no index is taken after this, and waiting threads wake.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _due = self.due.lock().unwrap_or_else(|e| e.into_inner());
        self.turned.notify_all();
    }
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

    /// A panicking job stops the run: every result before it is emitted,
    /// the panic goes on on the calling thread, and little work after it
    /// was started.
    #[test]
    fn a_panic_stops_the_run_after_every_result_before_it() {
        let started = AtomicUsize::new(0);
        let mut emitted = Vec::new();
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let work = |i: usize| {
                started.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(if i == 3 { 20 } else { 2 }));
                assert!(i != 3, "job 3 fails");
                i
            };
            in_order(1000, 2, work, |i, _| -> Result<(), ()> {
                emitted.push(i);
                Ok(())
            })
        }));
        assert!(run.is_err(), "the panic reached the caller");
        assert_eq!(emitted, vec![0, 1, 2]);
        let n = started.load(Ordering::Relaxed);
        assert!(n < 20, "{n} of 1000 started");
    }

    /// A panic in `emit` ends the run (threads waiting in the window wake
    /// and stop) instead of hanging it.
    #[test]
    fn a_panic_in_emit_ends_the_run() {
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let work = |i: usize| {
                std::thread::sleep(Duration::from_millis(1));
                i
            };
            in_order(1000, 2, work, |i, _| -> Result<(), ()> {
                assert!(i != 2, "emit fails");
                Ok(())
            })
        }));
        assert!(run.is_err());
    }

    /// While the first result is slow, the others run at most `2 * jobs`
    /// indices ahead of it.
    #[test]
    fn threads_run_no_further_ahead_than_twice_the_jobs() {
        let started = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let work = |i: usize| {
            started.fetch_add(1, Ordering::Relaxed);
            if i == 0 {
                std::thread::sleep(Duration::from_millis(100));
                most.store(started.load(Ordering::Relaxed), Ordering::Relaxed);
            }
            i
        };
        let done: Result<(), ()> = in_order(100, 2, work, |_, _| Ok(()));
        assert_eq!(done, Ok(()));
        let ahead = most.load(Ordering::Relaxed);
        assert!(
            (2..=4).contains(&ahead),
            "{ahead} started while the first ran"
        );
    }

    #[test]
    fn by_default_the_jobs_share_the_cores_and_no_more_than_the_puzzles() {
        assert_eq!(default_jobs(95, 1, 2), 2);
        assert_eq!(
            default_jobs(95, 2, 2),
            1,
            "--threads 2: one search at a time"
        );
        assert_eq!(default_jobs(95, 2, 8), 4);
        assert_eq!(default_jobs(95, 4, 2), 1);
        assert_eq!(default_jobs(1, 1, 8), 1);
        assert_eq!(default_jobs(0, 1, 8), 1);
        assert_eq!(default_jobs(3, 1, 8), 3);
    }
}
