//! The parameters that take one of a few fixed named values (algorithm,
//! resting-block pruning, metric, encoding, what a subgoal fixes; the
//! heuristics are an open set,
//! see [`crate::heuristic`]). Each is declared once with
//! `choices!`: its spelling on the command line, in the JSON and in case
//! bases is the one string written beside the variant, and its default is
//! named in the declaration.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Declares a choice parameter: the enum, its names, every value in order,
/// its default, `Display` and `FromStr`.
macro_rules! choices {
    (
        $(#[$meta:meta])*
        $ty:ident, default $default:ident {
            $( $(#[$vmeta:meta])* $var:ident = $name:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
        pub enum $ty {
            $( $(#[$vmeta])* #[serde(rename = $name)] #[value(name = $name)] $var, )+
        }

        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$var),+];

            /// The value's name on the command line, in the JSON and in case bases.
            pub fn name(self) -> &'static str {
                match self {
                    $( $ty::$var => $name, )+
                }
            }
        }

        impl Default for $ty {
            fn default() -> Self {
                $ty::$default
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                $ty::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = $ty::ALL.iter().map(|v| v.name()).collect();
                        format!("unknown {} '{s}': use one of {}", stringify!($ty).to_lowercase(), names.join(", "))
                    })
            }
        }
    };
}

choices! {
    /// Search algorithm.
    Algorithm, default Bfs {
        /// Breadth-first search: optimal, exhaustive.
        Bfs = "bfs",
        /// A* with `f = g + weight * h`.
        Astar = "astar",
        /// Iterative-deepening A*.
        Ida = "ida",
        /// Bidirectional breadth-first search (the goal must fix every block).
        Bidir = "bidir",
        /// Depth-first iterative deepening: IDA* with a zero heuristic.
        Dfid = "dfid",
        /// Near-optimal bidirectional heuristic search (the goal must fix
        /// every block; the heuristic is also built toward the start).
        Nbs = "nbs",
        /// Weighted A* over the fluid abstraction: the most numerous type of
        /// interchangeable 1x1 blocks becomes a fluid, counted per connected
        /// region of free cells; the plan found is refined into moves.
        Fluid = "fluid",
        /// Best-first width search over the fluid abstraction: states by
        /// their novelty (do they show an arrangement not seen before at
        /// their estimate?), then by the estimate; crosses the plateaus
        /// where weighted A* stalls, with long solutions.
        Bfws = "bfws",
    }
}

impl Algorithm {
    /// Whether the algorithm uses a heuristic (and its weight).
    pub fn informed(self) -> bool {
        matches!(
            self,
            Algorithm::Astar | Algorithm::Ida | Algorithm::Nbs | Algorithm::Fluid | Algorithm::Bfws
        )
    }

    /// Whether the algorithm weighs its heuristic by `weight` (BFWS orders
    /// by novelty and the bare estimate).
    pub fn weighted(self) -> bool {
        self.informed() && self != Algorithm::Bfws
    }

    /// Whether the algorithm searches the fluid abstraction (`fluid` and
    /// `bfws`): it needs units, plans steps and applies no prunings.
    pub fn fluid(self) -> bool {
        matches!(self, Algorithm::Fluid | Algorithm::Bfws)
    }

    /// Whether the algorithm keeps a visited set of position keys (the
    /// depth-first ones, IDA* and DFID, keep only their path; the fluid
    /// search stores abstract states of its own, whatever the key width).
    pub fn stores_positions(self) -> bool {
        !matches!(self, Algorithm::Ida | Algorithm::Dfid) && !self.fluid()
    }
}

choices! {
    /// Resting-block pruning (thesis §3.2.1), from none to the most pruning.
    Resting, default Off {
        /// No resting-block pruning.
        Off = "off",
        /// The moved block must rest (touch something on two sides) after
        /// its move; see `docs/search.md` for the steps metric.
        Relaxed = "relaxed",
        /// No block may hang after the move.
        Strict = "strict",
    }
}

impl Resting {
    /// 0 for off, 1 relaxed, 2 strict: how much it prunes.
    pub fn level(self) -> usize {
        self as usize
    }
}

choices! {
    /// What one action is.
    Metric, default Steps {
        /// One block moves one cell.
        Steps = "steps",
        /// One block moves one or more cells, also around corners.
        Moves = "moves",
    }
}

choices! {
    /// How positions are stored.
    EncodingKind, default Auto {
        /// The fastest whose table fits the memory budget: `packed`, else
        /// `sets` where it is narrower, else `rank`; `dense` for a BFS
        /// where a table of keys might crowd the memory out, the rank's
        /// array fits and most ranks are positions.
        Auto = "auto",
        /// Lexicographic multiset permutation rank (thesis §7.1.4).
        Rank = "rank",
        /// Each block's place as a bit field (a type's blocks sorted).
        Packed = "packed",
        /// `packed`, but each type of several blocks as one field: the rank
        /// of the set of their places. Narrower where many blocks are
        /// interchangeable; a little slower or faster than `packed`.
        Sets = "sets",
        /// The rank as the index of an array of 3 bits per possible rank
        /// (the layer mod 3 and a frontier bit), for a BFS or count: three
        /// eighths of a byte per rank instead of a key per stored
        /// position, smaller where most ranks are reachable (tile puzzles,
        /// small Klotski), slower than `packed`. Other searches use the
        /// rank's keys.
        Dense = "dense",
    }
}

choices! {
    /// Which blocks each subgoal taken from an easier variant's solution
    /// fixes: `solver variant --fix`, and a variant recipe's `fix` in the
    /// reasoner's case bases.
    SubgoalFix, default All {
        /// Every block the variant kept.
        All = "all",
        /// The master alone.
        Master = "master",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for h in Resting::ALL {
            assert_eq!(h.name().parse::<Resting>(), Ok(*h));
            assert_eq!(
                serde_json::to_string(h).unwrap(),
                format!("\"{}\"", h.name())
            );
        }
        assert_eq!(Algorithm::default(), Algorithm::Bfs);
        let err = "dfs".parse::<Algorithm>().unwrap_err();
        assert_eq!(
            err,
            "unknown algorithm 'dfs': use one of bfs, astar, ida, bidir, dfid, nbs, fluid, bfws"
        );
    }
}
