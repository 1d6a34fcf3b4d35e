//! The one move generator, shared by every search algorithm, the feature
//! extraction and the counting commands.
//!
//! A position is a [`State`] (anchors plus a cell-owner map). For each block
//! type the generator precomputes where the shape fits on the empty board
//! (walls, board edges and, for non-masters, doors excluded) and, per
//! direction, the "leading edge": the cells a one-cell step newly covers. A
//! step is then one table lookup plus a check of the leading-edge cells (on
//! boards of up to 64 cells under `--metric steps`, one AND of the edge's
//! bits with the occupied cells);
//! `--metric moves` flood-fills the block's reachable anchors with the other
//! blocks fixed (around corners for free blocks, straight for sliders; on
//! boards of up to 64 cells a frontier at a time as bits, `flood_bits.rs`).

mod commute;
mod counted;
mod flood_bits;
mod spaces;
mod stamps;
mod state;

use commute::Commute;
use spaces::SpaceMasks;
use stamps::Stamps;
pub use state::{ShapeTable, State, NO_OWNER};

use crate::model::{Axis, Puzzle};
use crate::params::Metric;
use crate::solution::Direction;

/// Marks "no such cell" in the neighbour table.
const NONE: u16 = u16::MAX;

/// Moves [`MoveGenerator::generate_skipping`] leaves out: those of one
/// instance in some directions. BFS leaves out what can only reach a
/// position already stored (see [`Skip::block`] and [`Skip::step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skip {
    pub instance: usize,
    /// Bit `d`: no step in direction `d` (`--metric steps`); under `--metric
    /// moves` only all four, the whole block (a flood is not split by its
    /// first step).
    pub directions: u8,
    /// Under `--metric steps`, with one direction: the skipped step is the
    /// way back of the step that reached the position, and the steps that
    /// commute with that one and rank below it are left out too
    /// (`moves/commute.rs`).
    pub commute: bool,
}

impl Skip {
    /// Nothing left out.
    pub const NONE: Skip = Skip {
        instance: usize::MAX,
        directions: 0,
        commute: false,
    };

    /// Every move of instance `i`: under `--metric moves`, moving again the
    /// block that moved last only reaches positions its previous move
    /// could reach (its flood fill is the same set).
    pub fn block(i: usize) -> Skip {
        Skip {
            instance: i,
            directions: 0b1111,
            commute: false,
        }
    }

    /// Instance `i`'s step in direction `d`: under `--metric steps`, the
    /// step back of the block that moved last returns to the position
    /// before it, which is stored.
    pub fn step(i: usize, d: usize) -> Skip {
        Skip {
            instance: i,
            directions: 1 << d,
            commute: false,
        }
    }

    /// [`Skip::step`], and the steps of other blocks that commute with the
    /// step that reached the position and rank below it (`moves/commute.rs`):
    /// breadth-first search reaches each of those from another parent of
    /// its layer, a depth-first search along another order of the same
    /// steps.
    pub fn last_step(i: usize, d: usize) -> Skip {
        Skip {
            commute: true,
            ..Skip::step(i, d)
        }
    }
}

/// One move: instance `instance` goes from anchor `from` to anchor `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub instance: u16,
    pub from: u16,
    pub to: u16,
}

impl Move {
    /// Instance `i` from anchor `from` to anchor `to`.
    #[inline(always)]
    fn of(i: usize, from: usize, to: usize) -> Move {
        Move {
            instance: i as u16,
            from: from as u16,
            to: to as u16,
        }
    }
}

/// Whether space-driven generation is the cheaper for `puzzle`, with `open`
/// non-wall cells of which `spaces` are empty, and the generator's leading
/// edges and directions per type.
/// It scans the open cells and looks beside each empty one, then tries only
/// the steps towards an empty cell; trying blocks one by one costs, per block
/// and direction, a table look and one per leading-edge cell. Measured (CPU
/// time, `experiments/bench.md`): Rush Hour (36 cells, 9 empty, 12 cars of 2
/// directions, 1-cell edges) is faster block by block; Sunshine (315 open
/// cells, 100 empty, most of those doors beyond the frame, 68 blocks) and
/// American Pie are faster space-driven.
fn prefers_spaces(
    puzzle: &Puzzle,
    open: usize,
    spaces: usize,
    leading: &[[Vec<i32>; 4]],
    directions: &[Vec<usize>],
) -> bool {
    let (edges, cells) = edge_totals(puzzle, leading, directions);
    open + 4 * spaces < edges + cells
}

/// Over every instance's directions: how many there are, and how many
/// cells their leading edges hold in all.
fn edge_totals(
    puzzle: &Puzzle,
    leading: &[[Vec<i32>; 4]],
    directions: &[Vec<usize>],
) -> (usize, usize) {
    let (mut edges, mut cells) = (0, 0);
    for i in 0..puzzle.instances() {
        let t = puzzle.instance_type(i);
        for &d in &directions[t] {
            edges += 1;
            cells += leading[t][d].len();
        }
    }
    (edges, cells)
}

/// Empty cells of `puzzle`'s positions, with `open` non-wall cells.
fn spaces(puzzle: &Puzzle, open: usize) -> usize {
    let occupied: usize = (0..puzzle.types.len())
        .map(|t| puzzle.counts[t] * puzzle.types[t].shape.size())
        .sum();
    open.saturating_sub(occupied)
}

/// Fewest empty cells for which space-driven generation finds them with
/// bit masks ([`SpaceMasks`]): these pay where many empty cells have no
/// block beside them (Sunshine's and American Pie's doors beyond the
/// frame: 14% fewer instructions on Sunshine), and cost 8% more on the
/// 15-puzzle's single space (callgrind, `experiments/bench.md`).
const MASKS_FROM_SPACES: usize = 16;

/// Most cells of a board whose steps are checked as bits (one word; see
/// [`MoveGenerator::edges`]).
const SMALL_CELLS: usize = 64;

/// Shortest mean leading edge (cells, over every instance's directions)
/// for which steps are counted per leading edge rather than checked cell by
/// cell ([`MoveGenerator::generate_counted`]). Callgrind, 200k positions,
/// counted against cell by cell: Ithaca (mean edge 2.29) -12%
/// instructions, Sunshine (1.66) -2%, American Pie (1.44) -4%, Shark
/// (1.30) +0.7%; in CPU time Shark was 10% slower counted (alternating
/// runs) and American Pie within noise, so only long edges are counted.
const COUNT_FROM_EDGE: f64 = 1.5;

