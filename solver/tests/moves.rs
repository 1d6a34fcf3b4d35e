//! The move generator's shortcut for few spaces: only blocks beside an empty
//! cell are offered to the prunings, so every block that can step must be
//! among them, on random positions of every bundled puzzle.

mod common;

use common::{bundled_collection, random_walk};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::moves::MoveGenerator;
use solver::params::Metric;
use solver::solution::Direction;

#[test]
fn every_block_that_can_step_is_next_to_a_space() {
    let mut rng = ChaCha8Rng::seed_from_u64(2010);
    let mut checked = 0;
    for (file, puzzle) in bundled_collection() {
        let mut moves = MoveGenerator::new(&puzzle, Metric::Steps, &[]);
        let steps = if puzzle.instances() > 1000 { 5 } else { 100 };
        for (step, state) in random_walk(&puzzle, &mut moves, steps, &mut rng)
            .iter()
            .enumerate()
        {
            let mut near = vec![false; puzzle.instances()];
            moves.blocks_next_to_space(state, |i| near[i] = true);
            for (i, &offered) in near.iter().enumerate() {
                let steps = Direction::ALL.iter().any(|&d| moves.can_step(state, i, d));
                assert!(
                    offered || !steps,
                    "{}: block {i} can step but was not offered after {step} moves",
                    file.display()
                );
                checked += steps as usize;
            }
        }
    }
    assert!(checked > 1000, "only {checked} steppable blocks seen");
}
