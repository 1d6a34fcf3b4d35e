//! The sets a planner has tried, kept so that the proximity search's test
//! of a draw (`plan.rs`: no tried set nearer than the least distance, some
//! within the radius) does not compare the draw with every tried set.
//!
//! Each set is kept with its [`Point`] (computed once), grouped by its
//! class ([`Point::class`]: the parameters that take whole steps). The
//! distance between two sets is at least that between their classes, so a
//! class farther than the least distance holds no set that rejects the draw,
//! and one farther than the radius none that accepts it: only the sets of
//! nearer classes are compared, and the set the draw was made from first.
//! Within a class the sets are sorted by their place on the class's line
//! ([`Point::place_in`]), where they lie no farther from a draw than their
//! distance allows, so only those placed within reach of it are compared
//! (all of them where the draw has no place on that line). The answer is
//! the one comparing every set would give. `reasoner settings
//! --grid 3000` took 18 s when every draw was compared with every tried set
//! (each comparison making two normal forms).

use crate::params::ParamSet;
use crate::space::{Point, Space};

/// Tried sets in plan order, with their points grouped by class.
#[derive(Clone, Debug, Default)]
pub struct Tried {
    sets: Vec<ParamSet>,
    points: Vec<Point>,
    /// Each class with its sets: their places on the class's line
    /// ([`Point::place_in`]) and indices into `sets`, by place.
    classes: Vec<(Point, Vec<(f64, usize)>)>,
}

/// Slack added to a reach on the line, against rounding in the sums that
/// place a set there (at most a few units in the last place of the place).
fn slack(place: f64) -> f64 {
    1e-9 * (1.0 + place.abs())
}

impl Tried {
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The `i`-th set tried.
    pub fn get(&self, i: usize) -> &ParamSet {
        &self.sets[i]
    }

    /// Adds a set (of `space`).
    pub fn push(&mut self, space: &Space, set: ParamSet) {
        let point = space.point(&set);
        let class = point.class();
        let place = point.place_in(&class).unwrap_or(0.0);
        let entry = (place, self.sets.len());
        match self.classes.iter_mut().find(|(c, _)| *c == class) {
            Some((_, members)) => {
                let at = members.partition_point(|m| m.0 <= entry.0);
                members.insert(at, entry);
            }
            None => self.classes.push((class, vec![entry])),
        }
        self.sets.push(set);
        self.points.push(point);
    }

    /// Whether some tried set is at distance 0 of `point` (the same search).
    pub fn holds(&self, point: &Point) -> bool {
        self.any_within(point, 0.0, |d| d == 0.0)
    }

    /// Whether a draw at `point`, made from tried set `from`, is accepted:
    /// no tried set is nearer than `min`, and some is within `radius`.
    pub fn accepts(&self, point: &Point, from: usize, min: f64, radius: f64) -> bool {
        if min > 0.0 && self.any_within(point, min, |d| d < min) {
            return false;
        }
        if self.points[from].distance(point) <= radius {
            return true;
        }
        self.any_within(point, radius, |d| d <= radius)
    }

    /// Whether the distance `d` of some tried set to `point` has `hit(d)`,
    /// where `hit` holds for no distance above `reach`: classes farther than
    /// `reach` are skipped whole, and in the others the sets placed on the
    /// line farther than what is left of `reach`.
    fn any_within(&self, point: &Point, reach: f64, hit: impl Fn(f64) -> bool) -> bool {
        let class = point.class();
        self.classes.iter().any(|(c, members)| {
            let left = reach - c.class_distance(&class);
            if left < 0.0 {
                return false;
            }
            let near = match point.place_in(c) {
                Some(place) => {
                    let left = left + slack(place);
                    let from = members.partition_point(|m| m.0 < place - left);
                    let to = members.partition_point(|m| m.0 <= place + left);
                    &members[from..to.max(from)]
                }
                None => &members[..],
            };
            near.iter()
                .any(|&(_, i)| hit(self.points[i].distance(point)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Algorithm, Heuristic, Value};
    use crate::space::tests::fixture;

    /// The brute-force test the index stands for.
    fn accepted_by_all(
        space: &Space,
        sets: &[ParamSet],
        c: &ParamSet,
        min: f64,
        radius: f64,
    ) -> bool {
        let d: Vec<f64> = sets.iter().map(|t| space.distance(t, c)).collect();
        !d.iter().any(|d| *d < min) && d.iter().any(|d| *d <= radius)
    }

    #[test]
    fn the_index_answers_as_comparing_every_set_does() {
        let space = fixture();
        let mut sets = Vec::new();
        for (k, algorithm) in [Algorithm::Bfs, Algorithm::Astar, Algorithm::Ida]
            .into_iter()
            .enumerate()
        {
            for h in ["h0", "h2", "path"] {
                for w in [1.0, 2.0, 3.0, 7.0] {
                    for sv in [None, Some(10 + k as u64), Some(13)] {
                        let mut p = ParamSet {
                            algorithm,
                            heuristic: Heuristic::new(h),
                            weight: w,
                            ..ParamSet::default()
                        };
                        if let Some(v) = sv {
                            p = p.with("space_value", Value::Whole(v));
                        }
                        sets.push(space.normalized(p));
                    }
                }
            }
        }
        let mut tried = Tried::default();
        let (known, probes) = sets.split_at(sets.len() / 2);
        for s in known {
            tried.push(&space, s.clone());
        }
        assert_eq!(tried.len(), known.len());
        let mut answers = [0, 0];
        for (min, radius) in [(0.5, 2.0), (1.0, 3.0), (0.0, 1.0)] {
            for (i, c) in probes.iter().chain(known).enumerate() {
                let point = space.point(c);
                let from = i % known.len();
                let want = accepted_by_all(&space, known, c, min, radius);
                assert_eq!(tried.accepts(&point, from, min, radius), want, "{c}");
                answers[want as usize] += 1;
                let same = known.iter().any(|t| space.distance(t, c) == 0.0);
                assert_eq!(tried.holds(&point), same, "{c}");
            }
        }
        assert!(answers[0] > 0 && answers[1] > 0, "{answers:?}");
    }
}
