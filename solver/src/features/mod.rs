//! Feature extraction for the case-based reasoner (thesis §3.2.2, §5.5.1,
//! §7.1.5): the thesis's seven quantitative features plus five more that the
//! similarity needs, each as a `[low, high]` range. See `docs/features.md` for
//! every definition and why each extra feature helps.
//!
//! The search-space size is, in this order of preference: the exact number
//! of reachable positions when a breadth-first search from the start
//! finishes within a budget; the packing bound when its count finishes within
//! a call budget; else the combinatorial bound. Everything is deterministic:
//! the budgets count positions, work units and calls, never time.

pub mod bounds;
mod output;

pub use bounds::{multinomial, packing_bound, symbol_counts, Big, Packing};
pub use output::{FeatureRanges, FeaturesRecord, SizeNumber};

use crate::encoding::{PackedEncoding, PositionEncoding, RankEncoding};
use crate::model::{CellKind, Puzzle};
use crate::moves::{MoveGenerator, State};
use crate::params::{EncodingKind, Limits, Metric, SearchParams};
use crate::search::{count, Progress};
use crate::store::MAX_WORDS;

/// The budgets of one extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureOptions {
    /// Bytes of stored positions the breadth-first search may use; each
    /// position counts `ceil(key_bits / 8)` bytes in the narrower of the
    /// solver's two encodings (the thesis: 1 MB).
    pub budget_bytes: u64,
    /// Work units the breadth-first search may use. A position costs the
    /// cells its blocks cover (decoding rewrites them) plus, on the
    /// permutation rank, 4 units per open cell for one-word keys (encoding
    /// scans the board, for the position and each successor) or 32 per open
    /// cell and key word for wider ones (128-bit divisions), or, on the
    /// packed encoding, the blocks plus a 64th of the open cells. A unit
    /// costs roughly 0.03 µs, so this keeps big boards and big blocks fast
    /// while the byte budget rules small puzzles.
    pub budget_work: u64,
    /// Recursive calls the packing-bound count may make (the thesis: 1 million).
    pub packing_calls: u64,
}

impl Default for FeatureOptions {
    fn default() -> Self {
        FeatureOptions {
            budget_bytes: 1 << 20,
            budget_work: 16_000_000,
            packing_calls: 1_000_000,
        }
    }
}

/// How the search-space size was obtained (the thesis's type field, §7.1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeKind {
    /// Every reachable position was counted.
    Exact,
    /// The number of ways to pack the blocks on the board.
    Packing,
    /// The multinomial coefficient of the blocks and spaces.
    Combinatorial,
}

impl SizeKind {
    /// The thesis's code: 0 exact, 10 packing bound, 20 combinatorial bound.
    pub fn code(self) -> u8 {
        match self {
            SizeKind::Exact => 0,
            SizeKind::Packing => 10,
            SizeKind::Combinatorial => 20,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SizeKind::Exact => "exact",
            SizeKind::Packing => "packing bound",
            SizeKind::Combinatorial => "combinatorial bound",
        }
    }
}

/// What the budgeted breadth-first search did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploration {
    /// Positions the search may examine (from the two budgets).
    pub allowed: u64,
    /// True when it examined the whole reachable space.
    pub complete: bool,
    /// Distinct positions it reached: a lower bound on the reachable space.
    pub reached: u64,
    /// Positions whose successors it generated (the branching factor's sample).
    pub expanded: u64,
    /// Mean successors over those positions.
    pub branching_factor: f64,
    /// False when position keys are too wide for the visited set; the
    /// branching factor then comes from the start position alone.
    pub ran: bool,
}

/// Every feature of one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub size_kind: SizeKind,
    /// The search-space size of `size_kind`.
    pub search_space: Big,
    /// The combinatorial bound, always computed.
    pub combinatorial: Big,
    /// The packing count, when it was needed.
    pub packing: Option<Packing>,
    pub exploration: Exploration,
    pub regular_shapes: f64,
    pub block_size: f64,
    pub num_of_spaces: u64,
    pub puzzle_size: u64,
    pub master_distance: u64,
    pub block_types: u64,
    pub slider_share: f64,
    pub goal_blocks: u64,
    pub largest_block_to_spaces: f64,
    /// The blocks `--algorithm fluid` would treat as its fluid (the fewest
    /// over the goal sections; 0 where some section has none): not a
    /// feature similarity compares, a fact the reasoner plans by.
    pub fluid_units: u64,
    /// The puzzle's goal sections (0: it has no goal, so nothing to solve):
    /// a fact for the reasoner, which refuses such a puzzle at once.
    pub goal_sections: u64,
    /// `free`, `fixed` or `crowded`: whether every goal fixes every block,
    /// on a roomy or a crowded board ([`crate::search::pick::GoalKind`]):
    /// a fact the reasoner plans by (the bidirectional search serves a
    /// fixed goal), not a feature.
    pub goal_kind: &'static str,
    pub options: FeatureOptions,
}

