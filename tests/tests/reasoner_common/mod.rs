//! Helpers shared by the reasoner's end-to-end tests.
#![allow(dead_code)]

pub mod standin;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A scratch folder removed at the end of the test.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "reasoner-e2e-{tag}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes an executable script (a stand-in for ssh, srun, a launcher).
pub fn write_script(path: &Path, body: &str) {
    std::fs::write(path, body).unwrap();
    let ok = Command::new("chmod").arg("+x").arg(path).status().unwrap();
    assert!(ok.success());
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the reasoner in the workspace's root (so that the bundled
/// puzzles' relative paths hold).
pub fn reasoner_at_root(args: &[&str]) -> Output {
    Command::new(end_to_end::reasoner_bin())
        .args(args)
        .current_dir(end_to_end::workspace_root())
        .output()
        .unwrap()
}

/// The cases of a case base as `casebase list --json` shows them.
pub fn listed_cases(path: &Path) -> Vec<Value> {
    let out = reasoner_at_root(&["casebase", "list", s(path), "--json"]);
    end_to_end::assert_success(&out, "");
    json_of(&out)["case"].as_array().unwrap().clone()
}

/// The process's stdout as JSON, or a panic showing both streams.
pub fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A report's attempts without their timings: what must not depend on timing.
pub fn attempts(report: &Value) -> Vec<Value> {
    report["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut a = a.clone();
            a.as_object_mut().unwrap().remove("elapsed_ms");
            a
        })
        .collect()
}

/// Writes a report's (non-empty) solution to `solution.txt` in `dir`, one
/// move a line, for `solver verify`.
pub fn solution_file(dir: &Scratch, report: &Value) -> PathBuf {
    let moves: Vec<&str> = report["solution"]
        .as_array()
        .expect("the report has a solution")
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(!moves.is_empty());
    let file = dir.path("solution.txt");
    std::fs::write(&file, moves.join("\n") + "\n").unwrap();
    file
}

/// Asserts that a report's solution replays in the solver's independent
/// verifier (`solver verify PUZZLE FILE`, run from the workspace root).
pub fn assert_solution_replays(dir: &Scratch, puzzle: &str, report: &Value) {
    let file = solution_file(dir, report);
    let verify = Command::new(end_to_end::solver_bin())
        .args(["verify", puzzle, s(&file)])
        .current_dir(end_to_end::workspace_root())
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
}
