//! Sliding-block puzzle solver library: the puzzle model, input formats, one
//! move generator, position encodings and stores, search algorithms,
//! heuristics, prunings, feature extraction and an independent verifier.
//! The `solver` binary is a thin command line over it.

pub mod formats;
pub mod model;
pub mod params;
pub mod report;
pub mod cli;
pub mod solution;
