//! `solver generate`: random sliding-block puzzles of a family, drawn from a
//! seed and kept when the solver's own breadth-first search says they meet
//! a difficulty target. One file per family (its sizes, shapes, walls,
//! doors, sliders and goal, and its defaults); this file holds the loop
//! they share: derive each draw's seed, draw, build through the parsers'
//! builder ([`layout`]), solve ([`check`]), keep or discard, and write the
//! metadata that lets one puzzle be regenerated alone.
//!
//! Seeds: draw `j` of a run with seed `S` uses [`draw_seed`]`(S, j)`, which
//! is `S` itself for the first draw. A puzzle's `% seed` is its draw's
//! seed, so `solver generate --family F --seed SEED --count 1` (with the
//! same size flags, written in `% regenerate`) draws it again first.

mod check;
mod gnome;
mod klotski;
mod layout;
mod mixed;
mod rush;
mod tiles;
mod walls;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use check::{Check, Checked, Verdict};
pub use layout::Layout;

use crate::cli::jobs::{cores, in_order};
use crate::formats::ParseError;
use crate::model::Puzzle;
use crate::search::SearchError;

/// A family of puzzles: its name, what it draws, its default ranges and
/// the function that draws one layout from a seeded generator.
pub struct Family {
    pub name: &'static str,
    pub about: &'static str,
    /// Default inner board width (frame excluded), both ends included.
    pub width: (usize, usize),
    pub height: (usize, usize),
    /// Default empty cells (for `rush`: empty cells the vehicles leave).
    pub spaces: (usize, usize),
    /// The smallest inner width and height the family can draw on.
    pub min_side: (usize, usize),
    pub draw: fn(&mut ChaCha8Rng, &Dims) -> Layout,
    /// The optimal search that checks its draws.
    pub check: Check,
}

/// Every family, in the order `--help` lists them.
pub const FAMILIES: &[&Family] = &[
    &klotski::FAMILY,
    &gnome::FAMILY,
    &rush::FAMILY,
    &mixed::FAMILY,
    &tiles::FAMILY,
    &walls::FAMILY,
];

/// The family named `name`.
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().copied().find(|f| f.name == name)
}

/// The sizes of one draw: the flags' values, or drawn from the family's ranges.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    pub width: usize,
    pub height: usize,
    pub spaces: usize,
}

/// Size flags: `None` lets each draw pick from the family's range.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sizes {
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub spaces: Option<usize>,
}

/// What makes a draw hard enough to keep.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Least optimal length in steps.
    pub min_length: u64,
    /// Least positions the breadth-first solve examines.
    pub min_positions: u64,
    /// Most positions a check examines; a draw it cannot settle is unverified.
    pub max_check: u64,
    /// Keep draws that are unsolvable or unverified.
    pub keep_unsolvable: bool,
}

/// One run of the generator.
pub struct Request {
    pub family: &'static Family,
    pub seed: u64,
    pub count: usize,
    pub sizes: Sizes,
    pub target: Target,
    /// Draw this many candidates and keep the `count` longest.
    pub hardest: Option<usize>,
    /// Count each kept puzzle's reachable space (a second search, within
    /// the check bound) for its `% reachable:` line; off by default, as
    /// it can cost more than the check itself.
    pub count_reachable: bool,
}

/// Draws a run tries per puzzle asked for before it gives up.
pub const DRAWS_PER_PUZZLE: usize = 200;

/// A kept puzzle: with its metadata, its draw's seed and its check.
pub struct Generated {
    pub puzzle: Puzzle,
    pub seed: u64,
    pub checked: Checked,
}

/// Why a run produced no puzzles.
#[derive(Debug)]
pub enum GenerateError {
    /// The size flags do not suit the family.
    Sizes(String),
    /// Too few draws met the target within the draws allowed.
    Shortfall {
        wanted: usize,
        found: usize,
        draws: usize,
    },
    /// A family drew what the builder refuses (a bug in the family).
    Build(ParseError),
    Search(SearchError),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Sizes(m) => f.write_str(m),
            GenerateError::Shortfall { wanted, found, draws } => write!(
                f,
                "could not generate {wanted} puzzles meeting the target ({found} found in {draws} draws); \
                 lower --min-length or --min-positions, raise --max-positions-check, or change the sizes"
            ),
            GenerateError::Build(e) => write!(f, "a drawn puzzle was refused (a generator bug): {e}"),
            GenerateError::Search(e) => write!(f, "checking a drawn puzzle failed: {e}"),
        }
    }
}

