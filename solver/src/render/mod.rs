//! Pictures of puzzles and their solutions, for people rather than programs:
//! an SVG of the board ([`svg`]), a PNG of it ([`raster`]), and for a
//! solution a self-contained HTML player ([`player`]) or an animated GIF.
//! The positions come from the verifier's replay ([`frames`]); the output
//! kind from the file name's extension.

pub mod frames;
pub mod palette;
pub mod player;
pub mod raster;
pub mod svg;

pub use frames::Frames;

use crate::model::Puzzle;

/// What a picture file holds, chosen by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `.svg`: the board at one frame (by default the start).
    Svg,
    /// `.png`: the same, rasterised.
    Png,
    /// `.html`: the solution player.
    Html,
    /// `.gif`: the solution animated.
    Gif,
}

impl Kind {
    /// The kind for an output path, or an error saying which ones exist.
    pub fn of_path(path: &str) -> Result<Kind, String> {
        let ext = std::path::Path::new(path)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("svg") => Ok(Kind::Svg),
            Some("png") => Ok(Kind::Png),
            Some("html") | Some("htm") => Ok(Kind::Html),
            Some("gif") => Ok(Kind::Gif),
            _ => Err(format!(
                "{path}: cannot tell what to draw from the file name; \
                 end it in .svg or .png (a picture), .html (a solution player) or .gif (an animation)"
            )),
        }
    }

    /// True for the kinds that show a solution move by move.
    pub fn needs_solution(self) -> bool {
        matches!(self, Kind::Html | Kind::Gif)
    }
}

/// The file's bytes: `frames` is the start alone or a replayed solution;
/// a still picture (SVG, PNG) shows frame `at` (`at < frames.anchors.len()`).
pub fn draw(
    puzzle: &Puzzle,
    frames: &Frames,
    kind: Kind,
    at: usize,
    title: &str,
) -> Result<Vec<u8>, String> {
    match kind {
        Kind::Svg => {
            let style = svg::Style::of(puzzle);
            Ok(svg::document(puzzle, &style, &frames.anchors[at]).into_bytes())
        }
        Kind::Png => raster::png(puzzle, &frames.anchors[at]),
        Kind::Html => Ok(player::page(puzzle, frames, title).into_bytes()),
        Kind::Gif => raster::gif(puzzle, frames),
    }
}
