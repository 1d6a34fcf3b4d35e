//! The puzzle model: board, block types, positions and goals.

mod block;
mod board;
mod puzzle;

pub use block::{Axis, BlockType, Shape};
pub use board::{Board, CellKind, MAX_SIDE};
pub use puzzle::{Cell, Goal, GoalRequirement, Position, Puzzle};
