//! Hostile-input suite, outputs: every writer of the solver given what a
//! path may name besides a plain new file (a FIFO with and without a
//! reader, a symlink, a file of mode 0600, a read-only file, a character
//! device, `-`), and two outputs or an output and an input that name one
//! file. The rules (`solver/outfile`): regular files are replaced
//! atomically with their mode kept, symlinks written through, read-only
//! files refused; devices and FIFOs written in place, never replaced.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use end_to_end::{run_solver, solver_bin, workspace_root};

const CLASSIC: &str = "puzzles/klotski/classic.txt";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostile-out-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// A character device node `major:minor` at `p` (1:3 is the null device,
/// 1:7 the full one); false when this process may not make one (not root).
fn mknod_char(p: &Path, major: u32, minor: u32) -> bool {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mknod only creates a node.
    unsafe {
        libc::mknod(
            c.as_ptr(),
            libc::S_IFCHR | 0o666,
            libc::makedev(major, minor),
        ) == 0
    }
}

/// One writer: a name, and the command line that writes its output to a
/// path (`ext` is the extension the output needs).
struct Writer {
    name: &'static str,
    ext: &'static str,
    /// The exit code of a run that wrote its output (1: limit reached).
    ok: i32,
    args: fn(&str, &Fixture) -> Vec<String>,
}

/// Files the writers read: classic Klotski's solution, a GNOME level.
struct Fixture {
    solution: String,
    gnome: String,
}

