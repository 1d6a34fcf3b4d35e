//! SIGINT and SIGTERM as a request to stop, not an end: while a [`Guard`]
//! lives (the whole of `solver solve`, `count` and `improve`, and every
//! spilled search), the two signals only raise a flag. A search looks at it
//! where it checks its time limit and stops as if a limit were reached
//! (`Limit::Interrupted`), so the command prints its summary and writes what
//! it has (the best so far of `improve -o`); a spilled search ends with an
//! error of kind `Interrupted` instead, so that its folder, which may hold
//! gigabytes, is removed as it unwinds. The binary then exits with 128 + the
//! signal (130, 143). A second signal ends the process at once. Outside a
//! guard (the library's tests, other commands) the signals keep their
//! default action.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

/// The signal received while a guard lived (0: none). Never reset:
/// once asked to stop, the process stops.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Guards alive now (several spilled searches of a collection under `--jobs`).
static RUNNING: Mutex<usize> = Mutex::new(0);

/// The signals caught.
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// Catches SIGINT and SIGTERM while it lives (the first of several
/// installs the handler; the last gives the signals their default action
/// back).
pub struct Guard(());

impl Guard {
    /// Starts catching the signals (a side effect: no `Default`).
    #[allow(clippy::new_without_default)]
    pub fn new() -> Guard {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        if *running == 0 {
            set_action(record as *const () as libc::sighandler_t);
        }
        *running += 1;
        Guard(())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        *running -= 1;
        if *running == 0 {
            set_action(libc::SIG_DFL);
        }
    }
}

/// The handler: stores the signal (an atomic swap is async-signal-safe);
/// the second one ends the process (`_exit` is async-signal-safe too), for
/// a person who does not want to wait for the summary.
extern "C" fn record(signal: libc::c_int) {
    if RECEIVED.swap(signal, Ordering::SeqCst) != 0 {
        // SAFETY: _exit only ends the process.
        unsafe { libc::_exit(128 + signal) };
    }
}

/// Sets SIGINT's and SIGTERM's action to `handler` (SA_RESTART, so that
/// reads and writes of the spill files go on rather than fail with EINTR).
fn set_action(handler: libc::sighandler_t) {
    for signal in SIGNALS {
        // SAFETY: an all-zero sigaction is valid; the handler given is
        // `record`, which is async-signal-safe, or SIG_DFL.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that asked the process to stop, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// An `Interrupted` error once a signal was received.
pub fn check() -> io::Result<()> {
    match received() {
        None => Ok(()),
        Some(signal) => Err(io::Error::new(
            io::ErrorKind::Interrupted,
            format!("stopped by signal {signal}"),
        )),
    }
}

/// The signal's name for messages.
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
