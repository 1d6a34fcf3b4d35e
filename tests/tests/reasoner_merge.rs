//! End-to-end tests of `reasoner casebase merge`: one case per puzzle (by
//! hash), the better parameters kept, the same file for any input order,
//! bad inputs refused with their file and line and nothing written.

mod reasoner_common;
use reasoner_common::{listed_cases as cases, reasoner_at_root as reasoner, s, Scratch};

fn seed() -> String {
    std::fs::read_to_string(end_to_end::workspace_root().join("casebase/seed.toml")).unwrap()
}

#[test]
fn merging_keeps_one_case_per_puzzle_with_the_fewest_positions() {
    let dir = Scratch::new("merge");
    let seed = seed();
    // B: the seed with its first case solved in fewer positions under a new
    // name, as a job-array task that retained a better run would write it.
    let first = seed
        .find("positions_examined = 13596")
        .expect("seed's first case");
    let mut b = seed.clone();
    b.replace_range(
        first..first + "positions_examined = 13596".len(),
        "positions_examined = 999",
    );
    let b = b.replacen("name = \"Classic Klotski", "name = \"Retained Klotski", 1);
    let (pa, pb) = (dir.path("a.toml"), dir.path("b.toml"));
    std::fs::write(&pa, &seed).unwrap();
    std::fs::write(&pb, &b).unwrap();
    let (ab, ba) = (dir.path("ab.toml"), dir.path("ba.toml"));
    let out = reasoner(&["casebase", "merge", s(&pa), s(&pb), "-o", s(&ab)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("merged 38 cases from 2 case bases")
            && said.contains(": 19 cases, 19 dropped"),
        "{said}"
    );
    let merged = cases(&ab);
    assert_eq!(merged.len(), 19);
    let mut hashes: Vec<&str> = merged
        .iter()
        .map(|c| c["provenance"]["sha256"].as_str().unwrap())
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 19, "every puzzle once");
    let klotski: Vec<_> = merged
        .iter()
        .filter(|c| c["name"].as_str().unwrap().contains("Klotski (Red Donkey"))
        .collect();
    assert_eq!(klotski.len(), 1);
    assert!(klotski[0]["name"].as_str().unwrap().starts_with("Retained"));
    assert_eq!(klotski[0]["outcome"]["positions_examined"], 999);
    // The other order writes the same bytes.
    let out = reasoner(&["casebase", "merge", s(&pb), s(&pa), "-o", s(&ba)]);
    end_to_end::assert_success(&out, "");
    assert_eq!(std::fs::read(&ab).unwrap(), std::fs::read(&ba).unwrap());
    // Merging into one of the inputs replaces it, leaving no temporary file.
    let out = reasoner(&["casebase", "merge", s(&pa), s(&pb), "-o", s(&pa)]);
    end_to_end::assert_success(&out, "");
    assert_eq!(std::fs::read(&pa).unwrap(), std::fs::read(&ab).unwrap());
    let mut names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["a.toml", "ab.toml", "b.toml", "ba.toml"]);
}

#[test]
fn a_broken_input_is_refused_with_its_line_and_nothing_is_written() {
    let dir = Scratch::new("merge-bad");
    let good = dir.path("good.toml");
    std::fs::write(&good, seed()).unwrap();
    let bad = dir.path("bad.toml");
    std::fs::write(
        &bad,
        "version = 1\n\n[[case]]\nname = \"x\"\nfeatures = 3\n",
    )
    .unwrap();
    let out_path = dir.path("out.toml");
    std::fs::write(&out_path, "version = 1\n").unwrap();
    let out = reasoner(&["casebase", "merge", s(&good), s(&bad), "-o", s(&out_path)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:5:", bad.display())), "{err}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "version = 1\n");
    // A missing input and a missing -o are usage errors too.
    let out = reasoner(&[
        "casebase",
        "merge",
        s(&dir.path("none.toml")),
        "-o",
        s(&out_path),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.toml"));
    let out = reasoner(&["casebase", "merge", s(&good)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--output"));
}