/// The mean length of the leading edges of every instance's directions.
fn mean_edge(puzzle: &Puzzle, leading: &[[Vec<i32>; 4]], directions: &[Vec<usize>]) -> f64 {
    let (edges, cells) = edge_totals(puzzle, leading, directions);
    cells as f64 / edges.max(1) as f64
}

/// Static tables of a puzzle's moves plus reusable scratch space.
#[derive(Clone, Debug)]
pub struct MoveGenerator {
    cells: usize,
    metric: Metric,
    shapes: ShapeTable,
    /// `fits[type * cells + anchor]`: the shape fits there on the empty board.
    fits: Vec<bool>,
    /// `neighbor[cell][direction]` or [`NONE`] at the board's edge.
    neighbor: Vec<[u16; 4]>,
    /// Per type and direction: cell offsets (from the current anchor) that a
    /// one-cell step newly covers.
    leading: Vec<[Vec<i32>; 4]>,
    /// Per type: directions it may move in (sliders: two).
    directions: Vec<Vec<usize>>,
    /// Per type: the same directions as bits (bit `d` for direction `d`),
    /// so that generation walks the set bits of those it wants.
    direction_bits: Vec<u8>,
    /// Per instance: false when locked in place.
    movable: Vec<bool>,
    /// Non-wall cells, for finding the empty ones.
    open: Vec<u16>,
    /// Generate from the empty cells (few spaces, many blocks) instead of
    /// trying every block.
    space_driven: bool,
    /// Bit masks that find the empty cells beside a block (space-driven
    /// generation with [`MASKS_FROM_SPACES`] spaces or more, on boards of up
    /// to [`spaces::MAX_CELLS`] cells).
    masks: Option<SpaceMasks>,
    /// Empty open cells in every position (open cells less the blocks' cells).
    spaces: usize,
    /// Per type, anchor and direction (`(t * cells + anchor) * 4 + d`):
    /// where one step lands on the empty board, or [`NONE`] off the board
    /// or where the type does not fit. One look for what the step check
    /// did with the neighbour table and then the fit table.
    hop: Vec<u16>,
    /// Boards of up to 64 cells under `--metric steps` ([`SMALL_CELLS`]):
    /// per entry of [`MoveGenerator::hop`], the cells the step newly
    /// covers as bits, so that a step is checked with one AND against the
    /// occupied cells instead of a look per leading-edge cell; empty
    /// elsewhere.
    edges: Vec<u64>,
    /// The open cells as bits, where `edges` is kept.
    open_bits: u64,
    /// Per type: for a one-cell-wide slider, its two directions and the
    /// one cell a step each way newly covers (see [`OneLookRail`]).
    one_look: Vec<Option<OneLookRail>>,
    /// Per instance, its type's rail when it is a movable one-wide slider
    /// under `--metric moves` (a Rush Hour car): one lookup instead of the
    /// metric, the instance's type and lock, and the type's rail (those
    /// checks were 5% of Rush Hour's generation).
    cars: Vec<Option<OneLookRail>>,
    /// Per instance: the directions towards an empty cell beside it
    /// (space-driven scratch, zero between calls).
    sides: Vec<u8>,
    /// Steps are counted per leading edge ([`MoveGenerator::generate_counted`]):
    /// under `--metric steps` on boards with masks whose blocks' leading
    /// edges are long enough ([`COUNT_FROM_EDGE`]).
    counted: bool,
    /// Per instance: its counts of empty cells facing its leading edges and
    /// the edges that face a vacated cell ([`MoveGenerator::generate_counted`]'s
    /// scratch, zero between calls; `counted.rs`).
    tallies: Vec<u64>,
    /// Per type: the length of its leading edge in each direction, as the
    /// byte lanes of a tally.
    edge_lanes: Vec<u32>,
    /// Per instance: the byte lanes of the directions it may step in (none
    /// when locked), each as its high bit.
    lanes: Vec<u32>,
    /// The steps left out as commuting with the last are all counted (the
    /// branching factor a count reports); off, the counted steps skip the
    /// blocks whose steps all rank below the last ([`MoveGenerator::tally_left_out`]).
    tally_left_out: bool,
    /// Cells in a row: the most a step moves an anchor.
    row: usize,
    /// The lowest cell of any shape relative to its anchor, in cells (0
    /// where every anchor is its shape's first cell in reading order).
    lowest_offset: isize,
    /// `--metric moves` on boards of up to 64 cells: the tables of the
    /// flood as bits ([`flood_bits::FloodBits`]).
    flood_bits: Option<flood_bits::FloodBits>,
    /// Scratch marks: the flood's reached anchors (`--metric moves`), the
    /// last step's vacated cells on large boards (`--metric steps`).
    stamps: Stamps,
    queue: Vec<u16>,
    /// Scratch: instances next to an empty cell.
    near: Vec<u16>,
    /// The last step that [`Skip::last_step`] names, for leaving out the
    /// steps that commute with it.
    commute: Commute,
}

impl MoveGenerator {
    /// Tables for `puzzle` under `metric`; instances of the `locked` types never move.
    pub fn new(puzzle: &Puzzle, metric: Metric, locked: &[usize]) -> MoveGenerator {
        let board = &puzzle.board;
        let cells = board.len();
        let shapes = ShapeTable::new(puzzle);
        let w = board.width() as i32;
        let neighbor = neighbor_table(board);
        let fits = fit_table(puzzle);
        let leading: Vec<[Vec<i32>; 4]> = puzzle
            .types
            .iter()
            .map(|ty| leading_edges(ty.shape.offsets(), w))
            .collect();
        let directions: Vec<Vec<usize>> = puzzle
            .types
            .iter()
            .map(|ty| type_directions(ty.slider))
            .collect();
        let movable: Vec<bool> = (0..puzzle.instances())
            .map(|i| !locked.contains(&puzzle.instance_type(i)))
            .collect();
        let open = open_cells(board);
        let spaces = spaces(puzzle, open.len());
        let space_driven = prefers_spaces(puzzle, open.len(), spaces, &leading, &directions);
        let masks = (space_driven && spaces >= MASKS_FROM_SPACES)
            .then(|| SpaceMasks::new(cells, &open, &neighbor))
            .flatten();
        let direction_bits = direction_bits(&directions);
        let hop = hop_table(&neighbor, &fits, puzzle.types.len());
        let counted = metric == Metric::Steps
            && masks.is_some()
            && counts_edges(puzzle, &leading, &directions);
        let edge_lanes = edge_lanes(&leading);
        let lanes = instance_lanes(&shapes, &movable, &direction_bits);
        let edges = if metric == Metric::Steps && cells <= SMALL_CELLS {
            edge_table(&hop, &leading, cells)
        } else {
            Vec::new()
        };
        let open_bits = open
            .iter()
            .fold(0u64, |m, &c| m | 1u64.checked_shl(c as u32).unwrap_or(0));
        let one_look = one_look_rails(&directions, &leading, cells);
        let cars = car_rails(&shapes, metric, &movable, &one_look);
        let flood_bits = (metric == Metric::Moves)
            .then(|| flood_bits::FloodBits::new(&hop, &fits, cells))
            .flatten();
        MoveGenerator {
            flood_bits,
            one_look,
            cars,
            hop,
            edges,
            open_bits,
            direction_bits,
            cells,
            metric,
            shapes,
            fits,
            neighbor,
            leading,
            directions,
            movable,
            open,
            space_driven,
            masks,
            spaces,
            sides: vec![0; puzzle.instances()],
            counted,
            tallies: vec![0; puzzle.instances()],
            edge_lanes,
            lanes,
            tally_left_out: true,
            row: w as usize,
            lowest_offset: lowest_offset(puzzle),
            stamps: Stamps::new(cells),
            queue: Vec::new(),
            near: Vec::new(),
            commute: Commute::new(),
        }
    }

