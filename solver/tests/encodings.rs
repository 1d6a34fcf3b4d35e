//! Every encoding gives a position back: for random positions of every bundled
//! puzzle (reached by seeded random walks from the start), encode then decode
//! returns the same canonical position, and rank and packed agree on which
//! positions are equal.

mod common;

use common::{bundled_collection, bundled_puzzles, random_walk};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::encoding::{PackedEncoding, PositionEncoding, RankEncoding};
use solver::moves::{MoveGenerator, State};
use solver::params::Metric;

#[test]
fn rank_and_packed_round_trip_random_positions_of_every_bundled_puzzle() {
    let files = bundled_puzzles();
    assert!(
        files.len() >= 40,
        "expected the whole collection, found {}",
        files.len()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(2010);
    for (file, puzzle) in bundled_collection() {
        let mut moves = MoveGenerator::new(&puzzle, Metric::Moves, &[]);
        let mut rank = RankEncoding::new(&puzzle, moves.shapes());
        let mut packed = PackedEncoding::new(&puzzle, &moves);
        let mut decoded = State::new(&puzzle);
        let steps = if puzzle.instances() > 1000 { 20 } else { 200 };
        for (step, state) in random_walk(&puzzle, &mut moves, steps, &mut rng)
            .iter()
            .enumerate()
        {
            for encoding in [&mut rank as &mut dyn Roundtrip, &mut packed] {
                let back = encoding.round_trip(state, &mut decoded);
                assert_eq!(
                    back.to_position(&puzzle),
                    state.to_position(&puzzle),
                    "{}: {} lost the position after {step} random moves",
                    file.display(),
                    encoding.label()
                );
                // The decoder's owner map must match its anchors.
                let mut rebuilt = back.clone();
                rebuilt.rebuild_owner(moves.shapes());
                assert_eq!(
                    rebuilt.owner,
                    back.owner,
                    "{}: {} owner map",
                    file.display(),
                    encoding.label()
                );
            }
        }
    }
}

/// Object-safe view of an encoding for the test loop.
trait Roundtrip {
    fn label(&self) -> &'static str;
    fn round_trip<'a>(&mut self, state: &State, out: &'a mut State) -> &'a State;
}

impl<E: PositionEncoding> Roundtrip for E {
    fn label(&self) -> &'static str {
        self.name()
    }

    fn round_trip<'a>(&mut self, state: &State, out: &'a mut State) -> &'a State {
        let mut key = vec![0u64; self.words()];
        self.encode(state, &mut key);
        // A key wider than key_bits would be cut short in the visited set,
        // where two positions could then collide.
        let bits = self.key_bits() as usize;
        for (i, &w) in key.iter().enumerate() {
            let above = bits.saturating_sub(64 * i);
            if above < 64 {
                assert_eq!(w >> above, 0, "{}: key exceeds {bits} bits", self.name());
            }
        }
        self.decode(&key, out);
        out
    }
}
