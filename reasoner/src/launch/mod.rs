//! Where solver attempts run. The reasoner's attempts are independent solver
//! processes, so the same attempt can run here, on a Slurm cluster or under
//! any scheduler that can run a command and hand back its output and exit
//! code. A [`Launcher`] only turns "run `solver ARGS` within these limits"
//! into the command line to start; the runner (`runner.rs`) starts it,
//! watches it and reads its JSON the same way whatever the launcher.
//!
//! | `--launcher`    | file          | runs each attempt as |
//! |-----------------|---------------|----------------------|
//! | `local`         | `local.rs`    | `solver ARGS` on this machine (the default) |
//! | `slurm`         | `slurm.rs`    | `srun --mem=... --time=... solver ARGS` |
//! | `'CMD {args}'`  | `template.rs` | the template with `{args}` replaced by `solver ARGS` quoted for a shell (`{argv}`: unquoted) |

pub mod local;
pub mod slurm;
pub mod template;

use std::fmt::Debug;
use std::path::Path;
use std::time::Duration;

pub use local::Local;
pub use slurm::Slurm;
pub use template::Template;

/// What one attempt may use, for the launcher to pass on to its scheduler.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobSpec<'a> {
    /// A name for the scheduler's queue listing, e.g. `reasoner-classic-3`.
    pub name: &'a str,
    /// Bytes the solver may use (its `--max-memory`); `None`: no limit given.
    pub memory: Option<u64>,
    /// Wall-clock limit of the attempt; `None`: no limit given.
    pub time: Option<Duration>,
}

/// Turns a solver run into the command line that starts it somewhere.
pub trait Launcher: Send + Sync + Debug {
    /// The name shown in logs, e.g. `local` or `slurm`.
    fn name(&self) -> &str;

    /// Program and arguments that run `solver args...` within `job`'s limits,
    /// or why this launcher cannot run that job.
    fn command_line(
        &self,
        solver: &Path,
        args: &[String],
        job: &JobSpec,
    ) -> Result<Vec<String>, String>;

    /// Whether the solver may run on another machine (the default: only the
    /// local launcher knows it does not). Files the solver must write for
    /// the reasoner (solutions) then go to a folder below the working
    /// directory, which a cluster shares between nodes, instead of this
    /// machine's temporary folder.
    fn remote(&self) -> bool {
        true
    }
}

/// The launcher named by `--launcher`: `local`, `slurm`, or a command
/// template containing `{args}` or `{argv}` (see `template.rs`).
pub fn by_spec(spec: &str) -> Result<Box<dyn Launcher>, String> {
    match spec.trim() {
        "local" => Ok(Box::new(Local)),
        "slurm" => Ok(Box::new(Slurm)),
        other if other.contains(template::ARGS) || other.contains(template::ARGV) => {
            Ok(Box::new(Template::parse(other)?))
        }
        other => Err(format!(
            "unknown launcher {other:?}; use local, slurm, or a command template \
             containing {} (quoted for a shell, as ssh needs) or {} (unquoted words) \
             such as 'ssh node1 {}'",
            template::ARGS,
            template::ARGV,
            template::ARGS
        )),
    }
}

/// The solver program and its arguments as one list of words.
fn solver_words(solver: &Path, args: &[String]) -> Vec<String> {
    std::iter::once(solver.display().to_string())
        .chain(args.iter().cloned())
        .collect()
}

/// Memory to request from a scheduler for a solver limited to `bytes`, in
/// whole MiB: the solver's own limit covers its tables and queues, so the
/// process gets [`MEMORY_HEADROOM_MIB`] more for its code, puzzle and output.
pub fn scheduler_mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20) + MEMORY_HEADROOM_MIB
}

/// What a solver process needs beyond its `--max-memory` accounting.
pub const MEMORY_HEADROOM_MIB: u64 = 64;

/// Whole seconds of `t`, rounded up (a scheduler must not cut an attempt
/// short of its limit).
pub fn ceil_secs(t: Duration) -> u64 {
    t.as_secs() + u64::from(t.subsec_nanos() > 0)
}

/// A wall-clock limit as Slurm's `minutes:seconds`, rounded up to a second.
pub fn minutes_seconds(t: Duration) -> String {
    let secs = ceil_secs(t);
    format!("{}:{:02}", secs / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_times() {
        assert_eq!(scheduler_mib(512 << 20), 512 + MEMORY_HEADROOM_MIB);
        assert_eq!(scheduler_mib(1), 1 + MEMORY_HEADROOM_MIB);
        assert_eq!(minutes_seconds(Duration::from_secs(30)), "0:30");
        assert_eq!(minutes_seconds(Duration::from_millis(90_500)), "1:31");
        assert_eq!(minutes_seconds(Duration::from_secs(7200)), "120:00");
    }

    #[test]
    fn launchers_by_name_and_template() {
        assert_eq!(by_spec("local").unwrap().name(), "local");
        assert_eq!(by_spec("slurm").unwrap().name(), "slurm");
        assert_eq!(by_spec("ssh n1 {args}").unwrap().name(), "template");
        assert_eq!(by_spec("nice {argv}").unwrap().name(), "template");
        let err = by_spec("pbs").unwrap_err();
        assert!(err.contains("{args}"), "{err}");
    }
}
