//! Sliding-block puzzle solver library: the puzzle model, input formats, one
//! move generator, position encodings and stores, search algorithms,
//! heuristics, prunings, feature extraction and an independent verifier.
//! The `solver` binary is a thin command line over it.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod clock;
pub mod encoding;
pub mod features;
pub mod formats;
#[cfg(not(target_arch = "wasm32"))]
pub mod generate;
pub mod geometry;
pub mod heuristics;
pub mod improve;
pub mod model;
pub mod moves;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod params;
pub mod pruning;
pub mod render;
pub mod report;
pub mod search;
pub mod solution;
pub mod store;
pub mod variant;
pub mod verify;