/// Extracts every feature of `puzzle` within the budgets of `options`.
pub fn extract(puzzle: &Puzzle, options: &FeatureOptions) -> Features {
    let moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
    let rank = RankEncoding::new(puzzle, moves.shapes());
    let exploration = explore(puzzle, &moves, &rank, options);
    let combinatorial = Big::from_words(rank.bound());
    let (size_kind, search_space, packing) = if exploration.complete {
        (SizeKind::Exact, Big::from_u64(exploration.reached), None)
    } else {
        let packing = packing_bound(puzzle, options.packing_calls);
        match &packing {
            // A count of 0 cannot happen (the start is a packing); never trust it.
            Packing::Counted { value, .. } if !value.is_zero() => {
                (SizeKind::Packing, value.clone(), Some(packing))
            }
            _ => (
                SizeKind::Combinatorial,
                combinatorial.clone(),
                Some(packing),
            ),
        }
    };

    let instances = puzzle.instances();
    let per_instance = |f: &dyn Fn(usize) -> usize| -> usize {
        (0..puzzle.types.len())
            .map(|t| puzzle.counts[t] * f(t))
            .sum()
    };
    let share = |n: usize| {
        if instances == 0 {
            0.0
        } else {
            n as f64 / instances as f64
        }
    };
    let covered = per_instance(&|t| puzzle.types[t].shape.size());
    let rectangular = per_instance(&|t| puzzle.types[t].shape.is_rectangle() as usize);
    let sliders = per_instance(&|t| puzzle.types[t].slider.is_some() as usize);
    let spaces = spaces_at_start(puzzle);
    let largest = (0..puzzle.types.len())
        .filter(|&t| puzzle.counts[t] > 0)
        .map(|t| puzzle.types[t].shape.size())
        .max()
        .unwrap_or(0);
    let (master_distance, goal_blocks) = match puzzle.final_goal() {
        Some(goal) => (
            puzzle.goal_distance(&puzzle.start, goal) as u64,
            goal.requirements
                .iter()
                .map(|r| r.anchors.len() as u64)
                .sum(),
        ),
        None => (0, 0),
    };
    Features {
        size_kind,
        search_space,
        combinatorial,
        packing,
        exploration,
        regular_shapes: share(rectangular),
        block_size: share(covered),
        num_of_spaces: spaces as u64,
        puzzle_size: puzzle.board.open_cells() as u64,
        master_distance,
        block_types: puzzle.types.len() as u64,
        slider_share: share(sliders),
        goal_blocks,
        largest_block_to_spaces: largest as f64 / spaces.max(1) as f64,
        fluid_units: fluid_units(puzzle),
        goal_sections: puzzle.goals.len() as u64,
        goal_kind: crate::search::pick::goal_kind(puzzle, &Default::default()).name(),
        options: *options,
    }
}

/// See [`Features::fluid_units`].
fn fluid_units(puzzle: &Puzzle) -> u64 {
    puzzle
        .goals
        .iter()
        .map(|g| {
            crate::search::fluid::unit_type_for(puzzle, g, &[]).map_or(0, |t| puzzle.counts[t])
        })
        .min()
        .unwrap_or(0) as u64
}

/// Empty free cells of the start position (doors excluded, as in h1).
pub fn spaces_at_start(puzzle: &Puzzle) -> usize {
    puzzle
        .occupants(&puzzle.start)
        .iter()
        .enumerate()
        .filter(|&(c, o)| o.is_none() && puzzle.board.kind(c) == CellKind::Free)
        .count()
}

/// Widest packed key the feature search runs on (16 words): up to there the
/// packed encoding is much faster than the rank, whose multi-word arithmetic
/// divides 128-bit numbers for every cell.
const PACKED_BITS: u32 = 1024;

/// The budgeted breadth-first search from the start.
///
/// It runs on the packed encoding when its keys fit [`PACKED_BITS`]
/// (encoding is a few table lookups per block) and on the permutation rank
/// otherwise (which scans the board for every key); both explore the same
/// positions in the same order, so the choice changes speed only, and the
/// byte budget is charged at the narrower key whichever runs. The positions
/// it may examine are the smaller of `budget_bytes / key_bytes` and
/// `budget_work / work_per_position`.
pub fn explore(
    puzzle: &Puzzle,
    moves: &MoveGenerator,
    rank: &RankEncoding,
    options: &FeatureOptions,
) -> Exploration {
    let packed = PackedEncoding::new(puzzle, moves);
    let stored_bits = rank.key_bits().min(packed.key_bits()) as u64;
    let key_bytes = stored_bits.div_ceil(8).max(1);
    let open = puzzle.board.open_cells() as u64;
    // Decoding a position writes every covered cell; moves rewrite shapes.
    let covered: u64 = (0..puzzle.types.len())
        .map(|t| (puzzle.counts[t] * puzzle.types[t].shape.size()) as u64)
        .sum();
    let (encoding, bits, work_per_position) = if packed.key_bits() <= PACKED_BITS {
        (
            EncodingKind::Packed,
            packed.key_bits(),
            covered + puzzle.instances() as u64 + open / 64 + 1,
        )
    } else {
        (
            EncodingKind::Rank,
            rank.key_bits(),
            covered
                + match rank.words() {
                    1 => 4 * open.max(1),
                    w => 32 * open.max(1) * w as u64,
                },
        )
    };
    let allowed = (options.budget_bytes / key_bytes)
        .min(options.budget_work / work_per_position)
        .max(1);
    // The visited set stores key plus a 2-bit depth payload in whole bytes.
    if (bits as usize + 8).div_ceil(8) > MAX_WORDS * 8 {
        return start_only(puzzle, moves, allowed);
    }
    let params = SearchParams {
        encoding,
        ..SearchParams::default()
    };
    // BFS expands exactly `max_positions` positions (successors included), and
    // a space of exactly `allowed` positions is still counted in full.
    let limits = Limits {
        max_positions: Some(allowed),
        ..Limits::default()
    };
    let Ok(c) = count::reachable(puzzle, &params, &limits, Progress::disabled(), None, true) else {
        return start_only(puzzle, moves, allowed);
    };
    Exploration {
        allowed,
        complete: c.complete,
        reached: c.positions,
        expanded: c.examined,
        branching_factor: c
            .branching_factor()
            .expect("a count asked to tally its branching"),
        ran: true,
    }
}

