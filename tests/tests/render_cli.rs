//! End-to-end tests of `solver render` and `solver solve --render`: every
//! bundled puzzle drawn as SVG (blocks, goal areas and size checked against
//! `solver show`'s text grids) and as PNG, a solution drawn as a player, a
//! GIF and a still of its last move, and bad input refused with exit 2.

use std::path::{Path, PathBuf};
use std::process::Output;

use end_to_end::picture::{
    add_shape, attribute, cell_of_translate, grid_cells, group_tags, show_grids, Cells,
};
use end_to_end::{dev_puzzles, run_solver as solver, workspace_root};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("render-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every puzzle file under `puzzles/`, sorted.
fn bundled_puzzles() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "txt") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&workspace_root().join("puzzles"), &mut out);
    out.sort();
    out
}

/// Cells covered by the groups of `class` in an SVG, for one goal section or all blocks.
fn drawn(svg: &str, class: &str, section: Option<usize>) -> Cells {
    let mut cells = Cells::new();
    for tag in group_tags(svg, class) {
        if section.is_some_and(|s| attribute(tag, "data-section") != Some(&s.to_string())) {
            continue;
        }
        let id = attribute(tag, "data-type").unwrap().chars().next().unwrap();
        let anchor = cell_of_translate(attribute(tag, "transform").unwrap(), 40, 8);
        add_shape(
            &mut cells,
            id,
            anchor,
            attribute(tag, "data-cells").unwrap(),
        );
    }
    cells
}

/// The SVG of `puzzle` agrees with `solver show`: size, blocks, goal
/// sections. Returns the picture's `(width, height)` in pixels.
fn check_svg(puzzle: &str, svg: &str) -> (u32, u32) {
    let show = solver(&["show", puzzle]);
    assert!(show.status.success(), "{puzzle}: {}", stderr(&show));
    let (grids, (w, h)) = show_grids(&String::from_utf8_lossy(&show.stdout));
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{puzzle}: bad SVG: {e}"));
    let root = doc.root_element();
    assert_eq!(
        root.attribute("width"),
        Some((w * 40 + 16).to_string().as_str()),
        "{puzzle}"
    );
    assert_eq!(
        root.attribute("height"),
        Some((h * 40 + 16).to_string().as_str()),
        "{puzzle}"
    );
    let walls = grids[0]
        .1
        .iter()
        .flat_map(|r| r.chars())
        .filter(|&c| c == '#')
        .count();
    assert!(group_tags(svg, "board").len() == 1 && svg.matches("class=\"wall\"").count() >= walls);
    assert_eq!(
        drawn(svg, "block", None),
        grid_cells(&grids[0].1),
        "{puzzle}: start blocks"
    );
    for (k, (label, rows)) in grids.iter().enumerate().skip(1) {
        let class = if k + 1 == grids.len() {
            "goal"
        } else {
            "subgoal"
        };
        assert_eq!(
            drawn(svg, class, Some(k)),
            grid_cells(rows),
            "{puzzle}: {label}"
        );
        assert!(
            !grid_cells(rows).is_empty(),
            "{puzzle}: {label} has no block"
        );
    }
    ((w * 40 + 16) as u32, (h * 40 + 16) as u32)
}

/// Width and height from a PNG's header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn every_bundled_puzzle_renders_as_svg_and_png() {
    let puzzles = bundled_puzzles();
    assert!(
        puzzles.len() >= 60,
        "only {} bundled puzzles found",
        puzzles.len()
    );
    for path in &puzzles {
        let puzzle = path.to_str().unwrap();
        let out = solver(&["render", puzzle]);
        assert!(out.status.success(), "{puzzle}: {}", stderr(&out));
        let size = check_svg(puzzle, &String::from_utf8_lossy(&out.stdout));
        let png = temp("p.png");
        let out = solver(&["render", puzzle, "-o", png.to_str().unwrap()]);
        assert!(out.status.success(), "{puzzle}: {}", stderr(&out));
        assert_eq!(png_size(&std::fs::read(&png).unwrap()), size, "{puzzle}");
    }
}

