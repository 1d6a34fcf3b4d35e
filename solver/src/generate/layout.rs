//! A drawn puzzle before it is a [`Puzzle`]: the board's cells, the block
//! types with their anchors, and the goal: the master's anchor and any
//! other block's. The families
//! place blocks with the helpers here (uniformly among the anchors where a
//! shape fits, so a draw depends on the seed alone), and [`Layout::build`]
//! hands everything to the one [`PuzzleBuilder`] the parsers use, so a
//! generated puzzle obeys exactly the rules a file must.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::formats::builder::PuzzleBuilder;
use crate::formats::{Loc, ParseError};
use crate::model::{Axis, BlockType, CellKind, Puzzle, Shape};

/// The name errors about a generated puzzle give as its file.
const SOURCE: &str = "generated";

/// A block type of a layout and the anchors of its blocks.
struct Piece {
    block: BlockType,
    anchors: Vec<usize>,
}

/// A board being filled: cells, which are covered, the types and the goal.
pub struct Layout {
    pub height: usize,
    pub width: usize,
    cells: Vec<CellKind>,
    covered: Vec<bool>,
    pieces: Vec<Piece>,
    /// The master's wanted anchor.
    goal: Option<usize>,
    /// Other wanted anchors, `(type, anchor)`: a goal that fixes blocks
    /// besides (or instead of) the master.
    wants: Vec<(usize, usize)>,
}

/// A shape from `(row, col)` offsets.
pub fn shape(offsets: &[(i32, i32)]) -> Shape {
    Shape::new(offsets.to_vec()).expect("a family's shapes have cells")
}

impl Layout {
    /// An `inner_h` x `inner_w` box of free cells inside a wall frame, with
    /// `extra_rows` more wall rows below the frame (for doors to lead into).
    pub fn framed(inner_h: usize, inner_w: usize, extra_rows: usize) -> Layout {
        let (height, width) = (inner_h + 2 + extra_rows, inner_w + 2);
        let mut cells = vec![CellKind::Wall; height * width];
        for r in 1..=inner_h {
            for c in 1..=inner_w {
                cells[r * width + c] = CellKind::Free;
            }
        }
        Layout {
            height,
            width,
            cells,
            covered: vec![false; height * width],
            pieces: Vec::new(),
            goal: None,
            wants: Vec::new(),
        }
    }

    /// The cell index of `(row, col)`.
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// Sets what a cell is; only before blocks cover it.
    pub fn set_kind(&mut self, cell: usize, kind: CellKind) {
        self.cells[cell] = kind;
    }

    pub fn kind(&self, cell: usize) -> CellKind {
        self.cells[cell]
    }

    /// Free cells no block covers.
    pub fn spaces(&self) -> usize {
        (0..self.cells.len())
            .filter(|&x| self.cells[x] == CellKind::Free && !self.covered[x])
            .count()
    }

    /// Declares a block type; returns its index.
    pub fn add_type(
        &mut self,
        id: char,
        shape: Shape,
        slider: Option<Axis>,
        master: bool,
    ) -> usize {
        let block = BlockType {
            id,
            shape,
            slider,
            is_master: master,
        };
        self.pieces.push(Piece {
            block,
            anchors: Vec::new(),
        });
        self.pieces.len() - 1
    }

    /// The type of blocks of `shape` that are not the master, declared with
    /// `id` on first use: same-shaped blocks are interchangeable.
    pub fn type_for(&mut self, shape: &Shape, id: char) -> usize {
        let found = self.pieces.iter().position(|p| {
            !p.block.is_master && p.block.slider.is_none() && &p.block.shape == shape
        });
        found.unwrap_or_else(|| self.add_type(id, shape.clone(), None, false))
    }

    /// The cells a block of type `t` anchored at `anchor` covers, if it
    /// stays on the board.
    fn cells_of(&self, t: usize, anchor: usize) -> Option<Vec<usize>> {
        let (r, c) = ((anchor / self.width) as i64, (anchor % self.width) as i64);
        let inside = |(dr, dc): &(i32, i32)| {
            let (r, c) = (r + *dr as i64, c + *dc as i64);
            (r >= 0 && c >= 0 && r < self.height as i64 && c < self.width as i64)
                .then(|| r as usize * self.width + c as usize)
        };
        self.pieces[t]
            .block
            .shape
            .offsets()
            .iter()
            .map(inside)
            .collect()
    }

    /// True when a block of type `t` may stand at `anchor` now: on the
    /// board, on free cells (doors for the master) that no block covers.
    pub fn fits(&self, t: usize, anchor: usize) -> bool {
        let master = self.pieces[t].block.is_master;
        self.cells_of(t, anchor).is_some_and(|cells| {
            cells.iter().all(|&x| {
                !self.covered[x]
                    && match self.cells[x] {
                        CellKind::Free => true,
                        CellKind::Door => master,
                        CellKind::Wall => false,
                    }
            })
        })
    }

    /// Places a block of type `t` at `anchor` (which [`Layout::fits`]).
    pub fn put(&mut self, t: usize, anchor: usize) {
        for x in self.cells_of(t, anchor).expect("placed where it fits") {
            self.covered[x] = true;
        }
        self.pieces[t].anchors.push(anchor);
    }

