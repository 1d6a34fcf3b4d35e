//! The one puzzle builder behind every format. A parser reads its own syntax
//! and hands the builder the board's cells, the block types, the blocks of
//! the start position and the goal requirements, each with the place in the
//! file it came from; the builder checks what every format must respect
//! (board size, unique master, doors for the master only, blocks on the
//! board, goals reachable in principle, sliders that can slide) and
//! constructs the [`Puzzle`]. So a rule is written once, and an error from
//! any format names the file, line and column of the text that broke it.

use std::collections::HashMap;

use super::error::{Loc, ParseError};
use super::grid::slider_can_slide;
use super::ids::IdPool;
use super::native::MASTER_ID;
use crate::model::{
    Axis, BlockType, Board, Cell, CellKind, Goal, GoalRequirement, Position, Puzzle, Shape,
    MAX_SIDE,
};

/// A block type handed to the builder and where it was declared.
struct TypeDraft {
    block: BlockType,
    at: Loc,
    /// Anchor cells of the start position's instances.
    anchors: Vec<Cell>,
}

/// Collects a puzzle's parts; [`PuzzleBuilder::build`] gives the [`Puzzle`].
pub struct PuzzleBuilder<'f> {
    file: &'f str,
    /// Where the board is drawn (its first row), for errors about it as a whole.
    at: Loc,
    height: usize,
    width: usize,
    cells: Vec<CellKind>,
    /// Whether a block of the start position covers each cell.
    occupied: Vec<bool>,
    types: Vec<TypeDraft>,
    /// Types made by [`PuzzleBuilder::type_for_shape`], by shape.
    by_shape: HashMap<Shape, usize>,
    ids: IdPool,
    /// Goal sections: per type, the wanted anchor cells.
    goals: Vec<Vec<Vec<Cell>>>,
    metadata: Metadata,
}