    /// Whether steps are counted per leading edge (`counted.rs`).
    pub fn counts_steps(&self) -> bool {
        self.space_driven && self.counted
    }

    /// Whether [`MoveGenerator::generate_skipping`] counts every step it
    /// leaves out as commuting with the last (on by default). A search
    /// that reports no branching factor turns it off, and on the boards
    /// whose steps are counted per leading edge the generator then skips
    /// the blocks whose steps all rank below the last without counting
    /// their steps (`counted.rs`): the same moves, in an order that may
    /// differ, and fewer left out reported.
    pub fn tally_left_out(&mut self, on: bool) {
        self.tally_left_out = on;
    }

    pub fn shapes(&self) -> &ShapeTable {
        &self.shapes
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Empty open cells in every position.
    pub fn spaces(&self) -> usize {
        self.spaces
    }

    /// False when instance `i` is locked in place (`--lock`).
    pub fn movable(&self, i: usize) -> bool {
        self.movable[i]
    }

    /// True when a block of `block_type` fits at `anchor` on the empty board.
    pub fn fits(&self, block_type: usize, anchor: usize) -> bool {
        self.fits[block_type * self.cells + anchor]
    }

    /// Anchors where a type fits on the empty board: its domain.
    pub fn domain(&self, block_type: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells).filter(move |&a| self.fits(block_type, a))
    }

    /// Where a block of `block_type` anchored at `at` lands after one step
    /// in `direction` (an index into [`Direction::ALL`]) on the empty board:
    /// for planning a block's route through the others. `None` off the
    /// board, into a wall, or across its slider's axis.
    pub fn empty_step(&self, block_type: usize, at: usize, direction: usize) -> Option<usize> {
        if !self.directions[block_type].contains(&direction) {
            return None;
        }
        let q = self.hop[(block_type * self.cells + at) * 4 + direction];
        (q != NONE).then_some(q as usize)
    }

    /// The cell offsets (from the anchor) that one step of a block of
    /// `block_type` in `direction` newly covers, the same from every anchor.
    pub fn leading_edge(&self, block_type: usize, direction: usize) -> &[i32] {
        &self.leading[block_type][direction]
    }

    /// Where instance `i` (of type `t`, virtually at anchor `at`) lands after
    /// one step in `direction`, if that cell range is free (its own cells count as free).
    #[inline(always)]
    fn step_target(
        &self,
        state: &State,
        i: usize,
        t: usize,
        at: usize,
        direction: usize,
    ) -> Option<usize> {
        let q = self.hop[(t * self.cells + at) * 4 + direction];
        if q == NONE {
            return None;
        }
        let me = i as u16;
        for &off in &self.leading[t][direction] {
            let o = state.owner[(at as i32 + off) as usize];
            if o != NO_OWNER && o != me {
                return None;
            }
        }
        Some(q as usize)
    }

    /// True when instance `i` could step one cell in `direction` (sliders'
    /// axis ignored): used by resting-block pruning to tell touching sides.
    pub fn can_step(&self, state: &State, i: usize, direction: Direction) -> bool {
        let t = self.shapes.type_of(i);
        self.step_target(state, i, t, state.anchors[i] as usize, direction as usize)
            .is_some()
    }

    /// The occupied cells of `state` as bits, on a board that keeps
    /// [`MoveGenerator::edges`] (0 elsewhere, where nothing reads them).
    #[inline]
    fn occupied(&self, state: &State) -> u64 {
        if self.edges.is_empty() {
            return 0;
        }
        !spaces::free_mask(&state.owner[..self.cells])
    }

    /// Appends every legal move of `state` to `out` (cleared first).
    pub fn generate(&mut self, state: &State, out: &mut Vec<Move>) {
        self.generate_skipping(state, Skip::NONE, out);
    }

    /// [`MoveGenerator::generate`] without the moves `skip` names (BFS
    /// skips what can only be a duplicate; both public Rush Hour solvers
    /// skip the block that moved last too). Returns how many steps were
    /// left out as commuting with the last ([`Skip::last_step`]; the step
    /// back is not counted).
    pub fn generate_skipping(&mut self, state: &State, skip: Skip, out: &mut Vec<Move>) -> usize {
        out.clear();
        self.prepare_commute(state, skip);
        let occupied = self.occupied(state);
        if !self.space_driven {
            for i in 0..state.anchors.len() {
                if i != skip.instance {
                    self.generate_for(state, i, occupied, out);
                } else if skip.directions != 0b1111 {
                    self.generate_towards(state, i, !skip.directions & 0b1111, occupied, out);
                }
            }
            return self.commute.left_out;
        }
        if self.counted {
            // (space-driven: the counted steps, `counts_steps`)
            self.generate_counted(state, skip, out);
            return self.commute.left_out;
        }
        // Only blocks next to an empty cell can move, and only towards it:
        // a step needs its whole leading edge empty, so a direction without
        // an empty cell on that side of the block is not tried. Blocks are
        // visited in the order they are first seen (as before the masks).
        // A skipped step leaves its block in the visiting order (its
        // direction is cleared after the visits), so the moves come in the
        // same order as without the skip, and capped searches and ties stay
        // as they were.
        debug_assert!(
            matches!(skip.directions, 0 | 0b1111) || self.metric == Metric::Steps,
            "a flood under --metric moves skips a whole block or nothing"
        );
        let whole = skip.directions == 0b1111;
        let mut near = std::mem::take(&mut self.near);
        let mut sides = std::mem::take(&mut self.sides);
        near.clear();
        // As for the counted steps, a search skips the spaces beside the
        // blocks whose steps all rank below the last but for those the
        // last step vacated (`counted.rs`), and a row more: no block's
        // sides need all be seen, as each step is checked whole.
        let first = match self.masks {
            Some(_) => self.ranked_scan(state, skip).1,
            None => 0,
        };
        self.beside_spaces(state, occupied, first, |o, toward| {
            if !(whole && o == skip.instance) {
                if sides[o] == 0 {
                    near.push(o as u16);
                }
                sides[o] |= 1 << toward;
            }
        });
        for &o in &near {
            let o = o as usize;
            let mut mask = std::mem::replace(&mut sides[o], 0);
            if o == skip.instance {
                mask &= !skip.directions;
            }
            self.generate_towards(state, o, mask, occupied, out);
        }
        self.near = near;
        self.sides = sides;
        self.commute.left_out
    }

