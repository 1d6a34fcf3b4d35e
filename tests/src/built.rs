//! Finding the binaries Cargo built for this test run, and refusing stale ones.
//!
//! Cargo builds a package's binaries whenever that package has integration
//! tests (`solver/tests/`, `reasoner/tests/`), so `cargo test --workspace`
//! leaves fresh binaries in the profile folder that holds this crate's test
//! executables. A narrower run (`cargo test -p end-to-end`) does not rebuild
//! them, so a binary is checked against the sources it is built from: every
//! file listed in the dep-info files rustc wrote in `deps/` for the binary's
//! package and the packages it depends on by path (read from the
//! `Cargo.toml` files). A listed file modified after the binary means the
//! binary is stale.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The profile folder of this test run (`target/debug`, `target/release`,
/// under `CARGO_TARGET_DIR` or a target triple alike): test executables live
/// in its `deps/` subfolder, the package binaries in the folder itself.
pub(crate) fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable knows its path");
    let deps = exe.parent().expect("the test executable sits in a folder");
    let dir = if deps.ends_with("deps") {
        deps.parent().unwrap_or(deps)
    } else {
        deps
    };
    dir.to_path_buf()
}

/// The binary `name` of the workspace package in folder `package`, built for
/// this test run and newer than every source it is built from. Panics with
/// what to run otherwise.
pub fn binary(name: &str, package: &Path) -> PathBuf {
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
    let mut dep_infos = 0;
    let mut crates = crates(package);
    let bin_crate = name.replace('-', "_");
    if !crates.contains(&bin_crate) {
        crates.push(bin_crate);
    }
    for krate in crates {
        let infos: Vec<String> = dep_info_files(&dir.join("deps"), &krate)
            .iter()
            .map(|info| fs::read_to_string(info).unwrap_or_default())
            .collect();
        // A test harness of the crate also lists its `#[cfg(test)]` files,
        // which the binary is not built from: of its files, only those a
        // build of the library (an `.rlib`; `clippy --all-targets` checks
        // the tests too, as `.rmeta` only) lists count (all, if none is left).
        let library: Vec<String> = infos
            .iter()
            .filter(|text| builds_a_library(text))
            .flat_map(|text| sources(text))
            .collect();
        for text in infos.iter().filter(|text| from_a_linked_build(text)) {
            dep_infos += 1;
            let harness = of_another_executable(text, &path) && !library.is_empty();
            let counts = |source: &str| !harness || library.iter().any(|l| l == source);
            if let Some(source) = newer_source(text, built, counts) {
                panic!(
                    "{} is stale: {} changed after it was built; {rebuild}",
                    path.display(),
                    source.display()
                );
            }
        }
    }
    assert!(
        dep_infos > 0,
        "cannot tell whether {} is current: no dep-info files for it in {}; {rebuild}",
        path.display(),
        dir.join("deps").display()
    );
    path
}

/// The library crate names (`[lib] name`, else the package name with `-` as
/// `_`) of the package in folder `package` and of every package it depends
/// on by path, directly or not.
fn crates(package: &Path) -> Vec<String> {
    let root = crate::workspace_root();
    let workspace = manifest(&root);
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut names = Vec::new();
    let mut todo = vec![package.to_path_buf()];
    while let Some(dir) = todo.pop() {
        if seen.contains(&dir) {
            continue;
        }
        let toml = manifest(&dir);
        let lib_name = toml.get("lib").and_then(|l| l.get("name"));
        if let Some(name) = lib_name.or(toml["package"].get("name")) {
            names.push(name.as_str().unwrap_or_default().replace('-', "_"));
        }
        let deps = toml.get("dependencies").and_then(|d| d.as_table());
        for (key, spec) in deps.into_iter().flatten() {
            let in_workspace = spec.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            let (base, spec) = if in_workspace {
                (&root, &workspace["workspace"]["dependencies"][key.as_str()])
            } else {
                (&dir, spec)
            };
            if let Some(path) = spec.get("path").and_then(|p| p.as_str()) {
                todo.push(base.join(path));
            }
        }
        seen.push(dir);
    }
    names
}

/// The parsed `Cargo.toml` in `dir`.
fn manifest(dir: &Path) -> toml::Value {
    let path = dir.join("Cargo.toml");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", path.display()))
}

/// The dep-info files rustc wrote for crate `krate`: `deps/KRATE-HASH.d`.
fn dep_info_files(deps: &Path, krate: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(deps) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.strip_prefix(krate)
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.strip_suffix(".d"))
                .is_some_and(|hash| !hash.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .collect()
}

/// Whether a dep-info file comes from a build that made a library (`.rlib`)
/// or an executable, not from `cargo check` or `cargo clippy` (`.rmeta`
/// only), which list files the binary does not depend on (clippy adds
/// `Cargo.toml`).
fn from_a_linked_build(dep_info: &str) -> bool {
    builds_a_library(dep_info) || !executables(dep_info).is_empty()
}

/// Whether a dep-info file lists the sources of an executable other than
/// `binary`: a test harness of the same crate (`deps/solver-HASH`, whose
/// list holds its `#[cfg(test)]` files, which the binary is not built
/// from) or an older build. The binary is a link or copy of its own
/// `deps/NAME-HASH`, of the same length and modification time.
fn of_another_executable(dep_info: &str, binary: &Path) -> bool {
    let stamp = |p: &Path| fs::metadata(p).ok().map(|m| (m.len(), m.modified().ok()));
    let executables = executables(dep_info);
    !executables.is_empty() && executables.iter().all(|e| stamp(e) != stamp(binary))
}

/// Whether a dep-info file names a library (`.rlib`) among its targets.
fn builds_a_library(dep_info: &str) -> bool {
    targets(dep_info).any(|target| target.ends_with(".rlib"))
}

