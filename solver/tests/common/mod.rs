//! What the integration tests share: the bundled puzzle collection.

/// Every puzzle file (`.txt`) under `puzzles/` and its folders, sorted; the
/// folders' converters and notes are not puzzles.
pub fn bundled_puzzles() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles");
    let is_puzzle = |p: &std::path::Path| p.extension().is_some_and(|e| e == "txt");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("puzzles/ exists") {
        let path = dir.unwrap().path();
        if path.is_dir() {
            for f in std::fs::read_dir(&path).unwrap() {
                let f = f.unwrap().path();
                if is_puzzle(&f) {
                    files.push(f);
                }
            }
        } else if is_puzzle(&path) {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Every puzzle of the bundled collection, with the file it came from.
pub fn bundled_collection() -> Vec<(std::path::PathBuf, solver::model::Puzzle)> {
    let options = solver::formats::ImportOptions::default();
    let mut all = Vec::new();
    for file in bundled_puzzles() {
        let puzzles = solver::formats::load(file.to_str().unwrap(), None, &options)
            .unwrap_or_else(|e| panic!("{e}"));
        all.extend(puzzles.into_iter().map(|p| (file.clone(), p)));
    }
    all
}

/// The positions of a seeded random walk of up to `steps` moves from the
/// start (fewer where a position has no move), the start first.
pub fn random_walk(
    puzzle: &solver::model::Puzzle,
    moves: &mut solver::moves::MoveGenerator,
    steps: usize,
    rng: &mut impl rand::Rng,
) -> Vec<solver::moves::State> {
    let mut state = solver::moves::State::new(puzzle);
    state.load(&puzzle.start, moves.shapes());
    let mut list = Vec::new();
    let mut walk = Vec::new();
    for _ in 0..steps {
        walk.push(state.clone());
        moves.generate(&state, &mut list);
        if list.is_empty() {
            break;
        }
        moves.apply(&mut state, list[rng.gen_range(0..list.len())]);
    }
    walk
}
