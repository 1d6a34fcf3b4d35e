//! Pixels from the SVG pictures: PNG through resvg (a well-kept, pure-Rust
//! SVG renderer, so no browser or system library is needed) and an animated
//! GIF (the `gif` crate) of the solution for places where HTML cannot go.
//! The labels are drawn with one font carried in the binary ([`FONT`]), so
//! they look the same on every machine and need no system fonts.

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
/// Most frames in a GIF: a longer solution is shown by evenly spaced
/// positions (the start and the goal always among them), so that drawing it
/// stays a matter of seconds (Sunshine's 1,308 moves took 68 s and 44 MB).
pub const GIF_MAX_FRAMES: usize = 300;
/// Most pixels drawn for a GIF in all (frames times frame size): big boards
/// get fewer frames. Drawing and quantising take about 100 ns a pixel, so
/// this is a few seconds.
const GIF_MAX_PIXELS: u64 = 40_000_000;
/// The GIF encoder's colour quantisation speed (1 best to 30 fastest): the
/// pictures are flat colours, which the fastest setting keeps.
const GIF_QUANTISE_SPEED: i32 = 30;

/// The labels' font: DejaVu Sans Bold cut down to printable ASCII (block
/// identifiers are ASCII), about 11 KB; its licence is `font/LICENSE.txt`.
const FONT: &[u8] = include_bytes!("font/DejaVuSans-Bold-ascii.ttf");

/// Parsing options whose font database holds [`FONT`] alone, under its own
/// family name ([`svg::FONT_FAMILY`]) and as every generic family, so any
/// text in the picture is drawn with it.
fn options() -> usvg::Options<'static> {
    let mut options = usvg::Options {
        font_family: svg::FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    let fonts = options.fontdb_mut();
    fonts.load_font_data(FONT.to_vec());
    fonts.set_sans_serif_family(svg::FONT_FAMILY);
    fonts.set_serif_family(svg::FONT_FAMILY);
    fonts.set_monospace_family(svg::FONT_FAMILY);
    options
}

/// Rasterises an SVG document at `scale` into RGBA pixels.
fn rasterise(
    svg_text: &str,
    options: &usvg::Options,
    scale: f32,
) -> Result<tiny_skia::Pixmap, String> {
    let tree = usvg::Tree::from_str(svg_text, options)
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
    let pixmap = rasterise(&svg::document(puzzle, &style, anchors), &options(), 1.0)?;
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Which of `count` positions a GIF of frames `w` x `h` pixels shows: all of
/// them, or at most [`GIF_MAX_FRAMES`] (fewer on big boards, within
/// [`GIF_MAX_PIXELS`]) evenly spaced, the first and the last among them.
pub fn gif_sample(count: usize, w: u32, h: u32) -> Vec<usize> {
    let by_pixels = GIF_MAX_PIXELS / (u64::from(w) * u64::from(h)).max(1);
    let most = (by_pixels as usize).clamp(2, GIF_MAX_FRAMES);
    if count <= most {
        return (0..count).collect();
    }
    let mut picked: Vec<usize> = (0..most).map(|k| k * (count - 1) / (most - 1)).collect();
    picked.dedup();
    picked
}

/// An animated GIF of the frames [`gif_sample`] picks, looping, the goal
/// held a little longer.
pub fn gif(puzzle: &Puzzle, frames: &Frames) -> Result<Vec<u8>, String> {
    let style = Style::of(puzzle);
    let scale = (GIF_MAX_SIDE / style.width.max(style.height) as f32).min(1.0);
    let options = options();
    let draw =
        |anchors: &[usize]| rasterise(&svg::document(puzzle, &style, anchors), &options, scale);
    let first = draw(&frames.anchors[0])?;
    let shown = gif_sample(frames.anchors.len(), first.width(), first.height());
    let (w, h) = (first.width() as u16, first.height() as u16);
    let mut out = Vec::new();
    let mut encoder =
        gif::Encoder::new(&mut out, w, h, &[]).map_err(|e| format!("cannot start the GIF: {e}"))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| format!("cannot write the GIF: {e}"))?;
    let mut pixmap = first;
    for (n, &k) in shown.iter().enumerate() {
        if k > 0 {
            pixmap = draw(&frames.anchors[k])?;
        }
        let mut frame = gif::Frame::from_rgba_speed(w, h, pixmap.data_mut(), GIF_QUANTISE_SPEED);
        frame.delay = if n + 1 == shown.len() {
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

#[cfg(test)]
mod tests {
    use super::gif_sample;

    #[test]
    fn the_carried_font_is_found_by_the_family_the_svg_names() {
        let options = super::options();
        assert_eq!(options.fontdb.len(), 1);
        let face = options.fontdb.faces().next().unwrap();
        assert!(
            face.families
                .iter()
                .any(|(name, _)| name == super::svg::FONT_FAMILY),
            "{:?}",
            face.families
        );
        // A label drawn with it leaves white pixels; without a font it would not.
        let text = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\">\
             <rect width=\"40\" height=\"40\" fill=\"#000000\"/>\
             <text x=\"20\" y=\"20\" fill=\"#ffffff\" font-family=\"{}, sans-serif\" font-size=\"16\" \
             font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\">8</text></svg>",
            super::svg::FONT_FAMILY
        );
        let pixmap = super::rasterise(&text, &options, 1.0).unwrap();
        let white = pixmap.pixels().iter().filter(|p| p.red() > 250).count();
        assert!(white > 20, "{white} label pixels");
    }

    #[test]
    fn long_solutions_are_sampled_evenly_from_start_to_goal() {
        assert_eq!(gif_sample(5, 100, 100), vec![0, 1, 2, 3, 4]);
        let s = gif_sample(1309, 100, 100);
        assert_eq!(s.len(), super::GIF_MAX_FRAMES);
        assert_eq!((s[0], *s.last().unwrap()), (0, 1308));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        // Big frames: fewer of them, still the start and the goal.
        let big = gif_sample(1309, 800, 800);
        assert!(big.len() < s.len() && big.len() >= 2, "{}", big.len());
        assert_eq!((big[0], *big.last().unwrap()), (0, 1308));
    }
}
