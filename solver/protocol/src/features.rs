//! The feature names of `solver features --json` (thesis §3.2.2, §7.1.5):
//! the solver writes them, the reasoner's similarity reads them. Renaming one
//! breaks every case base, so they are declared here once.

/// The search-space size (may be astronomically large).
pub const SEARCH_SPACE_SIZE: &str = "search_space_size";
/// How the size was found: 0 exact, 10 packing bound, 20 combinatorial bound.
pub const SEARCH_SPACE_SIZE_TYPE: &str = "search_space_size_type";
/// The decimal logarithm of the search-space size, exact in any magnitude.
pub const SEARCH_SPACE_LOG10: &str = "search_space_log10";
/// The puzzle's number of empty cells.
pub const NUM_OF_SPACES: &str = "num_of_spaces";

/// The thesis's features besides the search-space size, which similarity
/// compares unscaled.
pub const THESIS: [&str; 5] = [
    "branching_factor",
    "regular_shapes",
    "block_size",
    NUM_OF_SPACES,
    "puzzle_size",
];

/// Features the solver reports beyond the thesis's.
pub const EXTRA: [&str; 5] = [
    "master_distance",
    "block_types",
    "slider_share",
    "goal_blocks",
    "largest_block_to_spaces",
];

/// Every name in the `features` object of `solver features --json`, in order.
pub const ALL: [&str; 12] = [
    SEARCH_SPACE_SIZE,
    SEARCH_SPACE_SIZE_TYPE,
    THESIS[0],
    THESIS[1],
    THESIS[2],
    THESIS[3],
    THESIS[4],
    EXTRA[0],
    EXTRA[1],
    EXTRA[2],
    EXTRA[3],
    EXTRA[4],
];
