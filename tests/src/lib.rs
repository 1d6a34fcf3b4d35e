//! Helpers for end-to-end tests: they run the real `solver` and `reasoner`
//! binaries that Cargo built for this test run, and read the shared
//! development puzzles.
//!
//! Cargo builds a package's binaries whenever that package has integration
//! tests (`solver/tests/`, `reasoner/tests/`), so `cargo test --workspace`
//! leaves fresh binaries in the same profile folder as this crate's test
//! executables. These helpers find them there instead of running `cargo build`
//! themselves, and refuse a binary that is older than a source file it was
//! built from (per the dep-info file Cargo writes beside it), so a test never
//! runs a stale binary silently.
//!
//! ```no_run
//! let out = std::process::Command::new(end_to_end::solver_bin())
//!     .args(["show", "puzzles/klotski/classic.txt"])
//!     .current_dir(end_to_end::workspace_root())
//!     .output()
//!     .unwrap();
//! assert!(out.status.success());
//! ```

pub mod picture;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives inside the workspace")
        .to_path_buf()
}

/// The profile folder of this test run (`target/debug`, `target/release`,
/// under `CARGO_TARGET_DIR` or a target triple alike): test executables live
/// in its `deps/` subfolder, the package binaries in the folder itself.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable knows its path");
    let deps = exe.parent().expect("the test executable sits in a folder");
    let dir = if deps.ends_with("deps") {
        deps.parent().unwrap_or(deps)
    } else {
        deps
    };
    dir.to_path_buf()
}

/// The binary `name` built for this test run, checked to exist and to be
/// newer than every source file it was built from. Panics with what to run
/// otherwise.
fn built_binary(name: &str) -> PathBuf {
    let dir = profile_dir();
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let rebuild = format!(
        "`cargo test --workspace` builds it with the tests; for a narrower run, \
         `cargo build --bin {name}` first (same profile as the tests)"
    );
    let built = match fs::metadata(&path).and_then(|m| m.modified()) {
        Ok(time) => time,
        Err(_) => panic!("{} is missing: {rebuild}", path.display()),
    };
    let dep_info = dir.join(format!("{name}.d"));
    let sources = fs::read_to_string(&dep_info).unwrap_or_else(|e| {
        panic!(
            "cannot tell whether {} is current: reading {}: {e}; {rebuild}",
            path.display(),
            dep_info.display()
        )
    });
    if let Some(source) = newer_source(&sources, built) {
        panic!(
            "{} is stale: {} changed after it was built; {rebuild}",
            path.display(),
            source.display()
        );
    }
    path
}

/// The first source listed in a Cargo dep-info file (`target: src1 src2 ...`,
/// spaces in names escaped with a backslash) that is missing or modified
/// after `built`.
fn newer_source(dep_info: &str, built: SystemTime) -> Option<PathBuf> {
    let first_line = dep_info.lines().next().unwrap_or("");
    let (_, list) = first_line.split_once(": ")?;
    let root = workspace_root();
    split_escaped(list)
        .into_iter()
        .map(|s| root.join(s))
        .find(|source| !modified_before(source, built))
}

/// Whether `source` exists and was last modified no later than `built`.
fn modified_before(source: &Path, built: SystemTime) -> bool {
    fs::metadata(source)
        .and_then(|m| m.modified())
        .is_ok_and(|time| time <= built)
}

/// Splits a dep-info list on unescaped spaces, unescaping `\ ` and `\\`.
fn split_escaped(list: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut chars = list.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' if !current.is_empty() => items.push(std::mem::take(&mut current)),
            ' ' => {}
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        items.push(current);
    }
    items
}

/// `test-artifacts/` beside the profile folder (so `target/test-artifacts/`),
/// created: files a person may want to look at after a run, such as the
/// Chromium test's screenshot of the player.
pub fn artifacts_dir() -> PathBuf {
    let profile = profile_dir();
    let dir = profile.parent().unwrap_or(&profile).join("test-artifacts");
    fs::create_dir_all(&dir).expect("cannot create the test-artifacts folder");
    dir
}

/// The `solver` binary Cargo built for this test run.
pub fn solver_bin() -> PathBuf {
    built_binary("solver")
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
    built_binary("reasoner")
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dep_info_lists_split_on_unescaped_spaces() {
        assert_eq!(
            split_escaped(r"/a/b.rs /c\ d/e.rs  f.rs"),
            ["/a/b.rs", "/c d/e.rs", "f.rs"]
        );
    }

    #[test]
    fn a_source_newer_than_the_binary_is_found() {
        let this = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let changed = fs::metadata(&this).unwrap().modified().unwrap();
        let info = format!("bin: {}\n", this.display());
        let before = changed - Duration::from_secs(1);
        assert_eq!(newer_source(&info, before), Some(this.clone()));
        assert_eq!(newer_source(&info, changed), None);
        let gone = format!("bin: {}/no-such-file.rs\n", env!("CARGO_MANIFEST_DIR"));
        assert!(newer_source(&gone, changed).is_some());
    }
}
