//! Pictures of puzzles and their solutions, for people rather than programs:
//! an SVG of the board ([`svg`]), a PNG of it ([`raster`]), a self-contained
//! HTML page ([`player`]) that plays a solution and, with the solver's
//! WebAssembly module, lets a person play and edit the puzzle with hints,
//! and for a solution an animated GIF.
//! The positions come from the verifier's replay ([`frames`]); the output
//! kind from the file name's extension.

pub mod frames;
pub mod palette;
pub mod player;
#[cfg(not(target_arch = "wasm32"))]
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
    /// `.html`: the page that plays a solution, or the puzzle by hand.
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

    /// The kind for an output: a file by its extension; standard output
    /// (no file, or `-`) the page when a solution is shown move by move,
    /// else the SVG.
    pub fn for_output(path: Option<&str>, shows_solution: bool) -> Result<Kind, String> {
        match path {
            Some(path) if path != "-" => Kind::of_path(path),
            _ if shows_solution => Ok(Kind::Html),
            _ => Ok(Kind::Svg),
        }
    }

    /// True for the kinds that cannot be drawn without a solution.
    pub fn needs_solution(self) -> bool {
        matches!(self, Kind::Gif)
    }
}

/// The file's bytes: `frames` is the start alone or a replayed solution;
/// a still picture (SVG, PNG) shows frame `at` (`at < frames.anchors.len()`);
/// a page carries `module`, the solver compiled to WebAssembly, when given.
pub fn draw(
    puzzle: &Puzzle,
    frames: &Frames,
    kind: Kind,
    at: usize,
    title: &str,
    module: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    match kind {
        Kind::Svg => {
            let style = svg::Style::of(puzzle);
            Ok(svg::document(puzzle, &style, &frames.anchors[at]).into_bytes())
        }
        #[cfg(not(target_arch = "wasm32"))]
        Kind::Png => raster::png(puzzle, &frames.anchors[at]),
        Kind::Html => Ok(player::page(puzzle, frames, title, module).into_bytes()),
        #[cfg(not(target_arch = "wasm32"))]
        Kind::Gif => raster::gif(puzzle, frames),
        #[cfg(target_arch = "wasm32")]
        Kind::Png | Kind::Gif => Err("the browser build draws SVG only".to_string()),
    }
}
