//! Helpers for end-to-end tests: they run the real `solver` and `reasoner`
//! binaries, built once per test process in release mode.
//!
//! ```no_run
//! let out = std::process::Command::new(end_to_end::solver_bin())
//!     .args(["show", "puzzles/klotski/classic.txt"])
//!     .current_dir(end_to_end::workspace_root())
//!     .output()
//!     .unwrap();
//! assert!(out.status.success());
//! ```

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives inside the workspace")
        .to_path_buf()
}

/// Where cargo puts build outputs: `CARGO_TARGET_DIR` if set, else `target/`
/// in the workspace root.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        None => workspace_root().join("target"),
    }
}

/// Runs `cargo build --release --bins` in the workspace root, once per test
/// process (every test of a test binary shares the result). Panics with
/// cargo's output if the build fails.
fn build_release_binaries() {
    static BUILD: Once = Once::new();
    BUILD.call_once(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--release", "--bins"])
            .current_dir(workspace_root())
            .output()
            .expect("cannot run cargo");
        assert!(
            out.status.success(),
            "cargo build --release --bins failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

fn release_binary(name: &str) -> PathBuf {
    build_release_binaries();
    let path = target_dir()
        .join("release")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// The release `solver` binary, built on first use.
pub fn solver_bin() -> PathBuf {
    release_binary("solver")
}

/// The release `reasoner` binary, built on first use.
pub fn reasoner_bin() -> PathBuf {
    release_binary("reasoner")
}

/// The shared development puzzles (`../shared/dev-puzzles` from the
/// workspace root), or `None` with a note on stderr when the folder is absent.
pub fn dev_puzzles() -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/dev-puzzles");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} is absent; skipping the tests on the development puzzles",
            dir.display()
        );
        None
    }
}
