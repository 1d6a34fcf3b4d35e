//! SIGINT and SIGTERM as a value the cycle watches, so that an interrupted
//! `reasoner solve` stops its solvers and still prints its report, with
//! status `interrupted`, instead of dying silently. The attempts running
//! when the signal came are asked to stop too (SIGINT to each solver's
//! group: [`stopping`]); the solver then reports how close it got, so the
//! report keeps their rows and best distances, and no new attempt starts.
//! Whatever has not answered within [`DRAIN`] is killed (dropping an
//! attempt's future kills its process group).

use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::watch;

/// How long the attempts running at a signal get to report before they are
/// killed: a solver stops at its next limit check, within milliseconds.
pub const DRAIN: Duration = Duration::from_secs(3);

/// Whether a signal asked the process to stop, for the code that starts
/// and waits for solvers: process-wide, as the signal is.
fn stop_flag() -> &'static watch::Sender<bool> {
    static FLAG: OnceLock<watch::Sender<bool>> = OnceLock::new();
    FLAG.get_or_init(|| watch::Sender::new(false))
}

/// True once SIGINT or SIGTERM came: start no new attempt.
pub fn stopping() -> bool {
    *stop_flag().borrow()
}

/// Resolves once SIGINT or SIGTERM came (at once if one already did).
pub async fn stop_requested() {
    let mut rx = stop_flag().subscribe();
    let _ = rx.wait_for(|s| *s).await;
}

/// Whether (and by which signal) the reasoner was asked to stop. Clones
/// watch the same signals.
#[derive(Clone, Debug)]
pub struct Interrupt {
    rx: watch::Receiver<Option<i32>>,
}

impl Interrupt {
    /// Starts listening for SIGINT (exit code 130) and SIGTERM (143). Call
    /// inside the tokio runtime.
    pub fn listen() -> Interrupt {
        use tokio::signal::unix::{signal, SignalKind};
        let (tx, rx) = watch::channel(None);
        // The handlers are installed here, before anything is started, not
        // in the task: a task may first run after the reasoner has started
        // a solver, and a signal before then would kill the reasoner
        // outright (no report, its solvers left running).
        let (Ok(mut int), Ok(mut term)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return Interrupt { rx };
        };
        tokio::spawn(async move {
            let code = tokio::select! {
                _ = int.recv() => 130,
                _ = term.recv() => 143,
            };
            stop_flag().send_replace(true);
            let _ = tx.send(Some(code));
            // Keep the sender: a closed channel would read as "never".
            std::future::pending::<()>().await;
        });
        Interrupt { rx }
    }

    /// An interrupt that never fires (for callers that watch no signals).
    pub fn never() -> Interrupt {
        Interrupt {
            rx: watch::channel(None).1,
        }
    }

    /// The exit code of the signal received, if one was.
    pub fn code(&self) -> Option<i32> {
        *self.rx.borrow()
    }

    /// Waits for a signal; its exit code.
    pub async fn fired(&mut self) -> i32 {
        match self.rx.wait_for(Option::is_some).await {
            Ok(code) => code.unwrap_or(130),
            Err(_) => std::future::pending().await,
        }
    }

    /// Runs `work` unless a signal comes first (then `work` is dropped,
    /// which kills the solvers it started, and the result is `None`).
    pub async fn until<T>(&mut self, work: impl Future<Output = T>) -> Option<T> {
        tokio::select! {
            biased;
            _ = self.fired() => None,
            value = work => Some(value),
        }
    }

    /// Runs `work` to its end, or, when a signal comes first, for at most
    /// [`DRAIN`] more while the solvers it runs report and no new ones
    /// start ([`stopping`]); `None` when it had to be dropped.
    pub async fn drain<T>(&mut self, work: impl Future<Output = T>) -> Option<T> {
        tokio::pin!(work);
        tokio::select! {
            biased;
            _ = self.fired() => {}
            value = &mut work => return Some(value),
        }
        tokio::time::timeout(DRAIN, work).await.ok()
    }

