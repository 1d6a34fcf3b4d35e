//! Running a binary and measuring it: wall-clock time and the peak resident
//! memory the kernel recorded for that one child (`wait4`'s `ru_maxrss`, the
//! VmHWM of the process), so memory tests assert on what the process really
//! held, not on what it says it held.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a measured run produced.
#[derive(Debug)]
pub struct Measured {
    /// The exit code; `None` when a signal ended the process.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// Peak resident set size in bytes.
    pub peak_rss: u64,
}

/// Runs `command` to its end, reading its output, and measures it. The
/// child is reaped by `wait4` (which `Child::wait` cannot report usage from).
#[allow(clippy::zombie_processes)]
pub fn run_measured(command: &mut Command) -> Measured {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut err_pipe = child.stderr.take().expect("stderr is piped");
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err_pipe.read_to_string(&mut text);
        text
    });
    let mut stdout = String::new();
    let _ = child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_string(&mut stdout);
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, and wait4 writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our unwaited child; status and usage are valid for writes.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Measured {
        code,
        stdout,
        stderr: stderr.join().unwrap_or_default(),
        elapsed: started.elapsed(),
        // Linux reports kilobytes.
        peak_rss: usage.ru_maxrss as u64 * 1024,
    }
}
