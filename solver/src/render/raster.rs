//! Pixels from the SVG pictures: PNG through resvg (a well-kept, pure-Rust
//! SVG renderer, so no browser or system library is needed) and an animated
//! GIF (the `gif` crate) of the solution for places where HTML cannot go.

use resvg::{tiny_skia, usvg};

use super::frames::Frames;
use super::svg::{self, Style};
use crate::model::Puzzle;

/// Largest side of a GIF frame in pixels: bigger boards are scaled down so
/// that an animation of a long solution stays a reasonable file.
const GIF_MAX_SIDE: f32 = 800.0;
/// Time each GIF frame is shown, in hundredths of a second.
const GIF_DELAY: u16 = 35;
/// The last frame (the goal) is held longer before the animation loops.
const GIF_FINAL_DELAY: u16 = 250;

/// Rasterises an SVG document at `scale` into RGBA pixels.
fn rasterise(svg_text: &str, scale: f32) -> Result<tiny_skia::Pixmap, String> {
    let tree = usvg::Tree::from_str(svg_text, &usvg::Options::default())
        .map_err(|e| format!("internal error: the picture is not valid SVG: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("the picture has no size")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the picture is too large to rasterise")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A PNG of the position with these block anchors.
pub fn png(puzzle: &Puzzle, anchors: &[usize]) -> Result<Vec<u8>, String> {
    let style = Style::of(puzzle);
    let pixmap = rasterise(&svg::document(puzzle, &style, anchors), 1.0)?;
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// An animated GIF: every frame, looping, the goal held a little longer.
pub fn gif(puzzle: &Puzzle, frames: &Frames) -> Result<Vec<u8>, String> {
    let style = Style::of(puzzle);
    let scale = (GIF_MAX_SIDE / style.width.max(style.height) as f32).min(1.0);
    let draw = |anchors: &[usize]| rasterise(&svg::document(puzzle, &style, anchors), scale);
    let first = draw(&frames.anchors[0])?;
    let (w, h) = (first.width() as u16, first.height() as u16);
    let mut out = Vec::new();
    let mut encoder =
        gif::Encoder::new(&mut out, w, h, &[]).map_err(|e| format!("cannot start the GIF: {e}"))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| format!("cannot write the GIF: {e}"))?;
    let mut pixmap = first;
    for k in 0..frames.anchors.len() {
        if k > 0 {
            pixmap = draw(&frames.anchors[k])?;
        }
        let mut frame = gif::Frame::from_rgba_speed(w, h, pixmap.data_mut(), 10);
        frame.delay = if k + 1 == frames.anchors.len() {
            GIF_FINAL_DELAY
        } else {
            GIF_DELAY
        };
        encoder
            .write_frame(&frame)
            .map_err(|e| format!("cannot write the GIF: {e}"))?;
    }
    drop(encoder);
    Ok(out)
}