const CLASSIC: &str = "puzzles/klotski/classic.txt";

/// The player's frames: the JSON inside its data script.
fn player_data(html: &str) -> serde_json::Value {
    let open = "<script id=\"data\" type=\"application/json\">";
    let start = html.find(open).expect("the player holds its data") + open.len();
    let len = html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..start + len]).unwrap()
}

#[test]
fn solve_render_writes_a_player_with_one_frame_per_move() {
    let (html, sol) = (temp("classic.html"), temp("classic.sol"));
    let out = solver(&[
        "solve",
        CLASSIC,
        "--metric",
        "moves",
        "--quiet",
        "--solution",
        sol.to_str().unwrap(),
        "--render",
        html.to_str().unwrap(),
        "--show",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // `--show` prints the same replay's frames: the start and 81 moves, the
    // last one the solution file's last line.
    let shown = String::from_utf8_lossy(&out.stdout);
    let written = std::fs::read_to_string(&sol).unwrap();
    let last = written.lines().last().unwrap();
    assert!(shown.contains("start:\n"), "{shown}");
    assert!(shown.contains(&format!("move 81: {last}\n")), "{shown}");
    assert!(!shown.contains("move 82:"), "{shown}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_classic_player(&page);
    assert_last_still_shows_the_goal(&sol);
    assert_gif_has_a_frame_per_position(&sol);
}

/// The player `page` of the classic Klotski's 81-move solution is
/// self-contained, holds a frame per position, and has its controls.
fn assert_classic_player(page: &str) {
    assert!(
        !page.contains("http://") || !page.contains("src=\"http"),
        "the player fetches nothing"
    );
    assert!(
        !page.contains("<script src") && !page.contains("<link"),
        "self-contained"
    );
    let data = player_data(page);
    assert_eq!(
        data["frames"].as_array().unwrap().len(),
        82,
        "start + 81 moves"
    );
    assert_eq!(data["moves"].as_array().unwrap().len(), 81);
    assert_eq!(data["solved"], true);
    for control in [
        "id=\"play\"",
        "id=\"back\"",
        "id=\"forward\"",
        "id=\"slider\"",
        "id=\"counter\"",
        "keydown",
    ] {
        assert!(page.contains(control), "the player has {control}");
    }
}

/// The still of the last move of the classic Klotski's solution `sol`
/// shows the master on its goal, as `solver show` draws the goal.
fn assert_last_still_shows_the_goal(sol: &Path) {
    let end = solver(&[
        "render",
        CLASSIC,
        "--solution",
        sol.to_str().unwrap(),
        "--move",
        "81",
    ]);
    assert!(end.status.success(), "{}", stderr(&end));
    let blocks = drawn(&String::from_utf8_lossy(&end.stdout), "block", None);
    let show = solver(&["show", CLASSIC]);
    let (grids, _) = show_grids(&String::from_utf8_lossy(&show.stdout));
    for (cell, id) in grid_cells(&grids.last().unwrap().1) {
        assert_eq!(blocks.get(&cell), Some(&id), "goal cell {cell:?}");
    }
}

/// The classic Klotski's solution `sol` rendered as a GIF: the board's
/// size in pixels and a frame (graphic control) per position.
fn assert_gif_has_a_frame_per_position(sol: &Path) {
    let gif = temp("classic.gif");
    let out = solver(&[
        "render",
        CLASSIC,
        "--solution",
        sol.to_str().unwrap(),
        "-o",
        gif.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&gif).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let le = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    assert_eq!((le(6), le(8)), (6 * 40 + 16, 7 * 40 + 16), "GIF size");
    let frames = bytes
        .windows(3)
        .filter(|w| w == &[0x21, 0xF9, 0x04])
        .count();
    assert!(
        frames >= 82,
        "one GIF frame per position, found {frames} graphic controls"
    );
}

#[test]
fn bad_render_requests_exit_2_and_say_what_to_do() {
    let sol = temp("bad.sol");
    std::fs::write(&sol, "@ 1,1 U\n").unwrap();
    let sol = sol.to_str().unwrap();
    let korf = dev_puzzles().join("korf_first10.txt");
    let korf = korf.to_str().unwrap();
    let not_wasm = temp("not.wasm");
    std::fs::write(&not_wasm, "text").unwrap();
    let not_wasm = not_wasm.to_str().unwrap();
    let page = temp("x.html");
    let page = page.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (&["render", CLASSIC, "-o", "x.gif"], "--solution FILE"),
        (
            &[
                "render",
                CLASSIC,
                "-o",
                page,
                "--web-module",
                "/nonexistent.wasm",
            ],
            "--web-module /nonexistent.wasm: cannot read it",
        ),
        (
            &["render", CLASSIC, "-o", page, "--web-module", not_wasm],
            "not a WebAssembly module",
        ),
        (&["render", CLASSIC, "-o", "x.bmp"], ".svg or .png"),
        (&["render", CLASSIC, "--solution", sol], "not legal: move 1"),
        (
            &["render", CLASSIC, "--move", "1"],
            "give one with --solution FILE",
        ),
        (
            &["render", CLASSIC, "-o", "/nonexistent-dir/x.svg"],
            "cannot create a file in the folder /nonexistent-dir",
        ),
        (
            &["render", korf, "--from", "tiles"],
            "say which one the picture is for with --index N",
        ),
    ];
    for (args, expected) in cases {
        let out = solver(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?} printed a picture anyway");
    }
    assert!(!Path::new(page).exists(), "a refused page is not written");
    let out = solver(&["solve", CLASSIC, "--render", "x.txt"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the extension is checked before the search"
    );
}

#[test]
fn the_readme_picture_and_player_are_current() {
    let out = solver(&["render", CLASSIC]);
    assert!(out.status.success(), "{}", stderr(&out));
    let committed = std::fs::read_to_string(workspace_root().join("docs/classic.svg")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        committed,
        "docs/classic.svg is stale: regenerate it with `solver render {CLASSIC} -o docs/classic.svg`"
    );
    let player =
        std::fs::read_to_string(workspace_root().join("docs/classic-player.html")).unwrap();
    let data = player_data(&player);
    assert_eq!(data["frames"].as_array().unwrap().len(), 82);
    assert_eq!(data["solved"], true);
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    assert!(readme.contains("(docs/classic.svg)") && readme.contains("(docs/classic-player.html)"));
}

/// A page without a solution is the puzzle to play: its start alone, the
/// puzzle's native text for the solver inside, and the module given with
/// `--web-module` carried inline as base64 (`off`: none, and the page says
/// it plays solutions only).
#[test]
fn a_page_without_a_solution_carries_the_puzzle_and_the_module() {
    let (page, module) = (temp("play.html"), temp("tiny.wasm"));
    // The smallest WebAssembly module: its magic and version.
    std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
    let out = solver(&[
        "render",
        CLASSIC,
        "-o",
        page.to_str().unwrap(),
        "--web-module",
        module.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let data = player_data(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(
        data["frames"].as_array().unwrap().len(),
        1,
        "the start alone"
    );
    assert_eq!(data["moves"], serde_json::json!([]));
    assert_eq!(data["module"], "AGFzbQEAAAA=");
    let text = data["puzzle"].as_str().unwrap();
    assert!(text.contains("#v@@v#"), "the puzzle's native text: {text}");

    let out = solver(&[
        "render",
        CLASSIC,
        "-o",
        page.to_str().unwrap(),
        "--web-module",
        "off",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(player_data(&html)["module"], serde_json::Value::Null);
    assert!(
        html.contains("plays the solution only"),
        "the page says what it lacks"
    );
}
