//! Checks a solver's claim of a solution before anything reports or keeps it.
//!
//! A solver process is trusted for its statistics, never for its answer: the
//! moves its JSON carries are replayed by `solver verify PUZZLE FILE --json`
//! (the independent verifier, run as a process like every solver command), and
//! the solution lengths it claims must be the ones the replay counts. A claim
//! that fails is a `failed` attempt whose reason says why, so a buggy or
//! lying solver can neither be reported as having solved the puzzle nor be
//! retained as a case.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::runner::{tail, AttemptResult, Exit, RunError, RunStatus, Runner};

/// The fields of `solver verify --json` the reasoner reads.
#[derive(Deserialize)]
struct VerifyJson {
    valid: bool,
    #[serde(default)]
    steps: Option<u64>,
    #[serde(default)]
    moves: Option<u64>,
    #[serde(default)]
    error: Option<String>,
}

impl Runner {
    /// Replays the solution of a `solved` result; any other result is
    /// returned as it is. `tag` names the scratch file of the solution;
    /// `timeout` is a tool call's ([`Runner::tool_timeout`]).
    pub(crate) async fn check_claim(
        &self,
        puzzle: &Path,
        result: AttemptResult,
        tag: usize,
        timeout: Option<Duration>,
    ) -> AttemptResult {
        if result.status != RunStatus::Solved {
            return result;
        }
        let Some(moves) = result.solution.as_deref() else {
            return refuted(
                result,
                "the solver claimed a solution but its JSON carries none",
            );
        };
        let file = self.scratch_file(&format!("claim-{tag}.txt"));
        let mut text = moves.join("\n");
        text.push('\n');
        if let Err(e) = std::fs::write(&file, text) {
            return refuted(
                result,
                &format!("cannot write {} to verify: {e}", file.display()),
            );
        }
        let line = [
            self.solver().display().to_string(),
            "verify".to_string(),
            puzzle.display().to_string(),
            file.display().to_string(),
            "--json".to_string(),
        ];
        let run = self.run(&line, Runner::tool_timeout(timeout)).await;
        let _ = std::fs::remove_file(&file);
        let done = match run {
            Ok(done) => done,
            Err(RunError::Timeout(t)) => {
                let why = format!(
                    "`solver verify` did not finish within {} s",
                    t.as_secs_f64()
                );
                return refuted(result, &why);
            }
            Err(RunError::Spawn(e) | RunError::Wait(e)) => {
                return refuted(result, &format!("cannot run `solver verify`: {e}"))
            }
        };
        let verdict = match done.exit {
            Exit::Code(0 | 1) => serde_json::from_slice::<VerifyJson>(&done.stdout).ok(),
            _ => None,
        };
        let Some(v) = verdict else {
            let why = format!(
                "`solver verify` could not check the claimed solution{}",
                tail(&done.stderr)
            );
            return refuted(result, &why);
        };
        judge(result, &v)
    }
}

/// The claim against the verifier's replay.
fn judge(result: AttemptResult, v: &VerifyJson) -> AttemptResult {
    if !v.valid {
        let why = v.error.as_deref().unwrap_or("no reason given");
        return refuted(
            result,
            &format!("the claimed solution does not replay: {why}"),
        );
    }
    for (what, claimed, counted) in [
        ("steps", result.steps, v.steps),
        ("moves", result.moves, v.moves),
    ] {
        if let (Some(c), Some(n)) = (claimed, counted) {
            if c != n {
                let why = format!("the solver claimed {c} {what} but its solution has {n}");
                return refuted(result, &why);
            }
        }
    }
    result
}

/// The result as a failed attempt: the statistics stay, the answer goes.
fn refuted(result: AttemptResult, why: &str) -> AttemptResult {
    AttemptResult {
        status: RunStatus::Failed,
        steps: None,
        moves: None,
        solution: None,
        error: Some(why.to_string()),
        ..result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(steps: u64, moves: u64) -> AttemptResult {
        AttemptResult {
            status: RunStatus::Solved,
            steps: Some(steps),
            moves: Some(moves),
            positions_examined: Some(7),
            best_distance: Some(0),
            best_distance_positions: Some(7),
            elapsed_ms: 3,
            solution: Some(vec!["@ 1,1 R".to_string()]),
            error: None,
            position_limit: None,
            optimal_in: None,
            lower_bound: None,
        }
    }

    fn verdict(json: &str) -> VerifyJson {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_replayed_claim_of_the_right_length_stands() {
        let v = verdict(r#"{"valid":true,"steps":1,"moves":1,"goals_reached":1}"#);
        assert_eq!(judge(claim(1, 1), &v), claim(1, 1));
    }

    #[test]
    fn an_invalid_or_miscounted_claim_is_a_failed_attempt_that_keeps_its_statistics() {
        let v = verdict(r#"{"valid":false,"error":"step 1 (L) is blocked"}"#);
        let r = judge(claim(1, 1), &v);
        assert_eq!(r.status, RunStatus::Failed);
        assert_eq!(r.solution, None);
        assert_eq!(r.steps, None);
        assert_eq!(r.positions_examined, Some(7));
        assert_eq!(
            r.error.as_deref(),
            Some("the claimed solution does not replay: step 1 (L) is blocked")
        );
        let v = verdict(r#"{"valid":true,"steps":1,"moves":1}"#);
        let r = judge(claim(30, 1), &v);
        assert_eq!(r.status, RunStatus::Failed);
        assert_eq!(
            r.error.as_deref(),
            Some("the solver claimed 30 steps but its solution has 1")
        );
        let r = judge(claim(1, 20), &v);
        assert!(r.error.unwrap().contains("claimed 20 moves"));
    }
}
