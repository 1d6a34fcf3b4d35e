//! The positions a picture of a solution shows: the start, then the position
//! after each move (solution line). They come from the independent verifier's
//! replay ([`crate::verify::replay_observed`]), so the renderer has no move
//! logic of its own and draws only solutions that are legal.

use crate::model::Puzzle;
use crate::solution::SolutionMove;
use crate::verify::replay_observed;

/// Where every block instance is, frame by frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frames {
    /// `anchors[k][i]`: anchor cell of instance `i` after `k` moves (frame 0
    /// is the start). An instance index is one physical block throughout.
    pub anchors: Vec<Vec<usize>>,
    /// The solution lines, `moves[k]` leading from frame `k` to frame `k + 1`.
    pub moves: Vec<String>,
    /// True when the last frame reaches every goal section.
    pub solved: bool,
}

impl Frames {
    /// The start position alone.
    pub fn start(puzzle: &Puzzle) -> Frames {
        Frames {
            anchors: vec![start_anchors(puzzle)],
            moves: Vec::new(),
            solved: false,
        }
    }

    /// Replays a solution; an illegal move is an error naming it.
    pub fn replay(puzzle: &Puzzle, moves: &[SolutionMove]) -> Result<Frames, String> {
        let mut anchors = vec![start_anchors(puzzle)];
        anchors.reserve(moves.len());
        let replay = replay_observed(puzzle, moves, |_, now| anchors.push(now.to_vec()))
            .map_err(|e| format!("the solution is not legal: {e}"))?;
        Ok(Frames {
            anchors,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            solved: replay.solved,
        })
    }
}

fn start_anchors(puzzle: &Puzzle) -> Vec<usize> {
    puzzle.start.anchors.iter().map(|&a| a as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::native;
    use crate::solution;

    #[test]
    fn one_frame_per_move_and_blocks_keep_their_identity() {
        let text = "!\n@\na\n!\n#####\n#@ a#\n#   #\n#####\n!\n#####\n#   #\n# @ #\n#####\n!\n";
        let p = native::parse(text, "t").unwrap();
        let moves = solution::parse("a 1,3 D\n@ 1,1 RD\n", "s").unwrap();
        let f = Frames::replay(&p, &moves).unwrap();
        assert_eq!(f.anchors.len(), 3);
        assert!(f.solved);
        let w = p.board.width();
        assert_eq!(f.anchors[0], vec![w + 1, w + 3]);
        assert_eq!(f.anchors[1], vec![w + 1, 2 * w + 3]);
        assert_eq!(
            f.anchors.last().map(Vec::as_slice),
            Some(&[2 * w + 2, 2 * w + 3][..])
        );
        assert_eq!(f.moves, vec!["a 1,3 D", "@ 1,1 RD"]);
        let illegal = solution::parse("@ 1,1 U\n", "s").unwrap();
        let e = Frames::replay(&p, &illegal).unwrap_err();
        assert!(e.contains("leaves the board") || e.contains("wall"), "{e}");
    }
}