/// The seed of draw `j` of a run seeded `seed`: the run's seed for the
/// first draw, a SplitMix64 mix of both for the others.
pub fn draw_seed(seed: u64, j: usize) -> u64 {
    if j == 0 {
        return seed;
    }
    splitmix(seed ^ splitmix(j as u64).rotate_left(17))
}

/// SplitMix64's finaliser: a bijection that spreads nearby inputs apart.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Checks the size flags against the family before any draw.
pub fn check_sizes(family: &Family, sizes: &Sizes) -> Result<(), GenerateError> {
    let fail = |m: String| Err(GenerateError::Sizes(m));
    let (min_w, min_h) = family.min_side;
    let name = family.name;
    if let Some(w) = sizes.width.filter(|&w| w < min_w) {
        return fail(format!(
            "--width {w} is too narrow for family {name}: it needs at least {min_w}"
        ));
    }
    if let Some(h) = sizes.height.filter(|&h| h < min_h) {
        return fail(format!(
            "--height {h} is too low for family {name}: it needs at least {min_h}"
        ));
    }
    if let Some(k) = sizes.spaces {
        let w = sizes.width.unwrap_or(family.width.0);
        let h = sizes.height.unwrap_or(family.height.0);
        if k + 4 > w * h {
            return fail(format!(
                "--spaces {k} leaves no room for blocks on a {w}x{h} board of family {name}: \
                 use fewer spaces (at most {}) or a larger board",
                (w * h).saturating_sub(4)
            ));
        }
    }
    Ok(())
}

/// The sizes of one draw: the flags, or values from the family's ranges.
fn dims(family: &Family, sizes: &Sizes, rng: &mut ChaCha8Rng) -> Dims {
    let mut pick = |given: Option<usize>, (lo, hi): (usize, usize)| {
        given.unwrap_or_else(|| rng.gen_range(lo..=hi))
    };
    let width = pick(sizes.width, family.width);
    let height = pick(sizes.height, family.height);
    let spaces = pick(sizes.spaces, family.spaces);
    Dims {
        width,
        height,
        spaces: spaces.min((width * height).saturating_sub(4)),
    }
}

/// Draws the puzzle of seed `seed` and checks it.
pub fn draw(request: &Request, seed: u64) -> Drawn {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let d = dims(request.family, &request.sizes, &mut rng);
    let layout = (request.family.draw)(&mut rng, &d);
    let puzzle = layout.build().map_err(GenerateError::Build)?;
    let checked = check::solve(&puzzle, request.family.check, request.target.max_check)
        .map_err(GenerateError::Search)?;
    Ok((puzzle, checked))
}

/// One draw's puzzle and check, or why it failed.
type Drawn = Result<(Puzzle, Checked), GenerateError>;

/// True when a draw's check meets the target.
fn meets(target: &Target, c: &Checked) -> bool {
    let enough = c.examined >= target.min_positions;
    match c.verdict {
        Verdict::Solved(n) => enough && n >= target.min_length.max(1),
        Verdict::Unsolvable | Verdict::Unverified => enough && target.keep_unsolvable,
    }
}

