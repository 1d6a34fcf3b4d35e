//! Threads kept for a whole search, handed one job at a time.
//!
//! A BFS runs two parallel steps per chunk of parents (expansion, then
//! insertion), a few hundred chunks on a puzzle of a million positions.
//! Starting two scoped threads a step cost 36 microseconds each here, on a
//! fresh stack, and the new thread often found the other core asleep: on
//! the 10^6 bench puzzle two threads ran 1.25-1.6x one. A crew starts its
//! helpers once; between jobs a helper spins for a short while (the serial
//! part between two steps is shorter) and then parks until the next job, so
//! a crew idle for long, or on a loaded machine, takes no CPU.

use crate::clock::Instant;
use std::any::Any;
use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};
use std::time::Duration;

/// How long a helper spins for the next job before it parks.
const SPIN: Duration = Duration::from_micros(200);

/// A job as the helpers see it: a closure borrowed for the duration of one
/// [`Crew::each`] call only (see the safety argument there).
type Job = &'static (dyn Fn(usize) + Sync);

/// What the caller and the helpers share.
struct Shared {
    /// Bumped once per job; a helper runs the job when it sees a new value.
    epoch: AtomicU64,
    /// The current job, written before `epoch` is bumped.
    job: Mutex<Option<Job>>,
    /// Helpers that have not finished the current job.
    pending: AtomicUsize,
    /// The first panic of a helper in the current job.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    shutdown: AtomicBool,
}

/// `helpers` threads besides the caller's, numbered 1 to `helpers` (the
/// caller is 0).
///
/// Not `Sync`: one job at a time is what the bookkeeping (`job`, `pending`)
/// holds, so the crew may be neither shared between threads nor captured by
/// its own jobs (a job must be `Sync`), either of which could start a second
/// job while helpers still run the first.
pub struct Crew {
    shared: Arc<Shared>,
    threads: Vec<Thread>,
    handles: Vec<JoinHandle<()>>,
    not_sync: PhantomData<Cell<()>>,
}

impl Crew {
    /// Starts `helpers` threads (none for a search on one thread).
    pub fn new(helpers: usize) -> Crew {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: Mutex::new(None),
            pending: AtomicUsize::new(0),
            panic: Mutex::new(None),
            shutdown: AtomicBool::new(false),
        });
        let handles: Vec<JoinHandle<()>> = (1..=helpers)
            .map(|k| {
                let shared = Arc::clone(&shared);
                thread::spawn(move || serve(&shared, k))
            })
            .collect();
        let threads = handles.iter().map(|h| h.thread().clone()).collect();
        Crew {
            shared,
            threads,
            handles,
            not_sync: PhantomData,
        }
    }

    /// Threads in all, the caller's included.
    pub fn size(&self) -> usize {
        self.handles.len() + 1
    }

    /// Runs `f(k, &mut items[k])` for every item, item k on thread k (the
    /// caller's thread takes item 0), and returns when all are done. At most
    /// [`Crew::size`] items. A panic in any of them is raised here, after
    /// every thread has finished.
    pub fn each<T: Send>(&self, items: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
        assert!(items.len() <= self.size(), "more items than threads");
        let base = Items(items.as_mut_ptr());
        let n = items.len();
        let job = move |k: usize| {
            if k < n {
                // SAFETY: thread k alone touches item k, and `items` stays
                // mutably borrowed until every thread has finished.
                let item = unsafe { &mut *base.at(k) };
                f(k, item);
            }
        };
        self.run(&job);
    }

    /// Runs `job(k)` on every thread k and waits for all of them.
    fn run(&self, job: &(dyn Fn(usize) + Sync)) {
        if self.handles.is_empty() {
            job(0);
            return;
        }
        // SAFETY: the helpers call the job only between the epoch's bump
        // below and their decrement of `pending`, and this function does not
        // return (nor unwind, see `Wait`) before `pending` is back to 0, so
        // the borrow outlives every use.
        let job: Job = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), Job>(job) };
        let shared = &*self.shared;
        // A panic left by a job whose own share unwound is not this job's.
        lock(&shared.panic).take();
        *lock(&shared.job) = Some(job);
        shared.pending.store(self.handles.len(), Ordering::SeqCst);
        shared.epoch.fetch_add(1, Ordering::SeqCst);
        for t in &self.threads {
            t.unpark();
        }
        let wait = Wait(shared);
        job(0);
        drop(wait);
        if let Some(payload) = lock(&shared.panic).take() {
            panic::resume_unwind(payload);
        }
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        self.shared.epoch.fetch_add(1, Ordering::SeqCst);
        for t in &self.threads {
            t.unpark();
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// Waits, when dropped, until every helper has finished the current job:
/// also when the caller's own share panics, so that no helper still runs
/// a closure whose borrows are gone.
struct Wait<'a>(&'a Shared);

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        let mut spins = 0u32;
        while self.0.pending.load(Ordering::Acquire) != 0 {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        // The job's borrows end here, unwinding or not.
        *lock(&self.0.job) = None;
    }
}