impl<'f> PuzzleBuilder<'f> {
    /// A builder for a `height` x `width` board of free cells drawn at `at`
    /// in `file`; an error if the board exceeds [`MAX_SIDE`].
    pub fn new(
        file: &'f str,
        height: usize,
        width: usize,
        at: Loc,
    ) -> Result<PuzzleBuilder<'f>, ParseError> {
        check_size(file, at, height, width)?;
        let mut ids = IdPool::new();
        ids.reserve(MASTER_ID);
        Ok(PuzzleBuilder {
            file,
            at,
            height,
            width,
            cells: vec![CellKind::Free; height * width],
            occupied: vec![false; height * width],
            types: Vec::new(),
            by_shape: HashMap::new(),
            ids,
            goals: Vec::new(),
            metadata: Vec::new(),
        })
    }

    /// The error for `message` at `at` in this file.
    pub fn error(&self, at: Loc, message: impl Into<String>) -> ParseError {
        ParseError::at(self.file, at, message)
    }

    /// The cell index of `(row, col)`.
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// Sets what a cell is (before any block is placed on it).
    pub fn set_kind(&mut self, cell: usize, kind: CellKind) {
        self.cells[cell] = kind;
    }

    /// A door drawn in a goal grid, at a cell the start grid may show the
    /// master on: an error where the start grid has a wall.
    pub fn goal_door(&mut self, cell: usize, at: Loc) -> Result<(), ParseError> {
        if self.cells[cell] == CellKind::Wall {
            return Err(self.error(
                at,
                "this goal marks a door (-) where the start grid has a wall",
            ));
        }
        self.cells[cell] = CellKind::Door;
        Ok(())
    }

    /// Declares a block type (its identifier is then taken); returns its index.
    /// A type that gets no block in the start position is left out of the puzzle.
    pub fn declare(&mut self, block: BlockType, at: Loc) -> usize {
        self.ids.reserve(block.id);
        self.types.push(TypeDraft {
            block,
            at,
            anchors: Vec::new(),
        });
        self.types.len() - 1
    }

    /// The interchangeable (non-master) type of blocks of `shape`, declared
    /// on first use and named `preferred` when that identifier is usable and
    /// free, else a fresh one.
    pub fn type_for_shape(
        &mut self,
        shape: &Shape,
        preferred: char,
        at: Loc,
    ) -> Result<usize, ParseError> {
        if let Some(&t) = self.by_shape.get(shape) {
            return Ok(t);
        }
        let Some(id) = self.ids.take(Some(preferred)) else {
            return Err(self.error(at, "too many block shapes: no identifier left for this one"));
        };
        let block = BlockType {
            id,
            shape: shape.clone(),
            slider: None,
            is_master: false,
        };
        let t = self.declare(block, at);
        self.by_shape.insert(shape.clone(), t);
        Ok(t)
    }

    /// The type made by [`PuzzleBuilder::type_for_shape`] for `shape`, if any.
    pub fn shape_type(&self, shape: &Shape) -> Option<usize> {
        self.by_shape.get(shape).copied()
    }

    /// The master type, if one is declared.
    pub fn master(&self) -> Option<usize> {
        self.types.iter().position(|t| t.block.is_master)
    }

    /// The shape of a declared type.
    pub fn shape(&self, block_type: usize) -> &Shape {
        &self.types[block_type].block.shape
    }

    /// Places a block of the start position with its anchor at `anchor`
    /// (written at `at`): on the board, on no wall, on a door only if it is
    /// the master, over no other block, and the master at most once.
    pub fn place(&mut self, block_type: usize, anchor: usize, at: Loc) -> Result<(), ParseError> {
        let block = &self.types[block_type].block;
        if block.is_master && !self.types[block_type].anchors.is_empty() {
            return Err(self.error(
                at,
                format!("the master block '{MASTER_ID}' appears more than once; it must be unique"),
            ));
        }
        let Some(cells) = self.covered(block, anchor) else {
            return Err(self.error(
                at,
                format!("block '{}' does not fit on the board here", block.id),
            ));
        };
        for &x in &cells {
            let problem = match self.cells[x] {
                CellKind::Wall => Some("stands on a wall"),
                CellKind::Door if !block.is_master => {
                    Some("stands on a door cell (-), which only the master may occupy")
                }
                _ if self.occupied[x] => Some("overlaps another block"),
                _ => None,
            };
            if let Some(problem) = problem {
                return Err(self.error(at, format!("block '{}' {problem}", block.id)));
            }
        }
        for x in cells {
            self.occupied[x] = true;
        }
        self.types[block_type].anchors.push(anchor as Cell);
        Ok(())
    }

    /// The cells a block of this type covers when anchored at `anchor`, or
    /// `None` if part of it would leave the board.
    fn covered(&self, block: &BlockType, anchor: usize) -> Option<Vec<usize>> {
        let (height, width) = (self.height, self.width);
        let (row, col) = (anchor / self.width, anchor % self.width);
        block
            .shape
            .offsets()
            .iter()
            .map(|&(dr, dc)| {
                let (r, c) = (row as i64 + dr as i64, col as i64 + dc as i64);
                let inside = r >= 0 && c >= 0 && r < height as i64 && c < width as i64;
                inside.then(|| r as usize * width + c as usize)
            })
            .collect()
    }

    /// Opens the next goal section (all but the last are subgoals).
    pub fn goal_section(&mut self) {
        self.goals.push(vec![Vec::new(); self.types.len()]);
    }

    /// Requires, in the open goal section, a block of `block_type` anchored at
    /// `anchor` (written at `at`): it must fit where such a block may stand,
    /// and the start position must have enough blocks of its type. Place
    /// every block of the start position first.
    pub fn want(&mut self, block_type: usize, anchor: usize, at: Loc) -> Result<(), ParseError> {
        let block = &self.types[block_type].block;
        let (id, is_master) = (block.id, block.is_master);
        let fits = self.covered(block, anchor).is_some_and(|cells| {
            cells.iter().all(|&x| match self.cells[x] {
                CellKind::Wall => false,
                CellKind::Door => is_master,
                CellKind::Free => true,
            })
        });
        if !fits {
            let or_door = if is_master { "" } else { " or a door" };
            return Err(self.error(
                at,
                format!("the goal places block '{id}' on a wall{or_door}, where it can never be"),
            ));
        }
        let available = self.types[block_type].anchors.len();
        let section = self.goals.last_mut().expect("goal_section() opens one");
        section.resize(self.types.len(), Vec::new());
        section[block_type].push(anchor as Cell);
        let wanted = section[block_type].len();
        if wanted > available {
            let message = if is_master && available == 0 {
                format!(
                    "the goal places the master '{MASTER_ID}' but the start position has no master"
                )
            } else if is_master {
                format!(
                    "the goal places the master '{MASTER_ID}' {wanted} times; there is one master"
                )
            } else {
                format!(
                    "the goal places {wanted} block(s) of type '{id}' but the start position has {available}"
                )
            };
            return Err(self.error(at, message));
        }
        Ok(())
    }

    /// Adds `key: value` metadata lines; a `name` key names the puzzle.
    pub fn metadata(&mut self, lines: impl IntoIterator<Item = (String, String)>) {
        self.metadata.extend(lines);
    }

    /// Checks what needs the whole puzzle (some block in the start position,
    /// every slider able to slide) and constructs it. Types without blocks
    /// are left out. With `goal_at`, a puzzle without a goal section is an
    /// error there (the place where a goal section would go).
    pub fn build(self, goal_at: Option<Loc>) -> Result<Puzzle, ParseError> {
        if self.types.iter().all(|t| t.anchors.is_empty()) {
            let at = Loc::new(self.at.line, 0);
            return Err(self.error(at, "the start position contains no blocks"));
        }
        if let (Some(at), true) = (goal_at, self.goals.is_empty()) {
            return Err(self.error(at, NO_GOAL));
        }
        let board = Board::new(self.width, self.height, self.cells);
        let mut kept = Vec::new();
        let mut new_index = vec![None; self.types.len()];
        for (t, draft) in self.types.into_iter().enumerate() {
            if draft.anchors.is_empty() {
                continue;
            }
            if let Some(axis) = draft.block.slider {
                check_slider(self.file, &board, &draft, axis)?;
            }
            new_index[t] = Some(kept.len());
            kept.push(draft);
        }
        let goals = self
            .goals
            .into_iter()
            .map(|section| goal(section, &new_index))
            .collect();
        let counts = kept.iter().map(|t| t.anchors.len()).collect();
        let anchors = kept
            .iter()
            .flat_map(|t| t.anchors.iter().copied())
            .collect();
        let types = kept.into_iter().map(|t| t.block).collect();
        let mut puzzle = Puzzle::new(board, types, counts, Position { anchors }, goals);
        puzzle.name = self
            .metadata
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("name"))
            .map(|(_, v)| v.clone());
        puzzle.metadata = self.metadata;
        Ok(puzzle)
    }
}

