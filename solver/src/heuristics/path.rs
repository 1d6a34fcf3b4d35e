//! path: the cheapest route of each goal block (the master) to its goal
//! through the others. A step of the master costs one, plus one for every
//! cell of its leading edge that another block covers (each such block has
//! to move at least once before the master can step there); the estimate is
//! the cheapest route's cost, found by A* over the master's anchors on this
//! position's board (walls, doors and the board's edge as they are, the
//! other blocks as costs instead of obstacles). Interchangeable goal blocks
//! add their Manhattan distance, as in h0.
//!
//! Unlike h0, it sees walls (a master that must go round a wall to reach a
//! door) and a crowded route (blocks standing between the master and its
//! goal), so greedy searches that follow it clear the master's way instead
//! of pushing it against the blocks in front. Not admissible: a block that
//! stands on the route at several steps is counted at each.

use super::{Admissible, Context, Heuristic, Spec};
use crate::geometry::Geometry;
use crate::moves::{MoveGenerator, State, NO_OWNER};

/// The registration of path (see [`super::REGISTRY`]).
pub const SPEC: Spec = Spec {
    name: "path",
    doc: "Cheapest route of the master to its goal, each step costing one plus the cells other blocks cover in front of it.",
    admissible: Admissible::Never,
    proximity: true,
    options: &[],
    build: |cx: &Context| Box::new(RouteCost::new(cx)),
};

/// One goal block's routes on the empty board.
struct Routes {
    instance: usize,
    goal: usize,
    /// Per anchor: its steps, each one word, `next anchor << 2 | direction`
    /// (the edge is the direction's, in `edges`, not a copy per step).
    steps: Vec<Vec<u32>>,
    /// Per direction: the leading-edge offsets of the block's shape (the
    /// same from every anchor).
    edges: [Vec<i32>; 4],
    /// Per anchor: unit steps to the goal on the empty board (`u32::MAX`
    /// where the goal is out of reach), the A* potential.
    rest: Vec<u32>,
}

pub struct RouteCost {
    geometry: Geometry,
    routes: Vec<Routes>,
    /// Scratch for the route search: best cost per anchor and its stamp,
    /// and per cell 1 where another block than the searched one covers it
    /// (filled once a search, so that a step adds its leading edge's
    /// bytes instead of testing each cell's owner twice: those tests were
    /// a quarter of an A* w5 run on Ithaca).
    cost: Vec<u32>,
    stamp: Vec<u32>,
    covered: Vec<u8>,
    generation: u32,
    /// The route search's open list as a bucket queue by f - f(start):
    /// step costs are whole numbers and the potential (`rest`, unit steps on
    /// the empty board) is consistent, so f never falls and the buckets are
    /// taken in order; a binary heap's pops were 16% of an A* run on Ithaca.
    buckets: Vec<Vec<(u32, u16)>>,
}

impl RouteCost {
    fn new(cx: &Context) -> RouteCost {
        let puzzle = cx.puzzle;
        let moves = MoveGenerator::new(puzzle, cx.params.metric, &[]);
        let cells = puzzle.board.len();
        let routes = cx
            .geometry
            .unique_targets()
            .iter()
            .map(|&(i, g)| {
                let t = puzzle.instance_type(i as usize);
                let edges = std::array::from_fn(|d| moves.leading_edge(t, d).to_vec());
                let steps: Vec<Vec<u32>> = (0..cells)
                    .map(|a| {
                        (0..4)
                            .filter_map(|d| {
                                Some((moves.empty_step(t, a, d)? as u32) << 2 | d as u32)
                            })
                            .collect()
                    })
                    .collect();
                let rest = distances_to(&steps, g as usize);
                Routes {
                    instance: i as usize,
                    goal: g as usize,
                    steps,
                    edges,
                    rest,
                }
            })
            .collect();
        RouteCost {
            geometry: cx.geometry.clone(),
            routes,
            cost: vec![0; cells],
            stamp: vec![0; cells],
            covered: vec![0; cells],
            generation: 0,
            buckets: Vec::new(),
        }
    }