    /// Sets [`MoveGenerator::commute`] to the last step `skip` names, or
    /// to nothing. The counted steps find its vacated cells themselves
    /// (`counted.rs`); the others look them up as bits on small boards,
    /// else as marks in the stamps.
    #[inline]
    fn prepare_commute(&mut self, state: &State, skip: Skip) {
        if !skip.commute {
            self.commute.clear();
            return;
        }
        let (i, from, to, vacated) = self.named_step(state, skip);
        self.commute.after(i, from, to);
        if !self.counts_steps() {
            let small = !self.edges.is_empty();
            let cells = self.leading[vacated.0][vacated.1]
                .iter()
                .map(|&off| (to as i32 + off) as usize);
            self.commute.vacated(cells, small, &mut self.stamps);
        }
    }

    /// The step that reached `state`, whose step back `skip` names (with
    /// [`Skip::commute`]): its instance, its anchors before and after, and
    /// where the cells it vacated are listed, as offsets from the anchor
    /// after: the leading edge of the step back, `leading[type][back]`.
    fn named_step(&self, state: &State, skip: Skip) -> (usize, usize, usize, (usize, usize)) {
        debug_assert!(self.metric == Metric::Steps && skip.directions.count_ones() == 1);
        let i = skip.instance;
        let t = self.shapes.type_of(i);
        let back = skip.directions.trailing_zeros() as usize;
        let to = state.anchors[i] as usize;
        let from = self.hop[(t * self.cells + to) * 4 + back];
        debug_assert!(from != NONE, "the step back of a step is on the board");
        (i, from as usize, to, (t, back))
    }

    /// Calls `visit` with every instance that might be able to step: with
    /// few spaces only those next to an empty cell (some more than once),
    /// otherwise every instance. A block that can step has an empty
    /// non-wall cell beside it, so nothing that can step is left out.
    pub fn blocks_next_to_space(&self, state: &State, mut visit: impl FnMut(usize)) {
        if !self.space_driven {
            (0..state.anchors.len()).for_each(visit);
            return;
        }
        self.beside_spaces(state, self.occupied(state), 0, |o, _| visit(o));
    }

    /// Calls `visit(instance, direction)` for every block beside an empty
    /// open cell, with the direction (index into [`Direction::ALL`]) in
    /// which it would step into that cell; a block beside several is
    /// visited once per cell and side. `occupied`: [`MoveGenerator::occupied`];
    /// on boards with masks, only the empty cells from `first` on.
    fn beside_spaces(
        &self,
        state: &State,
        occupied: u64,
        first: usize,
        mut visit: impl FnMut(usize, usize),
    ) {
        let mut blocks_beside = |cell: usize| {
            for (k, &n) in self.neighbor[cell].iter().enumerate() {
                if n != NONE && state.owner[n as usize] != NO_OWNER {
                    // The block beside the space in direction k steps the
                    // opposite way into it (Up/Down and Left/Right pair up).
                    visit(state.owner[n as usize] as usize, k ^ 1);
                }
            }
        };
        match &self.masks {
            Some(masks) if first == 0 => {
                masks.touched_spaces::<false>(&state.owner, 0, blocks_beside)
            }
            Some(masks) => masks.touched_spaces::<true>(&state.owner, first, blocks_beside),
            // A small board's empty cells from its bits, in cell order.
            None if !self.edges.is_empty() => {
                let mut free = !occupied & self.open_bits;
                while free != 0 {
                    blocks_beside(free.trailing_zeros() as usize);
                    free &= free - 1;
                }
            }
            None => {
                // Every position has the same number of empty cells: the
                // scan ends at the last (half the board on average).
                let mut left = self.spaces;
                for &cell in &self.open {
                    if left == 0 {
                        break;
                    }
                    if state.owner[cell as usize] == NO_OWNER {
                        blocks_beside(cell as usize);
                        left -= 1;
                    }
                }
            }
        }
    }

    /// Appends the legal moves of one instance to `out` (`occupied`: see
    /// [`MoveGenerator::occupied`]). Private since it takes that word.
    #[inline]
    fn generate_for(&mut self, state: &State, i: usize, occupied: u64, out: &mut Vec<Move>) {
        // Rush Hour's cars and trucks are walked here, inline: the call
        // of the general flood cost 16 of a car's 150 instructions. (Here
        // and not in `generate_towards`, which the space-driven steps
        // loop inlines: the extra branch there cost it 1%.)
        if let Some(r) = self.cars[i] {
            let from = state.anchors[i] as usize;
            return self.walk_one_look(state, i, from, r, |q| out.push(Move::of(i, from, q)));
        }
        self.generate_towards(state, i, 0b1111, occupied, out);
    }