    /// Runs `work`, which blocks (waits for a case base's lock, reads a
    /// file), on a thread of its own, so that a signal is seen while it
    /// waits: on the runtime's one thread it would not be until the wait
    /// ended. When a signal comes before `work` passed its [`Gate`], the
    /// result is `None` at once and the thread is abandoned (the process
    /// exits, [`Gate::pass`] keeps it from changing anything); once it has
    /// passed, it is waited for, so that what it writes is written whole.
    pub async fn blocking<T: Send + 'static>(
        &mut self,
        work: impl FnOnce(&Gate) -> T + Send + 'static,
    ) -> Option<T> {
        let gate = Gate::default();
        let inside = gate.clone();
        let mut task = tokio::task::spawn_blocking(move || work(&inside));
        let joined = tokio::select! {
            biased;
            _ = self.fired() => {
                if gate.close() {
                    return None;
                }
                task.await
            }
            done = &mut task => done,
        };
        Some(joined.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic())))
    }
}

/// Where blocking work ([`Interrupt::blocking`]) stops being abandoned on
/// a signal: before its first change that must not be cut short.
#[derive(Clone, Debug, Default)]
pub struct Gate(Arc<Mutex<GateState>>);

#[derive(Debug, Default, PartialEq)]
enum GateState {
    #[default]
    Open,
    Passed,
    Closed,
}

impl Gate {
    /// Called by the work right before it changes anything (a case base
    /// re-read under its lock, before it is saved): true when it may go
    /// on, and then a signal waits for it to end; false when a signal came
    /// first, and the work must change nothing.
    pub fn pass(&self) -> bool {
        let mut state = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if *state == GateState::Closed {
            return false;
        }
        *state = GateState::Passed;
        true
    }

    /// [`Gate::pass`] for a change of the case base at `path`, inside
    /// `casebase::update` (under the lock, before the save): an error that
    /// writes nothing when a signal came first.
    pub fn pass_for(&self, path: &std::path::Path) -> Result<(), crate::Error> {
        if self.pass() {
            return Ok(());
        }
        Err(crate::Error::CaseBase {
            path: path.to_path_buf(),
            message: "interrupted while waiting for the case base's lock; nothing was written"
                .to_string(),
        })
    }

    /// Closes the gate unless the work has passed it; whether it closed.
    fn close(&self) -> bool {
        let mut state = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if *state == GateState::Passed {
            return false;
        }
        *state = GateState::Closed;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_gate_stops_the_work_and_a_passed_one_stays_open() {
        let gate = Gate::default();
        assert!(gate.close());
        assert!(!gate.pass(), "closed first: the work must not go on");
        let gate = Gate::default();
        assert!(gate.pass());
        assert!(!gate.close(), "passed first: the work is waited for");
        assert!(gate.pass());
    }

    #[tokio::test]
    async fn blocking_work_gives_its_value_without_a_signal() {
        let mut stop = Interrupt::never();
        let value = stop.blocking(|gate| gate.pass().then_some(7)).await;
        assert_eq!(value, Some(Some(7)));
    }

    /// A signal while the work still waits gives `None` at once; the work,
    /// when its wait ends, finds the gate closed and changes nothing.
    #[tokio::test]
    async fn a_signal_abandons_work_that_has_not_passed_its_gate() {
        let (tx, rx) = watch::channel(None);
        let mut stop = Interrupt { rx };
        let (waiting, wait_ends) = std::sync::mpsc::channel::<()>();
        let (passed, saw) = std::sync::mpsc::channel();
        let work = stop.blocking(move |gate| {
            let _ = wait_ends.recv();
            let _ = passed.send(gate.pass());
        });
        let signal = async {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            tx.send(Some(143)).unwrap();
        };
        let (value, ()) = tokio::join!(work, signal);
        assert_eq!(value, None);
        assert_eq!(stop.code(), Some(143));
        waiting.send(()).unwrap();
        assert!(!saw.recv().unwrap(), "the gate was closed");
    }
}
