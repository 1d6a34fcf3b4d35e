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

#[cfg(test)]
mod tests {
    use super::*;

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