    /// Appends the legal moves of one instance to `out`, under `--metric
    /// steps` only the steps in the directions of `mask` (bit `d` for
    /// [`Direction::ALL`]`[d]`); a `--metric moves` flood needs a first step
    /// in one of them, and the caller passes only blocks that have one.
    ///
    /// Inlined into the generation loop: the steps metric's few moves
    /// cost less than a call (3.96M calls on the 10^6 bench, 136
    /// instructions each of which 18 were the call's); the flood is not.
    #[inline(always)]
    fn generate_towards(
        &mut self,
        state: &State,
        i: usize,
        mask: u8,
        occupied: u64,
        out: &mut Vec<Move>,
    ) {
        if !self.movable[i] {
            return;
        }
        let t = self.shapes.type_of(i);
        let from = state.anchors[i] as usize;
        match self.metric {
            Metric::Steps => {
                // The wanted directions' bits, lowest first: the order of
                // `directions`, which lists them ascending.
                let mut wanted = mask & self.direction_bits[t];
                if !self.edges.is_empty() {
                    let base = (t * self.cells + from) * 4;
                    while wanted != 0 {
                        let d = wanted.trailing_zeros() as usize;
                        wanted &= wanted - 1;
                        let q = self.hop[base + d];
                        if q != NONE && self.edges[base + d] & occupied == 0 {
                            if self.commute.ranks_below(i, from, q as usize)
                                && !self.commute.enters_bits(self.edges[base + d])
                            {
                                self.commute.left_out += 1;
                                continue;
                            }
                            out.push(Move::of(i, from, q as usize));
                        }
                    }
                    return;
                }
                while wanted != 0 {
                    let d = wanted.trailing_zeros() as usize;
                    wanted &= wanted - 1;
                    if let Some(q) = self.step_target(state, i, t, from, d) {
                        if self.commute.ranks_below(i, from, q)
                            && !self
                                .commute
                                .enters_cells(from, &self.leading[t][d], &self.stamps)
                        {
                            self.commute.left_out += 1;
                            continue;
                        }
                        out.push(Move::of(i, from, q));
                    }
                }
            }
            Metric::Moves => self.flood_into(state, i, t, from, out),
        }
    }

    /// The moves of instance `i` (of type `t`, at `from`) under `--metric
    /// moves`: one for every anchor its flood reaches.
    #[inline(never)]
    fn flood_into(&mut self, state: &State, i: usize, t: usize, from: usize, out: &mut Vec<Move>) {
        self.flood(state, i, t, from, |q| out.push(Move::of(i, from, q)))
    }

    /// Visits every anchor instance `i` can reach with the others fixed
    /// (excluding where it stands).
    fn flood(
        &mut self,
        state: &State,
        i: usize,
        t: usize,
        from: usize,
        mut visit: impl FnMut(usize),
    ) {
        if let &[d0, d1] = &self.directions[t][..] {
            // A slider: along its rail both ways, without the queue and
            // stamps. One cell wide, a step either way newly covers one
            // cell, so its check is one look; else the whole leading edge
            // is checked.
            if let Some(r) = self.one_look[t] {
                self.walk_one_look(state, i, from, r, visit);
            } else {
                rail(
                    from,
                    |at| self.step_target(state, i, t, at, d0),
                    |at| self.step_target(state, i, t, at, d1),
                    visit,
                );
            }
            return;
        }
        if let Some(bits) = &self.flood_bits {
            let offsets = self.shapes.cells(t);
            let own = (offsets.iter()).fold(0u64, |m, &off| m | 1 << (from as i32 + off));
            let free = spaces::free_mask(&state.owner[..self.cells]) | own;
            bits.flood(t, offsets, &self.directions[t], (from, free), visit);
            return;
        }
        self.stamps.clear();
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        queue.push(from as u16);
        self.stamps.mark(from);
        let mut head = 0;
        while head < queue.len() {
            let at = queue[head] as usize;
            head += 1;
            for &d in &self.directions[t] {
                if let Some(q) = self.step_target(state, i, t, at, d) {
                    if !self.stamps.marked(q) {
                        self.stamps.mark(q);
                        queue.push(q as u16);
                        visit(q);
                    }
                }
            }
        }
        self.queue = queue;
    }

    /// Visits the anchors a one-cell-wide slider (instance `i`, of the
    /// type whose rail is `r`, at `from`) reaches along its rail, in
    /// [`rail`]'s order.
    #[inline(always)]
    fn walk_one_look(
        &self,
        state: &State,
        i: usize,
        from: usize,
        r: OneLookRail,
        visit: impl FnMut(usize),
    ) {
        let hop = &self.hop[r.hop..r.hop + self.cells * 4];
        let me = i as u16;
        let step = |at: usize, k: usize| -> Option<usize> {
            let q = hop[at * 4 + r.d[k]];
            if q == NONE {
                return None;
            }
            let o = state.owner[(at as i32 + r.lead[k]) as usize];
            (o == NO_OWNER || o == me).then_some(q as usize)
        };
        rail(from, |at| step(at, 0), |at| step(at, 1), visit);
    }

    /// The direction (index into [`Direction::ALL`]) of a one-cell step
    /// `m`; `None` for a longer move.
    #[inline]
    pub fn step_direction(&self, m: Move) -> Option<usize> {
        self.neighbor[m.from as usize]
            .iter()
            .position(|&n| n == m.to)
    }

    /// Moves a block in place.
    #[inline]
    pub fn apply(&self, state: &mut State, m: Move) {
        let t = self.shapes.type_of(m.instance as usize);
        for &off in self.shapes.cells(t) {
            state.owner[(m.from as i32 + off) as usize] = NO_OWNER;
        }
        for &off in self.shapes.cells(t) {
            state.owner[(m.to as i32 + off) as usize] = m.instance;
        }
        state.anchors[m.instance as usize] = m.to;
    }

    /// Reverts [`MoveGenerator::apply`].
    #[inline]
    pub fn undo(&self, state: &mut State, m: Move) {
        self.apply(
            state,
            Move {
                instance: m.instance,
                from: m.to,
                to: m.from,
            },
        );
    }

    /// The unit steps of a shortest path of instance `i` from where it stands
    /// to `to`, the other blocks fixed (for printing solutions).
    pub fn path(&mut self, state: &State, i: usize, to: usize) -> Option<Vec<Direction>> {
        let t = self.shapes.type_of(i);
        let from = state.anchors[i] as usize;
        if from == to {
            return Some(Vec::new());
        }
        let mut parent: Vec<(u16, u8)> = vec![(NONE, 0); self.cells];
        let mut queue = std::collections::VecDeque::from([from]);
        parent[from] = (from as u16, 0);
        while let Some(at) = queue.pop_front() {
            for &d in &self.directions[t] {
                if let Some(q) = self.step_target(state, i, t, at, d) {
                    if parent[q].0 == NONE {
                        parent[q] = (at as u16, d as u8);
                        if q == to {
                            let mut steps = Vec::new();
                            let mut x = q;
                            while x != from {
                                let (p, d) = parent[x];
                                steps.push(Direction::ALL[d as usize]);
                                x = p as usize;
                            }
                            steps.reverse();
                            return Some(steps);
                        }
                        queue.push_back(q);
                    }
                }
            }
        }
        None
    }
}

