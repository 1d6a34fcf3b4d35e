//! Waits for a solver process and collects its output without ever waiting on
//! what the solver left behind.
//!
//! A solver (or a wrapper script standing in for it) may start children of
//! its own that inherit its stdout and outlive it; reading the pipe to its end
//! would then wait for them. Each solver leads its own process group (see
//! `Runner::command`), so when the solver exits the whole group is killed with
//! SIGKILL, and whatever still holds the pipe after a short grace (a child
//! that left the group) is not waited for. A run that is cancelled (timeout,
//! an aborted attempt, an interrupted reasoner) kills the group too.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Child;

use super::{Exit, Finished, RunError};

/// How long the pipes may stay open once the solver's group was killed.
const GRACE: Duration = Duration::from_millis(500);

/// Kills a process group when dropped, unless disarmed.
struct Group(Option<i32>);

impl Group {
    /// Asks the group to stop (SIGINT, as Ctrl-C would): the solver ends
    /// its search at its next check and prints how close it got.
    fn interrupt(&self) {
        if let Some(id) = self.0 {
            // SAFETY: killpg only sends a signal; the group is still ours
            // (it is forgotten only by `kill`).
            unsafe {
                libc::killpg(id, libc::SIGINT);
            }
        }
    }

    /// SIGKILLs the group now and forgets it, so that a group id the kernel
    /// hands out again later is never signalled.
    fn kill(&mut self) {
        if let Some(id) = self.0.take() {
            // SAFETY: killpg only sends a signal; a group that no longer
            // exists gives ESRCH, which is what we want to ignore.
            unsafe {
                libc::killpg(id, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads a pipe to its end (or its first error) into `buf`.
async fn read_into(pipe: &mut Option<impl AsyncRead + Unpin>, buf: &mut Vec<u8>) {
    if let Some(p) = pipe {
        let _ = p.read_to_end(buf).await;
    }
}

/// Waits for `child` (at most `timeout`), draining its stdout and stderr
/// meanwhile, then kills its process group and takes what the pipes still
/// hold within [`GRACE`].
pub(super) async fn collect(
    mut child: Child,
    timeout: Option<Duration>,
) -> Result<Finished, RunError> {
    // The child leads its group, so its pid is the group's id.
    let mut group = Group(child.id().and_then(|id| i32::try_from(id).ok()));
    let (mut out_pipe, mut err_pipe) = (child.stdout.take(), child.stderr.take());
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = {
        let drain = async {
            tokio::join!(
                read_into(&mut out_pipe, &mut stdout),
                read_into(&mut err_pipe, &mut stderr)
            )
        };
        tokio::pin!(drain);
        let mut drained = false;
        let mut asked = false;
        let waited = async {
            loop {
                tokio::select! {
                    s = child.wait() => break s,
                    _ = &mut drain, if !drained => drained = true,
                    // The reasoner was interrupted: so is the solver, which
                    // then reports its result (see `crate::interrupt`).
                    _ = crate::interrupt::stop_requested(), if !asked => {
                        asked = true;
                        group.interrupt();
                    }
                }
            }
        };
        let status = match timeout {
            // Returning drops `child` and `group`: the solver's group is killed.
            Some(t) => tokio::time::timeout(t, waited)
                .await
                .map_err(|_| RunError::Timeout(t))?,
            None => waited.await,
        }
        .map_err(RunError::Wait)?;
        group.kill();
        if !drained {
            let _ = tokio::time::timeout(GRACE, &mut drain).await;
        }
        status
    };
    use std::os::unix::process::ExitStatusExt;
    let exit = match (status.code(), status.signal()) {
        (Some(c), _) => Exit::Code(c),
        (None, Some(s)) => Exit::Signal(s),
        (None, None) => Exit::Code(-1),
    };
    Ok(Finished {
        exit,
        stdout,
        stderr,
    })
}