/// `key: value` metadata lines of a puzzle (name, origin, optimum...).
pub type Metadata = Vec<(String, String)>;

/// For a `%` comment line, `Some` holding the `key: value` metadata it
/// carries, if any; `None` for any other line.
pub fn comment(line: &str) -> Option<Option<(String, String)>> {
    let rest = line.strip_prefix('%')?;
    Some(
        rest.split_once(':')
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string())),
    )
}

/// What a search needs and a puzzle without goal sections lacks.
const NO_GOAL: &str = "the puzzle has no goal section, so there is nothing to solve: \
                       after the start grid, draw where the blocks must go (see docs/format.md)";

/// A goal section with its types renumbered to the kept types.
fn goal(section: Vec<Vec<Cell>>, new_index: &[Option<usize>]) -> Goal {
    let mut goal = Goal::default();
    for (t, mut anchors) in section.into_iter().enumerate() {
        if anchors.is_empty() {
            continue;
        }
        anchors.sort_unstable();
        goal.requirements.push(GoalRequirement {
            block_type: new_index[t].expect("a wanted type has blocks"),
            anchors,
        });
    }
    goal
}

/// A slider must have at least one other place along its axis on the empty board.
fn check_slider(
    file: &str,
    board: &Board,
    draft: &TypeDraft,
    axis: Axis,
) -> Result<(), ParseError> {
    let block = &draft.block;
    if slider_can_slide(board, &block.shape, axis, block.is_master) {
        return Ok(());
    }
    let way = match axis {
        Axis::Vertical => "vertically",
        Axis::Horizontal => "horizontally",
    };
    Err(ParseError::at(
        file,
        draft.at,
        format!(
            "slider '{}' can never slide: its shape has no room to move {way} anywhere on this board",
            block.id
        ),
    ))
}