/// Per cell, its neighbour in each of [`Direction::ALL`] (or [`NONE`],
/// `u16::MAX`, off the board).
pub(crate) fn neighbor_table(board: &crate::model::Board) -> Vec<[u16; 4]> {
    let mut neighbor = vec![[NONE; 4]; board.len()];
    for (c, n) in neighbor.iter_mut().enumerate() {
        for (k, d) in Direction::ALL.iter().enumerate() {
            let (dr, dc) = d.delta();
            if let Some(x) = board.offset(c, dr, dc) {
                n[k] = x as u16;
            }
        }
    }
    neighbor
}

/// [`MoveGenerator::hop`]: per type, anchor and direction, the neighbour
/// where the type fits, else [`NONE`].
fn hop_table(neighbor: &[[u16; 4]], fits: &[bool], types: usize) -> Vec<u16> {
    let cells = neighbor.len();
    let mut hop = Vec::with_capacity(types * cells * 4);
    for t in 0..types {
        for n in neighbor {
            for &q in n {
                let fits = q != NONE && fits[t * cells + q as usize];
                hop.push(if fits { q } else { NONE });
            }
        }
    }
    hop
}

/// [`MoveGenerator::edges`]: per entry of `hop`, the bits of the cells the
/// step newly covers (its type's leading edge from the anchor), 0 where
/// the step is off the board or does not fit.
fn edge_table(hop: &[u16], leading: &[[Vec<i32>; 4]], cells: usize) -> Vec<u64> {
    hop.iter()
        .enumerate()
        .map(|(k, &q)| {
            let (t, at, d) = (k / (cells * 4), k / 4 % cells, k % 4);
            if q == NONE {
                return 0;
            }
            leading[t][d]
                .iter()
                .fold(0, |m, &off| m | 1u64 << (at as i32 + off))
        })
        .collect()
}

/// [`MoveGenerator::fits`]: per type and anchor, whether the type's shape
/// fits there on the empty board (walls, board edges and, for non-masters,
/// doors excluded).
fn fit_table(puzzle: &Puzzle) -> Vec<bool> {
    let board = &puzzle.board;
    let cells = board.len();
    let mut fits = vec![false; puzzle.types.len() * cells];
    for (t, ty) in puzzle.types.iter().enumerate() {
        for a in 0..cells {
            fits[t * cells + a] = ty.shape.offsets().iter().all(|&(dr, dc)| {
                board
                    .offset(a, dr, dc)
                    .is_some_and(|x| board.allows(x, ty.is_master))
            });
        }
    }
    fits
}

/// A shape's leading edges ([`MoveGenerator::leading`]): per direction of
/// [`Direction::ALL`], the cell offsets from its anchor, on a board `w`
/// cells wide, that a one-cell step newly covers (`own`: the shape's cells
/// from its anchor).
fn leading_edges(own: &[(i32, i32)], w: i32) -> [Vec<i32>; 4] {
    Direction::ALL.map(|d| {
        let (dr, dc) = d.delta();
        own.iter()
            .map(|&(r, c)| (r + dr, c + dc))
            .filter(|x| !own.contains(x))
            .map(|(r, c)| r * w + c)
            .collect()
    })
}

/// The directions (indices into [`Direction::ALL`]) a type may move in:
/// all four, or a slider's two along its axis.
fn type_directions(slider: Option<Axis>) -> Vec<usize> {
    match slider {
        None => vec![0, 1, 2, 3],
        Some(Axis::Vertical) => vec![0, 1],
        Some(Axis::Horizontal) => vec![2, 3],
    }
}

/// [`MoveGenerator::open`]: the board's non-wall cells.
fn open_cells(board: &crate::model::Board) -> Vec<u16> {
    (0..board.len())
        .filter(|&c| board.kind(c) != crate::model::CellKind::Wall)
        .map(|c| c as u16)
        .collect()
}

/// [`MoveGenerator::direction_bits`]: per type, its directions as bits
/// (bit `d` for direction `d`).
fn direction_bits(directions: &[Vec<usize>]) -> Vec<u8> {
    directions
        .iter()
        .map(|ds: &Vec<usize>| ds.iter().fold(0u8, |m, &d| m | 1 << d))
        .collect()
}

/// Whether the blocks' leading edges suit counting steps per edge
/// ([`MoveGenerator::generate_counted`]): none longer than a tally's byte
/// lane holds, and long enough on average ([`COUNT_FROM_EDGE`]).
fn counts_edges(puzzle: &Puzzle, leading: &[[Vec<i32>; 4]], directions: &[Vec<usize>]) -> bool {
    let short_edges = leading
        .iter()
        .flatten()
        .all(|e| e.len() <= counted::MAX_EDGE);
    short_edges && mean_edge(puzzle, leading, directions) >= COUNT_FROM_EDGE
}

/// [`MoveGenerator::edge_lanes`]: per type, the length of its leading edge
/// in each direction as the byte lanes of a tally.
fn edge_lanes(leading: &[[Vec<i32>; 4]]) -> Vec<u32> {
    leading
        .iter()
        .map(|l: &[Vec<i32>; 4]| {
            (0..4).fold(0, |m, d| {
                m | (l[d].len().min(counted::MAX_EDGE) as u32) << (8 * d)
            })
        })
        .collect()
}

/// [`MoveGenerator::lanes`]: per instance, the byte lanes of the
/// directions it may step in (none when locked).
fn instance_lanes(shapes: &ShapeTable, movable: &[bool], direction_bits: &[u8]) -> Vec<u32> {
    (0..movable.len())
        .map(|i| match movable[i] {
            true => counted::lanes(direction_bits[shapes.type_of(i)]),
            false => 0,
        })
        .collect()
}

/// [`MoveGenerator::one_look`]: per type, its [`OneLookRail`] if it has
/// one (its rows of the hop table start at `t * cells * 4`).
fn one_look_rails(
    directions: &[Vec<usize>],
    leading: &[[Vec<i32>; 4]],
    cells: usize,
) -> Vec<Option<OneLookRail>> {
    directions
        .iter()
        .zip(leading)
        .enumerate()
        .map(|(t, (ds, lead))| OneLookRail::of(ds, lead, t * cells * 4))
        .collect()
}

/// [`MoveGenerator::cars`]: per instance, its type's rail when it is a
/// movable one-wide slider under `--metric moves`.
fn car_rails(
    shapes: &ShapeTable,
    metric: Metric,
    movable: &[bool],
    one_look: &[Option<OneLookRail>],
) -> Vec<Option<OneLookRail>> {
    (0..movable.len())
        .map(|i| {
            let t = shapes.type_of(i);
            (metric == Metric::Moves && movable[i])
                .then_some(one_look[t])
                .flatten()
        })
        .collect()
}

