//! What the integration tests share: the bundled puzzle collection.

/// Every puzzle file under `puzzles/`, sorted.
pub fn bundled_puzzles() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("puzzles/ exists") {
        let path = dir.unwrap().path();
        if path.is_dir() {
            for f in std::fs::read_dir(&path).unwrap() {
                files.push(f.unwrap().path());
            }
        } else if path.extension().is_some_and(|e| e == "txt") {
            files.push(path);
        }
    }
    files.sort();
    files
}