/// The executables (no extension, or `.exe`) among a dep-info file's
/// targets.
fn executables(dep_info: &str) -> Vec<&Path> {
    targets(dep_info)
        .map(Path::new)
        .filter(|target| {
            let ext = target.extension().and_then(|e| e.to_str());
            matches!(ext, None | Some("exe"))
        })
        .collect()
}

/// The targets of a dep-info file's rules (`target: sources`), its `#`
/// comments left out: an `# env-dep:` line holds the package's description,
/// which may hold `: ` too (ours does: "Sliding-block puzzle solver: ...").
fn targets(dep_info: &str) -> impl Iterator<Item = &str> {
    dep_info
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once(": ").map(|(target, _)| target))
}

/// The sources a dep-info file lists (its first line's).
fn sources(dep_info: &str) -> Vec<String> {
    let first_line = dep_info.lines().next().unwrap_or("");
    first_line
        .split_once(": ")
        .map_or_else(Vec::new, |(_, list)| split_escaped(list))
}

/// The first source listed in a dep-info file (`target: src1 src2 ...`,
/// spaces in names escaped with a backslash) that `counts`, exists and was
/// modified after `built`. Sources since deleted are skipped: an old build
/// may have listed them.
fn newer_source(
    dep_info: &str,
    built: SystemTime,
    counts: impl Fn(&str) -> bool,
) -> Option<PathBuf> {
    let root = crate::workspace_root();
    sources(dep_info)
        .into_iter()
        .filter(|s| counts(s))
        .map(|s| root.join(s))
        .find(|source| modified_after(source, built))
}

/// Whether `source` exists and was last modified after `built`.
fn modified_after(source: &Path, built: SystemTime) -> bool {
    fs::metadata(source)
        .and_then(|m| m.modified())
        .is_ok_and(|time| time > built)
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
        let this = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/built.rs");
        let changed = fs::metadata(&this).unwrap().modified().unwrap();
        let info = format!("bin: {}\n", this.display());
        let before = changed - Duration::from_secs(1);
        assert_eq!(newer_source(&info, before, |_| true), Some(this.clone()));
        assert_eq!(newer_source(&info, before, |_| false), None);
        assert_eq!(newer_source(&info, changed, |_| true), None);
        let gone = format!("bin: {}/no-such-file.rs\n", env!("CARGO_MANIFEST_DIR"));
        assert_eq!(newer_source(&gone, before, |_| true), None);
    }

    #[test]
    fn the_binaries_crates_include_their_path_dependencies() {
        let root = crate::workspace_root();
        let solver = crates(&root.join("solver"));
        assert_eq!(solver[0], "solver");
        let reasoner = crates(&root.join("reasoner"));
        assert_eq!(reasoner[0], "reasoner");
        assert!(!reasoner.contains(&"solver".to_string()), "{reasoner:?}");
        // Both share the vocabulary crate, a path dependency of the workspace.
        let shared: Vec<&String> = solver[1..]
            .iter()
            .filter(|c| reasoner.contains(c))
            .collect();
        assert!(!shared.is_empty(), "{solver:?} {reasoner:?}");
    }

    #[test]
    fn only_linked_builds_count() {
        let check = "t/deps/x-1.d: a.rs Cargo.toml\n\nt/deps/libx-1.rmeta: a.rs Cargo.toml\n\n\
            # env-dep:CARGO_PKG_DESCRIPTION=A solver: model, search\n";
        assert!(!from_a_linked_build(check));
        let lib = "t/deps/x-1.d: a.rs\n\nt/deps/libx-1.rlib: a.rs\n\nt/deps/libx-1.rmeta: a.rs\n";
        assert!(from_a_linked_build(lib));
        assert!(from_a_linked_build(
            "t/deps/x-1.d: main.rs\n\nt/deps/x-1: main.rs\n"
        ));
    }

    /// A test harness of the binary's crate lists `#[cfg(test)]` files the
    /// binary is not built from: its dep-info is not the binary's (found by
    /// a review: editing a test-only file made every end-to-end test call
    /// the binary stale).
    #[test]
    fn only_the_binarys_own_executable_counts() {
        let dir = std::env::temp_dir().join(format!("built-exe-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (bin, own, harness) = (
            dir.join("solver"),
            dir.join("solver-1"),
            dir.join("solver-2"),
        );
        fs::write(&own, "the binary").unwrap();
        fs::copy(&own, &bin).unwrap();
        let when = fs::metadata(&own).unwrap().modified().unwrap();
        fs::File::options()
            .write(true)
            .open(&bin)
            .unwrap()
            .set_modified(when)
            .unwrap();
        fs::write(&harness, "a test harness, longer").unwrap();
        // As rustc writes them: the dep-info file itself first.
        let info = |target: &Path| {
            let d = target.with_extension("d");
            format!("{}: a.rs\n\n{}: a.rs\n", d.display(), target.display())
        };
        let (of_own, of_harness) = (
            of_another_executable(&info(&own), &bin),
            of_another_executable(&info(&harness), &bin),
        );
        let of_rlib = of_another_executable(&info(&dir.join("libsolver-1.rlib")), &bin);
        fs::remove_dir_all(&dir).unwrap();
        assert!(!of_own && of_harness && !of_rlib);
    }

    #[test]
    fn dep_info_files_match_the_crate_and_a_hash_only() {
        let dir = std::env::temp_dir().join(format!("built-rs-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for f in [
            "solver-0123abcd.d",
            "solver_fuzz-0123abcd.d",
            "solver-0123abcd",
            "solver-.d",
        ] {
            fs::write(dir.join(f), "").unwrap();
        }
        let found = dep_info_files(&dir, "solver");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, [dir.join("solver-0123abcd.d")]);
    }
}
