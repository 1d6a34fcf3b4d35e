//! Why a search cannot start: one typed error for the search library, so a
//! caller can tell the cases apart (and the command line can say what to
//! change) instead of matching message text.

use std::fmt;

/// A search refused before it began: the parameters do not fit the puzzle.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SearchError {
    /// The puzzle has no goal section to search for.
    NoGoal,
    /// `--lock` names a block identifier the puzzle does not have.
    UnknownLock(char),
    /// A parameter outside its declared range (the message names it).
    OutOfRange(String),
    /// The heuristic cannot be built for this puzzle (the message says why).
    Heuristic(String),
    /// Bidirectional search (`bidir` or `nbs`, named first) with these
    /// prunings, which make moves one-way.
    BidirOneWay(&'static str, Vec<String>),
    /// Bidirectional search (`bidir` or `nbs`) on a goal that leaves some
    /// block free.
    BidirNeedsFixedGoal(&'static str),
    /// NBS with a setting that would lose its optimality (the message says which).
    NbsSetting(String),
    /// The puzzle's position keys are wider than the visited set stores.
    KeyTooWide { bits: u32, max: u32 },
    /// `--encoding dense` for a BFS whose array of 3 bits per rank does
    /// not fit the memory budget (`bytes` against `budget`).
    DenseTooLarge { bytes: u64, budget: u64 },
    /// `--spill` with settings it cannot serve (the message says which).
    SpillUnsupported(String),
    /// `--algorithm fluid` with a puzzle or settings it cannot serve, or a
    /// plan it could not refine (the message says which).
    Fluid(String),
    /// The spill folder cannot be written, or filled up (the message says
    /// which folder and what to do).
    Spill(String),
    /// A spilled search stopped by the signal named (SIGINT, SIGTERM); its
    /// folder was removed. The binary exits with 128 + the signal's number
    /// (`spill::interrupted`).
    Interrupted(&'static str),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::NoGoal => {
                write!(
                    f,
                    "the puzzle has no goal section: add a goal grid after the start grid"
                )
            }
            SearchError::UnknownLock(id) => {
                write!(
                    f,
                    "--lock names block '{id}', which the puzzle does not have"
                )
            }
            SearchError::OutOfRange(message)
            | SearchError::Heuristic(message)
            | SearchError::SpillUnsupported(message)
            | SearchError::Spill(message)
            | SearchError::Fluid(message)
            | SearchError::NbsSetting(message) => {
                write!(f, "{message}")
            }
            SearchError::BidirOneWay(algorithm, names) => write!(
                f,
                "--algorithm {algorithm} needs a symmetric search graph, which these prunings make one-way: {}; drop them or use another algorithm",
                names.join(", ")
            ),
            SearchError::BidirNeedsFixedGoal(algorithm) => write!(
                f,
                "--algorithm {algorithm} needs a goal that fixes every block (like the 15-puzzle's): use --algorithm astar for this puzzle"
            ),
            SearchError::Interrupted(signal) => write!(
                f,
                "stopped by {signal}; the spill folder of the search was removed"
            ),
            SearchError::DenseTooLarge { bytes, budget } => write!(
                f,
                "--encoding dense needs {} for this puzzle's array (3 bits per rank), more than the {} MiB of memory it may hold (--max-memory, else the memory available): use --encoding auto, rank or packed",
                match *bytes >= 1 << 50 {
                    true => "over 1 PiB".to_string(),
                    false => format!("{} MiB", bytes.div_ceil(1 << 20)),
                },
                budget >> 20
            ),
            SearchError::KeyTooWide { bits, max } => write!(
                f,
                "this puzzle's positions take {bits}-bit keys, more than the {max} bits the visited set stores: use --algorithm ida or dfid (they store no positions) or a smaller board"
            ),
        }
    }
}

impl std::error::Error for SearchError {}
