//! Hostile-input suite, formats and pictures: invisible characters as block
//! identifiers, where whole-file errors are placed, and how long a picture
//! of a long solution may take.

use std::time::{Duration, Instant};

use end_to_end::{picture::gif_frames, run_solver, workspace_root};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("hostile-formats-{}-{name}", std::process::id()))
}

/// Bidirectional overrides, zero-width joiners and other format characters
/// draw nothing or reorder what is drawn: as a block identifier (in a native
/// header or grid, or in a GNOME level) each is refused at its line and
/// column, named by its code point.
#[test]
fn invisible_characters_are_no_block_identifiers() {
    let quick = std::fs::read_to_string(workspace_root().join("puzzles/quickstart.txt")).unwrap();
    for c in ['\u{202E}', '\u{200D}', '\u{200B}', '\u{2066}', '\u{FEFF}'] {
        let code = format!("U+{:04X}", c as u32);
        let header = quick.replacen("o\n!", &format!("o\n{c}\n!"), 1);
        let grid = quick.replacen("#oo  #", &format!("#oo{c} #"), 1);
        let gnome = format!("######\n#a**b#\n#a**b#\n#c{c}de#\n#cfge#\n#h  i#\n##--##\n");
        for (what, text, from) in [
            ("header", header, "native"),
            ("grid", grid, "native"),
            ("gnome", gnome, "klotski"),
        ] {
            let file = temp(&format!("{what}-{:x}.txt", c as u32));
            std::fs::write(&file, text).unwrap();
            let out = run_solver(&["show", file.to_str().unwrap(), "--from", from]);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{what} {code}: {}",
                stderr(&out)
            );
            let err = stderr(&out);
            assert!(err.contains(&code), "{what} {code}: {err}");
            let place = format!("{}:", file.display());
            assert!(err.contains(&place), "{what} {code}: no place: {err}");
        }
    }
}

/// An error about the whole file names the file alone, not a line 0 and
/// column 0 that no editor can jump to.
#[test]
fn whole_file_errors_name_no_line() {
    let empty = temp("empty.txt");
    std::fs::write(&empty, "").unwrap();
    for (path, expected) in [
        (empty.to_str().unwrap(), "empty file"),
        ("/no/such/puzzle.txt", "cannot read"),
    ] {
        let out = run_solver(&["show", path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = stderr(&out);
        assert!(err.contains(&format!("{path}: ")), "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains(":0:"), "{err}");
    }
}

/// Sunshine's 1,309-step solution as a GIF: evenly spaced frames, at most
/// 300, so it is drawn in seconds (it took 68 s and 44 MB with every frame),
/// from the start to the goal, with a note that the player shows all.
#[test]
fn a_gif_of_a_long_solution_is_sampled_and_bounded() {
    let gif = temp("sunshine.gif");
    let started = Instant::now();
    let out = run_solver(&[
        "render",
        "puzzles/klotski/sunshine.txt",
        "--solution",
        "experiments/results/sunshine.sol",
        "-o",
        gif.to_str().unwrap(),
    ]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("evenly spaced"), "{}", stderr(&out));
    let bytes = std::fs::read(&gif).unwrap();
    let frames = gif_frames(&bytes).expect("a complete GIF");
    assert!((2..=300).contains(&frames), "{frames} frames");
    assert!(bytes.len() < 10 << 20, "{} bytes", bytes.len());
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// A short solution keeps every frame: classic Klotski's 99 moves.
#[test]
fn a_gif_of_a_short_solution_shows_every_move() {
    let (sol, gif) = (temp("classic.sol"), temp("classic.gif"));
    let classic = "puzzles/klotski/classic.txt";
    let out = run_solver(&[
        "solve",
        classic,
        "--metric",
        "moves",
        "--solution",
        sol.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let moves = std::fs::read_to_string(&sol).unwrap().lines().count();
    let out = run_solver(&[
        "render",
        classic,
        "--solution",
        sol.to_str().unwrap(),
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let frames = gif_frames(&std::fs::read(&gif).unwrap()).expect("a complete GIF");
    assert_eq!(frames, moves + 1);
}
