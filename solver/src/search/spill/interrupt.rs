//! SIGINT and SIGTERM while a search is on disk: the run's spill folder may
//! hold gigabytes, and the default action (the process dies at once) would
//! leave it behind. While a spilled search runs ([`Guard`]), the two signals
//! only raise a flag; the layer loop and the merges look at it often (every
//! 64 parents, every 65,536 keys merged) and end the search with an error of
//! kind `Interrupted`, so that the folder is removed as the search unwinds,
//! and the binary then exits with 128 + the signal (130, 143). Outside a
//! spilled search the signals keep their default action: nothing is on disk
//! to clean up, and a search in memory must not go on after being asked to
//! stop.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

/// The signal received while a spilled search ran (0: none). Never reset:
/// once asked to stop, the process stops.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Spilled searches running now (several in a collection under `--jobs`).
static RUNNING: Mutex<usize> = Mutex::new(0);

/// The signals caught.
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// Catches SIGINT and SIGTERM while it lives (the first of several
/// installs the handler; the last gives the signals their default action
/// back).
pub struct Guard(());

impl Guard {
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

/// The handler: only stores the signal (an atomic store is
/// async-signal-safe).
extern "C" fn record(signal: libc::c_int) {
    RECEIVED.store(signal, Ordering::SeqCst);
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

/// The signal that asked a spilled search to stop, if one did.
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