/// The successors of the start position alone, when no search can run.
fn start_only(puzzle: &Puzzle, moves: &MoveGenerator, allowed: u64) -> Exploration {
    let mut moves = moves.clone();
    let mut state = State::new(puzzle);
    state.load(&puzzle.start, moves.shapes());
    let mut out = Vec::new();
    moves.generate(&state, &mut out);
    Exploration {
        allowed,
        complete: false,
        reached: 1,
        expanded: 1,
        branching_factor: out.len() as f64,
        ran: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;

    const KLOTSKI: &str = include_str!("../../../puzzles/klotski/classic.txt");

    fn puzzle(text: &str) -> Puzzle {
        native::parse(text, "test").expect("test puzzle parses")
    }

    #[test]
    fn classic_klotski_matches_the_thesis() {
        let f = extract(&puzzle(KLOTSKI), &FeatureOptions::default());
        assert_eq!(f.size_kind, SizeKind::Exact);
        assert_eq!(f.search_space.to_u128(), Some(25_955));
        assert!((f.exploration.branching_factor - 3.232364).abs() < 1e-6);
        assert_eq!(f.regular_shapes, 1.0);
        assert!((f.block_size - 1.8).abs() < 1e-12);
        assert_eq!(f.num_of_spaces, 2);
        assert_eq!(f.puzzle_size, 20);
        assert_eq!(f.master_distance, 3);
        assert_eq!(f.block_types, 4);
        assert_eq!(f.slider_share, 0.0);
        assert_eq!(f.goal_blocks, 1);
        assert_eq!(f.largest_block_to_spaces, 2.0);
        assert_eq!(f.combinatorial.to_u128(), Some(415_800));
    }

    #[test]
    fn small_budgets_fall_back_to_packing_then_combinatorial() {
        let p = puzzle(KLOTSKI);
        let tight = FeatureOptions {
            budget_bytes: 3000, // 3-byte keys: 1000 positions
            ..FeatureOptions::default()
        };
        let f = extract(&p, &tight);
        assert_eq!(f.size_kind, SizeKind::Packing);
        assert_eq!(f.exploration.allowed, 1000);
        assert_eq!(f.exploration.expanded, 1000);
        assert!(f.exploration.reached > 1000 && f.exploration.reached < 25_955);
        let v = f.search_space.to_u128().unwrap();
        assert!(v > 25_955 && v < 415_800);
        let f = extract(
            &p,
            &FeatureOptions {
                packing_calls: 100,
                ..tight
            },
        );
        assert_eq!(f.size_kind, SizeKind::Combinatorial);
        assert_eq!(f.search_space.to_u128(), Some(415_800));
    }

    #[test]
    fn the_branching_factor_averages_exactly_the_expanded_positions() {
        // One 1x1 master on an open 3x3 board, starting in a corner: the
        // corner has 2 successors, the two edge cells next to it 3 each.
        let p = puzzle(
            "!\n@\n!\n#####\n#@  #\n#   #\n#   #\n#####\n!\n#####\n#   #\n#   #\n#  @#\n#####\n!\n",
        );
        let run = |bytes| {
            extract(
                &p,
                &FeatureOptions {
                    budget_bytes: bytes,
                    ..FeatureOptions::default()
                },
            )
            .exploration
        };
        let one = run(1);
        assert_eq!((one.expanded, one.branching_factor), (1, 2.0));
        let three = run(3);
        assert_eq!(three.expanded, 3);
        assert!((three.branching_factor - 8.0 / 3.0).abs() < 1e-12);
        // All nine positions: corners 2, edges 3, centre 4: 24 / 9.
        let all = run(9);
        assert!(all.complete);
        assert_eq!(all.reached, 9);
        assert!((all.branching_factor - 24.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn extraction_is_deterministic() {
        let p = puzzle(KLOTSKI);
        let o = FeatureOptions {
            budget_bytes: 10_000,
            ..FeatureOptions::default()
        };
        assert_eq!(extract(&p, &o), extract(&p, &o));
    }
}
