//! The HTML solution player as a person sees it, in a real browser: headless
//! Chromium opens the player for Classic Klotski, steps through the whole
//! solution (the page's `#end` runs its step-forward action once per move),
//! and the board it then shows must be the goal as `solver show` draws it.
//! A screenshot of the finished player is kept as
//! `target/test-artifacts/player-end.png`. Runs only where Chromium is
//! installed (`.ci/install-test-deps` installs it); elsewhere it says clearly
//! that it was skipped. `CHROMIUM=/path/to/chrome` picks the browser.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use end_to_end::picture::{
    add_shape, attribute, cell_of_translate, grid_cells, group_tags, show_grids, Cells,
};
use end_to_end::{artifacts_dir, run_solver};

const PUZZLE: &str = "puzzles/klotski/classic.txt";

/// The Chromium binary: `$CHROMIUM`, else the first of the usual names on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on a page with a fresh profile; `what` is
/// `--dump-dom` or `--screenshot=FILE`.
fn browse(browser: &Path, url: &str, what: &str) -> Output {
    let profile = std::env::temp_dir().join(format!(
        "player-chromium-{}-{}",
        std::process::id(),
        what.len()
    ));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=520,640",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(what)
        .arg(url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    end_to_end::assert_success(&out, "chromium");
    out
}

/// Cells covered by the blocks of the page's DOM, placed where the player's
/// script moved them (`style="transform: translate(Xpx, Ypx)"`).
fn shown_blocks(dom: &str) -> Cells {
    let mut cells = Cells::new();
    for tag in group_tags(dom, "block") {
        let id = attribute(tag, "data-type").unwrap().chars().next().unwrap();
        let style = attribute(tag, "style").expect("the player placed every block");
        add_shape(
            &mut cells,
            id,
            cell_of_translate(style, 40, 8),
            attribute(tag, "data-cells").unwrap(),
        );
    }
    cells
}

/// The solver's standard output; it must succeed.
fn solver(args: &[&str]) -> String {
    let out = run_solver(args);
    end_to_end::assert_success(&out, &format!("{args:?}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_player_steps_to_the_goal_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!(
            "SKIPPED the_player_steps_to_the_goal_in_chromium: no headless Chromium found \
             (install it with .ci/install-test-deps, or set CHROMIUM=/path/to/chrome)"
        );
        return;
    };
    let dir = artifacts_dir();
    let (sol, html) = (dir.join("player.sol"), dir.join("player.html"));
    solver(&[
        "solve",
        PUZZLE,
        "--metric",
        "moves",
        "--quiet",
        "--solution",
        sol.to_str().unwrap(),
    ]);
    solver(&[
        "render",
        PUZZLE,
        "--solution",
        sol.to_str().unwrap(),
        "-o",
        html.to_str().unwrap(),
    ]);
    let url = format!("file://{}", html.display());
    let (grids, _) = show_grids(&solver(&["show", PUZZLE]));

    // Before any step the player shows the start; after stepping to the end, the goal.
    let start =
        String::from_utf8_lossy(&browse(&browser, &format!("{url}#move=0"), "--dump-dom").stdout)
            .into_owned();
    assert!(
        start.contains("data-move=\"0\""),
        "the player did not run its script"
    );
    assert_eq!(
        shown_blocks(&start),
        grid_cells(&grids[0].1),
        "the start as shown"
    );
    let end =
        String::from_utf8_lossy(&browse(&browser, &format!("{url}#end"), "--dump-dom").stdout)
            .into_owned();
    assert!(
        end.contains("data-move=\"81\""),
        "stepped through all 81 moves"
    );
    assert!(
        end.contains("move 81 of 81") && end.contains("goal reached"),
        "counter and status"
    );
    let shown = shown_blocks(&end);
    let goal = grid_cells(&grids.last().unwrap().1);
    assert!(!goal.is_empty());
    for (cell, id) in &goal {
        assert_eq!(shown.get(cell), Some(id), "goal cell {cell:?} at the end");
    }
    assert_ne!(shown, shown_blocks(&start), "the blocks moved");

    let shot = dir.join("player-end.png");
    let _ = std::fs::remove_file(&shot);
    browse(
        &browser,
        &format!("{url}#end"),
        &format!("--screenshot={}", shot.display()),
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 5_000,
        "a screenshot of a page with a board, not a blank one"
    );
    eprintln!("screenshot of the finished player: {}", shot.display());
}
