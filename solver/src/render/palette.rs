//! Block colours: one per block type, so interchangeable blocks (instances of
//! one type) share a colour and every unique block has its own. The master is
//! always red, the colour a player looks for first; the others take a
//! qualitative palette in type order, then evenly spread hues when a puzzle
//! has more types than the palette.

/// Qualitative colours that stay apart from each other and from the red
/// master (Tableau 10 without its red, then lighter companions).
const PALETTE: [&str; 17] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d",
    "#9edae5",
];

/// The master block's colour.
pub const MASTER: &str = "#d62728";

/// Colour of each block type, parallel to `puzzle.types`.
pub fn type_colours(is_master: impl Iterator<Item = bool>) -> Vec<String> {
    let mut next = 0;
    is_master
        .map(|master| {
            if master {
                return MASTER.to_string();
            }
            let k = next;
            next += 1;
            match PALETTE.get(k) {
                Some(c) => c.to_string(),
                // Golden-angle hues: neighbours in type order differ most.
                None => format!("hsl({:.0},55%,60%)", (k as f64 * 137.508) % 360.0),
            }
        })
        .collect()
}

/// Ink for marks drawn on a block of colour `fill` (a colour of
/// [`type_colours`]): white or near-black, whichever stands out more from
/// it (WCAG contrast); white for a colour it cannot read.
pub fn ink(fill: &str) -> &'static str {
    const DARK: &str = "#222222";
    let grey = 0x22 as f64 / 255.0;
    let dark = luminance(grey, grey, grey);
    match rgb(fill) {
        Some((r, g, b)) => {
            let l = luminance(r, g, b);
            if (l + 0.05) / (dark + 0.05) > 1.05 / (l + 0.05) {
                DARK
            } else {
                "#ffffff"
            }
        }
        None => "#ffffff",
    }
}

/// Relative luminance of an sRGB colour with channels in 0..=1.
fn luminance(r: f64, g: f64, b: f64) -> f64 {
    let linear = |v: f64| {
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// Channels (0..=1) of `#rrggbb` or `hsl(H,S%,L%)`, the forms this module writes.
fn rgb(colour: &str) -> Option<(f64, f64, f64)> {
    if let Some(hex) = colour.strip_prefix('#') {
        if hex.len() != 6 {
            return None;
        }
        let channel = |i: usize| {
            u8::from_str_radix(hex.get(i..i + 2)?, 16)
                .ok()
                .map(|v| v as f64 / 255.0)
        };
        return Some((channel(0)?, channel(2)?, channel(4)?));
    }
    let inner = colour.strip_prefix("hsl(")?.strip_suffix(')')?;
    let mut parts = inner.split(',').map(|p| p.trim().trim_end_matches('%'));
    let h: f64 = parts.next()?.parse().ok()?;
    let s = parts.next()?.parse::<f64>().ok()? / 100.0;
    let l = parts.next()?.parse::<f64>().ok()? / 100.0;
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = (h.rem_euclid(360.0)) / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    Some((r + m, g + m, b + m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ink_stands_out_from_dark_and_light_fills() {
        assert_eq!(ink(MASTER), "#ffffff");
        assert_eq!(ink("#1f77b4"), "#ffffff");
        assert_eq!(ink("#dbdb8d"), "#222222");
        assert_eq!(ink("#9edae5"), "#222222");
        assert_eq!(ink("hsl(0,55%,60%)"), ink("#d4706a"));
        assert_eq!(rgb("hsl(120,100%,50%)"), Some((0.0, 1.0, 0.0)));
        assert_eq!(ink("rebeccapurple"), "#ffffff");
    }

    #[test]
    fn the_master_is_red_and_other_types_differ() {
        let colours = type_colours([false, true, false].into_iter());
        assert_eq!(colours[1], MASTER);
        assert_ne!(colours[0], colours[2]);
        let many = type_colours(std::iter::repeat_n(false, 40));
        let distinct: std::collections::HashSet<_> = many.iter().collect();
        assert_eq!(distinct.len(), 40, "{many:?}");
    }
}