    /// The cheapest route's cost for one goal block, or its Manhattan
    /// distance when the goal is out of its reach on the empty board.
    fn route(&mut self, r: usize, state: &State) -> u32 {
        let routes = &self.routes[r];
        let from = state.anchors[routes.instance] as usize;
        if routes.rest[from] == u32::MAX {
            return self.geometry.manhattan(from, routes.goal);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let me = routes.instance as u16;
        for (c, &o) in self.covered.iter_mut().zip(&state.owner) {
            *c = (o != NO_OWNER && o != me) as u8;
        }
        let covered = &self.covered;
        let base = routes.rest[from];
        let buckets = &mut self.buckets;
        if buckets.is_empty() {
            buckets.push(Vec::new());
        }
        buckets[0].push((0, from as u16));
        self.stamp[from] = g;
        self.cost[from] = 0;
        // Buckets below `k` are empty; `top` is the highest one used.
        let (mut k, mut top) = (0, 0);
        let mut found = None;
        while k <= top {
            let Some((c, at)) = buckets[k].pop() else {
                k += 1;
                continue;
            };
            let at = at as usize;
            if at == routes.goal {
                found = Some(c);
                break;
            }
            if c > self.cost[at] {
                continue;
            }
            for &step in &routes.steps[at] {
                let (q, d) = ((step >> 2) as usize, (step & 3) as usize);
                // An anchor already reached at no more than the cheapest
                // step's cost is not improved, whatever the edge holds (the
                // step back to where the search came from, most often): its
                // edge is not counted.
                let seen = self.stamp[q] == g;
                if seen && self.cost[q] <= c + 1 {
                    continue;
                }
                let mut blocked = 0;
                for &off in &routes.edges[d] {
                    blocked += covered[(at as i32 + off) as usize] as u32;
                }
                let c2 = c + 1 + blocked;
                if !seen || c2 < self.cost[q] {
                    self.stamp[q] = g;
                    self.cost[q] = c2;
                    let f = (c2 + routes.rest[q] - base) as usize;
                    if f >= buckets.len() {
                        buckets.resize_with(f + 1, Vec::new);
                    }
                    buckets[f].push((c2, q as u16));
                    top = top.max(f);
                }
            }
        }
        for b in &mut buckets[k.min(top)..=top] {
            b.clear();
        }
        found.unwrap_or_else(|| self.geometry.manhattan(from, routes.goal))
    }
}

/// Unit steps from every anchor to `goal` over `steps` (steps are
/// reversible on the empty board, so a search from the goal gives them).
fn distances_to(steps: &[Vec<u32>], goal: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; steps.len()];
    dist[goal] = 0;
    let mut queue = std::collections::VecDeque::from([goal]);
    while let Some(at) = queue.pop_front() {
        for &step in &steps[at] {
            let q = (step >> 2) as usize;
            if dist[q] == u32::MAX {
                dist[q] = dist[at] + 1;
                queue.push_back(q);
            }
        }
    }
    dist
}

impl Heuristic for RouteCost {
    fn name(&self) -> &'static str {
        "path"
    }

    fn estimate(&mut self, state: &State) -> u32 {
        let mut total = self.geometry.shared_goal_distance(state);
        for r in 0..self.routes.len() {
            total += self.route(r, state);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{self, ImportOptions};
    use crate::params::{Heuristic as Name, SearchParams};

    /// A wall splits the board; the only way across is the bottom row,
    /// where `a` stands. The master's Manhattan distance is 5, its walk 7.
    const DETOUR: &str = "!\n@\na\n!\n\
#######\n#@ #  #\n#  #  #\n#  a  #\n#######\n!\n\
#######\n#  #  #\n#  # @#\n#     #\n#######\n!\n";

    fn estimate_after(moves: &[(usize, u16)]) -> (u32, u32) {
        let puzzle = formats::parse_text(DETOUR, "detour.txt", None, &ImportOptions::default())
            .expect("test puzzle parses")
            .remove(0);
        let geometry = Geometry::new(&puzzle, puzzle.goals.first());
        let params = SearchParams {
            heuristic: Name::new("path"),
            ..SearchParams::default()
        };
        let mut h = super::super::build(&params, &puzzle, &geometry, None);
        let generator = MoveGenerator::new(&puzzle, params.metric, &[]);
        let mut state = State::new(&puzzle);
        state.load(&puzzle.start, generator.shapes());
        for &(instance, to) in moves {
            let from = state.anchors[instance];
            generator.apply(
                &mut state,
                crate::moves::Move {
                    instance: instance as u16,
                    from,
                    to,
                },
            );
        }
        (h.estimate(&state), geometry.goal_distance(&state))
    }

    #[test]
    fn the_route_goes_round_walls_and_pays_for_the_blocks_on_it() {
        let w = 7;
        // The master walks 7 steps round the wall; `a` on the crossing adds 1.
        assert_eq!(estimate_after(&[]), (8, 5));
        // Off the crossing (in the far corner, beside the route) `a` costs nothing.
        assert_eq!(estimate_after(&[(1, (3 * w + 5) as u16)]), (7, 5));
        // In the master's way where a free way is as short, it is walked round.
        assert_eq!(estimate_after(&[(1, (3 * w + 4) as u16)]), (8, 5));
        assert_eq!(estimate_after(&[(1, (2 * w + 4) as u16)]), (7, 5));
        // At the goal the estimate is 0.
        assert_eq!(estimate_after(&[(0, (2 * w + 5) as u16)]), (0, 0));
    }
}