/// [`MoveGenerator::lowest_offset`]: the lowest cell of any shape relative
/// to its anchor, in cells, 0 when none lies before its anchor.
fn lowest_offset(puzzle: &Puzzle) -> isize {
    let w = puzzle.board.width() as i32;
    puzzle
        .types
        .iter()
        .flat_map(|ty| ty.shape.offsets().iter())
        .map(|&(dr, dc)| (dr * w + dc) as isize)
        .min()
        .unwrap_or(0)
        .min(0)
}

/// A one-cell-wide slider's rail: its two directions (indices into
/// [`Direction::ALL`]) and, for each, the offset from the anchor of the one
/// cell a step newly covers, so that a step is checked with one look.
#[derive(Clone, Copy, Debug)]
struct OneLookRail {
    d: [usize; 2],
    lead: [i32; 2],
    /// Where the type's rows of [`MoveGenerator::hop`] start.
    hop: usize,
}

impl OneLookRail {
    /// The rail of a type with these directions and leading edges, if it
    /// is a slider whose steps each newly cover one cell.
    fn of(directions: &[usize], leading: &[Vec<i32>; 4], hop: usize) -> Option<OneLookRail> {
        match *directions {
            [d0, d1] => match (&leading[d0][..], &leading[d1][..]) {
                (&[l0], &[l1]) => Some(OneLookRail {
                    d: [d0, d1],
                    lead: [l0, l1],
                    hop,
                }),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A slider's walk along its rail from `from`: one step each way in turn
/// (`ahead` and `back`: where a step from an anchor lands, if it may), each
/// way until its first blocked step, visiting every anchor reached in the
/// order a flood fill would.
#[inline(always)]
fn rail(
    from: usize,
    ahead: impl Fn(usize) -> Option<usize>,
    back: impl Fn(usize) -> Option<usize>,
    mut visit: impl FnMut(usize),
) {
    let (mut a, mut b) = (Some(from), Some(from));
    while a.is_some() || b.is_some() {
        a = a.and_then(&ahead);
        if let Some(q) = a {
            visit(q);
        }
        b = b.and_then(&back);
        if let Some(q) = b {
            visit(q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats;

    /// Along a walk through each puzzle, space-driven generation (only the
    /// steps towards an empty cell; under steps on the boards with masks,
    /// Sunshine's, American Pie's and Ithaca's, counted per leading edge)
    /// gives the same moves as trying every block in every direction, under
    /// both metrics, with a skipped block and with a skipped step.
    #[test]
    fn space_driven_generation_finds_every_move_block_by_block_finds() {
        for file in [
            "klotski/sunshine.txt",
            "klotski/american_pie.txt",
            "klotski/ithaca.txt",
            "klotski/classic.txt",
            "rushhour/rush_30.txt",
            "tiles/korf_01.txt",
        ] {
            let puzzle = &formats::bundled(file);
            for metric in [Metric::Steps, Metric::Moves] {
                let mut by_space = MoveGenerator::new(puzzle, metric, &[]);
                by_space.space_driven = true;
                by_space.counted = by_space.masks.is_some() && metric == Metric::Steps;
                let mut by_block = by_space.clone();
                by_block.space_driven = false;
                let mut state = State::new(puzzle);
                state.load(&puzzle.start, by_space.shapes());
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for step in 0..200 {
                    let i = step % state.anchors.len();
                    let skip = match step % 3 {
                        0 => Skip::block(i),
                        1 if metric == Metric::Steps => Skip::step(i, step % 4),
                        _ => Skip::NONE,
                    };
                    by_space.generate_skipping(&state, skip, &mut a);
                    by_block.generate_skipping(&state, skip, &mut b);
                    let key = |m: &Move| (m.instance, m.from, m.to);
                    a.sort_by_key(key);
                    b.sort_by_key(key);
                    assert_eq!(a, b, "{file} {metric:?} step {step}");
                    assert!(!a.is_empty(), "{file}: a position without moves");
                    by_space.apply(&mut state, a[(step * 7 + 3) % a.len()]);
                }
            }
        }
    }

    /// Leaving out the steps that commute with the last gives the same
    /// moves whether they are counted per leading edge (space-driven with
    /// masks) or tried block by block, and whether the blocks whose steps
    /// all rank below the last are skipped unlooked at or counted, along a
    /// walk that names each position's last step (skipped, also with the
    /// steps checked block by block beside the spaces): on Sunshine, Ithaca,
    /// American Pie and a dense 8x8 board whose steps are also kept as bits
    /// (64 cells, 20 blocks, 16 spaces).
    #[test]
    fn commuting_steps_left_out_are_the_same_counted_or_block_by_block() {
        let dense = "!\n@\na\n!\n########\n#@aa a #\n#a a aa#\n# aa  a#\n\
            #a  a a#\n#aa  a #\n# a a a#\n########\n!\n########\n#      #\n\
            #      #\n#   @  #\n#      #\n#      #\n#      #\n########\n!\n";
        let puzzles = [
            formats::bundled("klotski/sunshine.txt"),
            formats::bundled("klotski/ithaca.txt"),
            formats::bundled("klotski/american_pie.txt"),
            formats::native::parse(dense, "dense").unwrap(),
        ];
        for puzzle in &puzzles {
            let mut counted = MoveGenerator::new(puzzle, Metric::Steps, &[]);
            assert!(counted.masks.is_some(), "{:?}: no masks", puzzle.name);
            counted.counted = true;
            let mut by_block = counted.clone();
            by_block.space_driven = false;
            let mut ranked = counted.clone();
            ranked.tally_left_out(false);
            let mut ranked_towards = ranked.clone();
            ranked_towards.counted = false;
            let mut state = State::new(puzzle);
            state.load(&puzzle.start, counted.shapes());
            let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            counted.generate(&state, &mut a);
            let mut last = a[0];
            counted.apply(&mut state, last);
            let mut skipped_unranked = 0;
            for step in 0..5000 {
                let back = counted.step_direction(last).unwrap() ^ 1;
                let skip = Skip::last_step(last.instance as usize, back);
                let left_a = counted.generate_skipping(&state, skip, &mut a);
                let left_b = by_block.generate_skipping(&state, skip, &mut b);
                let left_c = ranked.generate_skipping(&state, skip, &mut c);
                ranked_towards.generate_skipping(&state, skip, &mut d);
                let key = |m: &Move| (m.instance, m.from, m.to);
                a.sort_by_key(key);
                b.sort_by_key(key);
                c.sort_by_key(key);
                d.sort_by_key(key);
                assert_eq!((&a, left_a), (&b, left_b), "{:?} step {step}", puzzle.name);
                // Without the tally, the blocks anchored a row above the
                // last step's are skipped: the same moves, fewer counted.
                assert_eq!(c, a, "{:?} step {step}, unranked skipped", puzzle.name);
                assert_eq!(
                    d, a,
                    "{:?} step {step}, unranked skipped, uncounted",
                    puzzle.name
                );
                assert!(left_c <= left_a);
                skipped_unranked += (left_c < left_a) as usize;
                counted.generate(&state, &mut a);
                last = a[(step * 7 + 3) % a.len()];
                counted.apply(&mut state, last);
            }
            assert!(
                skipped_unranked > 50,
                "{:?}: {skipped_unranked}",
                puzzle.name
            );
        }
    }

    /// Skipping a step leaves the other moves in the order they come in
    /// without the skip (so capped searches and ties do not change), and
    /// leaves out exactly the steps of that block in those directions.
    #[test]
    fn a_skipped_step_leaves_the_other_moves_in_their_order() {
        for file in [
            "klotski/sunshine.txt",
            "klotski/century.txt",
            "tiles/korf_01.txt",
        ] {
            let puzzle = &formats::bundled(file);
            for space_driven in [true, false] {
                let mut moves = MoveGenerator::new(puzzle, Metric::Steps, &[]);
                moves.space_driven = space_driven;
                let mut state = State::new(puzzle);
                state.load(&puzzle.start, moves.shapes());
                let (mut all, mut some) = (Vec::new(), Vec::new());
                for step in 0..150 {
                    moves.generate(&state, &mut all);
                    let m = all[(step * 7 + 3) % all.len()];
                    let d = moves.step_direction(m).unwrap();
                    moves.generate_skipping(&state, Skip::step(m.instance as usize, d), &mut some);
                    let kept: Vec<Move> = all
                        .iter()
                        .copied()
                        .filter(|x| x.instance != m.instance || moves.step_direction(*x) != Some(d))
                        .collect();
                    assert_eq!(some, kept, "{file} step {step}");
                    assert_eq!(kept.len() + 1, all.len(), "{file}: one step left out");
                    moves.apply(&mut state, m);
                }
            }
        }
    }

    /// Under `--metric moves` on boards of up to 64 cells the flood runs as
    /// bits (`flood_bits.rs`): the same moves as the queue of anchors (in
    /// another order) along random walks, on bundled boards (Klotski,
    /// Layton, sliders, the 15-puzzle) and on random boxes of dominoes,
    /// squares and units with walls.
    #[test]
    fn the_flood_as_bits_reaches_the_anchors_of_the_queue() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let files = [
            "klotski/classic.txt",
            "klotski/red_donkey.txt",
            "layton/four_balls.txt",
            "layton/the_time_machine.txt",
            "special/fig7_3b_sliders.txt",
            "tiles/korf_01.txt",
        ];
        let puzzles = crate::search::test_boxes::bundled_and_boxes(&files, 40, &mut rng);
        let mut compared = 0;
        for puzzle in &puzzles {
            let mut bits = MoveGenerator::new(puzzle, Metric::Moves, &[]);
            if bits.flood_bits.is_none() {
                assert!(puzzle.board.len() > 64, "{puzzle:?}");
                continue;
            }
            let mut queue = bits.clone();
            queue.flood_bits = None;
            let mut state = State::new(puzzle);
            state.load(&puzzle.start, bits.shapes());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for step in 0..200 {
                bits.generate(&state, &mut a);
                queue.generate(&state, &mut b);
                let key = |m: &Move| (m.instance, m.from, m.to);
                a.sort_by_key(key);
                b.sort_by_key(key);
                assert_eq!(a, b, "step {step} of {puzzle:?}");
                if a.is_empty() {
                    break;
                }
                compared += a.len();
                bits.apply(&mut state, a[rng.gen_range(0..a.len())]);
            }
        }
        assert!(compared > 20_000, "{compared} moves compared");
    }

    /// On boards of up to 64 cells a step is checked as bits (`edges`):
    /// the same moves in the same order as the looks at each leading-edge
    /// cell, along a walk of 400 moves from the start, on boards generated
    /// space by space (the bench, Century, the 15-puzzle) and block by
    /// block (a Rush Hour board under steps).
    #[test]
    fn step_bits_give_the_moves_of_the_cell_looks_in_their_order() {
        for file in [
            "bench/bench_1e6.txt",
            "bench/bench_1e7.txt",
            "klotski/century.txt",
            "tiles/korf_01.txt",
            "rushhour/rush_40.txt",
            "special/fig7_3b_sliders.txt",
        ] {
            let puzzle = &formats::bundled(file);
            let mut bits = MoveGenerator::new(puzzle, Metric::Steps, &[]);
            assert!(!bits.edges.is_empty(), "{file}: no step bits");
            let mut looks = bits.clone();
            looks.edges.clear();
            let mut state = State::new(puzzle);
            state.load(&puzzle.start, bits.shapes());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for step in 0..400 {
                bits.generate(&state, &mut a);
                looks.generate(&state, &mut b);
                assert_eq!(a, b, "{file} step {step}");
                assert!(!a.is_empty());
                bits.apply(&mut state, a[(step * 7 + 3) % a.len()]);
            }
        }
    }

    /// The bit masks visit the blocks beside the spaces in the same order
    /// as looking around every empty open cell, so the moves come in the
    /// same order and capped searches and ties do not change.
    #[test]
    fn space_masks_visit_what_the_cell_scan_visits_in_its_order() {
        for file in ["klotski/sunshine.txt", "klotski/american_pie.txt"] {
            let puzzle = &formats::bundled(file);
            let mut masked = MoveGenerator::new(puzzle, Metric::Steps, &[]);
            assert!(masked.masks.is_some(), "{file}: no masks");
            let mut scan = masked.clone();
            scan.masks = None;
            let mut state = State::new(puzzle);
            state.load(&puzzle.start, masked.shapes());
            let mut list = Vec::new();
            for step in 0..300 {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                masked.beside_spaces(&state, 0, 0, |o, d| a.push((o, d)));
                scan.beside_spaces(&state, 0, 0, |o, d| b.push((o, d)));
                assert_eq!(a, b, "{file} step {step}");
                assert!(!a.is_empty());
                masked.generate(&state, &mut list);
                masked.apply(&mut state, list[(step * 7 + 3) % list.len()]);
            }
        }
    }
}
