//! Each rule of the crate against the file kinds a hostile path may name.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;

use super::*;

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

/// [`check_outputs`] of outputs alone: whether two name one file.
fn distinct(outputs: &[(&str, &Path)]) -> Result<(), Error> {
    check_outputs(outputs, &[]).map_err(|(_, e)| e)
}

/// [`check_outputs`] of one output against the inputs.
fn not_an_input(output: &Path, inputs: &[&Path]) -> Result<(), Error> {
    check_outputs(&[("-o", output)], inputs).map_err(|(_, e)| e)
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn a_regular_file_is_replaced_and_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.sol");
    std::fs::write(&f, "old").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
    write(&f, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
    assert_eq!(mode(&f), 0o600);
    // Nothing but the file is left in the folder.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_symlink_is_written_through_even_to_a_missing_target() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("real.sol", &link).unwrap();
    write(&link, b"one").unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real.sol")).unwrap(),
        "one"
    );
    write(&link, b"two").unwrap();
    assert_eq!(std::fs::read_to_string(&link).unwrap(), "two");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn a_read_only_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ro.sol");
    std::fs::write(&f, "keep").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = check(&f).unwrap_err();
    assert!(matches!(err, Error::ReadOnly { mode: 0o444, .. }), "{err}");
    assert!(err.to_string().contains("chmod u+w"), "{err}");
    assert!(write(&f, b"x").is_err());
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep");
}

#[test]
fn a_fifo_is_written_in_place_and_one_nobody_reads_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let err = write(&fifo, b"x").unwrap_err();
    assert!(matches!(err, Error::NoReader(_)), "{err}");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    // The reader opens the FIFO at some point: retry until it has.
    let start = std::time::Instant::now();
    while let Err(Error::NoReader(_)) = write(&fifo, b"through") {
        assert!(start.elapsed().as_secs() < 10, "the reader never opened");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(reader.join().unwrap(), "through");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo());
}

#[test]
fn devices_are_written_in_place_and_their_errors_reported() {
    write(Path::new("/dev/null"), b"gone").unwrap();
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    if Path::new("/dev/full").exists() {
        let err = write(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(
            err.io_kind(),
            Some(std::io::ErrorKind::StorageFull),
            "{err}"
        );
        assert!(std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }
}

#[test]
fn dash_and_descriptor_paths_are_standard_output() {
    assert_eq!(resolve(Path::new("-")).unwrap(), Dest::Stdout);
    assert_eq!(resolve(Path::new("/dev/stdout")).unwrap(), Dest::Stdout);
    assert_eq!(resolve(Path::new("/proc/self/fd/1")).unwrap(), Dest::Stdout);
    assert!(matches!(
        resolve(Path::new("/dev/stderr")).unwrap(),
        Dest::InPlace(_)
    ));
    for stdin in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
        let err = resolve(Path::new(stdin)).unwrap_err();
        assert!(err.to_string().contains("standard input"), "{stdin}: {err}");
    }
}

#[test]
fn folders_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for p in [dir.path().to_path_buf(), dir.path().join("new/")] {
        let err = check(&p).unwrap_err();
        assert!(matches!(err, Error::Folder(_)), "{err}");
    }
    assert!(matches!(
        check(&dir.path().join("no/such/file")).unwrap_err(),
        Error::FolderNotWritable { .. }
    ));
}

#[test]
fn two_outputs_naming_one_file_are_refused_but_devices_may_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("x.out");
    let link = dir.path().join("y.out");
    std::os::unix::fs::symlink("x.out", &link).unwrap();
    let err = distinct(&[("--solution", &a), ("--best-out", &link)]).unwrap_err();
    assert!(err.to_string().contains("--best-out"), "{err}");
    std::fs::write(&a, "").unwrap();
    assert!(distinct(&[("--solution", &a), ("--best-out", &link)]).is_err());
    assert!(distinct(&[("-o", Path::new("-")), ("--x", Path::new("/dev/stdout"))]).is_err());
    let null = Path::new("/dev/null");
    distinct(&[("--solution", null), ("--render", null)]).unwrap();
    distinct(&[("--solution", &a), ("--render", &dir.path().join("z"))]).unwrap();
}

#[test]
fn an_input_is_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.txt");
    std::fs::write(&p, "puzzle").unwrap();
    let link = dir.path().join("l.txt");
    std::os::unix::fs::symlink(&p, &link).unwrap();
    assert!(matches!(
        not_an_input(&link, &[&p]).unwrap_err(),
        Error::IsInput { .. }
    ));
    not_an_input(&dir.path().join("new.txt"), &[&p]).unwrap();
    not_an_input(Path::new("-"), &[Path::new("-")]).unwrap();
}

/// A collection's outputs, one numbered file per puzzle, are checked in
/// time linear in their number (pairs were compared by a scan, and every
/// file probed its folder): 30,000 in a few seconds even unoptimised.
#[test]
fn many_outputs_are_checked_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<std::path::PathBuf> = (1..=30_000)
        .map(|k| dir.path().join(format!("x.sol.{k}")))
        .collect();
    let started = std::time::Instant::now();
    let outputs: Vec<(&str, &Path)> = paths.iter().map(|p| ("--solution", p.as_path())).collect();
    distinct(&outputs).unwrap();
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let mut clash = outputs.clone();
    clash.push(("--render", paths[17].as_path()));
    assert!(distinct(&clash).is_err());
}
