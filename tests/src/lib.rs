//! Helpers for end-to-end tests: they run the real `solver` and `reasoner`
//! binaries that Cargo built for this test run, and read the shared
//! development puzzles.
//!
//! They never run `cargo build` themselves: `cargo test --workspace` builds
//! the binaries with the tests, and [`built`] finds them and refuses a stale
//! one, so a test never runs an old binary silently.
//!
//! ```no_run
//! let out = std::process::Command::new(end_to_end::solver_bin())
//!     .args(["show", "puzzles/klotski/classic.txt"])
//!     .current_dir(end_to_end::workspace_root())
//!     .output()
//!     .unwrap();
//! assert!(out.status.success());
//! ```

pub mod boards;
pub mod measure;
pub mod picture;

use std::fs;
use std::path::PathBuf;

mod built;

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives inside the workspace")
        .to_path_buf()
}

/// `test-artifacts/` beside the profile folder (so `target/test-artifacts/`),
/// created: files a person may want to look at after a run, such as the
/// Chromium test's screenshot of the player.
pub fn artifacts_dir() -> PathBuf {
    let profile = built::profile_dir();
    let dir = profile.parent().unwrap_or(&profile).join("test-artifacts");
    fs::create_dir_all(&dir).expect("cannot create the test-artifacts folder");
    dir
}

/// The `solver` binary Cargo built for this test run.
pub fn solver_bin() -> PathBuf {
    built::binary("solver", &workspace_root().join("solver"))
}

/// Runs the built `solver` with `args` in the workspace root and waits for it.
pub fn run_solver(args: &[&str]) -> std::process::Output {
    std::process::Command::new(solver_bin())
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("the solver binary runs")
}

/// The `reasoner` binary Cargo built for this test run.
pub fn reasoner_bin() -> PathBuf {
    built::binary("reasoner", &workspace_root().join("reasoner"))
}

/// The shared development puzzles (`../shared/dev-puzzles` from the
/// workspace root). Panics with what to do when the folder is absent, so
/// the tests that need it fail instead of passing without checking anything.
pub fn dev_puzzles() -> PathBuf {
    let dir = workspace_root().join("../shared/dev-puzzles");
    assert!(
        dir.is_dir(),
        "{} is missing: the tests on the development puzzles need it; \
         put the shared folder (dev-puzzles/) beside the repository",
        dir.display()
    );
    dir
}

/// Asserts that a process exited 0; the message is `what` (when not empty),
/// the exit status and the process's stderr. The one form of the check the
/// end-to-end tests make after nearly every command.
pub fn assert_success(out: &std::process::Output, what: &str) {
    let sep = if what.is_empty() { "" } else { ": " };
    assert!(
        out.status.success(),
        "{what}{sep}{}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The names of the entries in folder `dir`, sorted: what a run left
/// behind (the hostile-input tests check that nothing half-written is).
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the folder can be read")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
