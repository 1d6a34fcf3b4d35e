//! The Slurm launcher: each attempt is one `srun` job with the attempt's
//! memory and time limits, so a wave of attempts spreads over the cluster's
//! nodes as the scheduler sees fit. `srun` blocks until the solver ends,
//! passes its standard output through and exits with its exit code, so the
//! runner reads the result as if the solver had run here.
//!
//! Options given to `srun`:
//! * `--job-name=NAME` (the puzzle and attempt), `--ntasks=1`, `--quiet`;
//! * `--mem=NM` when the reasoner has `--max-memory`: the solver's limit in
//!   MiB plus a headroom for the process (see `launch::scheduler_mib`);
//! * `--time=M:SS` when the attempt has a timeout (`--attempt-timeout`,
//!   `--final-timeout`), so Slurm ends the job even if the reasoner dies.
//!
//! Everything else (partition, account, QoS) comes from the usual `SLURM_*`
//! input environment variables, which `srun` reads itself.

use std::path::Path;

use super::{minutes_seconds, scheduler_mib, solver_words, JobSpec, Launcher};

/// Runs each attempt with `srun`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Slurm;

impl Launcher for Slurm {
    fn name(&self) -> &str {
        "slurm"
    }

    fn command_line(
        &self,
        solver: &Path,
        args: &[String],
        job: &JobSpec,
    ) -> Result<Vec<String>, String> {
        let mut line = vec![
            "srun".to_string(),
            format!("--job-name={}", job.name),
            "--ntasks=1".to_string(),
            "--quiet".to_string(),
        ];
        if let Some(bytes) = job.memory {
            line.push(format!("--mem={}M", scheduler_mib(bytes)));
        }
        if let Some(t) = job.time {
            line.push(format!("--time={}", minutes_seconds(t)));
        }
        line.extend(solver_words(solver, args));
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn passes_the_limits_to_srun() {
        let args = vec!["solve".to_string(), "p.txt".to_string()];
        let job = JobSpec {
            name: "reasoner-p-3",
            memory: Some(256 << 20),
            time: Some(Duration::from_secs(75)),
        };
        let line = Slurm
            .command_line(Path::new("/bin/solver"), &args, &job)
            .unwrap();
        assert_eq!(
            line,
            [
                "srun",
                "--job-name=reasoner-p-3",
                "--ntasks=1",
                "--quiet",
                "--mem=320M",
                "--time=1:15",
                "/bin/solver",
                "solve",
                "p.txt"
            ]
        );
        let bare = Slurm
            .command_line(Path::new("s"), &[], &JobSpec::default())
            .unwrap();
        assert!(!bare
            .iter()
            .any(|w| w.starts_with("--mem") || w.starts_with("--time")));
        assert!(Slurm.remote());
    }
}