    /// Places a block of type `t` at an anchor chosen uniformly among those
    /// where it fits and `allowed` holds; false when there is none.
    pub fn put_random(
        &mut self,
        rng: &mut ChaCha8Rng,
        t: usize,
        allowed: impl Fn(usize, usize) -> bool,
    ) -> bool {
        match self.anchors(t, allowed).choose(rng) {
            Some(&a) => {
                self.put(t, a);
                true
            }
            None => false,
        }
    }

    /// The anchors `(row, col)` where a block of type `t` fits now and
    /// `allowed` holds, in cell order.
    pub fn anchors(&self, t: usize, allowed: impl Fn(usize, usize) -> bool) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&a| allowed(a / self.width, a % self.width) && self.fits(t, a))
            .collect()
    }

    /// Forgets the last declared type, which got no block.
    pub fn drop_last_type(&mut self) {
        if self.pieces.last().is_some_and(|p| p.anchors.is_empty()) {
            self.pieces.pop();
        }
    }

    /// Sets the master's goal anchor.
    pub fn set_goal(&mut self, anchor: usize) {
        self.goal = Some(anchor);
    }

    /// Wants a block of type `t` at `anchor` in the goal.
    pub fn want(&mut self, t: usize, anchor: usize) {
        self.wants.push((t, anchor));
    }

    /// The number of block types declared.
    pub fn types(&self) -> usize {
        self.pieces.len()
    }

    /// The anchors of the blocks of type `t`, in placing order.
    pub fn anchors_of(&self, t: usize) -> &[usize] {
        &self.pieces[t].anchors
    }

    /// Turns up to `count` free, uncovered cells where `allowed` holds into
    /// walls, chosen at random.
    pub fn add_walls(
        &mut self,
        rng: &mut ChaCha8Rng,
        count: usize,
        allowed: impl Fn(usize, usize) -> bool,
    ) {
        let mut free: Vec<usize> = (0..self.cells.len())
            .filter(|&x| self.cells[x] == CellKind::Free && !self.covered[x])
            .filter(|&x| allowed(x / self.width, x % self.width))
            .collect();
        free.shuffle(rng);
        for x in free.into_iter().take(count) {
            self.cells[x] = CellKind::Wall;
        }
    }

    /// Fills the board with blocks of the `kit` until `spaces` free cells
    /// are left: at a random uncovered cell, a block of a shape drawn by
    /// weight among those that fit with their first cell there and leave
    /// enough cells (a unit always does, so the fill ends). Same-shaped
    /// blocks share one interchangeable type.
    pub fn fill(&mut self, rng: &mut ChaCha8Rng, kit: &[(char, Shape, u32)], spaces: usize) {
        let unit = Shape::unit();
        loop {
            let left = self.spaces();
            if left <= spaces {
                return;
            }
            let free: Vec<usize> = (0..self.cells.len())
                .filter(|&x| self.cells[x] == CellKind::Free && !self.covered[x])
                .collect();
            let at = free[rng.gen_range(0..free.len())];
            let fitting: Vec<&(char, Shape, u32)> = kit
                .iter()
                .filter(|(_, s, _)| s.size() <= left - spaces && self.shape_fits(s, at))
                .collect();
            let (id, shape) = match fitting.choose_weighted(rng, |k| k.2) {
                Ok(&&(id, ref s, _)) => (id, s.clone()),
                Err(_) => ('o', unit.clone()),
            };
            let t = self.type_for(&shape, id);
            self.put(t, at);
        }
    }

    /// True when a non-master block of `shape` fits with its anchor at `at`.
    fn shape_fits(&self, shape: &Shape, at: usize) -> bool {
        let (r, c) = ((at / self.width) as i64, (at % self.width) as i64);
        shape.offsets().iter().all(|&(dr, dc)| {
            let (r, c) = (r + dr as i64, c + dc as i64);
            r >= 0
                && c >= 0
                && r < self.height as i64
                && c < self.width as i64
                && self.cells[r as usize * self.width + c as usize] == CellKind::Free
                && !self.covered[r as usize * self.width + c as usize]
        })
    }

    /// The puzzle, through the parsers' builder: every rule a file must
    /// obey is checked the same way (an error is a family's bug, reported).
    pub fn build(&self) -> Result<Puzzle, ParseError> {
        let at = Loc::new(1, 1);
        let mut b = PuzzleBuilder::new(SOURCE, self.height, self.width, at)?;
        for (x, &kind) in self.cells.iter().enumerate() {
            b.set_kind(x, kind);
        }
        let mut types = Vec::new();
        for p in &self.pieces {
            let t = b.declare(p.block.clone(), at);
            for &a in &p.anchors {
                b.place(t, a, at)?;
            }
            types.push(t);
        }
        b.goal_section();
        if let (Some(goal), Some(m)) = (
            self.goal,
            self.pieces.iter().position(|p| p.block.is_master),
        ) {
            b.want(types[m], goal, at)?;
        }
        for &(t, anchor) in &self.wants {
            b.want(types[t], anchor, at)?;
        }
        b.build(Some(at))
    }
}