fn fixture(dir: &Path) -> Fixture {
    let solution = dir.join("classic.sol");
    let out = run_solver(&["solve", CLASSIC, "--solution", solution.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let gnome = end_to_end::dev_puzzles().join("gnome-klotski/red_donkey.txt");
    Fixture {
        solution: solution.to_str().unwrap().to_string(),
        gnome: gnome.to_str().unwrap().to_string(),
    }
}

fn v(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn writers() -> Vec<Writer> {
    let w = |name, ext, ok, args| Writer {
        name,
        ext,
        ok,
        args,
    };
    vec![
        w("solve --solution", "sol", 0, |o, _| {
            v(&["solve", CLASSIC, "--solution", o])
        }),
        w("solve --render html", "html", 0, |o, _| {
            v(&["solve", CLASSIC, "--render", o])
        }),
        w("solve --render svg", "svg", 0, |o, _| {
            v(&["solve", CLASSIC, "--render", o])
        }),
        w("solve --render png", "png", 0, |o, _| {
            v(&["solve", CLASSIC, "--render", o])
        }),
        w("solve --best-out", "json", 1, |o, _| {
            v(&["solve", CLASSIC, "--max-positions", "200", "--best-out", o])
        }),
        w("render -o svg", "svg", 0, |o, _| {
            v(&["render", CLASSIC, "-o", o])
        }),
        w("render -o png", "png", 0, |o, _| {
            v(&["render", CLASSIC, "-o", o])
        }),
        w("render -o html", "html", 0, |o, f| {
            v(&["render", CLASSIC, "--solution", &f.solution, "-o", o])
        }),
        w("render -o gif", "gif", 0, |o, f| {
            v(&["render", CLASSIC, "--solution", &f.solution, "-o", o])
        }),
        w("improve -o", "sol", 0, |o, f| {
            v(&[
                "improve",
                CLASSIC,
                &f.solution,
                "--max-positions",
                "1000",
                "-o",
                o,
            ])
        }),
        w("variant -o", "txt", 0, |o, _| {
            v(&["variant", CLASSIC, "--freeze-area", "0,4,4,5", "-o", o])
        }),
        w("import -o", "txt", 0, |o, f| {
            v(&["import", "--from", "klotski", &f.gnome, "-o", o])
        }),
    ]
}

fn run(args: &[String]) -> Output {
    let out = Command::new(solver_bin())
        .args(args)
        .current_dir(workspace_root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some(),
        "{args:?} died by a signal: {}",
        stderr(&out)
    );
    out
}

/// A symlink is written through (it stays a symlink, its target gets the
/// output), a 0600 file keeps its mode, a read-only file is refused with
/// exit 2 and left as it was.
#[test]
fn every_writer_writes_through_symlinks_keeps_modes_and_refuses_read_only_files() {
    let dir = temp_dir("files");
    let fx = fixture(&dir);
    for (i, w) in writers().iter().enumerate() {
        let target = dir.join(format!("target{i}.{}", w.ext));
        let link = dir.join(format!("link{i}.{}", w.ext));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = run(&(w.args)(link.to_str().unwrap(), &fx));
        assert_eq!(
            out.status.code(),
            Some(w.ok),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        let kind = std::fs::symlink_metadata(&link).unwrap().file_type();
        assert!(kind.is_symlink(), "{}: the symlink was replaced", w.name);
        assert!(std::fs::metadata(&target).unwrap().len() > 0, "{}", w.name);

        let private = dir.join(format!("private{i}.{}", w.ext));
        std::fs::write(&private, "old").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        let out = run(&(w.args)(private.to_str().unwrap(), &fx));
        assert_eq!(
            out.status.code(),
            Some(w.ok),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o600, "{}: the mode changed", w.name);
        assert_ne!(std::fs::read(&private).unwrap(), b"old", "{}", w.name);

        let frozen = dir.join(format!("frozen{i}.{}", w.ext));
        std::fs::write(&frozen, "keep").unwrap();
        std::fs::set_permissions(&frozen, std::fs::Permissions::from_mode(0o444)).unwrap();
        let out = run(&(w.args)(frozen.to_str().unwrap(), &fx));
        assert_eq!(out.status.code(), Some(2), "{}: {}", w.name, stderr(&out));
        assert!(
            stderr(&out).contains("read-only"),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        assert_eq!(std::fs::read(&frozen).unwrap(), b"keep", "{}", w.name);
    }
}

/// A FIFO nobody reads is an error (exit 2, at once, no hang); with a
/// reader it gets the output; either way it stays a FIFO.
#[test]
fn every_writer_writes_into_a_fifo_and_never_hangs_on_one_without_reader() {
    let dir = temp_dir("fifo");
    let fx = fixture(&dir);
    for (i, w) in writers().iter().enumerate() {
        let fifo = dir.join(format!("fifo{i}.{}", w.ext));
        mkfifo(&fifo);
        let started = Instant::now();
        let out = run(&(w.args)(fifo.to_str().unwrap(), &fx));
        assert_eq!(out.status.code(), Some(2), "{}: {}", w.name, stderr(&out));
        assert!(
            stderr(&out).contains("FIFO"),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        assert!(started.elapsed() < Duration::from_secs(30), "{}", w.name);
        // A reader that holds the FIFO open from before the writer starts.
        // It copies to a file: a pipe back to this test would fill up
        // while the test waits for the writer, and block both.
        let copy = dir.join(format!("copy{i}"));
        let mut reader = Command::new("cat")
            .arg(&fifo)
            .stdout(std::fs::File::create(&copy).unwrap())
            .spawn()
            .unwrap();
        let out = loop {
            let out = run(&(w.args)(fifo.to_str().unwrap(), &fx));
            if !stderr(&out).contains("no process reads") {
                break out;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "{}", w.name);
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(
            out.status.code(),
            Some(w.ok),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        assert!(reader.wait().unwrap().success(), "{}", w.name);
        let read = std::fs::metadata(&copy).unwrap().len();
        assert!(read > 0, "{}: the reader got nothing", w.name);
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{}: the FIFO was replaced", w.name);
    }
}

/// Device nodes (made here as root, so no real device is at risk) are
/// written in place: the null device swallows the output, the full one
/// fails with exit 2 and the error; both stay devices.
#[test]
fn every_writer_writes_into_devices_in_place() {
    let dir = temp_dir("dev");
    let fx = fixture(&dir);
    let (null, full) = (dir.join("null"), dir.join("full"));
    if !mknod_char(&null, 1, 3) || !mknod_char(&full, 1, 7) {
        eprintln!("SKIPPED: making device nodes needs root (mknod)");
        return;
    }
    for w in writers() {
        let is_dev = |p: &Path| {
            std::fs::symlink_metadata(p)
                .unwrap()
                .file_type()
                .is_char_device()
        };
        // Extensions pick the format: a symlink with the right one.
        let named = |dev: &Path, tag: &str| {
            let link = dir.join(format!("{tag}-{}.{}", w.name.replace(' ', "_"), w.ext));
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(dev, &link).unwrap();
            link
        };
        let out = run(&(w.args)(named(&null, "null").to_str().unwrap(), &fx));
        assert_eq!(
            out.status.code(),
            Some(w.ok),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        let out = run(&(w.args)(named(&full, "full").to_str().unwrap(), &fx));
        assert_eq!(out.status.code(), Some(2), "{}: {}", w.name, stderr(&out));
        assert!(
            stderr(&out).contains("No space left"),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        assert!(
            is_dev(&null) && is_dev(&full),
            "{}: a device was replaced",
            w.name
        );
    }
}

/// `-` is standard output, not a file named `-`.
#[test]
fn a_dash_writes_to_standard_output() {
    let stray = workspace_root().join("-");
    let _ = std::fs::remove_file(&stray);
    let out = run_solver(&["solve", CLASSIC, "--solution", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    // The solution's 99 moves (a line each), then the summary.
    let moves = text
        .lines()
        .filter(|l| l.ends_with(['U', 'D', 'L', 'R']))
        .count();
    assert_eq!(moves, 99, "{text}");
    assert!(!stray.exists(), "a file named - was written");

    // Every writer takes `-`: what it writes appears on standard output (a
    // picture written there is the SVG, or the page for a solution).
    let dir = temp_dir("dash");
    let fixture = fixture(&dir);
    for w in writers() {
        let out = run(&(w.args)("-", &fixture));
        assert_eq!(
            out.status.code(),
            Some(w.ok),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let expected = match w.name {
            n if n.starts_with("solve --render") || n.ends_with("html") || n.ends_with("gif") => {
                "<!DOCTYPE html>"
            }
            n if n.starts_with("render") => "<svg",
            n if n.contains("best-out") => "\"distance\"",
            n if n.contains("solution") || n.starts_with("improve") => " 1,",
            _ => "!",
        };
        assert!(
            text.contains(expected),
            "{}: no {expected:?} on stdout:\n{text}",
            w.name
        );
        assert!(!stray.exists(), "{}: a file named - was written", w.name);
    }
}

/// Two outputs naming one file, directly or through a symlink, are refused
/// before any search; so is an output that is the input puzzle.
#[test]
fn outputs_are_checked_against_each_other_and_the_input() {
    let dir = temp_dir("clash");
    let x = dir.join("x.out");
    let x = x.to_str().unwrap();
    let link = dir.join("y.html");
    std::os::unix::fs::symlink(dir.join("p.html"), &link).unwrap();
    let p = dir.join("p.html");
    let p = p.to_str().unwrap();
    let cases: [&[&str]; 3] = [
        &["solve", CLASSIC, "--solution", x, "--best-out", x],
        &["solve", CLASSIC, "--solution", p, "--render", p],
        &[
            "solve",
            CLASSIC,
            "--solution",
            link.to_str().unwrap(),
            "--render",
            p,
        ],
    ];
    for args in cases {
        let out = run_solver(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("names the same file"),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?} searched anyway");
    }
    assert!(!Path::new(x).exists() && !Path::new(p).exists());
}

/// `render - --solution -`: both cannot read standard input, and the error
/// says so (it used to report the mixed text's "ragged rows").
#[test]
fn a_puzzle_and_a_solution_both_from_standard_input_are_refused_by_name() {
    for args in [
        &["render", "-", "--solution", "-"][..],
        &["verify", "-", "-"][..],
    ] {
        let out = Command::new(solver_bin())
            .args(args)
            .current_dir(workspace_root())
            .stdin(std::fs::File::open(workspace_root().join(CLASSIC)).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("cannot both come from standard input"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// `--threads 256` on a machine of few cores runs on its cores (a note says
/// so): classic Klotski's BFS took 600 times longer on 256 threads.
#[test]
fn threads_beyond_the_cores_are_capped() {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let started = Instant::now();
    let out = run_solver(&["solve", CLASSIC, "--threads", "256", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["steps"], 116);
    if cores < 256 {
        assert_eq!(json["params"]["threads"], cores as u64, "{json}");
        assert!(stderr(&out).contains("cores"), "{}", stderr(&out));
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

/// The reasoner's one writer, the case base, under the same rules:
/// `casebase merge -o` a FIFO is refused at once (it hung reading it), a
/// folder is named a folder (it blamed `--retain`), a read-only file is
/// refused and kept, a symlink is written through.
#[test]
fn the_case_base_writer_refuses_fifos_folders_and_read_only_files() {
    let dir = temp_dir("casebase");
    let seed = workspace_root().join("casebase/seed.toml");
    let merge = |out: &Path| {
        let mut cmd = Command::new(end_to_end::reasoner_bin());
        cmd.args(["casebase", "merge"])
            .arg(&seed)
            .arg("-o")
            .arg(out);
        let started = Instant::now();
        let out = cmd.stdin(Stdio::null()).output().unwrap();
        assert!(started.elapsed() < Duration::from_secs(30), "it hung");
        out
    };
    let fifo = dir.join("fifo.toml");
    mkfifo(&fifo);
    let frozen = dir.join("frozen.toml");
    std::fs::write(&frozen, "version = 1\n").unwrap();
    std::fs::set_permissions(&frozen, std::fs::Permissions::from_mode(0o444)).unwrap();
    for (out, expected) in [
        (&fifo, "not a regular file"),
        (&dir, "names a folder"),
        (&frozen, "read-only"),
    ] {
        let got = merge(out);
        assert_eq!(
            got.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            stderr(&got)
        );
        assert!(stderr(&got).contains(expected), "{}", stderr(&got));
        assert!(!stderr(&got).contains("--retain"), "{}", stderr(&got));
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(std::fs::read(&frozen).unwrap(), b"version = 1\n");
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink("real.toml", &link).unwrap();
    let got = merge(&link);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(dir.join("real.toml"))
        .unwrap()
        .contains("[[case]]"));
}

/// Standard output cannot take a file beside `--json`'s results, and a
/// collection's numbered files cannot be standard output or a device (they
/// became regular files named `-.1`, `/dev/null.1`): both refused before
/// any search.
#[test]
fn outputs_that_would_mix_or_cannot_be_numbered_are_refused() {
    let dir = temp_dir("mix");
    let classic = std::fs::read_to_string(workspace_root().join(CLASSIC)).unwrap();
    let two = dir.join("two.txt");
    std::fs::write(&two, format!("{classic}%%\n{classic}")).unwrap();
    let two = two.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["solve", CLASSIC, "--solution", "-", "--json"],
            "--json prints",
        ),
        (
            &["solve", CLASSIC, "--best-out", "/dev/stdout", "--json"],
            "--json prints",
        ),
        (
            &["solve", two, "--solution", "-"],
            "numbered file per puzzle",
        ),
        (
            &["solve", two, "--render", "/dev/null"],
            "numbered file per puzzle",
        ),
    ];
    for (args, expected) in cases {
        let out = run_solver(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?} searched anyway");
    }
    assert!(!workspace_root().join("-.1").exists());
}
