//! The HTML page of a puzzle: one self-contained file (the SVG of the start
//! position inline, the frames of a solution as JSON, a small script and,
//! when given, the solver compiled to WebAssembly as base64; nothing
//! fetched), so it opens from a file, an e-mail or a repository without a
//! server. It plays the solution; with the module (`solver/web`) a person
//! can also play the puzzle by hand, ask for hints from where they are and
//! edit it. The page itself is `player.html`, a template with three slots.

use base64::Engine as _;

use super::frames::Frames;
use super::svg::{self, Style, CELL, MARGIN};
use crate::formats::native;
use crate::model::Puzzle;

const TEMPLATE: &str = include_str!("player.html");

/// The page for a puzzle and its frames (the start alone, or a replayed
/// solution); `module` is the solver's WebAssembly module, for play and hints.
pub fn page(puzzle: &Puzzle, frames: &Frames, title: &str, module: Option<&[u8]>) -> String {
    let style = Style::of(puzzle);
    let picture = svg::document(puzzle, &style, &frames.anchors[0]);
    let data = serde_json::json!({
        "cols": puzzle.board.width(),
        "cell": CELL,
        "margin": MARGIN,
        "frames": frames.anchors,
        "moves": frames.moves,
        "solved": frames.solved,
        "puzzle": native::write(puzzle),
        "module": module.map(|m| base64::engine::general_purpose::STANDARD.encode(m)),
    });
    // `<` never appears raw inside the script element, so no `</script>` can end it early.
    let data = data.to_string().replace('<', "\\u003c");
    TEMPLATE
        .replace("__TITLE__", &svg::escape(title))
        .replace("__DATA__", &data)
        .replace("__SVG__", &picture)
}
