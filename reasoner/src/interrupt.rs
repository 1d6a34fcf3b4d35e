//! SIGINT and SIGTERM as a value the cycle watches, so that an interrupted
//! `reasoner solve` stops its solvers (dropping an attempt's future kills its
//! process group) and still prints the report of the attempts it finished,
//! with status `interrupted`, instead of dying silently.

use std::future::Future;

use tokio::sync::watch;

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
}
