//! The HTML solution player: one self-contained page (the SVG of the start
//! position inline, the frames as JSON, a small script; nothing fetched), so
//! it opens from a file, an e-mail or a repository without a server. The page
//! itself is `player.html`, a template with three slots.

use super::frames::Frames;
use super::svg::{self, Style, CELL, MARGIN};
use crate::model::Puzzle;

const TEMPLATE: &str = include_str!("player.html");

/// The player page for a replayed solution.
pub fn page(puzzle: &Puzzle, frames: &Frames, title: &str) -> String {
    let style = Style::of(puzzle);
    let picture = svg::document(puzzle, &style, &frames.anchors[0]);
    let data = serde_json::json!({
        "cols": puzzle.board.width(),
        "cell": CELL,
        "margin": MARGIN,
        "frames": frames.anchors,
        "moves": frames.moves,
        "solved": frames.solved,
    });
    // `<` never appears raw inside the script element, so no `</script>` can end it early.
    let data = data.to_string().replace('<', "\\u003c");
    TEMPLATE
        .replace("__TITLE__", &svg::escape(title))
        .replace("__DATA__", &data)
        .replace("__SVG__", &picture)
}