/// The error for a board of `height` x `width` cells if it exceeds
/// [`MAX_SIDE`]; `at` is where the board starts.
pub fn check_size(file: &str, at: Loc, height: usize, width: usize) -> Result<(), ParseError> {
    if height > MAX_SIDE || width > MAX_SIDE {
        return Err(ParseError::at(
            file,
            at,
            format!(
                "board of {height} rows x {width} columns is larger than supported \
                 ({MAX_SIDE}x{MAX_SIDE} cells, frame included)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(id: char, shape: Shape, is_master: bool) -> BlockType {
        BlockType {
            id,
            shape,
            slider: None,
            is_master,
        }
    }

    /// A 3x4 board: walls left and right, a door at the bottom centre.
    fn board() -> PuzzleBuilder<'static> {
        let mut b = PuzzleBuilder::new("f", 3, 4, Loc::new(1, 1)).unwrap();
        for r in 0..3 {
            b.set_kind(b.cell(r, 0), CellKind::Wall);
            b.set_kind(b.cell(r, 3), CellKind::Wall);
        }
        b.set_kind(b.cell(2, 1), CellKind::Door);
        b
    }

    fn fails(result: Result<impl std::fmt::Debug, ParseError>, at: (usize, usize), what: &str) {
        let e = result.unwrap_err();
        assert_eq!((e.line, e.column), at, "{e}");
        assert!(e.message.contains(what), "expected '{what}' in {e}");
    }

    #[test]
    fn builds_the_puzzle_without_unused_types_and_renumbers_goals() {
        let mut b = board();
        let unused = b.declare(block('u', Shape::unit(), false), Loc::new(2, 1));
        let m = b.declare(block('@', Shape::unit(), true), Loc::new(3, 1));
        let a = b
            .type_for_shape(&Shape::unit(), 'a', Loc::new(4, 1))
            .unwrap();
        assert_eq!(b.type_for_shape(&Shape::unit(), 'z', Loc::new(4, 2)), Ok(a));
        b.place(m, b.cell(0, 1), Loc::new(5, 2)).unwrap();
        b.place(a, b.cell(0, 2), Loc::new(5, 3)).unwrap();
        b.goal_section();
        b.want(m, b.cell(2, 1), Loc::new(8, 2)).unwrap();
        b.metadata([("Name".to_string(), "tiny".to_string())]);
        let p = b.build(Some(Loc::new(9, 1))).unwrap();
        assert_eq!(unused, 0);
        assert_eq!(p.types.iter().map(|t| t.id).collect::<String>(), "@a");
        assert_eq!(p.counts, [1, 1]);
        assert_eq!(p.goals[0].requirements[0].block_type, 0);
        assert_eq!(p.goals[0].requirements[0].anchors, [9]);
        assert_eq!(p.name.as_deref(), Some("tiny"));
        assert_eq!(p.board.kind(9), CellKind::Door);
    }

    #[test]
    fn start_blocks_stay_on_their_cells() {
        let mut b = board();
        let m = b.declare(block('@', Shape::unit(), true), Loc::new(1, 1));
        let a = b.declare(block('a', Shape::rectangle(1, 2), false), Loc::new(2, 1));
        b.place(m, b.cell(0, 1), Loc::new(5, 2)).unwrap();
        fails(
            b.place(m, b.cell(1, 1), Loc::new(6, 2)),
            (6, 2),
            "more than once",
        );
        fails(b.place(a, b.cell(0, 2), Loc::new(5, 3)), (5, 3), "wall");
        fails(b.place(a, b.cell(0, 0), Loc::new(5, 1)), (5, 1), "wall");
        fails(b.place(a, b.cell(2, 1), Loc::new(7, 2)), (7, 2), "door");
        fails(
            b.place(a, b.cell(2, 3), Loc::new(7, 4)),
            (7, 4),
            "does not fit",
        );
        b.place(a, b.cell(1, 1), Loc::new(6, 2)).unwrap();
        let c = b.declare(block('c', Shape::unit(), false), Loc::new(3, 1));
        fails(b.place(c, b.cell(1, 2), Loc::new(6, 3)), (6, 3), "overlaps");
    }

    #[test]
    fn goals_must_be_possible() {
        let mut b = board();
        let m = b.declare(block('@', Shape::unit(), true), Loc::new(1, 1));
        let a = b.declare(block('a', Shape::unit(), false), Loc::new(2, 1));
        b.place(a, b.cell(0, 1), Loc::new(5, 2)).unwrap();
        fails(b.goal_door(b.cell(1, 0), Loc::new(8, 1)), (8, 1), "wall");
        b.goal_section();
        fails(
            b.want(a, b.cell(2, 1), Loc::new(9, 2)),
            (9, 2),
            "wall or a door",
        );
        fails(b.want(m, b.cell(1, 1), Loc::new(9, 2)), (9, 2), "no master");
        b.want(a, b.cell(1, 1), Loc::new(9, 2)).unwrap();
        fails(
            b.want(a, b.cell(1, 2), Loc::new(9, 3)),
            (9, 3),
            "2 block(s)",
        );
    }

    #[test]
    fn whole_puzzle_checks() {
        fails(
            PuzzleBuilder::new("f", 3, MAX_SIDE + 1, Loc::new(4, 1)).map(|_| ()),
            (4, 1),
            "larger than supported",
        );
        let mut b = board();
        b.declare(block('@', Shape::unit(), true), Loc::new(1, 1));
        fails(b.build(None), (1, 0), "no blocks");
        let mut b = board();
        let mut bar = block('h', Shape::rectangle(1, 2), false);
        bar.slider = Some(Axis::Vertical);
        let h = b.declare(bar, Loc::new(2, 1));
        b.place(h, b.cell(0, 1), Loc::new(5, 2)).unwrap();
        fails(b.build(Some(Loc::new(9, 1))), (9, 1), "no goal section");
        let mut b = board();
        let mut bar = block('h', Shape::rectangle(1, 2), false);
        bar.slider = Some(Axis::Horizontal);
        let h = b.declare(bar, Loc::new(2, 1));
        b.place(h, b.cell(0, 1), Loc::new(5, 2)).unwrap();
        fails(b.build(None), (2, 1), "can never slide");
    }
}