/// Runs the generator: `count` puzzles meeting the target (with
/// `hardest`, the longest among that many draws), metadata written.
pub fn generate(request: &Request) -> Result<Vec<Generated>, GenerateError> {
    check_sizes(request.family, &request.sizes)?;
    let draws = request
        .hardest
        .unwrap_or(request.count.saturating_mul(DRAWS_PER_PUZZLE));
    let wants_more = |kept: &[Generated]| request.hardest.is_some() || kept.len() < request.count;
    let mut kept: Vec<Generated> = Vec::new();
    // Draws are checked on every core and kept in draw order, so the puzzles
    // do not depend on the number of cores; once enough are kept, no
    // further draw is taken (`Err(None)` stops the run, as an error would).
    let work = |j| {
        let seed = draw_seed(request.seed, j);
        (seed, draw(request, seed))
    };
    let run = in_order(draws, cores(), work, |_, (seed, drawn): (u64, Drawn)| {
        let (puzzle, checked) = drawn.map_err(Some)?;
        if meets(&request.target, &checked) {
            kept.push(Generated {
                puzzle,
                seed,
                checked,
            });
        }
        if wants_more(&kept) {
            Ok(())
        } else {
            Err(None)
        }
    });
    if let Err(Some(e)) = run {
        return Err(e);
    }
    if request.hardest.is_some() {
        // Longest first; a stable sort keeps draw order among equals.
        kept.sort_by_key(|g| std::cmp::Reverse(optimum(&g.checked)));
        kept.truncate(request.count);
    }
    if kept.len() < request.count {
        return Err(GenerateError::Shortfall {
            wanted: request.count,
            found: kept.len(),
            draws,
        });
    }
    for (k, g) in kept.iter_mut().enumerate() {
        annotate(request, k, g)?;
    }
    Ok(kept)
}

fn optimum(c: &Checked) -> u64 {
    match c.verdict {
        Verdict::Solved(n) => n,
        _ => 0,
    }
}

/// The stem of the `k`-th puzzle's name and file: `<family>-<seed>-<k>`.
pub fn stem(family: &Family, seed: u64, k: usize) -> String {
    format!("{}-{seed}-{k:04}", family.name)
}

/// Writes a kept puzzle's metadata: name, family, its draw's seed, the
/// optimum and reachable positions when known, and the command that
/// regenerates it alone.
fn annotate(request: &Request, k: usize, g: &mut Generated) -> Result<(), GenerateError> {
    if g.checked.reachable.is_none() && request.count_reachable {
        g.checked.reachable =
            check::reachable(&g.puzzle, request.target.max_check).map_err(GenerateError::Search)?;
    }
    let name = stem(request.family, request.seed, k);
    let mut meta = vec![
        ("name".to_string(), name.clone()),
        ("family".to_string(), request.family.name.to_string()),
        ("seed".to_string(), g.seed.to_string()),
    ];
    match g.checked.verdict {
        Verdict::Solved(n) => meta.push(("optimum".into(), format!("{n} steps"))),
        Verdict::Unsolvable => meta.push(("solvable".into(), "no (BFS)".into())),
        Verdict::Unverified => {
            meta.push(("solvable".into(), "unknown (check bound reached)".into()))
        }
    }
    if let Some(p) = g.checked.reachable {
        meta.push(("reachable".into(), format!("{p} positions")));
    }
    meta.push(("regenerate".into(), regenerate(request, g)));
    g.puzzle.name = Some(name);
    g.puzzle.metadata = meta;
    Ok(())
}

/// The command that draws this puzzle again as its first draw.
fn regenerate(request: &Request, g: &Generated) -> String {
    let mut cmd = format!(
        "solver generate --family {} --seed {}",
        request.family.name, g.seed
    );
    let s = &request.sizes;
    for (flag, v) in [
        ("width", s.width),
        ("height", s.height),
        ("spaces", s.spaces),
    ] {
        if let Some(v) = v {
            cmd.push_str(&format!(" --{flag} {v}"));
        }
    }
    if !matches!(g.checked.verdict, Verdict::Solved(_)) {
        cmd.push_str(" --keep-unsolvable");
    }
    if request.target.max_check != DEFAULT_MAX_CHECK {
        cmd.push_str(&format!(
            " --max-positions-check {}",
            request.target.max_check
        ));
    }
    cmd
}

/// Positions a check examines at most unless `--max-positions-check` says
/// otherwise. Half a million settles the families' default sizes in well
/// under a second a draw; larger draws need a larger bound, named.
pub const DEFAULT_MAX_CHECK: u64 = 500_000;