/// A helper's loop: wait for a new epoch, run the job, report.
fn serve(shared: &Shared, k: usize) {
    let mut seen = 0;
    loop {
        let epoch = next_epoch(shared, seen);
        seen = epoch;
        if shared.shutdown.load(Ordering::SeqCst) {
            return;
        }
        let job = *lock(&shared.job);
        if let Some(job) = job {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| job(k))) {
                let extra = {
                    let mut first = lock(&shared.panic);
                    match *first {
                        None => first.replace(payload),
                        Some(_) => Some(payload),
                    }
                };
                // A second payload is dropped outside the lock, and its own
                // panic (a payload may panic when dropped) caught, so that
                // `pending` is still counted down.
                let _ = panic::catch_unwind(AssertUnwindSafe(move || drop(extra)));
            }
        }
        shared.pending.fetch_sub(1, Ordering::Release);
    }
}

/// Spins, then parks, until the epoch differs from `seen`. The caller
/// unparks every helper after each bump, so a park that starts after a bump
/// returns at once.
fn next_epoch(shared: &Shared, seen: u64) -> u64 {
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        let epoch = shared.epoch.load(Ordering::SeqCst);
        if epoch != seen {
            return epoch;
        }
        spins += 1;
        if !spins.is_multiple_of(64) || start.elapsed() < SPIN {
            std::hint::spin_loop();
        } else {
            thread::park();
        }
    }
}

/// Locks a mutex whose data stays valid even if a holder panicked.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The items' base pointer, shared with the helpers.
struct Items<T>(*mut T);

// By hand: a derive would ask T to be Copy too.
impl<T> Clone for Items<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Items<T> {}

impl<T> Items<T> {
    /// Item `k`'s address. A method, so that closures capture the whole
    /// wrapper (and its `Send`/`Sync`) rather than the raw pointer field.
    fn at(self, k: usize) -> *mut T {
        // SAFETY: callers pass k < the slice's length.
        unsafe { self.0.add(k) }
    }
}

// SAFETY: each item is reached by one thread only (`Crew::each`), and T is
// Send, so handing the pointer to another thread is sound.
unsafe impl<T: Send> Send for Items<T> {}
unsafe impl<T: Send> Sync for Items<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_on_its_own_thread() {
        let crew = Crew::new(2);
        let mut items = vec![(0usize, None); 3];
        for round in 1..=500 {
            crew.each(&mut items, |k, item| {
                item.0 += k + round;
                item.1 = Some(thread::current().id());
            });
        }
        let expected: Vec<usize> = (0..3).map(|k| 500 * k + 500 * 501 / 2).collect();
        assert_eq!(items.iter().map(|i| i.0).collect::<Vec<_>>(), expected);
        assert_eq!(items[0].1, Some(thread::current().id()));
        assert_ne!(items[1].1, items[2].1);
        assert_ne!(items[1].1, items[0].1);
    }

    #[test]
    fn fewer_items_than_threads_and_no_helpers() {
        let crew = Crew::new(3);
        let mut items = vec![1u64];
        crew.each(&mut items, |_, x| *x *= 7);
        assert_eq!(items, vec![7]);
        let alone = Crew::new(0);
        let mut items = vec![2u64];
        alone.each(&mut items, |k, x| *x += k as u64 + 1);
        assert_eq!(items, vec![3]);
    }

    #[test]
    fn a_helpers_panic_reaches_the_caller_and_the_crew_goes_on() {
        let crew = Crew::new(1);
        let mut items = vec![0u8, 0u8];
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            crew.each(&mut items, |k, _| assert!(k != 1, "helper fails"));
        }));
        assert!(caught.is_err());
        crew.each(&mut items, |k, x| *x = k as u8 + 1);
        assert_eq!(items, vec![1, 2]);
    }

    #[test]
    fn a_panic_of_a_job_whose_own_share_failed_is_not_raised_by_the_next() {
        let crew = Crew::new(1);
        let mut items = vec![0u8, 0u8];
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            crew.each(&mut items, |_, _| panic!("both shares fail"));
        }));
        assert!(caught.is_err());
        crew.each(&mut items, |k, x| *x = k as u8 + 5);
        assert_eq!(items, vec![5, 6]);
    }

    #[test]
    fn a_parked_helper_wakes_for_the_next_job() {
        let crew = Crew::new(1);
        let mut items = vec![0u32, 0u32];
        crew.each(&mut items, |_, x| *x += 1);
        thread::sleep(SPIN * 5);
        crew.each(&mut items, |_, x| *x += 1);
        assert_eq!(items, vec![2, 2]);
    }
}
