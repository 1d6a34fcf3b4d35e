//! The local launcher: the solver runs as a child process of the reasoner on
//! this machine, its limits enforced by the solver (`--max-memory`) and by
//! the runner's timeout. This is what the reasoner always did.

use std::path::Path;

use super::{solver_words, JobSpec, Launcher};

/// Runs `solver ARGS` here.
#[derive(Clone, Copy, Debug, Default)]
pub struct Local;

impl Launcher for Local {
    fn name(&self) -> &str {
        "local"
    }

    fn command_line(
        &self,
        solver: &Path,
        args: &[String],
        _job: &JobSpec,
    ) -> Result<Vec<String>, String> {
        Ok(solver_words(solver, args))
    }

    fn remote(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_the_solver_itself() {
        let args = vec!["solve".to_string(), "p.txt".to_string()];
        let line = Local
            .command_line(Path::new("/bin/solver"), &args, &JobSpec::default())
            .unwrap();
        assert_eq!(line, ["/bin/solver", "solve", "p.txt"]);
        assert!(!Local.remote());
    }
}
